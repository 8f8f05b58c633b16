import pg from 'pg';
import type { Database, Queryable, QueryResult } from './database.ts';
import { TEXT_TYPE_OIDS } from './database.ts';

const textTypes = new Set<number>(Object.values(TEXT_TYPE_OIDS));
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (textTypes.has(oid)) return (value: string) => value;
    return pg.types.getTypeParser(oid, format);
  },
};

export interface PostgresOptions {
  connectionString: string;
  max?: number;
}

/**
 * Statements sent together as one simple query on one connection (one round
 * trip), then optionally one more text on the same connection (commit or
 * rollback after the caller looked at the results). Values must already be
 * literals in the text: the simple protocol has no parameters.
 */
export interface BatchSession {
  /** Sends the statements; resolves with one result per statement. */
  send(text: string): Promise<QueryResult<Record<string, unknown>>[]>;
}

export interface PostgresDatabase extends Database {
  readonly pool: pg.Pool;
  /** Runs fn with a connection of its own; a transaction fn leaves open is rolled back when it throws. */
  batch<T>(fn: (session: BatchSession) => Promise<T>): Promise<T>;
}

export async function openPostgres(options: PostgresOptions): Promise<PostgresDatabase> {
  const pool = new pg.Pool({ connectionString: options.connectionString, max: options.max ?? 10, types });
  // An idle client losing its connection (server restart) must not crash the process.
  pool.on('error', () => {});
  const probe = await pool.connect();
  probe.release();
  return wrapPool(pool);
}

function queryable(client: pg.Pool | pg.PoolClient): Queryable {
  return {
    async query<T>(sql: string, params: unknown[] = []): Promise<QueryResult<T>> {
      const result = await client.query(sql, params);
      return { rows: result.rows as T[], rowCount: result.rowCount ?? result.rows.length };
    },
    async exec(sql: string) {
      await client.query(sql);
    },
  };
}

/**
 * LISTEN on a connection of its own that reconnects after the server restarts,
 * so notifications resume without restarting the process.
 */
function listenOn(pool: pg.Pool, channel: string, fn: (payload: string) => void): Promise<() => Promise<void>> {
  let client: pg.Client | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const connect = async (): Promise<void> => {
    const next = new pg.Client(pool.options);
    next.on('notification', (message) => {
      if (message.channel === channel) fn(message.payload ?? '');
    });
    next.on('error', () => {
      if (client === next) client = null;
      if (!stopped) retry = setTimeout(() => void connect().catch(() => {}), 500);
    });
    await next.connect();
    await next.query(`listen "${channel.replace(/"/g, '""')}"`);
    if (stopped) {
      await next.end();
      return;
    }
    client = next;
  };
  return connect().then(() => async () => {
    stopped = true;
    clearTimeout(retry);
    await client?.end().catch(() => {});
  });
}

const asResults = (result: pg.QueryResult | pg.QueryResult[]): QueryResult<Record<string, unknown>>[] =>
  (Array.isArray(result) ? result : [result]).map((one) => ({ rows: one.rows, rowCount: one.rowCount ?? one.rows.length }));

/**
 * A connection of the pool's for the caller alone. While checked out, the pool
 * does not listen for its socket failing (a server restart), and an 'error'
 * event nobody listens to would end the process: the failed query rejects
 * anyway, and release drops the connection.
 */
async function checkOut(pool: pg.Pool): Promise<pg.PoolClient> {
  const client = await pool.connect();
  const ignore = () => {};
  client.on('error', ignore);
  const release = client.release;
  client.release = (error?: Error | boolean) => {
    client.removeListener('error', ignore);
    release(error);
  };
  return client;
}

export function wrapPool(pool: pg.Pool): PostgresDatabase {
  return {
    engine: 'postgres',
    pool,
    ...queryable(pool),
    async transaction(fn) {
      const client = await checkOut(pool);
      try {
        await client.query('begin');
        const result = await fn(queryable(client));
        await client.query('commit');
        return result;
      } catch (error) {
        await client.query('rollback').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    async batch(fn) {
      const client = await checkOut(pool);
      let broken: Error | undefined;
      try {
        return await fn({ send: async (text) => asResults(await client.query(text)) });
      } catch (error) {
        // Statements after a failed one in an explicit transaction leave it aborted: end it before reuse.
        await client.query('rollback').catch((rollbackError: unknown) => {
          broken = rollbackError as Error;
        });
        throw error;
      } finally {
        // A connection that could not even roll back is dropped, not returned to the pool.
        client.release(broken);
      }
    },
    listen: (channel, fn) => listenOn(pool, channel, fn),
    close: () => pool.end(),
  };
}
