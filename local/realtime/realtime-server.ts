import { resolveClientAddress, type TrustedProxies } from '../http/client-address.ts';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { verifyJwt, type AccessClaims } from '../auth/jwt.ts';
import { runAsCaller, withCaller } from '../db/caller-scope.ts';
import type { ApiContext } from '../http/api-handler.ts';
import { parseChangeFilter, rowMatches, type ChangeFilter } from './change-filter.ts';
import { FairScheduler } from './fair-scheduler.ts';
import { closes, ConnectionCounts, JoinRate, refusals, type JoinRefusal, type RealtimeLimits } from './realtime-limits.ts';

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
  ip: string;
  /** The users (JWT sub) whose tokens joined channels here: each counts this connection once. */
  users: Set<string>;
  joinRate: JoinRate;
  /** The client's messages, handled one after another so counts and joins never race. */
  inbox: Promise<void>;
  closing: boolean;
}

/** A channel's bindings that a change matches. */
interface Target {
  channel: Channel;
  candidates: Binding[];
}

/** What one set of claims may see of one change: the row as read back, or whether the deleted row was visible. */
type Visibility = { record: Record<string, unknown> | null; visible: boolean };

type Message = { joinRef: string | null; ref: string | null; topic: string; event: string; payload: Record<string, unknown> };

const HEARTBEAT_TIMEOUT_MS = 60_000;
/** Reads as subscribers at once, across all connections: the rest of the pool stays for API calls. */
const READ_CONCURRENCY = 4;
/** Reads one connection may have waiting before it counts as falling behind (ten changes for a full connection). */
const MAX_PENDING_READS_PER_CONNECTION = 1000;

export function realtimeLimitsOf(config: ApiContext['config']): RealtimeLimits {
  return {
    channelsPerConnection: config.REALTIME_MAX_CHANNELS_PER_CONNECTION,
    joinsPerSecond: config.REALTIME_MAX_JOINS_PER_SECOND,
    connectionsPerUser: config.REALTIME_MAX_CONNECTIONS_PER_USER,
    connectionsPerIp: config.REALTIME_MAX_CONNECTIONS_PER_IP,
    outgoingBufferBytes: config.REALTIME_MAX_OUTGOING_BUFFER_BYTES,
  };
}

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
 * same PostgreSQL receive them. Each change is read once per distinct set of
 * claims, and each connection's reads wait in a queue of their own, served in
 * turns (FairScheduler), so a connection with many channels cannot hold up
 * another's events; channels, joins and connections are capped (realtime-limits.ts).
 */
export async function createRealtimeServer(ctx: ApiContext, trustedProxies: TrustedProxies = { kind: 'none' }): Promise<RealtimeServer> {
  await ctx.db.query('select realtime_local.sync_capture_triggers()');
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  const connections = new Set<Connection>();
  const limits = realtimeLimitsOf(ctx.config);
  const perIp = new ConnectionCounts<Connection>();
  const perUser = new ConnectionCounts<Connection>();
  const scheduler = new FairScheduler<Connection>(READ_CONCURRENCY, (error) => console.error('realtime delivery failed:', error));
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

  const closeConnection = (connection: Connection, close: { code: number; reason: string }) => {
    if (connection.closing) return;
    connection.closing = true;
    forget(connection);
    connection.socket.close(close.code, close.reason);
    // A client that does not read will not read the close frame either.
    setTimeout(() => connection.socket.terminate(), 2_000).unref();
  };

  /** Stops counting and serving a connection that closed or is closing. */
  const forget = (connection: Connection) => {
    connections.delete(connection);
    scheduler.drop(connection);
    perIp.remove(connection.ip, connection);
    for (const user of connection.users) perUser.remove(user, connection);
    connection.users.clear();
  };

  /** The connection's users are those of its channels' tokens; a user whose channels all left stops counting it. */
  const recountUsers = (connection: Connection) => {
    const now = new Set<string>();
    for (const channel of connection.channels.values()) if (channel.claims.sub) now.add(channel.claims.sub);
    for (const user of connection.users) if (!now.has(user)) perUser.remove(user, connection);
    connection.users = now;
    for (const user of now) perUser.add(user, connection);
  };

  const send = (connection: Connection, message: Message) => {
    if (connection.closing || connection.socket.readyState !== connection.socket.OPEN) return;
    // Its own bounded queue: a client that reads too slowly is closed rather than buffered without end.
    if (connection.socket.bufferedAmount > limits.outgoingBufferBytes) return closeConnection(connection, closes.slowConsumer());
    const { joinRef, ref, topic, event, payload } = message;
    connection.socket.send(
      JSON.stringify(connection.arrays ? [joinRef, ref, topic, event, payload] : { join_ref: joinRef, ref, topic, event, payload }),
    );
  };
  const reply = (connection: Connection, message: Message, status: 'ok' | 'error', response: Record<string, unknown>) =>
    send(connection, { joinRef: message.joinRef, ref: message.ref, topic: message.topic, event: 'phx_reply', payload: { status, response } });
  const refuse = (connection: Connection, message: Message, refusal: JoinRefusal) => reply(connection, message, 'error', { ...refusal });

  /** Would this user's token here make one connection too many for them? */
  const overUserCap = (connection: Connection, claims: AccessClaims) =>
    claims.sub !== undefined && !perUser.has(claims.sub, connection) && perUser.count(claims.sub) >= limits.connectionsPerUser;

  const join = async (connection: Connection, message: Message, apiKey: string) => {
    // The cap before the token is verified, as Supabase Realtime checks it (the join rate was checked on arrival).
    if (!connection.channels.has(message.topic) && connection.channels.size >= limits.channelsPerConnection) {
      return refuse(connection, message, refusals.tooManyChannels(limits.channelsPerConnection));
    }
    const token = typeof message.payload.access_token === 'string' ? message.payload.access_token : apiKey;
    let claims: AccessClaims;
    try {
      claims = await verifyJwt(token, ctx.config.JWT_SECRET);
    } catch (error) {
      reply(connection, message, 'error', { reason: (error as Error).message });
      return;
    }
    if (overUserCap(connection, claims)) return refuse(connection, message, refusals.tooManyUserConnections(limits.connectionsPerUser));
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
    recountUsers(connection);
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

  /** The client's message, or null after closing a connection that sent something else. */
  const parseMessage = (connection: Connection, raw: string): Message | null => {
    try {
      const parsed = JSON.parse(raw) as unknown;
      let message: Message;
      if (Array.isArray(parsed)) {
        const [joinRef, ref, topic, event, payload] = parsed as [string | null, string | null, string, string, Record<string, unknown>];
        message = { joinRef, ref, topic, event, payload: payload ?? {} };
      } else {
        const object = parsed as { join_ref?: string; ref?: string; topic: string; event: string; payload?: Record<string, unknown> };
        connection.arrays = false;
        message = { joinRef: object.join_ref ?? null, ref: object.ref ?? null, topic: object.topic, event: object.event, payload: object.payload ?? {} };
      }
      if (typeof message.topic !== 'string' || typeof message.event !== 'string') throw new Error('bad message');
      return message;
    } catch {
      connection.socket.close(1003, 'Malformed message');
      return null;
    }
  };

  /** Takes a client's message as it arrives: joins over the rate are refused at once, the rest wait their turn in order. */
  const receive = (connection: Connection, raw: string, apiKey: string) => {
    const message = parseMessage(connection, raw);
    if (!message) return;
    if (message.event === 'phx_join' && !connection.joinRate.take()) return refuse(connection, message, refusals.tooManyJoins(limits.joinsPerSecond));
    connection.inbox = connection.inbox
      .then(() => onMessage(connection, message, apiKey))
      .catch((error: unknown) => console.error('realtime message failed:', error));
  };

  const onMessage = async (connection: Connection, message: Message, apiKey: string) => {
    connection.lastSeen = Date.now();
    if (message.topic === 'phoenix' && message.event === 'heartbeat') return reply(connection, message, 'ok', {});
    switch (message.event) {
      case 'phx_join':
        return join(connection, message, apiKey);
      case 'phx_leave':
        connection.channels.delete(message.topic);
        recountUsers(connection);
        reply(connection, message, 'ok', {});
        return send(connection, { joinRef: message.joinRef, ref: message.ref, topic: message.topic, event: 'phx_close', payload: {} });
      case 'access_token': {
        const channel = connection.channels.get(message.topic);
        const token = message.payload.access_token;
        if (!channel || typeof token !== 'string') return;
        try {
          const claims = await verifyJwt(token, ctx.config.JWT_SECRET);
          if (overUserCap(connection, claims)) throw new Error(refusals.tooManyUserConnections(limits.connectionsPerUser).reason);
          channel.claims = claims;
        } catch (error) {
          connection.channels.delete(message.topic);
          send(connection, { joinRef: channel.joinRef, ref: null, topic: message.topic, event: 'system', payload: { extension: 'system', message: (error as Error).message, status: 'error' } });
        }
        recountUsers(connection);
        return;
      }
      default:
        // Broadcast and presence are not used by the app; acknowledge so clients do not time out.
        return reply(connection, message, 'ok', {});
    }
  };

  const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

  const readAs = async (claims: AccessClaims, change: CapturedChange): Promise<Record<string, unknown> | null> => {
    const keys = Object.keys(change.pk);
    const columns = await columnsOf(change.schema, change.table);
    if (keys.length === 0 || keys.some((key) => !columns.some((column) => column.name === key))) return null;
    const where = keys.map((key, index) => `t.${quote(key)}::text = $${index + 1}`).join(' and ');
    try {
      // One round trip on PostgreSQL (settings and statement together), as the REST API reads.
      return await runAsCaller(ctx.db, claims, {
        statement: {
          text: `select to_jsonb(t) as row from ${quote(change.schema)}.${quote(change.table)} t where ${where}`,
          values: keys.map((key) => (change.pk[key] === null ? null : String(change.pk[key]))),
        },
        readOnly: true,
        mayRefuse: false,
        rollback: false,
        respond: (result) => (result.rows[0]?.row as Record<string, unknown> | undefined) ?? null,
      });
    } catch {
      // No grant or no such table for this role: nothing to deliver.
      return null;
    }
  };

  /** The condition the table's SELECT policies put on a role's rows ('true' without RLS), or null when the role may not select. */
  const selectCondition = async (change: CapturedChange, role: string): Promise<string | null> => {
    const { rows: security } = await ctx.db.query<{ rls: boolean; granted: boolean }>(
      `select c.relrowsecurity as rls, has_table_privilege($3, c.oid, 'SELECT') as granted
         from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = $1 and c.relname = $2`,
      [change.schema, change.table, role],
    );
    if (!security[0]?.granted) return null;
    if (!security[0].rls) return 'true';
    const { rows: policies } = await ctx.db.query<{ permissive: string; qual: string | null }>(
      `select permissive, qual from pg_policies
        where schemaname = $1 and tablename = $2 and cmd in ('SELECT', 'ALL') and ($3 = any (roles) or 'public' = any (roles))`,
      [change.schema, change.table, role],
    );
    const permissive = policies.filter((policy) => policy.permissive === 'PERMISSIVE').map((policy) => `(${policy.qual ?? 'true'})`);
    const restrictive = policies.filter((policy) => policy.permissive !== 'PERMISSIVE').map((policy) => `(${policy.qual ?? 'true'})`);
    if (permissive.length === 0) return null;
    return [`(${permissive.join(' or ')})`, ...restrictive].join(' and ');
  };

  /**
   * Could this caller have selected the deleted row? The table's SELECT
   * policies for the caller's role, evaluated as the caller against the old row.
   */
  const couldSeeDeleted = async (claims: AccessClaims, change: CapturedChange, condition: Promise<string | null>): Promise<boolean> => {
    if (!change.old) return false;
    const where = await condition;
    if (where === null) return false;
    const table = `${quote(change.schema)}.${quote(change.table)}`;
    try {
      const { rows } = await withCaller(ctx.db, claims, (q) =>
        q.query<{ visible: boolean }>(
          `select exists (select 1 from (select (jsonb_populate_record(null::${table}, $1::jsonb)).*) as t where ${where}) as visible`,
          [JSON.stringify(change.old)],
        ),
      );
      return rows[0]?.visible === true;
    } catch {
      return false;
    }
  };

  /**
   * What each set of claims may see of one change, read once per set however
   * many channels share it, and only when a subscriber's turn comes.
   */
  const visibilityOf = (change: CapturedChange) => {
    const byClaims = new Map<string, Promise<Visibility>>();
    const conditions = new Map<string, Promise<string | null>>();
    return (claims: AccessClaims, key: string): Promise<Visibility> => {
      let visibility = byClaims.get(key);
      if (!visibility) {
        if (change.type === 'DELETE') {
          let condition = conditions.get(claims.role);
          if (!condition) {
            condition = selectCondition(change, claims.role).catch(() => null);
            conditions.set(claims.role, condition);
          }
          visibility = couldSeeDeleted(claims, change, condition).then((visible) => ({ record: null, visible }));
        } else {
          visibility = readAs(claims, change).then((record) => ({ record, visible: record !== null }));
        }
        byClaims.set(key, visibility);
      }
      return visibility;
    };
  };

  const matching = (channel: Channel, change: CapturedChange) =>
    channel.bindings.filter(
      (binding) =>
        (binding.schema === '*' || binding.schema === change.schema) &&
        (!binding.table || binding.table === '*' || binding.table === change.table) &&
        (binding.event === '*' || binding.event.toUpperCase() === change.type),
    );

  /** Sends the change to the channels of one connection that share one set of claims. */
  const deliverTo = async (
    connection: Connection,
    change: CapturedChange,
    group: { key: string; claims: AccessClaims; targets: Target[] },
    see: ReturnType<typeof visibilityOf>,
  ) => {
    if (connection.closing) return;
    const { key, claims, targets } = group;
    const { record, visible } = await see(claims, key);
    if (!visible) return;
    const columns = await columnsOf(change.schema, change.table);
    const subject = record ?? change.pk;
    for (const { channel, candidates } of targets) {
      // Left, or now someone else's, while the read waited: what was read is no longer its to see (a refreshed token is the same caller).
      if (connection.channels.get(channel.topic) !== channel || channel.claims.sub !== claims.sub || channel.claims.role !== claims.role) continue;
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
            columns,
            record: record ?? {},
            old_record: change.type === 'INSERT' ? {} : (change.old_pk ?? change.pk),
            errors: null,
          },
        },
      });
    }
  };

  /**
   * Queues the change for every connection with a matching channel: one read
   * per set of claims on that connection, in the connection's own queue, so
   * each connection receives changes in commit order and none waits on another's.
   */
  const fanOut = (change: CapturedChange) => {
    const now = Math.floor(Date.now() / 1000);
    const see = visibilityOf(change);
    for (const connection of connections) {
      const groups = new Map<string, { key: string; claims: AccessClaims; targets: Target[] }>();
      for (const channel of connection.channels.values()) {
        if (channel.claims.exp !== undefined && channel.claims.exp < now) continue;
        const candidates = matching(channel, change);
        if (candidates.length === 0) continue;
        const key = claimsKey(channel.claims);
        const group = groups.get(key);
        if (group) group.targets.push({ channel, candidates });
        else groups.set(key, { key, claims: channel.claims, targets: [{ channel, candidates }] });
      }
      for (const group of groups.values()) {
        const waiting = scheduler.enqueue(connection, () => deliverTo(connection, change, group, see));
        if (waiting > MAX_PENDING_READS_PER_CONNECTION) {
          closeConnection(connection, closes.fallingBehind());
          break;
        }
      }
    }
  };

  const unlisten = await ctx.db.listen('obyect_realtime', (payload) => {
    let change: CapturedChange;
    try {
      change = JSON.parse(payload) as CapturedChange;
    } catch {
      return;
    }
    fanOut(change);
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
      // The caps per address count clients, not the proxy in front (local/http/client-address.ts).
      const ip = resolveClientAddress(request.socket.remoteAddress, request.headers['x-forwarded-for'], trustedProxies);
      verifyJwt(apiKey, ctx.config.JWT_SECRET).then(
        () =>
          wss.handleUpgrade(request, socket, head, (ws) => {
            // Closed with a reason a browser can read (an HTTP refusal of the upgrade shows only as 1006).
            if (perIp.count(ip) >= limits.connectionsPerIp) {
              const close = closes.tooManyIpConnections(limits.connectionsPerIp);
              ws.close(close.code, close.reason);
              return;
            }
            const connection: Connection = {
              socket: ws,
              arrays: url.searchParams.get('vsn') !== '1.0.0',
              channels: new Map(),
              lastSeen: Date.now(),
              ip,
              users: new Set(),
              joinRate: new JoinRate(limits.joinsPerSecond),
              inbox: Promise.resolve(),
              closing: false,
            };
            connections.add(connection);
            perIp.add(ip, connection);
            ws.on('message', (data) => {
              if (!connection.closing) receive(connection, data.toString(), apiKey);
            });
            ws.on('close', () => forget(connection));
            ws.on('error', () => forget(connection));
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
      await scheduler.stop();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

/** Channels with the same claims see the same rows: the token's claims as sent identify the set. */
function claimsKey(claims: AccessClaims): string {
  return JSON.stringify(claims);
}
