import { cp, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openPglite } from '../../local/db/pglite.ts';
import { migratedPglite } from '../support/migrated-pglite.ts';

/** The bootstrap's files and the migrations, each recorded in supabase_migrations.schema_migrations once applied. */
const migrations = async () => {
  let count = 0;
  for (const folder of ['../../local/db/bootstrap', '../../supabase/migrations']) {
    count += (await readdir(path.resolve(import.meta.dirname, folder))).filter((name) => name.endsWith('.sql')).length;
  }
  return count;
};

describe('the migrated PGlite the test runs start from', () => {
  it('is made once and kept: a second ask gets the same files, unchanged', async () => {
    const first = await migratedPglite();
    const before = await stat(first.snapshot);
    const second = await migratedPglite();
    expect(second).toEqual(first);
    expect((await stat(second.snapshot)).mtimeMs).toBe(before.mtimeMs);
  });

  it('holds the bootstrap and every migration, in its snapshot and in its folder', async () => {
    const { folder, snapshot } = await migratedPglite();
    const expected = await migrations();
    const count = 'select count(*)::int as n from supabase_migrations.schema_migrations';
    const loaded = await openPglite({ loadDataDir: new Blob([await readFile(snapshot)]) });
    try {
      expect((await loaded.query<{ n: number }>(count)).rows[0]!.n).toBe(expected);
    } finally {
      await loaded.close();
    }
    // A copy, as every journey file's stack opens one: the kept folder itself is never opened.
    const copy = await mkdtemp(path.join(os.tmpdir(), 'obyect-migrated-'));
    try {
      await cp(folder, path.join(copy, 'pglite'), { recursive: true });
      const opened = await openPglite({ dataDir: path.join(copy, 'pglite') });
      try {
        expect((await opened.query<{ n: number }>(count)).rows[0]!.n).toBe(expected);
      } finally {
        await opened.close();
      }
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
  });
});
