import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { openPostgres } from '../../local/db/postgres.ts';
import { startLocalStack, type LocalStack } from '../../local/stack.ts';
import { insertDemoAds } from './demo-ads.ts';

/** The PostgreSQL server that may create databases (the same variable the SQL tests use). */
const adminUrl = () => process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Which database the journeys run on: PGlite unless E2E_DATABASE=postgres. */
export type E2eDatabase = 'pglite' | 'postgres';

export function e2eDatabase(): E2eDatabase {
  const wanted = process.env.E2E_DATABASE ?? 'pglite';
  if (wanted !== 'pglite' && wanted !== 'postgres') throw new Error(`E2E_DATABASE must be pglite or postgres, not ${wanted}`);
  return wanted;
}

export interface E2eStack extends LocalStack {
  readonly database: E2eDatabase;
  readonly dataDir: string;
  stop(): Promise<void>;
}

/** A database of its own on the test PostgreSQL server, dropped by the returned function. */
async function freshPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `obyect_e2e_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = await openPostgres({ connectionString: adminUrl(), max: 1 });
  await admin.exec(`create database ${name}`);
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      await admin.exec(`drop database if exists ${name} with (force)`);
      await admin.close();
    },
  };
}

/**
 * The whole local stack in this process on a free port, with a fresh data
 * folder (and a fresh database) and a few demo ads; stop() removes it all.
 */
export async function startE2eStack(options: { adCount?: number } = {}): Promise<E2eStack> {
  const database = e2eDatabase();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'obyect-e2e-'));
  const postgres = database === 'postgres' ? await freshPostgresDatabase() : null;
  // Starting from the migrated copy leaves the stack nothing to apply, which saves seconds per file.
  if (!postgres) await cp(inject('e2ePgliteTemplate'), path.join(dataDir, 'pglite'), { recursive: true });
  const cleanup = async () => {
    await postgres?.drop();
    await rm(dataDir, { recursive: true, force: true });
  };
  let stack: LocalStack;
  try {
    stack = await startLocalStack({
      port: 0,
      env: { DATA_DIR: dataDir, ...(postgres ? { DATABASE_URL: postgres.url } : {}) },
    });
  } catch (error) {
    await cleanup();
    throw error;
  }
  const stop = async () => {
    try {
      await stack.close();
    } finally {
      await cleanup();
    }
  };
  try {
    await insertDemoAds(stack, options.adCount ?? 6);
  } catch (error) {
    await stop();
    throw error;
  }
  return Object.assign(stack, { database, dataDir, stop });
}
