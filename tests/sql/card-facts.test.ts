import { beforeAll, expect, it } from 'vitest';
import { describeOnEngines } from '../support/engines.ts';
import { anon, queryAs, userActor, type Actor } from '../support/acting.ts';
import { newAd, newBrand, newCategory, newPersonas, type Personas } from '../support/factories.ts';
import type { ListedAd } from '../support/listed-ad.ts';

const isoDay = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

describeOnEngines('card facts: every card carries where an ad ran and when it was seen, locked or clear', (ctx) => {
  let people: Personas;
  let brandId: string;
  let categoryId: string;
  /** One ad anyone sees clear (no subscription needed), and premium ads, most of them locked to non-payers. */
  let freeAdId: string;
  let premiumAdIds: string[];

  const listed = async (actor: Actor): Promise<ListedAd[]> => {
    const [row] = await queryAs<{ page: { ads: ListedAd[] } }>(ctx.db, actor,
      'select public.list_ads($1::jsonb) as page', [JSON.stringify({ board: 'library', brand_ids: [brandId] })]);
    return row!.page.ads;
  };

  beforeAll(async () => {
    people = await newPersonas(ctx.db);
    brandId = (await newBrand(ctx.db)).id;
    categoryId = (await newCategory(ctx.db)).id;
    freeAdId = (await newAd(ctx.db, { brandId, categoryId, requiresSubscription: false })).id;
    premiumAdIds = [];
    // At most one premium ad in ten joins the free sample: of three, two at least stay locked.
    for (let index = 0; index < 3; index += 1) premiumAdIds.push((await newAd(ctx.db, { brandId, categoryId })).id);
    await ctx.db.query(
      `update public.ads set platforms = array['tiktok', 'meta'], first_seen = (now() at time zone 'UTC')::date - 93,
              last_seen = (now() at time zone 'UTC')::date - 1, still_running = true
        where id = any($1::uuid[])`,
      [[freeAdId, ...premiumAdIds]]);
  });

  it('gives anonymous, free and subscribed callers the facts on every card, and locked cards still no image but the preview', async () => {
    const facts = { platforms: ['tiktok', 'meta'], first_seen: isoDay(-93), last_seen: isoDay(-1), still_running: true };
    for (const [who, actor, paying] of [
      ['anonymous', anon, false],
      ['free', userActor(people.free), false],
      ['subscriber', userActor(people.subscriber), true],
    ] as const) {
      const ads = await listed(actor);
      expect(ads.map((ad) => ad.id).sort(), who).toEqual([freeAdId, ...premiumAdIds].sort());
      for (const ad of ads) expect(ad, who).toMatchObject(facts);
      expect(ads.find((ad) => ad.id === freeAdId)!.is_clear, who).toBe(true);
      const locked = ads.filter((ad) => !ad.is_clear);
      if (paying) expect(locked, who).toEqual([]);
      else expect(locked.length, who).toBeGreaterThanOrEqual(2);
      for (const ad of locked) {
        expect(ad, who).toMatchObject({ ...facts, display_480_url: null, display_960_url: null });
        expect(ad.preview_url, who).toMatch(/^object\/sign\/ad-images\/previews\//);
        expect(Object.keys(ad).filter((key) => /display|original/.test(key)).sort(), who).toEqual(['display_480_url', 'display_960_url']);
      }
    }
  });

  it('rewrites the card when an ad\'s platforms, dates or running state change, and carries no running days', async () => {
    const adId = premiumAdIds[0]!;
    const cardOf = async () => (await listed(userActor(people.subscriber))).find((ad) => ad.id === adId)!;
    await ctx.db.query(
      `update public.ads set platforms = array['youtube'], first_seen = (now() at time zone 'UTC')::date - 10,
              last_seen = (now() at time zone 'UTC')::date - 3, still_running = false where id = $1`, [adId]);
    expect(await cardOf()).toMatchObject({ platforms: ['youtube'], first_seen: isoDay(-10), last_seen: isoDay(-3), still_running: false });
    expect(await cardOf()).not.toHaveProperty('running_days');

    await ctx.db.query(`update public.ads set still_running = true where id = $1`, [adId]);
    expect((await cardOf()).still_running).toBe(true);
    await ctx.db.query(`update public.ads set platforms = null, last_seen = null, still_running = false, first_seen = null where id = $1`, [adId]);
    expect(await cardOf()).toMatchObject({ platforms: null, first_seen: null, last_seen: null, still_running: false });

    const { rows } = await ctx.db.query<{ stale: number }>(
      'select count(*)::int as stale from public.ads a where a.card::jsonb is distinct from private.ad_card(a)');
    expect(rows[0]!.stale).toBe(0);
  });

  it('rewrites the cards when the admin sets the facts through admin_update_ads', async () => {
    const adId = premiumAdIds[1]!;
    const results = await queryAs<{ ok: boolean }>(ctx.db, userActor(people.admin),
      'select * from public.admin_update_ads(p_ids => $1::uuid[], p_facts => $2::jsonb)',
      [[adId], JSON.stringify({ platforms: ['pinterest', 'google'], first_seen: isoDay(-4), last_seen: null, still_running: true })]);
    expect(results.map((result) => result.ok)).toEqual([true]);
    const card = (await listed(anon)).find((ad) => ad.id === adId)!;
    expect(card).toMatchObject({ platforms: ['pinterest', 'google'], first_seen: isoDay(-4), last_seen: null, still_running: true });
  });
});
