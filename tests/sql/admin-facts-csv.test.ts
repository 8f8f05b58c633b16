import { beforeAll, describe, expect, it } from 'vitest';
import { describeOnEngines } from '../support/engines.ts';
import { anon, expectPgError, queryAs, userActor, type Actor } from '../support/acting.ts';
import { newAd, newBrand, newCategory, newHook, newPersonas, type Personas } from '../support/factories.ts';

const isoDay = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

interface ImportAnswer {
  updated: number;
  errors: { index: number; code: string; rule: string | null }[];
}

describeOnEngines('admin facts import and listing', (ctx) => {
  let people: Personas;
  let admin: Actor;
  let brandId: string;
  let categoryId: string;
  let hookId: string;
  let hookName: string;

  const newPlainAd = async () => (await newAd(ctx.db, { brandId, categoryId })).id;
  const factsRow = async (adId: string) =>
    (await ctx.db.query<Record<string, unknown>>(
      'select platforms, offer, first_seen::text, last_seen::text, still_running, hook_id, headline from public.ads where id = $1', [adId])).rows[0]!;
  const importAs = async (actor: Actor, rows: unknown) =>
    (await queryAs<{ answer: ImportAnswer }>(ctx.db, actor, 'select public.admin_import_ad_facts($1::jsonb) as answer', [JSON.stringify(rows)]))[0]!.answer;

  beforeAll(async () => {
    people = await newPersonas(ctx.db);
    admin = userActor(people.admin);
    brandId = (await newBrand(ctx.db)).id;
    categoryId = (await newCategory(ctx.db)).id;
    const hook = await newHook(ctx.db);
    hookId = hook.id;
    hookName = hook.name;
  });

  describe('who may call them', () => {
    for (const who of ['free', 'subscriber', 'other'] as const) {
      it(`refuses a ${who} account`, async () => {
        const adId = await newPlainAd();
        const actor = userActor(people[who]);
        await expectPgError(importAs(actor, [{ id: adId, facts: { offer: 'bundle' } }]), { code: '42501', detail: 'admin_required' });
        await expectPgError(queryAs(ctx.db, actor, 'select * from public.admin_ad_facts($1::uuid[])', [[adId]]), { code: '42501', detail: 'admin_required' });
        expect((await factsRow(adId)).offer).toBeNull();
      });
    }

    it('refuses anonymous visitors (no execute grant)', async () => {
      await expectPgError(queryAs(ctx.db, anon, `select public.admin_import_ad_facts('[]'::jsonb)`), { code: '42501' });
      await expectPgError(queryAs(ctx.db, anon, `select * from public.admin_ad_facts('{}'::uuid[])`), { code: '42501' });
    });
  });

  describe('admin_ad_facts', () => {
    it('answers the facts of the ads asked for, with the hook name, and leaves out unknown ids', async () => {
      const adId = await newPlainAd();
      await ctx.db.query(
        `update public.ads set platforms = array['meta','tiktok'], offer = 'discount', first_seen = $2, still_running = true, hook_id = $3 where id = $1`,
        [adId, isoDay(-10), hookId]);
      const rows = await queryAs<Record<string, unknown>>(ctx.db, admin,
        'select id, platforms, offer, first_seen::text, still_running, hook_id, hook_name from public.admin_ad_facts($1::uuid[])',
        [[adId, '00000000-0000-4000-8000-000000000000']]);
      expect(rows).toEqual([{ id: adId, platforms: ['meta', 'tiktok'], offer: 'discount', first_seen: isoDay(-10), still_running: true, hook_id: hookId, hook_name: hookName }]);
    });

    it('refuses more than 1000 ids', async () => {
      const ids = Array.from({ length: 1001 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
      await expectPgError(queryAs(ctx.db, admin, 'select * from public.admin_ad_facts($1::uuid[])', [ids]), { detail: 'too_many_ads' });
    });
  });

  describe('admin_import_ad_facts', () => {
    it('writes every row when all are valid, keeping the facts a row leaves out', async () => {
      const [a, b] = [await newPlainAd(), await newPlainAd()];
      await ctx.db.query(`update public.ads set headline = 'Kept' where id = any ($1::uuid[])`, [[a, b]]);
      const answer = await importAs(admin, [
        { id: a, facts: { offer: 'bundle', platforms: ['meta', 'instagram'], first_seen: isoDay(-20), last_seen: isoDay(-3), hook_id: hookId } },
        { id: b, facts: { offer: null, still_running: true, first_seen: isoDay(-5) } },
      ]);
      expect(answer).toEqual({ updated: 2, errors: [] });
      expect(await factsRow(a)).toEqual({
        platforms: ['meta', 'instagram'], offer: 'bundle', first_seen: isoDay(-20), last_seen: isoDay(-3), still_running: false, hook_id: hookId, headline: 'Kept',
      });
      expect(await factsRow(b)).toMatchObject({ offer: null, still_running: true, first_seen: isoDay(-5), headline: 'Kept' });
    });

    it('writes nothing when one row is refused, and names every refused row with its code and rule', async () => {
      const [a, b, c] = [await newPlainAd(), await newPlainAd(), await newPlainAd()];
      const answer = await importAs(admin, [
        { id: a, facts: { offer: 'bundle' } },
        { id: b, facts: { platforms: ['myspace'] } },
        { id: c, facts: { first_seen: isoDay(-2), last_seen: isoDay(-9) } },
        { id: '00000000-0000-4000-8000-00000000abcd', facts: { offer: 'none' } },
        { id: a, facts: { offer: 'discount' } },
        { id: 'not-an-id', facts: {} },
        { id: c, facts: { hook_id: '00000000-0000-4000-8000-000000000001' } },
      ]);
      expect(answer.updated).toBe(0);
      expect(answer.errors).toEqual([
        { index: 1, code: 'invalid_facts', rule: 'ads_platforms_known' },
        { index: 2, code: 'invalid_facts', rule: 'ads_seen_order' },
        { index: 3, code: 'not_found', rule: null },
        { index: 4, code: 'duplicate_id', rule: null },
        { index: 5, code: 'invalid_id', rule: null },
        { index: 6, code: 'duplicate_id', rule: null },
      ]);
      for (const id of [a, b, c]) expect(await factsRow(id)).toMatchObject({ offer: null, platforms: null, first_seen: null });
    });

    it('refuses an unknown hook, an unknown fact and a row without facts', async () => {
      const [a, b, c] = [await newPlainAd(), await newPlainAd(), await newPlainAd()];
      const answer = await importAs(admin, [
        { id: a, facts: { hook_id: '00000000-0000-4000-8000-000000000001' } },
        { id: b, facts: { colour: 'red' } },
        { id: c },
      ]);
      expect(answer).toEqual({
        updated: 0,
        errors: [
          { index: 0, code: 'hook_not_found', rule: null },
          { index: 1, code: 'invalid_facts', rule: null },
          { index: 2, code: 'invalid_facts', rule: null },
        ],
      });
    });

    it('finds the refused row among well-formed ones: a deleted hook, a day that does not exist, an empty platform list', async () => {
      const [a, b, c, d] = [await newPlainAd(), await newPlainAd(), await newPlainAd(), await newPlainAd()];
      const answer = await importAs(admin, [
        { id: a, facts: { offer: 'bundle' } },
        { id: b, facts: { hook_id: '00000000-0000-4000-8000-000000000001' } },
        { id: c, facts: { first_seen: '2026-02-30' } },
        { id: d, facts: { platforms: [] } },
      ]);
      expect(answer).toEqual({
        updated: 0,
        errors: [
          { index: 1, code: 'hook_not_found', rule: null },
          { index: 2, code: 'invalid_facts', rule: null },
          { index: 3, code: 'invalid_facts', rule: 'ads_platforms_known' },
        ],
      });
      expect((await factsRow(a)).offer).toBeNull();
    });

    it('clears a fact given as null and keeps a row with no facts as it is', async () => {
      const [a, b] = [await newPlainAd(), await newPlainAd()];
      await ctx.db.query(`update public.ads set platforms = array['meta'], offer = 'discount' where id = any ($1::uuid[])`, [[a, b]]);
      expect(await importAs(admin, [{ id: a, facts: { platforms: null, offer: 'none' } }, { id: b, facts: {} }])).toEqual({ updated: 2, errors: [] });
      expect(await factsRow(a)).toMatchObject({ platforms: null, offer: 'none' });
      expect(await factsRow(b)).toMatchObject({ platforms: ['meta'], offer: 'discount' });
    });

    it('bounds the rows: a list, not empty, at most 1000', async () => {
      await expectPgError(importAs(admin, { id: 'x' }), { detail: 'invalid_rows' });
      await expectPgError(importAs(admin, []), { detail: 'no_rows' });
      const rows = Array.from({ length: 1001 }, (_, i) => ({ id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, facts: {} }));
      await expectPgError(importAs(admin, rows), { detail: 'too_many_rows' });
    });

    it('takes 1000 rows in one call', async () => {
      const adId = await newPlainAd();
      const rows = Array.from({ length: 1000 }, (_, i) =>
        i === 0 ? { id: adId, facts: { offer: 'discount' } } : { id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, facts: {} });
      const answer = await importAs(admin, rows);
      expect(answer.updated).toBe(0);
      expect(answer.errors).toHaveLength(999);
      expect(answer.errors.every((error) => error.code === 'not_found')).toBe(true);
      expect((await factsRow(adId)).offer).toBeNull();
    });
  });
});
