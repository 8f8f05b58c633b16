import { randomBytes, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database, Queryable } from '../../local/db/database.ts';
import { anon, expectPgError, queryAs, userActor, type Actor } from '../support/acting.ts';
import { describeOnEngines } from '../support/engines.ts';
import { newAds, newBrand, newCategory, newHook, newPersonas, newTag, newAdObjects, type Personas } from '../support/factories.ts';
import { listAdsStatement, listQueryParameter, type ListQuery } from '../support/list-query.ts';
import type { ListedAd } from '../support/listed-ad.ts';

/** list_ads' filters by the ads' facts, its orders and its search of the ads' words. */

interface AdPage {
  ads: ListedAd[];
  next_cursor: string | null;
  /** On the first page only: how many ads the query finds. */
  total?: number;
  total_is_estimate?: boolean;
}

/** The queries these tests make. */
type ListArgs = Pick<ListQuery, 'brandIds' | 'tagIds' | 'since' | 'search' | 'cursor' | 'platforms' | 'format' | 'offer' | 'hookIds'
  | 'minRunningDays' | 'stillRunning' | 'sort'>;

/** The facts and words of one ad as the test writes them; days are counted from the database's today (0). */
interface Facts {
  platforms?: string[] | null;
  format?: string | null;
  offer?: string | null;
  hook?: 'a' | 'b' | null;
  /** Days from today: -10 is ten days ago. */
  firstSeen?: number | null;
  lastSeen?: number | null;
  stillRunning?: boolean;
  headline?: string | null;
  primaryText?: string | null;
  landingUrl?: string | null;
  imageText?: string | null;
  requiresSubscription?: boolean;
}

interface Seeded {
  id: string;
  createdAt: string;
  brandId: string;
  tagIds: string[];
  facts: Facts;
}

type Viewer = 'anonymous' | 'free' | 'subscriber' | 'admin';

const ids = (ads: { id: string }[]) => ads.map((ad) => ad.id);
const newestFirst = (ads: Seeded[]) =>
  [...ads].sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1));
/** Key descending, no key last, ties by id ascending: how longest running and recently seen order. */
const byKeyThenId = (ads: Seeded[], key: (ad: Seeded) => number | null) =>
  [...ads].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    if (ka !== kb) return ka === null ? 1 : kb === null ? -1 : kb - ka;
    return a.id < b.id ? -1 : 1;
  });
/** Running days as decision 0031 counts them, with today as day 0. */
const runningDays = (f: Facts): number | null => {
  if (f.firstSeen === null || f.firstSeen === undefined) return null;
  if (f.stillRunning) return Math.max(0, f.lastSeen ?? f.firstSeen) - f.firstSeen + 1;
  return f.lastSeen === null || f.lastSeen === undefined ? null : f.lastSeen - f.firstSeen + 1;
};
const seenDay = (f: Facts): number | null => (f.stillRunning ? 0 : (f.lastSeen ?? null));

describeOnEngines('listing by facts, orders and search', (ctx) => {
  let people: Personas;
  let brandId: string;
  let otherBrandId: string;
  let categoryId: string;
  let tagId: string;
  let hooks: { a: string; b: string };
  let library: Seeded[] = [];
  const who = (viewer: Viewer): Actor => (viewer === 'anonymous' ? anon : userActor(people[viewer]));

  async function listAds(viewer: Viewer, args: ListArgs = {}): Promise<AdPage> {
    const [row] = await queryAs<{ page: AdPage }>(ctx.db, who(viewer), listAdsStatement, [listQueryParameter(args)]);
    return row!.page;
  }

  async function listAll(viewer: Viewer, args: ListArgs = {}): Promise<{ pages: AdPage[]; ads: ListedAd[] }> {
    const pages = [await listAds(viewer, args)];
    while (pages.at(-1)!.next_cursor !== null) {
      if (pages.length > 20) throw new Error('The listing does not end');
      pages.push(await listAds(viewer, { ...args, cursor: pages.at(-1)!.next_cursor! }));
    }
    return { pages, ads: pages.flatMap((page) => page.ads) };
  }

  /** Ads with storage objects, one minute apart from `start`, then their facts, as the database owner. */
  async function insertAds(db: Database, start: string, all: { brandId?: string; tagIds?: string[]; facts: Facts }[]): Promise<Seeded[]> {
    const prefix = randomBytes(8).toString('hex');
    const [{ today }] = (await db.query<{ today: string }>(`select ((now() at time zone 'UTC')::date)::text as today`)).rows as [{ today: string }];
    const day = (offset: number | null | undefined) =>
      offset === null || offset === undefined ? null : new Date(Date.parse(`${today}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);
    return db.transaction(async (tx) => {
      await newAdObjects(tx, prefix, all.length);
      const rows = all.map((ad, i) => ({
        n: i + 1,
        brand_id: ad.brandId ?? brandId,
        platforms: ad.facts.platforms ?? null,
        format: ad.facts.format ?? null,
        offer: ad.facts.offer ?? null,
        hook_id: ad.facts.hook ? hooks[ad.facts.hook] : null,
        first_seen: day(ad.facts.firstSeen),
        last_seen: day(ad.facts.lastSeen),
        still_running: ad.facts.stillRunning ?? false,
        headline: ad.facts.headline ?? null,
        primary_text: ad.facts.primaryText ?? null,
        landing_url: ad.facts.landingUrl ?? null,
        image_text: ad.facts.imageText ?? null,
        requires_subscription: ad.facts.requiresSubscription ?? true,
      }));
      const inserted = await tx.query<{ id: string; created_at: string; n: number }>(
        `insert into public.ads (brand_id, category_id, created_at, requires_subscription, original_path, display_480_path,
                                 display_960_path, preview_path, width, height, thumbhash, platforms, format, offer, hook_id,
                                 first_seen, last_seen, still_running, headline, primary_text, landing_url, image_text)
         select x.brand_id, $3::uuid, $4::timestamptz + (x.n - 1) * interval '1 minute', x.requires_subscription,
                $1::text || '/' || x.n || '/original.jpg', $1::text || '/' || x.n || '/480.webp', $1::text || '/' || x.n || '/960.webp',
                'previews/' || $1::text || '-' || x.n || '.webp', 1080, 1350, 'YJqGPQw7sFlslqhFafSE+Q6oJ1h2iHB2Rw==',
                x.platforms, x.format, x.offer, x.hook_id, x.first_seen, x.last_seen, x.still_running, x.headline,
                x.primary_text, x.landing_url, x.image_text
           from jsonb_to_recordset($2::jsonb) as x (n int, brand_id uuid, platforms text[], format text, offer text, hook_id uuid,
                first_seen date, last_seen date, still_running boolean, headline text, primary_text text, landing_url text,
                image_text text, requires_subscription boolean)
          order by x.n
         returning id, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_at,
                   (extract(epoch from created_at - $4::timestamptz) / 60)::int + 1 as n`,
        [prefix, JSON.stringify(rows), categoryId, start],
      );
      const byN = new Map(inserted.rows.map((row) => [Number(row.n), row]));
      const seeded = all.map((ad, i) => ({
        id: byN.get(i + 1)!.id,
        createdAt: byN.get(i + 1)!.created_at,
        brandId: ad.brandId ?? brandId,
        tagIds: ad.tagIds ?? [],
        facts: ad.facts,
      }));
      const pairs = seeded.flatMap((ad) => ad.tagIds.map((tag) => [ad.id, tag]));
      if (pairs.length > 0) {
        await tx.query('insert into public.ad_tags (ad_id, tag_id) select (p ->> 0)::uuid, (p ->> 1)::uuid from jsonb_array_elements($1::jsonb) p',
          [JSON.stringify(pairs)]);
      }
      return seeded;
    });
  }

  const platformCycle = [['meta'], ['tiktok'], ['meta', 'instagram'], ['youtube', 'tiktok'], ['pinterest'], null];
  /** 150 ads whose facts repeat in cycles, so every filter keeps some and every order has ties across pages. */
  const factsOf = (k: number): Facts => {
    const dates: Facts[] = [
      {},
      { firstSeen: -10 * (k % 4), stillRunning: true, lastSeen: -(k % 2) * (k % 4 === 0 ? 0 : 1) },
      { firstSeen: -100 - (k % 3), lastSeen: -100 - (k % 3) + 10 * (k % 4) },
      { firstSeen: -50 },
      { firstSeen: -60, lastSeen: -2, stillRunning: true },
      { firstSeen: -200, lastSeen: -(k % 2) },
    ];
    return {
      platforms: platformCycle[k % 6] ?? null,
      format: ['single_image', 'carousel', 'video', null][k % 4] ?? null,
      offer: ['discount', 'free_shipping', 'bundle', 'none', null][k % 5] ?? null,
      hook: (['a', 'b', null] as const)[k % 3] ?? null,
      ...dates[k % 6],
    };
  };

  beforeAll(async () => {
    await ctx.db.query('delete from public.ads');
    people = await newPersonas(ctx.db);
    brandId = (await newBrand(ctx.db, 'Quorra Goods')).id;
    otherBrandId = (await newBrand(ctx.db, 'Halvorsen')).id;
    categoryId = (await newCategory(ctx.db)).id;
    tagId = (await newTag(ctx.db, 'Spotlight')).id;
    hooks = { a: (await newHook(ctx.db)).id, b: (await newHook(ctx.db)).id };
    library = await insertAds(
      ctx.db,
      '2026-03-01T00:00:00Z',
      Array.from({ length: 150 }, (_, k) => ({
        brandId: k % 7 === 0 ? otherBrandId : brandId,
        tagIds: k % 4 === 2 ? [tagId] : [],
        facts: factsOf(k),
      })),
    );
  });

  describe('filters by the facts', () => {
    const cases: { title: string; args: () => ListArgs; keeps: (ad: Seeded) => boolean }[] = [
      { title: 'one platform', args: () => ({ platforms: ['tiktok'] }), keeps: (ad) => !!ad.facts.platforms?.includes('tiktok') },
      {
        title: 'any of two platforms',
        args: () => ({ platforms: ['youtube', 'pinterest'] }),
        keeps: (ad) => !!ad.facts.platforms?.some((p) => p === 'youtube' || p === 'pinterest'),
      },
      { title: 'a format', args: () => ({ format: 'carousel' }), keeps: (ad) => ad.facts.format === 'carousel' },
      { title: 'an offer', args: () => ({ offer: 'free_shipping' }), keeps: (ad) => ad.facts.offer === 'free_shipping' },
      { title: 'a hook', args: () => ({ hookIds: [hooks.b] }), keeps: (ad) => ad.facts.hook === 'b' },
      { title: 'running at least 11 days', args: () => ({ minRunningDays: 11 }), keeps: (ad) => (runningDays(ad.facts) ?? 0) >= 11 },
      { title: 'running at least 61 days', args: () => ({ minRunningDays: 61 }), keeps: (ad) => (runningDays(ad.facts) ?? 0) >= 61 },
      { title: 'still running', args: () => ({ stillRunning: true }), keeps: (ad) => !!ad.facts.stillRunning },
      { title: 'still running false, no filter', args: () => ({ stillRunning: false }), keeps: () => true },
      {
        title: 'a platform with a brand and a tag',
        args: () => ({ platforms: ['meta'], brandIds: [brandId], tagIds: [tagId] }),
        keeps: (ad) => !!ad.facts.platforms?.includes('meta') && ad.brandId === brandId && ad.tagIds.includes(tagId),
      },
      {
        title: 'a tag with an offer (the tag index path)',
        args: () => ({ tagIds: [tagId], offer: 'discount' }),
        keeps: (ad) => ad.tagIds.includes(tagId) && ad.facts.offer === 'discount',
      },
      {
        title: 'a format, a hook and still running since a date',
        args: () => ({ format: 'single_image', hookIds: [hooks.b], stillRunning: true, since: library[40]!.createdAt }),
        keeps: (ad) => ad.facts.format === 'single_image' && ad.facts.hook === 'b' && !!ad.facts.stillRunning && ad.createdAt >= library[40]!.createdAt,
      },
    ];

    it.each(cases)('filters by $title, newest first, every ad once across pages', async ({ args, keeps }) => {
      const expected = newestFirst(library.filter(keeps));
      expect(expected.length).toBeGreaterThan(0);
      const { pages, ads } = await listAll('subscriber', args());
      expect(ids(ads)).toEqual(ids(expected));
      expect(pages[0]).toMatchObject({ total: expected.length, total_is_estimate: false });
    });
  });

  describe('orders', () => {
    const longest = (ads: Seeded[]) => byKeyThenId(ads, (ad) => runningDays(ad.facts));
    const recent = (ads: Seeded[]) => byKeyThenId(ads, (ad) => seenDay(ad.facts));

    it('orders by longest running: days ran descending (a running ad to today), ties by id, undated ads last', async () => {
      const { pages, ads } = await listAll('subscriber', { sort: 'longest_running' });
      expect(pages).toHaveLength(3);
      expect(ids(ads)).toEqual(ids(longest(library)));
      // Ties cross the page boundaries: the ads around each cut share their running days.
      const days = longest(library).map((ad) => runningDays(ad.facts));
      expect(days[59]).toBe(days[60]);
    });

    it('orders by recently seen: last seen descending, a running ad seen today, ties by id, undated ads last', async () => {
      const { ads } = await listAll('subscriber', { sort: 'recently_seen' });
      expect(ids(ads)).toEqual(ids(recent(library)));
      const seen = recent(library).map((ad) => seenDay(ad.facts));
      expect(seen[59]).toBe(seen[60]);
    });

    it('combines the orders with filters', async () => {
      const tiktok = (ad: Seeded) => !!ad.facts.platforms?.includes('tiktok');
      expect(ids((await listAll('subscriber', { sort: 'longest_running', platforms: ['tiktok'] })).ads)).toEqual(ids(longest(library.filter(tiktok))));
      const long = (ad: Seeded) => (runningDays(ad.facts) ?? 0) >= 21 && ad.brandId === brandId;
      expect(ids((await listAll('subscriber', { sort: 'longest_running', minRunningDays: 21, brandIds: [brandId] })).ads)).toEqual(ids(longest(library.filter(long))));
      const running = (ad: Seeded) => !!ad.facts.stillRunning && ad.tagIds.includes(tagId);
      expect(ids((await listAll('subscriber', { sort: 'recently_seen', stillRunning: true, tagIds: [tagId] })).ads)).toEqual(ids(recent(library.filter(running))));
    });

    it("orders a brand's ads by longest running and by recently seen", async () => {
      const ofBrand = (ad: Seeded) => ad.brandId === brandId;
      expect(ids((await listAll('subscriber', { sort: 'longest_running', brandIds: [brandId] })).ads)).toEqual(ids(longest(library.filter(ofBrand))));
      expect(ids((await listAll('subscriber', { sort: 'recently_seen', brandIds: [brandId] })).ads)).toEqual(ids(recent(library.filter(ofBrand))));
    });

    it('orders newest first by default, and relevance without a search as newest', async () => {
      const newest = ids(newestFirst(library));
      expect(ids((await listAll('subscriber')).ads)).toEqual(newest);
      expect(ids((await listAll('subscriber', { sort: 'newest' })).ads)).toEqual(newest);
      expect(ids((await listAll('subscriber', { sort: 'relevance' })).ads)).toEqual(newest);
    });

    it("refuses one query's cursor in another: another order, another filter, another value", async () => {
      const invalid = { code: '22023', detail: 'invalid_cursor' };
      const longestCursor = (await listAds('subscriber', { sort: 'longest_running' })).next_cursor!;
      const platformCursor = (await listAds('subscriber', { platforms: ['meta', 'tiktok'] })).next_cursor!;
      const plainCursor = (await listAds('subscriber')).next_cursor!;
      expect([longestCursor, platformCursor, plainCursor].every(Boolean)).toBe(true);
      const misuses: [string, ListArgs][] = [
        [longestCursor, { sort: 'recently_seen' }],
        [longestCursor, {}],
        [longestCursor, { sort: 'longest_running', stillRunning: true }],
        [platformCursor, { platforms: ['tiktok'] }],
        [platformCursor, { platforms: ['meta', 'tiktok'], sort: 'longest_running' }],
        [plainCursor, { format: 'video' }],
        [plainCursor, { minRunningDays: 1 }],
        [plainCursor, { offer: 'none' }],
        [plainCursor, { hookIds: [hooks.a] }],
        [plainCursor, { sort: 'recently_seen' }],
      ];
      for (const [cursor, args] of misuses) await expectPgError(listAds('subscriber', { ...args, cursor }), invalid);
      // The same query with its platforms in another order, or one named twice, is the same query.
      const rest = library.filter((ad) => ad.facts.platforms?.some((p) => p === 'meta' || p === 'tiktok')).length - 60;
      expect((await listAds('subscriber', { platforms: ['tiktok', 'meta', 'tiktok'], cursor: platformCursor })).ads).toHaveLength(rest);
    });
  });

  describe('search', () => {
    let words: Seeded[] = [];
    let lockedImageAd: Seeded;
    let clearImageAd: Seeded;

    beforeAll(async () => {
      words = await insertAds(ctx.db, '2026-06-01T00:00:00Z', [
        { facts: { headline: 'Velvetine cushions for every sofa' } },
        { facts: { primaryText: 'Our marzipanello cake ships frozen.' } },
        { facts: { landingUrl: 'https://www.shop.lindqvistwares.example/spring?x=1' } },
        { facts: {} },
        { facts: { imageText: 'Crème brûlée flavour', requiresSubscription: false } },
        { facts: { headline: 'Unbreakable stormproof umbrellas' } },
      ]);
      clearImageAd = words[4]!;
      // The image text goes to a premium ad outside the free sample (one premium ad in ten is in it): locked for
      // everyone without access.
      const { rows } = await ctx.db.query<{ id: string }>(
        `select id from public.ads where id = any ($1::uuid[]) and requires_subscription and not free_sample order by id limit 1`,
        [ids([words[0]!, words[3]!, words[5]!])]);
      lockedImageAd = words.find((ad) => ad.id === rows[0]!.id)!;
      await ctx.db.query(`update public.ads set image_text = 'NOVEMBRISK SALE 30% OFF' where id = $1`, [lockedImageAd.id]);
    });

    const found = async (search: string, viewer: Viewer = 'subscriber') => ids((await listAll(viewer, { search })).ads);

    it('finds an ad by its headline, primary text, landing page host and image text', async () => {
      expect(lockedImageAd).toBeDefined();
      expect(await found('velvetine')).toEqual([words[0]!.id]);
      expect(await found('marzipanello cake')).toEqual([words[1]!.id]);
      expect(await found('lindqvistwares')).toEqual([words[2]!.id]);
      expect(await found('shop.lindqvistwares.example')).toEqual([words[2]!.id]);
      expect(await found('novembrisk')).toEqual([lockedImageAd.id]);
      // Not the path or the query of the landing page: only its host.
      expect(await found('spring?x')).toEqual([]);
    });

    it('finds every word anywhere in the ad, the last one as a beginning, and a part of a word', async () => {
      expect(await found('sale novembr')).toEqual([lockedImageAd.id]);
      expect(await found('sofa velvet')).toEqual([words[0]!.id]);
      expect(await found('ormproo')).toEqual([words[5]!.id]);
      expect(await found('velvetine umbrellas')).toEqual([]);
    });

    it('finds a word typed with punctuation by its words, where the text holds it without the punctuation', async () => {
      // "velvetine!" is the word velvetine and the text "velvetine!", which no ad holds: the ad is found by its words.
      expect(await found('velvetine!')).toEqual([words[0]!.id]);
      expect(await found('(umbrellas)')).toEqual([words[5]!.id]);
      expect(await found('marzipanello.')).toEqual([words[1]!.id]);
      // Typed alone, a word is found wherever the text holds it, at a word's beginning or inside one.
      expect(await found('velvetine')).toEqual([words[0]!.id]);
      expect(await found('elvetin')).toEqual([words[0]!.id]);
    });

    it('ignores accents and case on both sides', async () => {
      expect(await found('creme brulee')).toEqual([clearImageAd.id]);
      expect(await found('CRÈME')).toEqual([clearImageAd.id]);
      expect(await found('Velvétine')).toEqual([words[0]!.id]);
    });

    it('still finds brand, category, type and tag names, and follows a rename, a tag added and a tag removed', async () => {
      const halvorsen = ids(newestFirst(library.filter((ad) => ad.brandId === otherBrandId)));
      expect(await found('halvors')).toEqual(halvorsen);
      await ctx.db.query(`update public.brands set name = 'Ostrava Supply' where id = $1`, [otherBrandId]);
      expect(await found('halvors')).toEqual([]);
      expect(await found('ostrava')).toEqual(halvorsen);
      const tag = await newTag(ctx.db, 'Gleamwork');
      await ctx.db.query('insert into public.ad_tags (ad_id, tag_id) values ($1, $2)', [words[0]!.id, tag.id]);
      expect(await found('gleamwork')).toEqual([words[0]!.id]);
      await ctx.db.query(`update public.tags set name = 'Shinecraft' where id = $1`, [tag.id]);
      expect(await found('gleamwork')).toEqual([]);
      expect(await found('shinecraft')).toEqual([words[0]!.id]);
      await ctx.db.query('delete from public.ad_tags where ad_id = $1 and tag_id = $2', [words[0]!.id, tag.id]);
      expect(await found('shinecraft')).toEqual([]);
      await ctx.db.query(`update public.ads set image_text = 'Gustavberg pottery' where id = $1`, [words[1]!.id]);
      expect(await found('gustavberg')).toEqual([words[1]!.id]);
    });

    it('orders by relevance: whole words first, then parts of words, newest first in each, across pages', async () => {
      const wordAds = await insertAds(ctx.db, '2026-07-01T00:00:00Z', Array.from({ length: 70 }, () => ({ facts: { headline: 'Winter parkajacket deal' } })));
      const partAds = await insertAds(ctx.db, '2026-08-01T00:00:00Z', Array.from({ length: 30 }, () => ({ facts: { imageText: 'superparkajackets' } })));
      // The newer ads only match a part of a word: relevance puts them after all the whole-word matches.
      const { pages, ads } = await listAll('subscriber', { search: 'parkajacket', sort: 'relevance' });
      expect(pages).toHaveLength(2);
      expect(ids(ads)).toEqual([...ids(newestFirst(wordAds)), ...ids(newestFirst(partAds))]);
      // Newest first, the same ads mixed.
      expect(ids((await listAll('subscriber', { search: 'parkajacket' })).ads)).toEqual(ids(newestFirst([...wordAds, ...partAds])));
      // The second page from the first's cursor (inside the first tier), and that cursor refused in the newest query.
      const page = await listAds('subscriber', { search: 'parkajacket', sort: 'relevance', cursor: pages[0]!.next_cursor! });
      expect(ids(page.ads)).toEqual(ids(ads.slice(60)));
      await expectPgError(listAds('subscriber', { search: 'parkajacket', cursor: pages[0]!.next_cursor! }), { code: '22023', detail: 'invalid_cursor' });
      const tier2 = await insertAds(ctx.db, '2026-09-01T00:00:00Z', Array.from({ length: 40 }, () => ({ facts: { imageText: 'hyperparkajacket' } })));
      // Three pages: the second page's cursor is inside the second tier.
      const both = await listAll('subscriber', { search: 'parkajacket', sort: 'relevance' });
      expect(both.pages).toHaveLength(3);
      expect(ids(both.ads)).toEqual([...ids(newestFirst(wordAds)), ...ids(newestFirst([...partAds, ...tier2]))]);
      await ctx.db.query('delete from public.ads where id = any ($1::uuid[])', [ids([...wordAds, ...partAds, ...tier2])]);
    });

    it('orders a rare search by longest running and recently seen, undated ads last, and a common one across pages', async () => {
      const byDays = (ads: Seeded[]) => byKeyThenId(ads, (ad) => runningDays(ad.facts));
      const bySeen = (ads: Seeded[]) => byKeyThenId(ads, (ad) => seenDay(ad.facts));
      // 38 ads of the library (a rare search: its matches read once through the search index), then the other 112
      // (walked, two pages).
      const rare = library.filter((_, k) => k % 4 === 1);
      const common = library.filter((_, k) => k % 4 !== 1);
      await ctx.db.query(`update public.ads set headline = 'Quillfeather notebooks' where id = any ($1::uuid[])`, [ids(rare)]);
      await ctx.db.query(`update public.ads set headline = 'Bramblewick candles' where id = any ($1::uuid[])`, [ids(common)]);
      try {
        expect(ids((await listAll('subscriber', { search: 'quillfeather', sort: 'longest_running' })).ads)).toEqual(ids(byDays(rare)));
        expect(ids((await listAll('subscriber', { search: 'quillfeather', sort: 'recently_seen' })).ads)).toEqual(ids(bySeen(rare)));
        expect(ids((await listAll('subscriber', { search: 'uillfeathe', sort: 'longest_running', platforms: ['meta'] })).ads))
          .toEqual(ids(byDays(rare.filter((ad) => !!ad.facts.platforms?.includes('meta')))));
        const { pages, ads } = await listAll('subscriber', { search: 'bramblewick', sort: 'longest_running' });
        expect(pages).toHaveLength(2);
        expect(ids(ads)).toEqual(ids(byDays(common)));
        expect(ids((await listAll('subscriber', { search: 'bramblewick', sort: 'recently_seen' })).ads)).toEqual(ids(bySeen(common)));
      } finally {
        await ctx.db.query('update public.ads set headline = null where id = any ($1::uuid[])', [ids(library)]);
      }
    });

    it('keeps the paywall under a search and every filter: a locked ad found by its image text stays locked', async () => {
      for (const viewer of ['anonymous', 'free'] as const) {
        const [locked] = (await listAll(viewer, { search: 'novembrisk' })).ads;
        expect(locked).toMatchObject({ id: lockedImageAd.id, is_clear: false, display_480_url: null, display_960_url: null });
        const [clear] = (await listAll(viewer, { search: 'creme brulee' })).ads;
        expect(clear).toMatchObject({ id: clearImageAd.id, is_clear: true });
      }
      for (const viewer of ['subscriber', 'admin'] as const) {
        const [ad] = (await listAll(viewer, { search: 'novembrisk' })).ads;
        expect(ad).toMatchObject({ id: lockedImageAd.id, is_clear: true });
      }
      // Every ad of every filtered or ordered query is as clear as on the plain library, for every viewer.
      const queries: ListArgs[] = [
        { platforms: ['tiktok'] }, { format: 'video' }, { offer: 'bundle' }, { hookIds: [hooks.a] }, { minRunningDays: 30 },
        { stillRunning: true }, { sort: 'longest_running' }, { sort: 'recently_seen' }, { search: 'quorra', sort: 'relevance' },
      ];
      for (const viewer of ['anonymous', 'free', 'subscriber', 'admin'] as const) {
        const plain = new Map((await listAll(viewer)).ads.map((ad) => [ad.id, ad.is_clear]));
        for (const args of queries) {
          for (const ad of (await listAll(viewer, args)).ads) expect(ad.is_clear, `${viewer} ${JSON.stringify(args)}`).toBe(plain.get(ad.id));
        }
      }
    });

    it("gives get_ad's image text only to a caller who sees the ad clear", async () => {
      const imageText = async (viewer: Viewer, id: string) => {
        const [row] = await queryAs<{ ad: { is_clear: boolean; facts: { image_text: string | null } } }>(
          ctx.db, who(viewer), 'select public.get_ad($1) as ad', [id]);
        return { clear: row!.ad.is_clear, text: row!.ad.facts.image_text };
      };
      for (const viewer of ['anonymous', 'free'] as const) {
        expect(await imageText(viewer, lockedImageAd.id)).toEqual({ clear: false, text: null });
        expect(await imageText(viewer, clearImageAd.id)).toEqual({ clear: true, text: 'Crème brûlée flavour' });
      }
      for (const viewer of ['subscriber', 'admin'] as const) {
        expect(await imageText(viewer, lockedImageAd.id)).toEqual({ clear: true, text: 'NOVEMBRISK SALE 30% OFF' });
      }
    });
  });

  describe('bad inputs', () => {
    it('refuses an unknown platform, too many, a missing one, an unknown format or offer and days out of range', async () => {
      const invalid = { code: 'P0001', detail: 'invalid_filter' };
      await expectPgError(listAds('anonymous', { platforms: ['myspace'] }), invalid);
      await expectPgError(listAds('anonymous', { platforms: ['meta', 'instagram', 'tiktok', 'youtube', 'pinterest', 'snapchat', 'google', 'meta'] }), invalid);
      await expectPgError(queryAs(ctx.db, anon, listAdsStatement, [JSON.stringify({ platforms: ['meta', null] })]), invalid);
      await expectPgError(listAds('anonymous', { format: 'gif' }), invalid);
      await expectPgError(listAds('anonymous', { offer: 'coupon' }), invalid);
      await expectPgError(listAds('anonymous', { minRunningDays: 0 }), invalid);
      await expectPgError(listAds('anonymous', { minRunningDays: 3651 }), invalid);
      expect((await listAds('anonymous', { minRunningDays: 3650 })).ads).toEqual([]);
      expect((await listAds('anonymous', { platforms: [] })).ads).toHaveLength(60);
    });

    it('refuses an unknown field, a field of the wrong type and a query that is not an object', async () => {
      const invalid = { code: 'P0001', detail: 'invalid_filter' };
      const misfits: string[] = [
        ...[
          { brandId }, { p_brand_id: brandId }, { brand: brandId }, { page: 2 },
          // The one brand a query took before it took several is no field any more.
          { brand_id: brandId }, { brand_ids: brandId }, { brand_ids: 42 }, { hook_ids: [42] }, { tag_ids: tagId }, { platforms: 'meta' }, { min_running_days: '30' }, { still_running: 'yes' },
          { search: 7 },
        ].map((query) => JSON.stringify(query)),
        '[]', `["${brandId}"]`, '"library"', '7',
      ];
      // Each misfit with the way it was answered, when not by invalid_filter.
      const answered: string[] = [];
      for (const query of misfits) {
        await expectPgError(queryAs(ctx.db, anon, listAdsStatement, [query]), invalid).catch((error: Error) => answered.push(`${query}: ${error.message}`));
      }
      expect(answered).toEqual([]);
      // The same fields, named and typed as the query's, are a query.
      expect((await listAds('anonymous', { brandIds: [brandId], minRunningDays: 30, stillRunning: true })).ads.length).toBeGreaterThan(0);
    });

    it('refuses more than 10 distinct tags', async () => {
      const tags = Array.from({ length: 11 }, () => randomUUID());
      await expectPgError(listAds('anonymous', { tagIds: tags }), { code: 'P0001', detail: 'too_many_tags' });
      // Ten tags, one of them named twice: no ad holds them all.
      expect(await listAds('anonymous', { tagIds: [...tags.slice(0, 10), tags[0]!] })).toEqual({ ads: [], next_cursor: null, total: 0, total_is_estimate: false });
    });

    it('refuses an unknown order and a search longer than 100 characters', async () => {
      await expectPgError(listAds('subscriber', { sort: 'oldest' }), { code: 'P0001', detail: 'unknown_sort' });
      await expectPgError(listAds('subscriber', { sort: '' }), { code: 'P0001', detail: 'unknown_sort' });
      await expectPgError(listAds('anonymous', { search: 'x'.repeat(101), sort: 'relevance' }), { code: 'P0001', detail: 'search_too_long' });
    });
  });
});

/** Every page of a query as the actor, following next_cursor to the end. */
async function listEveryPage(db: Database, actor: Actor, query: ListQuery): Promise<{ pages: AdPage[]; ads: ListedAd[] }> {
  const pages: AdPage[] = [];
  let cursor: string | null = null;
  do {
    if (pages.length > 30) throw new Error('The listing does not end');
    const rows: { page: AdPage }[] = await queryAs<{ page: AdPage }>(db, actor, listAdsStatement, [listQueryParameter({ ...query, cursor })]);
    const page = rows[0]!.page;
    pages.push(page);
    cursor = page.next_cursor;
  } while (cursor !== null);
  return { pages, ads: pages.flatMap((page) => page.ads) };
}

/** Storage objects for `count` ads under a fresh prefix, as the database owner: ad n's paths hold `<prefix>/<n>/`. */
async function insertObjects(db: Queryable, count: number): Promise<string> {
  const prefix = randomBytes(8).toString('hex');
  await newAdObjects(db, prefix, count);
  return prefix;
}

/**
 * A search across years of additions, newest first and by relevance: 3,100 ads added one a minute are the newest;
 * below them, matches sit on every period's edges (the first and the last instant of a UTC day, month and year), in
 * a tie of one instant, across years and pages. The words differ in how often the newest ads hold them.
 */
describeOnEngines('searching years of additions', (ctx) => {
  interface Row {
    at: string;
    headline?: string;
    imageText?: string;
    brand?: 'other';
  }
  interface Added extends Row {
    id: string;
    createdAt: string;
  }

  const byNewest = (ads: Added[]) =>
    [...ads].sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1));
  const NEWEST_START = Date.parse('2026-11-20T00:00:00Z');
  const NEWEST_ADS = 3_100;
  const minute = (n: number) => new Date(NEWEST_START + n * 60_000).toISOString();
  /** Instants on the edges of the periods before the newest ads, newest first: each gets one match of every word. */
  const EDGES = [
    '2026-11-19T23:59:59.999999Z', // the last instant of a day, just before the newest ads
    '2026-11-05T00:00:00Z', // the first instant of a day
    '2026-11-04T23:59:59.999999Z',
    '2026-11-01T00:00:00Z', // the first instant of a month
    '2026-10-31T23:59:59.999999Z',
    '2026-01-01T00:00:00Z', // the first instant of a year
    '2025-12-31T23:59:59.999999Z',
    '2024-02-29T12:00:00Z',
    '2023-01-01T00:00:00Z', // the oldest ad
  ];
  /** Three matches added at one instant: ties go by id. */
  const TIE = '2025-06-15T08:00:00Z';

  let people: Personas;
  let brandId: string;
  let otherBrandId: string;
  let categoryId: string;
  let all: Added[] = [];
  const listAll = (query: ListQuery, viewer: 'anonymous' | 'subscriber' = 'subscriber') =>
    listEveryPage(ctx.db, viewer === 'anonymous' ? anon : userActor(people.subscriber), query);

  /** Ads with their storage objects, as the database owner, in one statement. */
  async function insertAds(db: Database, rows: Row[]): Promise<Added[]> {
    return db.transaction(async (tx) => {
      const prefix = await insertObjects(tx, rows.length);
      const inserted = await tx.query<{ id: string; created_at: string; n: number }>(
        `insert into public.ads (brand_id, category_id, created_at, requires_subscription, original_path, display_480_path,
                                 display_960_path, preview_path, width, height, thumbhash, headline, image_text)
         select case when x.other then $4::uuid else $3::uuid end, $5::uuid, x.at, true,
                $1::text || '/' || x.n || '/original.jpg', $1::text || '/' || x.n || '/480.webp', $1::text || '/' || x.n || '/960.webp',
                'previews/' || $1::text || '-' || x.n || '.webp', 1080, 1350, 'YJqGPQw7sFlslqhFafSE+Q6oJ1h2iHB2Rw==',
                x.headline, x.image_text
           from jsonb_to_recordset($2::jsonb) as x (n int, at timestamptz, headline text, image_text text, other boolean)
          order by x.n
         returning id, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_at,
                   split_part(original_path, '/', 2)::int as n`,
        [prefix, JSON.stringify(rows.map((row, i) => ({ n: i + 1, at: row.at, headline: row.headline ?? null, image_text: row.imageText ?? null, other: row.brand === 'other' }))),
          brandId, otherBrandId, categoryId],
      );
      const byN = new Map(inserted.rows.map((row) => [Number(row.n), row]));
      return rows.map((row, i) => ({ ...row, id: byN.get(i + 1)!.id, createdAt: byN.get(i + 1)!.created_at }));
    });
  }

  /** Words, each in its own headline; a match only as a part of a word is in the image text. */
  const WORDS = { year: 'quartzwhistle', month: 'emberloom', day: 'saffronkite', dense: 'cobaltfern' } as const;
  const has = (text: string | undefined, word: string) => !!text?.toLowerCase().includes(word);
  const matches = (word: string) => all.filter((ad) => has(ad.headline, word) || has(ad.imageText, word));
  const wholeWord = (word: string) => all.filter((ad) => has(ad.headline, word));
  const partOnly = (word: string) => all.filter((ad) => has(ad.imageText, word) && !has(ad.headline, word));

  beforeAll(async () => {
    await ctx.db.query('delete from public.ads');
    people = await newPersonas(ctx.db);
    brandId = (await newBrand(ctx.db, 'Periodica')).id;
    otherBrandId = (await newBrand(ctx.db, 'Almanack')).id;
    categoryId = (await newCategory(ctx.db)).id;
    const rows: Row[] = [];
    // The newest 3,100 ads, one a minute. `emberloom` is in 5 of them and `saffronkite` in 42 (two of them only as a
    // part of a word); `quartzwhistle` in none. `cobaltfern` is in 20 of the newest 300, 9 more of the next 2,700,
    // and 25 of the 100 oldest of them.
    for (let n = 0; n < NEWEST_ADS; n += 1) {
      const row: Row = { at: minute(n) };
      if (n % 600 === 7) row.headline = `Autumn ${WORDS.month} throws`;
      if (n % 75 === 3) row.headline = `The ${WORDS.day} studio`;
      if (n === 1004 || n === 2204) row.imageText = `MEGA${WORDS.day.toUpperCase()}S`;
      if ((n >= 2800 && n % 15 === 1) || (n >= 100 && n < 2800 && n % 300 === 0) || (n < 100 && n % 4 === 1)) {
        row.headline = `Deep ${WORDS.dense} knit`;
      }
      rows.push(row);
    }
    // Before them: every word on every edge, the other brand on some, parts of words on others.
    EDGES.forEach((at, k) => {
      for (const word of Object.values(WORDS)) {
        rows.push(k % 3 === 2 ? { at, imageText: `un${word}ed` } : { at, headline: `${word} sale`, brand: k % 4 === 1 ? 'other' : undefined });
      }
    });
    for (let k = 0; k < 3; k += 1) for (const word of Object.values(WORDS)) rows.push({ at: TIE, headline: `${word} day` });
    // Enough of them for two more pages: one match a day from August to October, and ads between them.
    for (let day = 0; day < 92; day += 1) {
      const at = Date.parse('2026-08-01T06:00:00Z') + day * 86_400_000;
      // The first three words only: the dense one has enough matches already.
      rows.push({ at: new Date(at).toISOString(), headline: `${Object.values(WORDS)[day % 3]} and ${Object.values(WORDS)[(day + 1) % 3]}` });
      rows.push({ at: new Date(at + 3_600_000).toISOString(), headline: 'Nothing to find here' });
    }
    all = await insertAds(ctx.db, rows);
  }, 120_000);

  it('lists every match newest first across pages, however often the newest ads hold it', async () => {
    for (const word of Object.values(WORDS)) {
      const expected = ids(byNewest(matches(word)));
      expect(expected.length).toBeGreaterThan(60);
      const { pages, ads } = await listAll({ search: word });
      expect(ids(ads)).toEqual(expected);
      expect(pages.length).toBe(Math.ceil(expected.length / 60));
    }
  });

  it('orders by relevance: whole words newest first, then the parts of words, across the years', async () => {
    for (const word of Object.values(WORDS)) {
      const { ads } = await listAll({ search: word, sort: 'relevance' });
      expect(ids(ads)).toEqual([...ids(byNewest(wholeWord(word))), ...ids(byNewest(partOnly(word)))]);
    }
  });

  it('keeps the other filters, and locks what it finds for a visitor without access', async () => {
    const other = byNewest(matches(WORDS.month).filter((ad) => ad.brand === 'other'));
    expect(other.length).toBeGreaterThan(0);
    expect(ids((await listAll({ search: WORDS.month, brandIds: [otherBrandId] })).ads)).toEqual(ids(other));
    // A page's clear ads come first for a viewer without access: the same ads, compared as sets; a locked one has
    // no image link.
    const anonymous = (await listAll({ search: WORDS.year }, 'anonymous')).ads;
    expect(new Set(ids(anonymous))).toEqual(new Set(ids(matches(WORDS.year))));
    const locked = anonymous.filter((ad) => !ad.is_clear);
    expect(locked.length).toBeGreaterThan(0);
    expect(locked.every((ad) => ad.display_960_url === null && ad.display_480_url === null)).toBe(true);
  });

  it('follows an ad moved to another time', async () => {
    const moved = byNewest(matches(WORDS.year)).at(-1)!;
    try {
      await ctx.db.query(`update public.ads set created_at = '2026-09-15T12:00:00Z' where id = $1`, [moved.id]);
      const expected = byNewest(matches(WORDS.year).map((ad) => (ad.id === moved.id ? { ...ad, createdAt: '2026-09-15T12:00:00.000000Z' } : ad)));
      expect(ids((await listAll({ search: WORDS.year })).ads)).toEqual(ids(expected));
    } finally {
      await ctx.db.query(`update public.ads set created_at = $2 where id = $1`, [moved.id, moved.at]);
    }
    expect(ids((await listAll({ search: WORDS.year })).ads)).toEqual(ids(byNewest(matches(WORDS.year))));
  });

  it('keeps the words of each ad\'s search text, and only those, as its search words', async () => {
    const { rows } = await ctx.db.query<{ ads: number; other: number }>(
      `select count(*)::int as ads, count(*) filter (where search_vector is distinct from private.search_words(search_text))::int as other
         from public.ads`);
    expect(rows[0]).toEqual({ ads: all.length, other: 0 });
  });

  it('finds no ad by the day, month or year it was added', async () => {
    for (const search of ['~y2025', 'y2025', '~d20251231', '20251231']) {
      expect((await listAll({ search })).ads, search).toEqual([]);
    }
  });

  describe('words that begin alike', () => {
    // Words that begin alike, one beginning shared by 40 words, and an ad whose headline changes.
    const ALIKE = ['lanternfish', 'lanternfishes', 'lanternfisher'];
    const MANY = Array.from({ length: 40 }, (_, k) => `zephyrcoat${String(k + 1).padStart(2, '0')}`);
    let alike: Added[] = [];
    let many: Added[] = [];

    beforeAll(async () => {
      const day = (k: number) => new Date(Date.parse('2026-10-20T09:00:00Z') - k * 86_400_000).toISOString();
      alike = await insertAds(ctx.db, [
        ...ALIKE.flatMap((word, k) => [{ at: day(k), headline: `${word} club` }, { at: day(k + 40), headline: `The ${word}` }]),
        { at: day(7), imageText: 'MINILANTERNFISH' },
      ]);
      many = await insertAds(ctx.db, MANY.map((word, k) => ({ at: day(k), headline: `${word} drop` })));
    }, 60_000);

    it('finds every word that begins with the last word typed, and the text anywhere, newest first', async () => {
      const found = (ads: Added[], search: string) =>
        byNewest(ads.filter((ad) => `${ad.headline ?? ''} ${ad.imageText ?? ''}`.toLowerCase().includes(search)));
      expect(ids((await listAll({ search: 'lanternfis' })).ads)).toEqual(ids(found(alike, 'lanternfis')));
      expect(ids((await listAll({ search: 'lanternfis', sort: 'relevance' })).ads)).toEqual([
        ...ids(byNewest(alike.filter((ad) => ad.headline))),
        ...ids(alike.filter((ad) => ad.imageText)),
      ]);
      expect(ids((await listAll({ search: 'Lanternfishes' })).ads)).toEqual(ids(found(alike, 'lanternfishes')));
      expect(ids((await listAll({ search: 'the lanternfish' })).ads)).toEqual(ids(byNewest(alike.filter((ad) => ad.headline?.startsWith('The')))));
      expect((await listAll({ search: 'lanternfisz' })).ads).toEqual([]);
      expect(ids((await listAll({ search: 'zephyrcoat' })).ads)).toEqual(ids(byNewest(many)));
    });

    it('finds an ad by a word as soon as it is written with it, and no longer once it is not', async () => {
      const ad = alike[0]!;
      try {
        await ctx.db.query(`update public.ads set headline = 'Glimmerwharf coats' where id = $1`, [ad.id]);
        expect(ids((await listAll({ search: 'glimmerwh' })).ads)).toEqual([ad.id]);
      } finally {
        await ctx.db.query(`update public.ads set headline = $2 where id = $1`, [ad.id, ad.headline]);
      }
      expect((await listAll({ search: 'glimmerwh' })).ads).toEqual([]);
    });
  });

  describe('the text anywhere', () => {
    // One word of ASCII letters inside other words, next to digits, accents and punctuation, among the newest ads and
    // before them; and one that 65 words hold. The answer must be the ads whose search text holds it.
    const HOLDERS = ['Glowberry sale', 'MEGAGLOWBERRYS', '12E5GLOWBERRY', 'caféglowberry drops', 'shop.glowberry.com',
      'GLOWBERRY2024', 'glow-berry', 'Glow berry', 'unglowberryed'];
    const CROWDED = Array.from({ length: 65 }, (_, k) => `${String.fromCharCode(97 + Math.floor(k / 26), 97 + (k % 26))}wovenquill`);

    beforeAll(async () => {
      const hour = (k: number) => new Date(Date.parse('2026-10-25T10:00:00Z') - k * 3_600_000).toISOString();
      await insertAds(ctx.db, [
        ...HOLDERS.flatMap((text, k) => [{ at: minute(NEWEST_ADS - 1 - k * 5), imageText: text }, { at: hour(k), imageText: text }]),
        ...CROWDED.map((word, k) => ({ at: hour(k), headline: word })),
      ]);
    }, 60_000);

    /** Every ad whose search text holds the text, newest first, read directly. */
    async function holding(text: string): Promise<string[]> {
      const { rows } = await ctx.db.query<{ id: string }>(
        `select id from public.ads where search_text like '%' || $1 || '%' order by created_at desc, id desc`, [text]);
      return rows.map((row) => row.id);
    }

    it('finds the same ads as the text anywhere, in every order', async () => {
      for (const search of ['glowberry', 'GLOWBERR', 'owberr', 'berrys', 'e5glowberry', 'berry2024', 'glowberrx', 'wberry', 'wovenquill', 'enquil']) {
        const expected = await holding(search.toLowerCase());
        expect(ids((await listAll({ search })).ads), search).toEqual(expected);
        expect(new Set(ids((await listAll({ search, sort: 'relevance' })).ads)), search).toEqual(new Set(expected));
        expect(new Set(ids((await listAll({ search, sort: 'longest_running' })).ads)), search).toEqual(new Set(expected));
      }
      expect(await holding('glowberry')).toHaveLength(14);
      expect(await holding('wovenquill')).toHaveLength(65);
    });
  });

  describe('a word of many ads over months', () => {
    // A word in every ad added one every three hours (8 a day), from June 2026 back to March.
    const WORD = 'larkspurvane';
    const START = Date.parse('2026-06-01T00:00:00Z');
    let larkspur: Added[] = [];

    beforeAll(async () => {
      larkspur = await insertAds(ctx.db, Array.from({ length: 720 }, (_, k) => ({
        at: new Date(START - (k + 1) * 3 * 3_600_000).toISOString(),
        headline: `${WORD} throw`,
      })));
    }, 60_000);

    it('lists every one newest first, twelve pages of 60', async () => {
      const { pages, ads } = await listAll({ search: WORD });
      expect(pages).toHaveLength(12);
      expect(ids(ads)).toEqual(ids(byNewest(larkspur)));
    });
  });
});

/**
 * A search in the longest-running order over thousands of ads: the 3,000 newest hold none of the searched words;
 * the matches run and ended across years, tie on their days across running and ended ads, crowd a few days (330
 * ads ended after 10 to 17 days), and some have no dates. Every answer is compared, page by page, with the order
 * worked out here from the dates alone.
 */
describeOnEngines('a search in the longest-running order', (ctx) => {
  interface Row {
    at: string;
    headline?: string;
    imageText?: string;
    brand?: 'other';
    firstSeen?: string;
    lastSeen?: string;
    running?: boolean;
  }
  interface Added extends Row {
    id: string;
  }

  const DAY = 86_400_000;
  const FILLERS = 3_000;
  const WORDS = { running: 'glimmerquay', ended: 'orchidvane' } as const;
  let people: Personas;
  let brandId: string;
  let otherBrandId: string;
  let categoryId: string;
  let today: number;
  let all: Added[] = [];

  /** The UTC day `days` before today, as YYYY-MM-DD. */
  const daysAgo = (days: number) => new Date(today - days * DAY).toISOString().slice(0, 10);
  /** Days since 1970-01-01 of a YYYY-MM-DD day. */
  const epochDay = (day: string) => Math.round(Date.parse(`${day}T00:00:00Z`) / DAY);
  const listAll = (query: ListQuery) => listEveryPage(ctx.db, userActor(people.subscriber), { sort: 'longest_running', ...query });

  /** Longest running first (a running ad to today), ties by id; then the ads without both dates, by id. */
  function longestFirst(ads: Added[]): string[] {
    const days = (ad: Added) =>
      ad.running ? epochDay(daysAgo(0)) - epochDay(ad.firstSeen!) + 1
      : ad.lastSeen ? epochDay(ad.lastSeen) - epochDay(ad.firstSeen!) + 1 : null;
    const dated = ads.filter((ad) => days(ad) !== null);
    const undated = ads.filter((ad) => days(ad) === null);
    dated.sort((a, b) => (days(a) === days(b) ? (a.id < b.id ? -1 : 1) : days(b)! - days(a)!));
    undated.sort((a, b) => (a.id < b.id ? -1 : 1));
    return ids([...dated, ...undated]);
  }

  const has = (ad: Row, word: string) => `${ad.headline ?? ''} ${ad.imageText ?? ''}`.toLowerCase().includes(word);
  const matches = (word: string) => all.filter((ad) => has(ad, word));

  /** Ads with their storage objects, as the database owner, in one statement. */
  async function insertAds(db: Database, rows: Row[]): Promise<Added[]> {
    return db.transaction(async (tx) => {
      const prefix = await insertObjects(tx, rows.length);
      const inserted = await tx.query<{ id: string; n: number }>(
        `insert into public.ads (brand_id, category_id, created_at, requires_subscription, original_path, display_480_path,
                                 display_960_path, preview_path, width, height, thumbhash, headline, image_text,
                                 first_seen, last_seen, still_running)
         select case when x.other then $4::uuid else $3::uuid end, $5::uuid, x.at, true,
                $1::text || '/' || x.n || '/original.jpg', $1::text || '/' || x.n || '/480.webp', $1::text || '/' || x.n || '/960.webp',
                'previews/' || $1::text || '-' || x.n || '.webp', 1080, 1350, 'YJqGPQw7sFlslqhFafSE+Q6oJ1h2iHB2Rw==',
                x.headline, x.image_text, x.first_seen, x.last_seen, x.running
           from jsonb_to_recordset($2::jsonb) as x (n int, at timestamptz, headline text, image_text text, other boolean,
                                                    first_seen date, last_seen date, running boolean)
          order by x.n
         returning id, split_part(original_path, '/', 2)::int as n`,
        [prefix, JSON.stringify(rows.map((row, i) => ({
          n: i + 1, at: row.at, headline: row.headline ?? null, image_text: row.imageText ?? null, other: row.brand === 'other',
          first_seen: row.firstSeen ?? null, last_seen: row.lastSeen ?? null, running: row.running ?? false,
        }))), brandId, otherBrandId, categoryId],
      );
      const byN = new Map(inserted.rows.map((row) => [Number(row.n), row.id]));
      return rows.map((row, i) => ({ ...row, id: byN.get(i + 1)! }));
    });
  }

  beforeAll(async () => {
    await ctx.db.query('delete from public.ads');
    people = await newPersonas(ctx.db);
    brandId = (await newBrand(ctx.db, 'Longrun')).id;
    otherBrandId = (await newBrand(ctx.db, 'Shortrun')).id;
    categoryId = (await newCategory(ctx.db)).id;
    today = Date.parse(`${(await ctx.db.query<{ today: string }>(`select ((now() at time zone 'UTC')::date)::text as today`)).rows[0]!.today}T00:00:00Z`);
    const todayKey = epochDay(daysAgo(0));
    const rows: Row[] = [];
    let minute = 0;
    const older = () => new Date(today - 10 * DAY - (minute += 1) * 60_000).toISOString();
    const running = (word: string, firstSeen: string, extra: Partial<Row> = {}): Row =>
      ({ at: older(), headline: `${word} runs`, firstSeen, running: true, ...extra });
    const ended = (word: string, firstSeen: string, days: number, extra: Partial<Row> = {}): Row =>
      ({ at: older(), headline: `${word} ran`, firstSeen, lastSeen: new Date(Date.parse(firstSeen) + (days - 1) * DAY).toISOString().slice(0, 10), ...extra });

    // The newest 3,000 ads, dated too, hold neither word.
    for (let n = 0; n < FILLERS; n += 1) {
      rows.push({ at: new Date(today - 2 * DAY + n * 20_000).toISOString(), headline: 'Nothing to find here',
        firstSeen: daysAgo(n % 700), running: n % 3 === 0, lastSeen: n % 3 === 0 ? undefined : daysAgo(Math.max(0, n % 700 - (n % 5))) });
    }
    const A = WORDS.running;
    // Running: first seen every 10 days over 900, on and beside the first and last days of runs of 512 and 64 days
    // since 1970, three on one day, one found only as a part of a word, one of the other brand.
    for (let d = 5; d <= 905; d += 10) rows.push(running(A, daysAgo(d), d % 40 === 15 ? { brand: 'other' } : {}));
    for (let key = todayKey - 900; key <= todayKey - 3; key += 1) {
      if (key % 512 === 0 || key % 512 === 511 || (key % 64 === 0 && key % 128 === 0) || key % 64 === 63) {
        rows.push(running(A, new Date(key * DAY).toISOString().slice(0, 10)));
      }
    }
    for (let k = 0; k < 3; k += 1) rows.push(running(A, daysAgo(333)));
    rows.push(running(A, daysAgo(444), { headline: 'Plain words', imageText: `MEGA${A.toUpperCase()}S` }));
    // Ended: a long tail of runs, the same days as running ads (ties across running and ended ads, by id), and 330
    // ads that ran 10 to 17 days.
    for (let days = 2; days <= 400; days += 7) rows.push(ended(A, daysAgo(days + 30), days, days % 21 === 9 ? { brand: 'other' } : {}));
    // An ended ad for every running one above, as long.
    for (let d = 5; d <= 905; d += 10) rows.push(ended(A, daysAgo(d + 41), d + 1));
    for (const d of [105, 205, 305]) {
      rows.push(ended(A, daysAgo(d + 500), d + 1), ended(A, daysAgo(d + 600), d + 1));
    }
    for (let k = 0; k < 330; k += 1) rows.push(ended(A, daysAgo(20 + (k % 200)), 10 + (k % 8), k % 50 === 7 ? { imageText: `X${A.toUpperCase()}` } : {}));
    // Without both dates: never seen, and seen once but not running.
    for (let k = 0; k < 5; k += 1) rows.push({ at: older(), headline: `${A} someday` });
    for (let k = 0; k < 3; k += 1) rows.push({ at: older(), headline: `${A} once`, firstSeen: daysAgo(50 + k) });

    // The ended ads ran longest.
    const B = WORDS.ended;
    for (let days = 300; days <= 1000; days += 5) rows.push(ended(B, daysAgo(days + 200), days));
    for (let d = 3; d <= 90; d += 3) rows.push(running(B, daysAgo(d)));
    for (let days = 300; days <= 990; days += 20) rows.push(running(B, daysAgo(days - 1)));
    rows.push(ended(B, daysAgo(400), 90), running(B, daysAgo(89)));
    all = await insertAds(ctx.db, rows);
  }, 180_000);

  it('lists every match longest running first across pages, running and ended ads mixed', async () => {
    for (const word of Object.values(WORDS)) {
      const expected = longestFirst(matches(word));
      expect(expected.length).toBeGreaterThan(120);
      const { pages, ads } = await listAll({ search: word });
      expect(ids(ads)).toEqual(expected);
      expect(pages.length).toBe(Math.ceil(expected.length / 60));
    }
  });

  it('keeps the other filters', async () => {
    const other = matches(WORDS.running).filter((ad) => ad.brand === 'other');
    expect(other.length).toBeGreaterThan(10);
    expect(ids((await listAll({ search: WORDS.running, brandIds: [otherBrandId] })).ads)).toEqual(longestFirst(other));
  });

  it('follows an ad that stops running, and starts again', async () => {
    const ad = matches(WORDS.running).find((row) => row.running && row.firstSeen === daysAgo(905))!;
    const lastSeen = daysAgo(880);
    try {
      await ctx.db.query(`update public.ads set still_running = false, last_seen = $2 where id = $1`, [ad.id, lastSeen]);
      const moved = matches(WORDS.running).map((row) => (row.id === ad.id ? { ...row, running: false, lastSeen } : row));
      expect(ids((await listAll({ search: WORDS.running })).ads)).toEqual(longestFirst(moved));
    } finally {
      await ctx.db.query(`update public.ads set still_running = true, last_seen = null where id = $1`, [ad.id]);
    }
    expect(ids((await listAll({ search: WORDS.running })).ads)).toEqual(longestFirst(matches(WORDS.running)));
  });

  it('finds no ad by the days it ran', async () => {
    const ad = matches(WORDS.ended).find((row) => !row.running)!;
    const key = epochDay(ad.firstSeen!) - epochDay(ad.lastSeen!);
    for (const search of [`~e0_${key}`, `e0_${key}`]) {
      expect((await listAll({ search })).ads, search).toEqual([]);
    }
  });
});

/**
 * A common search in the dated orders: a word is in half of 400 ads, as a word of the headline and inside a longer
 * word of the image text; the running and ended ads tie on their days and on the day they were last seen. Every
 * page is compared with the order worked out here from the dates alone.
 */
describeOnEngines('a common search in the longest-running and recently-seen orders', (ctx) => {
  interface Dated {
    id: string;
    match: boolean;
    /** Holds the word in its headline, "The quillfern range", rather than in its image text. */
    inHeadline: boolean;
    firstSeen: string | null;
    lastSeen: string | null;
    running: boolean;
    /** Ran on TikTok (four in five ads). */
    tiktok: boolean;
  }
  type DatedOrder = 'longest_running' | 'recently_seen';

  const DAY = 86_400_000;
  const WORD = 'quillfern';
  const ADS = 400;
  let people: Personas;
  let today: number;
  let ads: Dated[] = [];

  const daysAgo = (days: number) => new Date(today - days * DAY).toISOString().slice(0, 10);
  const epochDay = (day: string) => Math.round(Date.parse(`${day}T00:00:00Z`) / DAY);
  const listAll = async (sort: DatedOrder, search: string, filters: Pick<ListQuery, 'platforms' | 'minRunningDays'> = {}) => {
    const { pages, ads: listed } = await listEveryPage(ctx.db, userActor(people.subscriber), { search, sort, ...filters });
    return { pages, ids: ids(listed) };
  };

  /** The matches in the order's key descending, ties by id; then the ads without both dates, by id. */
  function expected(sort: DatedOrder, matching: (ad: Dated) => boolean = (ad) => ad.match): string[] {
    const matches = ads.filter(matching);
    const key = (ad: Dated): number | null => {
      if (ad.running) return sort === 'longest_running' ? epochDay(daysAgo(0)) - epochDay(ad.firstSeen!) + 1 : epochDay(daysAgo(0));
      if (!ad.lastSeen) return null;
      return sort === 'longest_running' ? epochDay(ad.lastSeen) - epochDay(ad.firstSeen!) + 1 : epochDay(ad.lastSeen);
    };
    const byId = (a: Dated, b: Dated) => (a.id < b.id ? -1 : 1);
    const dated = matches.filter((ad) => key(ad) !== null).sort((a, b) => (key(a) === key(b) ? byId(a, b) : key(b)! - key(a)!));
    const undated = matches.filter((ad) => key(ad) === null).sort(byId);
    return [...dated, ...undated].map((ad) => ad.id);
  }

  /** The days an ad ran, as private.running_days counts them, or null without dates. */
  function ranFor(ad: Dated): number | null {
    if (ad.running) return epochDay(daysAgo(0)) - epochDay(ad.firstSeen!) + 1;
    return ad.lastSeen ? epochDay(ad.lastSeen) - epochDay(ad.firstSeen!) + 1 : null;
  }

  beforeAll(async () => {
    await ctx.db.query('delete from public.ads');
    people = await newPersonas(ctx.db);
    const brandId = (await newBrand(ctx.db, 'Signet')).id;
    const categoryId = (await newCategory(ctx.db)).id;
    today = Date.parse(`${(await ctx.db.query<{ today: string }>(`select ((now() at time zone 'UTC')::date)::text as today`)).rows[0]!.today}T00:00:00Z`);
    const made = await newAds(ctx.db, ADS, { brandId, categoryId, startAt: new Date(today - 5 * DAY).toISOString() });
    // Every other ad holds the word: in its headline, or (one in three of them) inside a word of its image text.
    // The running ads' days run come in groups of ten (five in the longest group), so the 60th and 61st running
    // matches tie, and the ended ads of that group ran exactly as long: they tie with them and belong on the first
    // page by id. The other ended ads ran 20 days less, below the first page. Half of the ended ads ended today, so
    // they tie with the running ones in the recently-seen order. One in ten of the matches has no dates.
    const rows = made.map((ad, i) => {
      const match = i % 2 === 0;
      const undated = i % 20 === 10;
      const running = !undated && i % 4 < 2;
      const group = Math.floor((i + 20) / 40);
      const ran = running || group === 4 ? 21 + group : Math.max(1, 1 + group);
      const endedToday = !undated && !running && i % 8 === 6;
      const firstSeen = undated ? null : running || endedToday ? daysAgo(ran - 1) : daysAgo(60 + (i % 7));
      const lastSeen = undated || running ? null : endedToday ? daysAgo(0) : new Date(Date.parse(firstSeen!) + (ran - 1) * DAY).toISOString().slice(0, 10);
      return {
        id: ad.id,
        headline: match && i % 6 !== 0 ? `The ${WORD} range` : 'Plain words',
        image_text: match && i % 6 === 0 ? `BLUE${WORD.toUpperCase()}S` : null,
        first_seen: firstSeen,
        last_seen: lastSeen,
        running,
        match,
        // Four in five ads ran on TikTok, matches and not, running and ended, with dates or without.
        platforms: i % 5 < 4 ? ['tiktok', 'meta'] : ['meta'],
      };
    });
    await ctx.db.query(
      `update public.ads a set headline = x.headline, image_text = x.image_text, first_seen = x.first_seen,
                               last_seen = x.last_seen, still_running = x.running, platforms = x.platforms
         from jsonb_to_recordset($1::jsonb)
              as x (id uuid, headline text, image_text text, first_seen date, last_seen date, running boolean, platforms text[])
        where a.id = x.id`,
      [JSON.stringify(rows)],
    );
    ads = rows.map((row) => ({
      id: row.id, match: row.match, inHeadline: row.headline !== 'Plain words', firstSeen: row.first_seen, lastSeen: row.last_seen, running: row.running,
      tiktok: row.platforms.includes('tiktok'),
    }));
  }, 180_000);

  it('lists the word longest running first and recently seen first, page by page', async () => {
    for (const sort of ['longest_running', 'recently_seen'] as const) {
      const listed = await listAll(sort, WORD);
      expect(listed.pages.length, sort).toBeGreaterThan(1);
      expect(listed.ids, sort).toEqual(expected(sort));
    }
  });

  it('lists several words, and a text found across two words', async () => {
    // "quillfern range" matches as words; "fern ran" only as text anywhere, inside "quillfern" and "range".
    for (const search of [`${WORD} range`, 'fern ran']) {
      for (const sort of ['longest_running', 'recently_seen'] as const) {
        const listed = await listAll(sort, search);
        expect(listed.ids, `${search}, ${sort}`).toEqual(expected(sort, (ad) => ad.inHeadline));
        expect(listed.ids.length, `${search}, ${sort}`).toBeGreaterThan(61);
      }
    }
  });

  it('lists the matches that pass the filters in both orders, page by page', async () => {
    // 160 of the 400 ads match on TikTok, 82 of them ran at least 22 days.
    const onTiktok = (ad: Dated) => ad.match && ad.tiktok;
    const longEnough = (ad: Dated) => onTiktok(ad) && (ranFor(ad) ?? 0) >= 22;
    for (const sort of ['longest_running', 'recently_seen'] as const) {
      const listed = await listAll(sort, WORD, { platforms: ['tiktok'] });
      expect(listed.pages.length, sort).toBe(3);
      expect(listed.ids, sort).toEqual(expected(sort, onTiktok));
      const days = await listAll(sort, WORD, { platforms: ['tiktok'], minRunningDays: 22 });
      expect(days.ids, `${sort}, 22 days`).toEqual(expected(sort, longEnough));
      expect(days.ids.length, `${sort}, 22 days`).toBe(82);
    }
  });
});
