import { randomBytes, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../local/db/database.ts';
import { anon, expectPgError, queryAs, userActor, type Actor } from '../support/acting.ts';
import { describeOnEngines } from '../support/engines.ts';
import { newAdObjects, newBrand, newCategory, newHook, newPersonas, newType, systemTagId, type Personas } from '../support/factories.ts';
import { listAdsStatement, listQueryParameter, type ListQuery } from '../support/list-query.ts';
import type { ListedAd } from '../support/listed-ad.ts';

/**
 * list_ads with several brands, categories, types and hooks at once (an ad matches any of a filter's values), a
 * language and a country; the total its first page gives; and the ads' languages and countries as the filters'
 * options offer them (list_ad_locales, kept by the ads' triggers).
 */

interface AdPage {
  ads: ListedAd[];
  next_cursor: string | null;
  /** On the first page only: how many ads the query finds, and whether that is the planner's estimate. */
  total?: number;
  total_is_estimate?: boolean;
}

interface Locales {
  languages: { code: string; ads: number }[];
  countries: { code: string; ads: number }[];
}

/** An ad as the test writes it; the catalogue's ids, null where the ad has none. */
interface AdSpec {
  brand: string;
  category: string;
  type?: string | null;
  hook?: string | null;
  language?: string | null;
  country?: string | null;
  headline?: string | null;
  blackFriday?: boolean;
}

interface Seeded extends AdSpec {
  id: string;
  createdAt: string;
}

type Viewer = 'anonymous' | 'free' | 'subscriber' | 'admin';
const viewers: Viewer[] = ['anonymous', 'free', 'subscriber', 'admin'];
const invalidFilter = { code: 'P0001', detail: 'invalid_filter' };

const ids = (ads: { id: string }[]) => ads.map((ad) => ad.id);
const newestFirst = (ads: Seeded[]) =>
  [...ads].sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1));

/**
 * Ads in one statement (their storage objects and Black Friday tags in one more each), one minute apart from
 * `start`, oldest first, as the database owner.
 */
async function insertAds(db: Database, start: string, specs: AdSpec[]): Promise<Seeded[]> {
  const prefix = randomBytes(8).toString('hex');
  return db.transaction(async (tx) => {
    await newAdObjects(tx, prefix, specs.length);
    const rows = specs.map((spec, i) => ({
      n: i + 1,
      brand_id: spec.brand,
      category_id: spec.category,
      type_id: spec.type ?? null,
      hook_id: spec.hook ?? null,
      language: spec.language ?? null,
      country: spec.country ?? null,
      headline: spec.headline ?? null,
    }));
    const { rows: inserted } = await tx.query<{ id: string; n: number; created_at: string }>(
      `insert into public.ads (brand_id, category_id, type_id, hook_id, language, country, headline, created_at, original_path,
                               display_480_path, display_960_path, preview_path, width, height, thumbhash)
       select x.brand_id, x.category_id, x.type_id, x.hook_id, x.language, x.country, x.headline,
              $3::timestamptz + (x.n - 1) * interval '1 minute', $1::text || '/' || x.n || '/original.jpg',
              $1::text || '/' || x.n || '/480.webp', $1::text || '/' || x.n || '/960.webp', 'previews/' || $1::text || '-' || x.n || '.webp',
              1080, 1350, 'YJqGPQw7sFlslqhFafSE+Q6oJ1h2iHB2Rw=='
         from jsonb_to_recordset($2::jsonb) as x (n int, brand_id uuid, category_id uuid, type_id uuid, hook_id uuid, language text,
              country text, headline text)
        order by x.n
       returning id, (extract(epoch from created_at - $3::timestamptz) / 60)::int + 1 as n,
                 to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_at`,
      [prefix, JSON.stringify(rows), start],
    );
    const byN = new Map(inserted.map((row) => [Number(row.n), row]));
    const seeded = specs.map((spec, i) => ({ ...spec, id: byN.get(i + 1)!.id, createdAt: byN.get(i + 1)!.created_at }));
    const blackFriday = seeded.filter((ad) => ad.blackFriday).map((ad) => ad.id);
    if (blackFriday.length > 0) {
      await tx.query('insert into public.ad_tags (ad_id, tag_id) select unnest($1::uuid[]), $2', [blackFriday, await systemTagId(tx, 'black_friday')]);
    }
    return seeded;
  });
}

describeOnEngines('listing by several values, a language and a country, with a total', (ctx) => {
  let people: Personas;
  const who = (viewer: Viewer): Actor => (viewer === 'anonymous' ? anon : userActor(people[viewer]));

  async function listAds(viewer: Viewer, query: ListQuery = {}): Promise<AdPage> {
    const [row] = await queryAs<{ page: AdPage }>(ctx.db, who(viewer), listAdsStatement, [listQueryParameter(query)]);
    return row!.page;
  }

  /** The query as JSON text, as a client may write it (nulls, duplicates, wrong types, unknown fields). */
  async function listRaw(viewer: Viewer, query: string): Promise<AdPage> {
    const [row] = await queryAs<{ page: AdPage }>(ctx.db, who(viewer), listAdsStatement, [query]);
    return row!.page;
  }

  /** Every page of a query, following next_cursor to the end. */
  async function listAll(viewer: Viewer, query: ListQuery = {}): Promise<AdPage[]> {
    const pages = [await listAds(viewer, query)];
    while (pages.at(-1)!.next_cursor !== null) {
      if (pages.length > 20) throw new Error('The listing does not end');
      pages.push(await listAds(viewer, { ...query, cursor: pages.at(-1)!.next_cursor! }));
    }
    return pages;
  }

  beforeAll(async () => {
    await ctx.db.query('delete from public.ads');
    people = await ctx.db.transaction((tx) => newPersonas(tx));
  });

  describe('several values of a filter, a language and a country', () => {
    let brands: string[];
    let categories: string[];
    let types: string[];
    let hooks: string[];
    /** The brand of 135 ads, 5 of them on the Black Friday board: 130 in the library, more than two pages. */
    let plenty: string;
    /** Every ad of the library board. */
    let library: Seeded[];
    let blackFriday: Seeded[];

    beforeAll(async () => {
      brands = [(await newBrand(ctx.db)).id, (await newBrand(ctx.db)).id, (await newBrand(ctx.db)).id];
      categories = [(await newCategory(ctx.db)).id, (await newCategory(ctx.db)).id, (await newCategory(ctx.db)).id];
      types = [(await newType(ctx.db)).id, (await newType(ctx.db)).id, (await newType(ctx.db)).id];
      hooks = [(await newHook(ctx.db)).id, (await newHook(ctx.db)).id, (await newHook(ctx.db)).id];
      plenty = (await newBrand(ctx.db, `Plenty ${randomUUID()}`)).id;
      // 72 ads whose values repeat in cycles of different lengths, so every pair of filters keeps some of them.
      const mixed = await insertAds(ctx.db, '2026-04-01T00:00:00Z', Array.from({ length: 72 }, (_, k) => ({
        brand: brands[k % 3]!,
        category: categories[Math.floor(k / 3) % 3]!,
        type: [...types, null][Math.floor(k / 9) % 4],
        hook: [...hooks, null][Math.floor(k / 2) % 4],
        language: ['en', 'de', 'fr', null, 'en'][k % 5],
        country: ['US', 'DE', 'FR', null][Math.floor(k / 4) % 4],
      })));
      // Before them, the brand's 135: all for Sweden, half of them in Swedish, 70 about sun hats.
      const many = await insertAds(ctx.db, '2026-01-01T00:00:00Z', Array.from({ length: 135 }, (_, k) => ({
        brand: plenty,
        category: categories[0]!,
        language: k % 2 === 0 ? 'sv' : null,
        country: 'SE',
        headline: k < 70 ? 'Sun hats' : 'Wool socks',
        blackFriday: k >= 130,
      })));
      library = newestFirst([...mixed, ...many.filter((ad) => !ad.blackFriday)]);
      blackFriday = newestFirst(many.filter((ad) => ad.blackFriday));
    });

    interface Case { title: string; query: () => ListQuery; keeps: (ad: Seeded) => boolean; none?: true }
    const cases: Case[] = [
      { title: 'two brands', query: () => ({ brandIds: [brands[0]!, brands[1]!] }), keeps: (ad) => ad.brand === brands[0] || ad.brand === brands[1] },
      {
        title: 'three brands, one of them with more than two pages of ads',
        query: () => ({ brandIds: [brands[2]!, plenty, brands[0]!] }),
        keeps: (ad) => [brands[2], plenty, brands[0]].includes(ad.brand),
      },
      { title: 'one brand named twice', query: () => ({ brandIds: [brands[1]!, brands[1]!] }), keeps: (ad) => ad.brand === brands[1] },
      { title: 'two categories', query: () => ({ categoryIds: [categories[1]!, categories[2]!] }), keeps: (ad) => ad.category !== categories[0] },
      { title: 'two types', query: () => ({ typeIds: [types[0]!, types[2]!] }), keeps: (ad) => ad.type === types[0] || ad.type === types[2] },
      { title: 'two hooks', query: () => ({ hookIds: [hooks[1]!, hooks[2]!] }), keeps: (ad) => ad.hook === hooks[1] || ad.hook === hooks[2] },
      {
        title: 'two brands and two hooks: any of the brands with any of the hooks',
        query: () => ({ brandIds: [brands[0]!, brands[2]!], hookIds: [hooks[0]!, hooks[1]!] }),
        keeps: (ad) => (ad.brand === brands[0] || ad.brand === brands[2]) && (ad.hook === hooks[0] || ad.hook === hooks[1]),
      },
      {
        title: 'three of each of the four',
        query: () => ({ brandIds: brands, categoryIds: categories, typeIds: types, hookIds: hooks }),
        keeps: (ad) => brands.includes(ad.brand) && !!ad.type && !!ad.hook,
      },
      { title: 'a language', query: () => ({ language: 'de' }), keeps: (ad) => ad.language === 'de' },
      { title: 'a language of more than two pages of ads', query: () => ({ language: 'sv' }), keeps: (ad) => ad.language === 'sv' },
      { title: 'a country', query: () => ({ country: 'FR' }), keeps: (ad) => ad.country === 'FR' },
      { title: 'a language and a country', query: () => ({ language: 'en', country: 'DE' }), keeps: (ad) => ad.language === 'en' && ad.country === 'DE' },
      {
        title: 'a language with two brands and a type',
        query: () => ({ language: 'en', brandIds: [brands[1]!, brands[2]!], typeIds: [types[1]!] }),
        keeps: (ad) => ad.language === 'en' && (ad.brand === brands[1] || ad.brand === brands[2]) && ad.type === types[1],
      },
      { title: 'a country and a search', query: () => ({ country: 'SE', search: 'sun' }), keeps: (ad) => ad.country === 'SE' && ad.headline === 'Sun hats' },
      { title: 'a language no ad has', query: () => ({ language: 'ja' }), keeps: () => false, none: true },
      { title: 'a country no ad has', query: () => ({ country: 'JP' }), keeps: () => false, none: true },
    ];

    it.each(cases)('lists the ads of $title, newest first, each once across pages, the first page saying how many', async ({ query, keeps, none }) => {
      const expected = library.filter(keeps);
      expect(expected.length === 0).toBe(none === true);
      const pages = await listAll('subscriber', query());
      expect(pages).toHaveLength(Math.max(1, Math.ceil(expected.length / 60)));
      expect(ids(pages.flatMap((page) => page.ads))).toEqual(ids(expected));
      expect(pages[0]).toMatchObject({ total: expected.length, total_is_estimate: false });
      for (const page of pages.slice(1)) expect(Object.keys(page).sort()).toEqual(['ads', 'next_cursor']);
    });

    it('reads an empty list as no filter, and leaves out the nulls and the repeats of a list', async () => {
      const [b0, b1] = [brands[0]!, brands[1]!];
      const plain = await listAds('subscriber');
      expect(plain.total).toBe(library.length);
      for (const field of ['brand_ids', 'category_ids', 'type_ids', 'hook_ids']) {
        expect(await listRaw('subscriber', JSON.stringify({ [field]: [] })), field).toEqual(plain);
        expect(await listRaw('subscriber', JSON.stringify({ [field]: [null] })), field).toEqual(plain);
        expect(await listRaw('subscriber', JSON.stringify({ [field]: null })), field).toEqual(plain);
      }
      expect(await listRaw('subscriber', JSON.stringify({ language: null, country: null }))).toEqual(plain);
      const two = await listAds('subscriber', { brandIds: [b0, b1] });
      expect(await listRaw('subscriber', JSON.stringify({ brand_ids: [b1, null, b0, b1] }))).toEqual(two);
      // Written another way, the same query: its cursor goes on with either.
      const ofPlenty = await listAds('subscriber', { brandIds: [plenty, b0] });
      const next = await listRaw('subscriber', JSON.stringify({ brand_ids: [b0, plenty, b0], cursor: ofPlenty.next_cursor }));
      expect(next).toEqual(await listAds('subscriber', { brandIds: [plenty, b0], cursor: ofPlenty.next_cursor! }));
    });

    it("refuses one brand list's cursor with another list, a language or a country", async () => {
      const cursor = (await listAds('subscriber', { brandIds: [plenty, brands[0]!] })).next_cursor!;
      expect(cursor).toBeTruthy();
      for (const other of [
        { brandIds: [plenty] },
        { brandIds: [plenty, brands[0]!, brands[1]!] },
        { brandIds: [plenty, brands[0]!], language: 'sv' },
        { brandIds: [plenty, brands[0]!], country: 'SE' },
        { categoryIds: [plenty, brands[0]!] },
        { hookIds: [plenty, brands[0]!] },
      ]) {
        await expectPgError(listAds('subscriber', { ...other, cursor }), { code: '22023', detail: 'invalid_cursor' });
      }
    });

    it('refuses a language or a country not written as its ISO code, more than 10 values in a list, a list that is not one, and the single-value fields it took before', async () => {
      const eleven = Array.from({ length: 11 }, () => randomUUID());
      const refused = [
        { language: 'EN' }, { language: 'eng' }, { language: 'e' }, { language: '' }, { language: 'e1' }, { language: 'en ' }, { language: 7 },
        { country: 'us' }, { country: 'USA' }, { country: 'U' }, { country: '' }, { country: 'U1' }, { country: ['US'] },
        { brand_ids: eleven }, { category_ids: eleven }, { type_ids: eleven }, { hook_ids: eleven },
        { brand_ids: brands[0] }, { brand_ids: { id: brands[0] } }, { brand_ids: 42 }, { hook_ids: ['not-an-id'] },
        { brand_id: brands[0] }, { category_id: categories[0] }, { type_id: types[0] }, { hook_id: hooks[0] },
      ];
      // Each query with the way it was answered, when not by invalid_filter.
      const answered: string[] = [];
      for (const query of refused) {
        const text = JSON.stringify(query);
        await expectPgError(listRaw('anonymous', text), invalidFilter).catch((error: Error) => answered.push(`${text}: ${error.message}`));
      }
      expect(answered).toEqual([]);
      // Ten different ids, one of them twice, are ten values.
      expect(await listRaw('anonymous', JSON.stringify({ brand_ids: [...eleven.slice(0, 10), eleven[0]] })))
        .toEqual({ ads: [], next_cursor: null, total: 0, total_is_estimate: false });
    });

    it('says how many ads a short first page holds: its own length', async () => {
      const ofOne = library.filter((ad) => ad.brand === brands[0]);
      expect(ofOne.length).toBeLessThan(60);
      const page = await listAds('free', { brandIds: [brands[0]!] });
      expect(page).toMatchObject({ next_cursor: null, total: ofOne.length, total_is_estimate: false });
      expect(page.ads).toHaveLength(ofOne.length);
      expect(await listAds('free', { language: 'ja' })).toEqual({ ads: [], next_cursor: null, total: 0, total_is_estimate: false });
    });

    it('counts a result of more than a page exactly on the first page, in every order, and says nothing of it after', async () => {
      for (const sort of ['newest', 'longest_running', 'recently_seen', 'relevance']) {
        const pages = await listAll('subscriber', { brandIds: [plenty], sort });
        expect(pages.map((page) => page.ads.length), sort).toEqual([60, 60, 10]);
        expect(pages[0], sort).toMatchObject({ total: 130, total_is_estimate: false });
        expect(pages.slice(1).map((page) => Object.keys(page).sort()), sort).toEqual([['ads', 'next_cursor'], ['ads', 'next_cursor']]);
      }
      // A search's total counts every ad it finds, whole words and parts of words alike.
      for (const sort of ['newest', 'relevance']) {
        expect((await listAds('subscriber', { brandIds: [plenty], search: 'sun', sort })).total, sort).toBe(70);
        expect((await listAds('subscriber', { brandIds: [plenty], search: 'ock', sort })).total, sort).toBe(60);
      }
      expect((await listAds('subscriber')).total).toBe(library.length);
    });

    it('gives every viewer the same total, on every board they may open', async () => {
      const queries: ListQuery[] = [
        {}, { brandIds: [plenty] }, { brandIds: [brands[0]!] }, { language: 'sv' }, { country: 'SE', search: 'sun' }, { board: 'top-picks' },
      ];
      for (const query of queries) {
        const totals: Pick<AdPage, 'total' | 'total_is_estimate'>[] = [];
        for (const viewer of viewers) {
          const { total, total_is_estimate } = await listAds(viewer, query);
          totals.push({ total, total_is_estimate });
        }
        expect(totals, JSON.stringify(query)).toEqual(viewers.map(() => totals[0]));
      }
      expect((await listAds('anonymous', { brandIds: [plenty] })).total).toBe(130);
      for (const viewer of ['free', 'subscriber', 'admin'] as const) {
        expect(await listAds(viewer, { board: 'black-friday', brandIds: [plenty] }), viewer).toMatchObject({ total: blackFriday.length, total_is_estimate: false });
      }
    });
  });

  describe("the ads' languages and countries (list_ad_locales)", () => {
    let brand: string;
    let category: string;
    const locales = async (actor: Actor = anon): Promise<Locales> =>
      (await queryAs<{ locales: Locales }>(ctx.db, actor, 'select public.list_ad_locales() as locales'))[0]!.locales;
    /** What list_ad_locales must say: the ads' own languages and countries, counted now. */
    const counted = async (): Promise<Locales> =>
      (await ctx.db.query<{ locales: Locales }>(
        `select json_build_object(
                  'languages', coalesce((select json_agg(json_build_object('code', l.code, 'ads', l.ads) order by l.ads desc, l.code)
                                           from (select language as code, count(*) as ads from public.ads where language is not null group by 1) l), '[]'),
                  'countries', coalesce((select json_agg(json_build_object('code', c.code, 'ads', c.ads) order by c.ads desc, c.code)
                                           from (select country as code, count(*) as ads from public.ads where country is not null group by 1) c), '[]')) as locales`,
      )).rows[0]!.locales;
    const kept = async () =>
      (await ctx.db.query<{ kind: string; code: string; ads: string }>('select kind, code, ads::text from private.ad_locale_counts order by kind, code')).rows;
    const spec = (language: string | null, country: string | null): AdSpec => ({ brand, category, language, country });
    const idsOf = async (where: string) => (await ctx.db.query<{ id: string }>(`select id from public.ads where ${where} order by created_at, id`)).rows.map((row) => row.id);

    beforeAll(async () => {
      await ctx.db.query('delete from public.ads');
      brand = (await newBrand(ctx.db)).id;
      category = (await newCategory(ctx.db)).id;
    });

    it('lists nothing for a library without ads', async () => {
      expect(await locales()).toEqual({ languages: [], countries: [] });
    });

    it('counts the ads an insert adds, most ads first and then by code, and leaves out the ads without one', async () => {
      await insertAds(ctx.db, '2026-05-01T00:00:00Z', [
        spec('en', 'US'), spec('en', 'GB'), spec('en', null), spec('fr', 'GB'), spec('de', 'US'), spec('de', null), spec('fr', 'DE'), spec(null, null),
      ]);
      expect(await locales()).toEqual({
        languages: [{ code: 'en', ads: 3 }, { code: 'de', ads: 2 }, { code: 'fr', ads: 2 }],
        countries: [{ code: 'GB', ads: 2 }, { code: 'US', ads: 2 }, { code: 'DE', ads: 1 }],
      });
      await insertAds(ctx.db, '2026-05-02T00:00:00Z', [spec('fr', 'DE')]);
      expect(await locales()).toEqual({
        languages: [{ code: 'en', ads: 3 }, { code: 'fr', ads: 3 }, { code: 'de', ads: 2 }],
        countries: [{ code: 'DE', ads: 2 }, { code: 'GB', ads: 2 }, { code: 'US', ads: 2 }],
      });
      expect(await locales()).toEqual(await counted());
    });

    it("moves an ad from its old language or country to its new one, one ad or many at once, and to none", async () => {
      const [first] = await idsOf(`language = 'en' and country = 'US'`);
      await ctx.db.query(`update public.ads set language = 'de' where id = $1`, [first]);
      expect((await locales()).languages).toEqual([{ code: 'de', ads: 3 }, { code: 'fr', ads: 3 }, { code: 'en', ads: 2 }]);
      // Both at once, one from none.
      const [noCountry] = await idsOf(`language = 'de' and country is null`);
      await ctx.db.query(`update public.ads set language = 'pt', country = 'BR' where id = $1`, [noCountry]);
      expect(await locales()).toEqual({
        languages: [{ code: 'fr', ads: 3 }, { code: 'de', ads: 2 }, { code: 'en', ads: 2 }, { code: 'pt', ads: 1 }],
        countries: [{ code: 'DE', ads: 2 }, { code: 'GB', ads: 2 }, { code: 'US', ads: 2 }, { code: 'BR', ads: 1 }],
      });
      // Several rows in one statement, each from a different language.
      await ctx.db.query(`update public.ads set language = 'it' where language in ('fr', 'pt')`);
      expect((await locales()).languages).toEqual([{ code: 'it', ads: 4 }, { code: 'de', ads: 2 }, { code: 'en', ads: 2 }]);
      await ctx.db.query(`update public.ads set country = null where country = 'GB'`);
      expect((await locales()).countries).toEqual([{ code: 'DE', ads: 2 }, { code: 'US', ads: 2 }, { code: 'BR', ads: 1 }]);
      // An upsert: a new ad added, an ad there already changed.
      const [existing] = await idsOf(`language = 'en'`);
      await ctx.db.query(
        `insert into public.ads (id, brand_id, category_id, language, country, original_path, display_480_path, display_960_path, preview_path,
                                 width, height, thumbhash)
         select id, brand_id, category_id, 'nl', 'NL', original_path, display_480_path, display_960_path, preview_path, width, height, thumbhash
           from public.ads where id = $1
         on conflict (id) do update set language = excluded.language, country = excluded.country`,
        [existing],
      );
      expect(await locales()).toEqual(await counted());
      expect((await locales()).languages).toContainEqual({ code: 'nl', ads: 1 });
    });

    it('changes no count for an update of other columns, or of a language or a country to itself', async () => {
      const before = await kept();
      const other = (await newBrand(ctx.db)).id;
      await ctx.db.query(`update public.ads set headline = 'Changed', brand_id = $1, requires_subscription = false, offer = 'bundle'`, [other]);
      await ctx.db.query('update public.ads set language = language, country = country');
      await ctx.db.query(`update public.ads set language = 'de' where language = 'de'`);
      expect(await kept()).toEqual(before);
      expect(await locales()).toEqual(await counted());
    });

    it('counts an ad less for each deleted one, and lists no code whose ads are all gone', async () => {
      await ctx.db.query(`delete from public.ads where language = 'it'`);
      const now = await locales();
      expect(now.languages.map((language) => language.code)).not.toContain('it');
      expect(now).toEqual(await counted());
      await ctx.db.query(`delete from public.ads where country = 'US'`);
      expect(await locales()).toEqual(await counted());
      expect((await locales()).countries.map((country) => country.code)).not.toContain('US');
    });

    it('lists nothing after the ads are truncated, and counts again from none', async () => {
      await ctx.db.query('truncate public.ads cascade');
      expect(await locales()).toEqual({ languages: [], countries: [] });
      await insertAds(ctx.db, '2026-06-01T00:00:00Z', [spec('es', 'MX'), spec('es', 'ES')]);
      expect(await locales()).toEqual({
        languages: [{ code: 'es', ads: 2 }],
        countries: [{ code: 'ES', ads: 1 }, { code: 'MX', ads: 1 }],
      });
    });

    it('answers anonymous visitors and every signed-in user alike, none of whom may read or write the counts themselves', async () => {
      const expected = await counted();
      for (const viewer of viewers) {
        expect(await locales(who(viewer)), viewer).toEqual(expected);
        for (const statement of [
          'select * from private.ad_locale_counts',
          `insert into private.ad_locale_counts (kind, code, ads) values ('language', 'xx', 1)`,
          'update private.ad_locale_counts set ads = ads + 100',
          'delete from private.ad_locale_counts',
        ]) {
          await expectPgError(queryAs(ctx.db, who(viewer), statement), { code: '42501', message: /permission denied for schema private/ });
        }
      }
      expect(await locales()).toEqual(expected);
    });
  });
});
