import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, type PostgresDatabase } from '../../local/db/postgres.ts';
import { LOCAL_STRIPE_PRICES, LOCAL_STRIPE_SECRET_KEY } from '../../supabase/functions/_shared/local-stripe-defaults.ts';
import { adminUrl, postgresTestUrl } from '../support/engines.ts';
import { ensureOnline, pgCtl, testCluster, withServerDown, type Cluster } from '../support/postgres-cluster.ts';
import { freePort, serviceRoleHeaders, stackClient, stackKeys, startStackProcess, type StackProcess } from '../support/stack-process.ts';
import { freshCardNumber } from '../support/test-cards.ts';

/**
 * The local stack as a process on PostgreSQL, killed with -9 in the middle of
 * a write, and PostgreSQL restarted under steady traffic.
 *
 * "In the middle" is made exact without any hook in the product: the test
 * holds a lock the write needs, waits until PostgreSQL shows the stack's
 * statement waiting for it (with its own writes already made, uncommitted),
 * and kills the stack then. The orphaned server session is either ended (as
 * PostgreSQL does once it notices the client is gone) or left to run to its
 * end; either way what the stack serves after a restart must be the whole
 * write or none of it, applied once.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until fn resolves true, for at most timeoutMs. */
async function eventually(fn: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await fn().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting until ${what}`);
    await sleep(100);
  }
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
    await sleep(100);
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

/** A request whose answer may never come: how it ended, as text. */
const settled = (request: Promise<Response>) =>
  request.then(
    (response) => `answered ${response.status}`,
    (error: unknown) => `failed: ${(error as Error).message}`,
  );

/** A session of the stack's on the server: its process id, when its transaction began, and its transaction id once it wrote. */
interface Backend {
  pid: number;
  xact_start: string;
  backend_xid: string | null;
}

interface SignedInUser {
  id: string;
  email: string;
  token: string;
}

interface Ad {
  id: string;
  paths: Record<'original_path' | 'display_480_path' | 'display_960_path' | 'preview_path', string>;
}

/** The first form of a page, as a browser would submit it. */
function formOf(html: string): { action: string; fields: Record<string, string> } {
  const form = /<form method="post" action="([^"]+)">([\s\S]*?)<\/form>/.exec(html);
  if (!form) throw new Error(`The page has no form:\n${html}`);
  const fields: Record<string, string> = {};
  for (const input of form[2]!.matchAll(/<input [^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)) fields[input[1]!] = input[2]!;
  return { action: form[1]!, fields };
}

async function newSignedInUser(url: string): Promise<SignedInUser> {
  const email = `faults-${randomBytes(5).toString('hex')}@example.test`;
  const password = 'fault-password-1';
  const service = await stackClient(url, 'service_role');
  const created = await service.auth.admin.createUser({ email, password, email_confirm: true });
  expect(created.error).toBeNull();
  const signIn = await (await stackClient(url, 'anon')).auth.signInWithPassword({ email, password });
  expect(signIn.error).toBeNull();
  return { id: created.data.user!.id, email, token: signIn.data.session!.access_token };
}

const userHeaders = async (user: SignedInUser) => ({
  apikey: (await stackKeys()).anonKey,
  authorization: `Bearer ${user.token}`,
  'content-type': 'application/json',
});

async function upload(url: string, bucket: string, name: string, contentType: string): Promise<void> {
  const response = await fetch(`${url}/storage/v1/object/${bucket}/${name}`, {
    method: 'POST',
    headers: { ...(await serviceRoleHeaders()), 'content-type': contentType },
    body: new Uint8Array(randomBytes(2048)),
  });
  expect(response.status, await response.clone().text()).toBe(200);
}

/** Saves an ad to some of the user's boards and removes it from others, in one call, as the add-to-board panel does. */
const saveAdBoards = async (url: string, user: SignedInUser, adId: string, add: string[], remove: string[]) =>
  fetch(`${url}/rest/v1/rpc/save_ad_boards`, {
    method: 'POST',
    headers: await userHeaders(user),
    body: JSON.stringify({ p_ad_id: adId, p_add: add, p_remove: remove }),
  });

/** The boards holding the ad, as the user reads them through the stack. */
async function boardsHolding(url: string, user: SignedInUser, adId: string): Promise<string[]> {
  const response = await fetch(`${url}/rest/v1/user_collection_items?select=collection_id&ad_id=eq.${adId}`, { headers: await userHeaders(user) });
  expect(response.status).toBe(200);
  return ((await response.json()) as { collection_id: string }[]).map((row) => row.collection_id).sort();
}

const sorted = (ids: string[]) => [...ids].sort();

const postgresAvailable = process.env.CI ? true : await reachable(adminUrl());
if (!postgresAvailable) console.warn(`\n  PostgreSQL is not reachable at ${adminUrl()}: the fault tests are not declared.\n`);

if (postgresAvailable) {
  describe('the local stack on PostgreSQL, killed with -9 mid-write, and PostgreSQL restarted mid-traffic', () => {
    const database = `obyect_faults_${process.pid}_${randomBytes(4).toString('hex')}`;
    const databaseUrl = postgresTestUrl(database);
    let server: PostgresDatabase;
    let db: PostgresDatabase;
    let cluster: Cluster;
    let dataDir: string;
    let port: number;
    let stack: StackProcess;
    const started: StackProcess[] = [];
    const holders = new Set<pg.Client>();
    let brandId: string;
    let categoryId: string;

    const start = async () => {
      // Always the same port: queued webhook deliveries and checkout pages carry the stack's address.
      stack = await startStackProcess({ env: { DATA_DIR: dataDir, PORT: String(port), DATABASE_URL: databaseUrl } });
      started.push(stack);
      return stack;
    };

    const crash = async () => {
      expect(await stack.crash()).toBe('SIGKILL');
      // The edge functions runtime follows its stack out.
      expect(await groupEnds(stack.pid, 5_000)).toBe(true);
      stack.reap();
    };

    /** Opens a transaction of its own that takes a lock and keeps it until released. */
    async function holdLock(sql: string, params: unknown[] = []): Promise<{ release(): Promise<void> }> {
      const client = new pg.Client({ connectionString: databaseUrl });
      client.on('error', () => {});
      await client.connect();
      holders.add(client);
      await client.query('begin');
      await client.query(sql, params);
      return {
        async release() {
          if (!holders.delete(client)) return;
          await client.query('rollback').catch(() => {});
          await client.end().catch(() => {});
        },
      };
    }

    /** The stack's sessions waiting for a lock while running a statement that mentions `statement`. */
    async function waitingBackends(statement: string, count: number): Promise<Backend[]> {
      let found: Backend[] = [];
      await eventually(
        async () => {
          const { rows } = await db.query<Backend>(
            `select pid, xact_start::text, backend_xid::text from pg_catalog.pg_stat_activity
              where datname = current_database() and pid <> pg_backend_pid() and wait_event_type = 'Lock' and query ilike $1
              order by xact_start`,
            [`%${statement}%`],
          );
          found = rows;
          return rows.length >= count;
        },
        30_000,
        `${count} session(s) running ${statement} wait for the held lock`,
      );
      return found;
    }

    const sessionGone = (pid: number) =>
      eventually(
        async () => (await db.query('select 1 from pg_catalog.pg_stat_activity where pid = $1', [pid])).rowCount === 0,
        15_000,
        `session ${pid} has ended`,
      );

    /** What PostgreSQL does to a session once it notices its client is gone: the open transaction is rolled back. */
    async function endSession(pid: number): Promise<void> {
      await db.query('select pg_catalog.pg_terminate_backend($1)', [pid]);
      await sessionGone(pid);
    }

    /** An ad with its original and its three display files, uploaded through the stack before the row is written. */
    async function newAd(): Promise<Ad> {
      const folder = randomBytes(8).toString('hex');
      const paths: Ad['paths'] = {
        original_path: `${folder}/original.jpg`,
        display_480_path: `${folder}/w480.webp`,
        display_960_path: `${folder}/w960.webp`,
        preview_path: `${folder}/preview.webp`,
      };
      await upload(stack.url, 'ad-originals', paths.original_path, 'image/jpeg');
      for (const name of [paths.display_480_path, paths.display_960_path, paths.preview_path]) await upload(stack.url, 'ad-images', name, 'image/webp');
      const { rows } = await db.query<{ id: string }>(
        `insert into public.ads (brand_id, category_id, original_path, display_480_path, display_960_path, preview_path, width, height, thumbhash)
         values ($1, $2, $3, $4, $5, $6, 960, 1200, 'AAAAAAAAAAAA') returning id`,
        [brandId, categoryId, paths.original_path, paths.display_480_path, paths.display_960_path, paths.preview_path],
      );
      return { id: rows[0]!.id, paths };
    }

    /**
     * Database and storage agree: each object row has exactly its file, each
     * stored file has its row, and every ad's four images are stored objects.
     */
    async function expectStorageAgrees(): Promise<void> {
      const { rows } = await db.query<{ bucket_id: string; version: string }>('select bucket_id, version::text from storage.objects');
      const storageDir = path.join(dataDir, 'storage');
      const buckets = new Set([
        ...rows.map((row) => row.bucket_id),
        ...(await readdir(storageDir, { withFileTypes: true })).filter((entry) => entry.isDirectory() && entry.name !== '.tmp').map((entry) => entry.name),
      ]);
      for (const bucket of buckets) {
        const files = (await readdir(path.join(storageDir, bucket)).catch(() => [] as string[])).sort();
        const versions = rows.filter((row) => row.bucket_id === bucket).map((row) => row.version).sort();
        expect({ bucket, files }).toEqual({ bucket, files: versions });
      }
      expect(await readdir(path.join(storageDir, '.tmp')).catch(() => [])).toEqual([]);
      const missing = await db.query(
        `select a.id, p.bucket_id, p.name from public.ads a
           cross join lateral (values ('ad-originals', a.original_path), ('ad-images', a.display_480_path),
                                      ('ad-images', a.display_960_path), ('ad-images', a.preview_path)) as p (bucket_id, name)
          where not exists (select 1 from storage.objects o where o.bucket_id = p.bucket_id and o.name = p.name)`,
      );
      expect(missing.rows).toEqual([]);
    }

    beforeAll(async () => {
      cluster = await testCluster();
      await ensureOnline(cluster);
      server = await openPostgres({ connectionString: adminUrl(), max: 1 });
      await server.exec(`create database ${database}`);
      db = await openPostgres({ connectionString: databaseUrl, max: 2 });
      dataDir = await mkdtemp(path.join(os.tmpdir(), 'obyect-faults-'));
      port = await freePort();
      await start();
      brandId = (await db.query<{ id: string }>(`insert into public.brands (name) values ('Fault-proof brand') returning id`)).rows[0]!.id;
      categoryId = (await db.query<{ id: string }>(`insert into public.categories (name) values ('Fault-proof category') returning id`)).rows[0]!.id;
    });

    afterAll(async () => {
      for (const client of holders) await client.end().catch(() => {});
      holders.clear();
      if (cluster) await ensureOnline(cluster);
      for (const process of started) {
        if (process.child.exitCode === null && process.child.signalCode === null) await process.stop();
        process.reap();
      }
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
      if (db) await db.close().catch(() => {});
      if (server) {
        // The server may still be starting up after the last test.
        await eventually(async () => (await server.query('select 1')).rowCount === 1, 30_000, 'PostgreSQL accepts connections');
        await server.exec(`drop database if exists ${database} with (force)`);
        await server.close();
      }
    });

    describe('board saves', () => {
      const deleteBoard = async (user: SignedInUser, boardId: string) =>
        fetch(`${stack.url}/rest/v1/rpc/delete_board`, {
          method: 'POST',
          headers: await userHeaders(user),
          body: JSON.stringify({ p_id: boardId, p_move_children_up: false }),
        });

      async function createBoard(user: SignedInUser, name: string, parentId: string | null = null): Promise<string> {
        const response = await fetch(`${stack.url}/rest/v1/user_collections?select=id`, {
          method: 'POST',
          headers: { ...(await userHeaders(user)), prefer: 'return=representation', accept: 'application/vnd.pgrst.object+json' },
          body: JSON.stringify({ name, parent_id: parentId, is_system: false, user_id: user.id }),
        });
        expect(response.status, await response.clone().text()).toBe(201);
        return ((await response.json()) as { id: string }).id;
      }

      async function boardsOf(user: SignedInUser): Promise<{ id: string; parent_id: string | null; items: number }[]> {
        const { rows } = await db.query<{ id: string; parent_id: string | null; items: number }>(
          `select c.id, c.parent_id, (select count(*)::int from public.user_collection_items i where i.collection_id = c.id) as items
             from public.user_collections c where c.user_id = $1 and not c.is_system order by c.id`,
          [user.id],
        );
        return rows;
      }

      it('leaves a board save whole or not there at all after kill -9 mid-save, with database and storage agreeing', async () => {
        const user = await newSignedInUser(stack.url);
        const ad = await newAd();
        const [inspiration, keep, shortlist] = [await createBoard(user, 'Inspiration'), await createBoard(user, 'Keep'), await createBoard(user, 'Shortlist')];
        expect((await saveAdBoards(stack.url, user, ad.id, [inspiration], [])).status).toBe(200);

        // Moving the ad from Inspiration to Keep and Shortlist: two rows added, one removed, in one save.
        for (const ending of ['ended by the server', 'run to its end'] as const) {
          // The removal waits for this lock, after the additions are written.
          const holder = await holdLock('select 1 from public.user_collection_items where collection_id = $1 and ad_id = $2 for update', [inspiration, ad.id]);
          const request = settled(saveAdBoards(stack.url, user, ad.id, [keep, shortlist], [inspiration]));
          const [orphan] = await waitingBackends('save_ad_boards', 1);
          // The save has written (it holds a transaction id) and nothing of it is committed.
          expect(orphan!.backend_xid).not.toBeNull();
          expect((await db.query('select 1 from public.user_collection_items where ad_id = $1 and collection_id <> $2', [ad.id, inspiration])).rowCount).toBe(0);
          await crash();
          expect(await request).toMatch(/^failed/);
          if (ending === 'ended by the server') {
            await endSession(orphan!.pid);
            await holder.release();
          } else {
            await holder.release();
            await sessionGone(orphan!.pid);
          }
          await start();
          const holding = await boardsHolding(stack.url, user, ad.id);
          const expected = ending === 'ended by the server' ? [inspiration] : sorted([keep, shortlist]);
          console.log(`board save killed mid-save, server session ${ending}: the ad is on ${holding.length} board(s), ${holding.length === 1 ? 'as before the save' : 'as the save left it'}`);
          expect(holding).toEqual(sorted(expected));
          await expectStorageAgrees();
        }

        // Deleting a board with a sub-board and their saved ads: the board and its items are all there or all gone.
        const sub = await createBoard(user, 'Sub-board', keep);
        const other = await newAd();
        expect((await saveAdBoards(stack.url, user, other.id, [sub, keep], [])).status).toBe(200);
        const before = await boardsOf(user);
        const holder = await holdLock('select 1 from public.user_collection_items where collection_id = $1 and ad_id = $2 for update', [sub, other.id]);
        const request = settled(deleteBoard(user, keep));
        const [orphan] = await waitingBackends('delete_board', 1);
        expect(orphan!.backend_xid).not.toBeNull();
        await crash();
        expect(await request).toMatch(/^failed/);
        await endSession(orphan!.pid);
        await holder.release();
        await start();
        const after = await boardsOf(user);
        console.log(`board delete killed mid-delete, server session ended: ${after.length} of ${before.length} boards and ${after.reduce((n, b) => n + b.items, 0)} of ${before.reduce((n, b) => n + b.items, 0)} saved ads kept`);
        expect(after).toEqual(before);
        expect(await boardsHolding(stack.url, user, other.id)).toEqual(sorted([sub, keep]));
        await expectStorageAgrees();
      }, 180_000);
    });

    describe('billing', () => {
      const invoke = async (user: SignedInUser, name: string, body: unknown = {}) =>
        fetch(`${stack.url}/functions/v1/${name}`, { method: 'POST', headers: await userHeaders(user), body: JSON.stringify(body) });

      async function checkSubscription(user: SignedInUser): Promise<{ subscribed: boolean; subscription_tier: string }> {
        const response = await invoke(user, 'check-subscription');
        expect(response.status).toBe(200);
        return (await response.json()) as { subscribed: boolean; subscription_tier: string };
      }

      /** Starts a checkout as the user and reads the local checkout page's form. */
      async function startCheckout(user: SignedInUser) {
        const response = await invoke(user, 'create-checkout', { priceId: LOCAL_STRIPE_PRICES.monthly, trialDays: 7, baseUrl: stack.url });
        expect(response.status, await response.clone().text()).toBe(200);
        const { url } = (await response.json()) as { url: string };
        const page = await fetch(url);
        expect(page.status).toBe(200);
        const form = formOf(await page.text());
        const sessionId = new URL(url).pathname.split('/').pop()!;
        const card = freshCardNumber();
        /** The page's Pay button: the checkout completes, its webhooks are delivered, then the browser is sent back. */
        const pay = () =>
          fetch(new URL(form.action, url), {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            // A card of its own: the trial is given once per card, and these checkouts expect one.
            body: new URLSearchParams({ ...form.fields, card, action: 'pay' }),
            redirect: 'manual',
          });
        return { sessionId, pay };
      }

      const stripeObject = async (id: string) =>
        (await db.query<{ data: Record<string, unknown> }>('select data from stripe_local.objects where id = $1', [id])).rows[0]?.data;

      /** Everything the user's billing is made of, counted on both sides: Stripe's and the database's. */
      async function billingOf(user: SignedInUser) {
        const count = async (sql: string) => (await db.query<{ n: number }>(sql, [user.id])).rows[0]!.n;
        return {
          stripeSubscriptions: await count(`select count(*)::int as n from stripe_local.objects where object = 'subscription' and data->'metadata'->>'user_id' = $1`),
          subscriptionRows: await count('select count(*)::int as n from public.subscriptions where user_id = $1'),
          customerRows: await count('select count(*)::int as n from public.billing_customers where user_id = $1'),
        };
      }

      const allDelivered = () =>
        eventually(
          async () => (await db.query('select 1 from stripe_local.deliveries where delivered_at is null and failed_at is null')).rowCount === 0,
          30_000,
          'every queued webhook is delivered',
        );

      it('applies a Stripe event exactly once after kill -9 during its webhook delivery, delivering it again after restart', async () => {
        const user = await newSignedInUser(stack.url);
        const checkout = await startCheckout(user);
        expect((await checkout.pay()).status).toBe(303);
        const subscriptionId = (await stripeObject(checkout.sessionId))!.subscription as string;
        expect(await checkSubscription(user)).toMatchObject({ subscribed: true, subscription_tier: 'Free Trial' });

        const rounds = [
          { cancelAtPeriodEnd: true, ending: 'run to its end while the redelivery runs' },
          { cancelAtPeriodEnd: false, ending: 'ended by the server' },
        ] as const;
        for (const { cancelAtPeriodEnd, ending } of rounds) {
          // Recording the event waits for this lock: the webhook has read the event and Stripe's state, and applies it.
          const holder = await holdLock('lock table public.processed_webhook_events in share row exclusive mode');
          const changed = await fetch(`${stack.url}/v1/subscriptions/${subscriptionId}`, {
            method: 'POST',
            headers: { authorization: `Bearer ${LOCAL_STRIPE_SECRET_KEY}`, 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({ cancel_at_period_end: String(cancelAtPeriodEnd) }),
          });
          expect(changed.status).toBe(200);
          const { rows } = await db.query<{ event_id: string }>(
            `select d.event_id from stripe_local.deliveries d order by d.id desc limit 1`,
          );
          const eventId = rows[0]!.event_id;
          expect((await stripeObject(eventId))!.type).toBe('customer.subscription.updated');
          const [orphan] = await waitingBackends('apply_stripe_event', 1);
          await crash();
          let sessions: Backend[] = [orphan!];
          if (ending === 'ended by the server') {
            await endSession(orphan!.pid);
            await holder.release();
            await start();
          } else {
            // Restarted while the first attempt's transaction still waits: the redelivery races it.
            await start();
            sessions = await waitingBackends('apply_stripe_event', 2);
            await holder.release();
          }
          await allDelivered();

          const delivery = (
            await db.query<{ last_status: number; delivered: boolean }>(
              'select last_status, delivered_at is not null as delivered from stripe_local.deliveries where event_id = $1',
              [eventId],
            )
          ).rows;
          expect(delivery).toEqual([{ last_status: 200, delivered: true }]);
          const { rows: applied } = await db.query<{ cancel_at_period_end: boolean; recorded: number; applied_by_recording: boolean; applied_by: string }>(
            `select s.cancel_at_period_end,
                    (select count(*)::int from public.processed_webhook_events where event_id = $2) as recorded,
                    s.updated_at = p.processed_at as applied_by_recording,
                    s.updated_at::text as applied_by
               from public.subscriptions s, public.processed_webhook_events p
              where s.stripe_subscription_id = $1 and p.event_id = $2`,
            [subscriptionId, eventId],
          );
          const attempt = sessions.findIndex((session) => session.xact_start === applied[0]?.applied_by);
          console.log(
            `webhook killed mid-apply, server session ${ending}: ${sessions.length} attempt(s) were waiting; the event is recorded ${applied[0]?.recorded ?? 0} time(s) and the subscription was last written ${attempt === -1 ? 'by the redelivery' : `by waiting attempt ${attempt + 1}`}${applied[0]?.applied_by_recording ? ', the one that recorded the event' : ', NOT the one that recorded the event'}`,
          );
          // Written by the transaction that recorded the event, and by no other: applied exactly once.
          expect(applied).toHaveLength(1);
          expect(applied[0]).toMatchObject({ cancel_at_period_end: cancelAtPeriodEnd, recorded: 1, applied_by_recording: true });
          expect(await billingOf(user)).toEqual({ stripeSubscriptions: 1, subscriptionRows: 1, customerRows: 1 });
        }
        expect(await checkSubscription(user)).toMatchObject({ subscribed: true, subscription_tier: 'Free Trial' });
        await expectStorageAgrees();
      }, 180_000);

      it('ends a checkout return killed with -9 with one subscription, whether the kill came before or after Stripe completed it', async () => {
        // Killed while the checkout's completion is being written on Stripe's side: nothing of it stays, and paying again completes it once.
        const first = await newSignedInUser(stack.url);
        const firstCheckout = await startCheckout(first);
        let holder = await holdLock('lock table stripe_local.deliveries in share row exclusive mode');
        let request = settled(firstCheckout.pay());
        let [orphan] = await waitingBackends('stripe_local.deliveries', 1);
        expect(orphan!.backend_xid).not.toBeNull();
        await crash();
        expect(await request).toMatch(/^failed/);
        await holder.release();
        // Its commit never comes: the session ends by itself, its transaction rolled back.
        await sessionGone(orphan!.pid);
        await start();
        const session = await stripeObject(firstCheckout.sessionId);
        console.log(`checkout killed while Stripe's side was written: session ${String(session!.status)}, ${JSON.stringify(await billingOf(first))}`);
        expect(session).toMatchObject({ status: 'open', subscription: null });
        expect(await billingOf(first)).toEqual({ stripeSubscriptions: 0, subscriptionRows: 0, customerRows: 1 });
        expect(await checkSubscription(first)).toMatchObject({ subscribed: false, subscription_tier: 'Free' });
        const paid = await firstCheckout.pay();
        expect(paid.status).toBe(303);
        expect(paid.headers.get('location')).toBe(`${stack.url}/library?checkout=success&session_id=${firstCheckout.sessionId}`);
        expect(await checkSubscription(first)).toMatchObject({ subscribed: true, subscription_tier: 'Free Trial' });
        expect(await billingOf(first)).toEqual({ stripeSubscriptions: 1, subscriptionRows: 1, customerRows: 1 });

        // Killed while the stripe-webhook function applies the checkout's first event: delivered again after restart, applied once.
        const second = await newSignedInUser(stack.url);
        const secondCheckout = await startCheckout(second);
        holder = await holdLock('lock table public.processed_webhook_events in share row exclusive mode');
        request = settled(secondCheckout.pay());
        [orphan] = await waitingBackends('apply_stripe_event', 1);
        await crash();
        expect(await request).toMatch(/^failed/);
        // The first attempt commits with nobody left to hear of it.
        await holder.release();
        await sessionGone(orphan!.pid);
        await start();
        await allDelivered();
        const completed = await stripeObject(secondCheckout.sessionId);
        const events = await db.query<{ event_id: string; recorded: number }>(
          `select e.id as event_id, (select count(*)::int from public.processed_webhook_events p where p.event_id = e.id) as recorded
             from stripe_local.objects e
            where e.object = 'event' and e.data->'data'->'object'->>'id' in ($1, $2, $3)
              and e.data->>'type' in ('customer.subscription.created', 'invoice.paid', 'checkout.session.completed')`,
          [secondCheckout.sessionId, completed!.subscription as string, completed!.invoice as string],
        );
        const status = await checkSubscription(second);
        console.log(
          `checkout killed while its webhook was applied: session ${String(completed!.status)}, ${events.rows.length} events recorded ${events.rows.map((row) => row.recorded).join('/')} time(s), ${JSON.stringify(await billingOf(second))}, check-subscription ${status.subscription_tier}`,
        );
        expect(completed).toMatchObject({ status: 'complete' });
        expect(events.rows.map((row) => row.recorded)).toEqual([1, 1, 1]);
        expect(status).toMatchObject({ subscribed: true, subscription_tier: 'Free Trial' });
        // The browser sending the form again cannot start a second subscription.
        const again = await secondCheckout.pay();
        expect(again.status).toBe(200);
        expect(await again.text()).toContain('This checkout is complete');
        expect(await billingOf(second)).toEqual({ stripeSubscriptions: 1, subscriptionRows: 1, customerRows: 1 });
        await expectStorageAgrees();
      }, 180_000);
    });

    it('recovers from a PostgreSQL restart under steady listing traffic without restarting the stack', async () => {
      interface Outcome {
        start: number;
        end: number;
        ok: boolean;
        detail: string;
      }
      const outcomes: Outcome[] = [];
      const inFlight = new Set<Promise<void>>();
      const headers = { apikey: (await stackKeys()).anonKey };
      const t0 = performance.now();
      const at = () => performance.now() - t0;
      const listings = ['brands?select=id,name&order=name&limit=20', 'categories?select=id,name&order=name&limit=20'];
      let tick = 0;
      let skippedTicks = 0;

      const list = async (resource: string): Promise<void> => {
        const start = at();
        let ok = false;
        let detail: string;
        try {
          const response = await fetch(`${stack.url}/rest/v1/${resource}`, { headers, signal: AbortSignal.timeout(15_000) });
          const text = await response.text();
          ok = response.status === 200;
          let body: unknown = null;
          try {
            body = JSON.parse(text);
          } catch {
            // Not JSON: reported with its text below.
          }
          const jsonError =
            response.status >= 500 &&
            response.status < 600 &&
            /^application\/json/.test(response.headers.get('content-type') ?? '') &&
            typeof (body as { message?: unknown } | null)?.message === 'string';
          detail = ok ? '200' : jsonError ? `${response.status} JSON` : `${response.status} ${text.slice(0, 80)}`;
        } catch (error) {
          detail = `no answer: ${(error as Error).message}`;
        }
        outcomes.push({ start, end: at(), ok, detail });
      };

      /** When PostgreSQL stopped and started accepting connections again, seen from outside the stack. */
      const server = { downAt: -1, backAt: -1 };
      const probe = async () => {
        while (server.backAt < 0) {
          const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 1_000 });
          client.on('error', () => {});
          const when = at();
          const up = await client.connect().then(
            () => client.query('select 1').then(() => true),
            () => false,
          ).catch(() => false);
          await client.end().catch(() => {});
          if (!up && server.downAt < 0) server.downAt = when;
          if (up && server.downAt >= 0) server.backAt = at();
          if (at() > 60_000) throw new Error('PostgreSQL did not come back within a minute');
          await sleep(50);
        }
      };

      // A few listings every 10 ms, each on its own; ticks are skipped while many are unanswered, so the load stays bounded.
      const timer = setInterval(() => {
        tick += 1;
        if (inFlight.size >= 40) {
          skippedTicks += 1;
          return;
        }
        for (let i = 0; i < 2; i += 1) {
          const request = list(listings[(tick + i) % listings.length]!);
          inFlight.add(request);
          void request.finally(() => inFlight.delete(request));
        }
      }, 10);
      let restartAt = 0;
      try {
        await sleep(1_500);
        restartAt = at();
        await withServerDown(cluster, async () => {
          const watching = probe();
          await pgCtl(cluster, 'restart');
          await watching;
        });
        await eventually(async () => outcomes.some((outcome) => outcome.ok && outcome.start >= server.backAt), 30_000, 'a listing succeeds after the restart');
        await sleep(2_000);
      } finally {
        clearInterval(timer);
        await Promise.all(inFlight);
      }

      const before = outcomes.filter((outcome) => outcome.end < restartAt);
      const failed = outcomes.filter((outcome) => !outcome.ok);
      const recovered = outcomes.filter((outcome) => outcome.ok && outcome.start >= server.backAt).sort((a, b) => a.start - b.start)[0]!;
      const failedAfterBack = failed.filter((outcome) => outcome.start >= server.backAt);
      const later = outcomes.filter((outcome) => outcome.start > recovered.start);
      const kinds = [...new Set(failed.map((outcome) => outcome.detail))];
      console.log(
        `PostgreSQL restarted under traffic: ${outcomes.length} listings, ${outcomes.length - failed.length} ok, ${failed.length} failed (${kinds.join(', ') || 'none'}); ` +
          `PostgreSQL refused connections for ${Math.round(server.backAt - server.downAt)} ms; the stack served again ${Math.round(recovered.end - server.backAt)} ms after PostgreSQL was back ` +
          `(${failedAfterBack.length} listings failed in between); ${later.length} later listings, ${later.filter((outcome) => !outcome.ok).length} failed; ${skippedTicks} ticks skipped under load`,
      );
      expect(before.length).toBeGreaterThan(20);
      expect(before.filter((outcome) => !outcome.ok)).toEqual([]);
      // The outage was seen, and each listing it cut short was answered with a 5xx JSON error: none dropped or left hanging.
      expect(failed.length).toBeGreaterThan(0);
      expect(kinds.filter((kind) => !/^5\d\d JSON$/.test(kind))).toEqual([]);
      // The same process serves again soon after PostgreSQL is back, and every later listing succeeds.
      expect(recovered.end - server.backAt).toBeLessThan(10_000);
      expect(later.length).toBeGreaterThan(50);
      expect(later.filter((outcome) => !outcome.ok)).toEqual([]);
      expect(stack.child.exitCode).toBeNull();
      expect(stack.output()).not.toContain('Unhandled error in the local stack');
    }, 120_000);
  });
}

describe('the local stack on PGlite, killed with -9 at several points of a board save', () => {
  let dataDir: string;
  let stack: StackProcess;
  let port: number;
  const started: StackProcess[] = [];

  const start = async () => {
    stack = await startStackProcess({ env: { DATA_DIR: dataDir, PORT: String(port) } });
    started.push(stack);
    return stack;
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'obyect-faults-pglite-'));
    port = await freePort();
    await start();
  });

  afterAll(async () => {
    for (const process of started) {
      if (process.child.exitCode === null && process.child.signalCode === null) await process.stop();
      process.reap();
    }
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  /** The stored files of each image bucket are exactly the versions of its object rows, as the storage API reports them. */
  async function expectStorageAgrees(): Promise<void> {
    for (const bucket of ['ad-originals', 'ad-images']) {
      const listed = await fetch(`${stack.url}/storage/v1/object/list/${bucket}`, {
        method: 'POST',
        headers: { ...(await serviceRoleHeaders()), 'content-type': 'application/json' },
        body: JSON.stringify({ prefix: '', limit: 1000 }),
      });
      expect(listed.status).toBe(200);
      const versions: string[] = [];
      for (const { name } of (await listed.json()) as { name: string }[]) {
        const info = await fetch(`${stack.url}/storage/v1/object/info/${bucket}/${name}`, { headers: await serviceRoleHeaders() });
        expect(info.status).toBe(200);
        versions.push(((await info.json()) as { version: string }).version);
      }
      const files = (await readdir(path.join(dataDir, 'storage', bucket)).catch(() => [] as string[])).sort();
      expect({ bucket, files }).toEqual({ bucket, files: versions.sort() });
    }
  }

  it('moves an ad between 150 boards all or nothing, wherever kill -9 lands in the save', async () => {
    const user = await newSignedInUser(stack.url);
    const service = await stackClient(stack.url, 'service_role');
    const brand = await service.from('brands').insert({ name: `PGlite brand ${randomBytes(3).toString('hex')}` }).select('id').single();
    const category = await service.from('categories').insert({ name: `PGlite category ${randomBytes(3).toString('hex')}` }).select('id').single();
    expect([brand.error, category.error]).toEqual([null, null]);
    const stem = randomBytes(6).toString('hex');
    await upload(stack.url, 'ad-originals', `${stem}-original.jpg`, 'image/jpeg');
    for (const variant of ['w480', 'w960', 'preview']) await upload(stack.url, 'ad-images', `${stem}-${variant}.webp`, 'image/webp');
    const ad = await service
      .from('ads')
      .insert({
        brand_id: (brand.data as { id: string }).id,
        category_id: (category.data as { id: string }).id,
        original_path: `${stem}-original.jpg`,
        display_480_path: `${stem}-w480.webp`,
        display_960_path: `${stem}-w960.webp`,
        preview_path: `${stem}-preview.webp`,
        width: 960,
        height: 1200,
        thumbhash: 'AAAAAAAAAAAA',
      })
      .select('id')
      .single();
    expect(ad.error).toBeNull();
    const adId = (ad.data as { id: string }).id;

    const created = await fetch(`${stack.url}/rest/v1/user_collections?select=id`, {
      method: 'POST',
      headers: { ...(await userHeaders(user)), prefer: 'return=representation' },
      body: JSON.stringify(Array.from({ length: 300 }, (_, i) => ({ name: `Board ${i + 1}`, user_id: user.id, is_system: false }))),
    });
    expect(created.status).toBe(201);
    const ids = ((await created.json()) as { id: string }[]).map((row) => row.id);
    const sets = [sorted(ids.slice(0, 150)), sorted(ids.slice(150))];
    expect((await saveAdBoards(stack.url, user, adId, sets[0]!, [])).status).toBe(200);

    // How long an uninterrupted save takes, there and back: the kills land at fractions of it.
    const timed = async (from: number, to: number) => {
      const began = performance.now();
      expect((await saveAdBoards(stack.url, user, adId, sets[to]!, sets[from]!)).status).toBe(200);
      return performance.now() - began;
    };
    const saveMs = Math.max(await timed(0, 1), await timed(1, 0));
    let current = 0;
    const report: string[] = [];
    for (const fraction of [0.5, 1, 2, 4]) {
      const delayMs = Math.round(fraction * saveMs);
      const next = 1 - current;
      // A save that changes nothing first, so the kill is timed against a warm process as the measured saves were.
      expect((await saveAdBoards(stack.url, user, adId, [], [])).status).toBe(200);
      const request = settled(saveAdBoards(stack.url, user, adId, sets[next]!, sets[current]!));
      await sleep(delayMs);
      expect(await stack.crash()).toBe('SIGKILL');
      stack.reap();
      const answer = await request;
      await start();
      const holding = await boardsHolding(stack.url, user, adId);
      const outcome = JSON.stringify(holding) === JSON.stringify(sets[current]) ? 'none of it' : JSON.stringify(holding) === JSON.stringify(sets[next]) ? 'all of it' : `PART of it (${holding.length} boards)`;
      report.push(`${delayMs} ms: ${answer.startsWith('answered') ? answer : 'no answer'}, ${outcome}`);
      expect(outcome).toMatch(/^(none|all) of it$/);
      // An answered save was committed before the answer left.
      if (answer === 'answered 200') expect(outcome).toBe('all of it');
      if (outcome === 'all of it') current = next;
      await expectStorageAgrees();
    }
    console.log(`board save of 300 memberships (${Math.round(saveMs)} ms uninterrupted) killed after each delay, then restarted on PGlite:\n  ${report.join('\n  ')}`);
  }, 180_000);
});
