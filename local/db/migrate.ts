import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import type { Database } from './database.ts';
import { SQUASHED_INTO, SQUASHED_VERSIONS } from './squashed-migrations.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const bootstrapDir = path.join(root, 'local/db/bootstrap');
export const migrationsDir = path.join(root, 'supabase/migrations');

export interface Migration {
  version: string;
  name: string;
  sql: string;
  checksum: string;
}

/** The .sql files of a folder in name order, each with its text and checksum. */
export async function readSqlFolder(dir: string, versionOf: (file: string) => string): Promise<Migration[]> {
  const files = (await readdir(dir)).filter((file) => file.endsWith('.sql')).sort();
  return Promise.all(
    files.map(async (file) => {
      const sql = await readFile(path.join(dir, file), 'utf8');
      return {
        version: versionOf(file),
        name: file.replace(/\.sql$/, ''),
        sql,
        checksum: createHash('sha256').update(sql).digest('hex'),
      };
    }),
  );
}

/** The local bootstrap (never part of supabase/migrations), then the migrations, in order. */
export async function loadMigrations(): Promise<Migration[]> {
  const bootstrap = await readSqlFolder(bootstrapDir, (file) => `00000000000000_bootstrap_${file.replace(/\.sql$/, '')}`);
  const migrations = await readSqlFolder(migrationsDir, (file) => {
    const match = /^(\d{14})_[a-z0-9_]+\.sql$/.exec(file);
    if (!match) throw new Error(`Migration file name must be <14-digit version>_<name>.sql: ${file}`);
    return match[1]!;
  });
  return [...bootstrap, ...migrations];
}

export interface MigrateResult {
  applied: string[];
  skipped: number;
}

/**
 * A database whose migration history the files cannot continue: made before the migrations were squashed, holding
 * versions the folder lacks, or missing a version older than one it has. Its message says what to do.
 */
export class MigrationHistoryError extends Error {
  override name = 'MigrationHistoryError';
}

const isVersion = (version: string) => /^\d{14}$/.test(version);

/** The versions recorded in the database that the files cannot continue from, or null when they can. */
export function historyProblem(recorded: string[], migrations: Migration[]): string | null {
  const files = new Set(migrations.map((migration) => migration.version));
  const unknown = recorded.filter((version) => isVersion(version) && !files.has(version));
  if (unknown.length > 0 && unknown.every((version) => SQUASHED_VERSIONS.includes(version))) {
    return [
      `This database was made by ${unknown.length} migration(s) that have since been squashed into ${SQUASHED_INTO}_baseline.sql`,
      'and can no longer be applied to it. Either start afresh: stop the stack, delete its database (the .data folder of the',
      "local stack's PGlite, or drop the PostgreSQL database) and start again; the demo content is seeded again on first start.",
      'Or keep its data: when it holds every squashed migration, `npm run db:migrate -- repair` records the baseline in their place.',
    ].join('\n');
  }
  if (unknown.length > 0) {
    return `Remote migration versions not found in local migrations directory: ${unknown.join(', ')}. The database has migrations that supabase/migrations lacks; restore those files or start afresh.`;
  }
  const newest = recorded.filter(isVersion).sort().at(-1);
  const recordedSet = new Set(recorded);
  const early = migrations.filter((migration) => isVersion(migration.version) && !recordedSet.has(migration.version) && newest && migration.version < newest);
  if (early.length > 0) {
    return [
      'Found local migration files to be inserted before the last migration on remote database.',
      ...early.map((migration) => `  supabase/migrations/${migration.name}.sql`),
      `The database's last migration is ${newest}: a hosted project would refuse these too. Give each a version after it`,
      '(`npm run db:new-migration <name>` names a file with the current UTC time).',
    ].join('\n');
  }
  return null;
}

/**
 * Applies what has not been applied yet, each file in its own transaction, and
 * records it with its checksum. A recorded file whose content changed is an
 * error: a migration is never edited after it ran. So is a history the files
 * cannot continue (MigrationHistoryError): versions the folder lacks, or a
 * pending version older than the newest applied one, which `supabase db push`
 * refuses on a hosted project.
 */
export async function migrate(db: Database): Promise<MigrateResult> {
  await ensureRecords(db);
  const { rows } = await db.query<{ version: string; checksum: string }>(
    'select version, checksum from supabase_migrations.schema_migrations',
  );
  const done = new Map(rows.map((row) => [row.version, row.checksum]));
  const migrations = await loadMigrations();
  const problem = historyProblem([...done.keys()], migrations);
  if (problem) throw new MigrationHistoryError(problem);
  const applied: string[] = [];
  let skipped = 0;
  for (const migration of migrations) {
    const recorded = done.get(migration.version);
    if (recorded) {
      if (recorded !== migration.checksum) {
        throw new Error(`Migration ${migration.name} changed after it was applied; add a new migration instead.`);
      }
      skipped += 1;
      continue;
    }
    await db.transaction(async (tx) => {
      // Serialises concurrent runners on one PostgreSQL database.
      await tx.query('select pg_advisory_xact_lock(7271)');
      const again = await tx.query('select 1 from supabase_migrations.schema_migrations where version = $1', [migration.version]);
      if (again.rows.length > 0) return;
      try {
        await tx.exec(migration.sql);
      } catch (error) {
        throw new Error(`Migration ${migration.name} failed: ${(error as Error).message}`, { cause: error });
      }
      await tx.query('insert into supabase_migrations.schema_migrations (version, name, checksum) values ($1, $2, $3)', [
        migration.version,
        migration.name,
        migration.checksum,
      ]);
      applied.push(migration.name);
    });
  }
  return { applied, skipped };
}

async function ensureRecords(db: Database) {
  await db.exec(`
    create schema if not exists supabase_migrations;
    create table if not exists supabase_migrations.schema_migrations (
      version text primary key,
      name text not null,
      checksum text not null,
      applied_at timestamptz not null default now()
    );
  `);
}

/**
 * `npm run db:migrate -- repair`: a database made before the squash, holding every squashed migration, is in the
 * baseline's state; its records of the squashed files are replaced by the baseline's (as `supabase migration repair`
 * would). Refused for any other history, which has to start afresh.
 */
export async function repairSquashedHistory(db: Database): Promise<string> {
  await ensureRecords(db);
  const baseline = (await loadMigrations()).find((migration) => migration.version === SQUASHED_INTO);
  if (!baseline) throw new MigrationHistoryError(`supabase/migrations has no ${SQUASHED_INTO}_baseline.sql to record.`);
  return db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock(7271)');
    const { rows } = await tx.query<{ version: string }>('select version from supabase_migrations.schema_migrations');
    const squashed = rows.map((row) => row.version).filter((version) => SQUASHED_VERSIONS.includes(version));
    if (rows.some((row) => row.version === SQUASHED_INTO)) return 'Nothing to repair: the baseline is recorded already.';
    if (squashed.length !== SQUASHED_VERSIONS.length) {
      throw new MigrationHistoryError(
        `This database holds ${squashed.length} of the ${SQUASHED_VERSIONS.length} squashed migrations, so it is not in the baseline's state; start afresh instead.`,
      );
    }
    await tx.query('delete from supabase_migrations.schema_migrations where version = any($1::text[])', [squashed]);
    await tx.query('insert into supabase_migrations.schema_migrations (version, name, checksum) values ($1, $2, $3)', [
      baseline.version,
      baseline.name,
      baseline.checksum,
    ]);
    return `Recorded ${baseline.name} in place of the ${squashed.length} squashed migrations.`;
  });
}
