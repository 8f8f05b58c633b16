import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../local/db/database.ts';
import { describeOnEngines } from '../support/engines.ts';
import { anon, expectPgError, queryAs, userActor, type Actor } from '../support/acting.ts';
import {
  imageLinkSecret,
  imageLinksOf,
  imageLinkWindowStart,
  readSignedLink,
  type ListedAd,
} from '../support/listed-ad.ts';
import {
  newAd,
  newAdObjects,
  newBoard,
  newBrand,
  newCategory,
  newPersonas,
  newSubscription,
  newTag,
  newUser,
  systemTagId,
  type Personas,
  type TestUser,
} from '../support/factories.ts';
import { listAdsStatement, listQueryParameter, type ListQuery } from '../support/list-query.ts';

/**
 * The free sample (DESIGN.md, "Access and the paywall"): one fixed set of at
 * most ceil(10%) of the published premium ads, chosen at publish, the same for
 * every viewer without access on every list, and nothing a viewer does adds to it.
 */

interface AdPage {
  ads: ListedAd[];
  next_cursor: string | null;
}

/** The queries these tests make. */
type ListArgs = Pick<ListQuery, 'board' | 'brandIds' | 'categoryIds' | 'tagIds' | 'since' | 'search' | 'cursor'>;

interface AdBatch {
  count: number;
  brandId: string;
  categoryId: string;
  tagIds?: string[];
  requiresSubscription?: boolean;
  /** Creation time of the first (oldest) ad of the batch. */
  start: string;
  step?: string;
}

/**
 * A batch of ads published in one statement, oldest first (their storage objects
 * and tags in a statement each), as the database owner: one-ad-at-a-time inserts
 * are too slow for libraries of hundreds of ads. Returned oldest first: publish order.
 */
async function insertAds(db: Database, batch: AdBatch): Promise<string[]> {
  const prefix = randomBytes(8).toString('hex');
  return db.transaction(async (tx) => {
    await newAdObjects(tx, prefix, batch.count);
    const { rows } = await tx.query<{ id: string }>(
      `insert into public.ads (brand_id, category_id, created_at, requires_subscription, original_path, display_480_path,
                               display_960_path, preview_path, width, height, thumbhash)
       select $3::uuid, $4::uuid, $5::timestamptz + (g - 1) * $6::interval, $7, $1::text || '/' || g || '/original.jpg',
              $1::text || '/' || g || '/480.webp', $1::text || '/' || g || '/960.webp', 'previews/' || $1::text || '-' || g || '.webp',
              1080, 1350, 'YJqGPQw7sFlslqhFafSE+Q6oJ1h2iHB2Rw=='
         from generate_series(1, $2::int) g
        order by g
       returning id`,
      [prefix, batch.count, batch.brandId, batch.categoryId, batch.start, batch.step ?? '1 minute', batch.requiresSubscription ?? true],
    );
    const adIds = rows.map((row) => row.id);
    if ((batch.tagIds ?? []).length > 0) {
      await tx.query('insert into public.ad_tags (ad_id, tag_id) select a, t from unnest($1::uuid[]) a cross join unnest($2::uuid[]) t', [
        adIds,
        batch.tagIds,
      ]);
    }
    return adIds;
  });
}

async function clearLibrary(db: Database): Promise<void> {
  await db.query('delete from public.ads');
}

async function setRequiresSubscription(db: Database, adIds: string[], requires: boolean): Promise<void> {
  await db.query('update public.ads set requires_subscription = $2 where id = any ($1::uuid[])', [adIds, requires]);
}

/** The free sample as everyone may read it (ads.free_sample). */
async function sampleIds(db: Database): Promise<Set<string>> {
  const rows = await queryAs<{ id: string }>(db, anon, 'select id from public.ads where free_sample');
  return new Set(rows.map((row) => row.id));
}

async function premiumCount(db: Database): Promise<number> {
  const { rows } = await db.query<{ n: number }>('select count(*)::int as n from public.ads where requires_subscription');
  return rows[0]!.n;
}

const cap = (premium: number) => Math.ceil(premium / 10);
const ids = (ads: { id: string }[]) => ads.map((ad) => ad.id);
const clearIds = (ads: ListedAd[]) => new Set(ids(ads.filter((ad) => ad.is_clear)));
const without = (set: Iterable<string>, remove: Set<string>) => new Set([...set].filter((id) => !remove.has(id)));
const union = (...sets: Iterable<string>[]) => new Set(sets.flatMap((set) => [...set]));

/** A seeded generator, so a failing run can be replayed. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Viewer = 'anonymous' | keyof Personas;

describeOnEngines('the free sample', (ctx) => {
  let people: Personas;
  let linkSecret: string;
  let windowStart: number;
  const who = (viewer: Viewer | TestUser): Actor =>
    viewer === 'anonymous' ? anon : typeof viewer === 'string' ? userActor(people[viewer]) : userActor(viewer);

  beforeAll(async () => {
    people = await ctx.db.transaction((tx) => newPersonas(tx));
    linkSecret = await imageLinkSecret(ctx.db);
    windowStart = await imageLinkWindowStart(ctx.db);
  });

  async function listAds(viewer: Viewer | TestUser, args: ListArgs = {}): Promise<AdPage> {
    const [row] = await queryAs<{ page: AdPage }>(ctx.db, who(viewer), listAdsStatement, [listQueryParameter(args)]);
    return row!.page;
  }

  /**
   * Every page of a query, each checked on the way: clear ads lead the page, a clear ad
   * has both display links and no preview link, a locked one only its preview link.
   */
  async function listAllPages(viewer: Viewer | TestUser, args: ListArgs = {}): Promise<ListedAd[]> {
    const rows: ListedAd[] = [];
    let cursor: string | undefined;
    for (let page = 0; ; page += 1) {
      if (page > 30) throw new Error('The listing does not end');
      const { ads, next_cursor } = await listAds(viewer, { ...args, ...(cursor ? { cursor } : {}) });
      const flags = ads.map((ad) => ad.is_clear);
      expect(flags, `clear ads lead the page (${JSON.stringify(args)})`).toEqual([...flags].sort((a, b) => Number(b) - Number(a)));
      for (const ad of ads) expectLinksMatch(ad);
      rows.push(...ads);
      if (next_cursor === null) return rows;
      cursor = next_cursor;
    }
  }

  /** Ads by id, as get_ad returns each to the viewer (one statement for all). */
  async function getAds(viewer: Viewer | TestUser, adIds: string[]): Promise<ListedAd[]> {
    const rows = await queryAs<{ ad: ListedAd }>(ctx.db, who(viewer),
      'select public.get_ad(u.id) as ad from unnest($1::uuid[]) with ordinality as u (id, n) order by u.n', [adIds]);
    for (const { ad } of rows) expectLinksMatch(ad);
    return rows.map((row) => row.ad);
  }

  function expectLinksMatch(ad: ListedAd): void {
    const links = imageLinksOf(ad, linkSecret, windowStart);
    expect({ preview: links.preview !== null, display480: links.display480 !== null, display960: links.display960 !== null }, ad.id)
      .toEqual({ preview: !ad.is_clear, display480: ad.is_clear, display960: ad.is_clear });
  }

  async function listCollection(viewer: Viewer | TestUser, collectionId: string): Promise<ListedAd[]> {
    const [row] = await queryAs<{ page: AdPage }>(ctx.db, who(viewer), 'select public.list_collection_ads($1) as page', [collectionId]);
    return row!.page.ads;
  }

  async function existingIds(): Promise<string[]> {
    return (await ctx.db.query<{ id: string }>('select id from public.ads order by id')).rows.map((row) => row.id);
  }

  describe('what a free account is ever served clear', () => {
    let blackFridayTag: string;
    let topPicksTag: string;
    let zestTag: string;
    let brands: { id: string; name: string }[];
    let categories: { id: string; name: string }[];
    const blackFriday = new Set<string>();
    const freeAds = new Set<string>();
    /** Every ad in publish order. */
    const published: string[] = [];

    /** Publishes a batch and records what the test must know of it. */
    async function publish(batch: AdBatch): Promise<string[]> {
      const adIds = await insertAds(ctx.db, batch);
      if (batch.tagIds?.includes(blackFridayTag)) adIds.forEach((id) => blackFriday.add(id));
      if (batch.requiresSubscription === false) adIds.forEach((id) => freeAds.add(id));
      published.push(...adIds);
      return adIds;
    }

    /**
     * Everything a viewer can list and open: every page of the library and of Top Picks,
     * of the Black Friday board when signed in, of filters and searches, and every ad's page.
     * Returns the ids served clear.
     */
    async function walk(viewer: Viewer): Promise<Set<string>> {
      const queries: ListArgs[] = [
        {},
        { board: 'top-picks' },
        ...(viewer === 'anonymous' ? [] : [{ board: 'black-friday' }]),
        { brandIds: [brands[0]!.id] },
        { categoryIds: [categories[1]!.id] },
        { tagIds: [zestTag] },
        { since: '2026-01-01T00:30:00Z' },
        { search: 'zest' },
        { search: brands[2]!.name.slice(0, 9) },
        { search: 'a' },
      ];
      const clear = new Set<string>();
      for (const args of queries) clearIds(await listAllPages(viewer, args)).forEach((id) => clear.add(id));
      const everyAd = await existingIds();
      const opened = await getAds(viewer, everyAd);
      expect(ids(opened)).toEqual(everyAd);
      clearIds(opened).forEach((id) => clear.add(id));
      return clear;
    }

    beforeAll(async () => {
      await clearLibrary(ctx.db);
      blackFridayTag = await systemTagId(ctx.db, 'black_friday');
      topPicksTag = await systemTagId(ctx.db, 'top_picks');
      zestTag = (await newTag(ctx.db, `Zest ${randomBytes(3).toString('hex')}`)).id;
      brands = [await newBrand(ctx.db), await newBrand(ctx.db), await newBrand(ctx.db)];
      categories = [await newCategory(ctx.db), await newCategory(ctx.db)];
      // 600 premium ads in 20 statements of 30, their times interleaved so every page mixes them; 120 on the Black
      // Friday board, 150 Top Picks (30 of them Black Friday too); and 20 free ads among them.
      for (let k = 0; k < 20; k += 1) {
        const tagIds = [
          ...(k % 5 === 0 ? [blackFridayTag] : []),
          ...(k % 4 === 1 ? [topPicksTag] : []),
          ...(k % 3 === 2 ? [zestTag] : []),
        ];
        const start = new Date(Date.parse('2026-01-01T00:00:00Z') + k * 7_000).toISOString();
        await publish({ count: 30, brandId: brands[k % 3]!.id, categoryId: categories[k % 2]!.id, tagIds, start, step: '2 minutes' });
      }
      await publish({
        count: 20, brandId: brands[1]!.id, categoryId: categories[0]!.id, requiresSubscription: false, start: '2026-01-01T00:00:03Z', step: '3 minutes',
      });
    });

    it('keeps the ads ever served clear to a free account within ceil(10%) of premium ads plus the free ones, across a walk, deletions and publishing', { timeout: 120_000 }, async () => {
      const servedToFree = new Set<string>();
      const servedToAnonymous = new Set<string>();
      let mostPremium = await premiumCount(ctx.db);
      let deletedMembers = 0;
      expect(mostPremium).toBe(600);

      for (let round = 0; round < 2; round += 1) {
        const free = await walk('free');
        const anonymous = await walk('anonymous');
        const existing = new Set(await existingIds());
        const sample = await sampleIds(ctx.db);
        const premium = await premiumCount(ctx.db);
        mostPremium = Math.max(mostPremium, premium);

        // Black Friday ads are clear by rule (d) to every signed-in viewer, all of them: they are counted apart from the sample.
        expect([...blackFriday].filter((id) => existing.has(id) && !free.has(id)), 'Black Friday ads locked to a free account').toEqual([]);
        // Free ads are clear to everyone, all of them: counted apart too.
        expect([...freeAds].filter((id) => existing.has(id) && !(free.has(id) && anonymous.has(id)))).toEqual([]);
        // Beyond those, exactly the sample, no more: all of it to an anonymous visitor, all of it off the Black Friday board to
        // a free account; so an anonymous walk serves what the free account's does, but for Black Friday.
        expect(without(anonymous, freeAds), `round ${round}: anonymous`).toEqual(sample);
        expect(without(free, union(freeAds, blackFriday)), `round ${round}: free`).toEqual(without(sample, blackFriday));
        expect(without(anonymous, blackFriday), `round ${round}: anonymous and free`).toEqual(without(free, blackFriday));
        expect(sample.size).toBeLessThanOrEqual(cap(premium));

        free.forEach((id) => servedToFree.add(id));
        anonymous.forEach((id) => servedToAnonymous.add(id));
        const everPremium = without(servedToFree, union(freeAds, blackFriday));
        expect([...everPremium].filter((id) => existing.has(id)).length, `round ${round}: still published`).toBeLessThanOrEqual(cap(premium));
        expect(everPremium.size, `round ${round}: deleted ones too`).toBeLessThanOrEqual(cap(mostPremium));
        // To an anonymous visitor, the sample's Black Friday ads included: a deleted member's place goes to a new ad, nothing more.
        expect(without(servedToAnonymous, freeAds).size, `round ${round}: anonymous`).toBeLessThanOrEqual(cap(mostPremium) + deletedMembers);

        if (round === 1) break;
        // 5% of the ads deleted at random (seeded: members of the sample among them), half in one statement, half one by one ...
        const random = seededRandom(20261125);
        const doomed = published.map((id) => ({ id, key: random() })).sort((x, y) => x.key - y.key).slice(0, 31).map((row) => row.id);
        deletedMembers = doomed.filter((id) => sample.has(id)).length;
        expect(deletedMembers).toBeGreaterThan(0);
        await ctx.db.query('delete from public.ads where id = any ($1::uuid[])', [doomed.slice(0, 16)]);
        for (const id of doomed.slice(16)) await ctx.db.query('delete from public.ads where id = $1', [id]);
        expect(await premiumCount(ctx.db)).toBeLessThan(600);
        // ... and 5% new premium ads published among them: six uploads one by one, as an admin uploads, then a batch of 25.
        for (let n = 0; n < 6; n += 1) {
          const tagIds = n === 0 ? [blackFridayTag] : n === 1 ? [topPicksTag] : [];
          const createdAt = `2026-01-01T00:${String(10 + n * 7).padStart(2, '0')}:30Z`;
          const ad = await newAd(ctx.db, { brandId: brands[n % 3]!.id, categoryId: categories[n % 2]!.id, tagIds, createdAt });
          if (n === 0) blackFriday.add(ad.id);
          published.push(ad.id);
        }
        await publish({ count: 25, brandId: brands[2]!.id, categoryId: categories[1]!.id, tagIds: [zestTag], start: '2026-01-01T00:01:11Z' });
      }
      // Published in full again, the sample is as large as the rule allows.
      expect((await sampleIds(ctx.db)).size).toBe(cap(await premiumCount(ctx.db)));
    });
  });

  describe('where the sample lies', () => {
    it('spreads the sample so each full library page of premium ads has 6 clear ads, leading the page', async () => {
      await clearLibrary(ctx.db);
      const brandId = (await newBrand(ctx.db)).id;
      const categoryId = (await newCategory(ctx.db)).id;
      // 250 premium ads published oldest first, in statements of different sizes: the count runs on across statements.
      const published: string[] = [];
      let start = Date.parse('2026-01-01T00:00:00Z');
      for (const count of [7, 13, 100, 1, 1, 28, 100]) {
        published.push(...(await insertAds(ctx.db, { count, brandId, categoryId, start: new Date(start).toISOString() })));
        start += count * 60_000;
      }
      const sample = new Set(published.filter((_, i) => i % 10 === 0));
      expect(await sampleIds(ctx.db)).toEqual(sample);

      const newestFirst = [...published].reverse();
      for (const viewer of ['anonymous', 'free', 'expired'] as const) {
        const pages: ListedAd[][] = [];
        let cursor: string | undefined;
        do {
          const page = await listAds(viewer, cursor ? { cursor } : {});
          pages.push(page.ads);
          cursor = page.next_cursor ?? undefined;
        } while (cursor);
        expect(pages.map((page) => page.length)).toEqual([60, 60, 60, 60, 10]);
        pages.forEach((page, index) => {
          const shown = newestFirst.slice(index * 60, index * 60 + 60);
          const clear = shown.filter((id) => sample.has(id));
          expect(clear, `${viewer}, page ${index + 1}`).toHaveLength(index < 4 ? 6 : 1);
          expect(ids(page), `${viewer}, page ${index + 1}`).toEqual([...clear, ...shown.filter((id) => !sample.has(id))]);
          expect(page.map((ad) => ad.is_clear)).toEqual(page.map((_, i) => i < clear.length));
        });
      }
    });

    it('keeps the sample at most ceil(10%) after deleting members, re-admits the ads that left before any new one', async () => {
      await clearLibrary(ctx.db);
      const brandId = (await newBrand(ctx.db)).id;
      const categoryId = (await newCategory(ctx.db)).id;
      const at = (minutes: number) => new Date(Date.parse('2026-01-01T00:00:00Z') + minutes * 60_000).toISOString();
      const expectSample = async (members: string[], label: string) => {
        const sample = await sampleIds(ctx.db);
        expect(sample, label).toEqual(new Set(members));
        expect(sample.size, label).toBeLessThanOrEqual(cap(await premiumCount(ctx.db)));
        // What the sample holds is what a visitor is shown clear, and nothing else.
        expect(clearIds(await listAllPages('anonymous')), label).toEqual(sample);
      };
      // Five statements of ten: the first of each joins, s1 first and s5 last.
      const batches: string[][] = [];
      for (let b = 0; b < 5; b += 1) batches.push(await insertAds(ctx.db, { count: 10, brandId, categoryId, start: at(b * 10) }));
      const [s1, s2, s3, s4, s5] = batches.map((batch) => batch[0]!) as [string, string, string, string, string];
      await expectSample([s1, s2, s3, s4, s5], '50 premium ads');

      // 39 premium ads allow 4: the latest to join leaves.
      await ctx.db.query('delete from public.ads where id = any ($1::uuid[])', [[...batches[0]!.slice(1), ...batches[1]!.slice(1, 3)]]);
      await expectSample([s1, s2, s3, s4], '39 premium ads');
      // A member deleted: nobody joins on a deletion.
      await ctx.db.query('delete from public.ads where id = $1', [s2]);
      await expectSample([s1, s3, s4], '38 premium ads');

      // The next ad published makes room for one more: s5 comes back, not the new ad.
      const first = await newAd(ctx.db, { brandId, categoryId, createdAt: at(60) });
      await expectSample([s1, s3, s4, s5], 'one ad published');
      const second = await newAd(ctx.db, { brandId, categoryId, createdAt: at(61) });
      await expectSample([s1, s3, s4, s5], 'two ads published');
      // With nobody waiting, the new ad that takes the count past 40 joins.
      const batch = await insertAds(ctx.db, { count: 10, brandId, categoryId, start: at(62) });
      await expectSample([s1, s3, s4, s5, batch[0]!], 'twelve ads published');
      expect([first.id, second.id].some((id) => batch.includes(id))).toBe(false);
    });

    it('an ad made free leaves the sample; an ad made premium joins when the sample is short', async () => {
      await clearLibrary(ctx.db);
      const brandId = (await newBrand(ctx.db)).id;
      const categoryId = (await newCategory(ctx.db)).id;
      const premium = await insertAds(ctx.db, { count: 20, brandId, categoryId, start: '2026-01-01T00:00:00Z' });
      const [f1, f2] = await insertAds(ctx.db, { count: 2, brandId, categoryId, requiresSubscription: false, start: '2026-01-02T00:00:00Z' }) as [
        string,
        string,
      ];
      const [m1, m2] = [premium[0]!, premium[10]!];
      expect(await sampleIds(ctx.db)).toEqual(new Set([m1, m2]));
      const clearToAnonymous = async () => clearIds(await listAllPages('anonymous'));

      // m2 made free: clear as a free ad, no longer in the sample; 19 premium ads allow 2, so the sample is one short.
      await setRequiresSubscription(ctx.db, [m2], false);
      expect(await sampleIds(ctx.db)).toEqual(new Set([m1]));
      expect(await clearToAnonymous()).toEqual(new Set([m1, m2, f1, f2]));

      // f1 made premium fills the place; f2 made premium joins as the 21st premium ad allows a third.
      await setRequiresSubscription(ctx.db, [f1], true);
      expect(await sampleIds(ctx.db)).toEqual(new Set([m1, f1]));
      await setRequiresSubscription(ctx.db, [f2], true);
      expect(await sampleIds(ctx.db)).toEqual(new Set([m1, f1, f2]));
      // m2 made premium again is published like a new ad: 22 premium ads still allow 3, so it stays out, locked.
      await setRequiresSubscription(ctx.db, [m2], true);
      expect(await sampleIds(ctx.db)).toEqual(new Set([m1, f1, f2]));
      expect(await clearToAnonymous()).toEqual(new Set([m1, f1, f2]));
    });
  });

  describe('when access ends', () => {
    it('serves a former subscriber no premium link on the next listing', async () => {
      await clearLibrary(ctx.db);
      const brandId = (await newBrand(ctx.db)).id;
      const categoryId = (await newCategory(ctx.db)).id;
      const premium = await insertAds(ctx.db, { count: 30, brandId, categoryId, start: '2026-01-01T00:00:00Z' });
      const free = await insertAds(ctx.db, { count: 2, brandId, categoryId, requiresSubscription: false, start: '2026-01-01T00:00:30Z' });
      const sample = await sampleIds(ctx.db);
      expect(sample).toEqual(new Set([premium[0]!, premium[10]!, premium[20]!]));
      const user = await newUser(ctx.db);
      await newSubscription(ctx.db, user, 'active');
      const board = await newBoard(ctx.db, user, 'Swipe file');
      await ctx.db.query('insert into public.user_collection_items (collection_id, ad_id) select $1, unnest($2::uuid[])', [
        board,
        [premium[0]!, premium[5]!, free[0]!],
      ]);

      const whileSubscribed = await listAllPages(user);
      expect(whileSubscribed).toHaveLength(32);
      expect(whileSubscribed.every((ad) => ad.is_clear)).toBe(true);
      const [original] = await queryAs<{ download: { url: string } }>(ctx.db, userActor(user),
        'select public.get_ad_original_download($1) as download', [premium[5]]);
      expect(original!.download.url).toMatch(/^object\/sign\/ad-originals\//);

      // The subscription ends (the webhook records it): the very next calls serve links to the sample and the free ads only.
      await ctx.db.query(`update public.subscriptions set status = 'canceled', current_period_end = now() - interval '1 second' where user_id = $1`, [
        user.id,
      ]);
      const clear = union(sample, free);
      const listed = await listAllPages(user);
      expect(ids(listed.filter((ad) => ad.display_960_url !== null)).sort()).toEqual([...clear].sort());
      const opened = await getAds(user, [...premium, ...free]);
      expect(ids(opened.filter((ad) => ad.display_480_url !== null)).sort()).toEqual([...clear].sort());
      const saved = await listCollection(user, board);
      expect(Object.fromEntries(saved.map((ad) => [ad.id, ad.display_960_url !== null]))).toEqual({
        [premium[0]!]: true, [premium[5]!]: false, [free[0]!]: true,
      });
      await expectPgError(queryAs(ctx.db, userActor(user), 'select public.get_ad_original_download($1)', [premium[5]]), {
        code: '42501', detail: 'subscription_required',
      });
      // The links handed out while subscribed die with their window, within 24 hours.
      for (const ad of whileSubscribed) {
        expect(readSignedLink(ad.display_960_url!, linkSecret).exp).toBe(windowStart + 86_400);
      }
    });

    it('refuses the original download to anonymous, free and expired accounts, and gives subscribers a 5-minute link to the original', async () => {
      const brand = await newBrand(ctx.db, `Acme & Sons! ${randomBytes(2).toString('hex')}`);
      const categoryId = (await newCategory(ctx.db)).id;
      const ad = await newAd(ctx.db, { brandId: brand.id, categoryId });
      const freeAd = await newAd(ctx.db, { brandId: brand.id, categoryId, requiresSubscription: false });
      const download = (viewer: Viewer, id: string) =>
        queryAs<{ download: { url: string; file_name: string; expires_at: string } }>(
          ctx.db, who(viewer), 'select public.get_ad_original_download($1) as download', [id]);

      for (const viewer of ['anonymous', 'free', 'flagged', 'expired'] as const) {
        for (const id of [ad.id, freeAd.id, '00000000-0000-0000-0000-000000000000']) {
          await expectPgError(download(viewer, id), { code: '42501', detail: 'subscription_required' });
        }
      }
      for (const viewer of ['subscriber', 'trialing', 'cancelledInPeriod', 'admin'] as const) {
        const before = Math.floor(Date.now() / 1000);
        const [row] = await download(viewer, ad.id);
        const after = Math.ceil(Date.now() / 1000);
        const { url, file_name, expires_at } = row!.download;
        const link = readSignedLink(url, linkSecret);
        expect(url.startsWith(`object/sign/ad-originals/${ad.original_path}?token=`), viewer).toBe(true);
        expect(link.object).toBe(`ad-originals/${ad.original_path}`);
        expect(link.exp - link.iat).toBe(300);
        expect(link.iat).toBeGreaterThanOrEqual(before - 1);
        expect(link.iat).toBeLessThanOrEqual(after);
        expect(expires_at).toBe(new Date(link.exp * 1000).toISOString().replace('.000Z', '.000000Z'));
        expect(file_name).toBe(`${brand.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${ad.id.slice(0, 8)}.jpg`);
        expect(file_name).toMatch(/^acme-sons-[0-9a-f]{4}-[0-9a-f]{8}\.jpg$/);
      }
      await expectPgError(download('subscriber', '00000000-0000-0000-0000-000000000000'), { code: 'PT404', detail: 'ad_not_found' });
    });
  });
});
