import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import type { Database } from './database.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const bootstrapDir = path.join(root, 'local/db/bootstrap');
export const migrationsDir = path.join(root, 'supabase/migrations');

export interface Migration {
  version: string;
  name: string;
  sql: string;
  checksum: string;
}

async function readSqlFolder(dir: string, versionOf: (file: string) => string): Promise<Migration[]> {
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
 * Applies what has not been applied yet, each file in its own transaction, and
 * records it with its checksum. A recorded file whose content changed is an
 * error: a migration is never edited after it ran.
 */
export async function migrate(db: Database): Promise<MigrateResult> {
  await db.exec(`
    create schema if not exists supabase_migrations;
    create table if not exists supabase_migrations.schema_migrations (
      version text primary key,
      name text not null,
      checksum text not null,
      applied_at timestamptz not null default now()
    );
  `);
  const { rows } = await db.query<{ version: string; checksum: string }>(
    'select version, checksum from supabase_migrations.schema_migrations',
  );
  const done = new Map(rows.map((row) => [row.version, row.checksum]));
  const applied: string[] = [];
  let skipped = 0;
  for (const migration of await loadMigrations()) {
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
