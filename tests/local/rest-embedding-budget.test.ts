import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMBEDDED_ROWS_MAX } from '../../local/rest/read-sql.ts';
import type { LocalStack } from '../../local/stack.ts';
import { newBrand, newCategory } from '../support/factories.ts';
import { startStackOnPglite } from '../support/stack-on-pglite.ts';

/**
 * One read may embed at most EMBEDDED_ROWS_MAX rows (and EMBEDDED_BYTES_MAX bytes): counted as they are read, so the
 * statement stops before the database has built an answer that nested embeddings would multiply.
 */
describe('rest/v1 bounds what one read embeds', () => {
  let stack: LocalStack & { stop(): Promise<void> };
  let brandId: string;
  beforeAll(async () => {
    stack = await startStackOnPglite();
    const brand = await newBrand(stack.db);
    const category = await newCategory(stack.db);
    brandId = brand.id;
    // More ads than the budget, written as the owner with triggers off (as the benchmark seeds them).
    await stack.db.transaction(async (tx) => {
      await tx.query('set local session_replication_role = replica');
      await tx.query(
        `insert into public.ads (brand_id, category_id, original_path, display_480_path, display_960_path, preview_path, width, height, thumbhash, card)
         select $1, $2, 'o/' || g, 'a/' || g, 'b/' || g, 'p/' || g, 1080, 1350, 'YJqGPQw7sFlslqhFafSE+Q6oJ1h2iHB2Rw==', '{}'::json
           from generate_series(1, $3::int) g`,
        [brand.id, category.id, EMBEDDED_ROWS_MAX + 1],
      );
    });
  }, 120_000);
  afterAll(() => stack?.stop());

  const read = (query: string) => fetch(`${stack.url}/rest/v1/${query}`, { headers: { apikey: stack.config.anonKey } });

  it('refuses a read that embeds more, with a PostgREST-style error that says what to do', async () => {
    const response = await read(`brands?select=id,ads_with_flags(id)&id=eq.${brandId}`);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      code: '54000',
      message: `The answer would embed more than ${EMBEDDED_ROWS_MAX} rows or 8 MB`,
      details: 'Embedded resources are bounded per request in rows and bytes, counted as they are read',
      hint: 'Embed fewer levels, or filter or limit the embedded resources (e.g. ads.limit=20)',
    });
  });

  it('answers the same read within the budget, and the budget is per request', async () => {
    const limited = await read(`brands?select=id,ads_with_flags(id)&id=eq.${brandId}&ads_with_flags.limit=20`);
    expect(limited.status).toBe(200);
    const [brand] = (await limited.json()) as Array<{ ads_with_flags: unknown[] }>;
    expect(brand!.ads_with_flags).toHaveLength(20);
    for (let i = 0; i < 3; i += 1) expect((await read(`brands?select=id,ads_with_flags(id)&id=eq.${brandId}&ads_with_flags.limit=${EMBEDDED_ROWS_MAX}`)).status).toBe(200);
  });
});
