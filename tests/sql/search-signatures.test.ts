import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { as, userActor } from '../support/acting.ts';
import { describeOnEngines } from '../support/engines.ts';
import { newAds, newBrand, newCategory, newPersonas, type Personas } from '../support/factories.ts';
import type { ListedAd } from '../support/listed-ad.ts';
import { planOf } from '../support/query-plan.ts';

/**
 * Each ad keeps a search signature, two bits of 256 for every word of its search document
 * (private.search_signature). A search found often among the newest ads walks the longest-running and
 * recently-seen orders checking the signature in the streams' indexes, and reads from the table only the ads whose
 * signature holds one of its words, to check the words themselves. Here a word is in half of 400 ads, as a word of
 * the headline and inside a longer word of the image text, so the search is common and walks; the running and ended
 * ads tie across the two streams; and one ad's signature holds the word's bits through two other words. Every page
 * is compared with the order worked out here from the dates alone.
 */

interface AdPage {
  ads: ListedAd[];
  next_cursor: string | null;
}

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

/** The filters a filtered walk checks in the streams' indexes beside the signature. */
interface Filters {
  platforms?: string[];
  minRunningDays?: number;
}

const DAY = 86_400_000;
const WORD = 'quillfern';
const ADS = 400;

/** The two bit positions of a word, from the first two bytes of its md5, as private.search_word_bits sets them. */
function wordBits(word: string): number[] {
  const digest = createHash('md5').update(word).digest();
  return [digest[0]!, digest[1]!];
}

describeOnEngines('search signatures: a common search in the dated orders checks its words in the streams', (ctx) => {
  let people: Personas;
  let today: number;
  let ads: Dated[] = [];
  let decoyId: string;

  const daysAgo = (days: number) => new Date(today - days * DAY).toISOString().slice(0, 10);
  const epochDay = (day: string) => Math.round(Date.parse(`${day}T00:00:00Z`) / DAY);

  /** Every page, with each walk of a stream passing at most `walk` ads when it is given (obyect.signed_walk). */
  async function listAll(sort: 'longest_running' | 'recently_seen', search: string, walk?: number, filters: Filters = {}) {
    const pages: AdPage[] = [];
    let cursor: string | null = null;
    do {
      if (pages.length > 10) throw new Error('The listing does not end');
      const rows: { page: AdPage }[] = await as(ctx.db, userActor(people.subscriber), async (q) => {
        if (walk !== undefined) await q.query(`select set_config('obyect.signed_walk', $1, true)`, [String(walk)]);
        return (await q.query<{ page: AdPage }>(
          `select public.list_ads(p_search => $1::text, p_sort => $2::text, p_cursor => $3::text, p_platforms => $4::text[],
                                  p_min_running_days => $5::int) as page`,
          [search, sort, cursor, filters.platforms ?? null, filters.minRunningDays ?? null],
        )).rows;
      });
      const page: AdPage = rows[0]!.page;
      pages.push(page);
      cursor = page.next_cursor;
    } while (cursor !== null);
    return { pages, ids: pages.flatMap((page) => page.ads.map((ad) => ad.id)) };
  }

  /** The matches in the order's key descending, ties by id; then the ads without both dates, by id. */
  function expected(sort: 'longest_running' | 'recently_seen', matching: (ad: Dated) => boolean = (ad) => ad.match): string[] {
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
    // The running ads' days run come in groups of ten (five in the longest group), so the running stream's 60th and
    // 61st matches tie, and the ended ads of that group ran exactly as long: they tie with them across the streams
    // and belong on the first page by id. The other ended ads ran 20 days less, below the first page. Half of the
    // ended ads ended today, so they tie with the running ones in the recently-seen order. One in ten of the
    // matches has no dates.
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
        // Four in five ads ran on TikTok, matches and not, running and ended, with dates or without: common enough
        // for a search on TikTok to walk in this small library (decision 0054's balance).
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

    // An ad whose signature holds both of the word's bits through two other words, and which does not hold the word.
    const { rows: decoys } = await ctx.db.query<{ first: string; second: string }>(
      `with t as (select private.search_word_bits($1) as b),
            c as (select 'decoy' || translate(g::text, '0123456789', 'abcdefghij') as w from generate_series(1, 20000) g),
            one as (select c.w, private.search_word_bits(c.w) as b from c, t
                     where (private.search_word_bits(c.w) & t.b) <> repeat('0', 256)::bit(256) order by c.w limit 1)
       select one.w as first, c.w as second from one, c, t
        where ((one.b | private.search_word_bits(c.w)) & t.b) = t.b order by c.w limit 1`,
      [WORD],
    );
    const decoy = made[1]!;
    decoyId = decoy.id;
    await ctx.db.query('update public.ads set headline = $2 where id = $1', [decoyId, `${decoys[0]!.first} ${decoys[0]!.second}`]);
    // As autovacuum leaves a table: its pages visible to all, so an index-only scan reads no table page.
    await ctx.db.query('vacuum analyze public.ads');
  }, 180_000);

  it("holds both bits of every word of an ad's search document, the first two bytes of its md5", async () => {
    const { rows } = await ctx.db.query<{ missing: number; words: number; periods: number }>(
      `select count(*) filter (where left(w, 1) <> '~' and (a.search_signature & private.search_word_bits(w)) <> private.search_word_bits(w))::int as missing,
              count(*) filter (where left(w, 1) <> '~')::int as words,
              count(*) filter (where left(w, 1) = '~')::int as periods
         from public.ads a, unnest(tsvector_to_array(a.search_vector)) w`,
    );
    expect(rows[0]!.words).toBeGreaterThan(ADS * 3);
    expect(rows[0]!.periods).toBeGreaterThan(0);
    expect(rows[0]!.missing).toBe(0);
    for (const word of [WORD, 'bluequillferns', 'signet']) {
      const { rows: bits } = await ctx.db.query<{ bits: string }>('select private.search_word_bits($1)::text as bits', [word]);
      const set = [...bits[0]!.bits].flatMap((bit, position) => (bit === '1' ? [position] : []));
      expect(set, word).toEqual([...new Set(wordBits(word))].sort((a, b) => a - b));
    }
  });

  it('leaves the period and block words out, and follows a change of the text', async () => {
    const ad = ads.find((x) => !x.match && x.id !== decoyId)!;
    const signature = async () =>
      (await ctx.db.query<{ holds: boolean; bits: number }>(
        `select (search_signature & private.search_word_bits('marigoldveil')) = private.search_word_bits('marigoldveil') as holds,
                length(replace(search_signature::text, '0', '')) as bits
           from public.ads where id = $1`,
        [ad.id],
      )).rows[0]!;
    const before = await signature();
    expect(before.holds).toBe(false);
    // Its words, each two bits (or one, when they fall together), and nothing for its period and block words.
    const { rows } = await ctx.db.query<{ bits: number }>(
      `select length(replace(coalesce(bit_or(private.search_word_bits(w)), repeat('0', 256)::bit(256))::text, '0', '')) as bits
         from public.ads a, unnest(tsvector_to_array(a.search_vector)) w where a.id = $1 and left(w, 1) <> '~'`,
      [ad.id],
    );
    expect(before.bits).toBe(rows[0]!.bits);
    await ctx.db.query(`update public.ads set headline = 'Marigoldveil' where id = $1`, [ad.id]);
    expect((await signature()).holds).toBe(true);
    await ctx.db.query(`update public.ads set headline = 'Plain words' where id = $1`, [ad.id]);
    expect((await signature()).holds).toBe(false);
  });

  it('lists the word longest running first and recently seen first, page by page, without the ad that only looks like it', async () => {
    const { rows: decoy } = await ctx.db.query<{ looks: boolean; holds: boolean }>(
      `select (search_signature & private.search_word_bits($2)) = private.search_word_bits($2) as looks,
              search_vector @@ to_tsquery('simple', $2) as holds
         from public.ads where id = $1`,
      [decoyId, WORD],
    );
    expect(decoy[0]).toEqual({ looks: true, holds: false });
    for (const sort of ['longest_running', 'recently_seen'] as const) {
      const listed = await listAll(sort, WORD);
      expect(listed.pages.length, sort).toBeGreaterThan(1);
      expect(listed.ids, sort).toEqual(expected(sort));
      expect(listed.ids, sort).not.toContain(decoyId);
    }
  });

  it('writes a condition on the signature that every ad the search finds meets', async () => {
    for (const search of [WORD, `${WORD} range`, 'fern ran', 'Ferns', 'bluequill', 'the quillfern']) {
      const [{ condition }] = (await ctx.db.query<{ condition: string | null }>(
        'select private.search_signature_match(private.search_fold($1), 8) as condition', [search])).rows as [{ condition: string | null }];
      expect(condition, search).not.toBeNull();
      // Every ad the newest order lists for it (which reads no signature), page by page.
      const found: string[] = [];
      let cursor: string | null = null;
      do {
        const page: AdPage = (await as(ctx.db, userActor(people.subscriber), async (q) => (await q.query<{ page: AdPage }>(
          'select public.list_ads(p_search => $1::text, p_cursor => $2::text) as page', [search, cursor])).rows[0]!.page));
        found.push(...page.ads.map((ad) => ad.id));
        cursor = page.next_cursor;
      } while (cursor !== null && found.length < 1000);
      expect(found.length, search).toBeGreaterThan(0);
      const { rows } = await ctx.db.query<{ met: number; all: number }>(
        `select count(*) filter (where ${condition})::int as met, count(*)::int as all from public.ads a where a.id = any($1::uuid[])`,
        [found],
      );
      expect(rows[0], search).toEqual({ met: found.length, all: found.length });
    }
  });

  it('lists several words, and a text found across two words, by the bits of the words that hold each part', async () => {
    // "quillfern range" matches as words; "fern ran" only as text anywhere, inside "quillfern" and "range". Either
    // way each run of letters lies in one of the ad's words, whose bits its signature holds.
    for (const search of [`${WORD} range`, 'fern ran']) {
      for (const sort of ['longest_running', 'recently_seen'] as const) {
        const listed = await listAll(sort, search);
        expect(listed.ids, `${search}, ${sort}`).toEqual(expected(sort, (ad) => ad.inHeadline));
        expect(listed.ids.length, `${search}, ${sort}`).toBeGreaterThan(61);
      }
    }
  });

  it('reads the page as a rare search does when a walk passes its most ads without filling it', async () => {
    // Walks of 20 and of 150 ads: the first page's running stream stops short, then a later page's, then only the
    // ended stream's; the answers are the same.
    for (const walk of [20, 150, 260]) {
      for (const sort of ['longest_running', 'recently_seen'] as const) {
        const listed = await listAll(sort, WORD, walk);
        expect(listed.ids, `${sort}, walks of ${walk}`).toEqual(expected(sort));
      }
    }
  });

  describe('with filters', () => {
    // The walk reads the filters' streams, which hold the signature too, and checks the filters
    // there after its limit. 160 of the 400 ads match on TikTok, 82 of them ran at least 22 days.
    const onTiktok = (ad: Dated) => ad.match && ad.tiktok;
    const longEnough = (ad: Dated) => onTiktok(ad) && (ranFor(ad) ?? 0) >= 22;

    it('lists the matches that pass the filters in both orders, page by page, without the ad that only looks like one', async () => {
      for (const sort of ['longest_running', 'recently_seen'] as const) {
        const listed = await listAll(sort, WORD, undefined, { platforms: ['tiktok'] });
        expect(listed.pages.length, sort).toBe(3);
        expect(listed.ids, sort).toEqual(expected(sort, onTiktok));
        expect(ads.find((ad) => ad.id === decoyId)?.tiktok, 'the decoy runs on TikTok').toBe(true);
        expect(listed.ids, sort).not.toContain(decoyId);
        const days = await listAll(sort, WORD, undefined, { platforms: ['tiktok'], minRunningDays: 22 });
        expect(days.ids, `${sort}, 22 days`).toEqual(expected(sort, longEnough));
        expect(days.ids.length, `${sort}, 22 days`).toBe(82);
      }
    });

    it('reads the page as a rare search does when a filtered walk passes its most ads without filling it', async () => {
      for (const walk of [20, 150, 260]) {
        for (const sort of ['longest_running', 'recently_seen'] as const) {
          const listed = await listAll(sort, WORD, walk, { platforms: ['tiktok'], minRunningDays: 22 });
          expect(listed.ids, `${sort}, walks of ${walk}`).toEqual(expected(sort, longEnough));
        }
      }
    });

    it.each([
      ['a.still_running', 'a.first_seen', 'ads_running_since'],
      ['not a.still_running and a.last_seen is not null', '(a.first_seen - a.last_seen)', 'ads_ran_for'],
      ['a.still_running', 'a.id', 'ads_running'],
      ['not a.still_running and a.last_seen is not null', 'a.last_seen desc', 'ads_last_seen'],
    ])('%s by %s checks the filters and the signature in %s', async (stream, order, index) => {
      const plan = await planOf(
        ctx.db,
        `select a.id from (select a.id, a.search_signature, a.is_black_friday, a.is_top_picks, a.still_running, a.first_seen,
                                  a.last_seen, a.created_at, a.colour_swatches, a.platforms, a.format, a.offer, a.hook_id,
                                  a.category_id, a.type_id
                             from public.ads a where not a.is_black_friday and ${stream} order by ${order}, a.id limit 30000) a
          where (a.search_signature & private.search_word_bits('${WORD}')) = private.search_word_bits('${WORD}')
            and not a.is_black_friday and a.platforms && '{tiktok}'::text[]
            and exists (select 1 from public.ads s where s.id = a.id and s.search_vector @@ '${WORD}'::tsquery offset 0)
          limit 61`,
        ['enable_seqscan', 'enable_sort', 'enable_bitmapscan', 'enable_hashjoin', 'enable_mergejoin'],
      );
      expect(plan).toContain(`Index Only Scan using ${index} `);
      expect(plan).toMatch(/Index Scan using ads_pkey on ads s/);
      const filter = plan.split('\n').find((line) => line.includes('Filter:') && line.includes('search_signature'));
      expect(filter).toContain('platforms && ');
    });
  });

  describe('the walk of each stream', () => {
    const streams: [string, string, string][] = [
      ['a.still_running', 'a.first_seen', 'ads_signed_running_since'],
      ['not a.still_running and a.last_seen is not null', '(a.first_seen - a.last_seen)', 'ads_signed_ran_for'],
      ['a.still_running', 'a.id', 'ads_signed_running'],
      ['not a.still_running and a.last_seen is not null', 'a.last_seen desc', 'ads_signed_last_seen'],
    ];
    it.each(streams)('%s by %s checks the signature in %s and reads the table by id only for the ads that pass', async (stream, order, index) => {
      // The statement list_ads runs, as the planner is asked to run it there.
      const plan = await planOf(
        ctx.db,
        `select a.id from (select a.id, a.search_signature from public.ads a where not a.is_black_friday and ${stream}
                            order by ${order}, a.id limit 30000) a
          where ((a.search_signature & private.search_word_bits('${WORD}')) = private.search_word_bits('${WORD}')
                 or (a.search_signature & private.search_word_bits('bluequillferns')) = private.search_word_bits('bluequillferns'))
            and exists (select 1 from public.ads s where s.id = a.id and s.search_vector @@ '${WORD} | bluequillferns'::tsquery offset 0)
          limit 61`,
        ['enable_seqscan', 'enable_sort', 'enable_bitmapscan', 'enable_hashjoin', 'enable_mergejoin'],
      );
      expect(plan).toContain(`Index Only Scan using ${index} `);
      expect(plan).toMatch(/Index Scan using ads_pkey on ads s/);
      expect(plan).toMatch(/Filter: .*search_signature/);
    });

    it("counts a search's matches among the newest ads from the board's index, reading only the ads whose signature holds it", async () => {
      const plan = await planOf(
        ctx.db,
        `select count(*) from (select a.id, a.search_signature from public.ads a where not a.is_black_friday
                                 order by a.created_at desc, a.id desc limit 1000) a
          where (a.search_signature & private.search_word_bits('${WORD}')) = private.search_word_bits('${WORD}')
            and exists (select 1 from public.ads s where s.id = a.id and s.search_vector @@ '${WORD}'::tsquery offset 0)`,
        ['enable_seqscan', 'enable_sort', 'enable_bitmapscan'],
      );
      expect(plan).toContain('Index Only Scan using ads_library_order ');
      expect(plan).toMatch(/Index Scan using ads_pkey on ads s/);
    });
  });
});
