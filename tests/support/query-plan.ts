import type { Database } from '../../local/db/database.ts';

/**
 * The plan PostgreSQL (or PGlite) gives a statement, as `explain` prints it, with the planner methods named in `off`
 * (`enable_seqscan`, `enable_sort`, ...) disabled for that statement only: a test of which index can answer it.
 */
export async function planOf(db: Database, statement: string, off: string[] = []): Promise<string> {
  return db.transaction(async (tx) => {
    for (const setting of off) await tx.query(`set local ${setting} = off`);
    const { rows } = await tx.query<{ 'QUERY PLAN': string }>(`explain ${statement}`);
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  });
}
