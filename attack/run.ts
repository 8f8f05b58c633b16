/**
 * `npm run attack`: every abuse in attack/attacks/ against the local stack on
 * PostgreSQL and on PGlite, each stack a process of its own on loopback, each
 * attack bounded in time. Prints one table (attack, engine, before, now, held)
 * and exits non-zero when any limit did not hold or an attack could not run.
 *
 * Settings: ATTACK_ENGINES=postgres,pglite; ATTACK_ONLY=<file name part>;
 * ATTACK_DATABASE_URL (else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres);
 * ATTACK_ADS (ads in the demo library, default 120); ATTACK_TIMEOUT_SECONDS per attack (default 120).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import { apiKeys } from '../local/auth/jwt.ts';
import { LOCAL_JWT_SECRET } from '../local/config.ts';
import { freePort } from '../tests/support/stack-process.ts';
import type { Attack, AttackAccount, AttackResult, AttackTarget } from './attack.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const projectRoot = path.resolve(here, '..');
const READY_PREFIX = 'Attack target ready at ';
const engines = (process.env.ATTACK_ENGINES ?? 'postgres,pglite').split(',').map((name) => name.trim()) as AttackTarget['engine'][];
const only = process.env.ATTACK_ONLY;
const timeoutSeconds = Number(process.env.ATTACK_TIMEOUT_SECONDS ?? 120);
const adminUrl = process.env.ATTACK_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

interface NamedAttack extends Attack {
  file: string;
}

interface Row {
  attack: string;
  engine: string;
  before: string;
  now: string;
  held: boolean;
}

async function loadAttacks(): Promise<NamedAttack[]> {
  const folder = path.join(here, 'attacks');
  const files = (await readdir(folder)).filter((file) => file.endsWith('.ts') && (!only || file.includes(only))).sort();
  const attacks: NamedAttack[] = [];
  for (const file of files) {
    const module = (await import(pathToFileURL(path.join(folder, file)).href)) as { default: Attack[] };
    for (const attack of module.default) attacks.push({ ...attack, file });
  }
  return attacks;
}

interface Target {
  child: ChildProcess;
  url: string;
  output(): string;
  stop(): Promise<void>;
}

async function startTarget(env: Record<string, string>): Promise<Target> {
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['DATABASE_URL', 'DATA_DIR', 'PORT', 'HOST', 'SITE_URL', 'SMTP_URL', 'JWT_SECRET', 'JWT_EXPIRY', 'NODE_ENV']) delete base[name];
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'stack-entry.ts')], {
    cwd: projectRoot,
    env: { ...base, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const reap = () => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // Already gone.
    }
  };
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      reap();
      reject(new Error(`The stack did not start within 300 s:\n${output}`));
    }, 300_000);
    child.stdout!.on('data', () => {
      const line = output.split('\n').find((candidate) => candidate.startsWith(READY_PREFIX));
      if (!line) return;
      clearTimeout(timer);
      resolve(line.slice(READY_PREFIX.length).trim().replace('//localhost:', '//127.0.0.1:'));
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`The stack exited before it served:\n${output}`));
    });
  });
  return {
    child,
    url,
    output: () => output,
    async stop() {
      child.kill('SIGTERM');
      const timer = setTimeout(reap, 10_000);
      await exited;
      clearTimeout(timer);
      reap();
    },
  };
}

function accountMaker(url: string, anonKey: string, serviceRoleKey: string): () => Promise<AttackAccount> {
  return async () => {
    const email = `attack-${randomBytes(6).toString('hex')}@example.com`;
    const password = `Attack-${randomBytes(9).toString('base64url')}`;
    const created = await fetch(`${url}/auth/v1/admin/users`, {
      method: 'POST',
      headers: { apikey: serviceRoleKey, authorization: `Bearer ${serviceRoleKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email, password, email_confirm: true }),
    });
    if (!created.ok) throw new Error(`Creating an account answered ${created.status}: ${await created.text()}`);
    const user = (await created.json()) as { id: string };
    const signedIn = await fetch(`${url}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { apikey: anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    if (!signedIn.ok) throw new Error(`Signing in answered ${signedIn.status}: ${await signedIn.text()}`);
    const session = (await signedIn.json()) as { access_token: string };
    return { userId: user.id, email, password, accessToken: session.access_token };
  };
}

async function withTimeout(run: Promise<AttackResult>): Promise<AttackResult> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<AttackResult>((resolve) => {
    timer = setTimeout(() => resolve({ now: `did not finish within ${timeoutSeconds} s`, held: false }), timeoutSeconds * 1000);
  });
  try {
    return await Promise.race([run, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

async function runEngine(engine: AttackTarget['engine'], attacks: NamedAttack[]): Promise<Row[]> {
  const { anonKey, serviceRoleKey } = await apiKeys(LOCAL_JWT_SECRET);
  const env: Record<string, string> = Object.assign({}, ...attacks.map((attack) => attack.env ?? {}));
  const port = await freePort();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'obyect-attack-'));
  const database = `obyect_attack_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  if (engine === 'postgres') {
    await admin.connect();
    await admin.query(`create database ${database}`);
    const url = new URL(adminUrl);
    url.pathname = `/${database}`;
    env.DATABASE_URL = url.toString();
  }
  const rows: Row[] = [];
  let target: Target | undefined;
  try {
    console.log(`[${engine}] starting the stack and seeding the demo library…`);
    target = await startTarget({ ...env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, ATTACK_ADS: process.env.ATTACK_ADS ?? '120' });
    const attackTarget: AttackTarget = { url: target.url, engine, anonKey, serviceRoleKey, newAccount: accountMaker(target.url, anonKey, serviceRoleKey) };
    for (const attack of attacks) {
      const started = performance.now();
      let result: AttackResult;
      try {
        result = await withTimeout(attack.run(attackTarget));
      } catch (error) {
        result = { now: `could not run: ${(error as Error).message.split('\n')[0]}`, held: false };
      }
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      console.log(`[${engine}] ${result.held ? 'held' : 'NOT HELD'}  ${attack.name} (${seconds} s): ${result.now}`);
      rows.push({ attack: attack.name, engine, before: attack.before, now: result.now, held: result.held });
    }
  } finally {
    await target?.stop();
    await rm(dataDir, { recursive: true, force: true });
    if (engine === 'postgres') {
      await admin.query(`drop database if exists ${database} with (force)`);
      await admin.end();
    }
  }
  return rows;
}

function printTable(rows: Row[]): void {
  const columns: (keyof Row)[] = ['attack', 'engine', 'before', 'now', 'held'];
  const cell = (row: Row, column: keyof Row) => (column === 'held' ? (row.held ? 'held' : 'NOT HELD') : String(row[column]));
  console.log('');
  console.log(`| ${columns.join(' | ')} |`);
  console.log(`|${columns.map(() => '---').join('|')}|`);
  for (const row of rows) console.log(`| ${columns.map((column) => cell(row, column).replaceAll('|', '/')).join(' | ')} |`);
}

const attacks = await loadAttacks();
if (attacks.length === 0) {
  console.error(only ? `No attack file matches ATTACK_ONLY=${only}.` : 'No attacks found in attack/attacks/.');
  process.exit(1);
}
const rows: Row[] = [];
for (const engine of engines) rows.push(...(await runEngine(engine, attacks)));
printTable(rows);
const failed = rows.filter((row) => !row.held).length;
console.log('');
console.log(failed === 0 ? `Every limit held (${rows.length} rows).` : `${failed} of ${rows.length} rows did not hold.`);
process.exit(failed === 0 ? 0 : 1);
