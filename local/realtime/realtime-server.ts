import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { verifyJwt, type AccessClaims } from '../auth/jwt.ts';
import { withCaller } from '../db/caller-scope.ts';
import type { ApiContext } from '../http/api-handler.ts';
import { parseChangeFilter, rowMatches, type ChangeFilter } from './change-filter.ts';

/** One change as the capture trigger reports it (local/db/bootstrap/04_realtime.sql). */
interface CapturedChange {
  schema: string;
  table: string;
  type: 'INSERT' | 'UPDATE' | 'DELETE';
  pk: Record<string, unknown>;
  old_pk: Record<string, unknown> | null;
  /** The deleted row, when small enough to travel in a notification. */
  old?: Record<string, unknown> | null;
  commit_timestamp: string;
}

interface Binding {
  id: number;
  event: string;
  schema: string;
  table?: string;
  filter?: string;
  parsed: ChangeFilter | null;
}

interface Channel {
  topic: string;
  joinRef: string | null;
  claims: AccessClaims;
  bindings: Binding[];
}

interface Connection {
  socket: WebSocket;
  /** Protocol 2.0.0 speaks JSON arrays, 1.0.0 objects. */
  arrays: boolean;
  channels: Map<string, Channel>;
  lastSeen: number;
}

type Message = { joinRef: string | null; ref: string | null; topic: string; event: string; payload: Record<string, unknown> };

const HEARTBEAT_TIMEOUT_MS = 60_000;

export interface RealtimeServer {
  /** Takes the upgrade when the request is for /realtime/v1/websocket; false otherwise. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  close(): Promise<void>;
}

/**
 * realtime/v1: the Phoenix websocket protocol as realtime-js speaks it, with
 * postgres_changes. Each change is read again as each subscriber, so a
 * subscriber only receives rows that row-level security lets them select.
 * Changes arrive by LISTEN/NOTIFY, so subscribers of any stack process on the
 * same PostgreSQL receive them.
 */
export async function createRealtimeServer(ctx: ApiContext): Promise<RealtimeServer> {
  await ctx.db.query('select realtime_local.sync_capture_triggers()');
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  const connections = new Set<Connection>();
  let nextBindingId = 1;
  const columnCache = new Map<string, { name: string; type: string }[]>();

  const columnsOf = async (schema: string, table: string) => {
    const key = `${schema}.${table}`;
    let columns = columnCache.get(key);
    if (!columns) {
      const { rows } = await ctx.db.query<{ name: string; type: string }>(
        `select a.attname as name, format_type(a.atttypid, null) as type
           from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = $1 and c.relname = $2 and a.attnum > 0 and not a.attisdropped order by a.attnum`,
        [schema, table],
      );
      columns = rows;
      columnCache.set(key, columns);
    }
    return columns;
  };

  const send = (connection: Connection, message: Message) => {
    if (connection.socket.readyState !== connection.socket.OPEN) return;
    const { joinRef, ref, topic, event, payload } = message;
    connection.socket.send(
      JSON.stringify(connection.arrays ? [joinRef, ref, topic, event, payload] : { join_ref: joinRef, ref, topic, event, payload }),
    );
  };
  const reply = (connection: Connection, message: Message, status: 'ok' | 'error', response: Record<string, unknown>) =>
    send(connection, { joinRef: message.joinRef, ref: message.ref, topic: message.topic, event: 'phx_reply', payload: { status, response } });

  const join = async (connection: Connection, message: Message, apiKey: string) => {
    const token = typeof message.payload.access_token === 'string' ? message.payload.access_token : apiKey;
    let claims: AccessClaims;
    try {
      claims = await verifyJwt(token, ctx.config.JWT_SECRET);
    } catch (error) {
      reply(connection, message, 'error', { reason: (error as Error).message });
      return;
    }
    const config = (message.payload.config ?? {}) as { postgres_changes?: { event?: string; schema?: string; table?: string; filter?: string }[] };
    const bindings: Binding[] = [];
    try {
      for (const requested of config.postgres_changes ?? []) {
        const event = String(requested.event ?? '*').toUpperCase();
        if (!['*', 'INSERT', 'UPDATE', 'DELETE'].includes(event)) throw new Error(`Unsupported event: ${requested.event}`);
        if (!requested.schema) throw new Error('A schema is required');
        bindings.push({
          id: nextBindingId++,
          event: requested.event ?? '*',
          schema: requested.schema,
          table: requested.table,
          filter: requested.filter,
          parsed: parseChangeFilter(requested.filter),
        });
      }
    } catch (error) {
      reply(connection, message, 'error', { reason: (error as Error).message });
      return;
    }
    connection.channels.set(message.topic, { topic: message.topic, joinRef: message.joinRef, claims, bindings });
    reply(connection, message, 'ok', {
      postgres_changes: bindings.map(({ id, event, schema, table, filter }) => ({ id, event, schema, table, filter })),
    });
    if (bindings.length > 0) {
      send(connection, {
        joinRef: message.joinRef,
        ref: null,
        topic: message.topic,
        event: 'system',
        payload: { channel: message.topic.replace(/^realtime:/, ''), extension: 'postgres_changes', message: 'Subscribed to PostgreSQL', status: 'ok' },
      });
    }
  };

  const onMessage = async (connection: Connection, raw: string, apiKey: string) => {
    let message: Message;
    try {
      const parsed = JSON.parse(raw) as unknown;
      if (Array.isArray(parsed)) {
        const [joinRef, ref, topic, event, payload] = parsed as [string | null, string | null, string, string, Record<string, unknown>];
        message = { joinRef, ref, topic, event, payload: payload ?? {} };
      } else {
        const object = parsed as { join_ref?: string; ref?: string; topic: string; event: string; payload?: Record<string, unknown> };
        connection.arrays = false;
        message = { joinRef: object.join_ref ?? null, ref: object.ref ?? null, topic: object.topic, event: object.event, payload: object.payload ?? {} };
      }
      if (typeof message.topic !== 'string' || typeof message.event !== 'string') throw new Error('bad message');
    } catch {
      connection.socket.close(1003, 'Malformed message');
      return;
    }
    connection.lastSeen = Date.now();
    if (message.topic === 'phoenix' && message.event === 'heartbeat') return reply(connection, message, 'ok', {});
    switch (message.event) {
      case 'phx_join':
        return join(connection, message, apiKey);
      case 'phx_leave':
        connection.channels.delete(message.topic);
        reply(connection, message, 'ok', {});
        return send(connection, { joinRef: message.joinRef, ref: message.ref, topic: message.topic, event: 'phx_close', payload: {} });
      case 'access_token': {
        const channel = connection.channels.get(message.topic);
        const token = message.payload.access_token;
        if (!channel || typeof token !== 'string') return;
        try {
          channel.claims = await verifyJwt(token, ctx.config.JWT_SECRET);
        } catch (error) {
          connection.channels.delete(message.topic);
          send(connection, { joinRef: channel.joinRef, ref: null, topic: message.topic, event: 'system', payload: { extension: 'system', message: (error as Error).message, status: 'error' } });
        }
        return;
      }
      default:
        // Broadcast and presence are not used by the app; acknowledge so clients do not time out.
        return reply(connection, message, 'ok', {});
    }
  };

  const readAs = async (claims: AccessClaims, change: CapturedChange): Promise<Record<string, unknown> | null> => {
    const keys = Object.keys(change.pk);
    const columns = await columnsOf(change.schema, change.table);
    if (keys.length === 0 || keys.some((key) => !columns.some((column) => column.name === key))) return null;
    const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
    const where = keys.map((key, index) => `t.${quote(key)}::text = $${index + 1}`).join(' and ');
    try {
      const { rows } = await withCaller(ctx.db, claims, (q) =>
        q.query<{ row: Record<string, unknown> }>(`select to_jsonb(t) as row from ${quote(change.schema)}.${quote(change.table)} t where ${where}`,
          keys.map((key) => (change.pk[key] === null ? null : String(change.pk[key])))),
      );
      return rows[0]?.row ?? null;
    } catch {
      // No grant or no such table for this role: nothing to deliver.
      return null;
    }
  };

  /**
   * Could this caller have selected the deleted row? The table's SELECT
   * policies for the caller's role, evaluated as the caller against the old row.
   */
  const couldSeeDeleted = async (claims: AccessClaims, change: CapturedChange): Promise<boolean> => {
    if (!change.old) return false;
    const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
    const table = `${quote(change.schema)}.${quote(change.table)}`;
    const { rows: security } = await ctx.db.query<{ rls: boolean; granted: boolean }>(
      `select c.relrowsecurity as rls, has_table_privilege($3, c.oid, 'SELECT') as granted
         from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = $1 and c.relname = $2`,
      [change.schema, change.table, claims.role],
    );
    if (!security[0]?.granted) return false;
    let condition = 'true';
    if (security[0].rls) {
      const { rows: policies } = await ctx.db.query<{ permissive: string; qual: string | null }>(
        `select permissive, qual from pg_policies
          where schemaname = $1 and tablename = $2 and cmd in ('SELECT', 'ALL') and ($3 = any (roles) or 'public' = any (roles))`,
        [change.schema, change.table, claims.role],
      );
      const permissive = policies.filter((policy) => policy.permissive === 'PERMISSIVE').map((policy) => `(${policy.qual ?? 'true'})`);
      const restrictive = policies.filter((policy) => policy.permissive !== 'PERMISSIVE').map((policy) => `(${policy.qual ?? 'true'})`);
      if (permissive.length === 0) return false;
      condition = [`(${permissive.join(' or ')})`, ...restrictive].join(' and ');
    }
    try {
      const { rows } = await withCaller(ctx.db, claims, (q) =>
        q.query<{ visible: boolean }>(
          `select exists (select 1 from (select (jsonb_populate_record(null::${table}, $1::jsonb)).*) as t where ${condition}) as visible`,
          [JSON.stringify(change.old)],
        ),
      );
      return rows[0]?.visible === true;
    } catch {
      return false;
    }
  };

  const deliver = async (change: CapturedChange) => {
    const now = Math.floor(Date.now() / 1000);
    for (const connection of connections) {
      for (const channel of connection.channels.values()) {
        if (channel.claims.exp !== undefined && channel.claims.exp < now) continue;
        const candidates = channel.bindings.filter(
          (binding) =>
            (binding.schema === '*' || binding.schema === change.schema) &&
            (!binding.table || binding.table === '*' || binding.table === change.table) &&
            (binding.event === '*' || binding.event.toUpperCase() === change.type),
        );
        if (candidates.length === 0) continue;
        const record = change.type === 'DELETE' ? null : await readAs(channel.claims, change);
        if (change.type !== 'DELETE' && !record) continue;
        if (change.type === 'DELETE' && !(await couldSeeDeleted(channel.claims, change))) continue;
        const subject = record ?? change.pk;
        const ids = candidates.filter((binding) => rowMatches(binding.parsed, subject)).map((binding) => binding.id);
        if (ids.length === 0) continue;
        send(connection, {
          joinRef: channel.joinRef,
          ref: null,
          topic: channel.topic,
          event: 'postgres_changes',
          payload: {
            ids,
            data: {
              schema: change.schema,
              table: change.table,
              commit_timestamp: change.commit_timestamp,
              type: change.type,
              columns: await columnsOf(change.schema, change.table),
              record: record ?? {},
              old_record: change.type === 'INSERT' ? {} : (change.old_pk ?? change.pk),
              errors: null,
            },
          },
        });
      }
    }
  };

  // Changes are delivered one at a time, in the order they were committed.
  let queue = Promise.resolve();
  const unlisten = await ctx.db.listen('obyect_realtime', (payload) => {
    let change: CapturedChange;
    try {
      change = JSON.parse(payload) as CapturedChange;
    } catch {
      return;
    }
    queue = queue.then(() => deliver(change)).catch((error: unknown) => console.error('realtime delivery failed:', error));
  });

  const sweeper = setInterval(() => {
    for (const connection of connections) {
      if (Date.now() - connection.lastSeen > HEARTBEAT_TIMEOUT_MS) connection.socket.terminate();
    }
  }, 10_000);
  sweeper.unref();

  return {
    handleUpgrade(request, socket, head) {
      const url = new URL(request.url ?? '/', 'http://local');
      if (url.pathname !== '/realtime/v1/websocket' && url.pathname !== '/realtime/v1/websocket/') return false;
      const apiKey = url.searchParams.get('apikey') ?? '';
      verifyJwt(apiKey, ctx.config.JWT_SECRET).then(
        () =>
          wss.handleUpgrade(request, socket, head, (ws) => {
            const connection: Connection = { socket: ws, arrays: url.searchParams.get('vsn') !== '1.0.0', channels: new Map(), lastSeen: Date.now() };
            connections.add(connection);
            ws.on('message', (data) => void onMessage(connection, data.toString(), apiKey));
            ws.on('close', () => connections.delete(connection));
            ws.on('error', () => connections.delete(connection));
          }),
        () => {
          socket.end('HTTP/1.1 401 Unauthorized\r\ncontent-type: application/json\r\n\r\n{"message":"Invalid API key"}');
        },
      );
      return true;
    },
    async close() {
      clearInterval(sweeper);
      await unlisten();
      for (const connection of connections) connection.socket.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
