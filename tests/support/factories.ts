import { randomBytes, randomUUID } from 'node:crypto';
import type { Queryable } from '../../local/db/database.ts';

/**
 * Factories write as the database owner (as the auth service, the webhook and
 * the admin tools would), so tests set up exactly the state they need.
 */
const unique = () => randomBytes(5).toString('hex');

export interface TestUser {
  id: string;
  email: string;
}

export async function newUser(db: Queryable, options: { email?: string; meta?: Record<string, unknown> } = {}): Promise<TestUser> {
  const id = randomUUID();
  const email = options.email ?? `user-${unique()}@example.test`;
  await db.query(
    `insert into auth.users (id, email, encrypted_password, email_confirmed_at, raw_user_meta_data)
     values ($1, $2, 'not-a-real-hash', now(), $3)`,
    [id, email, JSON.stringify(options.meta ?? {})],
  );
  return { id, email };
}

export async function grantAdmin(db: Queryable, user: TestUser): Promise<void> {
  await db.query('insert into public.admin_users (user_id) values ($1)', [user.id]);
}

export type SubscriptionState = 'trialing' | 'active' | 'cancelled_in_period' | 'expired' | 'canceled_now' | 'past_due';

export async function newSubscription(
  db: Queryable,
  user: TestUser,
  state: SubscriptionState,
  options: { tier?: 'monthly' | 'annual' } = {},
): Promise<string> {
  const rows: Record<SubscriptionState, [string, string, boolean, string | null]> = {
    trialing: ['trialing', `now() + interval '7 days'`, false, `now() + interval '7 days'`],
    active: ['active', `now() + interval '20 days'`, false, null],
    cancelled_in_period: ['active', `now() + interval '10 days'`, true, null],
    expired: ['canceled', `now() - interval '1 day'`, false, null],
    canceled_now: ['canceled', `now() - interval '1 second'`, false, null],
    past_due: ['past_due', `now() + interval '3 days'`, false, null],
  };
  const [status, periodEnd, cancelAtPeriodEnd, trialEnd] = rows[state];
  const result = await db.query<{ id: string }>(
    `insert into public.subscriptions
       (user_id, stripe_customer_id, stripe_subscription_id, status, tier, price_id, current_period_end, cancel_at_period_end, trial_end)
     values ($1, $2, $3, $4, $5, $6, ${periodEnd}, $7, ${trialEnd ?? 'null'})
     returning id`,
    [user.id, `cus_${unique()}`, `sub_${unique()}`, status, options.tier ?? 'monthly', `price_${options.tier ?? 'monthly'}`, cancelAtPeriodEnd],
  );
  return result.rows[0]!.id;
}

export async function setBlackFridayAccess(db: Queryable, user: TestUser, access: boolean): Promise<void> {
  await db.query('update public.profiles set black_friday_access = $2 where user_id = $1', [user.id, access]);
}

async function insertNamed(db: Queryable, table: string, name: string): Promise<{ id: string; name: string }> {
  const result = await db.query<{ id: string; name: string }>(`insert into public.${table} (name) values ($1) returning id, name`, [name]);
  return result.rows[0]!;
}

export const newBrand = (db: Queryable, name = `Brand ${unique()}`) => insertNamed(db, 'brands', name);
export const newCategory = (db: Queryable, name = `Category ${unique()}`) => insertNamed(db, 'categories', name);
export const newTag = (db: Queryable, name = `Tag ${unique()}`) => insertNamed(db, 'tags', name);
export const newType = (db: Queryable, name = `Type ${unique()}`) => insertNamed(db, 'types', name);
export const newHook = (db: Queryable, name = `Hook ${unique()}`) => insertNamed(db, 'hooks', name);

export async function systemTagId(db: Queryable, key: 'black_friday' | 'top_picks'): Promise<string> {
  const result = await db.query<{ id: string }>('select id from public.tags where system_key = $1', [key]);
  return result.rows[0]!.id;
}

/** Records a stored object as the storage service does after writing the file. */
export async function newObject(db: Queryable, bucket: string, name: string, mimetype = 'image/webp'): Promise<void> {
  await db.query(
    `insert into storage.objects (bucket_id, name, metadata) values ($1, $2, jsonb_build_object('mimetype', $3::text, 'size', 1024))`,
    [bucket, name, mimetype],
  );
}

/**
 * The four storage objects of `count` ads at once, as an upload leaves them: ad n's (1 to count) are
 * `<prefix>/<n>/original.jpg`, `<prefix>/<n>/480.webp`, `<prefix>/<n>/960.webp` and `previews/<prefix>-<n>.webp`.
 */
export async function newAdObjects(db: Queryable, prefix: string, count: number): Promise<void> {
  await db.query(
    `insert into storage.objects (bucket_id, name, metadata)
     select f.bucket_id, replace(f.pattern, '#', g::text), jsonb_build_object('mimetype', f.mimetype, 'size', 1024)
       from generate_series(1, $2::int) g
       cross join (values ('ad-originals', $1::text || '/#/original.jpg', 'image/jpeg'),
                          ('ad-images', $1::text || '/#/480.webp', 'image/webp'),
                          ('ad-images', $1::text || '/#/960.webp', 'image/webp'),
                          ('ad-images', 'previews/' || $1::text || '-#.webp', 'image/webp')) as f (bucket_id, pattern, mimetype)`,
    [prefix, count],
  );
}

export interface TestAd {
  id: string;
  original_path: string;
  display_480_path: string;
  display_960_path: string;
  preview_path: string;
  created_at: string;
}

export interface NewAdOptions {
  brandId: string;
  categoryId: string;
  typeId?: string | null;
  createdAt?: string;
  requiresSubscription?: boolean;
  tagIds?: string[];
  width?: number;
  height?: number;
}

/** An ad with its four objects in storage, as an upload leaves it. */
export async function newAd(db: Queryable, options: NewAdOptions): Promise<TestAd> {
  const folder = randomBytes(16).toString('hex');
  const paths = {
    original_path: `${folder}/original.jpg`,
    display_480_path: `${folder}/480.webp`,
    display_960_path: `${folder}/960.webp`,
    preview_path: `previews/${randomBytes(16).toString('hex')}.webp`,
  };
  await newObject(db, 'ad-originals', paths.original_path, 'image/jpeg');
  await newObject(db, 'ad-images', paths.display_480_path);
  await newObject(db, 'ad-images', paths.display_960_path);
  await newObject(db, 'ad-images', paths.preview_path);
  const result = await db.query<TestAd>(
    `insert into public.ads (brand_id, category_id, type_id, created_at, requires_subscription,
                             original_path, display_480_path, display_960_path, preview_path, width, height, thumbhash)
     values ($1, $2, $3, coalesce($4::timestamptz, now()), $5, $6, $7, $8, $9, $10, $11, 'YJqGPQw7sFlslqhFafSE+Q6oJ1h2iHB2Rw==')
     returning id, original_path, display_480_path, display_960_path, preview_path, created_at`,
    [
      options.brandId,
      options.categoryId,
      options.typeId ?? null,
      options.createdAt ?? null,
      options.requiresSubscription ?? true,
      paths.original_path,
      paths.display_480_path,
      paths.display_960_path,
      paths.preview_path,
      options.width ?? 1080,
      options.height ?? 1350,
    ],
  );
  const ad = result.rows[0]!;
  for (const tagId of options.tagIds ?? []) {
    await db.query('insert into public.ad_tags (ad_id, tag_id) values ($1, $2)', [ad.id, tagId]);
  }
  return ad;
}

/** n ads one minute apart, newest first in the returned list. */
export async function newAds(db: Queryable, n: number, options: NewAdOptions & { startAt?: string }): Promise<TestAd[]> {
  const start = Date.parse(options.startAt ?? '2026-01-01T00:00:00Z');
  const ads: TestAd[] = [];
  for (let i = 0; i < n; i += 1) {
    ads.push(await newAd(db, { ...options, createdAt: new Date(start + i * 60_000).toISOString() }));
  }
  return ads.reverse();
}

export async function newBoard(db: Queryable, user: TestUser, name: string, parentId: string | null = null): Promise<string> {
  const result = await db.query<{ id: string }>(
    'insert into public.user_collections (user_id, name, parent_id) values ($1, $2, $3) returning id',
    [user.id, name, parentId],
  );
  return result.rows[0]!.id;
}

/** The people of DESIGN.md's access table, in one database. */
export interface Personas {
  free: TestUser;
  flagged: TestUser;
  trialing: TestUser;
  subscriber: TestUser;
  cancelledInPeriod: TestUser;
  expired: TestUser;
  admin: TestUser;
  other: TestUser;
}

export async function newPersonas(db: Queryable): Promise<Personas> {
  const personas: Personas = {
    free: await newUser(db),
    flagged: await newUser(db),
    trialing: await newUser(db),
    subscriber: await newUser(db),
    cancelledInPeriod: await newUser(db),
    expired: await newUser(db),
    admin: await newUser(db),
    other: await newUser(db),
  };
  await setBlackFridayAccess(db, personas.flagged, true);
  await newSubscription(db, personas.trialing, 'trialing');
  await newSubscription(db, personas.subscriber, 'active', { tier: 'annual' });
  await newSubscription(db, personas.cancelledInPeriod, 'cancelled_in_period');
  await newSubscription(db, personas.expired, 'expired');
  await grantAdmin(db, personas.admin);
  return personas;
}
