import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Database } from '../../local/db/database.ts';
import { openPgliteWorker } from '../../local/db/pglite-worker.ts';

// PGlite in its thread takes a whole transaction as one request (how rest/v1 runs a caller's statement there).
describe('PGlite in its thread: a transaction sent whole', () => {
  let db: Database;
  beforeAll(async () => {
    db = await openPgliteWorker({ loadDataDir: await readFile(inject('pgliteSnapshot')) });
    await db.exec('create table public.transaction_probe (n int primary key)');
  });
  afterAll(() => db?.close());

  it("gives each statement's rows in order, with the settings of the first seen by the next, and commits", async () => {
    const results = await db.runTransaction!([
      { sql: "select set_config('request.jwt.claims', $1, true) as claims", params: ['{"sub":"someone"}'] },
      { sql: 'insert into public.transaction_probe (n) values ($1), ($2) returning n', params: [1, 2] },
      { sql: "select current_setting('request.jwt.claims', true) as claims" },
    ]);
    expect(results.map((result) => result.rows)).toEqual([
      [{ claims: '{"sub":"someone"}' }],
      [{ n: 1 }, { n: 2 }],
      [{ claims: '{"sub":"someone"}' }],
    ]);
    expect(results[1]!.rowCount).toBe(2);
    // Transaction-local settings end with it.
    expect((await db.query("select coalesce(current_setting('request.jwt.claims', true), '') as claims")).rows).toEqual([{ claims: '' }]);
    expect((await db.query('select n from public.transaction_probe order by n')).rows).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it("loads every extension the schema's indexes use: a filter on a column of the search index that btree_gin indexes", async () => {
    // Planning it costs the search index, which calls btree_gin's functions: without the extension loaded in the
    // thread, 'could not access file "btree_gin"'.
    expect((await db.query(
      "select count(*)::int as n from public.ads where search_vector @@ 'sale'::tsquery and hook_id = '00000000-0000-0000-0000-000000000001'::uuid",
    )).rows).toEqual([{ n: 0 }]);
  });

  it('rolls every statement back when one fails, with the error as PostgreSQL names it', async () => {
    await expect(db.runTransaction!([
      { sql: 'insert into public.transaction_probe (n) values (3)' },
      { sql: 'insert into public.transaction_probe (n) values (1)' },
    ])).rejects.toMatchObject({ code: '23505' });
    expect((await db.query('select n from public.transaction_probe order by n')).rows).toEqual([{ n: 1 }, { n: 2 }]);
    // The engine takes the next request as usual.
    expect((await db.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
  });
});
