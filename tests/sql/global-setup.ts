import type { TestProject } from 'vitest/node';
import { openPostgres } from '../../local/db/postgres.ts';
import { migrate } from '../../local/db/migrate.ts';
import { adminUrl, postgresTestUrl, templateName } from '../support/engines.ts';
import { migratedPglite } from '../support/migrated-pglite.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteSnapshot: string;
    postgresTemplate: string | null;
  }
}

/**
 * A PGlite snapshot that every test file loads (migrated once for each version
 * of the migrations, kept between runs: tests/support/migrated-pglite.ts), and
 * a PostgreSQL template database migrated once a run that every test file copies.
 * CI (CI=true) requires PostgreSQL; elsewhere its absence is reported.
 */
export default async function setup(project: TestProject) {
  const { snapshot } = await migratedPglite();
  project.provide('pgliteSnapshot', snapshot);

  const template = templateName(process.pid);
  let admin;
  try {
    admin = await openPostgres({ connectionString: adminUrl(), max: 1 });
  } catch (error) {
    if (process.env.CI) {
      throw new Error(`CI requires PostgreSQL at ${adminUrl()} (set TEST_DATABASE_URL): ${(error as Error).message}`);
    }
    console.warn(`\n  PostgreSQL is not reachable at ${adminUrl()}: SQL tests run on PGlite only.\n`);
    project.provide('postgresTemplate', null);
    return async () => {
      console.warn(`\n  SQL tests ran on PGlite only (no PostgreSQL at ${adminUrl()}).\n`);
    };
  }
  await admin.exec(`drop database if exists ${template}`);
  await admin.exec(`create database ${template}`);
  const db = await openPostgres({ connectionString: postgresTestUrl(template), max: 1 });
  try {
    await migrate(db);
  } finally {
    await db.close();
  }
  project.provide('postgresTemplate', template);

  return async () => {
    const { rows } = await admin.query<{ datname: string }>(
      `select datname from pg_database where datname like $1 or datname = $2`,
      [`obyect_test_${process.pid}_%`, template],
    );
    for (const row of rows) await admin.exec(`drop database if exists ${row.datname} with (force)`);
    await admin.close();
  };
}
