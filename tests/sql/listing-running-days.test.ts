import { randomBytes } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import type { Database } from '../../local/db/database.ts';
import { queryAs, userActor } from '../support/acting.ts';
import { describeOnEngines } from '../support/engines.ts';
import { newBrand, newCategory, newPersonas, systemTagId, newAdObjects, type Personas } from '../support/factories.ts';
import { listAdsStatement, listQueryParameter } from '../support/list-query.ts';
import type { ListedAd } from '../support/listed-ad.ts';

/**
 * The running-days filter in the newest and relevance orders: an ad is listed when it ran at least the asked days
 * (a running ad to today). The ads here ran exactly the asked days, one day less and one day more, running and
 * ended, added at delays short and long, before and after their first sighting; from 10:00 UTC the latest day begun
 * on Earth is tomorrow, and some ads were last seen then.
 */

interface AdPage {
  ads: ListedAd[];
  next_cursor: string | null;
}

/** Days are counted from the database's today (0): -10 is ten days ago. */
interface Run {
  /** The day the ad was added. */
  added: number;
  firstSeen: number;
  lastSeen: number | null;
  stillRunning: boolean;
  board?: 'black-friday' | 'top-picks';
  platforms?: string[];
  headline?: string;
}

interface Seeded extends Run {
  id: string;
  createdAt: string;
}

const ids = (ads: { id: string }[]) => ads.map((ad) => ad.id);
const newestFirst = (ads: Seeded[]) =>
  [...ads].sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1));
/** Running days as decision 0031 counts them, with today as day 0. */
const runningDays = (run: Run): number | null =>
  run.stillRunning ? Math.max(0, run.lastSeen ?? run.firstSeen) - run.firstSeen + 1 : run.lastSeen === null ? null : run.lastSeen - run.firstSeen + 1;

/** Days between first sighting and addition: before it, the same day, a few days, and powers of two on both sides. */
const DELAYS = [-40, -2, -1, 0, 1, 2, 5, 17, 30, 31, 32, 33, 63, 64, 127, 128, 255, 256, 511, 512, 1023, 1024, 1500];
/** The asked days: each gets ads that ran exactly that long, one day less and one day more. */
const THRESHOLDS = [1, 30, 61, 200];
/** Days ran, from a week to two years: ended ads ran each of them, a day less and a day more. */
const RAN_EDGES = [7, 14, 30, 45, 60, 90, 120, 180, 270, 365, 730];

describeOnEngines('listing newest first by running days', (ctx) => {
  let people: Personas;
  let brandId: string;
  let categoryId: string;
  let library: Seeded[] = [];

  interface Listing {
    minRunningDays: number;
    board?: string;
    platforms?: string[];
    search?: string;
    sort?: 'newest' | 'relevance';
  }

  async function listAds(args: Listing & { cursor?: string }): Promise<AdPage> {
    const [row] = await queryAs<{ page: AdPage }>(ctx.db, userActor(people.subscriber), listAdsStatement, [listQueryParameter(args)]);
    return row!.page;
  }

  async function listAll(args: Listing): Promise<{ pages: AdPage[]; ads: ListedAd[] }> {
    const pages = [await listAds(args)];
    while (pages.at(-1)!.next_cursor !== null) {
      if (pages.length > 30) throw new Error('The listing does not end');
      pages.push(await listAds({ ...args, cursor: pages.at(-1)!.next_cursor! }));
    }
    return { pages, ads: pages.flatMap((page) => page.ads) };
  }

  /** Ads with their storage objects, as the database owner; the n-th is added n minutes into its day (n < 1440). */
  async function insertAds(db: Database, runs: Run[]): Promise<Seeded[]> {
    const prefix = randomBytes(8).toString('hex');
    return db.transaction(async (tx) => {
      await newAdObjects(tx, prefix, runs.length);
      const rows = runs.map((run, i) => ({
        n: i + 1,
        added: run.added,
        first_seen: run.firstSeen,
        last_seen: run.lastSeen,
        still_running: run.stillRunning,
        platforms: run.platforms ?? null,
        headline: run.headline ?? null,
      }));
      const inserted = await tx.query<{ id: string; created_at: string; n: number }>(
        `with today as (select (now() at time zone 'UTC')::date as d)
         insert into public.ads (brand_id, category_id, created_at, requires_subscription, original_path, display_480_path,
                                 display_960_path, preview_path, width, height, thumbhash, first_seen, last_seen, still_running,
                                 platforms, headline)
         select $3::uuid, $4::uuid, ((t.d + x.added)::timestamp at time zone 'UTC') + x.n * interval '1 minute', true,
                $1::text || '/' || x.n || '/original.jpg', $1::text || '/' || x.n || '/480.webp', $1::text || '/' || x.n || '/960.webp',
                'previews/' || $1::text || '-' || x.n || '.webp', 1080, 1350, 'YJqGPQw7sFlslqhFafSE+Q6oJ1h2iHB2Rw==',
                t.d + x.first_seen, t.d + x.last_seen, x.still_running, x.platforms, x.headline
           from jsonb_to_recordset($2::jsonb) as x (n int, added int, first_seen int, last_seen int, still_running boolean,
                platforms text[], headline text)
          cross join today t
          order by x.n
         returning id, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_at,
                   ((extract(epoch from created_at)::bigint / 60) % 1440)::int as n`,
        [prefix, JSON.stringify(rows), brandId, categoryId],
      );
      const byN = new Map(inserted.rows.map((row) => [Number(row.n), row]));
      const seeded = runs.map((run, i) => ({ ...run, id: byN.get(i + 1)!.id, createdAt: byN.get(i + 1)!.created_at }));
      // The boards follow their system tags.
      for (const ad of seeded.filter((one) => one.board)) {
        const tagId = await systemTagId(tx, ad.board === 'black-friday' ? 'black_friday' : 'top_picks');
        await tx.query('insert into public.ad_tags (ad_id, tag_id) values ($1, $2)', [ad.id, tagId]);
      }
      return seeded;
    });
  }

  /**
   * For every delay and asked days: ads that ran exactly that long, a day less and a day more. Those last seen on
   * the latest day begun on Earth (today or tomorrow in UTC, `latest`) were first seen as late as their days allow.
   * Running ones count to today, or to the day they were last seen when it is later.
   */
  function edgeRuns(latest: number): Run[] {
    const runs: Run[] = [];
    for (const delay of DELAYS) {
      for (const days of THRESHOLDS) {
        for (const ran of [days - 1, days, days + 1]) {
          if (ran < 1) continue;
          const first = latest - (ran - 1);
          runs.push({ added: first + delay, firstSeen: first, lastSeen: latest, stillRunning: true });
          runs.push({ added: first + delay, firstSeen: first, lastSeen: latest, stillRunning: false });
          runs.push({ added: -(ran - 1) + delay, firstSeen: -(ran - 1), lastSeen: 0, stillRunning: true });
        }
      }
    }
    return runs;
  }

  /**
   * Ended ads that ran a day less than each of RAN_EDGES, that many days and a day more, last seen in the past
   * and added at a delay after their first sighting, short or long.
   */
  function endedRuns(): Run[] {
    return RAN_EDGES.flatMap((edge, i) => [edge - 1, edge, edge + 1].flatMap((ran) => [2, 45].map((delay) => {
      const lastSeen = -1 - ((i * 7 + ran) % 23);
      const firstSeen = lastSeen - (ran - 1);
      return { added: firstSeen + delay, firstSeen, lastSeen, stillRunning: false };
    })));
  }

  beforeAll(async () => {
    await ctx.db.query('delete from public.ads');
    people = await newPersonas(ctx.db);
    brandId = (await newBrand(ctx.db, 'Tallgrass Outfitters')).id;
    categoryId = (await newCategory(ctx.db)).id;
    const { rows } = await ctx.db.query<{ latest: number }>(`select private.latest_today() - (now() at time zone 'UTC')::date as latest`);
    // Every other ad says 'Prairie boots', every seventh 'Wildprairie boots' (the word inside another), every
    // eleventh both, and every thirteenth 'Tumbleweed season', for the searches.
    const headline = (i: number) =>
      i % 13 === 0 ? 'Tumbleweed season'
      : i % 11 === 0 ? 'Wildprairie boots on the prairie'
      : i % 7 === 0 ? 'Wildprairie boots'
      : i % 2 === 0 ? 'Prairie boots for the trail'
      : undefined;
    const runs: Run[] = [...edgeRuns(rows[0]!.latest), ...endedRuns()].map((run, i) => ({ ...run, headline: headline(i) }));
    // A few on the other boards and a running ad of the library on tiktok.
    runs.push({ added: -10, firstSeen: -70, lastSeen: -1, stillRunning: false, board: 'black-friday' });
    runs.push({ added: -10, firstSeen: -70, lastSeen: 0, stillRunning: true, board: 'top-picks', platforms: ['tiktok'] });
    runs.push({ added: 5, firstSeen: -60, lastSeen: 0, stillRunning: true, platforms: ['tiktok'], headline: 'Prairie boots on TikTok' });
    library = await insertAds(ctx.db, runs);
  });

  it.each(RAN_EDGES.flatMap((days) => [days - 1, days, days + 1]))(
    'lists the library ads that ran at least %i days newest first, the ended ones by the days they ran',
    async (days) => {
      const expected = newestFirst(library.filter((ad) => ad.board !== 'black-friday' && (runningDays(ad) ?? 0) >= days));
      expect(expected.filter((ad) => !ad.stillRunning).length).toBeGreaterThan(0);
      const { ads } = await listAll({ minRunningDays: days });
      expect(ids(ads)).toEqual(ids(expected));
    },
  );

  it.each(THRESHOLDS.flatMap((days) => [days - 1, days, days + 1]).filter((days) => days >= 1))(
    'lists the library ads that ran at least %i days newest first, every one once across pages',
    async (days) => {
      const expected = newestFirst(library.filter((ad) => ad.board !== 'black-friday' && (runningDays(ad) ?? 0) >= days));
      expect(expected.length).toBeGreaterThan(0);
      const { ads } = await listAll({ minRunningDays: days });
      expect(ids(ads)).toEqual(ids(expected));
    },
  );

  it('pages through more than one page with a cursor', async () => {
    const expected = newestFirst(library.filter((ad) => ad.board !== 'black-friday' && (runningDays(ad) ?? 0) >= 30));
    expect(expected.length).toBeGreaterThan(120);
    const { pages, ads } = await listAll({ minRunningDays: 30 });
    expect(pages.length).toBe(Math.ceil(expected.length / 60));
    expect(ids(ads)).toEqual(ids(expected));
  });

  it('keeps the board and the other filters', async () => {
    const on = (board: Run['board']) => newestFirst(library.filter((ad) => ad.board === board && (runningDays(ad) ?? 0) >= 60));
    expect(ids((await listAll({ minRunningDays: 60, board: 'top-picks' })).ads)).toEqual(ids(on('top-picks')));
    expect(ids((await listAll({ minRunningDays: 60, board: 'black-friday' })).ads)).toEqual(ids(on('black-friday')));
    const tiktok = newestFirst(library.filter((ad) => ad.board !== 'black-friday' && ad.platforms?.includes('tiktok') && (runningDays(ad) ?? 0) >= 61));
    // The library holds the Top Picks ads too, not the Black Friday ones.
    expect(tiktok).toHaveLength(2);
    expect(ids((await listAll({ minRunningDays: 61, platforms: ['tiktok'] })).ads)).toEqual(ids(tiktok));
  });

  // A search with the running days: the ads that ran long enough and match its words (the last as a word's
  // beginning) or its text anywhere.
  interface Search {
    search: string;
    words: (headline: string) => boolean;
    anywhere: (headline: string) => boolean;
  }
  const SEARCHES: Search[] = [
    { search: 'prairie', words: (headline) => /\bprairie/i.test(headline), anywhere: (headline) => /prairie/i.test(headline) },
    { search: 'tumbleweed', words: (headline) => /\btumbleweed/i.test(headline), anywhere: (headline) => /tumbleweed/i.test(headline) },
    {
      search: 'prairie boo',
      words: (headline) => /\bprairie\b/i.test(headline) && /\bboo/i.test(headline),
      anywhere: (headline) => /prairie boo/i.test(headline),
    },
    // Inside a word: the text anywhere alone.
    { search: 'rairi', words: (headline) => /\brairi/i.test(headline), anywhere: (headline) => /rairi/i.test(headline) },
  ];
  const ranFor = (days: number) => library.filter((ad) => ad.board !== 'black-friday' && (runningDays(ad) ?? 0) >= days);
  /** Newest first in the newest order; in the relevance order, the whole-word matches first, then the others. */
  function expectedFor({ words, anywhere }: Search, days: number, sort: 'newest' | 'relevance'): Seeded[] {
    const ran = ranFor(days);
    if (sort === 'newest') return newestFirst(ran.filter((ad) => words(ad.headline ?? '') || anywhere(ad.headline ?? '')));
    return [
      ...newestFirst(ran.filter((ad) => words(ad.headline ?? ''))),
      ...newestFirst(ran.filter((ad) => !words(ad.headline ?? '') && anywhere(ad.headline ?? ''))),
    ];
  }

  it('holds ads for both tiers of the relevance order, over a page of each where the search is common', () => {
    const tiers = (one: Search) => {
      const ran = ranFor(30);
      return [ran.filter((ad) => one.words(ad.headline ?? '')).length,
              ran.filter((ad) => !one.words(ad.headline ?? '') && one.anywhere(ad.headline ?? '')).length];
    };
    const [prairie, tumbleweed, prairieBoo, rairi] = SEARCHES.map(tiers);
    expect(prairie![0]).toBeGreaterThan(60);
    expect(prairie![1]).toBeGreaterThan(60);
    expect(prairieBoo![1]).toBeGreaterThan(0);
    expect(tumbleweed).toEqual([expect.any(Number), 0]);
    expect(rairi![0]).toBe(0);
    expect(rairi![1]).toBeGreaterThan(60);
  });

  it.each(SEARCHES.flatMap((one) => [1, 30, 61, 200].flatMap((days) =>
    (['newest', 'relevance'] as const).map((sort) => [one.search, days, sort, one] as const))))(
    'lists the ads matching "%s" that ran at least %i days in the %s order across pages',
    async (search, days, sort, one) => {
      const expected = expectedFor(one, days, sort);
      expect(expected.length).toBeGreaterThan(0);
      const { ads } = await listAll({ minRunningDays: days, search, sort });
      expect(ids(ads)).toEqual(ids(expected));
    },
  );

  it('keeps the board and the platforms with a search', async () => {
    const topPicks = newestFirst(library.filter((ad) => ad.board === 'top-picks' && (runningDays(ad) ?? 0) >= 30));
    // No Top Picks ad says 'Prairie'.
    expect((await listAll({ minRunningDays: 30, board: 'top-picks', search: 'prairie' })).ads).toEqual([]);
    expect(topPicks).toHaveLength(1);
    const tiktok = library.filter((ad) => ad.platforms?.includes('tiktok') && ad.headline?.startsWith('Prairie'));
    expect(tiktok).toHaveLength(1);
    expect(ids((await listAll({ minRunningDays: 61, platforms: ['tiktok'], search: 'prairie' })).ads)).toEqual(ids(tiktok));
    expect((await listAll({ minRunningDays: 62, platforms: ['tiktok'], search: 'prairie' })).ads).toEqual([]);
  });

  it('takes in a running ad the day it reaches the asked days, and an ad whose dates are corrected', async () => {
    // Added 40 days after its first sighting, which was 89 days ago: 90 days today.
    const [ad] = await insertAds(ctx.db, [{ added: -49, firstSeen: -89, lastSeen: 0, stillRunning: true }]);
    const listed = async (days: number) => ids((await listAll({ minRunningDays: days })).ads).includes(ad!.id);
    expect(await listed(90)).toBe(true);
    expect(await listed(91)).toBe(false);
    // A day later its dates are a day further back from today: it has run 91 days.
    await ctx.db.query(`update public.ads set first_seen = first_seen - 1, last_seen = last_seen - 1 where id = $1`, [ad!.id]);
    expect(await listed(91)).toBe(true);
    expect(await listed(92)).toBe(false);
    // Its first sighting moved to after it was added, then its run ended after 3 days.
    await ctx.db.query(`update public.ads set first_seen = (now() at time zone 'UTC')::date - 5, last_seen = (now() at time zone 'UTC')::date - 3, still_running = false where id = $1`,
      [ad!.id]);
    expect(await listed(3)).toBe(true);
    expect(await listed(4)).toBe(false);
    await ctx.db.query('delete from public.ads where id = $1', [ad!.id]);
  });

  // The admin, through the API, uploads and edits ads with dates: each write is counted as the admin makes it.
  it('lets the admin add an ad with seen dates, move its first sighting and end its run as the API role', async () => {
    const folder = `lag-${randomBytes(6).toString('hex')}`;
    await ctx.db.query(
      `insert into storage.objects (bucket_id, name) values ('ad-originals', $1), ('ad-images', $2), ('ad-images', $3), ('ad-images', $4)`,
      [`${folder}/original.jpg`, `${folder}/480.webp`, `${folder}/960.webp`, `${folder}/preview.webp`],
    );
    const [inserted] = await queryAs<{ id: string }>(ctx.db, userActor(people.admin),
      `insert into public.ads (brand_id, category_id, original_path, display_480_path, display_960_path, preview_path, width, height,
                               thumbhash, first_seen, last_seen, still_running)
       values ($1, $2, $3, $4, $5, $6, 1080, 1350, 'YJqGPQw7sFlslqhFafSE+Q6oJ1h2iHB2Rw==',
               (now() at time zone 'UTC')::date - 70, (now() at time zone 'UTC')::date, true)
       returning id`,
      [brandId, categoryId, `${folder}/original.jpg`, `${folder}/480.webp`, `${folder}/960.webp`, `${folder}/preview.webp`]);
    expect(ids((await listAll({ minRunningDays: 60 })).ads)).toContain(inserted!.id);
    await queryAs(ctx.db, userActor(people.admin), `update public.ads set first_seen = (now() at time zone 'UTC')::date - 50 where id = $1`, [inserted!.id]);
    expect(ids((await listAll({ minRunningDays: 60 })).ads)).not.toContain(inserted!.id);
    // Its run ends: 46 days ran.
    await queryAs(ctx.db, userActor(people.admin),
      `update public.ads set still_running = false, last_seen = (now() at time zone 'UTC')::date - 5 where id = $1`, [inserted!.id]);
    expect(ids((await listAll({ minRunningDays: 46 })).ads)).toContain(inserted!.id);
    expect(ids((await listAll({ minRunningDays: 47 })).ads)).not.toContain(inserted!.id);
    await ctx.db.query('delete from public.ads where id = $1', [inserted!.id]);
  });
});

