import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { adminUrl } from './engines.ts';

const run = promisify(execFile);

/** A Debian PostgreSQL cluster, as pg_lsclusters names it. */
export interface Cluster {
  version: string;
  name: string;
}

/** The cluster that listens on the test server's port. */
export async function testCluster(): Promise<Cluster> {
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

export async function clusterIsOnline(cluster: Cluster): Promise<boolean> {
  const { stdout } = await run('pg_lsclusters', ['--no-header', cluster.version, cluster.name]);
  return /\bonline\b/.test(stdout);
}

export const pgCtl = (cluster: Cluster, action: 'start' | 'stop' | 'restart') =>
  run('pg_ctlcluster', ['--skip-systemctl-redirect', cluster.version, cluster.name, action]);

/** Other work shares this server: whatever happens in a test, it ends up running. */
export async function ensureOnline(cluster: Cluster): Promise<void> {
  if (!(await clusterIsOnline(cluster))) await pgCtl(cluster, 'start');
}

/**
 * Runs fn while PostgreSQL may be down. A detached watchdog starts the server
 * again should this test process die meanwhile; it is ended when fn is done.
 */
export async function withServerDown<T>(cluster: Cluster, fn: () => Promise<T>): Promise<T> {
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
