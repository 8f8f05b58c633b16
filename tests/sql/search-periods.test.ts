import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../local/db/database.ts';
import { anon, queryAs, userActor, type Actor } from '../support/acting.ts';
import { describeOnEngines } from '../support/engines.ts';
import { newBrand, newCategory, newPersonas, type Personas } from '../support/factories.ts';
import type { ListedAd } from '../support/listed-ad.ts';

/**
 * A search that does not fill its page within its walk of the newest ads reads the rest a day, a month or a year of
 * additions at a time through the search index, below the walk's last ad; a search of whole words
 * walks 300 ads, or 3,000 when it meets its words often enough in the first 300. Here 3,100 ads
 * added one a minute make the walk; below it, matches sit on every period's edges (the first and the last instant of
 * a UTC day, month and year), in a tie of one instant, across years and pages. The words differ in how often the
 * walk meets them, which sets how deep it walks and the period the reads start with.
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
}

interface Seeded extends Row {
  id: string;
  createdAt: string;
}

const ids = (ads: { id: string }[]) => ads.map((ad) => ad.id);
const newestFirst = (ads: Seeded[]) =>
  [...ads].sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1));

const WALK_START = Date.parse('2026-11-20T00:00:00Z');
const WALK_ADS = 3_100;
const minute = (n: number) => new Date(WALK_START + n * 60_000).toISOString();

/** Instants on the edges of the periods below the walk, newest first: each gets one match of every word. */
const EDGES = [
  '2026-11-19T23:59:59.999999Z', // the last instant of a day, just below the walk
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

describeOnEngines('a rare search read a period of additions at a time', (ctx) => {
  let people: Personas;
  let brandId: string;
  let otherBrandId: string;
  let categoryId: string;
  let all: Seeded[] = [];
  const who = (viewer: 'anonymous' | 'subscriber'): Actor => (viewer === 'anonymous' ? anon : userActor(people.subscriber));

  async function listAds(args: { search: string; sort?: string; brandId?: string; cursor?: string }, viewer: 'anonymous' | 'subscriber' = 'subscriber'): Promise<AdPage> {
    const [row] = await queryAs<{ page: AdPage }>(
      ctx.db,
      who(viewer),
      `select public.list_ads(p_search => $1::text, p_sort => $2::text, p_brand_id => $3::uuid, p_cursor => $4::text) as page`,
      [args.search, args.sort ?? 'newest', args.brandId ?? null, args.cursor ?? null],
    );
    return row!.page;
  }

  async function listAll(args: { search: string; sort?: string; brandId?: string }, viewer: 'anonymous' | 'subscriber' = 'subscriber') {
    const pages = [await listAds(args, viewer)];
    while (pages.at(-1)!.next_cursor !== null) {
      if (pages.length > 20) throw new Error('The listing does not end');
      pages.push(await listAds({ ...args, cursor: pages.at(-1)!.next_cursor! }, viewer));
    }
    return { pages, ads: pages.flatMap((page) => page.ads) };
  }

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
    // The walk: 3,100 ads, one a minute. `emberloom` is met 5 times in it and `saffronkite` 42 times (two of them
    // only as a part of a word); `quartzwhistle` never. `cobaltfern` is met 20 times in the newest 300, often enough
    // to walk on to 3,000, 9 times more there, and 25 times in the 100 oldest, which only the periods read.
    for (let n = 0; n < WALK_ADS; n += 1) {
      const row: Row = { at: minute(n) };
      if (n % 600 === 7) row.headline = `Autumn ${WORDS.month} throws`;
      if (n % 75 === 3) row.headline = `The ${WORDS.day} studio`;
      if (n === 1004 || n === 2204) row.imageText = `MEGA${WORDS.day.toUpperCase()}S`;
      if ((n >= 2800 && n % 15 === 1) || (n >= 100 && n < 2800 && n % 300 === 0) || (n < 100 && n % 4 === 1)) {
        row.headline = `Deep ${WORDS.dense} knit`;
      }
      rows.push(row);
    }
    // Below the walk: every word on every edge, the other brand on some, parts of words on others.
    EDGES.forEach((at, k) => {
      for (const word of Object.values(WORDS)) {
        rows.push(k % 3 === 2 ? { at, imageText: `un${word}ed` } : { at, headline: `${word} sale`, brand: k % 4 === 1 ? 'other' : undefined });
      }
    });
    for (let k = 0; k < 3; k += 1) for (const word of Object.values(WORDS)) rows.push({ at: TIE, headline: `${word} day` });
    // Enough below the walk to need two more pages: one match a day from August to October, and ads between them.
    for (let day = 0; day < 92; day += 1) {
      const at = Date.parse('2026-08-01T06:00:00Z') + day * 86_400_000;
      // The first three words only: the dense one has enough matches in the walk and on the edges.
      rows.push({ at: new Date(at).toISOString(), headline: `${Object.values(WORDS)[day % 3]} and ${Object.values(WORDS)[(day + 1) % 3]}` });
      rows.push({ at: new Date(at + 3_600_000).toISOString(), headline: 'Nothing to find here' });
    }
    all = await insertAds(ctx.db, rows);
  }, 120_000);

  it('lists every match newest first across pages, whatever period the reads start with', async () => {
    for (const word of Object.values(WORDS)) {
      const expected = ids(newestFirst(matches(word)));
      expect(expected.length).toBeGreaterThan(60);
      const { pages, ads } = await listAll({ search: word });
      expect(ids(ads)).toEqual(expected);
      expect(pages.length).toBe(Math.ceil(expected.length / 60));
    }
  });

  it('orders by relevance: whole words newest first, then the parts of words, below the walk too', async () => {
    for (const word of Object.values(WORDS)) {
      const { ads } = await listAll({ search: word, sort: 'relevance' });
      expect(ids(ads)).toEqual([...ids(newestFirst(wholeWord(word))), ...ids(newestFirst(partOnly(word)))]);
    }
  });

  it('keeps the other filters in every period, and locks what it finds for a visitor without access', async () => {
    const other = newestFirst(matches(WORDS.month).filter((ad) => ad.brand === 'other'));
    expect(other.length).toBeGreaterThan(0);
    expect(ids((await listAll({ search: WORDS.month, brandId: otherBrandId })).ads)).toEqual(ids(other));
    // A page's clear ads come first for a viewer without access: the same ads, compared as sets; a locked one has
    // no image link.
    const anonymous = (await listAll({ search: WORDS.year }, 'anonymous')).ads;
    expect(new Set(ids(anonymous))).toEqual(new Set(ids(matches(WORDS.year))));
    const locked = anonymous.filter((ad) => !ad.is_clear);
    expect(locked.length).toBeGreaterThan(0);
    expect(locked.every((ad) => ad.display_960_url === null && ad.display_480_url === null)).toBe(true);
  });

  it('follows an ad moved to another time: its period words are written again', async () => {
    const moved = newestFirst(matches(WORDS.year)).at(-1)!;
    try {
      await ctx.db.query(`update public.ads set created_at = '2026-09-15T12:00:00Z' where id = $1`, [moved.id]);
      const expected = newestFirst(matches(WORDS.year).map((ad) => (ad.id === moved.id ? { ...ad, createdAt: '2026-09-15T12:00:00.000000Z' } : ad)));
      expect(ids((await listAll({ search: WORDS.year })).ads)).toEqual(ids(expected));
    } finally {
      await ctx.db.query(`update public.ads set created_at = $2 where id = $1`, [moved.id, moved.at]);
    }
    expect(ids((await listAll({ search: WORDS.year })).ads)).toEqual(ids(newestFirst(matches(WORDS.year))));
  });

  describe('whole words from the lexicon', () => {
    // Below the walk of 300 ads that a search of whole words makes: words that begin alike, one beginning shared by
    // more words than the lexicon gives (40), and an ad whose headline changes.
    const ALIKE = ['lanternfish', 'lanternfishes', 'lanternfisher'];
    const MANY = Array.from({ length: 40 }, (_, k) => `zephyrcoat${String(k + 1).padStart(2, '0')}`);
    let alike: Seeded[] = [];
    let many: Seeded[] = [];

    beforeAll(async () => {
      const day = (k: number) => new Date(Date.parse('2026-10-20T09:00:00Z') - k * 86_400_000).toISOString();
      alike = await insertAds(ctx.db, [
        ...ALIKE.flatMap((word, k) => [{ at: day(k), headline: `${word} club` }, { at: day(k + 40), headline: `The ${word}` }]),
        { at: day(7), imageText: 'MINILANTERNFISH' },
      ]);
      many = await insertAds(ctx.db, MANY.map((word, k) => ({ at: day(k), headline: `${word} drop` })));
    }, 60_000);

    it('holds every word of every search document, and never a period word', async () => {
      const { rows } = await ctx.db.query<{ missing: number; periods: number }>(
        `select (select count(*)::int from (select distinct w from public.ads a, unnest(tsvector_to_array(a.search_vector)) w
                                             where left(w, 1) <> '~' except select word from private.search_lexicon) x) as missing,
                (select count(*)::int from private.search_lexicon where left(word, 1) = '~') as periods`);
      expect(rows[0]).toEqual({ missing: 0, periods: 0 });
    });

    it('gives the words that begin so, none, or null past its limit', async () => {
      const beginning = async (text: string) =>
        (await ctx.db.query<{ words: string[] | null }>(`select private.search_words_beginning($1, 32) as words`, [text])).rows[0]!.words;
      expect(await beginning('lanternfis')).toEqual(['lanternfish', 'lanternfisher', 'lanternfishes']);
      expect(await beginning('lanternfishe')).toEqual(['lanternfisher', 'lanternfishes']);
      expect(await beginning('lanternfisz')).toEqual([]);
      expect(await beginning('zephyrcoat')).toBeNull();
      expect(await beginning('zephyrcoat0')).toHaveLength(9);
    });

    it('finds every word that begins with the last word typed, and the text anywhere, newest first', async () => {
      const found = (ads: Seeded[], search: string) =>
        newestFirst(ads.filter((ad) => `${ad.headline ?? ''} ${ad.imageText ?? ''}`.toLowerCase().includes(search)));
      expect(ids((await listAll({ search: 'lanternfis' })).ads)).toEqual(ids(found(alike, 'lanternfis')));
      expect(ids((await listAll({ search: 'lanternfis', sort: 'relevance' })).ads)).toEqual([
        ...ids(newestFirst(alike.filter((ad) => ad.headline))),
        ...ids(alike.filter((ad) => ad.imageText)),
      ]);
      expect(ids((await listAll({ search: 'Lanternfishes' })).ads)).toEqual(ids(found(alike, 'lanternfishes')));
      expect(ids((await listAll({ search: 'the lanternfish' })).ads)).toEqual(ids(newestFirst(alike.filter((ad) => ad.headline?.startsWith('The')))));
      expect((await listAll({ search: 'lanternfisz' })).ads).toEqual([]);
      // More words begin so than the lexicon gives: the search reads them by the beginning, with the same answer.
      expect(ids((await listAll({ search: 'zephyrcoat' })).ads)).toEqual(ids(newestFirst(many)));
    });

    it('knows a word as soon as an ad is written with it, and answers nothing once no ad has it', async () => {
      const ad = alike[0]!;
      try {
        await ctx.db.query(`update public.ads set headline = 'Glimmerwharf coats' where id = $1`, [ad.id]);
        expect(ids((await listAll({ search: 'glimmerwh' })).ads)).toEqual([ad.id]);
      } finally {
        await ctx.db.query(`update public.ads set headline = $2 where id = $1`, [ad.id, ad.headline]);
      }
      expect((await listAll({ search: 'glimmerwh' })).ads).toEqual([]);
      const { rows } = await ctx.db.query(`select 1 from private.search_lexicon where word = 'glimmerwharf'`);
      expect(rows).toHaveLength(1);
    });
  });

  describe('the text anywhere through the lexicon', () => {
    // One word of ASCII letters is read through the lexicon's words that hold it; these texts put
    // it inside other words, next to digits, accents and punctuation, in the walk and below it. The answer must be
    // the ads whose search text holds it, as the trigrams read them.
    const HOLDERS = ['Glowberry sale', 'MEGAGLOWBERRYS', '12E5GLOWBERRY', 'caféglowberry drops', 'shop.glowberry.com',
      'GLOWBERRY2024', 'glow-berry', 'Glow berry', 'unglowberryed'];
    // More words hold this one than the lexicon gives (64): it is read through the trigrams, with the same answer.
    const CROWDED = Array.from({ length: 65 }, (_, k) => `${String.fromCharCode(97 + Math.floor(k / 26), 97 + (k % 26))}wovenquill`);

    beforeAll(async () => {
      const hour = (k: number) => new Date(Date.parse('2026-10-25T10:00:00Z') - k * 3_600_000).toISOString();
      await insertAds(ctx.db, [
        ...HOLDERS.flatMap((text, k) => [{ at: minute(WALK_ADS - 1 - k * 5), imageText: text }, { at: hour(k), imageText: text }]),
        ...CROWDED.map((word, k) => ({ at: hour(k), headline: word })),
      ]);
    }, 60_000);

    /** Every ad whose search text holds the text, newest first, read directly. */
    async function holding(text: string): Promise<string[]> {
      const { rows } = await ctx.db.query<{ id: string }>(
        `select id from public.ads where search_text like '%' || $1 || '%' order by created_at desc, id desc`, [text]);
      return rows.map((row) => row.id);
    }

    it('rests on a rule of the parser: a run of ASCII letters always lies inside one word of the document', async () => {
      // 20,000 texts of letters, digits, accents, symbols and punctuation, the same on every run (setseed), read into
      // words as a search document is; every run of a to z in them must lie inside one of its words.
      const { rows } = await ctx.db.query<{ runs: number; outside: number }>(
        `with t as (
           select g, string_agg(substr('abex120é€ ñ3zq.-/_', 1 + floor(random() * 18)::int, 1), '' order by k) as text
             from (select setseed(0.42)) s, generate_series(1, 20000) g, generate_series(1, 1 + g % 14) k group by g),
         r as (
           select m[1] as run, tsvector_to_array(private.search_words(t.text)) as words
             from t, regexp_matches(t.text, '[a-z]+', 'g') m)
         select count(*)::int as runs,
                count(*) filter (where not exists (select 1 from unnest(r.words) w where strpos(w, r.run) > 0))::int as outside
           from r`);
      expect(rows[0]!.runs).toBeGreaterThan(30_000);
      expect(rows[0]!.outside).toBe(0);
      // Digits are another matter: the parser reads '12e5abc' as '12e5' and 'abc', so 'e5a' is in no word.
      const { rows: split } = await ctx.db.query<{ words: string[] }>(`select tsvector_to_array(private.search_words('12e5abc')) as words`);
      expect([...split[0]!.words].sort()).toEqual(['12e5', 'abc']);
    });

    it('gives the words that hold a part, none, or null past its limit', async () => {
      const containing = async (text: string) =>
        (await ctx.db.query<{ words: string[] | null }>(`select private.search_words_containing($1, 64) as words`, [text])).rows[0]!.words;
      expect(await containing('glowberr')).toEqual(['cafeglowberry', 'glowberry', 'glowberry2024', 'megaglowberrys', 'unglowberryed']);
      expect(await containing('owberry2')).toEqual(['glowberry2024']);
      expect(await containing('glowberrx')).toEqual([]);
      expect(await containing('wovenquill')).toBeNull();
      // Read as itself, not as a pattern.
      expect(await containing('%')).toEqual([]);
    });

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

  describe('the reads below the walk', () => {
    // A word in every ad added one every three hours (8 a day), from June 2026 back to March, all below any walk.
    const WORD = 'larkspurvane';
    const START = Date.parse('2026-06-01T00:00:00Z');
    const COUNT = 720;
    let larkspur: Seeded[] = [];

    beforeAll(async () => {
      larkspur = await insertAds(ctx.db, Array.from({ length: COUNT }, (_, k) => ({
        at: new Date(START - (k + 1) * 3 * 3_600_000).toISOString(),
        headline: `${WORD} throw`,
      })));
    }, 60_000);

    /**
     * private.search_newest_by_periods as list_ads calls it, after a walk of `walkDays` days (ending at START) that
     * met the word `hits` times: the ads it gives, and each read's period words, in the order read.
     */
    async function readBelowWalk(need: number, hits: number, walkDays = 1) {
      return ctx.db.transaction(async (tx) => {
        await tx.query('create temporary table period_reads (n serial, words text) on commit drop');
        const statement = 'with logged as (insert into pg_temp.period_reads (words) select $20::text returning 1) '
          + 'select coalesce(array_agg(r.id order by r.created_at desc, r.id desc), \'{}\') from ('
          + 'select a.id, a.created_at from public.ads a where a.search_vector @@ ($18 && $20)'
          + ' and (a.created_at, a.id) < ($21, $22) and (select count(*) from logged) = 1'
          + ' order by a.created_at desc, a.id desc limit $23) r';
        const walked = `select 300, '${new Date(START).toISOString()}'::timestamptz, '${new Date(START - walkDays * 86_400_000).toISOString()}'::timestamptz,`
          + ` '00000000-0000-0000-0000-000000000000'::uuid`;
        const [found] = (await tx.query<{ ids: string[] }>(
          `select private.search_newest_by_periods($1, $2, 300, $3, $4, null, null, null, null, null, null, null,
                                                   null, null, null, null, null, null, $5::tsquery, null) as ids`,
          [walked, statement, need, hits, `'${WORD}'`],
        )).rows;
        const reads = (await tx.query<{ words: string }>('select words from pg_temp.period_reads order by n')).rows;
        return { ids: found!.ids, reads: reads.map((read) => read.words.split(' | ').map((word) => word.replace(/'/g, ''))) };
      });
    }

    it('reads as many days at once as the page still needs at the rate measured, each read just below the last', async () => {
      // Below the walk's day (May 31), newest first.
      const below = ids(newestFirst(larkspur.filter((ad) => ad.createdAt < '2026-05-31')));
      const { ids: found, reads } = await readBelowWalk(61, 8);
      expect(found).toEqual(below.slice(0, 61));
      // 61 matches and a quarter more at 8 a day: ten days back from May 30, in one read.
      expect(reads[0]).toEqual(Array.from({ length: 10 }, (_, k) => `~d202605${String(21 + k).padStart(2, '0')}`));
      expect(reads.length).toBeLessThanOrEqual(2);
      // Each read's periods follow the last one's without a gap.
      const days = reads.flat().map((word) => word.slice(2)).sort().reverse();
      days.forEach((day, k) => {
        if (k > 0) expect(Date.parse(`${days[k - 1]!.slice(0, 4)}-${days[k - 1]!.slice(4, 6)}-${days[k - 1]!.slice(6)}`) - Date.parse(`${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6)}`)).toBe(86_400_000);
      });
    });

    it('reads months or years at once when the word is rare, and no read expects more than 200 matches', async () => {
      // Met once in the walk's day, the word seems to be found once a day: 76 days back, as months.
      const rare = await readBelowWalk(61, 1);
      expect(rare.ids).toEqual(ids(newestFirst(larkspur.filter((ad) => ad.createdAt < '2026-05-31'))).slice(0, 61));
      expect(rare.reads).toEqual([['~m202603', '~m202604', '~m202605']]);
      // Met once in a walk of 30 days: back to the oldest ad (2023), as years.
      const rarer = await readBelowWalk(61, 1, 30);
      expect(rarer.reads).toEqual([['~y2023', '~y2024', '~y2025', '~y2026']]);
      expect(rarer.ids).toEqual(ids(newestFirst(larkspur.filter((ad) => ad.createdAt < '2026-05-02'))).slice(0, 61));
      // Met 80 times in a day, it is read a few days at a time: at most 200 matches expected, so 2 days and a half.
      const dense = await readBelowWalk(300, 80);
      expect(dense.reads[0]).toEqual(['~d20260528', '~d20260529', '~d20260530']);
      expect(dense.ids).toEqual(ids(newestFirst(larkspur.filter((ad) => ad.createdAt < '2026-05-31'))).slice(0, 300));
    });

    it('names every period of a span in one query, by UTC calendar', async () => {
      const { rows } = await ctx.db.query<{ days: string; months: string; years: string }>(
        `select private.search_periods_query('day', '2025-12-30T23:30:00-05:00', '2026-01-01T00:00:00Z')::text as days,
                private.search_periods_query('month', '2025-11-30T12:00:00Z', '2026-02-01T00:00:00Z')::text as months,
                private.search_periods_query('year', '2024-06-01T00:00:00Z', '2026-01-01T00:00:00Z')::text as years`);
      expect(rows[0]).toEqual({
        days: "'~d20251231' | '~d20260101'",
        months: "'~m202511' | '~m202512' | '~m202601' | '~m202602'",
        years: "'~y2024' | '~y2025' | '~y2026'",
      });
    });
  });

  describe('the period words', () => {
    it('are the UTC day, month and year an ad was added, which no typed search finds', async () => {
      const [row] = (
        await ctx.db.query<{ words: string[] }>(
          `select tsvector_to_array(private.search_period_words('2025-12-31T23:59:59.999999Z')) as words`)
      ).rows;
      expect([...row!.words].sort()).toEqual(['~d20251231', '~m202512', '~y2025']);
      for (const search of ['~y2025', 'y2025', '~d20251231', '20251231']) {
        expect((await listAds({ search })).ads).toEqual([]);
      }
    });
  });
});
