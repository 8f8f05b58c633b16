import { Worker } from 'node:worker_threads';
import type { Database, Queryable, QueryResult, Statement, TransactionOptions } from './database.ts';
import { TEXT_TYPE_OIDS } from './database.ts';
import { STATEMENT_TIMEOUT_CODE, STATEMENT_TIMEOUT_MESSAGE } from './statement-timeouts.ts';

type Request =
  | { kind: 'query'; sql: string; params: unknown[] }
  | { kind: 'exec'; sql: string }
  | { kind: 'transaction'; statements: Statement[] }
  | { kind: 'listen'; channel: string }
  | { kind: 'unlisten'; listenerId: number }
  | { kind: 'dump' }
  | { kind: 'close' };
type Reply = { id: number; result?: unknown; error?: Record<string, unknown> & { message: string } };

export class DatabaseError extends Error {
  code?: string;
  detail?: string;
  hint?: string;
  constraint?: string;
}

function toError(serialized: Record<string, unknown> & { message: string }): DatabaseError {
  return Object.assign(new DatabaseError(serialized.message), serialized);
}

function statementTimeoutError(): DatabaseError {
  return Object.assign(new DatabaseError(STATEMENT_TIMEOUT_MESSAGE), { code: STATEMENT_TIMEOUT_CODE });
}

export interface PgliteWorkerOptions {
  dataDir?: string;
  loadDataDir?: Uint8Array;
  /** Where the watchdog reports that it stopped and reopened the engine. */
  log?: (line: string) => void;
}

/** One PGlite engine in its own thread, and the requests it has not answered yet. */
interface EngineThread {
  readonly worker: Worker;
  readonly pending: Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>;
  stopped: boolean;
}

function spawnThread(
  workerData: { dataDir?: string; loadDataDir?: Uint8Array; gated: boolean },
  onNotification: (listenerId: number, payload: string) => void,
): { thread: EngineThread; ready: Promise<void> } {
  const worker = new Worker(new URL('./pglite-thread.mjs', import.meta.url), {
    workerData: { ...workerData, textTypeOids: Object.values(TEXT_TYPE_OIDS) },
  });
  const thread: EngineThread = { worker, pending: new Map(), stopped: false };
  const ready = new Promise<void>((resolve, reject) => {
    const onMessage = (message: { ready?: boolean; error?: { message: string } }) => {
      if (!('ready' in message)) return;
      worker.off('message', onMessage);
      if (message.ready) resolve();
      else reject(toError(message.error ?? { message: 'PGlite failed to start' }));
    };
    worker.on('message', onMessage);
    worker.once('error', reject);
    worker.once('exit', () => reject(new Error('The database worker stopped while starting')));
  });
  ready.catch(() => {});
  worker.on('message', (reply: Reply & { notification?: { listenerId: number; payload: string } }) => {
    if (reply.notification) {
      onNotification(reply.notification.listenerId, reply.notification.payload);
      return;
    }
    const waiter = thread.pending.get(reply.id);
    if (!waiter) return;
    thread.pending.delete(reply.id);
    if (reply.error) waiter.reject(toError(reply.error));
    else waiter.resolve(reply.result);
  });
  const failAll = (error: Error) => {
    thread.stopped = true;
    for (const waiter of thread.pending.values()) waiter.reject(error);
    thread.pending.clear();
  };
  worker.on('error', failAll);
  worker.on('exit', () => failAll(new Error('The database worker stopped')));
  return { thread, ready };
}

/**
 * PGlite in a worker thread behind the Database interface. PGlite has one
 * connection, so a transaction holds a lock: other callers wait until it ends
 * instead of slipping statements into it.
 *
 * PGlite runs one statement at a time and ignores statement_timeout, so a
 * statement of a transaction with a statement timeout is watched: past its
 * timeout the engine's thread is stopped and the engine reopened on the same
 * data folder (committed data is on disk; the open transaction is lost, as
 * after a crash), and the statement fails with SQLSTATE 57014 as on
 * PostgreSQL. The replacement is loaded ahead (from the first statement that
 * runs past half its timeout, then kept), up to the point where it opens the
 * folder, so other callers wait for the slow statement's own timeout and the
 * opening of the folder. An in-memory database cannot be reopened: there the
 * watchdog is off.
 */
export async function openPgliteWorker(options: PgliteWorkerOptions = {}): Promise<Database & { dump(): Promise<Uint8Array> }> {
  const log = options.log ?? (() => {});
  const listeners = new Map<number, { channel: string; fn: (payload: string) => void }>();
  const onNotification = (listenerId: number, payload: string) => listeners.get(listenerId)?.fn(payload);
  const watched = options.dataDir !== undefined;
  let nextId = 1;
  let closed = false;

  const first = spawnThread({ dataDir: options.dataDir, loadDataDir: options.loadDataDir, gated: false }, onNotification);
  try {
    await first.ready;
  } catch (error) {
    await first.thread.worker.terminate();
    throw error;
  }
  let current: Promise<EngineThread> = Promise.resolve(first.thread);
  /**
   * A replacement engine, loaded up to the point where it opens the data folder. It is first loaded when a
   * statement runs past half its timeout and then kept, so a stop costs only the opening of the folder.
   */
  let standby: { thread: EngineThread; ready: Promise<void> } | null = null;

  const warmStandby = () => {
    if (!standby && !closed) standby = spawnThread({ dataDir: options.dataDir, gated: true }, onNotification);
  };
  const dropStandby = () => {
    const spare = standby;
    standby = null;
    if (spare) void spare.thread.worker.terminate();
  };

  /** Stops the engine under a statement past its timeout and opens its replacement on the same folder. */
  const restart = async (stuck: EngineThread): Promise<EngineThread> => {
    const started = Date.now();
    stuck.stopped = true;
    await stuck.worker.terminate();
    warmStandby();
    const next = standby as { thread: EngineThread; ready: Promise<void> } | null;
    if (!next) throw new Error('The database is closed');
    standby = null;
    next.thread.worker.postMessage({ kind: 'open' });
    await next.ready;
    // The new engine listens on every channel the old one did, under the same ids.
    for (const [listenerId, { channel }] of listeners) {
      await request(next.thread, { kind: 'listen', channel }, listenerId);
    }
    log(`PGlite: stopped a statement past its timeout and reopened the database in ${Date.now() - started} ms.`);
    // Whoever sent one slow statement may send more: the next replacement loads now, not under the next one.
    warmStandby();
    return next.thread;
  };

  const request = (thread: EngineThread, message: Request, id = nextId++): Promise<unknown> =>
    new Promise((resolve, reject) => {
      if (thread.stopped) {
        reject(new Error('The database worker stopped'));
        return;
      }
      thread.pending.set(id, { resolve, reject });
      thread.worker.postMessage({ id, ...message });
    });

  /** Sends to the engine of the moment; with a timeout (ms > 0 and a data folder), the watchdog guards it. */
  const send = async (message: Request, timeoutMs = 0, id = nextId++): Promise<unknown> => {
    if (closed) throw new Error('The database is closed');
    const thread = await current;
    if (!watched || timeoutMs <= 0) return request(thread, message, id);
    const warm = setTimeout(warmStandby, timeoutMs / 2);
    let kill: NodeJS.Timeout | undefined;
    const stopped = new Promise<never>((_, reject) => {
      kill = setTimeout(() => {
        if (!thread.pending.has(id)) return;
        current = restart(thread);
        current.catch((error: unknown) => log(`PGlite: could not reopen the database: ${(error as Error).message}`));
        reject(statementTimeoutError());
      }, timeoutMs);
    });
    try {
      return await Promise.race([request(thread, message, id), stopped]);
    } finally {
      clearTimeout(warm);
      clearTimeout(kill);
    }
  };

  // A promise chain as a mutex: each holder runs after the previous one settles.
  let tail: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = tail.then(fn, fn);
    tail = run.catch(() => {});
    return run;
  };

  const queryable = (timeoutMs = 0): Queryable => ({
    query: <T>(sql: string, params: unknown[] = []) => send({ kind: 'query', sql, params }, timeoutMs) as Promise<QueryResult<T>>,
    exec: async (sql: string) => {
      await send({ kind: 'exec', sql }, timeoutMs);
    },
  });
  const direct = queryable();

  return {
    engine: 'pglite',
    query: <T>(sql: string, params: unknown[] = []) => exclusive(() => direct.query<T>(sql, params)),
    exec: (sql: string) => exclusive(() => direct.exec(sql)),
    transaction: <T>(fn: (tx: Queryable) => Promise<T>, transactionOptions: TransactionOptions = {}) =>
      exclusive(async () => {
        await direct.exec('begin');
        try {
          const result = await fn(queryable(transactionOptions.statementTimeoutMs));
          await direct.exec('commit');
          return result;
        } catch (error) {
          // A statement stopped by the watchdog took its transaction with the engine: nothing to roll back.
          if ((error as DatabaseError).code !== STATEMENT_TIMEOUT_CODE || !watched) await direct.exec('rollback').catch(() => {});
          throw error;
        }
      }),
    runTransaction: (statements: Statement[], transactionOptions: TransactionOptions = {}) =>
      exclusive(() => send({ kind: 'transaction', statements }, transactionOptions.statementTimeoutMs) as Promise<QueryResult<Record<string, unknown>>[]>),
    async listen(channel, fn) {
      const listenerId = nextId++;
      listeners.set(listenerId, { channel, fn });
      await send({ kind: 'listen', channel }, 0, listenerId);
      return async () => {
        listeners.delete(listenerId);
        if (!closed) await send({ kind: 'unlisten', listenerId });
      };
    },
    dump: () => exclusive(() => send({ kind: 'dump' }) as Promise<Uint8Array>),
    async close() {
      if (closed) return;
      await exclusive(async () => {
        const thread = await current.catch(() => null);
        dropStandby();
        closed = true;
        if (!thread) return;
        await request(thread, { kind: 'close' }).catch(() => {});
        await thread.worker.terminate();
      });
    },
  };
}
