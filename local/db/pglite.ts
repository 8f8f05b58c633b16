import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { cube } from '@electric-sql/pglite/contrib/cube';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { pgcrypto } from '@electric-sql/pglite/contrib/pgcrypto';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import type { Database, Queryable, QueryResult } from './database.ts';
import { TEXT_TYPE_OIDS } from './database.ts';

const asText = (value: string) => value;

export interface PgliteOptions {
  /** Folder holding the data; omitted means in memory. */
  dataDir?: string;
  /** A data folder snapshot made by dumpDataDir, to start from. */
  loadDataDir?: Blob;
}

// Extensions must be passed on every open, or later queries fail with "could not access file". The worker thread
// (pglite-thread.mjs, plain JavaScript) passes the same list.
export const pgliteExtensions = { btree_gin, cube, pg_trgm, pgcrypto, unaccent };

export async function openPglite(options: PgliteOptions = {}): Promise<Database & { pglite: PGlite }> {
  const parsers = Object.fromEntries(Object.values(TEXT_TYPE_OIDS).map((oid) => [oid, asText]));
  const pglite = await PGlite.create({
    dataDir: options.dataDir,
    loadDataDir: options.loadDataDir,
    extensions: pgliteExtensions,
    parsers,
  });
  return wrapPglite(pglite);
}

function queryable(target: Pick<PGlite, 'query' | 'exec'>): Queryable {
  return {
    async query<T>(sql: string, params: unknown[] = []): Promise<QueryResult<T>> {
      const result = await target.query<T>(sql, params as never[]);
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    },
    async exec(sql: string) {
      await target.exec(sql);
    },
  };
}

export function wrapPglite(pglite: PGlite): Database & { pglite: PGlite } {
  return {
    engine: 'pglite',
    pglite,
    ...queryable(pglite),
    transaction: (fn) => pglite.transaction((tx) => fn(queryable(tx))),
    listen: (channel, fn) => pglite.listen(channel, fn),
    close: () => pglite.close(),
  };
}
