/**
 * `npm run bench:reference`: list_ads held to its definition on bench:db's library, where the planner takes the
 * index paths that tests/sql/listing-reference.test.ts's small library never reaches (a tag's rows of ad_tags, the
 * running days inside the newest index, bitmap reads of the search index).
 *
 * It opens the obyect_bench a bench:db run kept (`BENCH_KEEP_DATABASE=1 BENCH_ENGINES=postgres npm run bench:db`),
 * draws random queries from a fixed seed over its catalogue, and asks each as an anonymous visitor and as the bench's
 * subscriber: the first pages (walked through next_cursor) must hold the definition's ads in its order, each page its
 * clear ads first, and an exact total must be the definition's count. The definition reads every ad, so each query
 * takes seconds at 1,000,000 ads. Settings:
 *   BENCH_REFERENCE_QUERIES  random queries (default 40)
 *   BENCH_REFERENCE_PAGES    pages walked per query and viewer (default 3)
 *   BENCH_REFERENCE_SEED     the seed of the queries (default 20261203)
 * It exits non-zero on the first difference, printing the query.
 */
import fc from 'fast-check';
import { anon, becomeIn, claimsOf, userActor, type Actor } from '../tests/support/acting.ts';
import { referenceSql } from '../tests/support/listing-reference-sql.ts';
import { openPostgresBench, type BenchConnection } from './bench-database.ts';
import { findBenchData, SEARCHES } from './seed.ts';
import { intFromEnv } from './settings.ts';

const QUERIES = intFromEnv('BENCH_REFERENCE_QUERIES', 40);
const PAGES = intFromEnv('BENCH_REFERENCE_PAGES', 3);
const SEED = intFromEnv('BENCH_REFERENCE_SEED', 20261203);
const PAGE_SIZE = 60;

type Query = Record<string, unknown>;
interface Page {
  ads: { id: string; is_clear: boolean }[];
  next_cursor: string | null;
  total?: number;
  total_is_estimate?: boolean;
}
interface Expected {
  id: string;
  clear: boolean;
}

const ids = async (db: BenchConnection, sql: string) => (await db.query<{ id: string }>(sql)).rows.map((row) => row.id);

/** Each field present about `percent` of the time; the values the bench's library holds. */
async function queryArbitrary(db: BenchConnection): Promise<fc.Arbitrary<Query>> {
  const brands = await ids(db, 'select id from public.brands order by name');
  const categories = await ids(db, 'select id from public.categories order by name');
  const types = await ids(db, 'select id from public.types order by name');
  const tags = await ids(db, 'select id from public.tags where system_key is null order by name');
  const hooks = await ids(db, 'select id from public.hooks order by name');
  const colours = (await db.query<{ name: string }>('select name from private.colour_palette order by name')).rows.map((row) => row.name);
  const sometimes = <T>(value: fc.Arbitrary<T>, percent: number) =>
    fc.oneof({ arbitrary: value, weight: percent }, { arbitrary: fc.constant(undefined), weight: 100 - percent });
  const someOf = (values: string[], most = 3) => fc.uniqueArray(fc.constantFrom(...values), { minLength: 1, maxLength: most });
  const search = fc.oneof(
    fc.constantFrom(...Object.values(SEARCHES)),
    fc.constantFrom('summer', 'free shipping', 'lumen sk', 'sale ', 'sunscreen', 'serum', 'glow', 'hydrating', 'xqzv'),
  );
  return fc
    .record({
      board: sometimes(fc.constantFrom('top-picks', 'black-friday'), 10),
      brand_ids: sometimes(someOf(brands), 20),
      category_ids: sometimes(someOf(categories), 15),
      type_ids: sometimes(someOf(types, 2), 10),
      tag_ids: sometimes(someOf(tags, 2), 25),
      since: sometimes(fc.integer({ min: 1, max: 700 }).map((days) => new Date(Date.now() - days * 86_400_000).toISOString()), 10),
      search: sometimes(search, 35),
      platforms: sometimes(someOf(['meta', 'instagram', 'tiktok', 'youtube', 'pinterest', 'snapchat', 'google'], 2), 20),
      format: sometimes(fc.constantFrom('single_image', 'carousel', 'video'), 15),
      offer: sometimes(fc.constantFrom('discount', 'free_shipping', 'bundle', 'none'), 15),
      hook_ids: sometimes(someOf(hooks, 2), 15),
      language: sometimes(fc.constantFrom('en', 'es', 'de', 'fr', 'pt'), 15),
      country: sometimes(fc.constantFrom('US', 'GB', 'FR', 'DE', 'ES'), 10),
      min_running_days: sometimes(fc.constantFrom(7, 30, 60, 90, 180, 365), 25),
      still_running: sometimes(fc.constant(true), 15),
      sort: sometimes(fc.constantFrom('newest', 'longest_running', 'recently_seen', 'relevance'), 70),
      colour: sometimes(fc.constantFrom(...colours), 15),
    })
    .map((query) => Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined)));
}

async function listAds(db: BenchConnection, actor: Actor, query: Query): Promise<Page> {
  await db.exec('begin');
  try {
    await becomeIn(db, actor);
    const { rows } = await db.query<{ page: string }>('select public.list_ads($1::jsonb)::text as page', [JSON.stringify(query)]);
    return JSON.parse(rows[0]!.page) as Page;
  } finally {
    await db.exec('rollback');
  }
}

/** The definition's first ads (and, asked for, its count) for the viewer: as the owner with the viewer's claims. */
async function reference(db: BenchConnection, actor: Actor, query: Query, limit: number, counted: boolean) {
  await db.exec('begin');
  try {
    await db.query(`select set_config('request.jwt.claims', $1, true)`, [JSON.stringify(claimsOf(actor))]);
    const first = (await db.query<Expected>(`${referenceSql} limit ${limit}`, [JSON.stringify(query)])).rows;
    const count = counted
      ? Number((await db.query<{ n: string }>(`select count(*) as n from (${referenceSql}) r`, [JSON.stringify(query)])).rows[0]!.n)
      : null;
    return { first, count };
  } finally {
    await db.exec('rollback');
  }
}

/** The pages of the query as the viewer against the definition: how many were compared, and whether the total was exact. */
async function compare(db: BenchConnection, label: string, actor: Actor, query: Query): Promise<{ pages: number; exact: boolean }> {
  const context = `${label} ${JSON.stringify(query)}`;
  const pages: Page[] = [];
  let cursor: string | null = null;
  do {
    pages.push(await listAds(db, actor, cursor === null ? query : { ...query, cursor }));
    cursor = pages.at(-1)!.next_cursor;
  } while (cursor !== null && pages.length < PAGES);
  const exact = pages[0]!.total_is_estimate === false;
  const expected = await reference(db, actor, query, PAGES * PAGE_SIZE + 1, exact);
  const clear = new Map(expected.first.map((ad) => [ad.id, ad.clear]));
  if (exact && pages[0]!.total !== expected.count) {
    throw new Error(`${context}: the total is ${pages[0]!.total}, the definition counts ${expected.count}`);
  }
  pages.forEach((page, index) => {
    const want = expected.first.slice(index * PAGE_SIZE, (index + 1) * PAGE_SIZE).map((ad) => ad.id);
    const inOrder = [...want.filter((id) => clear.get(id)), ...want.filter((id) => !clear.get(id))];
    const got = page.ads.map((ad) => ad.id);
    if (JSON.stringify(got) !== JSON.stringify(inOrder)) {
      const missing = inOrder.filter((id) => !got.includes(id)).length;
      throw new Error(`${context}: page ${index + 1} differs from the definition (${got.length} ads for ${inOrder.length}, ${missing} missing)`);
    }
    if (page.ads.some((ad) => ad.is_clear !== clear.get(ad.id))) throw new Error(`${context}: is_clear differs on page ${index + 1}`);
    const more = expected.first.length > (index + 1) * PAGE_SIZE;
    if ((page.next_cursor !== null) !== more) throw new Error(`${context}: next_cursor of page ${index + 1} is ${page.next_cursor === null ? 'null' : 'set'}`);
  });
  return { pages: pages.length, exact };
}

async function main() {
  const db = await openPostgresBench({ keep: true, reuse: true });
  try {
    const data = await findBenchData(db);
    const viewers: [string, Actor][] = [['anonymous', anon], ['subscriber', userActor(data.subscriber)]];
    const queries = fc.sample(await queryArbitrary(db), { seed: SEED, numRuns: QUERIES });
    console.log(`list_ads against its definition on ${data.adCount.toLocaleString('en-US')} ads: ${QUERIES} random queries (seed ${SEED}), `
      + `up to ${PAGES} pages each, as an anonymous visitor and a subscriber`);
    const started = performance.now();
    let pages = 0;
    let exactTotals = 0;
    for (const [n, query] of queries.entries()) {
      for (const [label, actor] of viewers) {
        if (label === 'anonymous' && query.board === 'black-friday') continue;
        const compared = await compare(db, label, actor, query);
        pages += compared.pages;
        if (compared.exact) exactTotals += 1;
      }
      if ((n + 1) % 10 === 0) console.log(`  ${n + 1} queries, ${pages} pages, ${((performance.now() - started) / 1000).toFixed(0)} s`);
    }
    console.log(`All ${QUERIES} queries answered as the definition does: ${pages} pages compared, ${exactTotals} exact totals checked, `
      + `${((performance.now() - started) / 1000).toFixed(0)} s.`);
  } finally {
    await db.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
