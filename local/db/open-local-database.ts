import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { Database } from './database.ts';
import { openPgliteWorker } from './pglite-worker.ts';
import { openPostgres } from './postgres.ts';
import { statementTimeoutsOf, type StatementTimeoutConfig } from './statement-timeouts.ts';

export class DataDirLockedError extends Error {}

const processIsAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Two processes opening one PGlite folder corrupt it silently, so the folder
 * has a lock file naming its process. A lock left by a dead process is taken over.
 */
export function lockDataDir(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const lockPath = path.join(dir, 'obyect.lock');
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const fd = openSync(lockPath, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(lockPath, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number.parseInt(readFileSync(lockPath, 'utf8'), 10);
      if (Number.isInteger(holder) && processIsAlive(holder)) {
        throw new DataDirLockedError(
          `The database folder ${dir} is in use by another Obyect process (pid ${holder}). Stop it first, or set DATA_DIR to another folder.`,
        );
      }
      rmSync(lockPath, { force: true });
    }
  }
  throw new DataDirLockedError(`Could not lock the database folder ${dir}`);
}

/**
 * The local stack's database: PostgreSQL at DATABASE_URL, else PGlite in DATA_DIR/pglite (locked, in a worker
 * thread), with the API roles' statement timeouts of the config (Supabase's by default).
 */
export async function openLocalDatabase(
  config: { DATABASE_URL?: string; DATA_DIR: string } & StatementTimeoutConfig,
  log?: (line: string) => void,
): Promise<Database> {
  const statementTimeouts = statementTimeoutsOf(config);
  if (config.DATABASE_URL) return { ...(await openPostgres({ connectionString: config.DATABASE_URL, max: 20 })), statementTimeouts };
  const dir = path.resolve(config.DATA_DIR, 'pglite');
  const unlock = lockDataDir(dir);
  try {
    // The watchdog's stops are rare and worth seeing in the stack's output.
    const db = await openPgliteWorker({ dataDir: dir, log: log ?? ((line) => console.warn(line)) });
    return {
      ...db,
      statementTimeouts,
      async close() {
        try {
          await db.close();
        } finally {
          unlock();
        }
      },
    };
  } catch (error) {
    unlock();
    throw error;
  }
}
