import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataDirLockedError, openLocalDatabase } from '../../local/db/open-local-database.ts';
import type { Database } from '../../local/db/database.ts';
import { expectPgError } from '../support/acting.ts';

describe('the local stack database on PGlite', () => {
  let dataDir: string;
  let db: Database;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'obyect-local-db-'));
    db = await openLocalDatabase({ DATA_DIR: dataDir });
    await db.exec('create table notes (id int primary key, body text not null)');
  });
  afterAll(async () => {
    await db.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('refuses a second open of a data folder in use, with a clear message', async () => {
    await expect(openLocalDatabase({ DATA_DIR: dataDir })).rejects.toThrow(DataDirLockedError);
    await expect(openLocalDatabase({ DATA_DIR: dataDir })).rejects.toThrow(/in use by another Obyect process/);
  });

  it('keeps the main thread free while queries run in the worker', async () => {
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 1);
    await db.query('select count(*) from generate_series(1, 3000000)');
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(0);
  });

  it('carries PostgreSQL error fields across the thread boundary', async () => {
    await db.query('insert into notes values (1, $1)', ['first']);
    const error = await expectPgError(db.query('insert into notes values (1, $1)', ['again']), { code: '23505' });
    expect((error as Error & { constraint?: string }).constraint).toBe('notes_pkey');
  });

  it('rolls a transaction back when its function throws, and keeps other callers out of it', async () => {
    const outside: Promise<unknown>[] = [];
    await expect(
      db.transaction(async (tx) => {
        await tx.query('insert into notes values (2, $1)', ['inside']);
        outside.push(db.query('select count(*)::int as n from notes'));
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    const [seen] = (await Promise.all(outside)) as { rows: { n: number }[] }[];
    expect(seen!.rows[0]!.n).toBe(1);
    expect((await db.query('select id from notes order by id')).rows).toEqual([{ id: 1 }]);
  });

  it('keeps data across a close and a reopen', async () => {
    await db.close();
    db = await openLocalDatabase({ DATA_DIR: dataDir });
    expect((await db.query('select body from notes where id = 1')).rows).toEqual([{ body: 'first' }]);
  });
});
