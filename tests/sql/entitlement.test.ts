import { describe, expect, it } from 'vitest';
import type { Database, Queryable } from '../../local/db/database.ts';
import { describeOnEngines } from '../support/engines.ts';
import { anon, as, expectPgError, queryAs, serviceRole, userActor } from '../support/acting.ts';
import type { Actor } from '../support/acting.ts';
import { grantAdmin, newSubscription, newUser } from '../support/factories.ts';
import type { TestUser } from '../support/factories.ts';

interface SubscriptionRow {
  status: string;
  /** An interval from now, e.g. '20 days' or '-3 days'; null for no period end. */
  periodEndIn: string | null;
  cancelAtPeriodEnd?: boolean;
  trialEndIn?: string | null;
}

/** A subscription row as the stripe-webhook function would leave it, with times relative to now. */
async function subscribe(db: Queryable, user: TestUser, row: SubscriptionRow): Promise<void> {
  await db.query(
    `insert into public.subscriptions
       (user_id, stripe_customer_id, stripe_subscription_id, status, tier, price_id, current_period_end, cancel_at_period_end, trial_end)
     values ($1, 'cus_' || md5(random()::text), 'sub_' || md5(random()::text), $2, 'monthly', 'price_monthly',
             now() + $3::interval, $4, now() + $5::interval)`,
    [user.id, row.status, row.periodEndIn, row.cancelAtPeriodEnd ?? false, row.trialEndIn ?? null],
  );
}

async function hasValidAccess(db: Database, actor: Actor): Promise<boolean> {
  const [row] = await queryAs<{ access: boolean }>(db, actor, 'select public.has_valid_access() as access');
  return row!.access;
}

async function isAdmin(db: Database, actor: Actor): Promise<boolean> {
  const [row] = await queryAs<{ admin: boolean }>(db, actor, 'select public.is_admin() as admin');
  return row!.admin;
}

/** Every row of a table as the owner sees it, to compare before and after a refused write. */
async function snapshot(db: Queryable, table: string): Promise<unknown[]> {
  return (await db.query(`select * from public.${table} order by 1`)).rows;
}

const accessCases: { name: string; rows: SubscriptionRow[]; expected: boolean }[] = [
  { name: 'a signed-in user without a subscription', rows: [], expected: false },
  { name: 'a trial that ends in three days', rows: [{ status: 'trialing', periodEndIn: '3 days', trialEndIn: '3 days' }], expected: true },
  { name: 'a trial that ended a minute ago', rows: [{ status: 'trialing', periodEndIn: '-1 minute', trialEndIn: '-1 minute' }], expected: false },
  { name: 'an active subscription within its period', rows: [{ status: 'active', periodEndIn: '20 days' }], expected: true },
  { name: 'an active subscription one day past its period end (renewal grace)', rows: [{ status: 'active', periodEndIn: '-1 day' }], expected: true },
  { name: 'an active subscription three days past its period end (grace over)', rows: [{ status: 'active', periodEndIn: '-3 days' }], expected: false },
  {
    name: 'a subscription cancelled at period end, before the end',
    rows: [{ status: 'active', periodEndIn: '5 days', cancelAtPeriodEnd: true }],
    expected: true,
  },
  {
    name: 'a subscription cancelled at period end, an hour after the end (no grace)',
    rows: [{ status: 'active', periodEndIn: '-1 hour', cancelAtPeriodEnd: true }],
    expected: false,
  },
  { name: 'a canceled subscription whose period end has passed', rows: [{ status: 'canceled', periodEndIn: '-1 day' }], expected: false },
  {
    name: 'a subscription canceled immediately, before its recorded period end',
    rows: [{ status: 'canceled', periodEndIn: '15 days' }],
    expected: false,
  },
  { name: 'a past_due subscription (renewal payment failed)', rows: [{ status: 'past_due', periodEndIn: '3 days' }], expected: false },
  { name: 'an unpaid subscription', rows: [{ status: 'unpaid', periodEndIn: '3 days' }], expected: false },
  { name: 'an incomplete first payment', rows: [{ status: 'incomplete', periodEndIn: '3 days' }], expected: false },
  { name: 'an expired subscription', rows: [{ status: 'canceled', periodEndIn: '-30 days' }], expected: false },
  { name: 'an incomplete_expired checkout', rows: [{ status: 'incomplete_expired', periodEndIn: '-30 days' }], expected: false },
  {
    name: 'one lapsed and one active subscription',
    rows: [
      { status: 'canceled', periodEndIn: '-40 days' },
      { status: 'active', periodEndIn: '25 days' },
    ],
    expected: true,
  },
];

describeOnEngines('entitlement', (ctx) => {
  describe('has_valid_access()', () => {
    it('is false for an anonymous visitor', async () => {
      expect(await hasValidAccess(ctx.db, anon)).toBe(false);
    });

    it('is false for the service role, which is nobody', async () => {
      expect(await hasValidAccess(ctx.db, serviceRole)).toBe(false);
    });

    it.each(accessCases)('is $expected for $name', async ({ rows, expected }) => {
      const user = await newUser(ctx.db);
      for (const row of rows) await subscribe(ctx.db, user, row);
      expect(await hasValidAccess(ctx.db, userActor(user))).toBe(expected);
    });

    it('is true for an admin without any subscription', async () => {
      const admin = await newUser(ctx.db);
      await grantAdmin(ctx.db, admin);
      expect(await hasValidAccess(ctx.db, userActor(admin))).toBe(true);
    });

    it('counts only the caller’s own subscriptions', async () => {
      const subscriber = await newUser(ctx.db);
      const free = await newUser(ctx.db);
      await newSubscription(ctx.db, subscriber, 'active');
      expect(await hasValidAccess(ctx.db, userActor(subscriber))).toBe(true);
      expect(await hasValidAccess(ctx.db, userActor(free))).toBe(false);
    });
  });

  describe('private.answer_class_of(user)', () => {
    const classOf = async (userId: string | null) =>
      (await ctx.db.query<{ class: string }>('select private.answer_class_of($1::uuid) as class', [userId])).rows[0]!.class;

    it.each(accessCases)('agrees with has_valid_access() for $name', async ({ rows, expected }) => {
      const user = await newUser(ctx.db);
      for (const row of rows) await subscribe(ctx.db, user, row);
      expect(await classOf(user.id)).toBe(expected ? 'access' : 'member');
    });

    it('is anon for nobody, access for an admin, member for a user unknown to auth', async () => {
      const admin = await newUser(ctx.db);
      await grantAdmin(ctx.db, admin);
      expect(await classOf(null)).toBe('anon');
      expect(await classOf(admin.id)).toBe('access');
      expect(await classOf('00000000-0000-4000-8000-000000000000')).toBe('member');
    });

    it('cannot be called through the API by anonymous or signed-in callers', async () => {
      const user = await newUser(ctx.db);
      for (const actor of [anon, userActor(user)]) {
        await expectPgError(queryAs(ctx.db, actor, 'select private.answer_class_of($1::uuid)', [user.id]), { code: '42501' });
      }
    });
  });

  describe('is_admin()', () => {
    it('is true only for a user with an admin grant', async () => {
      const admin = await newUser(ctx.db);
      const free = await newUser(ctx.db);
      await grantAdmin(ctx.db, admin);
      expect(await isAdmin(ctx.db, userActor(admin))).toBe(true);
      expect(await isAdmin(ctx.db, userActor(free))).toBe(false);
      expect(await isAdmin(ctx.db, anon)).toBe(false);
      expect(await isAdmin(ctx.db, serviceRole)).toBe(false);
    });

    it('ignores an email or role claim that looks like an admin', async () => {
      const admin = await newUser(ctx.db);
      await grantAdmin(ctx.db, admin);
      const impostor = await newUser(ctx.db);
      expect(await isAdmin(ctx.db, { role: 'authenticated', id: impostor.id, email: admin.email })).toBe(false);
    });
  });

  describe('profiles', () => {
    const nameCases: { meta: Record<string, unknown>; fullName: string | null }[] = [
      { meta: { full_name: '  Ada   Lovelace ' }, fullName: 'Ada   Lovelace' },
      { meta: { first_name: 'Grace', last_name: 'Hopper' }, fullName: 'Grace Hopper' },
      { meta: { first_name: 'Grace' }, fullName: 'Grace' },
      { meta: { last_name: 'Hopper' }, fullName: 'Hopper' },
      { meta: { name: 'Katherine Johnson' }, fullName: 'Katherine Johnson' },
      { meta: { display_name: 'kj' }, fullName: 'kj' },
      { meta: { full_name: ' ', first_name: 'Grace', last_name: 'Hopper', name: 'GH' }, fullName: 'Grace Hopper' },
      { meta: { first_name: '', last_name: ' ', name: 'Katherine Johnson', display_name: 'kj' }, fullName: 'Katherine Johnson' },
      { meta: { full_name: 'Ada Lovelace', name: 'ada' }, fullName: 'Ada Lovelace' },
      { meta: {}, fullName: null },
      { meta: { full_name: 'A'.repeat(5000) }, fullName: 'A'.repeat(200) },
    ];

    it.each(nameCases)('is created when an auth user signs up with $meta, named $fullName', async ({ meta, fullName }) => {
      const user = await newUser(ctx.db, { meta });
      const { rows } = await ctx.db.query('select full_name, avatar_url, black_friday_access from public.profiles where user_id = $1', [
        user.id,
      ]);
      expect(rows).toEqual([{ full_name: fullName, avatar_url: null, black_friday_access: false }]);
    });

    it.each([
      { meta: { avatar_url: 'https://example.test/a.png', picture: 'https://example.test/p.png' }, avatar: 'https://example.test/a.png' },
      { meta: { picture: 'https://example.test/p.png' }, avatar: 'https://example.test/p.png' },
      { meta: { avatar_url: 'javascript:alert(1)', picture: 'https://example.test/p.png' }, avatar: 'https://example.test/p.png' },
      { meta: { avatar_url: 'data:image/svg+xml,<svg onload=alert(1)>' }, avatar: null },
      { meta: { avatar_url: 'https://example.test/a.png" onerror="alert(1)' }, avatar: null },
    ])('takes the avatar from the metadata $meta', async ({ meta, avatar }) => {
      const user = await newUser(ctx.db, { meta });
      const { rows } = await ctx.db.query<{ avatar_url: string }>('select avatar_url from public.profiles where user_id = $1', [user.id]);
      expect(rows[0]!.avatar_url).toBe(avatar);
    });

    it('follows the account metadata when it changes, keeping the Black Friday flag', async () => {
      const user = await newUser(ctx.db, { meta: { first_name: 'Grace', last_name: 'Hopper' } });
      await ctx.db.query('update public.profiles set black_friday_access = true where user_id = $1', [user.id]);
      await ctx.db.query(`update auth.users set raw_user_meta_data = $2 where id = $1`, [
        user.id,
        JSON.stringify({ full_name: 'Grace Brewster Hopper', avatar_url: 'https://example.test/g.png' }),
      ]);
      const { rows } = await ctx.db.query('select full_name, avatar_url, black_friday_access from public.profiles where user_id = $1', [
        user.id,
      ]);
      expect(rows).toEqual([{ full_name: 'Grace Brewster Hopper', avatar_url: 'https://example.test/g.png', black_friday_access: true }]);
    });

    it('is removed with its auth user', async () => {
      const user = await newUser(ctx.db);
      await ctx.db.query('delete from auth.users where id = $1', [user.id]);
      const { rows } = await ctx.db.query('select 1 from public.profiles where user_id = $1', [user.id]);
      expect(rows).toHaveLength(0);
    });

    it('lets a user read only their own profile', async () => {
      const user = await newUser(ctx.db);
      const other = await newUser(ctx.db);
      const visible = await queryAs<{ user_id: string }>(ctx.db, userActor(user), 'select user_id from public.profiles');
      expect(visible.map((row) => row.user_id)).toEqual([user.id]);
      expect(await queryAs(ctx.db, userActor(user), 'select * from public.profiles where user_id = $1', [other.id])).toEqual([]);
    });

    it('lets an admin read every profile', async () => {
      const admin = await newUser(ctx.db);
      await grantAdmin(ctx.db, admin);
      const other = await newUser(ctx.db);
      const { rows: all } = await ctx.db.query<{ count: string }>('select count(*) from public.profiles');
      const [visible] = await queryAs<{ count: string }>(ctx.db, userActor(admin), 'select count(*) from public.profiles');
      expect(visible!.count).toBe(all[0]!.count);
      expect(await queryAs(ctx.db, userActor(admin), 'select user_id from public.profiles where user_id = $1', [other.id])).toEqual([
        { user_id: other.id },
      ]);
    });

    it('is not readable by an anonymous visitor', async () => {
      await expectPgError(queryAs(ctx.db, anon, 'select * from public.profiles'), { code: '42501' });
    });
  });

  describe('writes users cannot make', () => {
    const refused: { table: string; action: string; sql: string }[] = [
      { table: 'profiles', action: 'grant themselves Black Friday access', sql: `update public.profiles set black_friday_access = true` },
      { table: 'profiles', action: 'rename their profile', sql: `update public.profiles set full_name = 'Renamed' where user_id = auth.uid()` },
      { table: 'profiles', action: 'insert a profile', sql: `insert into public.profiles (user_id, black_friday_access) values (auth.uid(), true)` },
      { table: 'profiles', action: 'delete a profile', sql: `delete from public.profiles` },
      {
        table: 'subscriptions',
        action: 'insert a subscription',
        sql: `insert into public.subscriptions (user_id, stripe_customer_id, stripe_subscription_id, status, tier, price_id, current_period_end)
              values (auth.uid(), 'cus_self', 'sub_self', 'active', 'annual', 'price_annual', now() + interval '10 years')`,
      },
      { table: 'subscriptions', action: 'extend a subscription', sql: `update public.subscriptions set current_period_end = now() + interval '10 years'` },
      { table: 'subscriptions', action: 'delete a subscription', sql: `delete from public.subscriptions` },
      {
        table: 'billing_customers',
        action: 'insert a billing customer',
        sql: `insert into public.billing_customers (user_id, stripe_customer_id) values (auth.uid(), 'cus_self')`,
      },
      { table: 'billing_customers', action: 'repoint a billing customer', sql: `update public.billing_customers set stripe_customer_id = 'cus_self'` },
      { table: 'billing_customers', action: 'delete a billing customer', sql: `delete from public.billing_customers` },
      {
        table: 'processed_webhook_events',
        action: 'mark a webhook event processed',
        sql: `insert into public.processed_webhook_events (event_id, type) values ('evt_self', 'customer.subscription.deleted')`,
      },
      { table: 'processed_webhook_events', action: 'rewrite a webhook event', sql: `update public.processed_webhook_events set type = 'x'` },
      { table: 'processed_webhook_events', action: 'forget a webhook event', sql: `delete from public.processed_webhook_events` },
      { table: 'admin_users', action: 'make themselves admin', sql: `insert into public.admin_users (user_id) values (auth.uid())` },
      { table: 'admin_users', action: 'rewrite an admin grant', sql: `update public.admin_users set user_id = auth.uid()` },
      { table: 'admin_users', action: 'remove an admin grant', sql: `delete from public.admin_users` },
    ];

    let people: { subscriber: TestUser; admin: TestUser } | undefined;
    const setUp = async () => {
      if (people) return people;
      const subscriber = await newUser(ctx.db);
      const admin = await newUser(ctx.db);
      await newSubscription(ctx.db, subscriber, 'active');
      await grantAdmin(ctx.db, admin);
      await ctx.db.query(`insert into public.billing_customers (user_id, stripe_customer_id) values ($1, 'cus_subscriber')`, [subscriber.id]);
      await ctx.db.query(`insert into public.processed_webhook_events (event_id, type) values ('evt_1', 'checkout.session.completed')`);
      people = { subscriber, admin };
      return people;
    };

    for (const who of ['anonymous', 'a subscriber', 'an admin'] as const) {
      it.each(refused)(`refuses ${who} who tries to $action, leaving $table unchanged`, async ({ table, sql }) => {
        const { subscriber, admin } = await setUp();
        const actor = who === 'anonymous' ? anon : userActor(who === 'a subscriber' ? subscriber : admin);
        const before = await snapshot(ctx.db, table);
        expect(before.length).toBeGreaterThan(0);
        await expectPgError(queryAs(ctx.db, actor, sql), { code: '42501' });
        expect(await snapshot(ctx.db, table)).toEqual(before);
      });
    }

    it('lets the service role write subscriptions, as the stripe-webhook function does', async () => {
      const user = await newUser(ctx.db);
      await as(ctx.db, serviceRole, async (q) => {
        await q.query(
          `insert into public.subscriptions (user_id, stripe_customer_id, stripe_subscription_id, status, tier, price_id, current_period_end)
           values ($1, 'cus_webhook', 'sub_webhook', 'trialing', 'monthly', 'price_monthly', now() + interval '7 days')`,
          [user.id],
        );
      });
      expect(await hasValidAccess(ctx.db, userActor(user))).toBe(true);
      const updated = await queryAs(ctx.db, serviceRole, `update public.subscriptions set status = 'canceled' where user_id = $1 returning id`, [user.id]);
      expect(updated).toHaveLength(1);
      expect(await hasValidAccess(ctx.db, userActor(user))).toBe(false);
      const deleted = await queryAs(ctx.db, serviceRole, 'delete from public.subscriptions where user_id = $1 returning id', [user.id]);
      expect(deleted).toHaveLength(1);
    });

    it('lets a user read their own subscription and no one else’s', async () => {
      const user = await newUser(ctx.db);
      const other = await newUser(ctx.db);
      const own = await newSubscription(ctx.db, user, 'active');
      const others = await newSubscription(ctx.db, other, 'active');
      expect(await queryAs(ctx.db, userActor(user), 'select id from public.subscriptions')).toEqual([{ id: own }]);
      expect(await queryAs(ctx.db, userActor(user), 'select id from public.subscriptions where id = $1', [others])).toEqual([]);
    });
  });

  describe('admin_set_black_friday_access', () => {
    const flagOf = async (user: TestUser) =>
      (await ctx.db.query<{ flag: boolean }>('select black_friday_access as flag from public.profiles where user_id = $1', [user.id])).rows[0]!.flag;

    it('grants and withdraws the Black Friday flag when an admin calls it', async () => {
      const admin = await newUser(ctx.db);
      await grantAdmin(ctx.db, admin);
      const user = await newUser(ctx.db);
      await queryAs(ctx.db, userActor(admin), 'select public.admin_set_black_friday_access($1, true)', [user.id]);
      expect(await flagOf(user)).toBe(true);
      await queryAs(ctx.db, userActor(admin), 'select public.admin_set_black_friday_access($1, false)', [user.id]);
      expect(await flagOf(user)).toBe(false);
    });

    it('refuses a signed-in non-admin, even for their own profile', async () => {
      const user = await newUser(ctx.db);
      await expectPgError(queryAs(ctx.db, userActor(user), 'select public.admin_set_black_friday_access($1, true)', [user.id]), {
        code: '42501',
        detail: 'admin_required',
        message: 'This operation requires admin privileges.',
      });
      expect(await flagOf(user)).toBe(false);
    });

    it('refuses anonymous visitors and the service role', async () => {
      const user = await newUser(ctx.db);
      for (const actor of [anon, serviceRole]) {
        await expectPgError(queryAs(ctx.db, actor, 'select public.admin_set_black_friday_access($1, true)', [user.id]), { code: '42501' });
      }
      expect(await flagOf(user)).toBe(false);
    });

    it('reports an unknown user', async () => {
      const admin = await newUser(ctx.db);
      await grantAdmin(ctx.db, admin);
      await expectPgError(
        queryAs(ctx.db, userActor(admin), 'select public.admin_set_black_friday_access($1, true)', ['00000000-0000-4000-8000-000000000000']),
        { code: 'PT404', detail: 'profile_not_found' },
      );
    });
  });

  describe('private.set_admin', () => {
    it('grants admin by email regardless of case, and revokes it', async () => {
      const user = await newUser(ctx.db, { email: `Mixed.Case-${Date.now()}@Example.test` });
      const [granted] = (await ctx.db.query<{ id: string }>('select private.set_admin($1, true) as id', [`  ${user.email.toUpperCase()} `])).rows;
      expect(granted!.id).toBe(user.id);
      expect(await isAdmin(ctx.db, userActor(user))).toBe(true);
      await ctx.db.query('select private.set_admin($1, true)', [user.email.toLowerCase()]);
      expect((await ctx.db.query('select 1 from public.admin_users where user_id = $1', [user.id])).rows).toHaveLength(1);
      await ctx.db.query('select private.set_admin($1, false)', [user.email.toLowerCase()]);
      expect(await isAdmin(ctx.db, userActor(user))).toBe(false);
    });

    it('refuses to grant an account whose email is not confirmed (its first registrant may not own it), and says why', async () => {
      const user = await newUser(ctx.db);
      await ctx.db.query('update auth.users set email_confirmed_at = null where id = $1', [user.id]);
      await expectPgError(ctx.db.query('select private.set_admin($1, true)', [user.email]), {
        code: '22023',
        detail: 'email_not_confirmed',
        message: `The account ${user.email} has not confirmed its email address, so it may not be its owner's: confirm it with the link of the confirmation email, then grant again`,
      });
      expect(await isAdmin(ctx.db, userActor(user))).toBe(false);
      // Revoking never waits for a confirmation.
      await grantAdmin(ctx.db, user);
      await ctx.db.query('select private.set_admin($1, false)', [user.email]);
      expect(await isAdmin(ctx.db, userActor(user))).toBe(false);
    });

    it('reports an unknown email and grants nothing', async () => {
      const { rows: before } = await ctx.db.query('select * from public.admin_users order by user_id');
      await expectPgError(ctx.db.query('select private.set_admin($1, true)', ['nobody@example.test']), {
        code: 'PT404',
        detail: 'user_not_found',
        message: 'No user with email nobody@example.test',
      });
      expect((await ctx.db.query('select * from public.admin_users order by user_id')).rows).toEqual(before);
    });

    it.each([
      { email: null, grant: true, detail: 'email_required', message: 'An email is required' },
      { email: '   ', grant: true, detail: 'email_required', message: 'An email is required' },
      { email: 'someone@example.test', grant: null, detail: 'grant_required', message: 'Say whether to grant or revoke admin' },
    ])('refuses email $email with grant $grant as $detail, changing nothing', async ({ email, grant, detail, message }) => {
      const admin = await newUser(ctx.db, { email: email?.trim() ? email.replace('@', `-${Date.now()}@`) : undefined });
      await grantAdmin(ctx.db, admin);
      await expectPgError(ctx.db.query('select private.set_admin($1, $2)', [email?.trim() ? admin.email : email, grant]), {
        code: '22023',
        detail,
        message,
      });
      expect(await isAdmin(ctx.db, userActor(admin))).toBe(true);
    });

    it('cannot be called by API roles', async () => {
      const user = await newUser(ctx.db);
      for (const actor of [anon, userActor(user)]) {
        await expectPgError(queryAs(ctx.db, actor, 'select private.set_admin($1, true)', [user.email]), { code: '42501' });
      }
      expect(await isAdmin(ctx.db, userActor(user))).toBe(false);
    });
  });
});
