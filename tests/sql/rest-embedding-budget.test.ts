import { expect, it } from 'vitest';
import { describeOnEngines } from '../support/engines.ts';
import { anon, expectPgError, queryAs } from '../support/acting.ts';

/** rest_local.embedded_row: the local rest/v1's count of the rows and bytes one read embeds (bootstrap/06). */
describeOnEngines('the embedded-row budget of a read', (ctx) => {
  it('counts each row and its bytes within the transaction, and stops the statement past either bound', async () => {
    const rows = (limitRows: number, limitBytes: number, n: number, bytes = 10) =>
      queryAs(ctx.db, anon, `select count(*)::int as n from generate_series(1, $1) g where rest_local.embedded_row($2, $3, $4)`, [n, bytes, limitRows, limitBytes]);
    expect(await rows(5, 1000, 5)).toEqual([{ n: 5 }]);
    await expectPgError(rows(5, 1000, 6), { code: '54000', message: 'The answer would embed more than 5 rows or 0 MB' });
    await expectPgError(rows(1000, 2 * 1048576, 3, 1048576), { code: '54000', message: 'The answer would embed more than 1000 rows or 2 MB' });
    // A new request (transaction) starts counting afresh.
    expect(await rows(5, 1000, 5)).toEqual([{ n: 5 }]);
  });
});
