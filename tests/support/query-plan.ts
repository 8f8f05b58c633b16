import type { Database } from '../../local/db/database.ts';

/** Thrown to end planOf's transaction by rolling it back, with the plan read. */
class PlanRead extends Error {
  constructor(readonly plan: string) {
    super('plan read');
  }
}

/**
 * The plan PostgreSQL (or PGlite) gives a statement, as `explain` prints it, with the planner methods named in `off`
 * (`enable_seqscan`, `enable_sort`, ...) disabled for that statement only: a test of which index can answer it.
 * The statements in `before` run first in the same transaction (to set an index aside with `drop index`, say), and
 * the transaction is rolled back.
 */
export async function planOf(db: Database, statement: string, off: string[] = [], before: string[] = []): Promise<string> {
  try {
    await db.transaction(async (tx) => {
      for (const setting of off) await tx.query(`set local ${setting} = off`);
      for (const step of before) await tx.query(step);
      const { rows } = await tx.query<{ 'QUERY PLAN': string }>(`explain ${statement}`);
      throw new PlanRead(rows.map((row) => row['QUERY PLAN']).join('\n'));
    });
  } catch (error) {
    if (error instanceof PlanRead) return error.plan;
    throw error;
  }
  throw new Error('unreachable: the transaction ends by throwing the plan');
}
