import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../local/db/database.ts';
import { queryAs, userActor } from '../support/acting.ts';
import { describeOnEngines } from '../support/engines.ts';
import { newBrand, newCategory, newPersonas, type Personas } from '../support/factories.ts';
import type { ListedAd } from '../support/listed-ad.ts';

/**
 * A rare search in the longest-running order reads each stream, running ads by first sighting and ended ones by the
 * days between first and last sighting, a block of 512, 64, 8 or 1 days at a time through the search index
 * (private.search_running_blocks). Here the 3,000 newest ads hold none of the searched words, so every search below is rare; its
 * matches sit on the blocks' edges, tie across the two streams, crowd one block with more than a block may hold
 * (330 ads ended after 10 to 17 days), and some have no dates. Every answer is compared, page by page, with the
 * order worked out here from the dates alone.
 */

interface AdPage {
  ads: ListedAd[];
  next_cursor: string | null;
}

interface Row {
  at: string;
  headline?: string;
  imageText?: string;
  brand?: 'other';
  firstSeen?: string;
  lastSeen?: string;
  running?: boolean;
}

interface Seeded extends Row {
  id: string;
}

const DAY = 86_400_000;
const ids = (ads: { id: string }[]) => ads.map((ad) => ad.id);
const FILLERS = 3_000;
const WORDS = { running: 'glimmerquay', ended: 'orchidvane' } as const;

describeOnEngines('a rare search in the longest-running order, read a block of running days at a time', (ctx) => {
  let people: Personas;
  let brandId: string;
  let otherBrandId: string;
  let categoryId: string;
  let today: number;
  let all: Seeded[] = [];

  /** The UTC day `days` before today, as YYYY-MM-DD. */
  const daysAgo = (days: number) => new Date(today - days * DAY).toISOString().slice(0, 10);
  /** Days since 1970-01-01 of a YYYY-MM-DD day: a running ad's key. */
  const epochDay = (day: string) => Math.round(Date.parse(`${day}T00:00:00Z`) / DAY);

  async function listAds(args: { search: string; brandId?: string; cursor?: string }): Promise<AdPage> {
    const [row] = await queryAs<{ page: AdPage }>(
      ctx.db,
      userActor(people.subscriber),
      `select public.list_ads(p_search => $1::text, p_sort => 'longest_running', p_brand_id => $2::uuid, p_cursor => $3::text) as page`,
      [args.search, args.brandId ?? null, args.cursor ?? null],
    );
    return row!.page;
  }

  async function listAll(args: { search: string; brandId?: string }) {
    const pages = [await listAds(args)];
    while (pages.at(-1)!.next_cursor !== null) {
      if (pages.length > 30) throw new Error('The listing does not end');
      pages.push(await listAds({ ...args, cursor: pages.at(-1)!.next_cursor! }));
    }
    return { pages, ads: pages.flatMap((page) => page.ads) };
  }

  /** Longest running first (a running ad to today), ties by id; then the ads without both dates, by id. */
  function longestFirst(ads: Seeded[]): string[] {
    const days = (ad: Seeded) =>
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
  async function insertAds(db: Database, rows: Row[]): Promise<Seeded[]> {
    const prefix = randomBytes(8).toString('hex');
    return db.transaction(async (tx) => {
      await tx.query(
        `insert into storage.objects (bucket_id, name, metadata)
         select f.bucket_id, replace(f.pattern, '#', g::text), jsonb_build_object('mimetype', f.mimetype, 'size', 1024)
           from generate_series(1, $2::int) g
           cross join (values ('ad-originals', $1::text || '/#/original.jpg', 'image/jpeg'),
                              ('ad-images', $1::text || '/#/480.webp', 'image/webp'),
                              ('ad-images', $1::text || '/#/960.webp', 'image/webp'),
                              ('ad-images', 'previews/' || $1::text || '-#.webp', 'image/webp')) as f (bucket_id, pattern, mimetype)`,
        [prefix, rows.length],
      );
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

    // The newest 3,000 ads, dated too, hold neither word: both searches are rare.
    for (let n = 0; n < FILLERS; n += 1) {
      rows.push({ at: new Date(today - 2 * DAY + n * 20_000).toISOString(), headline: 'Nothing to find here',
        firstSeen: daysAgo(n % 700), running: n % 3 === 0, lastSeen: n % 3 === 0 ? undefined : daysAgo(Math.max(0, n % 700 - (n % 5))) });
    }
    const A = WORDS.running;
    // Running: first seen every 10 days over 900, on and beside each 512- and 64-day block's first and last day,
    // three on one day, one found only as a part of a word, one of the other brand.
    for (let d = 5; d <= 905; d += 10) rows.push(running(A, daysAgo(d), d % 40 === 15 ? { brand: 'other' } : {}));
    for (let key = todayKey - 900; key <= todayKey - 3; key += 1) {
      if (key % 512 === 0 || key % 512 === 511 || (key % 64 === 0 && key % 128 === 0) || key % 64 === 63) {
        rows.push(running(A, new Date(key * DAY).toISOString().slice(0, 10)));
      }
    }
    for (let k = 0; k < 3; k += 1) rows.push(running(A, daysAgo(333)));
    rows.push(running(A, daysAgo(444), { headline: 'Plain words', imageText: `MEGA${A.toUpperCase()}S` }));
    // Ended: a long tail of runs, the same days as running ads (ties across the streams, by id), and 330 ads that ran
    // 10 to 17 days: more than a block may hold, in every block from 512 days down to 8.
    for (let days = 2; days <= 400; days += 7) rows.push(ended(A, daysAgo(days + 30), days, days % 21 === 9 ? { brand: 'other' } : {}));
    // An ended ad for every running one above, as long: the ended stream, read second, must reach the running
    // stream's 60th ad exactly on every page.
    for (let d = 5; d <= 905; d += 10) rows.push(ended(A, daysAgo(d + 41), d + 1));
    for (const d of [105, 205, 305]) {
      rows.push(ended(A, daysAgo(d + 500), d + 1), ended(A, daysAgo(d + 600), d + 1));
    }
    for (let k = 0; k < 330; k += 1) rows.push(ended(A, daysAgo(20 + (k % 200)), 10 + (k % 8), k % 50 === 7 ? { imageText: `X${A.toUpperCase()}` } : {}));
    // Without both dates: never seen, and seen once but not running.
    for (let k = 0; k < 5; k += 1) rows.push({ at: older(), headline: `${A} someday` });
    for (let k = 0; k < 3; k += 1) rows.push({ at: older(), headline: `${A} once`, firstSeen: daysAgo(50 + k) });

    // The ended ads ran longest: their stream is read first.
    const B = WORDS.ended;
    for (let days = 300; days <= 1000; days += 5) rows.push(ended(B, daysAgo(days + 200), days));
    for (let d = 3; d <= 90; d += 3) rows.push(running(B, daysAgo(d)));
    for (let days = 300; days <= 990; days += 20) rows.push(running(B, daysAgo(days - 1)));
    rows.push(ended(B, daysAgo(400), 90), running(B, daysAgo(89)));
    all = await insertAds(ctx.db, rows);
  }, 180_000);

  it('lists every match longest running first across pages, from either stream first', async () => {
    for (const word of Object.values(WORDS)) {
      const expected = longestFirst(matches(word));
      expect(expected.length).toBeGreaterThan(120);
      const { pages, ads } = await listAll({ search: word });
      expect(ids(ads)).toEqual(expected);
      expect(pages.length).toBe(Math.ceil(expected.length / 60));
    }
  });

  it('keeps the other filters in every block', async () => {
    const other = matches(WORDS.running).filter((ad) => ad.brand === 'other');
    expect(other.length).toBeGreaterThan(10);
    expect(ids((await listAll({ search: WORDS.running, brandId: otherBrandId })).ads)).toEqual(longestFirst(other));
  });

  it('follows an ad that stops running: its words are written again', async () => {
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

  describe('the running words', () => {
    it('are a running ad\'s first day and an ended ad\'s run in blocks of 1, 8, 64 and 512 days; none without both dates', async () => {
      const words = async (firstSeen: string | null, lastSeen: string | null, running: boolean) =>
        [...(await ctx.db.query<{ words: string[] }>(
          `select tsvector_to_array(private.search_running_words($1::date, $2::date, $3)) as words`, [firstSeen, lastSeen, running],
        )).rows[0]!.words].sort();
      // 2026-01-01 is day 20,454 since 1970.
      expect(await words('2026-01-01', null, true)).toEqual(['~s0_20454', '~s3_2556', '~s6_319', '~s9_39']);
      expect(await words('2026-01-01', '2026-03-01', true)).toEqual(['~s0_20454', '~s3_2556', '~s6_319', '~s9_39']);
      // Ran 10 days: first_seen - last_seen is -9.
      expect(await words('2026-01-01', '2026-01-10', false)).toEqual(['~e0_-9', '~e3_-2', '~e6_-1', '~e9_-1']);
      expect(await words('2026-01-01', null, false)).toEqual([]);
      expect(await words(null, null, false)).toEqual([]);
    });

    it("a block's keys are read through the words of one level's blocks holding them and at most twice as many", async () => {
      /** Which keys from `from - 600` to `to + 600` an ad of the stream with that key is found at by the range's cover. */
      const covered = async (stream: '~s' | '~e', from: number, to: number, level: number) =>
        (await ctx.db.query<{ key: number; found: boolean }>(
          `select k as key, private.search_running_words(d.first_seen, d.last_seen, $1 = '~s')
                              @@ private.search_running_cover($1, $2, $3, $4) as found
             from generate_series($2 - 600, $3 + 600) k,
                  lateral (select case when $1 = '~s' then date '1970-01-01' + k else date '2026-01-01' + k end as first_seen,
                                  case when $1 = '~s' then null else date '2026-01-01' end as last_seen) d
            order by k`,
          [stream, from, to, level],
        )).rows.filter((row) => row.found).map((row) => row.key);
      const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
      // The ended ads that ran 371 to 483 days, cut from the 512-day block of 1 to 512 days: three 64-day blocks.
      expect(await covered('~e', -482, -370, 9)).toEqual(range(-512, -321));
      // Most of a 512-day block: the block itself.
      expect(await covered('~s', 20037, 20479, 9)).toEqual(range(19968, 20479));
      // The whole block, and one key.
      expect(await covered('~e', -512, -1, 9)).toEqual(range(-512, -1));
      expect(await covered('~e', -3, -3, 9)).toEqual([-3]);
      expect(await covered('~s', 20100, 20100, 6)).toEqual([20100]);
      // Ten keys across an 8-day boundary: two 8-day blocks, not the 64-day one.
      expect(await covered('~s', 20005, 20014, 9)).toEqual(range(20000, 20015));
      // A level narrower than the block's is never widened.
      expect(await covered('~e', -40, -33, 3)).toEqual(range(-40, -33));
      for (const [from, to, level] of [[-300, -250, 9], [20480, 20990, 9], [20481, 20482, 9], [-64, -1, 6], [7, 200, 9]] as const) {
        const found = await covered(from > 0 ? '~s' : '~e', from, to, level);
        expect(found).toEqual(expect.arrayContaining(range(from, to)));
        expect(found.length).toBeLessThanOrEqual(2 * (to - from + 1));
      }
      const { rows } = await ctx.db.query<{ empty: string | null }>(`select private.search_running_cover('~e', 5, 4, 9)::text as empty`);
      expect(rows[0]!.empty).toBeNull();
      await expect(ctx.db.query(`select private.search_running_cover('~x', 1, 2, 9)`)).rejects.toThrow(/Unknown block stream/);
      await expect(ctx.db.query(`select private.search_running_cover('~s', 1, 2, 4)`)).rejects.toThrow(/Unknown block stream/);
    });

    it('are in the search document, and no typed search finds an ad by them', async () => {
      const ad = matches(WORDS.ended).find((row) => !row.running)!;
      const { rows } = await ctx.db.query<{ words: string[] }>(
        `select array(select w from unnest(tsvector_to_array(search_vector)) w where w like '~e%') as words
           from public.ads where id = $1`, [ad.id]);
      const key = epochDay(ad.firstSeen!) - epochDay(ad.lastSeen!);
      expect([...rows[0]!.words].sort()).toEqual([`~e0_${key}`, `~e3_${key >> 3}`, `~e6_${key >> 6}`, `~e9_${key >> 9}`].sort());
      for (const search of [`~e0_${key}`, `e0_${key}`]) {
        expect((await listAds({ search })).ads).toEqual([]);
      }
    });
  });
});
