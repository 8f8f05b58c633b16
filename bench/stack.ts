import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { apiKeys } from '../local/auth/jwt.ts';
import { LOCAL_JWT_SECRET } from '../local/config.ts';
import type { Engine } from '../local/db/database.ts';
import { migrate } from '../local/db/migrate.ts';
import { openPglite } from '../local/db/pglite.ts';
import { openPostgres } from '../local/db/postgres.ts';
import { CpuMeter } from './cpu.ts';
import { runLoad, type LoadResult } from './load.ts';
import { machineDescription, writeResults, type Figure } from './results.ts';
import { seedBench } from './seed.ts';

/**
 * `npm run bench:stack`: the library's first page through rest/v1
 * (POST /rest/v1/rpc/list_ads as an anonymous visitor), 50 connections for
 * 10 s, against the local stack running as its own process on 100,000 ads, on
 * PostgreSQL and on PGlite. Each engine is measured BENCH_REPEAT times (3) and
 * the median run is reported, with the CPU time each request cost the stack
 * process and the PostgreSQL backends. Prints a table; misses print FAIL.
 *
 * BENCH_STACK_DATABASE=<name> reuses an already seeded PostgreSQL database of
 * that name (not dropped afterwards); BENCH_STACK_CPU_PROF=<dir> writes a V8
 * CPU profile of the stack process there.
 */
const ADS = Number(process.env.BENCH_STACK_ADS ?? 100_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const REPEAT = Math.max(1, Number(process.env.BENCH_REPEAT ?? 3));
const engines = (process.env.BENCH_ENGINES ?? 'postgres,pglite').split(',').map((name) => name.trim()) as Engine[];
const BUDGETS: Record<Engine, { perSecond: number; p95: number }> = {
  postgres: { perSecond: 1000, p95: 50 },
  pglite: { perSecond: 300, p95: 100 },
};
const ENGINE_NAMES: Record<Engine, string> = { postgres: 'PostgreSQL', pglite: 'PGlite' };
const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const reusedDatabase = process.env.BENCH_STACK_DATABASE;
const BENCH_DATABASE = reusedDatabase ?? 'obyect_bench_stack';
const cpuProfileDir = process.env.BENCH_STACK_CPU_PROF;
const log = (line = '') => process.stdout.write(`${line}\n`);

function databaseUrl(name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function startStack(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const profile = cpuProfileDir ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(cpuProfileDir)] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', 'bench/stack-server.ts'], {
    env: { ...process.env, ...env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`The stack did not start:\n${output}`)), 180_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /running at (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once('exit', (code) => reject(new Error(`The stack exited with ${code}:\n${output}`)));
  });
  return { child, url };
}

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

async function prepare(engine: Engine, dataDir: string): Promise<Record<string, string>> {
  const started = performance.now();
  if (engine === 'postgres') {
    if (reusedDatabase) {
      log(`  using the seeded database ${reusedDatabase}`);
      return { DATABASE_URL: databaseUrl(reusedDatabase), DATA_DIR: dataDir };
    }
    const admin = await openPostgres({ connectionString: serverUrl, max: 1 });
    await admin.exec(`drop database if exists ${BENCH_DATABASE} with (force)`);
    await admin.exec(`create database ${BENCH_DATABASE}`);
    await admin.close();
    const db = await openPostgres({ connectionString: databaseUrl(BENCH_DATABASE), max: 1 });
    await migrate(db);
    await seedBench(db, ADS);
    await db.close();
    log(`  seeded ${ADS.toLocaleString('en-US')} ads on PostgreSQL in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return { DATABASE_URL: databaseUrl(BENCH_DATABASE), DATA_DIR: dataDir };
  }
  const db = await openPglite({ dataDir: path.join(dataDir, 'pglite') });
  await migrate(db);
  await seedBench(db, ADS);
  await db.close();
  log(`  seeded ${ADS.toLocaleString('en-US')} ads on PGlite in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { DATA_DIR: dataDir };
}

interface Run {
  result: LoadResult;
  /** CPU ms per answered request: the stack process (PGlite included), the PostgreSQL backends, the load generator. */
  stackCpu: number | null;
  postgresCpu: number | null;
  loaderCpu: number;
  load: number;
}

/** The process ids of the server processes serving the bench database. */
async function backendPids(admin: Awaited<ReturnType<typeof openPostgres>>, database: string): Promise<number[]> {
  const { rows } = await admin.query<{ pid: number }>(
    'select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [database]);
  return rows.map((row) => row.pid);
}

async function measureRun(engine: Engine, child: ChildProcess, request: Parameters<typeof runLoad>[0]): Promise<Run> {
  const admin = engine === 'postgres' ? await openPostgres({ connectionString: databaseUrl(BENCH_DATABASE), max: 1 }) : null;
  try {
    const before = admin ? await backendPids(admin, BENCH_DATABASE) : [];
    const stackMeter = new CpuMeter([child.pid!]);
    const postgresMeter = new CpuMeter(before);
    const loaderStart = process.cpuUsage();
    const result = await runLoad(request);
    const loader = process.cpuUsage(loaderStart);
    const stackUsed = stackMeter.usedSince([child.pid!]);
    const postgresUsed = admin ? postgresMeter.usedSince([...before, ...(await backendPids(admin, BENCH_DATABASE))]) : null;
    const perRequest = (ms: number | null) => (ms === null || result.requests === 0 ? null : ms / result.requests);
    return {
      result,
      stackCpu: perRequest(stackUsed),
      postgresCpu: perRequest(postgresUsed),
      loaderCpu: (loader.user + loader.system) / 1000 / Math.max(1, result.requests),
      load: loadavg()[0]!,
    };
  } finally {
    await admin?.close();
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
};
const fixed = (value: number | null, digits = 1) => (value === null ? 'n/a' : value.toFixed(digits));

const { anonKey } = await apiKeys(process.env.JWT_SECRET ?? LOCAL_JWT_SECRET);
const rows: { engine: Engine; run: Run; runs: Run[] }[] = [];
for (const engine of engines) {
  log(`${engine}:`);
  const dataDir = await mkdtemp(path.join(tmpdir(), 'obyect-bench-stack-'));
  let child: ChildProcess | undefined;
  try {
    const env = await prepare(engine, dataDir);
    const stack = await startStack(env);
    child = stack.child;
    const request = {
      url: `${stack.url}/rest/v1/rpc/list_ads`,
      method: 'POST' as const,
      headers: { apikey: anonKey, authorization: `Bearer ${anonKey}`, 'content-type': 'application/json' },
      body: '{}',
      connections: CONNECTIONS,
    };
    await runLoad({ ...request, seconds: 2 });
    const runs: Run[] = [];
    for (let i = 0; i < REPEAT; i += 1) {
      const run = await measureRun(engine, child, { ...request, seconds: SECONDS });
      runs.push(run);
      log(`  run ${i + 1}: ${run.result.perSecond.toFixed(0)} req/s, p95 ${run.result.p95.toFixed(1)} ms, `
        + `CPU per request: stack ${fixed(run.stackCpu, 2)} ms, PostgreSQL ${fixed(run.postgresCpu, 2)} ms, `
        + `load generator ${run.loaderCpu.toFixed(2)} ms; ${run.result.requests} requests, ${run.result.errors} errors, load ${run.load.toFixed(1)}`);
    }
    // The median run by throughput, so its figures belong together.
    const byRate = [...runs].sort((a, b) => a.result.perSecond - b.result.perSecond);
    rows.push({ engine, run: byRate[Math.floor((byRate.length - 1) / 2)]!, runs });
  } finally {
    if (child) await stop(child);
    await rm(dataDir, { recursive: true, force: true });
    if (engine === 'postgres' && !reusedDatabase) {
      const admin = await openPostgres({ connectionString: serverUrl, max: 1 });
      await admin.exec(`drop database if exists ${BENCH_DATABASE} with (force)`);
      await admin.close();
    }
  }
}

log('');
log(`Library listing through rest/v1, ${ADS.toLocaleString('en-US')} ads, ${CONNECTIONS} connections, ${SECONDS} s, median of ${REPEAT} run(s) (${cpus().length} cores)`);
log('| engine | req/s | p50 ms | p95 ms | p99 ms | errors | CPU ms/req stack | CPU ms/req PostgreSQL | load | budget | result |');
log('|---|---|---|---|---|---|---|---|---|---|---|');
const figures: Figure[] = [];
for (const { engine, run, runs } of rows) {
  const { result } = run;
  const budget = BUDGETS[engine];
  const pass = result.perSecond >= budget.perSecond && result.p95 <= budget.p95 && result.errors === 0;
  log(`| ${engine} | ${result.perSecond.toFixed(0)} | ${result.p50.toFixed(1)} | ${result.p95.toFixed(1)} | ${result.p99.toFixed(1)} | ${result.errors} `
    + `| ${fixed(run.stackCpu, 2)} | ${fixed(run.postgresCpu, 2)} | ${run.load.toFixed(1)} | ≥${budget.perSecond} req/s, p95 ≤${budget.p95} ms | ${pass ? 'pass' : 'FAIL'} |`);
  const name = `rest/v1 listing (${ENGINE_NAMES[engine]}, ${ADS.toLocaleString('en-US')} ads, ${CONNECTIONS} connections)`;
  const note = `median of ${runs.length} run(s) of ${SECONDS} s; ${result.errors} errors`;
  const medianCpu = (pick: (r: Run) => number | null) => {
    const values = runs.map(pick).filter((v): v is number => v !== null);
    return values.length ? Number(median(values).toFixed(2)) : null;
  };
  figures.push(
    { figure: `${name} req/s`, value: Math.round(result.perSecond), unit: 'req/s', budget: { kind: 'min', value: budget.perSecond }, pass: result.errors === 0, note },
    { figure: `${name} p95`, value: Number(result.p95.toFixed(1)), unit: 'ms', budget: { kind: 'max', value: budget.p95 }, pass: result.errors === 0, note },
    { figure: `${name} CPU per request, stack process`, value: medianCpu((r) => r.stackCpu), unit: 'ms', note: `median of ${runs.length} run(s)` },
  );
  if (engine === 'postgres') {
    figures.push({ figure: `${name} CPU per request, PostgreSQL`, value: medianCpu((r) => r.postgresCpu), unit: 'ms', note: `median of ${runs.length} run(s)` });
  }
}
log('');
for (const { engine, run } of rows) {
  const perRequest = (run.stackCpu ?? 0) + (run.postgresCpu ?? 0) + run.loaderCpu;
  if (run.stackCpu === null || perRequest <= 0) continue;
  log(`CPU-bound capacity on ${engine}: ${cpus().length} cores / ${perRequest.toFixed(2)} ms of CPU per request `
    + `(stack ${run.stackCpu.toFixed(2)}, PostgreSQL ${fixed(run.postgresCpu, 2)}, load generator ${run.loaderCpu.toFixed(2)}) `
    + `= about ${Math.round((cpus().length * 1000) / perRequest).toLocaleString('en-US')} req/s on an otherwise idle machine (an estimate, not a measurement).`);
}
writeResults({ bench: 'bench:stack', machine: machineDescription(), figures });
