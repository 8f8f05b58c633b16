import { PGlite } from '@electric-sql/pglite';
import { auto_explain } from '@electric-sql/pglite/contrib/auto_explain';
import type pg from 'pg';
import type { Engine, Queryable, QueryResult } from '../local/db/database.ts';
import { TEXT_TYPE_OIDS } from '../local/db/database.ts';
import { migrate } from '../local/db/migrate.ts';
import { pgliteExtensions, wrapPglite } from '../local/db/pglite.ts';
import { openPostgres } from '../local/db/postgres.ts';

export const BENCH_DATABASE_NAME = 'obyect_bench';

/**
 * One connection to a freshly migrated benchmark database. Every run goes
 * through the same connection, so timings never include a pool hand-over, and
 * server messages (auto_explain's plans) can be collected around a call.
 */
export interface BenchConnection extends Queryable {
  readonly engine: Engine;
  /** Runs fn and returns it with every message the server sent meanwhile (notices, LOG lines). */
  collectingMessages<T>(fn: () => Promise<T>): Promise<{ result: T; messages: string[] }>;
  close(): Promise<void>;
}

export const serverUrl = () =>
  process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

function databaseUrl(name: string): string {
  const url = new URL(serverUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

async function withServer(fn: (admin: Queryable) => Promise<void>): Promise<void> {
  const admin = await openPostgres({ connectionString: serverUrl(), max: 1 });
  try {
    await fn(admin);
  } finally {
    await admin.close();
  }
}

/**
 * Drops and recreates obyect_bench, migrates it, and drops it again on close unless asked to keep it. With reuse,
 * opens the obyect_bench an earlier run kept as it is (neither migrated nor dropped).
 */
export async function openPostgresBench(options: { keep: boolean; reuse?: boolean }): Promise<BenchConnection> {
  if (!options.reuse) {
    await withServer(async (admin) => {
      await admin.exec(`drop database if exists ${BENCH_DATABASE_NAME} with (force)`);
      await admin.exec(`create database ${BENCH_DATABASE_NAME}`);
    });
  }
  const db = await openPostgres({ connectionString: databaseUrl(BENCH_DATABASE_NAME), max: 1 });
  if (!options.reuse) await migrate(db);
  const client: pg.PoolClient = await db.pool.connect();
  let sink: string[] | null = null;
  client.on('notice', (message) => sink?.push(message.message ?? ''));
  // A lost connection (server restarted by other work) fails the running query instead of crashing the process.
  client.on('error', () => {});
  return {
    engine: 'postgres',
    async query<T>(sql: string, params: unknown[] = []): Promise<QueryResult<T>> {
      const result = await client.query(sql, params);
      return { rows: result.rows as T[], rowCount: result.rowCount ?? result.rows.length };
    },
    async exec(sql: string) {
      await client.query(sql);
    },
    async collectingMessages(fn) {
      sink = [];
      try {
        const result = await fn();
        return { result, messages: sink };
      } finally {
        sink = null;
      }
    },
    async close() {
      client.release(true);
      await db.close();
      if (!options.keep && !options.reuse) await withServer((admin) => admin.exec(`drop database if exists ${BENCH_DATABASE_NAME} with (force)`));
    },
  };
}

/** An in-memory PGlite with the project's extensions plus auto_explain, migrated. */
export async function openPgliteBench(): Promise<BenchConnection> {
  const parsers = Object.fromEntries(Object.values(TEXT_TYPE_OIDS).map((oid) => [oid, (value: string) => value]));
  const pglite = await PGlite.create({ extensions: { ...pgliteExtensions, auto_explain }, parsers });
  await migrate(wrapPglite(pglite));
  let sink: string[] | null = null;
  // Without a handler PGlite prints every LOG line auto_explain sends.
  const onNotice = (notice: { message?: string }) => sink?.push(notice.message ?? '');
  return {
    engine: 'pglite',
    async query<T>(sql: string, params: unknown[] = []): Promise<QueryResult<T>> {
      const result = await pglite.query<T>(sql, params as never[], { onNotice });
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    },
    async exec(sql: string) {
      await pglite.exec(sql, { onNotice });
    },
    async collectingMessages(fn) {
      sink = [];
      try {
        const result = await fn();
        return { result, messages: sink };
      } finally {
        sink = null;
      }
    },
    close: () => pglite.close(),
  };
}
