import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createClient, type RealtimePostgresChangesPayload } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { signJwt } from '../../local/auth/jwt.ts';
import { startLocalStack, type LocalStack } from '../../local/stack.ts';
import { describeOnEngines } from '../support/engines.ts';
import { newBoard, newUser, type TestUser } from '../support/factories.ts';
import { userToken } from '../support/local-config.ts';
import { PhoenixSocket } from '../support/phoenix-socket.ts';

/** The stack's address on loopback, where the per-address cap counts. */
const loopback = (stack: LocalStack) => stack.url.replace('//localhost:', '//127.0.0.1:');

/** A token of its own for each channel, as an abuser signing in again and again would hold: no two share a read. */
const freshToken = (stack: LocalStack, user: TestUser) =>
  signJwt({ sub: user.id, role: 'authenticated', aud: 'authenticated', email: user.email, session_id: randomUUID() }, stack.config.JWT_SECRET, 3600);

async function joinMany(socket: PhoenixSocket, stack: LocalStack, user: TestUser, count: number, prefix: string) {
  const tokens = await Promise.all(Array.from({ length: count }, () => freshToken(stack, user)));
  return Promise.all(tokens.map((token, index) => socket.join(`${prefix}-${index}`, token)));
}

const until = async (condition: () => boolean | Promise<boolean>, timeoutMs: number) => {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > timeoutMs) return false;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return true;
};

describeOnEngines('realtime/v1 limits', (ctx) => {
  const PER_USER = 3;
  const PER_IP = 8;
  // Above the channel cap, so that only the channel cap refuses the 101st channel.
  const JOINS_PER_SECOND = 150;
  const OUTGOING_BUFFER = 1024 * 1024;
  let stack: LocalStack;
  const sockets: PhoenixSocket[] = [];
  const open = async () => {
    const socket = await PhoenixSocket.open(loopback(stack), stack.config.anonKey);
    sockets.push(socket);
    return socket;
  };

  beforeAll(async () => {
    stack = await startLocalStack({
      db: ctx.db,
      port: 0,
      env: {
        DATA_DIR: `.tmp/realtime-limits-${process.pid}-${ctx.engine}`,
        REALTIME_MAX_CONNECTIONS_PER_USER: String(PER_USER),
        REALTIME_MAX_CONNECTIONS_PER_IP: String(PER_IP),
        REALTIME_MAX_JOINS_PER_SECOND: String(JOINS_PER_SECOND),
        REALTIME_MAX_OUTGOING_BUFFER_BYTES: String(OUTGOING_BUFFER),
      },
    });
  });
  afterEach(async () => {
    await Promise.all(sockets.splice(0).map((socket) => socket.close()));
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('refuses the 101st channel on one connection with "Too many channels" (ChannelRateLimitReached)', async () => {
    const user = await newUser(ctx.db);
    const token = await userToken(stack.config, user);
    const socket = await open();
    const replies = await Promise.all(Array.from({ length: 100 }, (_, index) => socket.join(`board-${index}`, token)));
    expect(replies.every((reply) => reply.status === 'ok')).toBe(true);
    const refused = await socket.join('board-100', token);
    expect(refused).toEqual({
      status: 'error',
      response: { reason: 'Too many channels: at most 100 per connection', code: 'ChannelRateLimitReached' },
    });
    expect(socket.isOpen).toBe(true);
  });

  it('refuses joins beyond the per-second rate with "Too many joins per second" (ClientJoinRateLimitReached)', async () => {
    const user = await newUser(ctx.db);
    const token = await userToken(stack.config, user);
    const socket = await open();
    // The same topic over and over never reaches the channel cap: only the rate can refuse it.
    const replies = await Promise.all(Array.from({ length: JOINS_PER_SECOND + 100 }, () => socket.join('board', token)));
    const refused = replies.filter((reply) => reply.status === 'error');
    expect(refused.length).toBeGreaterThanOrEqual(50);
    expect(refused[0]!.response).toEqual({ reason: `Too many joins per second: at most ${JOINS_PER_SECOND} per connection`, code: 'ClientJoinRateLimitReached' });
  });

  it(`refuses a user's channel on a ${PER_USER + 1}th connection with "Too many connected users" (ConnectionRateLimitReached)`, async () => {
    const user = await newUser(ctx.db);
    const token = await userToken(stack.config, user);
    const held = [];
    for (let index = 0; index < PER_USER; index += 1) {
      const socket = await open();
      expect((await socket.join('boards', token)).status).toBe('ok');
      held.push(socket);
    }
    const extra = await open();
    expect(await extra.join('boards', token)).toEqual({
      status: 'error',
      response: { reason: `Too many connected users: at most ${PER_USER} connections per user`, code: 'ConnectionRateLimitReached' },
    });
    // Another user on the same connection is not refused: the cap counts one user's connections.
    const other = await newUser(ctx.db);
    expect((await extra.join('other', await userToken(stack.config, other))).status).toBe('ok');
    // Once one of the user's connections closes, the user may join again.
    await held[0]!.close();
    expect(await until(async () => (await extra.join('boards', token)).status === 'ok', 2000)).toBe(true);
  });

  it(`closes the ${PER_IP + 1}th connection from one address with 1008 ConnectionRateLimitReached`, async () => {
    // The server lets go of the last test's connections as their close completes.
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (let index = 0; index < PER_IP; index += 1) await open();
    const refused = await open();
    expect(await refused.closed).toEqual({ code: 1008, reason: `ConnectionRateLimitReached: at most ${PER_IP} connections per address` });
    // The connections it holds stay served.
    expect(sockets.slice(0, PER_IP).every((socket) => socket.isOpen)).toBe(true);
  });

  it('closes a connection whose client stops reading once its unsent events pass the bound', async () => {
    const user = await newUser(ctx.db);
    const token = await userToken(stack.config, user);
    const socket = await open();
    const joined = await Promise.all(Array.from({ length: 100 }, (_, index) => socket.join(`slow-${index}`, token)));
    expect(joined.every((reply) => reply.status === 'ok')).toBe(true);
    socket.pauseReading();
    // 100 channels × 120 changes of about 1 KB: far more than the bound and the kernel's socket buffers together.
    const boardId = await newBoard(ctx.db, user, 'Slow 0');
    const updates = 120;
    for (let index = 1; index <= updates; index += 1) await ctx.db.query('update public.user_collections set name = $2 where id = $1', [boardId, `Slow ${index}`]);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    socket.resumeReading();
    const closed = await Promise.race([socket.closed, new Promise<null>((resolve) => setTimeout(() => resolve(null), 15_000))]);
    expect(closed).not.toBeNull();
    expect(socket.messages.filter((message) => message.event === 'postgres_changes').length).toBeLessThan(100 * (updates + 1));
  }, 60_000);

  it('delivers an honest client\'s event within 1 s while one connection holds 100 channels and another user holds every connection it may', async () => {
    const honest = await newUser(ctx.db);
    const abuser = await newUser(ctx.db);
    const accomplice = await newUser(ctx.db);

    // The honest client subscribes as the SPA does, through supabase-js.
    const client = createClient(stack.url, stack.config.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false },
      realtime: { transport: WebSocket as never },
    });
    await client.realtime.setAuth(await userToken(stack.config, honest));
    const received: { at: number; change: RealtimePostgresChangesPayload<Record<string, unknown>> }[] = [];
    await new Promise<void>((resolve, reject) => {
      client
        .channel('honest-boards')
        .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'user_collections' }, (change) => received.push({ at: performance.now(), change }))
        .subscribe((status, error) => {
          if (status === 'SUBSCRIBED') resolve();
          if (status === 'CHANNEL_ERROR' || status === 'TIMED_OUT') reject(error ?? new Error(status));
        });
    });
    const delayOfNewBoard = async (name: string) => {
      const before = received.length;
      const started = performance.now();
      const id = await newBoard(ctx.db, honest, name);
      expect(await until(() => received.length > before, 10_000)).toBe(true);
      expect(received[before]!.change.new).toMatchObject({ id, name });
      return received[before]!.at - started;
    };
    const quiet = await delayOfNewBoard('Before the abuse');

    // One connection at the channel cap, each channel with a token of its own.
    const hog = await open();
    expect((await joinMany(hog, stack, abuser, 100, 'hog')).every((reply) => reply.status === 'ok')).toBe(true);
    // Another user at the connection cap, each connection full of channels too.
    for (let index = 0; index < PER_USER; index += 1) {
      const socket = await open();
      expect((await joinMany(socket, stack, accomplice, 100, `crowd-${index}`)).every((reply) => reply.status === 'ok')).toBe(true);
    }
    expect((await (await open()).join('crowd-extra', await freshToken(stack, accomplice))).status).toBe('error');

    // The abuser's own writes queue 400 reads per change ahead of the honest client's.
    for (let index = 0; index < 10; index += 1) await newBoard(ctx.db, abuser, `Noise ${index}`);
    const abused = await delayOfNewBoard('During the abuse');
    console.info(`realtime fairness [${ctx.engine}]: honest event after ${quiet.toFixed(0)} ms alone, ${abused.toFixed(0)} ms beside 400 abusive channels`);
    expect(abused).toBeLessThan(1000);
    await client.removeAllChannels();
  });
});
