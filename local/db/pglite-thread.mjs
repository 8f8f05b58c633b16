// Hosts PGlite in a worker thread: PGlite blocks the thread a query runs on, so the
// local stack's event loop stays free. Plain JavaScript because worker threads do not
// go through the TypeScript loader on Node 20. Protocol: see pglite-worker.ts.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { cube } from '@electric-sql/pglite/contrib/cube';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { pgcrypto } from '@electric-sql/pglite/contrib/pgcrypto';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';

const asText = (value) => value;
const parsers = Object.fromEntries(workerData.textTypeOids.map((oid) => [oid, asText]));

const errorFields = ['code', 'detail', 'hint', 'constraint', 'table', 'column', 'schema', 'severity', 'position', 'where'];
const serializeError = (error) => {
  const out = { message: String(error?.message ?? error) };
  for (const field of errorFields) if (error?.[field] !== undefined) out[field] = error[field];
  return out;
};

// A standby (gated) loads the engine but touches the data folder only after {kind: 'open'}: the engine it
// replaces must have stopped first, as two engines on one folder corrupt it.
let openGate;
const gate = new Promise((resolve) => (openGate = resolve));
if (!workerData.gated) openGate();
parentPort.on('message', (message) => {
  if (message.kind === 'open') openGate();
});
class GatedNodeFS extends NodeFS {
  async initialSyncFs() {
    await gate;
    return super.initialSyncFs();
  }
}

let db;
const listeners = new Map();
try {
  db = await PGlite.create({
    dataDir: workerData.dataDir ?? undefined,
    fs: workerData.dataDir ? new GatedNodeFS(workerData.dataDir) : undefined,
    loadDataDir: workerData.loadDataDir ? new Blob([workerData.loadDataDir]) : undefined,
    // The same extensions as pgliteExtensions in pglite.ts.
    extensions: { btree_gin, cube, pg_trgm, pgcrypto, unaccent },
    parsers,
  });
  parentPort.postMessage({ ready: true });
} catch (error) {
  parentPort.postMessage({ ready: false, error: serializeError(error) });
}

parentPort.on('message', async (message) => {
  const { id, kind, sql, params } = message;
  if (kind === 'open') return;
  try {
    if (kind === 'query') {
      const result = await db.query(sql, params ?? []);
      parentPort.postMessage({ id, result: { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length } });
    } else if (kind === 'transaction') {
      // The whole transaction in one message: the engine does not wait on the caller between statements.
      const results = await db.transaction(async (tx) => {
        const out = [];
        for (const statement of message.statements) {
          const result = await tx.query(statement.sql, statement.params ?? []);
          out.push({ rows: result.rows, rowCount: result.affectedRows ?? result.rows.length });
        }
        return out;
      });
      parentPort.postMessage({ id, result: results });
    } else if (kind === 'exec') {
      await db.exec(sql);
      parentPort.postMessage({ id, result: null });
    } else if (kind === 'listen') {
      const unlisten = await db.listen(message.channel, (payload) => {
        parentPort.postMessage({ notification: { listenerId: id, payload } });
      });
      listeners.set(id, unlisten);
      parentPort.postMessage({ id, result: null });
    } else if (kind === 'unlisten') {
      await listeners.get(message.listenerId)?.();
      listeners.delete(message.listenerId);
      parentPort.postMessage({ id, result: null });
    } else if (kind === 'dump') {
      const blob = await db.dumpDataDir('none');
      parentPort.postMessage({ id, result: new Uint8Array(await blob.arrayBuffer()) });
    } else if (kind === 'close') {
      await db.close();
      parentPort.postMessage({ id, result: null });
    } else {
      throw new Error(`Unknown request ${kind}`);
    }
  } catch (error) {
    parentPort.postMessage({ id, error: serializeError(error) });
  }
});
