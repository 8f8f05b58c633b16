import { Worker } from 'node:worker_threads';
import type { Database, Queryable, QueryResult } from './database.ts';
import { TEXT_TYPE_OIDS } from './database.ts';

type Request =
  | { kind: 'query'; sql: string; params: unknown[] }
  | { kind: 'exec'; sql: string }
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

/**
 * PGlite in a worker thread behind the Database interface. PGlite has one
 * connection, so a transaction holds a lock: other callers wait until it ends
 * instead of slipping statements into it.
 */
export async function openPgliteWorker(options: { dataDir?: string; loadDataDir?: Uint8Array } = {}): Promise<Database & { dump(): Promise<Uint8Array> }> {
  const worker = new Worker(new URL('./pglite-thread.mjs', import.meta.url), {
    workerData: { dataDir: options.dataDir, loadDataDir: options.loadDataDir, textTypeOids: Object.values(TEXT_TYPE_OIDS) },
  });
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  let closed = false;

  await new Promise<void>((resolve, reject) => {
    const onMessage = (message: { ready?: boolean; error?: { message: string } }) => {
      if (!('ready' in message)) return;
      worker.off('message', onMessage);
      if (message.ready) resolve();
      else reject(toError(message.error ?? { message: 'PGlite failed to start' }));
    };
    worker.on('message', onMessage);
    worker.once('error', reject);
  });

  const listeners = new Map<number, (payload: string) => void>();
  worker.on('message', (reply: Reply & { notification?: { listenerId: number; payload: string } }) => {
    if (reply.notification) {
      listeners.get(reply.notification.listenerId)?.(reply.notification.payload);
      return;
    }
    const waiter = pending.get(reply.id);
    if (!waiter) return;
    pending.delete(reply.id);
    if (reply.error) waiter.reject(toError(reply.error));
    else waiter.resolve(reply.result);
  });
  worker.on('error', (error) => {
    for (const waiter of pending.values()) waiter.reject(error);
    pending.clear();
  });
  worker.on('exit', () => {
    closed = true;
    for (const waiter of pending.values()) waiter.reject(new Error('The database worker stopped'));
    pending.clear();
  });

  const send = (request: Request, id = nextId++): Promise<unknown> => {
    if (closed) return Promise.reject(new Error('The database is closed'));
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, ...request });
    });
  };

  // A promise chain as a mutex: each holder runs after the previous one settles.
  let tail: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = tail.then(fn, fn);
    tail = run.catch(() => {});
    return run;
  };

  const direct: Queryable = {
    query: <T>(sql: string, params: unknown[] = []) => send({ kind: 'query', sql, params }) as Promise<QueryResult<T>>,
    exec: async (sql: string) => {
      await send({ kind: 'exec', sql });
    },
  };

  return {
    engine: 'pglite',
    query: <T>(sql: string, params: unknown[] = []) => exclusive(() => direct.query<T>(sql, params)),
    exec: (sql: string) => exclusive(() => direct.exec(sql)),
    transaction: <T>(fn: (tx: Queryable) => Promise<T>) =>
      exclusive(async () => {
        await direct.exec('begin');
        try {
          const result = await fn(direct);
          await direct.exec('commit');
          return result;
        } catch (error) {
          await direct.exec('rollback').catch(() => {});
          throw error;
        }
      }),
    async listen(channel, fn) {
      const listenerId = nextId++;
      listeners.set(listenerId, fn);
      await send({ kind: 'listen', channel }, listenerId);
      return async () => {
        listeners.delete(listenerId);
        if (!closed) await send({ kind: 'unlisten', listenerId });
      };
    },
    dump: () => exclusive(() => send({ kind: 'dump' }) as Promise<Uint8Array>),
    async close() {
      if (closed) return;
      await exclusive(() => send({ kind: 'close' }));
      await worker.terminate();
      closed = true;
    },
  };
}
