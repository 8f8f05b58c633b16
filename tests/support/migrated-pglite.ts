import { createHash } from 'node:crypto';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { migrate } from '../../local/db/migrate.ts';
import { openPglite } from '../../local/db/pglite.ts';
import { KEPT_ROOT, keptFolder } from './kept-folder.ts';

const root = path.resolve(import.meta.dirname, '../..');
const PREFIX = 'pglite-migrated-';

/** Everything a migrated PGlite folder is made from: the engine's version, the database code, the bootstrap and the migrations. */
async function checksum(): Promise<string> {
  const hash = createHash('sha256');
  const { version } = JSON.parse(await readFile(path.join(root, 'node_modules/@electric-sql/pglite/package.json'), 'utf8')) as { version: string };
  hash.update(`pglite ${version}\n`);
  for (const folder of ['local/db', 'local/db/bootstrap', 'supabase/migrations']) {
    const names = (await readdir(path.join(root, folder), { withFileTypes: true })).filter((entry) => entry.isFile()).map((entry) => entry.name).sort();
    for (const name of names) {
      hash.update(`${folder}/${name}\n`);
      hash.update(await readFile(path.join(root, folder, name)));
    }
  }
  return hash.digest('hex').slice(0, 16);
}

export interface MigratedPglite {
  /** A migrated PGlite data folder: copy it before opening it, never open it in place. */
  folder: string;
  /** The same database as a dumpDataDir tarball, for PGlite's loadDataDir. */
  snapshot: string;
}

/**
 * A PGlite database with the bootstrap and every migration applied, made once
 * for each version of what it is made from and kept in .tmp between runs (a
 * fresh PGlite and its migration take 7 to 12 s on two cores). The unit tests
 * load its snapshot and every journey file's stack starts from a copy of its
 * folder (tests/support/kept-folder.ts); older versions are removed.
 */
export async function migratedPglite(): Promise<MigratedPglite> {
  const name = `${PREFIX}${await checksum()}`;
  const target = await keptFolder(name, async (folder) => {
    const db = await openPglite({ dataDir: path.join(folder, 'pglite') });
    try {
      await migrate(db);
      await writeFile(path.join(folder, 'snapshot.tar'), Buffer.from(await (await db.pglite.dumpDataDir('none')).arrayBuffer()));
    } finally {
      await db.close();
    }
  });
  for (const entry of await readdir(KEPT_ROOT)) {
    if (entry.startsWith(PREFIX) && entry !== name && !entry.includes('.')) await rm(path.join(KEPT_ROOT, entry), { recursive: true, force: true });
  }
  return { folder: path.join(target, 'pglite'), snapshot: path.join(target, 'snapshot.tar') };
}
