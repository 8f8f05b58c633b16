import type { Engine } from '../local/db/database.ts';
import { anon, userActor, type Actor } from '../tests/support/acting.ts';
import { SEARCHES, type BenchData } from './seed.ts';

export type BenchFunction = 'list_ads' | 'get_ad' | 'get_ad_neighbours' | 'get_ads_admin' | 'similar_ads' | 'admin_near_duplicates' | 'admin_set_fingerprints';

export interface Caller {
  label: 'anon' | 'free' | 'subscriber' | 'admin';
  actor: Actor;
}

export interface BenchCase {
  name: string;
  fn: BenchFunction;
  callers: Caller[];
  sql: string;
  /** The parameters of the run-th call (get_ad walks through sample ads). */
  params: (run: number) => unknown[];
  /** How many ads one call returned, to show that the case does real work. */
  returned: (rows: Record<string, unknown>[]) => number;
}

/** The listing's first page: its own budget, and the yardstick every other list_ads case is measured against. */
export const FIRST_PAGE_CASE = 'list_ads library, first page';
/** Every other list_ads case's p95 is at most this many times the first page's, measured in the same run. */
export const LIST_ADS_MAX_MULTIPLE = 15;

/**
 * Budgets (p95, ms): on PostgreSQL at 1,000,000 ads the listing's first page 10 and every other list_ads case 50 (and
 * LIST_ADS_MAX_MULTIPLE times the first page); on PGlite at 100,000 ads every list_ads case 150. The other functions'
 * budgets hold on PostgreSQL; their PGlite figures are printed without one.
 */
export function budgetOf(fn: BenchFunction, engine: Engine, caseName = ''): number | null {
  if (fn === 'list_ads') {
    if (engine === 'pglite') return 150;
    return caseName === FIRST_PAGE_CASE ? 10 : 50;
  }
  if (engine !== 'postgres') return null;
  if (fn === 'get_ads_admin') return 50;
  // "More like this" holds 50 ms at 100,000 ads (docs/decisions/0038); a duplicate lookup is one upload's wait.
  if (fn === 'similar_ads' || fn === 'admin_near_duplicates') return 50;
  // Storing one ad's fingerprint (an upload's row, a backfill's batch of one), with every trigger it sets off.
  if (fn === 'admin_set_fingerprints') return 50;
  return null;
}

// One parameter, the query's JSON text as jsonb, as the API passes a body's p_query (local/rest/rpc-sql.ts). A
// function that returns json is asked for its text, as the API asks: the API sends those bytes on and never parses
// them, so a call's time holds no JSON.parse in Node. The cases parse the last answer after timing.
const LIST_ADS_SQL = 'select public.list_ads($1::jsonb)::text as page';
/**
 * The same with a second brand added to the query's brand_ids, found by its name ($2) in the statement: the bench's data
 * names one brand (BenchData.brand), and the second one's id is a read of 50 brands by name, next to nothing.
 */
const LIST_ADS_WITH_BRAND_NAMED_SQL = `select public.list_ads($1::jsonb || jsonb_build_object('brand_ids',
    ($1::jsonb -> 'brand_ids') || to_jsonb(array(select b.id from public.brands b where b.name = $2))))::text as page`;
/** The brand that two-brand cases add to BenchData.brand (Lumen Skincare): another of the 50, each on 2% of the ads. */
const SECOND_BRAND_NAME = 'Glow Theory';
const ADMIN_SQL =
  'select * from public.get_ads_admin(p_limit => 50, p_offset => 0, p_search => $1, p_brand => $2,'
  + ' p_date_from => $3, p_date_to => $4, p_sort => $5)';

export interface ListAdsArgs {
  board?: 'library' | 'black-friday' | 'top-picks';
  brandIds?: string[];
  categoryIds?: string[];
  typeIds?: string[];
  tagIds?: string[];
  since?: string;
  search?: string;
  cursor?: string;
  platforms?: string[];
  format?: string;
  offer?: string;
  hookIds?: string[];
  language?: string;
  country?: string;
  minRunningDays?: number;
  stillRunning?: boolean;
  sort?: 'newest' | 'longest_running' | 'recently_seen' | 'relevance';
  colour?: string;
}

/** Cursors deep into the other orders (bench/db.ts signs them as list_ads does). */
export interface SortCursors {
  depth: number;
  searchDepth: number;
  longest: string;
  recent: string;
  relevance: string;
}

/** list_ads' one argument (p_query) for these arguments: the board, and every other field that is set, in its own name. */
export function listAdsQuery(args: ListAdsArgs): Record<string, unknown> {
  const fields: Record<string, unknown> = {
    board: args.board ?? 'library',
    brand_ids: args.brandIds,
    category_ids: args.categoryIds,
    type_ids: args.typeIds,
    tag_ids: args.tagIds,
    since: args.since,
    search: args.search,
    cursor: args.cursor,
    platforms: args.platforms,
    format: args.format,
    offer: args.offer,
    hook_ids: args.hookIds,
    language: args.language,
    country: args.country,
    min_running_days: args.minRunningDays,
    still_running: args.stillRunning,
    sort: args.sort,
    colour: args.colour,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

const listAdsParams = (args: ListAdsArgs): unknown[] => [JSON.stringify(listAdsQuery(args))];

export const listAdsCall = (args: ListAdsArgs) => ({ sql: LIST_ADS_SQL, params: listAdsParams(args) });

/** The JSON text a call returned in `column` (null when it returned none), parsed. */
export const answerOf = <T>(rows: Record<string, unknown>[], column: string): T | null => {
  const text = rows[0]?.[column];
  return typeof text === 'string' ? (JSON.parse(text) as T) : null;
};

/** A list_ads answer: its ads and next cursor. */
export const pageOf = (rows: Record<string, unknown>[]) => answerOf<{ ads?: unknown[]; next_cursor?: string | null }>(rows, 'page');

const pageLength = (rows: Record<string, unknown>[]) => (pageOf(rows)?.ads ?? []).length;

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
const dayOf = (iso: string) => iso.slice(0, 10);

export function buildCases(data: BenchData, deep: { depth: number; cursor: string }, sorts: SortCursors): BenchCase[] {
  const anonymous: Caller = { label: 'anon', actor: anon };
  const free: Caller = { label: 'free', actor: userActor(data.free) };
  const subscriber: Caller = { label: 'subscriber', actor: userActor(data.subscriber) };
  const admin: Caller = { label: 'admin', actor: userActor(data.admin) };
  const since = daysAgo(30);

  const listAds = (name: string, args: ListAdsArgs, callers: Caller[] = [anonymous, subscriber]): BenchCase => ({
    name: `list_ads ${name}`,
    fn: 'list_ads',
    callers,
    sql: LIST_ADS_SQL,
    params: () => listAdsParams(args),
    returned: pageLength,
  });
  // Two brands: BenchData.brand's id in brand_ids and the second brand's added by the statement.
  const listAdsOfTwoBrands = (name: string, args: ListAdsArgs): BenchCase => ({
    ...listAds(name, { ...args, brandIds: [data.brand.id] }),
    sql: LIST_ADS_WITH_BRAND_NAMED_SQL,
    params: () => [...listAdsParams({ ...args, brandIds: [data.brand.id] }), SECOND_BRAND_NAME],
  });
  const adminPage = (name: string, args: { search?: string; brandId?: string; from?: string; to?: string; sort?: string }): BenchCase => ({
    name: `get_ads_admin ${name}`,
    fn: 'get_ads_admin',
    callers: [admin],
    sql: ADMIN_SQL,
    params: () => [args.search ?? null, args.brandId ?? null, args.from ?? null, args.to ?? null, args.sort ?? 'newest'],
    returned: (rows) => rows.length,
  });
  const adAt = (run: number) => data.sampleAdIds[run % data.sampleAdIds.length]!;
  let fingerprintWrites = 0;

  return [
    listAds('library, first page', {}),
    listAds(`library, page ${deep.depth.toLocaleString('en-US')} rows deep`, { cursor: deep.cursor }),
    listAds('brand', { brandIds: [data.brand.id] }),
    listAds('category', { categoryIds: [data.category.id] }),
    listAds('type', { typeIds: [data.type.id] }),
    listAds('one tag', { tagIds: [data.tag.id] }),
    listAds('two tags', { tagIds: [data.tag.id, data.secondTag.id] }),
    listAds('since 30 days', { since }),
    listAds('brand + category', { brandIds: [data.brand.id], categoryIds: [data.category.id] }),
    listAds(`search brand fragment "${SEARCHES.brandFragment}"`, { search: SEARCHES.brandFragment }),
    listAds(`search tag name "${SEARCHES.tagName}"`, { search: SEARCHES.tagName }),
    listAds(`search one letter "${SEARCHES.oneLetter}"`, { search: SEARCHES.oneLetter }),
    listAds('Black Friday board', { board: 'black-friday' }, [free, subscriber]),
    // The facts' filters, newest first.
    listAds('platform tiktok', { platforms: ['tiktok'] }),
    listAds('platform snapchat (rare)', { platforms: ['snapchat'] }),
    listAds('platforms pinterest or snapchat', { platforms: ['pinterest', 'snapchat'] }),
    listAds('format video', { format: 'video' }),
    listAds('offer free_shipping', { offer: 'free_shipping' }),
    listAds('hook', { hookIds: [data.hook.id] }),
    listAds('running >= 60 days', { minRunningDays: 60 }),
    listAds('still running', { stillRunning: true }),
    listAds('brand + still running', { brandIds: [data.brand.id], stillRunning: true }),
    // Several values of one filter (any of them), and the ads' language and country (bench/seed.ts: half the ads in
    // English, 10% each in es, de and fr, 5% each in four more, the country going with the language; 5% neither).
    listAdsOfTwoBrands('two brands', {}),
    listAds('language de', { language: 'de' }),
    listAds('country FR + longest running', { country: 'FR', sort: 'longest_running' }),
    listAdsOfTwoBrands('two brands + language es', { language: 'es' }),
    // The orders: first page and a page deep into each.
    listAds('longest running, first page', { sort: 'longest_running' }),
    listAds(`longest running, page ${sorts.depth.toLocaleString('en-US')} rows deep`, { sort: 'longest_running', cursor: sorts.longest }),
    listAds('recently seen, first page', { sort: 'recently_seen' }),
    listAds(`recently seen, page ${sorts.depth.toLocaleString('en-US')} rows deep`, { sort: 'recently_seen', cursor: sorts.recent }),
    listAds('longest running + brand', { sort: 'longest_running', brandIds: [data.brand.id] }),
    listAds('running >= 60 days + tiktok + longest running', { minRunningDays: 60, platforms: ['tiktok'], sort: 'longest_running' }),
    // The search of the ads' own words.
    listAds(`search image text only "${SEARCHES.imageTextOnly}"`, { search: SEARCHES.imageTextOnly }),
    listAds(`search image text only "${SEARCHES.imageTextOnly}", relevance`, { search: SEARCHES.imageTextOnly, sort: 'relevance' }),
    listAds(`search partial word "${SEARCHES.partialWord}"`, { search: SEARCHES.partialWord }),
    listAds(`search partial word "${SEARCHES.partialWord}", relevance`, { search: SEARCHES.partialWord, sort: 'relevance' }),
    listAds(`search no ad matches "${SEARCHES.noMatch}"`, { search: SEARCHES.noMatch }),
    listAds(`search no ad matches "${SEARCHES.noMatch}", relevance`, { search: SEARCHES.noMatch, sort: 'relevance' }),
    listAds(`search common word "${SEARCHES.commonWord}", relevance`, { search: SEARCHES.commonWord, sort: 'relevance' }),
    listAds(`search common word "${SEARCHES.commonWord}", relevance, page ${sorts.searchDepth.toLocaleString('en-US')} rows deep`, {
      search: SEARCHES.commonWord, sort: 'relevance', cursor: sorts.relevance,
    }),
    listAds(`search brand fragment "${SEARCHES.brandFragment}", relevance`, { search: SEARCHES.brandFragment, sort: 'relevance' }),
    listAds(`search "${SEARCHES.imageTextOnly}" + longest running`, { search: SEARCHES.imageTextOnly, sort: 'longest_running' }),
    // A brand's name, rare among the newest 3,000 ads yet in 2% of the library, in the longest-running order.
    listAds(`search brand fragment "${SEARCHES.brandFragment}" + longest running`, { search: SEARCHES.brandFragment, sort: 'longest_running' }),
    // Searches in the recently-seen order: a brand's name, a rare word and two words.
    listAds(`search brand fragment "${SEARCHES.brandFragment}" + recently seen`, { search: SEARCHES.brandFragment, sort: 'recently_seen' }),
    listAds(`search "${SEARCHES.imageTextOnly}" + recently seen`, { search: SEARCHES.imageTextOnly, sort: 'recently_seen' }),
    listAds(`search two words "${SEARCHES.twoWords}" + recently seen`, { search: SEARCHES.twoWords, sort: 'recently_seen' }),
    listAds('Top Picks', { board: 'top-picks' }),
    // The colour swatches (docs/decisions/0038): a common one, a rare one, and with other filters and orders.
    listAds('colour white', { colour: 'white' }),
    listAds('colour purple (rare)', { colour: 'purple' }),
    listAds('colour blue + brand', { colour: 'blue', brandIds: [data.brand.id] }),
    listAds('colour purple + longest running', { colour: 'purple', sort: 'longest_running' }),
    listAds('colour purple + running >= 60 days', { colour: 'purple', minRunningDays: 60 }),
    // A filter in the dated orders: a category, a hook, and a rare colour with a rare platform (0.07% of the library).
    listAds('category + longest running', { categoryIds: [data.category.id], sort: 'longest_running' }),
    listAds('hook + recently seen', { hookIds: [data.hook.id], sort: 'recently_seen' }),
    listAds('colour purple + recently seen', { colour: 'purple', sort: 'recently_seen' }),
    listAds('colour purple + snapchat + longest running', { colour: 'purple', platforms: ['snapchat'], sort: 'longest_running' }),
    // A search with filters, in each order: a rare word on a common platform, a brand's name with a fact, a common
    // word with an offer and a hook.
    listAds(`search "${SEARCHES.imageTextOnly}" + tiktok`, { search: SEARCHES.imageTextOnly, platforms: ['tiktok'] }),
    listAds(`search "${SEARCHES.imageTextOnly}" + tiktok + longest running`, { search: SEARCHES.imageTextOnly, platforms: ['tiktok'], sort: 'longest_running' }),
    listAds(`search "${SEARCHES.imageTextOnly}" + tiktok + recently seen`, { search: SEARCHES.imageTextOnly, platforms: ['tiktok'], sort: 'recently_seen' }),
    listAds(`search brand fragment "${SEARCHES.brandFragment}" + still running + longest running`, {
      search: SEARCHES.brandFragment, stillRunning: true, sort: 'longest_running',
    }),
    listAds(`search brand fragment "${SEARCHES.brandFragment}" + video + recently seen`, { search: SEARCHES.brandFragment, format: 'video', sort: 'recently_seen' }),
    listAds(`search common word "${SEARCHES.commonWord}" + discount + hook + longest running`, {
      search: SEARCHES.commonWord, offer: 'discount', hookIds: [data.hook.id], sort: 'longest_running',
    }),
    // A search with the running days, newest first: a common word, a rare one, and a brand's name with 60 days and
    // with the days of a year (fewer of its ads ran that long).
    listAds(`search common word "${SEARCHES.commonWord}" + running >= 60 days`, { search: SEARCHES.commonWord, minRunningDays: 60 }),
    listAds(`search "${SEARCHES.imageTextOnly}" + running >= 60 days`, { search: SEARCHES.imageTextOnly, minRunningDays: 60 }),
    listAds(`search brand fragment "${SEARCHES.brandFragment}" + running >= 60 days`, { search: SEARCHES.brandFragment, minRunningDays: 60 }),
    listAds(`search brand fragment "${SEARCHES.brandFragment}" + running >= 365 days`, { search: SEARCHES.brandFragment, minRunningDays: 365 }),
    listAds(`search common word "${SEARCHES.commonWord}" + running >= 60 days + tiktok`, {
      search: SEARCHES.commonWord, minRunningDays: 60, platforms: ['tiktok'],
    }),
    // The same in the relevance order, a search's order unless the user picks another: the ads whose words match
    // first, then those whose text holds the search anywhere.
    listAds(`search common word "${SEARCHES.commonWord}" + running >= 60 days, relevance`, {
      search: SEARCHES.commonWord, minRunningDays: 60, sort: 'relevance',
    }),
    listAds(`search "${SEARCHES.imageTextOnly}" + running >= 365 days, relevance`, {
      search: SEARCHES.imageTextOnly, minRunningDays: 365, sort: 'relevance',
    }),
    listAds(`search brand fragment "${SEARCHES.brandFragment}" + running >= 365 days, relevance`, {
      search: SEARCHES.brandFragment, minRunningDays: 365, sort: 'relevance',
    }),
    listAds(`search two words "${SEARCHES.twoWords}" + running >= 60 days, relevance`, {
      search: SEARCHES.twoWords, minRunningDays: 60, sort: 'relevance',
    }),
    {
      name: 'similar_ads',
      fn: 'similar_ads',
      callers: [anonymous, subscriber],
      sql: 'select public.similar_ads($1::uuid)::text as ads',
      params: (run) => [adAt(run)],
      returned: (rows) => (answerOf<unknown[]>(rows, 'ads') ?? []).length,
    },
    {
      name: 'admin_near_duplicates',
      fn: 'admin_near_duplicates',
      callers: [admin],
      sql: 'select public.admin_near_duplicates($1::bigint, $2::real[])::text as ads',
      params: (run) => {
        const print = data.sampleFingerprints[run % Math.max(1, data.sampleFingerprints.length)];
        return [print?.hash ?? '0', print?.histogram ?? new Array(16).fill(1 / 16)];
      },
      returned: (rows) => (answerOf<unknown[]>(rows, 'ads') ?? []).length,
    },
    {
      // A write: each call stores a sample ad's fingerprint with its lowest bit flipped, and the next call for that ad
      // flips it back, so the ads near it and pointing at it look again every time.
      name: 'admin_set_fingerprints (one ad)',
      fn: 'admin_set_fingerprints',
      callers: [admin],
      sql: 'select public.admin_set_fingerprints($1::jsonb) as written',
      // Counted per call, not by run number: the plan check and the warm-up call too, and each call must change the hash.
      params: () => {
        const call = fingerprintWrites++;
        const count = Math.max(1, data.sampleFingerprints.length);
        const print = data.sampleFingerprints[call % count];
        if (!print) return ['[]'];
        const flipped = Math.floor(call / count) % 2 === 0 ? BigInt.asIntN(64, BigInt(print.hash) ^ 1n).toString() : print.hash;
        return [JSON.stringify([{ id: print.id, hash: flipped, histogram: print.histogram, colours: print.colours }])];
      },
      returned: (rows) => Number(rows[0]?.written ?? 0),
    },
    {
      name: 'get_ad',
      fn: 'get_ad',
      callers: [anonymous, subscriber],
      sql: 'select public.get_ad($1::uuid)::text as ad',
      params: (run) => [adAt(run)],
      returned: (rows) => (answerOf<unknown>(rows, 'ad') ? 1 : 0),
    },
    {
      name: 'get_ad_neighbours',
      fn: 'get_ad_neighbours',
      callers: [subscriber],
      sql: 'select public.get_ad_neighbours($1::uuid)::text as neighbours',
      params: (run) => [adAt(run)],
      returned: (rows) => Object.values(answerOf<Record<string, unknown>>(rows, 'neighbours') ?? {}).filter(Boolean).length,
    },
    adminPage('first page, newest', {}),
    adminPage('brand filter', { brandId: data.brand.id }),
    adminPage(`search "${SEARCHES.brandFragment}"`, { search: SEARCHES.brandFragment }),
    adminPage('sorted brand_asc', { sort: 'brand_asc' }),
    adminPage('date range of 30 days', { from: dayOf(daysAgo(60)), to: dayOf(daysAgo(31)) }),
  ];
}
