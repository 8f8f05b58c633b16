import { afterAll, beforeAll, expect, it } from 'vitest';
import { createClient, type RealtimePostgresChangesPayload, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { startLocalStack, type LocalStack } from '../../local/stack.ts';
import { openPostgres } from '../../local/db/postgres.ts';
import { describeOnEngines } from '../support/engines.ts';
import { newAd, newBoard, newBrand, newCategory, newUser, type TestUser } from '../support/factories.ts';
import { userToken } from '../support/local-config.ts';

type Change = RealtimePostgresChangesPayload<Record<string, unknown>>;

/** Subscribes as a user and collects the board changes it receives. */
async function watchBoards(stack: LocalStack, user: TestUser): Promise<{ client: SupabaseClient; changes: Change[] }> {
  const token = await userToken(stack.config, user);
  const client = createClient(stack.url, stack.config.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as never },
  });
  // As supabase-js does on sign-in: the session's token goes to realtime before channels join.
  await client.realtime.setAuth(token);
  const changes: Change[] = [];
  await new Promise<void>((resolve, reject) => {
    client
      .channel(`boards-${user.id}`)
      .on('postgres_changes', { event: '*', schema: 'public', table: 'user_collections' }, (change) => changes.push(change))
      .subscribe((status, error) => {
        if (status === 'SUBSCRIBED') resolve();
        if (status === 'CHANNEL_ERROR' || status === 'TIMED_OUT') reject(error ?? new Error(status));
      });
  });
  return { client, changes };
}

const until = async (condition: () => boolean, timeoutMs = 1000) => {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) return false;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return true;
};

describeOnEngines('realtime/v1 postgres_changes', (ctx) => {
  let stack: LocalStack;
  let owner: TestUser;
  let other: TestUser;

  beforeAll(async () => {
    stack = await startLocalStack({ db: ctx.db, port: 0, env: { DATA_DIR: `.tmp/realtime-${process.pid}-${ctx.engine}` } });
    owner = await newUser(ctx.db);
    other = await newUser(ctx.db);
  });
  afterAll(async () => {
    await stack?.close();
  });

  it("delivers a new board to its owner within a second, and never to another user", async () => {
    const mine = await watchBoards(stack, owner);
    const theirs = await watchBoards(stack, other);
    const boardId = await newBoard(ctx.db, owner, 'Skincare hooks');
    expect(await until(() => mine.changes.length > 0)).toBe(true);
    expect(mine.changes[0]).toMatchObject({ eventType: 'INSERT', table: 'user_collections', new: { id: boardId, name: 'Skincare hooks' } });
    await ctx.db.query('update public.user_collections set name = $2 where id = $1', [boardId, 'Skincare openers']);
    expect(await until(() => mine.changes.length > 1)).toBe(true);
    expect(mine.changes[1]).toMatchObject({ eventType: 'UPDATE', new: { name: 'Skincare openers' }, old: { id: boardId } });
    await ctx.db.query('delete from public.user_collections where id = $1', [boardId]);
    expect(await until(() => mine.changes.length > 2)).toBe(true);
    expect(mine.changes[2]).toMatchObject({ eventType: 'DELETE', old: { id: boardId } });
    // Give the other subscriber the same time to receive anything it should not.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(theirs.changes).toEqual([]);
    await mine.client.removeAllChannels();
    await theirs.client.removeAllChannels();
  });

  it("tells the owner's other tabs of each save to or removal from a board once per statement, and nobody else", async () => {
    const { id: brandId } = await newBrand(ctx.db);
    const { id: categoryId } = await newCategory(ctx.db);
    const ads = await Promise.all([1, 2, 3].map(() => newAd(ctx.db, { brandId, categoryId })));
    const boardId = await newBoard(ctx.db, owner, 'Openers');
    const mine = await watchBoards(stack, owner);
    const theirs = await watchBoards(stack, other);
    const updatesOfBoard = () => mine.changes.filter((change) => change.eventType === 'UPDATE' && (change.new as { id?: string }).id === boardId);

    // Three ads saved in one statement: one update of the board, not three.
    await ctx.db.query('insert into public.user_collection_items (collection_id, ad_id) select $1, unnest($2::uuid[])', [boardId, ads.map((ad) => ad.id)]);
    expect(await until(() => updatesOfBoard().length > 0)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(updatesOfBoard()).toHaveLength(1);

    await ctx.db.query('delete from public.user_collection_items where collection_id = $1 and ad_id = $2', [boardId, ads[0]!.id]);
    expect(await until(() => updatesOfBoard().length > 1)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(updatesOfBoard()).toHaveLength(2);
    expect(theirs.changes).toEqual([]);
    await mine.client.removeAllChannels();
    await theirs.client.removeAllChannels();
  });

  it('refuses a join with a tampered token', async () => {
    const forged = `${(await userToken(stack.config, owner)).slice(0, -4)}AAAA`;
    const client = createClient(stack.url, stack.config.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false },
      realtime: { transport: WebSocket as never },
    });
    await client.realtime.setAuth(forged);
    const status = await new Promise<string>((resolve) => {
      client.channel('forged').on('postgres_changes', { event: '*', schema: 'public', table: 'user_collections' }, () => {}).subscribe((state) => {
        if (state !== 'SUBSCRIBED' && state !== 'CLOSED') resolve(state);
        if (state === 'SUBSCRIBED') resolve(state);
      });
    });
    expect(status).toBe('CHANNEL_ERROR');
    await client.removeAllChannels();
  });

  // Two processes on one database exist only with PostgreSQL: PGlite belongs to one process.
  if (ctx.engine === 'postgres') it('reaches a subscriber of a second stack process on the same PostgreSQL', async () => {
    const pool = (ctx.db as unknown as { pool: { options: { connectionString: string } } }).pool;
    const secondDb = await openPostgres({ connectionString: pool.options.connectionString, max: 2 });
    const second = await startLocalStack({ db: secondDb, port: 0, env: { DATA_DIR: `.tmp/realtime-second-${process.pid}` } });
    try {
      const watcher = await watchBoards(second, owner);
      const boardId = await newBoard(ctx.db, owner, 'Seen elsewhere');
      expect(await until(() => watcher.changes.length > 0)).toBe(true);
      expect(watcher.changes[0]).toMatchObject({ eventType: 'INSERT', new: { id: boardId } });
      await watcher.client.removeAllChannels();
    } finally {
      await second.close();
      await secondDb.close();
    }
  });
});
