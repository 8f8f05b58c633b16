import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../../local/db/database.ts';
import { anon, claimsOf, expectPgError, queryAs, userActor, type Actor } from '../support/acting.ts';
import { describeOnEngines } from '../support/engines.ts';
import { newPersonas, type Personas } from '../support/factories.ts';
import type { ListedAd } from '../support/listed-ad.ts';
import { referenceSql } from '../support/listing-reference-sql.ts';

/**
 * list_ads held to its definition: random queries over every field, run by an anonymous visitor, a free account and
 * a subscriber and walked page by page through next_cursor, against one plain query that writes the answer as a
 * definition (one WHERE and one ORDER BY over public.ads: the running days counted from first_seen, last_seen and
 * still_running with today's UTC date, the clear rule through private.ad_is_clear_for). Every page must hold the
 * definition's next 60 ads, its clear ones first and then its locked ones, each part in the query's order; next_cursor
 * is null exactly on the last page; the first page's total is the definition's count (counted, not estimated: the
 * library is far below the 10,000 ads list_ads counts up to), the pages after it have none; and a cursor fits only the
 * query it was made for, unchanged.
 *
 * The library is built once per engine from a seeded generator, and fast-check draws the queries from a fixed seed,
 * so a run is the same every time (a failure prints the smallest query fast-check found and the seed). Settings:
 *   LISTING_REFERENCE_RUNS  random queries per engine (default 150)
 *   LISTING_REFERENCE_ADS   ads in the library (default 240)
 *   LISTING_REFERENCE_SEED  the seed of the library and of the queries (default 20261202)
 * e.g. LISTING_REFERENCE_RUNS=2000 LISTING_REFERENCE_ADS=1500 npx vitest run tests/sql/listing-reference.test.ts
 */

const positiveSetting = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive whole number`);
  return value;
};
const RUNS = positiveSetting('LISTING_REFERENCE_RUNS', 150);
const LIBRARY_SIZE = positiveSetting('LISTING_REFERENCE_ADS', 240);
const SEED = positiveSetting('LISTING_REFERENCE_SEED', 20261202);
const PAGE_SIZE = 60;

interface AdPage {
  ads: ListedAd[];
  next_cursor: string | null;
  /** On the first page only: how many ads the query finds, and whether that is the planner's estimate. */
  total?: number;
  total_is_estimate?: boolean;
}

/** A p_query object, as the SPA sends it: absent and null mean the same. */
type Query = Record<string, unknown>;

type Viewer = 'anonymous' | 'free' | 'subscriber';
const viewers: Viewer[] = ['anonymous', 'free', 'subscriber'];

interface Expected {
  id: string;
  clear: boolean;
}


/** A small seeded generator (mulberry32), so the library is the same on every run. */
function randomSource(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const chance = (p: number) => next() < p;
  return { next, int, pick, chance };
}

/** A fixed uuid for a label, so ids (and with them every tie-break) are the same on every run. */
const uuidOf = (label: string) => {
  const h = createHash('sha256').update(`${SEED}:${label}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
};

// The words of the library: common ones, a family of words each the beginning of the next, words that hold common
// words inside them, rare ones, accented ones, words with punctuation, numbers.
const commonWords = ['sale', 'summer', 'shoes', 'free', 'new', 'deal'];
const familyWords = ['park', 'parka', 'parkas', 'parkajacket', 'superparka'];
const compoundWords = ['summersale', 'carefree', 'renew', 'bigdeal', 'shoestring', 'resale'];
const rareWords = ['velvetine', 'marzipanello', 'quillfeather', 'zythum'];
// Words of one ad each: the ad numbered by the word's place times 37.
const singleWords = ['xenolith', 'obsidianne', 'fjordlight', 'gossamery', 'brisklet', 'tamarindo', 'wyvernwood'];
const accentedWords = ['Crème', 'brûlée', 'Café', 'Über', 'naïve', 'ÉTÉ', 'piñata'];
const punctuatedWords = ['50%', 'off!', "don't", 'e-mail', 'x_y', 'c++', 'a\\b', '(new)', 'mid-season', 'U.S.A.', '100%_cotton', 'rock&roll'];
const numberWords = ['2026', '30', '7'];
const landingPages = [
  'https://www.lindqvistwares.example/spring?x=1',
  'https://shop.parka-store.example/',
  'http://cafe-lumiere.example/menu',
  'https://sale.example:8080/summer',
];
const brandNames = ['Quorra Goods', 'Halvorsen & Co.', 'Café Lumière', 'Parka Republic'];
const categoryNames = ['Apparel', 'Food & Drink', 'Home'];
const typeNames = ['UGC', 'Static', 'Testimonial'];
const hookNames = ['Problem first', 'Social proof', 'Price anchor'];
const tagNames = ['Spotlight', 'Evergreen', 'Crème de la crème', 'Summer'];
const platformNames = ['meta', 'instagram', 'tiktok', 'youtube', 'pinterest', 'snapchat', 'google'];
const formats = ['single_image', 'carousel', 'video', null] as const;
const offers = ['discount', 'free_shipping', 'bundle', 'none', null] as const;
// The palette's colours (private.colour_palette) and colours between swatches, each found under one or more of them.
const colourHexes = ['#d7263d', '#f08a24', '#f4d03f', '#3a9d5d', '#2e6fd8', '#7d4cdb', '#ee7fb4', '#8a5a34', '#e6d3b3',
  '#141414', '#8e8e8e', '#f7f7f5', '#c09060', '#b0b0a8', '#5a3d9a', '#ff0000', '#202040'];
const colourNames = ['red', 'orange', 'yellow', 'green', 'blue', 'purple', 'pink', 'brown', 'beige', 'black', 'grey', 'white'];
// Days before today an ad was first seen, and days an ended ad ran: few values, so the orders have ties.
const firstSeenDaysAgo = [0, 1, 2, 6, 9, 10, 29, 30, 59, 60, 99, 100, 364, 365, 400];
const ranDays = [1, 2, 7, 10, 11, 30, 31, 60, 61, 100, 365];
// The ads' languages and countries, some more common than others, one of each on few ads; the queries also ask for
// codes no ad has.
const languages = ['en', 'en', 'en', 'de', 'de', 'fr', 'es', 'pt'];
const countries = ['US', 'US', 'GB', 'DE', 'FR', 'FR', 'ES', 'BR', 'IE'];
const languagesAsked = ['en', 'de', 'fr', 'es', 'pt', 'ja'];
const countriesAsked = ['US', 'GB', 'DE', 'FR', 'ES', 'BR', 'IE', 'JP'];
const runningDaysAsked = [1, 2, 3, 7, 10, 11, 12, 30, 31, 32, 60, 61, 62, 100, 101, 365, 366, 400, 401, 402, 3650];

interface Catalog {
  brands: string[];
  categories: string[];
  types: string[];
  hooks: string[];
  tags: string[];
  blackFriday: string;
  topPicks: string;
}

interface LibraryAd {
  id: string;
  createdAt: string;
}

/** One ad's row as the library's insert reads it. */
interface AdRow {
  id: string;
  n: number;
  brand_id: string;
  category_id: string;
  type_id: string | null;
  hook_id: string | null;
  language: string | null;
  country: string | null;
  created_at: string;
  requires_subscription: boolean;
  platforms: string[] | null;
  format: string | null;
  offer: string | null;
  first_seen: number | null;
  last_seen: number | null;
  still_running: boolean;
  headline: string | null;
  primary_text: string | null;
  landing_url: string | null;
  image_text: string | null;
  visual_hash: string | null;
  colour_histogram: number[] | null;
  dominant_colours: { hex: string; share: number }[] | null;
  tag_ids: string[];
}

/** The library's ads: every format and offer together, platforms, dates, words, tags and colours drawn at random. */
function libraryRows(catalog: Catalog, size: number, futureDays: number): AdRow[] {
  const r = randomSource(SEED);
  // A generator of its own, so the ads' other fields are what they were before ads had languages and countries.
  const locale = randomSource(SEED + 1);
  const styled = (word: string) => (r.chance(0.1) ? word.toUpperCase() : r.chance(0.2) ? word[0]!.toUpperCase() + word.slice(1) : word);
  const word = () => {
    const x = r.next();
    const list = x < 0.4 ? commonWords : x < 0.55 ? familyWords : x < 0.65 ? compoundWords : x < 0.76 ? accentedWords
      : x < 0.88 ? punctuatedWords : x < 0.95 ? numberWords : rareWords;
    return styled(r.pick(list));
  };
  const words = (min: number, max: number) => Array.from({ length: r.int(min, max) }, word).join(r.chance(0.2) ? ', ' : ' ');
  let instant = Date.parse('2026-03-01T00:00:00Z');
  let micros = 0;
  return Array.from({ length: size }, (_, n) => {
    // Ads share an instant often (their ids decide), and some are a microsecond apart.
    if (n > 0 && !r.chance(0.35)) {
      if (r.chance(0.15)) micros += 1;
      else {
        instant += r.int(1, 90) * 60_000;
        micros = 0;
      }
    }
    const createdAt = `${new Date(instant).toISOString().slice(0, 19)}.${String(micros).padStart(6, '0')}Z`;
    let firstSeen: number | null = null;
    let lastSeen: number | null = null;
    let stillRunning = false;
    const dates = r.next();
    if (dates < 0.15) {
      // Undated.
    } else if (dates < 0.2) {
      firstSeen = -r.pick(firstSeenDaysAgo);
    } else if (dates < 0.5) {
      stillRunning = true;
      firstSeen = r.chance(0.05) ? futureDays : -r.pick(firstSeenDaysAgo);
      const last = r.next();
      // Last seen: never, some days ago, today, or tomorrow where it is already tomorrow somewhere (UTC+14).
      lastSeen = last < 0.3 ? null : last < 0.6 ? Math.max(firstSeen, -r.int(0, 5)) : last < 0.8 ? Math.max(firstSeen, 0) : futureDays;
    } else {
      firstSeen = -r.pick(firstSeenDaysAgo);
      lastSeen = Math.min(0, firstSeen + r.pick(ranDays) - 1);
    }
    const fingerprint = r.chance(0.65);
    const shares = r.pick([[1], [0.6, 0.4], [0.7, 0.25, 0.05], [0.5, 0.3, 0.2], [0.92, 0.08]]);
    const tagIds = [
      ...catalog.tags.filter(() => r.chance(0.25)),
      ...(r.chance(0.2) ? [catalog.blackFriday] : []),
      ...(r.chance(0.2) ? [catalog.topPicks] : []),
    ];
    return {
      id: uuidOf(`ad ${n}`),
      n,
      brand_id: r.pick(catalog.brands),
      category_id: r.pick(catalog.categories),
      type_id: r.chance(0.25) ? null : r.pick(catalog.types),
      hook_id: r.chance(0.25) ? null : r.pick(catalog.hooks),
      language: locale.chance(0.2) ? null : locale.pick(languages),
      country: locale.chance(0.2) ? null : locale.pick(countries),
      created_at: createdAt,
      requires_subscription: r.chance(0.7),
      platforms: r.chance(0.15) ? null : [...new Set(Array.from({ length: r.int(1, 3) }, () => r.pick(platformNames)))],
      // Every format with every offer, in turn.
      format: formats[n % formats.length]!,
      offer: offers[Math.floor(n / formats.length) % offers.length]!,
      first_seen: firstSeen,
      last_seen: lastSeen,
      still_running: stillRunning,
      headline: r.chance(0.6) ? words(1, 4) : null,
      primary_text: r.chance(0.5) ? words(2, 10) : null,
      landing_url: r.chance(0.4) ? r.pick(landingPages) : null,
      image_text: n % 37 === 0 && singleWords[n / 37] ? `${words(0, 2)} ${singleWords[n / 37]}` : r.chance(0.35) ? words(1, 6) : null,
      visual_hash: fingerprint
        ? BigInt.asIntN(64, BigInt(`0x${createHash('sha256').update(`hash ${SEED} ${n}`).digest('hex').slice(0, 16)}`)).toString()
        : null,
      colour_histogram: fingerprint ? Array.from({ length: 16 }, (_, bin) => (bin === n % 16 ? 1 : 0)) : null,
      dominant_colours: fingerprint ? shares.map((share) => ({ hex: r.pick(colourHexes), share })) : null,
      tag_ids: tagIds,
    };
  });
}

/** The catalogue, the ads with their storage objects and their tags, as the database owner, in four statements. */
async function buildLibrary(db: Database, size: number): Promise<{ catalog: Catalog; ads: LibraryAd[]; names: Map<string, string> }> {
  const names = new Map<string, string>();
  const named = async (table: string, list: string[]) => {
    const ids = list.map((name) => uuidOf(`${table} ${name}`));
    await db.query(`insert into public.${table} (id, name) select * from unnest($1::uuid[], $2::text[])`, [ids, list]);
    ids.forEach((id, i) => names.set(id, `${table}:${list[i]}`));
    return ids;
  };
  const system = async (key: string) => {
    const { rows } = await db.query<{ id: string; name: string }>('select id, name from public.tags where system_key = $1', [key]);
    names.set(rows[0]!.id, `tags:${rows[0]!.name}`);
    return rows[0]!.id;
  };
  const catalog: Catalog = {
    brands: await named('brands', brandNames),
    categories: await named('categories', categoryNames),
    types: await named('types', typeNames),
    hooks: await named('hooks', hookNames),
    tags: await named('tags', tagNames),
    blackFriday: await system('black_friday'),
    topPicks: await system('top_picks'),
  };
  const { rows: days } = await db.query<{ ahead: number }>(
    `select private.latest_today() - (now() at time zone 'UTC')::date as ahead`);
  const rows = libraryRows(catalog, size, Number(days[0]!.ahead));
  rows.forEach((row) => names.set(row.id, `ad#${row.n}`));
  await db.transaction(async (tx) => {
    await tx.query(
      `insert into storage.objects (bucket_id, name, metadata)
       select f.bucket_id, replace(f.pattern, '#', g::text), jsonb_build_object('mimetype', f.mimetype, 'size', 1024)
         from generate_series(0, $1::int - 1) g
        cross join (values ('ad-originals', 'reference/#/original.jpg', 'image/jpeg'),
                           ('ad-images', 'reference/#/480.webp', 'image/webp'),
                           ('ad-images', 'reference/#/960.webp', 'image/webp'),
                           ('ad-images', 'previews/reference-#.webp', 'image/webp')) as f (bucket_id, pattern, mimetype)`,
      [rows.length],
    );
    await tx.query(
      `insert into public.ads (id, brand_id, category_id, type_id, created_at, requires_subscription, original_path,
                               display_480_path, display_960_path, preview_path, width, height, thumbhash, platforms, format,
                               offer, hook_id, language, country, first_seen, last_seen, still_running, headline, primary_text,
                               landing_url, image_text, visual_hash, colour_histogram, dominant_colours)
       select x.id, x.brand_id, x.category_id, x.type_id, x.created_at, x.requires_subscription,
              'reference/' || x.n || '/original.jpg', 'reference/' || x.n || '/480.webp', 'reference/' || x.n || '/960.webp',
              'previews/reference-' || x.n || '.webp', 1080, 1350, 'YJqGPQw7sFlslqhFafSE+Q6oJ1h2iHB2Rw==', x.platforms, x.format,
              x.offer, x.hook_id, x.language, x.country, (now() at time zone 'UTC')::date + x.first_seen, (now() at time zone 'UTC')::date + x.last_seen,
              x.still_running, x.headline, x.primary_text, x.landing_url, x.image_text, x.visual_hash::bigint,
              x.colour_histogram, x.dominant_colours
         from jsonb_to_recordset($1::jsonb) as x (id uuid, n int, brand_id uuid, category_id uuid, type_id uuid, hook_id uuid,
              language text, country text, created_at timestamptz, requires_subscription boolean, platforms text[], format text, offer text, first_seen int,
              last_seen int, still_running boolean, headline text, primary_text text, landing_url text, image_text text,
              visual_hash text, colour_histogram real[], dominant_colours jsonb)
        order by x.created_at, x.id`,
      [JSON.stringify(rows)],
    );
    await tx.query('insert into public.ad_tags (ad_id, tag_id) select * from unnest($1::uuid[], $2::uuid[])', [
      rows.flatMap((row) => row.tag_ids.map(() => row.id)),
      rows.flatMap((row) => row.tag_ids),
    ]);
  });
  return { catalog, ads: rows.map((row) => ({ id: row.id, createdAt: row.created_at })), names };
}

/** Text as the search folds it, to draw the searches from (the database's own folding is what is compared). */
const folded = (text: string) => text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();

/** Absent most of the time, sometimes null (the same), else a value; shrinks to absent. */
const sometimes = <T>(value: fc.Arbitrary<T>, percent: number): fc.Arbitrary<T | null | undefined> =>
  fc.oneof(
    { withCrossShrink: true },
    { arbitrary: fc.constant(undefined), weight: 100 - percent - 3 },
    { arbitrary: fc.constant(null), weight: 3 },
    { arbitrary: value, weight: percent },
  );

/**
 * A search: words of the library in any case and accents, their beginnings and parts, two words (the last often a
 * beginning), rare and absent words, punctuation and the characters a pattern gives a meaning to (% _ \).
 */
function searchArbitrary(): fc.Arbitrary<string> {
  const libraryWords = [
    ...commonWords, ...familyWords, ...compoundWords, ...rareWords, ...singleWords, ...accentedWords, ...punctuatedWords, ...numberWords,
    ...[...brandNames, ...categoryNames, ...typeNames, ...tagNames, 'lindqvistwares', 'parka-store', 'black', 'friday', 'top', 'picks']
      .flatMap((name) => name.split(' ')),
  ];
  const present = fc.constantFrom(...libraryWords).chain((w) => fc.constantFrom(w, w.toUpperCase(), folded(w), w[0]!.toUpperCase() + w.slice(1)));
  const beginning = fc.constantFrom(...libraryWords).chain((w) => fc.integer({ min: 1, max: w.length }).map((n) => w.slice(0, n)));
  const part = fc.constantFrom(...libraryWords).chain((w) =>
    fc.tuple(fc.nat({ max: w.length - 1 }), fc.integer({ min: 1, max: w.length })).map(([start, n]) => w.slice(start, start + n)));
  const common = fc.constantFrom(...commonWords, ...familyWords, 'creme', 'cafe', 'Summer');
  const accented = fc.constantFrom(...accentedWords, 'crème brûlée', 'CAFÉ', 'Lumière', 'ÜBER', 'été', 'Crème de la', 'brû', 'lumi');
  const absent = fc.constantFrom('xylophone', 'qwertz', 'parkour', 'velvety', 'zz', 'saleswoman', 'crèmes');
  const punctuation = fc.constantFrom('50%', "don't", 'e-mail', 'x_y', 'c++', '...', 'off!', '(new)', 'u.s.', '&', 'rock&roll',
    '-', "'", '"sale"', 'sale, summer', 'mid—season', 'U.S.A', 'halvorsen & co', 'food &');
  const patterned = fc.constantFrom('%', '_', '\\', '%_', '_c', 'x_', '0%', '% off', '100%_', 'a\\b', '\\b', 's_le', 'sa%e', '50%_');
  const single = fc.oneof(
    { arbitrary: present, weight: 4 },
    { arbitrary: beginning, weight: 3 },
    { arbitrary: part, weight: 2 },
    { arbitrary: accented, weight: 2 },
    { arbitrary: fc.constantFrom(...rareWords, ...singleWords), weight: 1 },
    // Found at the beginning of words and inside others.
    { arbitrary: fc.constantFrom('sale', 'free', 'new', 'deal', 'park', 'parka', 'arka', 'ale', 'ree', 'ew', 'eal', 'string', 'umm', 'shoe'), weight: 3 },
    { arbitrary: absent, weight: 1 },
    { arbitrary: punctuation, weight: 2 },
    { arbitrary: patterned, weight: 2 },
    { arbitrary: fc.stringMatching(/^[a-zéè%_ .'-]{1,5}$/), weight: 1 },
  );
  const shortBeginning = common.chain((w) => fc.integer({ min: 1, max: Math.min(4, w.length) }).map((n) => w.slice(0, n)));
  return fc.oneof(
    { arbitrary: single, weight: 6 },
    { arbitrary: fc.tuple(single, fc.constantFrom(' ', '  ', ', ', '-'), single).map(([a, sep, b]) => `${a}${sep}${b}`), weight: 2 },
    // Two common words, the last often cut short: found in the words of ads where the text has them apart.
    { arbitrary: fc.tuple(common, fc.oneof(common, shortBeginning)).map(([a, b]) => `${a} ${b}`), weight: 3 },
    { arbitrary: fc.tuple(shortBeginning, common).map(([a, b]) => `${a} ${b}`), weight: 1 },
    { arbitrary: single.map((s) => `  ${s} `), weight: 1 },
    { arbitrary: fc.constantFrom('   ', ' '), weight: 1 },
  );
}

/**
 * A query over every field, each often absent: a third of them with few filters (most of those cross pages), a third
 * with more (most keep a few ads, some none), a third searches.
 */
function queryArbitrary(catalog: Catalog, ads: LibraryAd[]): fc.Arbitrary<Query> {
  return fc.oneof(fieldsArbitrary(catalog, ads, 0.35), fieldsArbitrary(catalog, ads, 1), searchQueryArbitrary(catalog, ads));
}

/** A search, most in the relevance order, with a few other filters. */
function searchQueryArbitrary(catalog: Catalog, ads: LibraryAd[]): fc.Arbitrary<Query> {
  const searching = fc.record({
    search: searchArbitrary(),
    sort: fc.constantFrom('relevance', 'relevance', 'relevance', 'relevance', 'newest', 'longest_running', 'recently_seen', undefined),
  });
  return fc.tuple(fieldsArbitrary(catalog, ads, 0.25), searching).map(([query, search]) =>
    Object.fromEntries(Object.entries({ ...query, ...search }).filter(([, value]) => value !== undefined)));
}

/** One to three of the ids, drawn independently. */
const someOf = (ids: string[]) => fc.array(fc.constantFrom(...ids), { minLength: 1, maxLength: 3 });

/** Each field present about `scale` times its percentage of the queries. */
function fieldsArbitrary(catalog: Catalog, ads: LibraryAd[], scale: number): fc.Arbitrary<Query> {
  const field = <T>(value: fc.Arbitrary<T>, percent: number) => sometimes(value, Math.round(percent * scale));
  const instants = [...new Set(ads.map((ad) => ad.createdAt))];
  const first = Date.parse(instants[0]!);
  const last = Date.parse(instants.at(-1)!);
  const since = fc.oneof(
    fc.constantFrom(...instants),
    fc.integer({ min: first - 3_600_000, max: last + 3_600_000 }).map((ms) => new Date(ms).toISOString()),
    // The same instant written in another zone.
    fc.constantFrom(...instants).map((instant) => new Date(Date.parse(instant) + 2 * 3_600_000).toISOString().replace('Z', '+02:00').replace(/\.\d+/, '')),
  );
  return fc
    .record({
      board: field(fc.constantFrom('library', 'black-friday', 'top-picks'), 50),
      // One to three of each, the same one twice at times.
      brand_ids: field(someOf(catalog.brands), 20),
      category_ids: field(someOf(catalog.categories), 15),
      type_ids: field(someOf(catalog.types), 15),
      tag_ids: field(fc.array(fc.constantFrom(...catalog.tags, catalog.blackFriday, catalog.topPicks), { maxLength: 3 }), 20),
      since: field(since, 20),
      search: field(searchArbitrary(), 35),
      // At least one platform, as the SPA sends them (listAdsQuerySchema).
      platforms: field(fc.uniqueArray(fc.constantFrom(...platformNames), { minLength: 1, maxLength: 4 }), 20),
      format: field(fc.constantFrom('single_image', 'carousel', 'video'), 20),
      offer: field(fc.constantFrom('discount', 'free_shipping', 'bundle', 'none'), 20),
      hook_ids: field(someOf(catalog.hooks), 15),
      language: field(fc.constantFrom(...languagesAsked), 20),
      country: field(fc.constantFrom(...countriesAsked), 20),
      min_running_days: field(fc.oneof(fc.constantFrom(...runningDaysAsked), fc.integer({ min: 1, max: 500 })), 20),
      still_running: field(fc.boolean(), 20),
      sort: sometimes(fc.constantFrom('newest', 'longest_running', 'recently_seen', 'relevance'), 65),
      colour: field(fc.constantFrom(...colourNames), 25),
    })
    .map((query) => Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined)));
}

describeOnEngines('list_ads against its definition', (ctx) => {
  let people: Personas;
  let catalog: Catalog;
  let library: LibraryAd[];
  let names: Map<string, string>;
  const counts = { queries: 0, pages: 0, refusals: 0, empty: 0, paged: 0 };
  const who = (viewer: Viewer): Actor => (viewer === 'anonymous' ? anon : userActor(viewer === 'free' ? people.free : people.subscriber));

  async function listAds(viewer: Viewer, query: Query): Promise<AdPage> {
    const [row] = await queryAs<{ page: AdPage }>(ctx.db, who(viewer), 'select public.list_ads($1::jsonb) as page', [JSON.stringify(query)]);
    return row!.page;
  }

  /** The definition's answer for the viewer: run as the database owner with the viewer's claims. */
  async function reference(viewer: Viewer, query: Query): Promise<Expected[]> {
    return ctx.db.transaction(async (tx) => {
      await tx.query(`select set_config('request.jwt.claims', $1, true)`, [JSON.stringify(claimsOf(who(viewer)))]);
      return (await tx.query<Expected>(referenceSql, [JSON.stringify(query)])).rows;
    });
  }

  /** A query with its ids written as the catalogue's names and the ads' numbers, for the messages. */
  const shown = (value: unknown): string =>
    JSON.stringify(value, (_, v: unknown) => (typeof v === 'string' && names.has(v) ? names.get(v) : v));

  /** What the definition reads of some ads, for the messages. */
  async function facts(ids: string[]): Promise<string> {
    if (ids.length === 0) return '';
    const { rows } = await ctx.db.query(
      `select id, created_at, first_seen, last_seen, still_running, requires_subscription, free_sample, is_black_friday,
              is_top_picks, colour_swatches, platforms, format, offer, language, country, search_text, running_days_key, last_seen_key
         from public.ads where id = any ($1::uuid[])`,
      [ids.slice(0, 6)],
    ).catch(() => ctx.db.query('select * from public.ads where id = any ($1::uuid[])', [ids.slice(0, 6)]));
    return `\n${rows.map((row) => shown(row)).join('\n')}`;
  }

  /** Walks every page of the query as the viewer and holds each to the definition; the cursors of its pages. */
  async function compare(viewer: Viewer, query: Query): Promise<(string | null)[] | null> {
    const context = `${viewer} ${shown(query)}`;
    if (viewer === 'anonymous' && query.board === 'black-friday') {
      await expectPgError(listAds(viewer, query), { code: '42501', detail: 'sign_in_required' });
      return null;
    }
    const expected = await reference(viewer, query);
    if (viewer === 'subscriber') {
      if (expected.length === 0) counts.empty += 1;
      if (expected.length > PAGE_SIZE) counts.paged += 1;
    }
    const clear = new Map(expected.map((ad) => [ad.id, ad.clear]));
    const pageCount = Math.max(1, Math.ceil(expected.length / PAGE_SIZE));
    const pages: AdPage[] = [];
    let cursor: string | null = null;
    do {
      if (pages.length > pageCount) throw new Error(`${context}: more than the ${pageCount} page(s) of the definition`);
      const page = await listAds(viewer, cursor === null ? query : { ...query, cursor });
      const index = pages.length;
      pages.push(page);
      // The first page says how many ads the query finds; the pages after it say nothing of it.
      expect(index === 0 ? { total: page.total, total_is_estimate: page.total_is_estimate } : Object.keys(page).sort(),
        `${context}: the total of page ${index + 1}`)
        .toEqual(index === 0 ? { total: expected.length, total_is_estimate: false } : ['ads', 'next_cursor']);
      const slice = expected.slice(index * PAGE_SIZE, (index + 1) * PAGE_SIZE);
      const got = page.ads.map((ad) => ad.id);
      const want = slice.map((ad) => ad.id);
      const missing = want.filter((id) => !got.includes(id));
      const extra = got.filter((id) => !want.includes(id));
      if (missing.length > 0 || extra.length > 0 || got.length !== want.length) {
        throw new Error(`${context}: page ${index + 1} of ${pageCount} differs from the definition's ads ${index * PAGE_SIZE + 1} to `
          + `${index * PAGE_SIZE + slice.length}: missing ${missing.length} [${missing.map((id) => names.get(id)).join(', ')}], `
          + `extra ${extra.length} [${extra.map((id) => names.get(id) ?? id).join(', ')}], ${got.length} ads for ${want.length}`
          + `${await facts([...missing, ...extra])}`);
      }
      // Clear ads first, then locked ones, each in the query's order.
      expect(shown(got), `${context}: the order of page ${index + 1}`)
        .toBe(shown([...want.filter((id) => clear.get(id)), ...want.filter((id) => !clear.get(id))]));
      expect(shown(page.ads.filter((ad) => ad.is_clear !== clear.get(ad.id)).map((ad) => ad.id)), `${context}: is_clear on page ${index + 1}`)
        .toBe('[]');
      const more = expected.length > (index + 1) * PAGE_SIZE;
      expect(page.next_cursor === null ? 'null' : 'a cursor', `${context}: next_cursor of page ${index + 1} of ${pageCount}`)
        .toBe(more ? 'a cursor' : 'null');
      cursor = page.next_cursor;
    } while (cursor !== null);
    // Across pages: every ad of the definition once.
    const all = pages.flatMap((page) => page.ads.map((ad) => ad.id));
    expect(new Set(all).size, `${context}: an ad on two pages`).toBe(all.length);
    expect([...all].sort(), `${context}: the ads of all pages`).toEqual(expected.map((ad) => ad.id).sort());
    counts.pages += pages.length;
    return pages.map((page) => page.next_cursor);
  }

  beforeAll(async () => {
    await ctx.db.query('delete from public.ads');
    people = await ctx.db.transaction((tx) => newPersonas(tx));
    ({ catalog, ads: library, names } = await buildLibrary(ctx.db, LIBRARY_SIZE));
  });

  afterAll(() => {
    if (counts.queries > 0) {
      console.log(`list_ads against its definition [${ctx.engine}]: ${counts.queries} random queries (each as 3 viewers; `
        + `${counts.paged} of more than one page, ${counts.empty} of no ads), ${counts.pages} pages compared, `
        + `${counts.refusals} cursors refused, over ${LIBRARY_SIZE} ads`);
    }
  });

  it('builds a library in which every board, order and filter has ads to find', async () => {
    const { rows: [shape] } = await ctx.db.query<Record<string, number>>(
      `select count(*) filter (where not is_black_friday) as library, count(*) filter (where is_black_friday) as black_friday,
              count(*) filter (where is_top_picks) as top_picks, count(*) filter (where free_sample) as sample,
              count(*) filter (where not requires_subscription) as free,
              count(*) filter (where colour_swatches <> '{}') as coloured,
              count(*) filter (where cardinality(colour_swatches) > 1) as between_swatches,
              count(*) filter (where first_seen is null) as undated, count(*) filter (where still_running) as running,
              count(*) filter (where language is null) as no_language, count(*) filter (where country is null) as no_country,
              count(*) filter (where language = 'pt') as rare_language, count(*) filter (where country = 'IE') as rare_country,
              count(distinct coalesce(format, '-') || '/' || coalesce(offer, '-')) as format_offer_mixes,
              count(*) - count(distinct created_at) as shared_instants,
              count(*) - count(distinct coalesce(private.running_days(first_seen, last_seen, still_running), 0)) as shared_days
         from public.ads`);
    for (const [key, value] of Object.entries(shape!)) expect(Number(value), key).toBeGreaterThan(key === 'format_offer_mixes' ? 19 : 0);
    // More than a page on the library board, in every order.
    expect(Number(shape!.library)).toBeGreaterThan(2 * PAGE_SIZE);
  });

  it('answers random queries, page by page, as the definition does, for every viewer', async () => {
    await fc.assert(
      fc.asyncProperty(queryArbitrary(catalog, library), async (query) => {
        const cursors = new Map<Viewer, (string | null)[]>();
        for (const viewer of viewers) {
          const walked = await compare(viewer, query);
          if (walked) cursors.set(viewer, walked);
        }
        // Who asks changes the order within a page, never the page's ads nor its cursor.
        const [first, ...others] = [...cursors.entries()];
        for (const [viewer, walked] of others) expect(walked, `${viewer} ${shown(query)}: the cursors of ${first![0]}`).toEqual(first![1]);
        counts.queries += 1;
      }),
      { seed: SEED, numRuns: RUNS },
    );
  }, 600_000);

  it('answers searches read through the search indexes as the definition does: rum where it exists, else the GIN index', async () => {
    const rum = (await ctx.db.query<{ rum: boolean }>(`select exists (select 1 from pg_extension where extname = 'rum') as rum`)).rows[0]!.rum;
    const wordsIndex = rum ? 'ads_search_words' : 'ads_search';
    // The small library is read by sequential scans and ordered walks; with both off for list_ads alone, the planner
    // reads each search's words and text through their indexes, as it does for rare words in a large library.
    const settings = ['enable_seqscan', 'enable_indexscan'];
    await ctx.db.exec(settings.map((name) => `alter function public.list_ads(jsonb) set ${name} = off;`).join(' '));
    try {
      const plan = await ctx.db.transaction(async (tx) => {
        await tx.exec(settings.map((name) => `set local ${name} = off;`).join(' '));
        const { rows } = await tx.query<{ plan: unknown }>(
          `explain (format json) select a.id from public.ads a where a.search_vector @@ 'sale:*'::tsquery order by a.created_at desc limit 61`);
        return JSON.stringify(rows);
      });
      expect(plan).toContain(`"Index Name":"${wordsIndex}"`);
      const before = counts.pages;
      await fc.assert(
        fc.asyncProperty(searchQueryArbitrary(catalog, library), async (query) => {
          // A blank search is no search: the whole library, read by the sequential scans turned off here, whose price
          // makes the first page's total an estimate.
          fc.pre(String(query.search).trim() !== '');
          for (const viewer of viewers) await compare(viewer, query);
          counts.queries += 1;
        }),
        { seed: SEED + 1, numRuns: Math.max(20, Math.ceil(RUNS / 4)) },
      );
      expect(counts.pages - before).toBeGreaterThan(Math.max(20, Math.ceil(RUNS / 4)));
    } finally {
      await ctx.db.exec(settings.map((name) => `alter function public.list_ads(jsonb) reset ${name};`).join(' '));
    }
  }, 300_000);

  /** Broad queries, each of more than one page for a signed-in viewer. */
  const broadQuery = fc.record({
    sort: fc.constantFrom(undefined, 'newest', 'longest_running', 'recently_seen'),
    still_running: fc.constantFrom(undefined, false),
  }).map((query) => Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined)));

  it("refuses one query's cursor in another", async () => {
    /** A field of the query changed so that it is another query. */
    const change = fc.oneof(
      fc.record({ board: fc.constantFrom('top-picks', 'black-friday') }),
      fc.record({ brand_ids: someOf(catalog.brands) }),
      fc.record({ category_ids: someOf(catalog.categories) }),
      fc.record({ type_ids: someOf(catalog.types) }),
      fc.record({ hook_ids: someOf(catalog.hooks) }),
      fc.record({ language: fc.constantFrom(...languagesAsked) }),
      fc.record({ country: fc.constantFrom(...countriesAsked) }),
      fc.record({ tag_ids: fc.constantFrom(...catalog.tags).map((tag) => [tag]) }),
      fc.record({ since: fc.constantFrom(...library.map((ad) => ad.createdAt)) }),
      fc.record({ search: fc.constantFrom('sale', 'park', 'e-mail', 'zz') }),
      fc.record({ platforms: fc.uniqueArray(fc.constantFrom(...platformNames), { minLength: 1, maxLength: 3 }) }),
      fc.record({ format: fc.constantFrom('single_image', 'carousel', 'video') }),
      fc.record({ offer: fc.constantFrom('discount', 'free_shipping', 'bundle', 'none') }),
      fc.record({ min_running_days: fc.integer({ min: 1, max: 400 }) }),
      fc.record({ still_running: fc.constant(true) }),
      fc.record({ colour: fc.constantFrom(...colourNames) }),
      fc.record({ sort: fc.constantFrom('longest_running', 'recently_seen', 'relevance', 'newest') }),
    );
    const cursors = new Map<string, string>();
    await fc.assert(
      fc.asyncProperty(broadQuery, change, fc.constantFrom<Viewer>('free', 'subscriber'), async (query, changed, viewer) => {
        const other = { ...query, ...changed };
        // Only a change of order or a filter changes the query (relevance without a search is newest).
        const sortOf = (q: Query) => (q.sort === undefined || q.sort === 'relevance' ? 'newest' : q.sort);
        fc.pre(!('sort' in changed) || sortOf(other) !== sortOf(query));
        const key = `${viewer} ${JSON.stringify(query)}`;
        if (!cursors.has(key)) cursors.set(key, (await listAds(viewer, query)).next_cursor!);
        const cursor = cursors.get(key)!;
        expect(cursor, `${shown(query)} has a second page`).toBeTruthy();
        await expectPgError(listAds(viewer, { ...other, cursor }), { code: '22023', detail: 'invalid_cursor' });
        counts.refusals += 1;
      }),
      { seed: SEED, numRuns: Math.max(30, Math.ceil(RUNS / 2)) },
    );
  }, 300_000);

  it('refuses a tampered cursor, and takes it back unchanged', async () => {
    const base64url = (text: string) => Buffer.from(text).toString('base64url');
    const sources: { query: Query; cursor: string }[] = [];
    for (const query of [{}, { sort: 'longest_running' }, { sort: 'recently_seen' }, { search: 'sale', sort: 'relevance' }]) {
      const first = await listAds('subscriber', query);
      if (first.next_cursor) sources.push({ query, cursor: first.next_cursor });
    }
    expect(sources.length).toBeGreaterThanOrEqual(3);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/ ';
    const tampering = fc.oneof(
      fc.tuple(fc.nat(), fc.constantFrom(...alphabet)).map(([at, letter]) => ({ kind: 'letter', at, letter })),
      fc.nat().map((at) => ({ kind: 'cut', at })),
      fc.constantFrom('A', 'AA', '.', '=', 'x').map((tail) => ({ kind: 'append', tail })),
      fc.nat().map((other) => ({ kind: 'other signature', other })),
      fc.tuple(fc.nat(), fc.constantFrom<unknown>(0, 1, 2, -1, 'x', null, true, '2026-01-01T00:00:00.000000Z', '00000000-0000-0000-0000-000000000000'))
        .map(([at, value]) => ({ kind: 'payload value', at, value })),
      fc.constantFrom('', '.', 'e30.AAAAAAAAAAAAAAAAAAAAAAAA', 'x'.repeat(1001)).map((text) => ({ kind: 'replaced', text })),
    );
    const tamper = (cursor: string, t: Record<string, unknown>, others: string[]): string => {
      const [payload, signature] = [cursor.split('.')[0]!, cursor.split('.').slice(1).join('.')];
      switch (t.kind) {
        case 'letter': {
          const at = (t.at as number) % cursor.length;
          return cursor.slice(0, at) + (t.letter as string) + cursor.slice(at + 1);
        }
        case 'cut':
          return cursor.slice(0, (t.at as number) % cursor.length);
        case 'append':
          return cursor + (t.tail as string);
        case 'other signature': {
          const other = others[(t.other as number) % others.length]!;
          return `${payload}.${other.split('.').slice(1).join('.')}`;
        }
        case 'payload value': {
          const fields = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
          const keys = Object.keys(fields);
          fields[keys[(t.at as number) % keys.length]!] = t.value;
          return `${base64url(JSON.stringify(fields))}.${signature}`;
        }
        default:
          return t.text as string;
      }
    };
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: sources.length - 1 }), tampering, async (which, t) => {
        const { query, cursor } = sources[which]!;
        const forged = tamper(cursor, t, sources.filter((_, i) => i !== which).map((s) => s.cursor));
        fc.pre(forged !== cursor);
        await expectPgError(listAds('subscriber', { ...query, cursor: forged }), { code: '22023', detail: 'invalid_cursor' });
        counts.refusals += 1;
      }),
      { seed: SEED, numRuns: Math.max(40, RUNS) },
    );
    // The cursors themselves are good.
    for (const { query, cursor } of sources) expect((await listAds('subscriber', { ...query, cursor })).ads.length).toBeGreaterThan(0);
  }, 300_000);
});
