import { randomBytes, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../local/db/database.ts';
import { describeOnEngines } from '../support/engines.ts';
import { anon, as, expectPgError, queryAs, userActor, type Actor } from '../support/acting.ts';
import { imageLinkSecret, imageLinksOf, imageLinkWindowStart, type ImageLinks, type ListedAd } from '../support/listed-ad.ts';
import { newBoard, newBrand, newCategory, newPersonas, newTag, newType, systemTagId, newAdObjects, type Personas } from '../support/factories.ts';
import { listAdsStatement, listQueryParameter, type ListQuery } from '../support/list-query.ts';

interface AdPage {
  ads: ListedAd[];
  next_cursor: string | null;
  /** On the first page only: how many ads the query finds. */
  total?: number;
  total_is_estimate?: boolean;
}

/** The queries these tests make: the board, filters, search and cursor of the library. */
type ListArgs = Pick<ListQuery, 'board' | 'brandIds' | 'categoryIds' | 'typeIds' | 'tagIds' | 'since' | 'search' | 'cursor'>;

const adKeys = [
  'id', 'brand_id', 'brand_name', 'brand_logo_path', 'category_id', 'category_name', 'type_id', 'type_name', 'tag_names',
  'created_at', 'requires_subscription', 'is_black_friday', 'is_top_picks', 'width', 'height', 'thumbhash', 'preview_path',
  'is_clear', 'preview_url', 'display_480_url', 'display_960_url',
  // The facts every card shows (private.ad_card): no running days, the SPA counts them.
  'platforms', 'first_seen', 'last_seen', 'still_running',
].sort();
const isoMicros = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const cursorFormat = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{24}$/;
const utcMicros = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** An ad as the tests know it, to compute what each query must return. */
interface SeededAd {
  id: string;
  createdAt: string;
  brandId: string;
  categoryId: string;
  typeId: string | null;
  tagIds: string[];
}

interface AdBatch {
  count: number;
  brandId: string;
  categoryId: string;
  typeId?: string | null;
  tagIds?: string[];
  /** Creation time of the first (oldest) ad of the batch. */
  start: string;
  /** Time between consecutive ads; '0' makes them all tie. */
  step?: string;
}

/** Newest first, ties broken by id, as the listing orders. */
const newestFirst = <T extends { createdAt: string; id: string }>(ads: T[]): T[] =>
  [...ads].sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1));
const ids = (ads: { id: string }[]) => ads.map((ad) => ad.id);
const clearFlags = (page: AdPage) => page.ads.map((ad) => ad.is_clear);
/** A page of `rows` whose first `clear` rows are clear. */
const leadingClear = (rows: number, clear: number) => Array.from({ length: rows }, (_, i) => i < clear);
/** Listed ads back in the order of time the pages are cut in, newest first. */
const inTimeOrder = (ads: ListedAd[]) => newestFirst(ads.map((ad) => ({ ...ad, createdAt: ad.created_at })));

/** The free sample of a library published in this order (oldest publish first): its 1st, 11th, 21st ... premium ad. */
const everyTenth = (publishOrder: { id: string }[]): Set<string> => new Set(ids(publishOrder.filter((_, i) => i % 10 === 0)));

/**
 * The ids each page shows a viewer without valid access: the query's ads, newest
 * first, cut into pages of 60, and within each page the clear ads first (each group
 * newest first).
 */
function servedPages(ads: { id: string }[], clear: Set<string>): string[][] {
  const pages: string[][] = [];
  for (let start = 0; start < Math.max(ads.length, 1); start += 60) {
    const page = ids(ads.slice(start, start + 60));
    pages.push([...page.filter((id) => clear.has(id)), ...page.filter((id) => !clear.has(id))]);
  }
  return pages;
}
const union = (...sets: Iterable<string>[]) => new Set(sets.flatMap((set) => [...set]));

/**
 * A batch of ads in three statements (their storage objects, the ads, their
 * tags) as the database owner: the factories' one-ad-at-a-time inserts are too
 * slow for libraries of a hundred ads and more.
 */
async function insertAds(db: Database, batch: AdBatch): Promise<SeededAd[]> {
  const prefix = randomBytes(8).toString('hex');
  return db.transaction(async (tx) => {
    await newAdObjects(tx, prefix, batch.count);
    const { rows } = await tx.query<{ id: string; created_at: string }>(
      `insert into public.ads (brand_id, category_id, type_id, created_at, original_path, display_480_path, display_960_path,
                               preview_path, width, height, thumbhash)
       select $3::uuid, $4::uuid, $5::uuid, $6::timestamptz + (g - 1) * $7::interval, $1::text || '/' || g || '/original.jpg',
              $1::text || '/' || g || '/480.webp', $1::text || '/' || g || '/960.webp', 'previews/' || $1::text || '-' || g || '.webp',
              1080, 1350, 'YJqGPQw7sFlslqhFafSE+Q6oJ1h2iHB2Rw=='
         from generate_series(1, $2::int) g
       returning id, ${utcMicros('created_at')} as created_at`,
      [prefix, batch.count, batch.brandId, batch.categoryId, batch.typeId ?? null, batch.start, batch.step ?? '1 minute'],
    );
    const tagIds = batch.tagIds ?? [];
    if (tagIds.length > 0) {
      await tx.query('insert into public.ad_tags (ad_id, tag_id) select a, t from unnest($1::uuid[]) a cross join unnest($2::uuid[]) t', [
        rows.map((row) => row.id),
        tagIds,
      ]);
    }
    return rows.map((row) => ({
      id: row.id,
      createdAt: row.created_at,
      brandId: batch.brandId,
      categoryId: batch.categoryId,
      typeId: batch.typeId ?? null,
      tagIds,
    }));
  });
}

/** An empty library: every ad (and with it every saved item) removed. */
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

interface StoredPaths { preview_path: string; display_480_path: string; display_960_path: string }

/** The image paths of ads as the database owner reads them. */
async function storedPaths(db: Database, adIds: string[]): Promise<Map<string, StoredPaths>> {
  const { rows } = await db.query<StoredPaths & { id: string }>(
    'select id, preview_path, display_480_path, display_960_path from public.ads where id = any ($1::uuid[])', [adIds]);
  return new Map(rows.map((row) => [row.id, row]));
}

/** The links a clear or a locked ad must carry: display variants when clear, the blurred preview when locked. */
const linksFor = (paths: StoredPaths, clear: boolean): ImageLinks =>
  clear
    ? { preview: null, display480: `ad-images/${paths.display_480_path}`, display960: `ad-images/${paths.display_960_path}` }
    : { preview: `ad-images/${paths.preview_path}`, display480: null, display960: null };

type Viewer = 'anonymous' | keyof Personas;
/** Viewers without valid access: the flag black_friday_access grants nothing. */
const sampleViewers: Viewer[] = ['anonymous', 'free', 'flagged', 'expired'];
const entitledViewers: Viewer[] = ['trialing', 'subscriber', 'cancelledInPeriod', 'admin'];

describeOnEngines('listing ads', (ctx) => {
  let people: Personas;
  const who = (viewer: Viewer): Actor => (viewer === 'anonymous' ? anon : userActor(people[viewer]));

  async function listAds(viewer: Viewer, args: ListArgs = {}): Promise<AdPage> {
    const [row] = await queryAs<{ page: AdPage }>(ctx.db, who(viewer), listAdsStatement, [listQueryParameter(args)]);
    return row!.page;
  }

  /** Every page of a query, following next_cursor to the end. */
  async function listAllPages(viewer: Viewer, args: ListArgs = {}): Promise<AdPage[]> {
    const pages = [await listAds(viewer, args)];
    while (pages.at(-1)!.next_cursor !== null) {
      if (pages.length > 20) throw new Error('The listing does not end');
      pages.push(await listAds(viewer, { ...args, cursor: pages.at(-1)!.next_cursor! }));
    }
    return pages;
  }

  async function getAd(viewer: Viewer, id: string): Promise<ListedAd | null> {
    const [row] = await queryAs<{ ad: ListedAd | null }>(ctx.db, who(viewer), 'select public.get_ad($1) as ad', [id]);
    return row!.ad;
  }

  async function neighbours(viewer: Viewer, id: string): Promise<{ previous_id: string; next_id: string }> {
    const [row] = await queryAs<{ n: { previous_id: string; next_id: string } }>(
      ctx.db, who(viewer), 'select public.get_ad_neighbours($1) as n', [id]);
    return row!.n;
  }

  async function listCollection(viewer: Viewer, collectionId: string, cursor?: string): Promise<AdPage> {
    const [row] = await queryAs<{ page: AdPage }>(
      ctx.db, who(viewer), 'select public.list_collection_ads($1, $2) as page', [collectionId, cursor ?? null]);
    return row!.page;
  }

  /** Pages of a listing as one list, checking the page sizes and cursors on the way. */
  function concatenatePages(pages: AdPage[]): ListedAd[] {
    pages.forEach((page, index) => {
      const last = index === pages.length - 1;
      if (!last) {
        expect(page.ads).toHaveLength(60);
        expect(page.next_cursor).toMatch(cursorFormat);
      } else {
        expect(page.ads.length).toBeLessThanOrEqual(60);
        expect(page.next_cursor).toBeNull();
      }
    });
    const all = pages.flatMap((page) => page.ads);
    expect(new Set(ids(all)).size).toBe(all.length);
    return all;
  }

  let linkSecret: string;
  let windowStart: number;
  /** The objects an ad's links point at, each token checked against the image-link secret and the current window. */
  const links = (ad: ListedAd) => imageLinksOf(ad, linkSecret, windowStart);

  beforeAll(async () => {
    people = await ctx.db.transaction((tx) => newPersonas(tx));
    linkSecret = await imageLinkSecret(ctx.db);
    windowStart = await imageLinkWindowStart(ctx.db);
  });

  describe('the library, page by page', () => {
    let brandId: string;
    let categoryId: string;

    beforeAll(async () => {
      brandId = (await newBrand(ctx.db)).id;
      categoryId = (await newCategory(ctx.db)).id;
    });

    it('lists a 61-ad library newest first by created_at then id: a page of 60 with a cursor, then the last ad', async () => {
      await clearLibrary(ctx.db);
      const spread = await insertAds(ctx.db, { count: 51, brandId, categoryId, start: '2026-01-01T00:00:00Z' });
      // Ten ads created at the same instant straddle the page boundary: the id decides their order.
      const tied = await insertAds(ctx.db, { count: 10, brandId, categoryId, start: '2025-12-01T00:00:00Z', step: '0' });
      const expected = newestFirst([...spread, ...tied]);

      const first = await listAds('subscriber');
      expect(ids(first.ads)).toEqual(ids(expected.slice(0, 60)));
      expect(first.next_cursor).toMatch(cursorFormat);
      const second = await listAds('subscriber', { cursor: first.next_cursor! });
      expect(ids(second.ads)).toEqual([expected[60]!.id]);
      expect(second.next_cursor).toBeNull();
    });

    it('ends a 120-ad library after two full pages, with no empty page after the last', async () => {
      await clearLibrary(ctx.db);
      const published = await insertAds(ctx.db, { count: 120, brandId, categoryId, start: '2026-01-01T00:00:00Z' });
      const expected = newestFirst(published);

      const pages = await listAllPages('anonymous');
      expect(pages).toHaveLength(2);
      expect(ids(concatenatePages(pages))).toEqual(servedPages(expected, everyTenth(published)).flat());
      expect(ids(inTimeOrder(pages.flatMap((page) => page.ads)))).toEqual(ids(expected));
      expect(pages[1]!.ads).toHaveLength(60);
      expect(pages[1]!.next_cursor).toBeNull();
    });

    it('answers the same pages to every call of a query, in one transaction and across them', async () => {
      await clearLibrary(ctx.db);
      await insertAds(ctx.db, { count: 70, brandId, categoryId, start: '2026-03-01T00:00:00Z' });
      const first = await listAds('subscriber');
      expect(first.ads).toHaveLength(60);
      const calls = await as(ctx.db, who('subscriber'), async (q) => {
        const pages: AdPage[] = [];
        for (let call = 0; call < 9; call += 1) pages.push((await q.query<{ page: AdPage }>(listAdsStatement, [listQueryParameter({})])).rows[0]!.page);
        return pages;
      });
      for (const page of calls) expect(page).toEqual(first);
      // The next page, read by another viewer with the first one's cursor: the ten other ads, every time.
      const second = await listAds('anonymous', { cursor: first.next_cursor! });
      expect(second.ads).toHaveLength(10);
      expect(second.next_cursor).toBeNull();
      expect(ids(second.ads).filter((id) => ids(first.ads).includes(id))).toEqual([]);
      for (let call = 0; call < 6; call += 1) expect(ids((await listAds('anonymous', { cursor: first.next_cursor! })).ads)).toEqual(ids(second.ads));
    });

    it('returns one empty page for an empty library', async () => {
      await clearLibrary(ctx.db);
      expect(await listAds('free')).toEqual({ ads: [], next_cursor: null, total: 0, total_is_estimate: false });
    });
  });

  describe('the free sample', () => {
    let library: SeededAd[];
    let topPicks: SeededAd[];
    let sample: Set<string>;

    beforeAll(async () => {
      await clearLibrary(ctx.db);
      const brandId = (await newBrand(ctx.db)).id;
      const categoryId = (await newCategory(ctx.db)).id;
      const topPicksTag = await systemTagId(ctx.db, 'top_picks');
      // 65 library ads (pages of 60 and 5), published oldest first; 11 of them, library positions 20 to 30, are the Top Picks.
      const older = await insertAds(ctx.db, { count: 35, brandId, categoryId, start: '2026-01-01T00:00:00Z' });
      const picks = await insertAds(ctx.db, { count: 11, brandId, categoryId, start: '2026-02-01T00:00:00Z', tagIds: [topPicksTag] });
      const newer = await insertAds(ctx.db, { count: 19, brandId, categoryId, start: '2026-03-01T00:00:00Z' });
      topPicks = newestFirst(picks);
      library = newestFirst([...older, ...picks, ...newer]);
      // The 1st, 11th ... 61st published: library positions 64, 54, 44, 34, 24 (a Top Pick), 14 and 4.
      sample = everyTenth([...older, ...picks, ...newer]);
    });

    it('chooses the 1st, 11th, 21st ... premium ad in publish order, at most ceil(10%) of them, and lets everyone read which', async () => {
      expect(sample.size).toBe(Math.ceil(65 / 10));
      expect(await sampleIds(ctx.db)).toEqual(sample);
    });

    it('shows the free sample clear and the rest locked to anonymous, free, flagged and expired viewers, with the page\'s clear ads first', async () => {
      for (const viewer of sampleViewers) {
        const pages = await listAllPages(viewer);
        expect(pages.map((page) => ids(page.ads)), viewer).toEqual(servedPages(library, sample));
        expect(clearFlags(pages[0]!)).toEqual(leadingClear(60, 6));
        expect(clearFlags(pages[1]!)).toEqual(leadingClear(5, 1));
        expect(new Set(ids(pages.flatMap((page) => page.ads).filter((ad) => ad.is_clear)))).toEqual(sample);

        const board = await listAds(viewer, { board: 'top-picks' });
        expect(ids(board.ads)).toEqual(servedPages(topPicks, sample)[0]);
        expect(clearFlags(board)).toEqual(leadingClear(11, 1));
      }
    });

    it('shows every row clear to trialing, subscriber, cancelled-in-period and admin viewers, newest first', async () => {
      for (const viewer of entitledViewers) {
        const pages = await listAllPages(viewer);
        expect(ids(concatenatePages(pages))).toEqual(ids(library));
        expect(pages.flatMap(clearFlags).every(Boolean)).toBe(true);
        const board = await listAds(viewer, { board: 'top-picks' });
        expect(ids(board.ads)).toEqual(ids(topPicks));
        expect(clearFlags(board).every(Boolean)).toBe(true);
      }
    });

    it('locked rows carry a signed preview link and no display link; clear rows both display links', async () => {
      const stored = await storedPaths(ctx.db, ids(library));
      for (const viewer of [...sampleViewers, ...entitledViewers]) {
        const rows = (await listAllPages(viewer)).flatMap((page) => page.ads);
        expect(rows).toHaveLength(65);
        for (const ad of rows) {
          expect(links(ad), `${viewer}: ${ad.id}`).toEqual(linksFor(stored.get(ad.id)!, ad.is_clear));
        }
      }
      const locked = (await listAds('anonymous')).ads[6]!;
      expect(locked).toMatchObject({
        is_clear: false,
        preview_path: stored.get(locked.id)!.preview_path,
        width: 1080,
        height: 1350,
        thumbhash: 'YJqGPQw7sFlslqhFafSE+Q6oJ1h2iHB2Rw==',
      });
      // Every viewer of an ad gets the same link during a window, so caches keep working.
      const clearId = [...sample][0]!;
      const served = new Set<string | null>();
      for (const viewer of ['anonymous', 'free', 'subscriber', 'admin'] as const) served.add((await getAd(viewer, clearId))!.display_960_url);
      expect(served.size).toBe(1);
    });

    it('always shows ads that do not require a subscription clear, on top of the sample, filtered or not', async () => {
      const free = [library[29]!.id, library[62]!.id];
      expect(free.some((id) => sample.has(id))).toBe(false);
      await setRequiresSubscription(ctx.db, free, false);
      try {
        const clear = union(sample, free);
        const pages = await listAllPages('anonymous');
        expect(pages.map((page) => ids(page.ads))).toEqual(servedPages(library, clear));
        expect(ids(pages[0]!.ads.filter((ad) => ad.is_clear))).toEqual(ids(library.slice(0, 60)).filter((id) => clear.has(id)));
        expect(ids(pages[1]!.ads.filter((ad) => ad.is_clear))).toEqual([library[62]!.id, library[64]!.id]);
        const filtered = concatenatePages(await listAllPages('anonymous', { brandIds: [library[0]!.brandId] }));
        expect(ids(filtered)).toEqual(servedPages(library, clear).flat());
        expect(filtered.filter((ad) => ad.is_clear).every((ad) => ad.display_480_url !== null)).toBe(true);
      } finally {
        await setRequiresSubscription(ctx.db, free, true);
      }
      expect(await sampleIds(ctx.db)).toEqual(sample);
    });
  });

  describe('nothing a viewer does adds to what they see clear', () => {
    let library: SeededAd[];
    let blackFriday: SeededAd[];
    let sample: Set<string>;

    beforeAll(async () => {
      await clearLibrary(ctx.db);
      const brandId = (await newBrand(ctx.db)).id;
      const categoryId = (await newCategory(ctx.db)).id;
      const published = await insertAds(ctx.db, { count: 65, brandId, categoryId, start: '2026-01-01T00:00:00Z' });
      library = newestFirst(published);
      blackFriday = newestFirst(await insertAds(ctx.db, {
        count: 5, brandId, categoryId, start: '2026-01-01T00:00:30Z', step: '10 minutes', tagIds: [await systemTagId(ctx.db, 'black_friday')],
      }));
      sample = everyTenth(published);
    });

    /** What a viewer is shown of each ad, in the order shown: everything but the time a board's ad was saved. */
    const shown = (ads: ListedAd[]) => ads.map(({ saved_at: _, ...ad }) => ad);

    it('a flagged profile gets nothing more than any free account', async () => {
      const freeBoard = await newBoard(ctx.db, people.free, `Board ${randomUUID()}`);
      const flaggedBoard = await newBoard(ctx.db, people.flagged, `Board ${randomUUID()}`);
      const saved = [library[0]!.id, library[4]!.id, library[10]!.id, blackFriday[0]!.id];
      await ctx.db.query(
        'insert into public.user_collection_items (collection_id, ad_id) select c, unnest($2::uuid[]) from unnest($1::uuid[]) c',
        [[freeBoard, flaggedBoard], saved]);

      const queries: ListArgs[] = [{}, { board: 'top-picks' }, { board: 'black-friday' }, { brandIds: [library[0]!.brandId] }, { search: 'a' }];
      for (const args of queries) {
        const free = concatenatePages(await listAllPages('free', args));
        expect(shown(concatenatePages(await listAllPages('flagged', args))), JSON.stringify(args)).toEqual(shown(free));
      }
      for (const ad of [...library, ...blackFriday]) {
        expect(await getAd('flagged', ad.id)).toEqual(await getAd('free', ad.id));
      }
      expect(shown((await listCollection('flagged', flaggedBoard)).ads)).toEqual(shown((await listCollection('free', freeBoard)).ads));

      // Both see the sample and, signed in, the Black Friday ads clear: the flag adds nothing to either.
      const flaggedClear = concatenatePages(await listAllPages('flagged')).filter((ad) => ad.is_clear);
      expect(new Set(ids(flaggedClear))).toEqual(sample);
      expect(concatenatePages(await listAllPages('flagged', { board: 'black-friday' })).every((ad) => ad.is_clear)).toBe(true);
    });

    it('clears nothing more for a viewer who walked every page, filtered, opened ads and saved them, and keeps no record of it', async () => {
      for (let walk = 0; walk < 2; walk += 1) {
        await listAllPages('free');
        await listAllPages('free', { brandIds: [library[0]!.brandId] });
        for (const ad of library.slice(0, 10)) await getAd('free', ad.id);
      }
      const filtered = concatenatePages(await listAllPages('free', { brandIds: [library[0]!.brandId] }));
      expect(ids(filtered)).toEqual(servedPages(library, sample).flat());
      expect(new Set(ids(filtered.filter((ad) => ad.is_clear)))).toEqual(sample);
      // The first ads of the first page, opened twice, are still locked unless in the sample.
      for (const ad of library.slice(0, 10)) {
        expect((await getAd('free', ad.id))!.is_clear, ad.id).toBe(sample.has(ad.id));
      }

      const board = await newBoard(ctx.db, people.free, `Board ${randomUUID()}`);
      const saved = ids(library.slice(0, 12));
      await ctx.db.query('insert into public.user_collection_items (collection_id, ad_id) select $1, unnest($2::uuid[])', [board, saved]);
      const page = await listCollection('free', board);
      expect(new Set(ids(page.ads.filter((ad) => ad.is_clear)))).toEqual(new Set(saved.filter((id) => sample.has(id))));

      // Another signed-in user who did none of it sees exactly the same.
      const others = concatenatePages(await listAllPages('other', { brandIds: [library[0]!.brandId] }));
      expect(shown(others)).toEqual(shown(filtered));
      // There is nowhere to record what a viewer was served.
      const { rows } = await ctx.db.query<{ table: string | null }>(`select to_regclass('public.ad_unlocks')::text as table`);
      expect(rows).toEqual([{ table: null }]);
    });
  });

  describe('filters, search and cursors', () => {
    const start = Date.parse('2026-01-01T00:00:00Z');
    const at = (minutes: number) => new Date(start + minutes * 60_000).toISOString();
    const notBefore = (ad: SeededAd, since: string) => Date.parse(ad.createdAt) >= Date.parse(since);
    interface Names { brands: Map<string, string>; categories: Map<string, string>; types: Map<string, string>; tags: Map<string, string> }
    const names: Names = { brands: new Map(), categories: new Map(), types: new Map(), tags: new Map() };
    let model: SeededAd[];
    let blackFriday: SeededAd[];
    let freeAds: string[];
    const d = {} as Record<'acme' | 'bolt' | 'apparel' | 'beauty' | 'odds' | 'video' | 'still' | 'pastel' | 'quirky' | 'fuel' | 'rare', string>
      & Record<'percent' | 'percentDecoy' | 'underscore' | 'underscoreDecoy' | 'backslash' | 'backslashDecoy', string>;

    beforeAll(async () => {
      await clearLibrary(ctx.db);
      const named = async (map: Map<string, string>, make: Promise<{ id: string; name: string }>) => {
        const row = await make;
        map.set(row.id, row.name);
        return row.id;
      };
      d.acme = await named(names.brands, newBrand(ctx.db, 'Acme Rockets'));
      d.bolt = await named(names.brands, newBrand(ctx.db, 'Bolt Shoes'));
      d.percent = await named(names.brands, newBrand(ctx.db, 'Fifty%Off'));
      d.percentDecoy = await named(names.brands, newBrand(ctx.db, 'FiftyXOff'));
      d.underscore = await named(names.brands, newBrand(ctx.db, '50_50 Club'));
      d.underscoreDecoy = await named(names.brands, newBrand(ctx.db, '5005 Club'));
      d.backslash = await named(names.brands, newBrand(ctx.db, 'Back\\Slash Co'));
      d.backslashDecoy = await named(names.brands, newBrand(ctx.db, 'BackSlash Ltd'));
      d.apparel = await named(names.categories, newCategory(ctx.db, 'Apparel'));
      d.beauty = await named(names.categories, newCategory(ctx.db, 'Beauty Kits'));
      d.odds = await named(names.categories, newCategory(ctx.db, 'Odds'));
      d.pastel = await named(names.tags, newTag(ctx.db, 'Pastel'));
      d.quirky = await named(names.tags, newTag(ctx.db, 'Quirky'));
      d.fuel = await named(names.tags, newTag(ctx.db, 'Rocket Fuel'));
      d.rare = await named(names.tags, newTag(ctx.db, 'Rare Gem'));
      d.video = await named(names.types, newType(ctx.db, 'Video'));
      d.still = await named(names.types, newType(ctx.db, 'Still'));
      const blackFridayTag = await systemTagId(ctx.db, 'black_friday');

      model = [
        ...(await insertAds(ctx.db, { count: 70, brandId: d.acme, categoryId: d.apparel, typeId: d.video, tagIds: [d.pastel, d.quirky], start: at(0), step: '2 minutes' })),
        ...(await insertAds(ctx.db, { count: 70, brandId: d.bolt, categoryId: d.beauty, tagIds: [d.pastel], start: at(1), step: '2 minutes' })),
        ...(await insertAds(ctx.db, { count: 25, brandId: d.acme, categoryId: d.beauty, typeId: d.still, tagIds: [d.quirky, d.fuel], start: at(0.5), step: '4 minutes' })),
        // Five ads at one instant, so ties meet the filters too.
        ...(await insertAds(ctx.db, { count: 5, brandId: d.bolt, categoryId: d.apparel, typeId: d.video, start: at(50), step: '0' })),
        // A tag on three ads only: far rarer than the tags it is combined with.
        ...(await insertAds(ctx.db, { count: 3, brandId: d.acme, categoryId: d.apparel, tagIds: [d.pastel, d.quirky, d.rare], start: at(61.5), step: '7 minutes' })),
      ];
      for (const brandId of [d.percent, d.percentDecoy, d.underscore, d.underscoreDecoy, d.backslash, d.backslashDecoy]) {
        model.push(...(await insertAds(ctx.db, { count: 2, brandId, categoryId: d.odds, start: at(300) })));
      }
      // Black Friday ads share the brands, category, type and tags of library ads, and must never show with them.
      blackFriday = await insertAds(ctx.db, {
        count: 8, brandId: d.acme, categoryId: d.beauty, typeId: d.still, tagIds: [d.quirky, d.fuel, d.pastel, blackFridayTag], start: at(10),
      });
      model = newestFirst(model);
      freeAds = [model[3]!.id, model[100]!.id];
      await setRequiresSubscription(ctx.db, freeAds, false);
    });

    const matches = (ad: SeededAd, search: string) => {
      const needle = search.toLowerCase();
      const type = ad.typeId ? names.types.get(ad.typeId) : undefined;
      return [names.brands.get(ad.brandId), names.categories.get(ad.categoryId), type, ...ad.tagIds.map((id) => names.tags.get(id))]
        .some((name) => name !== undefined && name.toLowerCase().includes(needle));
    };

    /** A query, the ads it must return, and how many pages of 60 that makes. */
    interface FilterCase { title: string; args: () => ListArgs; keeps: (ad: SeededAd) => boolean; pages: number }
    const filterCases: FilterCase[] = [
      { title: 'brand', args: () => ({ brandIds: [d.acme] }), keeps: (ad) => ad.brandId === d.acme, pages: 2 },
      { title: 'category', args: () => ({ categoryIds: [d.beauty] }), keeps: (ad) => ad.categoryId === d.beauty, pages: 2 },
      { title: 'type', args: () => ({ typeIds: [d.video] }), keeps: (ad) => ad.typeId === d.video, pages: 2 },
      { title: 'one tag alone', args: () => ({ tagIds: [d.pastel] }), keeps: (ad) => ad.tagIds.includes(d.pastel), pages: 3 },
      {
        title: 'all of two tags',
        args: () => ({ tagIds: [d.quirky, d.pastel] }),
        keeps: (ad) => ad.tagIds.includes(d.quirky) && ad.tagIds.includes(d.pastel),
        pages: 2,
      },
      {
        title: 'all of two tags with a date',
        args: () => ({ tagIds: [d.pastel, d.quirky], since: at(40) }),
        keeps: (ad) => ad.tagIds.includes(d.quirky) && ad.tagIds.includes(d.pastel) && notBefore(ad, at(40)),
        pages: 1,
      },
      {
        title: 'all of two tags, one far rarer than the other',
        args: () => ({ tagIds: [d.pastel, d.rare] }),
        keeps: (ad) => ad.tagIds.includes(d.pastel) && ad.tagIds.includes(d.rare),
        pages: 1,
      },
      {
        title: 'all of three tags, one far rarer than the others',
        args: () => ({ tagIds: [d.rare, d.quirky, d.pastel] }),
        keeps: (ad) => [d.rare, d.quirky, d.pastel].every((tag) => ad.tagIds.includes(tag)),
        pages: 1,
      },
      {
        title: 'all of three tags that only Black Friday ads carry together',
        args: () => ({ tagIds: [d.pastel, d.quirky, d.fuel] }),
        keeps: (ad) => [d.pastel, d.quirky, d.fuel].every((tag) => ad.tagIds.includes(tag)),
        pages: 1,
      },
      {
        title: 'a tag with a category',
        args: () => ({ tagIds: [d.quirky], categoryIds: [d.beauty] }),
        keeps: (ad) => ad.tagIds.includes(d.quirky) && ad.categoryId === d.beauty,
        pages: 1,
      },
      {
        title: 'a tag with a brand and a date',
        args: () => ({ tagIds: [d.pastel], brandIds: [d.bolt], since: at(20) }),
        keeps: (ad) => ad.tagIds.includes(d.pastel) && ad.brandId === d.bolt && notBefore(ad, at(20)),
        pages: 1,
      },
      { title: 'date', args: () => ({ since: at(40) }), keeps: (ad) => notBefore(ad, at(40)), pages: 3 },
      { title: 'search on a brand name, any case', args: () => ({ search: 'ACME rock' }), keeps: (ad) => matches(ad, 'acme rock'), pages: 2 },
      { title: 'search on a category name', args: () => ({ search: 'beauty' }), keeps: (ad) => matches(ad, 'beauty'), pages: 2 },
      { title: 'search on a tag name', args: () => ({ search: 'astel' }), keeps: (ad) => matches(ad, 'astel'), pages: 3 },
      { title: 'search on a type name', args: () => ({ search: 'VIDE' }), keeps: (ad) => matches(ad, 'vide'), pages: 2 },
      { title: 'search on a type name with a brand', args: () => ({ search: 'still', brandIds: [d.acme] }), keeps: (ad) => matches(ad, 'still') && ad.brandId === d.acme, pages: 1 },
      {
        title: 'search matching a brand and a tag of the same ads',
        args: () => ({ search: '  Rocket ' }),
        keeps: (ad) => matches(ad, 'rocket'),
        pages: 2,
      },
      {
        title: 'search with a type and a date',
        args: () => ({ search: 'a', typeIds: [d.video], since: at(30) }),
        keeps: (ad) => matches(ad, 'a') && ad.typeId === d.video && notBefore(ad, at(30)),
        pages: 1,
      },
    ];

    it.each(filterCases)('filters by $title, paging through every result once, newest first ($pages pages)', async ({ args, keeps, pages }) => {
      const expected = model.filter(keeps);
      expect(Math.max(1, Math.ceil(expected.length / 60))).toBe(pages);
      const listed = await listAllPages('subscriber', args());
      expect(listed).toHaveLength(pages);
      expect(ids(concatenatePages(listed))).toEqual(ids(expected));
      // The first page says how many there are, counted; the pages after it do not.
      expect(listed[0]).toMatchObject({ total: expected.length, total_is_estimate: false });
      expect(listed.slice(1).map((page) => 'total' in page)).toEqual(listed.slice(1).map(() => false));
    });

    it('keeps each tag\'s ad count equal to its ad_tags rows', async () => {
      const { rows } = await ctx.db.query<{ tag_id: string; kept: string | null; actual: string | null }>(
        `select coalesce(c.tag_id, t.tag_id) as tag_id, c.ads::text as kept, t.ads::text as actual
           from private.tag_ad_counts c
           full join (select tag_id, count(*) as ads from public.ad_tags group by tag_id) t on t.tag_id = c.tag_id`);
      const mismatched = rows.filter((row) => (row.kept ?? '0') !== (row.actual ?? '0'));
      expect(mismatched).toEqual([]);
      const count = (tag: string) => Number(rows.find((row) => row.tag_id === tag)?.actual ?? 0);
      // The cases above combine tags within ten times of each other's ads, and a far rarer one.
      expect(count(d.pastel)).toBeLessThanOrEqual(10 * count(d.quirky));
      expect(count(d.pastel)).toBeGreaterThan(10 * count(d.rare));
    });

    it('never shows more clear than the sample with a filter or a search', async () => {
      const sample = await sampleIds(ctx.db);
      const { rows: [counts] } = await ctx.db.query<{ premium: number }>(
        'select count(*)::int as premium from public.ads where requires_subscription');
      expect(sample.size).toBeGreaterThan(0);
      expect(sample.size).toBeLessThanOrEqual(Math.ceil(counts!.premium / 10));
      const clear = union(sample, freeAds);
      for (const viewer of sampleViewers) {
        const servedClear = new Set<string>();
        for (const { title, args, keeps } of filterCases) {
          const pages = await listAllPages(viewer, args());
          // Each page: the query's ads in time order, the sample's and the free ones first.
          expect(pages.map((page) => ids(page.ads)), `${viewer}, ${title}`).toEqual(servedPages(model.filter(keeps), clear));
          for (const ad of pages.flatMap((page) => page.ads)) {
            if (ad.is_clear) servedClear.add(ad.id);
            expect({ preview: ad.preview_url !== null, display: [ad.display_480_url !== null, ad.display_960_url !== null] })
              .toEqual({ preview: !ad.is_clear, display: [ad.is_clear, ad.is_clear] });
          }
        }
        expect([...servedClear].filter((id) => !clear.has(id)), viewer).toEqual([]);
      }
    });

    it('treats %, _ and \\ in a search as the characters themselves, not as wildcards', async () => {
      const brandsFound = async (search: string) =>
        [...new Set(concatenatePages(await listAllPages('subscriber', { search })).map((ad) => ad.brand_name))].sort();
      expect(await brandsFound('y%O')).toEqual(['Fifty%Off']);
      expect(await brandsFound('%')).toEqual(['Fifty%Off']);
      expect(await brandsFound('0_5')).toEqual(['50_50 Club']);
      expect(await brandsFound('_')).toEqual(['50_50 Club']);
      expect(await brandsFound('k\\S')).toEqual(['Back\\Slash Co']);
      expect(await brandsFound('\\')).toEqual(['Back\\Slash Co']);
      expect(await brandsFound('nothing like this')).toEqual([]);
    });

    it('keeps Black Friday ads out of every library query', async () => {
      const bf = new Set(ids(blackFriday));
      for (const args of [{}, { brandIds: [d.acme] }, { tagIds: [d.fuel] }, { search: 'rocket' }, { search: 'black friday' }]) {
        const rows = concatenatePages(await listAllPages('subscriber', args));
        expect(rows.filter((ad) => bf.has(ad.id))).toEqual([]);
      }
      const board = concatenatePages(await listAllPages('subscriber', { board: 'black-friday', tagIds: [d.fuel] }));
      expect(ids(board)).toEqual(ids(newestFirst(blackFriday)));
    });

    it('refuses an unknown board and a search longer than 100 characters, and reads a null board as the library', async () => {
      await expectPgError(listAds('subscriber', { board: 'favorites' }), { code: 'P0001', detail: 'unknown_board' });
      // A field given as null is the field left out.
      expect(await listAds('subscriber', { board: null })).toEqual(await listAds('subscriber'));
      await expectPgError(listAds('anonymous', { search: 'x'.repeat(101) }), { code: 'P0001', detail: 'search_too_long' });
      expect((await listAds('anonymous', { search: 'x'.repeat(100) })).ads).toEqual([]);
    });

    describe('the cursor', () => {
      const invalidCursor = { code: '22023', detail: 'invalid_cursor' };
      const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, string>;
      const encode = (payload: unknown) => Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');

      it('refuses a cursor whose payload or signature was changed, a random string, an empty one and a huge one', async () => {
        const first = await listAds('free');
        const [payload, signature] = first.next_cursor!.split('.') as [string, string];
        const original = decode(payload);
        // The payload names the last row of the page in time order, wherever the page shows it, and its time.
        const last = inTimeOrder(first.ads)[59]!;
        expect(original.i).toBe(last.id);
        expect(original.k).toBe(last.created_at);

        const tampered = [
          `${encode({ ...original, i: first.ads[5]!.id })}.${signature}`,
          `${encode({ ...original, k: '2000-01-01T00:00:00.000000Z' })}.${signature}`,
          // The same payload written differently is not the payload that was signed.
          `${encode({ q: original.q, k: original.k, i: original.i })}.${signature}`,
          `${payload}.${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`,
          `${payload}.${signature}x`,
          `${payload}.`,
          payload,
          `${payload}.${signature}.${signature}`,
          'not-a-cursor.at-all',
          randomBytes(40).toString('base64url'),
          '',
          `${'a'.repeat(200_000)}.${signature}`,
          `${encode({ ...original, pad: 'x'.repeat(2_000) })}.${signature}`,
        ];
        for (const cursor of tampered) {
          await expectPgError(listAds('free', { cursor }), invalidCursor);
        }
        // The untouched cursor still works.
        expect(inTimeOrder((await listAds('free', { cursor: first.next_cursor! })).ads)[0]!.id).toBe(model[60]!.id);
      });

      it('refuses a filtered query\'s cursor in the unfiltered query, another filter or another board, and the reverse', async () => {
        const brandCursor = (await listAds('free', { brandIds: [d.acme] })).next_cursor!;
        const plainCursor = (await listAds('free')).next_cursor!;
        const searchCursor = (await listAds('free', { search: 'rocket' })).next_cursor!;
        expect([brandCursor, plainCursor, searchCursor].every((cursor) => cursorFormat.test(cursor))).toBe(true);

        const misuses: [string, ListArgs][] = [
          [brandCursor, {}],
          [brandCursor, { brandIds: [d.bolt] }],
          [brandCursor, { brandIds: [d.acme], since: at(0) }],
          // The same id passed as another filter is another query.
          [brandCursor, { categoryIds: [d.acme] }],
          [brandCursor, { typeIds: [d.acme] }],
          [brandCursor, { tagIds: [d.acme] }],
          [brandCursor, { search: d.acme }],
          [brandCursor, { brandIds: [d.acme], board: 'top-picks' }],
          [plainCursor, { brandIds: [d.acme] }],
          [plainCursor, { board: 'top-picks' }],
          [plainCursor, { board: 'black-friday' }],
          [plainCursor, { search: 'a' }],
          [searchCursor, { search: 'rockets' }],
          [searchCursor, {}],
        ];
        for (const [cursor, args] of misuses) {
          await expectPgError(listAds('free', { ...args, cursor }), invalidCursor);
        }
        const acmeAds = model.filter((ad) => ad.brandId === d.acme).length;
        expect((await listAds('free', { brandIds: [d.acme], cursor: brandCursor })).ads).toHaveLength(acmeAds - 60);
      });

      it('offers no way to ask for more than 60 rows', async () => {
        const { rows } = await ctx.db.query<{ args: string }>(
          `select pg_get_function_arguments(p.oid) as args from pg_proc p join pg_namespace n on n.oid = p.pronamespace
            where n.nspname = 'public' and p.proname in ('list_ads', 'list_collection_ads') order by p.proname`);
        expect(rows.map((row) => row.args).join(' ')).not.toMatch(/limit|size|count|offset/i);
        await expectPgError(queryAs(ctx.db, who('free'), 'select public.list_ads(p_limit => 1000)'), { code: '42883' });
        for (const field of ['limit', 'page_size', 'offset', 'count']) {
          await expectPgError(queryAs(ctx.db, who('free'), listAdsStatement, [JSON.stringify({ [field]: 1000 })]), {
            code: 'P0001', detail: 'invalid_filter',
          });
        }
      });
    });
  });

  describe('search across many names', () => {
    it('finds the ads of every matching tag, however many tags match', async () => {
      await clearLibrary(ctx.db);
      const brandId = (await newBrand(ctx.db)).id;
      const categoryId = (await newCategory(ctx.db)).id;
      const ads = await insertAds(ctx.db, { count: 250, brandId, categoryId, start: '2026-01-01T00:00:00Z' });
      // 250 tags whose names all match the search, one ad each.
      await ctx.db.query(
        `with named as (insert into public.tags (name) select 'Zither ' || n from generate_series(1, 250) n returning id, name)
         insert into public.ad_tags (ad_id, tag_id)
         select a.id, named.id from unnest($1::uuid[]) with ordinality as a (id, n) join named on named.name = 'Zither ' || a.n`,
        [ids(ads)],
      );
      const found = concatenatePages(await listAllPages('subscriber', { search: 'zither' }));
      expect(ids(found)).toEqual(ids(newestFirst(ads)));
    });
  });

  describe('the themed boards', () => {
    let library: SeededAd[];
    let blackFriday: SeededAd[];
    let topPicks: SeededAd[];
    let blackFridayTag: string;
    let topPicksTag: string;
    let sample: Set<string>;

    const boardIds = async (board: string) => ids(concatenatePages(await listAllPages('subscriber', { board })));
    const flagsOf = async (id: string) =>
      (await ctx.db.query<{ is_black_friday: boolean; is_top_picks: boolean }>(
        'select is_black_friday, is_top_picks from public.ads where id = $1', [id])).rows[0]!;

    beforeAll(async () => {
      await clearLibrary(ctx.db);
      const brandId = (await newBrand(ctx.db)).id;
      const categoryId = (await newCategory(ctx.db)).id;
      blackFridayTag = await systemTagId(ctx.db, 'black_friday');
      topPicksTag = await systemTagId(ctx.db, 'top_picks');
      const plain = await insertAds(ctx.db, { count: 20, brandId, categoryId, start: '2026-01-01T00:00:00Z' });
      blackFriday = newestFirst(await insertAds(ctx.db, { count: 11, brandId, categoryId, start: '2026-01-01T00:00:30Z', tagIds: [blackFridayTag] }));
      topPicks = newestFirst(await insertAds(ctx.db, { count: 11, brandId, categoryId, start: '2026-01-01T00:00:45Z', tagIds: [topPicksTag] }));
      library = newestFirst([...plain, ...topPicks]);
      // Published 20 plain ads, 11 Black Friday ads, 11 Top Picks, each oldest first: the 1st and 11th of the plain ads and of
      // the Black Friday ads, and the 10th Top Pick.
      sample = await sampleIds(ctx.db);
      expect(sample).toEqual(new Set([plain[0]!.id, plain[10]!.id, blackFriday[10]!.id, blackFriday[0]!.id, topPicks[1]!.id]));
    });

    it('lists the library without the Black Friday ads, and the Black Friday board with only them', async () => {
      expect(await boardIds('library')).toEqual(ids(library));
      expect(await boardIds('black-friday')).toEqual(ids(blackFriday));
    });

    it('sends anonymous visitors to sign in for the Black Friday board', async () => {
      await expectPgError(listAds('anonymous', { board: 'black-friday' }), { code: '42501', detail: 'sign_in_required' });
      await expectPgError(listAds('anonymous', { board: 'black-friday', brandIds: [library[0]!.brandId] }), {
        code: '42501', detail: 'sign_in_required',
      });
    });

    it('shows every Black Friday ad clear to every signed-in viewer, on its board, on Top Picks and on its own page', async () => {
      const signedIn: Viewer[] = ['free', 'flagged', 'expired', 'other', 'trialing', 'subscriber', 'cancelledInPeriod', 'admin'];
      // A Top Pick outside the sample joins the Black Friday board too.
      const both = topPicks[10]!.id;
      expect(sample.has(both)).toBe(false);
      await ctx.db.query('insert into public.ad_tags (ad_id, tag_id) values ($1, $2)', [both, blackFridayTag]);
      try {
        const board = newestFirst([...blackFriday, topPicks[10]!]);
        for (const viewer of signedIn) {
          const page = await listAds(viewer, { board: 'black-friday' });
          expect(ids(page.ads), viewer).toEqual(ids(board));
          expect(page.ads.every((ad) => ad.is_clear && links(ad).display960 !== null), viewer).toBe(true);
          for (const ad of board) expect((await getAd(viewer, ad.id))!.is_clear, `${viewer}: ${ad.id}`).toBe(true);
          const picks = await listAds(viewer, { board: 'top-picks' });
          expect(picks.ads.find((row) => row.id === both)!.is_clear, viewer).toBe(true);
        }
        // Anonymous visitors see a Black Friday ad clear only when it is in the sample.
        const picks = await listAds('anonymous', { board: 'top-picks' });
        expect(picks.ads.find((row) => row.id === both)).toMatchObject({ is_clear: false, display_480_url: null, display_960_url: null });
        for (const ad of board) expect((await getAd('anonymous', ad.id))!.is_clear, ad.id).toBe(sample.has(ad.id));
      } finally {
        await ctx.db.query('delete from public.ad_tags where ad_id = $1 and tag_id = $2', [both, blackFridayTag]);
      }
      // The board is all a signed-in free viewer gets: the library shows them the sample, as anyone.
      for (const viewer of ['free', 'flagged'] as const) {
        expect(ids((await listAds(viewer)).ads), viewer).toEqual(servedPages(library, sample)[0]);
      }
    });

    it('lists only ads carrying the top_picks tag on Top Picks, the sample clear and first for anonymous, free and flagged viewers', async () => {
      expect(await boardIds('top-picks')).toEqual(ids(topPicks));
      for (const viewer of ['anonymous', 'free', 'flagged'] as const) {
        const board = await listAds(viewer, { board: 'top-picks' });
        expect(ids(board.ads), viewer).toEqual(servedPages(topPicks, sample)[0]);
        expect(clearFlags(board), viewer).toEqual(leadingClear(11, 1));
      }
      expect(clearFlags(await listAds('subscriber', { board: 'top-picks' })).every(Boolean)).toBe(true);
    });

    it('moves an ad between boards as its system tags are added and removed', async () => {
      const ad = library.find((row) => !ids(topPicks).includes(row.id))!.id;
      expect(await flagsOf(ad)).toEqual({ is_black_friday: false, is_top_picks: false });

      await ctx.db.query('insert into public.ad_tags (ad_id, tag_id) values ($1, $2), ($1, $3)', [ad, blackFridayTag, topPicksTag]);
      expect(await flagsOf(ad)).toEqual({ is_black_friday: true, is_top_picks: true });
      expect(await boardIds('library')).not.toContain(ad);
      expect(await boardIds('black-friday')).toContain(ad);
      expect(await boardIds('top-picks')).toContain(ad);

      await ctx.db.query('delete from public.ad_tags where ad_id = $1 and tag_id = $2', [ad, blackFridayTag]);
      expect(await flagsOf(ad)).toEqual({ is_black_friday: false, is_top_picks: true });
      expect(await boardIds('library')).toContain(ad);
      expect(await boardIds('black-friday')).not.toContain(ad);

      await ctx.db.query('delete from public.ad_tags where ad_id = $1', [ad]);
      expect(await flagsOf(ad)).toEqual({ is_black_friday: false, is_top_picks: false });
      expect(await boardIds('top-picks')).toEqual(ids(topPicks));
      expect(await boardIds('library')).toEqual(ids(library));
    });

    it('shows a Black Friday ad in the sample clear to anonymous visitors wherever it is listed, like any ad of the sample', async () => {
      const ad = topPicks[1]!.id;
      expect(sample.has(ad)).toBe(true);
      await ctx.db.query('insert into public.ad_tags (ad_id, tag_id) values ($1, $2)', [ad, blackFridayTag]);
      try {
        const board = await listAds('anonymous', { board: 'top-picks' });
        expect(board.ads[0]).toMatchObject({ id: ad, is_clear: true, is_black_friday: true });
        expect(board.ads.slice(1).every((row) => !row.is_clear)).toBe(true);
        expect((await getAd('anonymous', ad))!.is_clear).toBe(true);
      } finally {
        await ctx.db.query('delete from public.ad_tags where ad_id = $1 and tag_id = $2', [ad, blackFridayTag]);
      }
    });
  });

  describe('one ad and its neighbours', () => {
    let library: SeededAd[];
    let blackFriday: SeededAd[];

    beforeAll(async () => {
      await clearLibrary(ctx.db);
      const brandId = (await newBrand(ctx.db)).id;
      const categoryId = (await newCategory(ctx.db)).id;
      const blackFridayTag = await systemTagId(ctx.db, 'black_friday');
      library = newestFirst([
        ...(await insertAds(ctx.db, { count: 3, brandId, categoryId, start: '2026-01-01T00:00:00Z', step: '2 minutes' })),
        // Two ads at one instant: the id orders them.
        ...(await insertAds(ctx.db, { count: 2, brandId, categoryId, start: '2026-01-01T00:03:00Z', step: '0' })),
      ]);
      blackFriday = newestFirst(await insertAds(ctx.db, {
        count: 3, brandId, categoryId, start: '2026-01-01T00:01:00Z', step: '2 minutes', tagIds: [blackFridayTag],
      }));
    });

    it('returns null for an unknown ad', async () => {
      expect(await getAd('subscriber', randomUUID())).toBeNull();
      expect(await getAd('anonymous', randomUUID())).toBeNull();
    });

    it('shows an ad locked to anonymous, free, flagged and expired viewers unless it is in the sample, and clear to entitled ones', async () => {
      // The first ad published, the oldest, is the sample.
      const sampled = library[4]!.id;
      expect(await sampleIds(ctx.db)).toEqual(new Set([sampled]));
      const stored = await storedPaths(ctx.db, ids(library));
      for (const viewer of sampleViewers) {
        for (const { id } of library) {
          const ad = await getAd(viewer, id);
          expect(ad).toMatchObject({ id, is_clear: id === sampled });
          expect(links(ad!), `${viewer}: ${id}`).toEqual(linksFor(stored.get(id)!, id === sampled));
        }
      }
      for (const viewer of entitledViewers) {
        for (const { id } of library) {
          const ad = await getAd(viewer, id);
          expect(ad).toMatchObject({ id, is_clear: true });
          expect(links(ad!)).toEqual(linksFor(stored.get(id)!, true));
        }
      }
    });

    it('shows an ad that does not require a subscription clear to anyone', async () => {
      const id = library[2]!.id;
      await setRequiresSubscription(ctx.db, [id], false);
      try {
        expect((await getAd('anonymous', id))!.is_clear).toBe(true);
        expect((await getAd('free', id))!.display_480_url).not.toBeNull();
      } finally {
        await setRequiresSubscription(ctx.db, [id], true);
      }
    });

    it('shows a Black Friday ad clear on its own page to every signed-in viewer, flagged or not, and locked to anonymous visitors', async () => {
      for (const viewer of ['free', 'flagged', 'expired', 'other'] as const) {
        for (const { id } of blackFriday) expect((await getAd(viewer, id))!.is_clear, `${viewer}: ${id}`).toBe(true);
        expect((await getAd(viewer, library[1]!.id))!.is_clear, viewer).toBe(false);
      }
      for (const { id } of blackFriday) expect((await getAd('anonymous', id))!.is_clear, id).toBe(false);
    });

    it('refuses navigation to anonymous, free, expired and flagged viewers', async () => {
      for (const viewer of sampleViewers) {
        await expectPgError(neighbours(viewer, library[0]!.id), { code: '42501', detail: 'subscription_required' });
      }
    });

    it('gives entitled viewers the previous and next ad, newest first, wrapping at both ends, on the ad\'s own side', async () => {
      for (const viewer of entitledViewers) {
        for (const side of [library, blackFriday]) {
          for (const [index, ad] of side.entries()) {
            expect(await neighbours(viewer, ad.id)).toEqual({
              previous_id: side[(index + side.length - 1) % side.length]!.id,
              next_id: side[(index + 1) % side.length]!.id,
            });
          }
        }
      }
    });

    it('reports an unknown ad to an entitled viewer as not found', async () => {
      await expectPgError(neighbours('subscriber', randomUUID()), { code: 'PT404', detail: 'ad_not_found' });
    });
  });

  describe('a board\'s ads', () => {
    let ads: SeededAd[];
    let blackFriday: SeededAd[];
    let freeBoard: string;
    let bySaved: string[];

    beforeAll(async () => {
      await clearLibrary(ctx.db);
      const brandId = (await newBrand(ctx.db)).id;
      const categoryId = (await newCategory(ctx.db)).id;
      ads = newestFirst(await insertAds(ctx.db, { count: 61, brandId, categoryId, start: '2026-01-01T00:00:00Z' }));
      blackFriday = await insertAds(ctx.db, {
        count: 1, brandId, categoryId, start: '2026-02-01T00:00:00Z', tagIds: [await systemTagId(ctx.db, 'black_friday')],
      });
      freeBoard = await newBoard(ctx.db, people.free, 'Saved for later');
      // Saved oldest ad first, so the board's order (newest saved first) is the reverse of the library's; the first two tie.
      await ctx.db.query(
        `insert into public.user_collection_items (collection_id, ad_id, saved_at)
         select $1, a.id, timestamptz '2026-06-01T00:00:00Z' + greatest(a.n - 1, 1) * interval '1 second'
           from unnest($2::uuid[]) with ordinality as a (id, n)`,
        [freeBoard, ids([...ads].reverse())],
      );
      const tied = [ads[60]!.id, ads[59]!.id].sort().reverse();
      bySaved = [...ids(ads.slice(0, 59)), ...tied];
    });

    it('asks anonymous visitors to sign in, and hides other users\' boards', async () => {
      await expectPgError(listCollection('anonymous', freeBoard), { code: '42501', detail: 'not_authenticated' });
      await expectPgError(listCollection('other', freeBoard), { code: 'PT404', detail: 'board_not_found' });
      await expectPgError(listCollection('admin', freeBoard), { code: 'PT404', detail: 'board_not_found' });
      await expectPgError(listCollection('free', randomUUID()), { code: 'PT404', detail: 'board_not_found' });
    });

    it('lists newest saved first in pages of 60 with a cursor', async () => {
      const first = await listCollection('free', freeBoard);
      expect(first.next_cursor).toMatch(cursorFormat);
      const second = await listCollection('free', freeBoard, first.next_cursor!);
      expect(second.next_cursor).toBeNull();
      expect(ids(concatenatePages([first, second]))).toEqual(bySaved);
      expect(first.ads[0]!.saved_at).toBe('2026-06-01T00:01:00.000000Z');
      expect(second.ads[0]!.saved_at).toBe('2026-06-01T00:00:01.000000Z');

      await expectPgError(listCollection('free', freeBoard, `${first.next_cursor!}x`), { code: '22023', detail: 'invalid_cursor' });
      const otherBoard = await newBoard(ctx.db, people.free, 'Another board');
      await expectPgError(listCollection('free', otherBoard, first.next_cursor!), { code: '22023', detail: 'invalid_cursor' });
      await expectPgError(listAds('free', { cursor: first.next_cursor! }), { code: '22023', detail: 'invalid_cursor' });
    });

    it('shows a board\'s ads clear by the rule of every list: access, a free ad, the sample, and Black Friday ads to their signed-in owner', async () => {
      // Published oldest first: every tenth ad from the oldest is the sample.
      const sample = new Set(ids(ads.filter((_, i) => i % 10 === 0)));
      expect(await sampleIds(ctx.db)).toEqual(sample);
      await setRequiresSubscription(ctx.db, [ads[31]!.id], false);
      try {
        const stored = await storedPaths(ctx.db, ids(ads));
        const first = await listCollection('free', freeBoard);
        const rows = concatenatePages([first, await listCollection('free', freeBoard, first.next_cursor!)]);
        expect(new Set(ids(rows.filter((ad) => ad.is_clear)))).toEqual(union(sample, [ads[31]!.id]));
        for (const ad of rows) expect(links(ad), ad.id).toEqual(linksFor(stored.get(ad.id)!, ad.is_clear));
      } finally {
        await setRequiresSubscription(ctx.db, [ads[31]!.id], true);
      }

      const subscriberBoard = await newBoard(ctx.db, people.subscriber, 'Swipe file');
      const flaggedBoard = await newBoard(ctx.db, people.flagged, 'Ideas');
      await ctx.db.query(
        'insert into public.user_collection_items (collection_id, ad_id) select c, a from unnest($1::uuid[]) c cross join unnest($2::uuid[]) a',
        [[subscriberBoard, flaggedBoard], [ads[1]!.id, blackFriday[0]!.id]],
      );
      expect((await listCollection('subscriber', subscriberBoard)).ads.every((ad) => ad.is_clear)).toBe(true);
      const flagged = await listCollection('flagged', flaggedBoard);
      expect(Object.fromEntries(flagged.ads.map((ad) => [ad.id, ad.is_clear]))).toEqual({ [ads[1]!.id]: false, [blackFriday[0]!.id]: true });
    });
  });

  describe('the shape of the answers', () => {
    let adId: string;
    let brandId: string;
    let categoryId: string;
    let typeId: string;

    beforeAll(async () => {
      await clearLibrary(ctx.db);
      brandId = (await newBrand(ctx.db, 'Shape Brand')).id;
      categoryId = (await newCategory(ctx.db, 'Shape Category')).id;
      typeId = (await newType(ctx.db, 'Shape Type')).id;
      const tags = [await newTag(ctx.db, 'cherry'), await newTag(ctx.db, 'Banana'), await newTag(ctx.db, 'apple')];
      // Published first, a Black Friday ad is the sample; the ad below is not, so a free viewer gets it locked (and it is
      // alone on its side for navigation).
      await insertAds(ctx.db, {
        count: 1, brandId: (await newBrand(ctx.db)).id, categoryId, start: '2026-03-01T00:00:00Z', tagIds: [await systemTagId(ctx.db, 'black_friday')],
      });
      const [ad] = await insertAds(ctx.db, {
        count: 1, brandId, categoryId, typeId, start: '2026-03-04T05:06:07.123456Z', tagIds: tags.map((tag) => tag.id),
      });
      adId = ad!.id;
    });

    it('returns the same keys and formats on every engine, from every function', async () => {
      const expected = {
        id: adId,
        brand_id: brandId,
        brand_name: 'Shape Brand',
        brand_logo_path: null,
        category_id: categoryId,
        category_name: 'Shape Category',
        type_id: typeId,
        type_name: 'Shape Type',
        // Case-insensitive alphabetical, whatever the database's collation.
        tag_names: ['apple', 'Banana', 'cherry'],
        created_at: '2026-03-04T05:06:07.123456Z',
        requires_subscription: true,
        is_black_friday: false,
        is_top_picks: false,
        width: 1080,
        height: 1350,
        thumbhash: 'YJqGPQw7sFlslqhFafSE+Q6oJ1h2iHB2Rw==',
        platforms: null,
        first_seen: null,
        last_seen: null,
        still_running: false,
        is_clear: false,
        display_480_url: null,
        display_960_url: null,
      };
      const stored = (await storedPaths(ctx.db, [adId])).get(adId)!;
      const signed = (path: string) => expect.stringMatching(new RegExp(`^object/sign/ad-images/${path.replace(/\./g, '\\.')}\\?token=`));

      const page = await listAds('free', { brandIds: [brandId] });
      expect(Object.keys(page).sort()).toEqual(['ads', 'next_cursor', 'total', 'total_is_estimate']);
      expect(page).toMatchObject({ next_cursor: null, total: 1, total_is_estimate: false });
      expect(Object.keys(page.ads[0]!).sort()).toEqual(adKeys);
      expect(page.ads[0]).toEqual({
        ...expected,
        preview_path: expect.stringMatching(/^previews\/[0-9a-f]+-1\.webp$/),
        preview_url: signed(stored.preview_path),
      });
      expect(links(page.ads[0]!)).toEqual(linksFor(stored, false));

      // The detail page's answer adds all the ad's facts with its running days (docs/decisions/0031); the cards carry only what they show.
      const detail = await getAd('subscriber', adId);
      expect(Object.keys(detail!).sort()).toEqual([...adKeys, 'facts'].sort());
      expect(detail).toEqual({
        ...expected,
        facts: expect.objectContaining({ placement: 'portrait', placement_derived: true, running_days: null, hook_name: null }),
        preview_path: stored.preview_path,
        is_clear: true,
        preview_url: null,
        display_480_url: signed(stored.display_480_path),
        display_960_url: signed(stored.display_960_path),
      });
      expect(links(detail!)).toEqual(linksFor(stored, true));
      expect(detail!.created_at).toMatch(isoMicros);

      const board = await newBoard(ctx.db, people.subscriber, 'Shapes');
      await ctx.db.query(
        `insert into public.user_collection_items (collection_id, ad_id, saved_at) values ($1, $2, '2026-05-06T07:08:09Z')`, [board, adId]);
      const saved = await listCollection('subscriber', board);
      expect(Object.keys(saved).sort()).toEqual(['ads', 'next_cursor']);
      expect(Object.keys(saved.ads[0]!).sort()).toEqual([...adKeys, 'saved_at'].sort());
      expect(saved.ads[0]!.saved_at).toBe('2026-05-06T07:08:09.000000Z');

      expect(await neighbours('subscriber', adId)).toEqual({ previous_id: adId, next_id: adId });
    });
  });
});
