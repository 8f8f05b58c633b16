import pg from 'pg';
import type { AccessClaims } from '../auth/jwt.ts';
import type { Database, Queryable, QueryResult, Statement } from './database.ts';
import type { PostgresDatabase } from './postgres.ts';
import { statementTimeoutOf, SUPABASE_STATEMENT_TIMEOUTS } from './statement-timeouts.ts';

/**
 * The caller's statement timeout in ms (0: none). `set local role` does not
 * apply a role's `alter role ... set statement_timeout` (only a login does),
 * so each request sets it in its own transaction, as PostgREST does.
 */
export function callerStatementTimeout(db: Database, claims: AccessClaims): number {
  const ms = statementTimeoutOf(db.statementTimeouts ?? SUPABASE_STATEMENT_TIMEOUTS, claims.role);
  // Written into SQL as a literal: only a whole number may get there.
  if (!Number.isSafeInteger(ms) || ms < 0) throw new Error(`Invalid statement timeout for ${claims.role}: ${ms}`);
  return ms;
}

const statementTimeoutSql = (ms: number) => `set_config('statement_timeout', '${ms}', true)`;

/**
 * Runs fn in one transaction as the caller, the way PostgREST does: the role
 * from the verified JWT and its claims in request.jwt.claims, so row-level
 * security and auth.uid() see exactly the caller, and the role's statement timeout.
 */
export function withCaller<T>(db: Database, claims: AccessClaims, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  const timeout = callerStatementTimeout(db, claims);
  return db.transaction(async (tx) => {
    await tx.query(`select set_config('role', $1, true), set_config('request.jwt.claims', $2, true), ${statementTimeoutSql(timeout)}`, [
      claims.role,
      JSON.stringify(claims),
    ]);
    return fn(tx);
  }, { statementTimeoutMs: timeout });
}

export interface CallerStatement {
  text: string;
  values: unknown[];
}

export interface CallerRun<T> {
  /** The one statement to run as the caller; null runs nothing (respond gets no rows). */
  statement: CallerStatement | null;
  /** The IANA zone for TimeZone (checked against pg_timezone_names; UTC when unknown or absent). */
  timezone?: string | null;
  /** The transaction is read-only (transaction_read_only). */
  readOnly: boolean;
  /**
   * respond may refuse the answer after the statement ran (a thrown error),
   * which must undo the statement's writes: the transaction then stays open
   * until respond has returned.
   */
  mayRefuse: boolean;
  /** Roll back even when respond succeeds (Prefer: tx=rollback). */
  rollback: boolean;
  respond(result: QueryResult<Record<string, unknown>>): T | Promise<T>;
}

const EMPTY: QueryResult<Record<string, unknown>> = { rows: [], rowCount: 0 };

/**
 * One request's statement as the caller, in as few round trips as the engine
 * allows. On PostgreSQL the settings (role, claims, statement timeout, time zone, read-only) and
 * the statement go as one simple query: one round trip in an implicit
 * transaction, or, when respond may refuse or the request asks for a rollback,
 * an explicit transaction ended by one more round trip. The settings are
 * transaction-local either way, so they end with the transaction. On PGlite
 * in its thread the settings and the statement are one transaction sent as one
 * request, unless respond may refuse or the request asks for a rollback.
 * Elsewhere, and for values that cannot be written as literals, it is one
 * transaction with bind parameters.
 */
export async function runAsCaller<T>(db: Database, claims: AccessClaims, run: CallerRun<T>): Promise<T> {
  if (isBatchCapable(db)) {
    const inlined = run.statement ? inlineParameters(run.statement.text, run.statement.values) : '';
    if (inlined !== null) return runBatched(db, claims, run, inlined);
  }
  if (db.runTransaction && !run.mayRefuse && !run.rollback) return runAsOneRequest(db, claims, run);
  return runInTransaction(db, claims, run);
}

/** The settings and the statement as one transaction sent whole (PGlite in its thread); respond runs after commit. */
async function runAsOneRequest<T>(db: Database, claims: AccessClaims, run: CallerRun<T>): Promise<T> {
  const timeout = callerStatementTimeout(db, claims);
  const statements: Statement[] = [{ sql: settingsSql(claims, run, timeout, placeholders()), params: settingValues(claims, run) }];
  if (run.statement) statements.push({ sql: run.statement.text, params: run.statement.values });
  const results = await db.runTransaction!(statements, { statementTimeoutMs: timeout });
  return run.respond(run.statement ? results[1]! : EMPTY);
}

function isBatchCapable(db: Database): db is PostgresDatabase {
  return db.engine === 'postgres' && typeof (db as Partial<PostgresDatabase>).batch === 'function';
}

function settingsSql(claims: AccessClaims, run: CallerRun<unknown>, timeout: number, literal: (value: string) => string): string {
  const zone = run.timezone
    ? `coalesce((select name from pg_catalog.pg_timezone_names where name = ${literal(run.timezone)} limit 1), 'UTC')`
    : `'UTC'`;
  return `select set_config('role', ${literal(claims.role)}, true), set_config('request.jwt.claims', ${literal(JSON.stringify(claims))}, true), `
    + `${statementTimeoutSql(timeout)}, set_config('TimeZone', ${zone}, true)${run.readOnly ? `, set_config('transaction_read_only', 'on', true)` : ''}`;
}

async function runBatched<T>(db: PostgresDatabase, claims: AccessClaims, run: CallerRun<T>, statement: string): Promise<T> {
  // statement_timeout set by the first statement of a simple query already applies to the next one (PostgreSQL 13+).
  const settings = settingsSql(claims, run, callerStatementTimeout(db, claims), literalOf);
  const explicit = run.mayRefuse || run.rollback;
  return db.batch(async (session) => {
    if (!explicit) {
      // Implicit transaction: committed when the last statement succeeds, rolled back when one fails.
      const results = await session.send(statement ? `${settings};\n${statement}` : settings);
      return run.respond(statement ? results[1]! : EMPTY);
    }
    const results = await session.send(`begin;\n${settings};\n${statement || 'select'}`);
    const response = await run.respond(statement ? results[2]! : EMPTY);
    await session.send(run.rollback ? 'rollback' : 'commit');
    return response;
  });
}

/** Thrown inside the transaction to roll it back after a successful respond. */
class RollbackAfter<T> extends Error {
  constructor(readonly value: T) {
    super('rolled back on request');
  }
}

async function runInTransaction<T>(db: Database, claims: AccessClaims, run: CallerRun<T>): Promise<T> {
  const timeout = callerStatementTimeout(db, claims);
  try {
    return await db.transaction(async (tx) => {
      const settings = settingsSql(claims, run, timeout, placeholders());
      await tx.query(settings, settingValues(claims, run));
      const result = run.statement ? await tx.query<Record<string, unknown>>(run.statement.text, run.statement.values) : EMPTY;
      const response = await run.respond(result);
      if (run.rollback) throw new RollbackAfter(response);
      return response;
    }, { statementTimeoutMs: timeout });
  } catch (error) {
    if (error instanceof RollbackAfter) return error.value as T;
    throw error;
  }
}

/** $1, $2, ... in the order settingsSql asks for values. */
function placeholders(): (value: string) => string {
  let next = 0;
  return () => `$${(next += 1)}`;
}

function settingValues(claims: AccessClaims, run: CallerRun<unknown>): string[] {
  return [claims.role, JSON.stringify(claims), ...(run.timezone ? [run.timezone] : [])];
}

/**
 * A string as a SQL literal that reads the same whatever
 * standard_conforming_strings is: quotes doubled, and an E'' string with
 * backslashes doubled when there are any. Like a bind parameter, a literal has
 * no type until the context gives it one.
 */
function literalOf(value: string): string {
  return pg.escapeLiteral(value);
}

/**
 * The statement with each $n replaced by its value as a literal: the text
 * node-postgres would have bound, untyped like a parameter. Placeholders inside quoted identifiers
 * and string literals are left alone. Null when a value cannot be a literal
 * (binary data, NUL characters): the caller binds parameters instead.
 */
export function inlineParameters(text: string, values: unknown[]): string | null {
  const literals: string[] = [];
  for (const value of values) {
    if (value === null || value === undefined) {
      literals.push('NULL');
      continue;
    }
    // The text node-postgres sends for these; anything else (objects, arrays, binary) stays a bind parameter.
    if (!['string', 'number', 'boolean', 'bigint'].includes(typeof value)) return null;
    const text = String(value);
    if (text.includes('\0')) return null;
    literals.push(literalOf(text));
  }
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"' || c === "'") {
      // A quoted identifier or a standard string literal: to the closing quote (a doubled quote stays inside).
      let j = i + 1;
      for (;;) {
        if (j >= text.length) return null;
        if (text[j] === c) {
          if (text[j + 1] === c) j += 2;
          else break;
        } else j += 1;
      }
      // E'' strings and dollar quoting are never rendered by the API; refuse rather than misread them.
      if (c === "'" && /[eE]$/.test(text.slice(Math.max(0, i - 1), i)) && !/[A-Za-z0-9_]/.test(text[i - 2] ?? ' ')) return null;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === '$') {
      const match = /^\$(\d+)/.exec(text.slice(i, i + 12));
      if (!match) return null;
      const literal = literals[Number(match[1]) - 1];
      if (literal === undefined) return null;
      out += literal;
      i += match[0].length;
    } else if (c === '-' && text[i + 1] === '-') {
      return null;
    } else if (c === '/' && text[i + 1] === '*') {
      return null;
    } else {
      out += c;
      i += 1;
    }
  }
  return out;
}
