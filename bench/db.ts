import { cpus, loadavg } from 'node:os';
import type { Engine } from '../local/db/database.ts';
import { anon } from '../tests/support/acting.ts';
import { BENCH_DATABASE_NAME, openPgliteBench, openPostgresBench, serverUrl, type BenchConnection } from './bench-database.ts';
import { describeWrites, measureWrites } from './writes.ts';
import { answerOf, budgetOf, buildCases, FIRST_PAGE_CASE, LIST_ADS_MAX_MULTIPLE, listAdsCall, pageOf, type BenchCase, type ListAdsArgs, type SortCursors } from './cases.ts';
import { callAs, measure, percentile, type RunLimits } from './measure.ts';
import { checkPlans, describeScans, disablePlanCapture, enablePlanCapture, renderPlan, type PlanCheck } from './plans.ts';
import { machineDescription, writeResults, type Figure } from './results.ts';
import { findBenchData, SEARCHES, seedBench, type BenchData } from './seed.ts';
import { intFromEnv } from './settings.ts';

/**
 * Latency of the listing and admin functions on a large library, as the API
 * calls them (role and JWT claims set per transaction), on PostgreSQL and
 * PGlite, with the plans of the SQL each function executes. Exits non-zero on
 * an error only: a missed budget prints FAIL.
 */

const env = process.env;

const settings = {
  engines: (env.BENCH_ENGINES ?? 'postgres,pglite').split(',').map((name) => name.trim()) as Engine[],
  ads: { postgres: intFromEnv('BENCH_POSTGRES_ADS', 1_000_000), pglite: intFromEnv('BENCH_PGLITE_ADS', 100_000) },
  limits: { warmupRuns: 10, runs: intFromEnv('BENCH_RUNS', 200), seconds: intFromEnv('BENCH_SECONDS', 5) } satisfies RunLimits,
  keepDatabase: env.BENCH_KEEP_DATABASE === '1',
  /** PostgreSQL only: the obyect_bench a run with BENCH_KEEP_DATABASE=1 left, measured as it is (no migration, no seed). */
  reuseDatabase: env.BENCH_REUSE_DATABASE === '1',
  /** Only the cases whose name contains one of these (comma-separated), e.g. "longest,search". */
  /** BENCH_WRITES=0 leaves out the writes (minutes at 1,000,000 ads), for a run of a few cases. */
  writes: env.BENCH_WRITES !== '0',
  cases: (env.BENCH_CASES ?? '').split(',').map((part) => part.trim().toLowerCase()).filter(Boolean),
};

/** What signing the image links of one page costs: the same 60 ads built with and without their links. */
interface SigningCost {
  engine: Engine;
  ads: number;
  withLinks: number;
  withoutLinks: number;
}

interface Row {
  bench: BenchCase;
  /** The case's place in the list, the same on every engine. */
  position: number;
  caller: string;
  engine: Engine;
  ads: number;
  runs: number;
  returned: number;
  p50: number;
  p95: number;
  budget: number | null;
  plan: PlanCheck | null;
}

/**
 * The case every list_ads case is read against: the same machine's speed moves both alike, so a case's p50 over the
 * first page's p50 in the same run compares across runs and machines where milliseconds do not.
 */
const REFERENCE_CASE = FIRST_PAGE_CASE;

const log = (line = '') => process.stdout.write(`${line}\n`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function decodeCursorKey(cursor: string): string {
  const payload = JSON.parse(Buffer.from(cursor.split('.')[0]!, 'base64url').toString('utf8')) as { q?: string };
  if (!payload.q) throw new Error('A list_ads cursor has no query key');
  return payload.q;
}

/**
 * A cursor for the library page `depth` rows deep, signed by the database as
 * list_ads signs its own, with the query key taken from the first page's real
 * next_cursor (so the benchmark never has to rebuild how the key is made).
 */
async function deepCursor(conn: BenchConnection, depth: number): Promise<string> {
  const call = listAdsCall({});
  const first = await callAs(conn, anon, call.sql, call.params);
  const nextCursor = pageOf(first.rows)?.next_cursor;
  if (!nextCursor) throw new Error('The first library page has no next_cursor');
  const { rows } = await conn.query<{ cursor: string | null }>(
    `select private.sign_cursor(jsonb_build_object('q', $1::text, 'k', private.iso_utc(a.created_at), 'i', a.id)) as cursor
       from public.ads a where not a.is_black_friday
      order by a.created_at desc, a.id desc offset $2::int - 1 limit 1`,
    [decodeCursorKey(nextCursor), depth],
  );
  const cursor = rows[0]?.cursor;
  if (!cursor) throw new Error(`The library has fewer than ${depth} ads`);
  const deep = await callAs(conn, anon, call.sql, listAdsCall({ cursor }).params);
  const ads = pageOf(deep.rows)?.ads ?? [];
  if (ads.length !== 60) throw new Error(`The page ${depth} rows deep has ${ads.length} ads instead of 60`);
  return cursor;
}

/**
 * A cursor `depth` rows deep into a query in another order, signed by the database the way list_ads signs its own:
 * the query key comes from the first page's real next_cursor, the position is the row at that depth in the query's
 * order (`order`), written with the keys list_ads puts in a cursor besides the query key and the id (`keys`, over
 * ads a). The bench checks that the page has 60 ads.
 */
async function sortCursor(conn: BenchConnection, args: ListAdsArgs, where: string, keys: string, order: string, depth: number): Promise<string> {
  const first = await callAs(conn, anon, listAdsCall(args).sql, listAdsCall(args).params);
  const nextCursor = pageOf(first.rows)?.next_cursor;
  if (!nextCursor) throw new Error(`The first page of ${JSON.stringify(args)} has no next_cursor`);
  const { rows } = await conn.query<{ cursor: string | null }>(
    `select private.sign_cursor(jsonb_build_object('q', $1::text, 'i', a.id, ${keys})) as cursor
       from public.ads a where not a.is_black_friday and ${where}
      order by ${order} offset $2::int - 1 limit 1`,
    [decodeCursorKey(nextCursor), depth],
  );
  const cursor = rows[0]?.cursor;
  if (!cursor) throw new Error(`${JSON.stringify(args)} has fewer than ${depth} ads`);
  const deep = await callAs(conn, anon, listAdsCall(args).sql, listAdsCall({ ...args, cursor }).params);
  const ads = pageOf(deep.rows)?.ads ?? [];
  if (ads.length !== 60) throw new Error(`The page ${depth} rows deep of ${JSON.stringify(args)} has ${ads.length} ads instead of 60`);
  return cursor;
}

/**
 * Deep cursors for the other orders: half the table deep (the longest-running and recently-seen keys are the ones
 * stored on each ad), and into the first tier (the ads whose words match) of a common word's search.
 */
async function sortCursors(conn: BenchConnection, adCount: number): Promise<SortCursors> {
  const depth = Math.floor(adCount / 2);
  const searchDepth = Math.floor(adCount / 50);
  return {
    depth,
    searchDepth,
    longest: await sortCursor(conn, { sort: 'longest_running' }, 'true', `'k', a.running_days_key::text`, 'a.running_days_key desc, a.id', depth),
    recent: await sortCursor(conn, { sort: 'recently_seen' }, 'true', `'k', a.last_seen_key::text`, 'a.last_seen_key desc, a.id', depth),
    relevance: await sortCursor(
      conn,
      { sort: 'relevance', search: SEARCHES.commonWord },
      `a.search_vector @@ '${SEARCHES.commonWord}:*'::tsquery`,
      `'k', private.iso_utc(a.created_at), 'r', 1`,
      'a.created_at desc, a.id desc',
      searchDepth,
    ),
  };
}

async function openEngine(engine: Engine): Promise<BenchConnection> {
  if (engine === 'postgres') return openPostgresBench({ keep: settings.keepDatabase, reuse: settings.reuseDatabase });
  if (engine === 'pglite') return openPgliteBench();
  throw new Error(`Unknown engine ${String(engine)} in BENCH_ENGINES (postgres, pglite)`);
}

async function benchEngine(engine: Engine): Promise<Row[]> {
  const adCount = settings.ads[engine];
  const where = engine === 'postgres' ? `database ${BENCH_DATABASE_NAME} at ${new URL(serverUrl()).host}` : 'in memory';
  log(`\n${engine}: ${adCount.toLocaleString('en-US')} ads, ${where}`);
  const started = performance.now();
  const conn = await openEngine(engine);
  try {
    log(`  migrated in ${seconds(performance.now() - started)}`);
    let data: BenchData;
    if (engine === 'postgres' && settings.reuseDatabase) {
      data = await findBenchData(conn);
      log(`  reusing the seeded ${data.adCount.toLocaleString('en-US')} ads`);
    } else {
      const seedStarted = performance.now();
      const seeded = await seedBench(conn, adCount);
      for (const timing of seeded.timings) log(`  seeded ${timing.step} in ${timing.seconds.toFixed(1)} s`);
      log(`  seeding took ${seconds(performance.now() - seedStarted)}`);
      data = seeded.data;
    }

    const depth = Math.floor(data.adCount / 2);
    const cases = buildCases(data, { depth, cursor: await deepCursor(conn, depth) }, await sortCursors(conn, data.adCount))
      // The library's first page is always measured: every list_ads case is read against it too.
      .filter((bench) => bench.name === REFERENCE_CASE || settings.cases.length === 0
        || settings.cases.some((part) => bench.name.toLowerCase().includes(part)));
    const rows = await measureCases(conn, engine, data, cases);
    log(`  measured ${rows.length} case/caller pairs; ${seconds(performance.now() - started)} since opening; ${machineLoad()}`);
    signingCosts.push(await measureSigning(conn, engine, data.adCount));
    if (settings.writes) for (const line of describeWrites(await measureWrites(conn))) log(`  ${line}`);

    await enablePlanCapture(conn);
    for (const bench of cases) {
      const plan = await checkPlans(conn, bench.callers[0]!.actor, bench.sql, bench.params(0));
      for (const row of rows) if (row.bench === bench) row.plan = plan;
    }
    await disablePlanCapture(conn);
    await conn.close();
    return rows;
  } catch (error) {
    // Cleaning up must not hide why the run failed.
    await conn.close().catch((closing: unknown) => log(`  could not clean up after the failure: ${String(closing)}`));
    throw error;
  }
}

const signingCosts: SigningCost[] = [];

/**
 * A page of 60 clear ads as the lists build it (private.ads_json_text: card,
 * flag and two signed links each, 120 HMACs), against the same 60 cards and
 * flags put together the same way with no link: the difference is what signing
 * costs a subscriber's page.
 */
async function measureSigning(conn: BenchConnection, engine: Engine, ads: number): Promise<SigningCost> {
  const { rows } = await conn.query<{ ids: string[] }>(
    'select array_agg(id order by created_at desc, id desc) as ids from (select id, created_at from public.ads order by created_at desc, id desc limit 60) a',
  );
  const ids = rows[0]!.ids;
  const clear = ids.map(() => true);
  // As the database owner: private.ads_json_text is not callable by the API roles, and the role switch is not what is measured.
  const p50Of = async (sql: string, params: unknown[]) => {
    for (let run = 0; run < settings.limits.warmupRuns; run += 1) await conn.query(sql, params);
    const times: number[] = [];
    let last: Record<string, unknown>[] = [];
    const deadline = performance.now() + settings.limits.seconds * 1000;
    for (let run = 0; run < settings.limits.runs && (run === 0 || performance.now() < deadline); run += 1) {
      const started = performance.now();
      const result = await conn.query<Record<string, unknown>>(sql, params);
      times.push(performance.now() - started);
      last = result.rows;
    }
    times.sort((x, y) => x - y);
    return { p50: percentile(times, 0.5), returned: (answerOf<unknown[]>(last, 'page') ?? []).length };
  };
  const withLinks = await p50Of('select private.ads_json_text($1::uuid[], $2::boolean[])::text as page', [ids, clear]);
  const withoutLinks = await p50Of(
    `select ('[' || string_agg('{"is_clear": true, ' || right(a.card::text, -1), ', ' order by p.ord) || ']')::json::text as page
       from unnest($1::uuid[]) with ordinality as p (id, ord) join public.ads a on a.id = p.id`,
    [ids],
  );
  if (withLinks.returned !== 60 || withoutLinks.returned !== 60) throw new Error('The signing benchmark did not build 60 ads');
  log(`  signing a page's 120 image links: ${withLinks.p50.toFixed(2)} ms with links, ${withoutLinks.p50.toFixed(2)} ms without (p50)`);
  return { engine, ads, withLinks: withLinks.p50, withoutLinks: withoutLinks.p50 };
}

async function measureCases(conn: BenchConnection, engine: Engine, data: BenchData, cases: BenchCase[]): Promise<Row[]> {
  const rows: Row[] = [];
  for (const [position, bench] of cases.entries()) {
    for (const caller of bench.callers) {
      const timing = await measure(conn, caller.actor, bench.sql, bench.params, bench.returned, settings.limits);
      rows.push({
        bench,
        position,
        caller: caller.label,
        engine,
        ads: data.adCount,
        ...timing,
        budget: budgetOf(bench.fn, engine, bench.name),
        plan: null,
      });
    }
  }
  return rows;
}

/** The first page's row for the same caller and engine (anonymous when the caller has none). */
function firstPageOf(row: Row, rows: Row[]): Row | undefined {
  const reference = (caller: string) =>
    rows.find((other) => other.bench.name === REFERENCE_CASE && other.engine === row.engine && other.caller === caller);
  return reference(row.caller) ?? reference('anon');
}

/** A list_ads case's p95 over the first page's in the same run, or null for other functions. */
function p95Multiple(row: Row, rows: Row[]): number | null {
  if (row.bench.fn !== 'list_ads' || row.bench.name === REFERENCE_CASE) return null;
  const first = firstPageOf(row, rows);
  return first ? row.p95 / first.p95 : null;
}

/** Within its budget in ms, and a list_ads case on PostgreSQL also within its multiple of the first page. */
function verdict(row: Row, rows: Row[]): string {
  if (row.budget === null) return '-';
  const multiple = row.engine === 'postgres' ? p95Multiple(row, rows) : null;
  return row.p95 <= row.budget && (multiple === null || multiple <= LIST_ADS_MAX_MULTIPLE) ? 'pass' : 'FAIL';
}

function planVerdict(plan: PlanCheck | null): string {
  if (!plan) return 'n/a';
  if (plan.seqScans.length > 0) return `SEQ SCAN ${plan.seqScans.join('+')}`;
  return plan.usesIndex ? 'index' : 'no index';
}

function printPlans(rows: Row[]): void {
  log('\nPlans (auto_explain, ANALYZE on, BUFFERS off; one call per case, as its first caller):');
  const seen = new Set<PlanCheck>();
  for (const row of rows) {
    const plan = row.plan;
    if (!plan || seen.has(plan)) continue;
    seen.add(plan);
    const mainMs = plan.main ? `, main query ${plan.main.ms.toFixed(1)} ms` : '';
    log(
      `  [${row.engine}] ${row.bench.name}: ${planVerdict(plan)}; call ${plan.callMs.toFixed(1)} ms${mainMs}` +
        ` in ${plan.statements.length} statements; ${describeScans(plan.scans)}`,
    );
    // The main query's plan is worth reading when it scans a table or is most of a call that missed its budget.
    const failed = rows.some((other) => other.plan === plan && verdict(other, rows) === 'FAIL');
    const mainDominates = plan.main !== null && plan.main.ms > plan.callMs / 3;
    if (plan.main && (plan.seqScans.length > 0 || (failed && mainDominates))) {
      log(`    main query: ${plan.main.text.slice(0, 700)}`);
      for (const line of renderPlan(plan.main.plan)) log(`      ${line}`);
    }
  }
}

/** A list_ads row's p50 over the library's first page's, for the same caller and engine (anonymous when the caller has none). */
function timesFirstPage(row: Row, rows: Row[]): string {
  if (row.bench.fn !== 'list_ads') return '-';
  const first = firstPageOf(row, rows);
  return first ? `${(row.p50 / first.p50).toFixed(1)}x` : '-';
}

function p95TimesFirstPage(row: Row, rows: Row[]): string {
  const multiple = p95Multiple(row, rows);
  return multiple === null ? '-' : `${multiple.toFixed(1)}x`;
}

function printTable(rows: Row[]): void {
  const header = ['case', 'as', 'engine', 'rows', 'runs', 'got', 'p50 ms', 'p95 ms', 'p50 / page 1', 'p95 / page 1', 'budget', 'result', 'plan'];
  const body = rows.map((row) => [
    row.bench.name,
    row.caller,
    row.engine,
    row.ads.toLocaleString('en-US'),
    String(row.runs),
    String(row.returned),
    row.p50.toFixed(2),
    row.p95.toFixed(2),
    timesFirstPage(row, rows),
    p95TimesFirstPage(row, rows),
    row.budget === null ? '-' : `<= ${row.budget}`,
    verdict(row, rows),
    planVerdict(row.plan),
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...body.map((cells) => cells[column]!.length)));
  const numeric = new Set([3, 4, 5, 6, 7, 8, 9]);
  const line = (cells: string[]) =>
    cells.map((cell, column) => (numeric.has(column) ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!))).join(' | ');
  log(`\n${line(header)}`);
  log(widths.map((width) => '-'.repeat(width)).join('-|-'));
  for (const cells of body) log(line(cells));
}

// Other work shares the cores: the load beside the numbers says how quiet the machine was.
const machineLoad = () => `load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`;

async function main(): Promise<void> {
  const started = performance.now();
  log(
    `Obyect database benchmark: ${settings.limits.warmupRuns} warm-up calls, then up to ${settings.limits.runs} timed calls` +
      ` or ${settings.limits.seconds} s per case and caller; ${machineLoad()}.`,
  );
  const rows: Row[] = [];
  for (const engine of settings.engines) rows.push(...(await benchEngine(engine)));
  // Cases side by side across engines, in the order they were declared; PostgreSQL first.
  const engineOrder = (engine: Engine) => (engine === 'postgres' ? 0 : 1);
  rows.sort((a, b) => a.position - b.position || engineOrder(a.engine) - engineOrder(b.engine));
  printPlans(rows);
  printTable(rows);
  const budgeted = rows.filter((row) => row.budget !== null).length;
  const failed = rows.filter((row) => verdict(row, rows) === 'FAIL').length;
  const outcome = budgeted === 0 ? 'No budget applies' : failed === 0 ? `All ${budgeted} budgets met` : `${failed} of ${budgeted} over budget`;
  log(`\n${outcome}; total ${seconds(performance.now() - started)}; ${machineLoad()} at the end.`);
  writeResults({ bench: 'bench:db', machine: machineDescription(), figures: summaryFigures(rows) });
}

/** For `npm run bench`: per function and engine, the slowest case's p95 (every case is in the table above). */
function summaryFigures(rows: Row[]): Figure[] {
  const figures: Figure[] = [];
  const engineName = (engine: Engine) => (engine === 'postgres' ? 'PostgreSQL' : 'PGlite');
  for (const engine of settings.engines) {
    for (const fn of ['list_ads', 'get_ads_admin'] as const) {
      const mine = rows.filter((row) => row.engine === engine && row.bench.fn === fn);
      if (mine.length === 0) continue;
      const worst = mine.reduce((a, b) => (b.p95 > a.p95 ? b : a));
      const label = fn === 'list_ads' ? 'listing SQL' : 'admin table SQL';
      figures.push({
        figure: `${label} p95, slowest of ${mine.length} ${fn} cases (${engineName(engine)}, ${worst.ads.toLocaleString('en-US')} ads)`,
        value: Number(worst.p95.toFixed(2)),
        unit: 'ms',
        ...(worst.budget === null ? {} : { budget: { kind: 'max' as const, value: worst.budget } }),
        pass: mine.every((row) => verdict(row, rows) !== 'FAIL'),
        note: `${worst.bench.name} as ${worst.caller}`,
      });
    }
  }
  for (const cost of signingCosts) {
    figures.push({
      figure: `signing the image links of a page of 60 clear ads, 120 links (${engineName(cost.engine)}, ${cost.ads.toLocaleString('en-US')} ads)`,
      value: Number(Math.max(0, cost.withLinks - cost.withoutLinks).toFixed(2)),
      unit: 'ms',
      note: `p50 of the page built with links ${cost.withLinks.toFixed(2)} ms, without ${cost.withoutLinks.toFixed(2)} ms`,
    });
  }
  return figures;
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:db failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
