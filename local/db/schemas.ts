import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Database } from './database.ts';
import { bootstrapDir } from './migrate.ts';

export const schemasDir = path.resolve(import.meta.dirname, '../../supabase/schemas');

/**
 * Builds a database from the declared schema instead of the migrations: the bootstrap, then each file of
 * supabase/schemas in name order, each in its own transaction, as `supabase db diff` builds its shadow database.
 * Nothing is recorded: such a database is for comparing with a migrated one (tests/sql/schema-drift.test.ts).
 */
export async function applySchemas(db: Database): Promise<string[]> {
  const applied: string[] = [];
  for (const dir of [bootstrapDir, schemasDir]) {
    for (const file of (await readdir(dir)).filter((name) => name.endsWith('.sql')).sort()) {
      const sql = await readFile(path.join(dir, file), 'utf8');
      await db.transaction(async (tx) => {
        try {
          await tx.exec(sql);
        } catch (error) {
          throw new Error(`${path.relative(path.resolve(dir, '../..'), path.join(dir, file))} failed: ${(error as Error).message}`, { cause: error });
        }
      });
      applied.push(file);
    }
  }
  return applied;
}
