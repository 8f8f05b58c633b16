import { spawn, type ChildProcess } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { apiKeys } from '../local/auth/jwt.ts';
import { LOCAL_JWT_SECRET } from '../local/config.ts';
import type { Database, Engine, Queryable } from '../local/db/database.ts';
import { migrate } from '../local/db/migrate.ts';
import { openPglite } from '../local/db/pglite.ts';
import { openPostgres, type PostgresDatabase } from '../local/db/postgres.ts';
import { DEFAULT_DEMO_AD_COUNT } from '../local/seed/seed-demo.ts';
import { writeImageLinkSecret } from '../local/storage/image-link-secret.ts';
import type { TestUser } from '../tests/support/factories.ts';
import { CpuMeter } from './cpu.ts';
import { runLoad, type LoadResult } from './load.ts';
import { machineDescription, writeResults, type Figure } from './results.ts';
import { findBenchData, seedBench, type BenchData } from './seed.ts';
import { intFromEnv, listFromEnv } from './settings.ts';
import {
  accessToken, DEEP_PAGE, listAdsBody, stackCases, yardstickCases, yardstickPath, type HttpCase, type StackCaller,
} from './stack-cases.ts';

/**
 * `npm run bench:stack`: what users do, through rest/v1 of the local stack
 * running as its own process (bench/stack-server.ts), as an anonymous visitor,
 * a signed-in free user and a subscriber (real access tokens): the library's
 * first page, a deep page, by brand, by tag, a search, the ad page and its
 * neighbours, saving to a board, and a trivial signed-in read. PostgreSQL with
 * 100,000 ads, PGlite with the demo library's 640. In the same run the
 * yardstick (bench/yardstick.ts, a hand-written keyset route, serving beside
 * the stack on the same data) answers the same listing pages, each measured just
 * before the stack's, and each figure is printed with its ratio to the
 * yardstick's. Misses print FAIL; only a failure to run exits non-zero.
 *
 * BENCH_STACK_DATABASE=<name> reuses a seeded PostgreSQL database (not dropped);
 * BENCH_KEEP_DATABASE=1 keeps the one this run seeds; BENCH_STACK_CPU_PROF=<dir>
 * writes a V8 CPU profile of the stack process there.
 */
const env = process.env;
const settings = {
  engines: (listFromEnv('BENCH_ENGINES') ?? ['postgres', 'pglite']) as Engine[],
  ads: { postgres: intFromEnv('BENCH_STACK_ADS', 100_000), pglite: intFromEnv('BENCH_STACK_PGLITE_ADS', DEFAULT_DEMO_AD_COUNT) },
  connections: intFromEnv('BENCH_CONNECTIONS', 32),
  seconds: intFromEnv('BENCH_SECONDS', 5),
  repeat: intFromEnv('BENCH_REPEAT', 1),
  warmupSeconds: intFromEnv('BENCH_WARMUP_SECONDS', 1, 0),
  /** Cases whose name contains one of these (e.g. "first page,save"); the yardstick's listing pages follow. */
  cases: listFromEnv('BENCH_CASES'),
  callers: listFromEnv('BENCH_CALLERS'),
  keepDatabase: env.BENCH_KEEP_DATABASE === '1',
  reusedDatabase: env.BENCH_STACK_DATABASE,
  cpuProfileDir: env.BENCH_STACK_CPU_PROF,
  jwtSecret: env.JWT_SECRET ?? LOCAL_JWT_SECRET,
};
for (const engine of settings.engines) {
  if (engine !== 'postgres' && engine !== 'pglite') throw new Error(`Unknown engine ${String(engine)} in BENCH_ENGINES (postgres, pglite)`);
}
const BUDGETS = {
  /** Every signed-in listing figure, as a share of the yardstick's same page on the same engine. */
  shareOfYardstick: 0.8,
  /** The trivial signed-in read, on PostgreSQL. */
  trivialReadPerSecond: 1000 * 5,
  p99: 100,
};
/** The first case on a freshly started server warms up at least this long. */
const FIRST_WARMUP_SECONDS = 3;
const ENGINE_NAMES: Record<Engine, string> = { postgres: 'PostgreSQL', pglite: 'PGlite' };
/**
 * The stack runs beside its database, so it connects as a server on the same machine does: through PostgreSQL's
 * local socket when there is one (a TCP connection over loopback costs both processes more CPU per round trip).
 */
const LOCAL_SOCKET_DIRECTORY = '/var/run/postgresql';
const serverUrl = env.BENCH_DATABASE_URL ?? (existsSync(`${LOCAL_SOCKET_DIRECTORY}/.s.PGSQL.5432`)
  ? `postgres://postgres@localhost:5432/postgres?host=${LOCAL_SOCKET_DIRECTORY}`
  : 'postgres://postgres@127.0.0.1:5432/postgres');
// A name of this run's own: two runs on one server (other worktrees) must not drop each other's database.
const BENCH_DATABASE = settings.reusedDatabase ?? `obyect_bench_stack_${process.pid}`;
const log = (line = '') => process.stdout.write(`${line}\n`);

function databaseUrl(name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

interface Server {
  child: ChildProcess;
  url: string;
}

/** Starts bench/<file> as a process of its own and waits for the line "... running at <url>". */
async function startServer(file: string, serverEnv: Record<string, string>, profileDir?: string): Promise<Server> {
  const profile = profileDir ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(profileDir)] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', `bench/${file}`], {
    env: { ...process.env, ...serverEnv, PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`${file} did not start:\n${output}`)), 180_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /running at (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once('exit', (code) => reject(new Error(`${file} exited with ${code}:\n${output}`)));
  });
  return { child, url };
}

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

interface Prepared {
  env: Record<string, string>;
  data: BenchData;
  boards: Record<'free' | 'subscriber', string>;
}

/** The user's board for the save case: made once, found again in a reused database. */
async function benchBoard(db: Queryable, user: TestUser): Promise<string> {
  const name = 'bench:stack saves';
  const found = await db.query<{ id: string }>(
    'select id from public.user_collections where user_id = $1 and name = $2 and not is_system', [user.id, name]);
  if (found.rows[0]) return found.rows[0].id;
  const made = await db.query<{ id: string }>('insert into public.user_collections (user_id, name) values ($1, $2) returning id', [user.id, name]);
  return made.rows[0]!.id;
}

async function seeded(db: Database, engine: Engine, reuse: boolean): Promise<Omit<Prepared, 'env'>> {
  const started = performance.now();
  let data: BenchData;
  if (reuse) {
    data = await findBenchData(db);
    log(`  using the seeded database ${BENCH_DATABASE}: ${data.adCount.toLocaleString('en-US')} ads`);
  } else {
    await migrate(db);
    data = (await seedBench(db, settings.ads[engine])).data;
    log(`  migrated and seeded ${data.adCount.toLocaleString('en-US')} ads on ${ENGINE_NAMES[engine]} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  // As the stack does at its start: the yardstick signs with it too, and may start first.
  await writeImageLinkSecret(db, settings.jwtSecret);
  return { data, boards: { free: await benchBoard(db, data.free), subscriber: await benchBoard(db, data.subscriber) } };
}

async function prepare(engine: Engine, dataDir: string): Promise<Prepared> {
  if (engine === 'postgres') {
    if (!settings.reusedDatabase) {
      const admin = await openPostgres({ connectionString: serverUrl, max: 1 });
      await admin.exec(`drop database if exists ${BENCH_DATABASE} with (force)`);
      await admin.exec(`create database ${BENCH_DATABASE}`);
      await admin.close();
    }
    const db = await openPostgres({ connectionString: databaseUrl(BENCH_DATABASE), max: 1 });
    try {
      return { env: { DATABASE_URL: databaseUrl(BENCH_DATABASE), DATA_DIR: dataDir }, ...(await seeded(db, engine, Boolean(settings.reusedDatabase))) };
    } finally {
      await db.close();
    }
  }
  const db = await openPglite({ dataDir: path.join(dataDir, 'pglite') });
  try {
    return { env: { DATA_DIR: dataDir }, ...(await seeded(db, engine, false)) };
  } finally {
    await db.close();
  }
}

async function dropBenchDatabase(): Promise<void> {
  const admin = await openPostgres({ connectionString: serverUrl, max: 1 });
  try {
    await admin.exec(`drop database if exists ${BENCH_DATABASE} with (force)`);
  } finally {
    await admin.close();
  }
}

interface Run {
  result: LoadResult;
  /** CPU ms per answered request: the server process (PGlite's thread included), the PostgreSQL backends. */
  serverCpu: number | null;
  postgresCpu: number | null;
  load: number;
}

interface Row {
  engine: Engine;
  /** Ads in the database. */
  ads: number;
  bench: HttpCase;
  run: Run;
  runs: Run[];
}

/** The process ids of the PostgreSQL backends serving the bench database. */
async function backendPids(admin: PostgresDatabase | null): Promise<number[]> {
  if (!admin) return [];
  const { rows } = await admin.query<{ pid: number }>(
    'select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [BENCH_DATABASE]);
  return rows.map((row) => row.pid);
}

type Request = Parameters<typeof runLoad>[0];

async function measureRun(server: Server, admin: PostgresDatabase | null, request: Request): Promise<Run> {
  const before = await backendPids(admin);
  const serverMeter = new CpuMeter([server.child.pid!]);
  const postgresMeter = new CpuMeter(before);
  const result = await runLoad(request);
  const serverUsed = serverMeter.usedSince([server.child.pid!]);
  const postgresUsed = admin ? postgresMeter.usedSince([...before, ...(await backendPids(admin))]) : null;
  const perRequest = (ms: number | null) => (ms === null || result.requests === 0 ? null : ms / result.requests);
  return { result, serverCpu: perRequest(serverUsed), postgresCpu: perRequest(postgresUsed), load: loadavg()[0]! };
}

const fixed = (value: number | null, digits = 1) => (value === null ? 'n/a' : value.toFixed(digits));

/**
 * One request, its status checked: a case that cannot answer is a failure to
 * run, not a figure. A server error is retried twice (and printed): on PGlite,
 * pgcrypto's hmac(), which signs the image links, now and then fails with
 * 'Cipher cannot be initialized' (see private.hmac_sha256 in supabase/schemas/00_foundation.sql);
 * under load such answers count as the case's errors.
 */
async function probe(url: string, bench: HttpCase, headers: Record<string, string>): Promise<unknown> {
  const body = typeof bench.body === 'function' ? bench.body(0, 0) : bench.body;
  for (let attempt = 1; ; attempt += 1) {
    const response = await fetch(url + bench.path, { method: bench.method, headers, body });
    const text = await response.text();
    if (response.ok) return JSON.parse(text) as unknown;
    const failure = `${bench.name} as ${bench.caller} answered ${response.status}: ${text.slice(0, 500)}`;
    if (response.status < 500 || attempt === 3) throw new Error(failure);
    log(`  ${failure}; trying again`);
  }
}

async function measureCases(
  engine: Engine,
  ads: number,
  cases: HttpCase[],
  serverOf: (bench: HttpCase) => Server,
  headersOf: (bench: HttpCase) => Record<string, string>,
): Promise<Row[]> {
  const admin = engine === 'postgres' ? await openPostgres({ connectionString: databaseUrl(BENCH_DATABASE), max: 1 }) : null;
  const rows: Row[] = [];
  const warmed = new Set<Server>();
  try {
    for (const bench of cases) {
      const server = serverOf(bench);
      const headers = headersOf(bench);
      await probe(server.url, bench, headers);
      const request: Request = { url: server.url + bench.path, method: bench.method, headers, body: bench.body, connections: settings.connections, seconds: settings.seconds };
      // A fresh process compiles its hot code and fills the engine's caches during its first seconds under load.
      const warmup = warmed.has(server) || settings.warmupSeconds === 0 ? settings.warmupSeconds : Math.max(settings.warmupSeconds, FIRST_WARMUP_SECONDS);
      warmed.add(server);
      if (warmup > 0) await runLoad({ ...request, seconds: warmup });
      const runs: Run[] = [];
      for (let i = 0; i < settings.repeat; i += 1) runs.push(await measureRun(server, admin, request));
      // The median run by throughput, so its figures belong together.
      const run = [...runs].sort((x, y) => x.result.perSecond - y.result.perSecond)[Math.floor((runs.length - 1) / 2)]!;
      rows.push({ engine, ads, bench, run, runs });
      log(`  ${bench.name} as ${bench.caller}: ${run.result.perSecond.toFixed(0)} req/s, p50 ${run.result.p50.toFixed(1)} ms, `
        + `p99 ${run.result.p99.toFixed(1)} ms, ${run.result.errors} errors; CPU per request: server ${fixed(run.serverCpu, 2)} ms, `
        + `PostgreSQL ${fixed(run.postgresCpu, 2)} ms, load generator ${fixed(run.result.generatorCpu, 2)} ms; load ${run.load.toFixed(1)}`);
    }
  } finally {
    await admin?.close();
  }
  return rows;
}

const wanted = (bench: HttpCase) =>
  (!settings.cases || settings.cases.some((filter) => bench.name.includes(filter)))
  && (!settings.callers || bench.caller === 'yardstick' || settings.callers.includes(bench.caller));

interface Page {
  ads: unknown[];
  next_cursor: string | null;
}

/** The next_cursor of page DEEP_PAGE - 1, walked page by page as a reader scrolls. */
async function deepCursor(fetchPage: (cursor: string | null) => Promise<Page>): Promise<string> {
  let cursor: string | null = null;
  for (let page = 1; page < DEEP_PAGE; page += 1) {
    cursor = (await fetchPage(cursor)).next_cursor;
    if (!cursor) throw new Error(`The library has fewer than ${DEEP_PAGE} pages`);
  }
  return cursor!;
}

/** Each yardstick page just before the stack's cases read against it, so that both meet about the same load. */
function interleaved(stack: HttpCase[], yardstick: HttpCase[]): HttpCase[] {
  const placed = new Set<HttpCase>();
  const ordered: HttpCase[] = [];
  for (const bench of stack) {
    const own = yardstick.find((candidate) => candidate.listing === bench.listing);
    if (own && !placed.has(own)) {
      ordered.push(own);
      placed.add(own);
    }
    ordered.push(bench);
  }
  return ordered;
}

async function benchEngine(engine: Engine): Promise<Row[]> {
  log(`${engine}:`);
  const dataDir = await mkdtemp(path.join(tmpdir(), 'obyect-bench-stack-'));
  const servers: Server[] = [];
  try {
    const prepared = await prepare(engine, dataDir);
    let yardstickEnv = prepared.env;
    if (engine === 'pglite') {
      // A PGlite folder opens in one process at a time: the yardstick gets a copy of the seeded one.
      const copy = path.join(dataDir, 'yardstick');
      await cp(path.join(dataDir, 'pglite'), path.join(copy, 'pglite'), { recursive: true });
      yardstickEnv = { DATA_DIR: copy };
    }
    // Both serve for the whole run (the idle one costs nothing), so the cases can alternate between them.
    const stack = await startServer('stack-server.ts', prepared.env, settings.cpuProfileDir);
    servers.push(stack);
    const yardstick = await startServer('yardstick.ts', yardstickEnv);
    servers.push(yardstick);

    const { anonKey } = await apiKeys(settings.jwtSecret);
    const issuer = `${stack.url}/auth/v1`;
    const tokens: Record<StackCaller, string> = {
      anon: anonKey,
      free: await accessToken(prepared.data.free, settings.jwtSecret, issuer),
      subscriber: await accessToken(prepared.data.subscriber, settings.jwtSecret, issuer),
    };
    // The yardstick is called as the subscriber: its JWT check is the same for every caller.
    const headersOf = (bench: HttpCase): Record<string, string> => bench.caller === 'yardstick'
      ? { authorization: `Bearer ${tokens.subscriber}` }
      : { apikey: anonKey, authorization: `Bearer ${tokens[bench.caller]}`, ...(bench.method === 'POST' ? { 'content-type': 'application/json' } : {}), ...bench.headers };
    const pageOf = (server: Server, bench: HttpCase) => async () => (await probe(server.url, bench, headersOf(bench))) as Page;
    const stackPage = (cursor: string | null) => pageOf(stack, {
      name: 'list_ads', kind: 'listing', caller: 'subscriber', listing: 'first page', method: 'POST', path: '/rest/v1/rpc/list_ads',
      body: listAdsBody(cursor ? { cursor } : {}),
    })();
    const yardstickPage = (cursor: string | null) => pageOf(yardstick, {
      name: 'keyset route', kind: 'listing', caller: 'yardstick', listing: 'first page', method: 'GET', path: yardstickPath(cursor ? { cursor } : {}),
    })();

    // Comparable work: the yardstick's first page must be list_ads's for the subscriber, ad for ad.
    const [own, theirs] = [await yardstickPage(null), await stackPage(null)];
    if (!isDeepStrictEqual(own.ads, theirs.ads)) {
      throw new Error(`The yardstick's first page differs from list_ads's for the subscriber:\n${JSON.stringify(own.ads[0])}\n${JSON.stringify(theirs.ads[0])}`);
    }
    const onStack = stackCases(prepared.data, await deepCursor(stackPage), prepared.boards).filter(wanted);
    const listings = new Set(onStack.map((bench) => bench.listing));
    const onYardstick = yardstickCases(prepared.data, await deepCursor(yardstickPage)).filter((bench) => listings.has(bench.listing));
    const serverOf = (bench: HttpCase) => (bench.caller === 'yardstick' ? yardstick : stack);
    return await measureCases(engine, prepared.data.adCount, interleaved(onStack, onYardstick), serverOf, headersOf);
  } finally {
    for (const server of servers) await stop(server.child);
    await rm(dataDir, { recursive: true, force: true });
    if (engine === 'postgres' && !settings.reusedDatabase) {
      if (settings.keepDatabase) log(`  kept the database ${BENCH_DATABASE} (BENCH_STACK_DATABASE=${BENCH_DATABASE} reuses it)`);
      else await dropBenchDatabase();
    }
  }
}

interface Verdict {
  ratio: number | null;
  /** The yardstick's req/s this row's ratio is taken to. */
  yardstickPerSecond: number | null;
  minimum: number | null;
  misses: string[];
}

function verdictOf(row: Row, rows: Row[]): Verdict {
  const { result } = row.run;
  if (row.bench.caller === 'yardstick') return { ratio: null, yardstickPerSecond: null, minimum: null, misses: [] };
  const yardstick = rows.find((other) => other.engine === row.engine && other.bench.caller === 'yardstick' && other.bench.listing === row.bench.listing);
  const yardstickPerSecond = yardstick?.run.result.perSecond ?? null;
  const ratio = yardstickPerSecond ? result.perSecond / yardstickPerSecond : null;
  let minimum: number | null = null;
  if (row.bench.kind === 'listing' && row.bench.caller !== 'anon' && yardstickPerSecond) minimum = Math.round(BUDGETS.shareOfYardstick * yardstickPerSecond);
  if (row.bench.kind === 'trivial read' && row.engine === 'postgres') minimum = BUDGETS.trivialReadPerSecond;
  const misses: string[] = [];
  if (minimum !== null && result.perSecond < minimum) {
    misses.push(row.bench.kind === 'listing' ? `${ratio!.toFixed(2)}× the yardstick < ${BUDGETS.shareOfYardstick}` : `${result.perSecond.toFixed(0)} req/s < ${minimum}`);
  }
  if (result.p99 > BUDGETS.p99) misses.push(`p99 ${result.p99.toFixed(1)} ms > ${BUDGETS.p99}`);
  if (result.errors > 0) misses.push(`${result.errors} errors`);
  return { ratio, yardstickPerSecond, minimum, misses };
}

function budgetOf(row: Row, verdict: Verdict): string {
  if (row.bench.caller === 'yardstick') return '-';
  const rate = verdict.minimum === null ? '' : row.bench.kind === 'listing' ? `≥${BUDGETS.shareOfYardstick}× (${verdict.minimum} req/s), ` : `≥${verdict.minimum} req/s, `;
  return `${rate}p99 ≤${BUDGETS.p99} ms, no errors`;
}

/** The yardstick answers this case's own request (a listing page, the trivial read); the others are read against its first page. */
const readAgainstOwnPage = (row: Row) => row.bench.kind === 'listing' || row.bench.kind === 'trivial read';

function printTable(rows: Row[]): void {
  log(`| engine | case | as | req/s | p50 ms | p99 ms | errors | × yardstick | CPU ms/req server | CPU ms/req PostgreSQL | CPU ms/req load generator | load | budget | result |`);
  log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const row of rows) {
    const { result } = row.run;
    const verdict = verdictOf(row, rows);
    // Cases the yardstick does not answer (the ad page, saving) are read against its first page.
    const ratio = verdict.ratio === null ? '-' : `${verdict.ratio.toFixed(2)}${readAgainstOwnPage(row) ? '' : '*'}`;
    const outcome = row.bench.caller === 'yardstick' ? '-' : verdict.misses.length ? `FAIL: ${verdict.misses.join('; ')}` : 'pass';
    log(`| ${ENGINE_NAMES[row.engine]} | ${row.bench.name} | ${row.bench.caller} | ${result.perSecond.toFixed(0)} | ${result.p50.toFixed(1)} | ${result.p99.toFixed(1)} `
      + `| ${result.errors} | ${ratio} | ${fixed(row.run.serverCpu, 2)} | ${fixed(row.run.postgresCpu, 2)} | ${fixed(result.generatorCpu, 2)} | ${row.run.load.toFixed(1)} | ${budgetOf(row, verdict)} | ${outcome} |`);
  }
}

function figuresOf(rows: Row[]): Figure[] {
  return rows.map((row) => {
    const { result } = row.run;
    const verdict = verdictOf(row, rows);
    const who = row.bench.caller === 'yardstick' ? 'yardstick' : `rest/v1 as ${row.bench.caller}`;
    const where = `${ENGINE_NAMES[row.engine]}, ${row.ads.toLocaleString('en-US')} ads, ${settings.connections} connections`;
    const vs = verdict.ratio === null ? '' : `; ${verdict.ratio.toFixed(2)}× the yardstick's ${readAgainstOwnPage(row) ? 'same page' : 'first page'} (${verdict.yardstickPerSecond!.toFixed(0)} req/s)`;
    const budget = row.bench.caller === 'yardstick' ? '' : `; also p99 ≤ ${BUDGETS.p99} ms, no errors${verdict.misses.length ? `; missed: ${verdict.misses.join(', ')}` : ''}`;
    return {
      figure: `${who}: ${row.bench.name} (${where}) req/s`,
      value: Math.round(result.perSecond),
      unit: 'req/s',
      ...(verdict.minimum === null ? {} : { budget: { kind: 'min' as const, value: verdict.minimum } }),
      ...(row.bench.caller === 'yardstick' ? {} : { pass: verdict.misses.length === 0 }),
      note: `p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms, ${result.errors} errors${vs}; `
        + `CPU/request server ${fixed(row.run.serverCpu, 2)} ms, PostgreSQL ${fixed(row.run.postgresCpu, 2)} ms, load generator ${fixed(result.generatorCpu, 2)} ms; `
        + `median of ${row.runs.length} run(s) of ${settings.seconds} s${budget}`,
    };
  });
}

async function main(): Promise<void> {
  const started = performance.now();
  log(`bench:stack: ${settings.connections} connections, ${settings.warmupSeconds} s warm-up, ${settings.seconds} s per case, `
    + `median of ${settings.repeat} run(s); ${machineDescription()}`);
  const rows: Row[] = [];
  for (const engine of settings.engines) rows.push(...(await benchEngine(engine)));
  log('');
  const sizes = settings.engines.map((engine) => `${ENGINE_NAMES[engine]} ${rows.find((row) => row.engine === engine)?.ads.toLocaleString('en-US')} ads`);
  log(`Through rest/v1 and the yardstick: ${sizes.join(', ')}; ${settings.connections} connections, ${settings.seconds} s per case, median of ${settings.repeat} run(s) (${cpus().length} cores)`);
  printTable(rows);
  log('* not a page the yardstick answers: read against its first page, without a ratio budget.');
  const failed = rows.filter((row) => verdictOf(row, rows).misses.length > 0).length;
  const judged = rows.filter((row) => row.bench.caller !== 'yardstick').length;
  log(`\n${failed === 0 ? `All ${judged} cases within budget` : `${failed} of ${judged} cases missed a budget`}; `
    + `${((performance.now() - started) / 1000).toFixed(0)} s in all; ${machineDescription()} at the end.`);
  writeResults({ bench: 'bench:stack', machine: machineDescription(), figures: figuresOf(rows) });
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:stack failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
