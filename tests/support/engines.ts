import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, inject } from 'vitest';
import type { Database, Engine } from '../../local/db/database.ts';
import { openPglite } from '../../local/db/pglite.ts';
import { openPostgres } from '../../local/db/postgres.ts';

/** The server used for test databases; each test file gets a database of its own. */
export const adminUrl = () => process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export function postgresTestUrl(database: string): string {
  const url = new URL(adminUrl());
  url.pathname = `/${database}`;
  return url.toString();
}

export const templateName = (pid: number) => `obyect_template_${pid}`;

export function availableEngines(): Engine[] {
  return inject('postgresTemplate') ? ['pglite', 'postgres'] : ['pglite'];
}

/** A freshly migrated database for one test file, dropped when closed. */
export async function openTestDatabase(engine: Engine): Promise<Database> {
  if (engine === 'pglite') {
    const snapshot = await readFile(inject('pgliteSnapshot'));
    return openPglite({ loadDataDir: new Blob([snapshot]) });
  }
  const template = inject('postgresTemplate');
  if (!template) throw new Error('PostgreSQL is not available in this run');
  const parentPid = template.replace('obyect_template_', '');
  const name = `obyect_test_${parentPid}_${randomBytes(6).toString('hex')}`;
  const admin = await openPostgres({ connectionString: adminUrl(), max: 1 });
  await admin.exec(`create database ${name} template ${template}`);
  const db = await openPostgres({ connectionString: postgresTestUrl(name), max: 4 });
  return {
    ...db,
    async close() {
      await db.close();
      await admin.exec(`drop database if exists ${name} with (force)`);
      await admin.close();
    },
  };
}

export interface EngineContext {
  readonly engine: Engine;
  /** The file's database, open between beforeAll and afterAll. */
  readonly db: Database;
}

/** Declares the same tests once per engine, each on a database of its own. */
export function describeOnEngines(title: string, body: (ctx: EngineContext) => void): void {
  for (const engine of availableEngines()) {
    describe(`${title} [${engine}]`, () => {
      let db: Database | undefined;
      const ctx: EngineContext = {
        engine,
        get db() {
          if (!db) throw new Error('The test database is not open yet');
          return db;
        },
      };
      beforeAll(async () => {
        db = await openTestDatabase(engine);
      });
      afterAll(async () => {
        await db?.close();
      });
      body(ctx);
    });
  }
}
