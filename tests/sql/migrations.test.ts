import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bootstrapDir, historyProblem, loadMigrations, migrate, MigrationHistoryError, migrationsDir, repairSquashedHistory } from '../../local/db/migrate.ts';
import { SQUASHED_INTO, SQUASHED_VERSIONS } from '../../local/db/squashed-migrations.ts';
import { migrationVersion } from '../../scripts/new-migration.ts';
import { describeOnEngines } from '../support/engines.ts';

interface RecordedMigration {
  version: string;
  name: string;
  checksum: string;
  applied_at: string;
}

const recorded = async (db: { query: <T>(sql: string) => Promise<{ rows: T[] }> }) =>
  (await db.query<RecordedMigration>('select version, name, checksum, applied_at from supabase_migrations.schema_migrations order by version'))
    .rows;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

it('names every migration file <14-digit version>_<snake_case>.sql, with unique versions', async () => {
  const files = await readdir(migrationsDir);
  const sqlFiles = files.filter((file) => file.endsWith('.sql'));
  expect(sqlFiles.length).toBeGreaterThan(0);
  expect(sqlFiles.filter((file) => !/^\d{14}_[a-z0-9]+(?:_[a-z0-9]+)*\.sql$/.test(file))).toEqual([]);
  expect(files.filter((file) => !file.endsWith('.sql') && file !== 'README.md')).toEqual([]);
  const versions = sqlFiles.map((file) => file.slice(0, 14));
  expect(new Set(versions).size).toBe(versions.length);
});

it('dates no migration after the time it runs: a later-dated file would sort after every migration written today', async () => {
  const now = migrationVersion(new Date());
  const versions = (await readdir(migrationsDir)).filter((file) => file.endsWith('.sql')).map((file) => file.slice(0, 14));
  expect(versions.filter((version) => version > now)).toEqual([]);
});

describe('the history a database may continue from', () => {
  const files = (...versions: string[]) => versions.map((version) => ({ version, name: `${version}_change`, sql: '', checksum: '' }));

  it('continues one whose migrations are all in the folder, in order', () => {
    expect(historyProblem(['00000000000000_bootstrap_00_roles', '20270101000000'], files('20270101000000', '20270102000000'))).toBeNull();
  });

  it("refuses a pending migration older than the newest applied one, with the words of Supabase's CLI", () => {
    const problem = historyProblem(['20270101000000', '20270103000000'], files('20270101000000', '20270102000000', '20270103000000'));
    expect(problem).toMatch(/^Found local migration files to be inserted before the last migration on remote database\.\n  supabase\/migrations\/20270102000000_change\.sql\n/);
    expect(problem).toContain('npm run db:new-migration');
  });

  it('refuses versions the folder lacks', () => {
    expect(historyProblem(['20270101000000', '20270105000000'], files('20270101000000'))).toMatch(/^Remote migration versions not found in local migrations directory: 20270105000000\./);
  });

  it('tells the developer of a database made before the squash to start afresh or repair it', () => {
    const problem = historyProblem(SQUASHED_VERSIONS.slice(0, 12), files(SQUASHED_INTO));
    expect(problem).toContain(`This database was made by 12 migration(s) that have since been squashed into ${SQUASHED_INTO}_baseline.sql`);
    expect(problem).toContain('delete its database (the .data folder');
    expect(problem).toContain('npm run db:migrate -- repair');
  });
});

describeOnEngines('migrations', (ctx) => {
  it('records the bootstrap and then every migration file, in order, with its checksum', async () => {
    const bootstrapFiles = (await readdir(bootstrapDir)).filter((file) => file.endsWith('.sql')).sort();
    const migrationFiles = (await readdir(migrationsDir)).filter((file) => file.endsWith('.sql')).sort();
    const expected = [
      ...(await Promise.all(
        bootstrapFiles.map(async (file) => ({
          version: `00000000000000_bootstrap_${file.replace(/\.sql$/, '')}`,
          name: file.replace(/\.sql$/, ''),
          checksum: sha256(await readFile(path.join(bootstrapDir, file), 'utf8')),
        })),
      )),
      ...(await Promise.all(
        migrationFiles.map(async (file) => ({
          version: file.slice(0, 14),
          name: file.replace(/\.sql$/, ''),
          checksum: sha256(await readFile(path.join(migrationsDir, file), 'utf8')),
        })),
      )),
    ];
    const rows = await recorded(ctx.db);
    expect(rows.map(({ version, name, checksum }) => ({ version, name, checksum }))).toEqual(expected);
    // Applied in that order: none earlier than the one before it.
    const { rows: outOfOrder } = await ctx.db.query(
      `select version from (
         select version, applied_at < lag(applied_at) over (order by version) as early
           from supabase_migrations.schema_migrations) m
        where early`,
    );
    expect(outOfOrder).toEqual([]);
  });

  it('applies nothing when run a second time', async () => {
    const before = await recorded(ctx.db);
    const result = await migrate(ctx.db);
    expect(result).toEqual({ applied: [], skipped: (await loadMigrations()).length });
    expect(await recorded(ctx.db)).toEqual(before);
  });

  it('refuses a migration whose content changed after it was applied, and applies nothing', async () => {
    const [first, ...rest] = await recorded(ctx.db);
    const last = rest.at(-1)!;
    await ctx.db.query(`update supabase_migrations.schema_migrations set checksum = 'edited-after-it-ran' where version = $1`, [
      first!.version,
    ]);
    // The last migration looks pending: it must not run before the changed one is refused.
    await ctx.db.query('delete from supabase_migrations.schema_migrations where version = $1', [last.version]);
    try {
      await expect(migrate(ctx.db)).rejects.toThrow(
        `Migration ${first!.name} changed after it was applied; add a new migration instead.`,
      );
      const versions = (await recorded(ctx.db)).map((row) => row.version);
      expect(versions).not.toContain(last.version);
    } finally {
      await ctx.db.query('update supabase_migrations.schema_migrations set checksum = $2 where version = $1', [first!.version, first!.checksum]);
      await ctx.db.query('insert into supabase_migrations.schema_migrations (version, name, checksum, applied_at) values ($1, $2, $3, $4)', [
        last.version,
        last.name,
        last.checksum,
        last.applied_at,
      ]);
    }
    expect((await migrate(ctx.db)).applied).toEqual([]);
  });

  it('stops at a database made before the squash, applying nothing, and repairs one that holds every squashed migration', async () => {
    const before = await recorded(ctx.db);
    const baseline = before.find((row) => row.version === SQUASHED_INTO)!;
    await ctx.db.query('delete from supabase_migrations.schema_migrations where version = $1', [SQUASHED_INTO]);
    for (const version of SQUASHED_VERSIONS) {
      await ctx.db.query(`insert into supabase_migrations.schema_migrations (version, name, checksum) values ($1, $1 || '_squashed', 'old')`, [version]);
    }
    const partial = SQUASHED_VERSIONS.at(-1)!;
    await ctx.db.query('delete from supabase_migrations.schema_migrations where version = $1', [partial]);
    try {
      await expect(migrate(ctx.db)).rejects.toThrow(MigrationHistoryError);
      await expect(migrate(ctx.db)).rejects.toThrow(/squashed into/);
      // Nothing was applied over it: the baseline is still not recorded.
      expect((await recorded(ctx.db)).map((row) => row.version)).not.toContain(SQUASHED_INTO);
      // One squashed migration short of the baseline's state: repair refuses.
      await expect(repairSquashedHistory(ctx.db)).rejects.toThrow(`holds ${SQUASHED_VERSIONS.length - 1} of the ${SQUASHED_VERSIONS.length} squashed migrations`);
      await ctx.db.query(`insert into supabase_migrations.schema_migrations (version, name, checksum) values ($1, $1 || '_squashed', 'old')`, [partial]);
      expect(await repairSquashedHistory(ctx.db)).toBe(`Recorded ${baseline.name} in place of the ${SQUASHED_VERSIONS.length} squashed migrations.`);
      const repaired = await recorded(ctx.db);
      expect(repaired.map(({ version, name, checksum }) => ({ version, name, checksum }))).toEqual(
        before.map(({ version, name, checksum }) => ({ version, name, checksum })),
      );
      expect((await migrate(ctx.db)).applied).toEqual([]);
    } finally {
      await ctx.db.query('delete from supabase_migrations.schema_migrations where version = any($1::text[])', [[...SQUASHED_VERSIONS]]);
      await ctx.db.query('insert into supabase_migrations.schema_migrations (version, name, checksum, applied_at) values ($1, $2, $3, $4) on conflict (version) do nothing', [
        baseline.version,
        baseline.name,
        baseline.checksum,
        baseline.applied_at,
      ]);
    }
  });

  it('refuses a changed migration even when it is not the first one', async () => {
    const rows = await recorded(ctx.db);
    const target = rows.find((row) => /^\d{14}$/.test(row.version))!;
    await ctx.db.query(`update supabase_migrations.schema_migrations set checksum = 'edited-after-it-ran' where version = $1`, [target.version]);
    try {
      await expect(migrate(ctx.db)).rejects.toThrow(/changed after it was applied/);
    } finally {
      await ctx.db.query('update supabase_migrations.schema_migrations set checksum = $2 where version = $1', [target.version, target.checksum]);
    }
  });
});
