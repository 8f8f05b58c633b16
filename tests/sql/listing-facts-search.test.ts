import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../local/db/database.ts';
import { anon, expectPgError, queryAs, userActor, type Actor } from '../support/acting.ts';
import { describeOnEngines } from '../support/engines.ts';
import { newBrand, newCategory, newHook, newPersonas, newTag, type Personas } from '../support/factories.ts';
import type { ListedAd } from '../support/listed-ad.ts';
import { planOf } from '../support/query-plan.ts';

/** list_ads' filters by the ads' facts, its orders and its search of the ads' words. */

interface AdPage {
  ads: ListedAd[];
  next_cursor: string | null;
}

interface ListArgs {
  brandId?: string;
  tagIds?: string[];
  since?: string;
  search?: string;
  cursor?: string;
  platforms?: string[];
  format?: string;
  offer?: string;
  hookId?: string;
  minRunningDays?: number;
  stillRunning?: boolean;
  sort?: string;
}

const listParameters: Record<keyof ListArgs, [string, string]> = {
  brandId: ['p_brand_id', 'uuid'],
  tagIds: ['p_tag_ids', 'uuid[]'],
  since: ['p_since', 'timestamptz'],
  search: ['p_search', 'text'],
  cursor: ['p_cursor', 'text'],
  platforms: ['p_platforms', 'text[]'],
  format: ['p_format', 'text'],
  offer: ['p_offer', 'text'],
  hookId: ['p_hook_id', 'uuid'],
  minRunningDays: ['p_min_running_days', 'int'],
  stillRunning: ['p_still_running', 'boolean'],
  sort: ['p_sort', 'text'],
};

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
    const named: string[] = [];
    const params: unknown[] = [];
    for (const [key, [name, type]] of Object.entries(listParameters) as [keyof ListArgs, [string, string]][]) {
      if (args[key] === undefined) continue;
      params.push(args[key]);
      named.push(`${name} => $${params.length}::${type}`);
    }
    const [row] = await queryAs<{ page: AdPage }>(ctx.db, who(viewer), `select public.list_ads(${named.join(', ')}) as page`, params);
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
      await tx.query(
        `insert into storage.objects (bucket_id, name, metadata)
         select f.bucket_id, replace(f.pattern, '#', g::text), jsonb_build_object('mimetype', f.mimetype, 'size', 1024)
           from generate_series(1, $2::int) g
           cross join (values ('ad-originals', $1::text || '/#/original.jpg', 'image/jpeg'),
                              ('ad-images', $1::text || '/#/480.webp', 'image/webp'),
                              ('ad-images', $1::text || '/#/960.webp', 'image/webp'),
                              ('ad-images', 'previews/' || $1::text || '-#.webp', 'image/webp')) as f (bucket_id, pattern, mimetype)`,
        [prefix, all.length],
      );
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
      { title: 'a hook', args: () => ({ hookId: hooks.b }), keeps: (ad) => ad.facts.hook === 'b' },
      { title: 'running at least 11 days', args: () => ({ minRunningDays: 11 }), keeps: (ad) => (runningDays(ad.facts) ?? 0) >= 11 },
      { title: 'running at least 61 days', args: () => ({ minRunningDays: 61 }), keeps: (ad) => (runningDays(ad.facts) ?? 0) >= 61 },
      { title: 'still running', args: () => ({ stillRunning: true }), keeps: (ad) => !!ad.facts.stillRunning },
      { title: 'still running false, no filter', args: () => ({ stillRunning: false }), keeps: () => true },
      {
        title: 'a platform with a brand and a tag',
        args: () => ({ platforms: ['meta'], brandId, tagIds: [tagId] }),
        keeps: (ad) => !!ad.facts.platforms?.includes('meta') && ad.brandId === brandId && ad.tagIds.includes(tagId),
      },
      {
        title: 'a tag with an offer (the tag index path)',
        args: () => ({ tagIds: [tagId], offer: 'discount' }),
        keeps: (ad) => ad.tagIds.includes(tagId) && ad.facts.offer === 'discount',
      },
      {
        title: 'a format, a hook and still running since a date',
        args: () => ({ format: 'single_image', hookId: hooks.b, stillRunning: true, since: library[40]!.createdAt }),
        keeps: (ad) => ad.facts.format === 'single_image' && ad.facts.hook === 'b' && !!ad.facts.stillRunning && ad.createdAt >= library[40]!.createdAt,
      },
    ];

    it.each(cases)('filters by $title, newest first, every ad once across pages', async ({ args, keeps }) => {
      const expected = newestFirst(library.filter(keeps));
      expect(expected.length).toBeGreaterThan(0);
      const { ads } = await listAll('subscriber', args());
      expect(ids(ads)).toEqual(ids(expected));
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
      expect(ids((await listAll('subscriber', { sort: 'longest_running', minRunningDays: 21, brandId })).ads)).toEqual(ids(longest(library.filter(long))));
      const running = (ad: Seeded) => !!ad.facts.stillRunning && ad.tagIds.includes(tagId);
      expect(ids((await listAll('subscriber', { sort: 'recently_seen', stillRunning: true, tagIds: [tagId] })).ads)).toEqual(ids(recent(library.filter(running))));
    });

    it("reads a brand's ads in the dated orders from its own streams, in order", async () => {
      const ofBrand = (ad: Seeded) => ad.brandId === brandId;
      expect(ids((await listAll('subscriber', { sort: 'longest_running', brandId })).ads)).toEqual(ids(longest(library.filter(ofBrand))));
      expect(ids((await listAll('subscriber', { sort: 'recently_seen', brandId })).ads)).toEqual(ids(recent(library.filter(ofBrand))));
      // Each stream's statement, as list_ads writes it with a brand: with sequential scans, bitmaps and sorts off, the
      // planner can still answer it in order, and picks the stream's brand-first index.
      const streams: [string, string][] = [
        ['a.still_running order by a.first_seen, a.id', 'ads_brand_running_since'],
        ['not a.still_running and a.last_seen is not null order by (a.first_seen - a.last_seen), a.id', 'ads_brand_ran_for'],
        ['a.still_running order by a.id', 'ads_brand_running'],
        ['not a.still_running and a.last_seen is not null order by a.last_seen desc, a.id', 'ads_brand_last_seen'],
        ['not a.still_running and a.last_seen is null order by a.id', 'ads_brand_undated'],
      ];
      for (const [stream, index] of streams) {
        const plan = await planOf(ctx.db, `select a.id from public.ads a where not a.is_black_friday and a.brand_id = '${brandId}' and ${stream} limit 61`,
          ['enable_seqscan', 'enable_sort', 'enable_bitmapscan']);
        expect(plan, stream).toContain(index);
      }
    });

    it("checks every filter but the search and tags in the dated orders' stream indexes, without reading the ads", async () => {
      // Each stream's statement with every filter of the facts, board, category, type and since, as list_ads writes
      // them: on a vacuumed table, with sequential scans, bitmaps and sorts off, the planner answers it from the
      // stream's index alone.
      await ctx.db.query('vacuum (analyze) public.ads');
      const filters = `a.is_top_picks and not a.is_black_friday and a.category_id = '${categoryId}'`
        + ` and a.type_id is not distinct from null::uuid and a.created_at >= now() - interval '30 days'`
        + ` and a.platforms && array['tiktok']::text[] and a.format = 'single_image' and a.offer = 'discount'`
        + ` and a.hook_id = '${hooks.a}' and a.colour_swatches @> array['purple']::text[]`
        + ' and (case when a.still_running then greatest(current_date, coalesce(a.last_seen, a.first_seen)) else a.last_seen end)'
        + ' - a.first_seen + 1 >= 10';
      const streams: [string, string, string][] = [
        ['current_date - a.first_seen + 1', 'a.still_running order by a.first_seen, a.id', 'ads_running_since'],
        ['a.last_seen - a.first_seen + 1', 'not a.still_running and a.last_seen is not null order by (a.first_seen - a.last_seen), a.id', 'ads_ran_for'],
        ['current_date', 'a.still_running order by a.id', 'ads_running'],
        ['a.last_seen', 'not a.still_running and a.last_seen is not null order by a.last_seen desc, a.id', 'ads_last_seen'],
        ['a.id', 'not a.still_running and a.last_seen is null order by a.id', 'ads_undated'],
      ];
      for (const [key, stream, index] of streams) {
        const plan = await planOf(ctx.db, `select a.id, ${key} as k from public.ads a where ${filters} and ${stream} limit 61`,
          ['enable_seqscan', 'enable_sort', 'enable_bitmapscan']);
        expect(plan, stream).toContain(`Index Only Scan using ${index} `);
      }
    });

    it('reads a colour and a platform in one scan of one index, and either alone through the same index', async () => {
      // A rare colour on a rare platform (decisions 0050, 0052): the index walks both posting lists together and keeps
      // only the ads in both, instead of two bitmaps of every ad of each intersected afterwards. The search index holds
      // them (decision 0054).
      // In this small library the colour's own ordered index (a partial btree, decision 0041) is cheaper still: it is
      // set aside for the statement.
      const off = ['enable_seqscan', 'enable_indexscan'];
      const aside = ['drop index public.ads_colour_purple_order'];
      const both = await planOf(ctx.db,
        "select a.id from public.ads a where a.colour_swatches @> array['purple']::text[] and a.platforms && array['snapchat']::text[]",
        off, aside);
      expect(both).toContain('Bitmap Index Scan on ads_search');
      expect(both).toMatch(/Index Cond: \(\(colour_swatches @> .* AND \(platforms && /);
      expect(both).not.toContain('BitmapAnd');
      for (const condition of ["a.platforms && array['snapchat']::text[]", "a.colour_swatches @> array['purple']::text[]"]) {
        expect(await planOf(ctx.db, `select a.id from public.ads a where ${condition}`, off, aside), condition)
          .toContain('Bitmap Index Scan on ads_search');
      }
    });

    it("reads a search with a platform in one scan of the search index, stepping through the platform's ads only where the search has matches", async () => {
      const off = ['enable_seqscan', 'enable_indexscan'];
      const plan = await planOf(ctx.db,
        "select a.id from public.ads a where a.search_vector @@ 'sale'::tsquery and a.platforms && array['tiktok']::text[]", off);
      expect(plan).toContain('Bitmap Index Scan on ads_search');
      expect(plan).toMatch(/Index Cond: \(\(search_vector @@ .* AND \(platforms && /);
      expect(plan).not.toContain('BitmapAnd');
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
        [plainCursor, { hookId: hooks.a }],
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
        { platforms: ['tiktok'] }, { format: 'video' }, { offer: 'bundle' }, { hookId: hooks.a }, { minRunningDays: 30 },
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
      await expectPgError(queryAs(ctx.db, anon, `select public.list_ads(p_platforms => array['meta', null])`), invalid);
      await expectPgError(listAds('anonymous', { format: 'gif' }), invalid);
      await expectPgError(listAds('anonymous', { offer: 'coupon' }), invalid);
      await expectPgError(listAds('anonymous', { minRunningDays: 0 }), invalid);
      await expectPgError(listAds('anonymous', { minRunningDays: 3651 }), invalid);
      expect((await listAds('anonymous', { minRunningDays: 3650 })).ads).toEqual([]);
      expect((await listAds('anonymous', { platforms: [] })).ads).toHaveLength(60);
    });

    it('refuses an unknown order and a search longer than 100 characters', async () => {
      await expectPgError(listAds('subscriber', { sort: 'oldest' }), { code: 'P0001', detail: 'unknown_sort' });
      await expectPgError(listAds('subscriber', { sort: '' }), { code: 'P0001', detail: 'unknown_sort' });
      await expectPgError(listAds('anonymous', { search: 'x'.repeat(101), sort: 'relevance' }), { code: 'P0001', detail: 'search_too_long' });
    });
  });
});
