import type { StatementTimeouts } from './statement-timeouts.ts';

/** One interface over the two engines the local stack and the tests run on. */
export type Engine = 'pglite' | 'postgres';

export interface QueryResult<T> {
  rows: T[];
  rowCount: number;
}

export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<T>>;
  /** Runs one or more statements without parameters. */
  exec(sql: string): Promise<void>;
}

export interface TransactionOptions {
  /**
   * Each statement in the transaction may run this long (ms; 0 or absent: no limit). PostgreSQL enforces it
   * through statement_timeout, which the caller sets in the transaction; PGlite ignores that setting, so its
   * worker stops the engine instead (pglite-worker.ts).
   */
  statementTimeoutMs?: number;
}

/** One statement of a transaction sent whole (Database.runTransaction). */
export interface Statement {
  sql: string;
  params?: unknown[];
}

export interface Database extends Queryable {
  readonly engine: Engine;
  /** The API roles' statement timeouts for requests on this database; Supabase's when absent. */
  readonly statementTimeouts?: StatementTimeouts;
  /** Runs fn in one transaction: committed when fn resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * Runs the statements in one transaction and gives each one's result: committed when every statement succeeds,
   * rolled back when one fails. Where a round trip to the engine costs (PGlite in its own thread) the whole
   * transaction is one request, so the engine never waits between statements for the caller's event loop.
   */
  runTransaction?(statements: Statement[], options?: TransactionOptions): Promise<QueryResult<Record<string, unknown>>[]>;
  /** Calls fn with each NOTIFY payload on channel until the returned function is called. */
  listen(channel: string, fn: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/**
 * Both engines return the same JavaScript values: timestamps, dates and int8
 * as the text PostgreSQL prints, json as parsed values. Without this PGlite
 * returns Date and BigInt where node-postgres returns strings.
 */
export const TEXT_TYPE_OIDS = {
  int8: 20,
  date: 1082,
  timestamp: 1114,
  timestamptz: 1184,
  numeric: 1700,
} as const;
