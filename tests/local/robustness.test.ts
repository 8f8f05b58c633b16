import { execFile, spawn } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../local/db/database.ts';
import { openPostgres } from '../../local/db/postgres.ts';
import { adminUrl } from '../support/engines.ts';
import {
  freePort,
  runStackProcessToExit,
  serviceRoleHeaders,
  stackClient,
  stackKeys,
  startStackProcess,
  type StackProcess,
} from '../support/stack-process.ts';

/**
 * The local stack as a real process. On PGlite: killed with -9 in the middle
 * of an upload, restarted, started twice on one folder; what was committed
 * stays, what was not leaves nothing behind. On PostgreSQL: while PostgreSQL
 * itself restarts or is down, each request fails cleanly (a 5xx JSON body, the
 * process keeps running) and the same process serves again once it is back.
 */

const BUCKET = 'ad-originals';
const MiB = 1024 * 1024;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

interface Committed {
  objects: { name: string; sha: string; size: number }[];
  brand: string;
  user: { email: string; password: string };
}

async function upload(url: string, name: string, bytes: Buffer): Promise<void> {
  const response = await fetch(`${url}/storage/v1/object/${BUCKET}/${name}`, {
    method: 'POST',
    headers: { ...(await serviceRoleHeaders()), 'content-type': 'image/jpeg' },
    body: new Uint8Array(bytes),
  });
  expect(response.status, await response.clone().text()).toBe(200);
}

async function download(url: string, name: string): Promise<Response> {
  return fetch(`${url}/storage/v1/object/${BUCKET}/${name}`, { headers: await serviceRoleHeaders() });
}

async function objectVersion(url: string, name: string): Promise<string> {
  const response = await fetch(`${url}/storage/v1/object/info/${BUCKET}/${name}`, { headers: await serviceRoleHeaders() });
  expect(response.status).toBe(200);
  return ((await response.json()) as { version: string }).version;
}

async function listedNames(url: string): Promise<string[]> {
  const response = await fetch(`${url}/storage/v1/object/list/${BUCKET}`, {
    method: 'POST',
    headers: { ...(await serviceRoleHeaders()), 'content-type': 'application/json' },
    body: JSON.stringify({ prefix: '', limit: 1000 }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { name: string }[]).map((row) => row.name).sort();
}

const filesIn = async (dir: string) => (await readdir(dir).catch(() => [] as string[])).sort();

/** Writes rows (a brand, a confirmed user) and three objects, all committed before anything goes wrong. */
async function commitData(url: string): Promise<Committed> {
  const service = await stackClient(url, 'service_role');
  const brand = `Crash-proof ${randomBytes(4).toString('hex')}`;
  const inserted = await service.from('brands').insert({ name: brand });
  expect(inserted.error).toBeNull();
  const user = { email: `kept-${randomBytes(4).toString('hex')}@example.test`, password: 'kept-password-1' };
  const created = await service.auth.admin.createUser({ ...user, email_confirm: true });
  expect(created.error).toBeNull();
  const objects: Committed['objects'] = [];
  for (const size of [1024, 300 * 1024, 2 * MiB]) {
    const name = `kept-${size}-${randomBytes(4).toString('hex')}.jpg`;
    const bytes = randomBytes(size);
    await upload(url, name, bytes);
    objects.push({ name, sha: sha256(bytes), size });
  }
  return { objects, brand, user };
}

/** Everything commitData wrote reads back the same from a (re)started stack. */
async function expectCommittedData(url: string, committed: Committed): Promise<void> {
  for (const object of committed.objects) {
    const response = await download(url, object.name);
    expect(response.status).toBe(200);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect({ name: object.name, size: bytes.length, sha: sha256(bytes) }).toEqual({ name: object.name, size: object.size, sha: object.sha });
  }
  const anon = await stackClient(url, 'anon');
  const brands = await anon.from('brands').select('name').eq('name', committed.brand);
  expect(brands.error).toBeNull();
  expect(brands.data).toEqual([{ name: committed.brand }]);
  const signIn = await anon.auth.signInWithPassword(committed.user);
  expect(signIn.error).toBeNull();
  expect(signIn.data.user?.email).toBe(committed.user.email);
}

/**
 * Starts an upload of a large object whose body stalls after stallAfter bytes,
 * and resolves once the stack has written at least that much to its temporary file.
 */
async function startStalledUpload(url: string, name: string, tmpDir: string, stallAfter: number) {
  const chunk = randomBytes(MiB);
  let sent = 0;
  let release: () => void = () => {};
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (sent >= stallAfter) {
        // The client goes quiet mid-upload, as a slow network would; the stack is killed meanwhile.
        await new Promise<void>((resolve) => (release = resolve));
        return;
      }
      sent += chunk.length;
      controller.enqueue(chunk);
    },
    cancel() {
      release();
    },
  });
  const request = fetch(`${url}/storage/v1/object/${BUCKET}/${name}`, {
    method: 'POST',
    headers: { ...(await serviceRoleHeaders()), 'content-type': 'image/jpeg' },
    body,
    duplex: 'half',
  } as RequestInit).then(
    (response) => `answered ${response.status}`,
    (error: unknown) => `failed: ${(error as Error).message}`,
  );
  const deadline = Date.now() + 30_000;
  for (;;) {
    const sizes = await Promise.all((await filesIn(tmpDir)).map(async (file) => (await stat(path.join(tmpDir, file)).catch(() => null))?.size ?? 0));
    const received = Math.max(0, ...sizes);
    if (received >= stallAfter) return { request, received, release: () => release() };
    if (Date.now() > deadline) throw new Error(`The stack received only ${received} bytes of the upload`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('the local stack on PGlite, as a process that crashes and restarts', () => {
  let dataDir: string;
  let stack: StackProcess | undefined;
  let committed: Committed;
  const started: StackProcess[] = [];

  const start = async () => {
    const next = await startStackProcess({ env: { DATA_DIR: dataDir, PORT: String(await freePort()) } });
    started.push(next);
    stack = next;
    return next;
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'obyect-robustness-'));
    const first = await start();
    committed = await commitData(first.url);
  });

  afterAll(async () => {
    for (const process of started) {
      if (process.child.exitCode === null && process.child.signalCode === null) await process.stop();
      process.reap();
    }
    await rm(dataDir, { recursive: true, force: true });
  });

  it('refuses a second process on the same DATA_DIR, naming the folder and the running process, and the first keeps serving', async () => {
    const running = stack!;
    const second = await runStackProcessToExit({ env: { DATA_DIR: dataDir, PORT: String(await freePort()) } });
    expect(second.code).toBe(1);
    expect(second.output).toContain(
      `The database folder ${path.join(dataDir, 'pglite')} is in use by another Obyect process (pid ${running.pid}). Stop it first, or set DATA_DIR to another folder.`,
    );
    await expectCommittedData(running.url, committed);
  });

  it('leaves neither a partial file nor a row for an upload cut short by kill -9, and keeps everything committed before', async () => {
    const storageDir = path.join(dataDir, 'storage');
    const tmpDir = path.join(storageDir, '.tmp');
    const filesBefore = await filesIn(path.join(storageDir, BUCKET));
    const name = `cut-short-${randomUUID()}.jpg`;

    const upload = await startStalledUpload(stack!.url, name, tmpDir, 6 * MiB);
    expect(await stack!.crash()).toBe('SIGKILL');
    // The edge functions runtime follows its stack out: nothing of the group is left running.
    expect(await groupEnds(stack!.pid, 5_000)).toBe(true);
    stack!.reap();
    upload.release();
    expect(await upload.request).toMatch(/^failed/);
    // The crash really came mid-upload: the received part is still on disk.
    expect((await filesIn(tmpDir)).length).toBe(1);

    const restarted = await start();
    expect(await filesIn(tmpDir)).toEqual([]);
    expect(await filesIn(path.join(storageDir, BUCKET))).toEqual(filesBefore);
    expect((await download(restarted.url, name)).status).toBe(404);
    expect(await listedNames(restarted.url)).toEqual(committed.objects.map((object) => object.name).sort());
    await expectCommittedData(restarted.url, committed);
  });

  it('removes on start a stored file that no object row points at, as a crash between file and row leaves it', async () => {
    const bucketDir = path.join(dataDir, 'storage', BUCKET);
    await stack!.stop();
    const orphan = randomUUID();
    await writeFile(path.join(bucketDir, orphan), randomBytes(4096));

    const restarted = await start();
    const files = await filesIn(bucketDir);
    expect(files).not.toContain(orphan);
    const versions = await Promise.all(committed.objects.map((object) => objectVersion(restarted.url, object.name)));
    // Exactly one file per object row, and nothing else.
    expect(files).toEqual([...versions].sort());
  });

  it('keeps every row and file across a clean stop and start, and frees the folder on stop', async () => {
    expect(await stack!.stop()).toBe(0);
    await expect(stat(path.join(dataDir, 'pglite', 'obyect.lock'))).rejects.toMatchObject({ code: 'ENOENT' });
    const restarted = await start();
    await expectCommittedData(restarted.url, committed);
  });
});

const run = promisify(execFile);

interface Cluster {
  version: string;
  name: string;
}

/** The Debian cluster (pg_lsclusters) that listens on the test server's port. */
async function testCluster(): Promise<Cluster> {
  const port = new URL(adminUrl()).port || '5432';
  const { stdout } = await run('pg_lsclusters', ['--no-header']).catch((error: unknown) => {
    throw new Error(`pg_lsclusters is needed to restart the test PostgreSQL: ${(error as Error).message}`);
  });
  const line = stdout
    .split('\n')
    .map((row) => row.trim().split(/\s+/))
    .find((fields) => fields[2] === port);
  if (!line) throw new Error(`No PostgreSQL cluster listens on port ${port} (pg_lsclusters):\n${stdout}`);
  return { version: line[0]!, name: line[1]! };
}

async function clusterIsOnline(cluster: Cluster): Promise<boolean> {
  const { stdout } = await run('pg_lsclusters', ['--no-header', cluster.version, cluster.name]);
  return /\bonline\b/.test(stdout);
}

const pgCtl = (cluster: Cluster, action: 'start' | 'stop' | 'restart') =>
  run('pg_ctlcluster', ['--skip-systemctl-redirect', cluster.version, cluster.name, action]);

/** Other work shares this server: whatever happens in a test, it ends up running. */
async function ensureOnline(cluster: Cluster): Promise<void> {
  if (!(await clusterIsOnline(cluster))) await pgCtl(cluster, 'start');
}

/**
 * Runs fn while PostgreSQL may be down. A detached watchdog starts the server
 * again should this test process die meanwhile; it is ended when fn is done.
 */
async function withServerDown<T>(cluster: Cluster, fn: () => Promise<T>): Promise<T> {
  const watchdog = spawn(
    'sh',
    ['-c', `sleep 30; pg_ctlcluster --skip-systemctl-redirect ${cluster.version} ${cluster.name} start >/dev/null 2>&1`],
    { detached: true, stdio: 'ignore' },
  );
  watchdog.unref();
  try {
    return await fn();
  } finally {
    try {
      process.kill(-watchdog.pid!, 'SIGKILL');
    } catch {
      // Already gone.
    }
    await ensureOnline(cluster);
  }
}

async function reachable(url: string): Promise<boolean> {
  try {
    await (await openPostgres({ connectionString: url, max: 1 })).close();
    return true;
  } catch {
    return false;
  }
}

/** Polls until fn resolves true, for at most timeoutMs. */
async function eventually(fn: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await fn().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const postgresAvailable = process.env.CI ? true : await reachable(adminUrl());
if (!postgresAvailable) console.warn(`\n  PostgreSQL is not reachable at ${adminUrl()}: the PostgreSQL robustness tests are not declared.\n`);

if (postgresAvailable) {
  describe('the local stack on PostgreSQL, as a process, while PostgreSQL restarts', () => {
    const database = `obyect_robustness_${process.pid}_${randomBytes(4).toString('hex')}`;
    let admin: Database;
    let cluster: Cluster;
    let dataDir: string;
    let stack: StackProcess;
    const brand = `Restart-proof ${randomBytes(4).toString('hex')}`;
    const objectName = `kept-${randomBytes(4).toString('hex')}.jpg`;
    const objectBytes = randomBytes(64 * 1024);
    const user = { email: `kept-${randomBytes(4).toString('hex')}@example.test`, password: 'kept-password-1' };

    const brandsRequest = async () =>
      fetch(`${stack.url}/rest/v1/brands?select=name&name=eq.${encodeURIComponent(brand)}`, { headers: await serviceRoleHeaders() });
    const objectRequest = async () => fetch(`${stack.url}/storage/v1/object/ad-originals/${objectName}`, { headers: await serviceRoleHeaders() });
    const signInRequest = async () =>
      fetch(`${stack.url}/auth/v1/token?grant_type=password`, {
        method: 'POST',
        headers: { apikey: (await stackKeys()).anonKey, 'content-type': 'application/json' },
        body: JSON.stringify(user),
      });

    /** The brand, the object and the user written before PostgreSQL went away all read back. */
    const expectDataServed = async () => {
      const brands = await brandsRequest();
      expect(brands.status).toBe(200);
      expect(await brands.json()).toEqual([{ name: brand }]);
      const object = await objectRequest();
      expect(object.status).toBe(200);
      expect(Buffer.from(await object.arrayBuffer()).equals(objectBytes)).toBe(true);
      const signIn = await signInRequest();
      expect(signIn.status).toBe(200);
      expect(((await signIn.json()) as { user: { email: string } }).user.email).toBe(user.email);
    };

    beforeAll(async () => {
      cluster = await testCluster();
      await ensureOnline(cluster);
      admin = await openPostgres({ connectionString: adminUrl(), max: 1 });
      await admin.exec(`create database ${database}`);
      const url = new URL(adminUrl());
      url.pathname = `/${database}`;
      dataDir = await mkdtemp(path.join(os.tmpdir(), 'obyect-robustness-pg-'));
      stack = await startStackProcess({ env: { DATA_DIR: dataDir, PORT: String(await freePort()), DATABASE_URL: url.toString() } });

      const service = await stackClient(stack.url, 'service_role');
      expect((await service.from('brands').insert({ name: brand })).error).toBeNull();
      expect((await service.auth.admin.createUser({ ...user, email_confirm: true })).error).toBeNull();
      const uploaded = await service.storage.from('ad-originals').upload(objectName, objectBytes, { contentType: 'image/jpeg' });
      expect(uploaded.error).toBeNull();
    });

    afterAll(async () => {
      if (cluster) await ensureOnline(cluster);
      if (stack) {
        await stack.stop();
        stack.reap();
      }
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
      if (admin) {
        // The server may still be starting up after the last test.
        await eventually(async () => (await admin.query('select 1')).rowCount === 1, 30_000, 'PostgreSQL accepts connections');
        await admin.exec(`drop database if exists ${database} with (force)`);
        await admin.close();
      }
    });

    it('serves the next request after PostgreSQL restarts, without restarting the stack', async () => {
      await withServerDown(cluster, () => pgCtl(cluster, 'restart'));
      await expectDataServed();
      expect(stack.child.exitCode).toBeNull();
    });

    it('answers 5xx JSON errors while PostgreSQL is down, keeps running, and serves again once it is back', async () => {
      await withServerDown(cluster, async () => {
        await pgCtl(cluster, 'stop');
        // Each API answers in its own error shape, as its hosted counterpart does.
        const failures = [
          { api: 'rest/v1', request: brandsRequest, message: 'message' },
          { api: 'storage/v1', request: objectRequest, message: 'message' },
          { api: 'auth/v1', request: signInRequest, message: 'msg' },
        ];
        for (const { api, request, message } of failures) {
          const response = await request();
          expect({ api, server_error: response.status >= 500 && response.status < 600 }).toEqual({ api, server_error: true });
          expect(response.headers.get('content-type')).toMatch(/^application\/json/);
          expect(typeof ((await response.json()) as Record<string, unknown>)[message]).toBe('string');
        }
        // The process is alive, each API handled the failure itself, and pages that need no database still answer.
        expect(stack.child.exitCode).toBeNull();
        expect(stack.output()).not.toContain('Unhandled error in the local stack');
        expect((await fetch(`${stack.url}/_mailbox.json`)).status).toBe(200);
      });
      await eventually(async () => (await brandsRequest()).status === 200, 30_000, 'the stack serves rest/v1 again');
      await expectDataServed();
      expect(stack.child.exitCode).toBeNull();
    });
  });
}

/** Waits until no process of the group led by pid is alive. */
async function groupEnds(pid: number, timeoutMs: number): Promise<boolean> {
  const started = Date.now();
  for (;;) {
    try {
      process.kill(-pid, 0);
    } catch {
      return true;
    }
    if (Date.now() - started > timeoutMs) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
