import path from 'node:path';
import type { Database } from './database.ts';
import { bootstrapDir, readSqlFolder } from './migrate.ts';

export const schemasDir = path.resolve(import.meta.dirname, '../../supabase/schemas');

/**
 * Builds a database from the declared schema instead of the migrations: the bootstrap, then each file of
 * supabase/schemas in name order, each in its own transaction, as `supabase db diff` builds its shadow database.
 * Nothing is recorded: such a database is for comparing with a migrated one (tests/sql/schema-drift.test.ts).
 */
export async function applySchemas(db: Database): Promise<string[]> {
  const applied: string[] = [];
  for (const [dir, folder] of [[bootstrapDir, 'local/db/bootstrap'], [schemasDir, 'supabase/schemas']] as const) {
    for (const file of await readSqlFolder(dir, (name) => name)) {
      await db.transaction(async (tx) => {
        try {
          await tx.exec(file.sql);
        } catch (error) {
          throw new Error(`${folder}/${file.name}.sql failed: ${(error as Error).message}`, { cause: error });
        }
      });
      applied.push(`${file.name}.sql`);
    }
  }
  return applied;
}
