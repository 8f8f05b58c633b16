import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { catalogDifferences, readCatalog } from '../../local/db/catalog.ts';
import type { Database } from '../../local/db/database.ts';
import { openPglite } from '../../local/db/pglite.ts';
import { openPostgres } from '../../local/db/postgres.ts';
import { applySchemas } from '../../local/db/schemas.ts';
import { adminUrl, describeOnEngines, postgresTestUrl } from '../support/engines.ts';

/**
 * supabase/schemas declares what supabase/migrations builds: a database made from each has the same catalog (tables,
 * columns and defaults, constraints, indexes, policies, functions, triggers, grants, extensions and the rows the
 * schema declares). A change made in one place only fails here, naming each object that differs.
 */
describeOnEngines('the declared schema and the migrations', (ctx) => {
  let declared: Database;
  let drop = async () => {};

  beforeAll(async () => {
    if (ctx.engine === 'pglite') {
      declared = await openPglite();
      drop = () => declared.close();
    } else {
      const name = `obyect_schemas_${process.pid}_${randomBytes(4).toString('hex')}`;
      const admin = await openPostgres({ connectionString: adminUrl(), max: 1 });
      await admin.exec(`create database ${name}`);
      declared = await openPostgres({ connectionString: postgresTestUrl(name), max: 1 });
      drop = async () => {
        await declared.close();
        await admin.exec(`drop database if exists ${name} with (force)`);
        await admin.close();
      };
    }
    await applySchemas(declared);
  }, 120_000);
  afterAll(() => drop());

  it('build the same database', async () => {
    const migrated = await readCatalog(ctx.db);
    const fromSchemas = await readCatalog(declared);
    // Enough of the product to be sure both catalogs were read, not two empty ones.
    expect(migrated.get('relation public.ads')).toMatch(/rls=true/);
    expect([...migrated.keys()].filter((key) => key.startsWith('function public.')).length).toBeGreaterThan(20);
    const differences = catalogDifferences(migrated, fromSchemas);
    const told = differences.map(({ key, left, right }) => `${key}\n  from supabase/migrations: ${left ?? '(absent)'}\n  from supabase/schemas: ${right ?? '(absent)'}`);
    expect(differences.map(({ key }) => key), told.join('\n')).toEqual([]);
  });
});
