import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import type { Database } from '../../local/db/database.ts';
import { describeOnEngines } from '../support/engines.ts';
import { anon, expectPgError, queryAs, serviceRole, userActor } from '../support/acting.ts';
import { newSubscription, newUser } from '../support/factories.ts';
import type { TestUser } from '../support/factories.ts';

const unique = () => randomBytes(5).toString('hex');
const inDays = (days: number) => Math.floor(Date.now() / 1000) + days * 86_400;

interface SnapshotFields {
  user_id: string;
  stripe_customer_id: string;
  stripe_subscription_id: string;
  status: string;
  tier: string;
  price_id: string;
  current_period_end: number | null;
  cancel_at_period_end: boolean;
  trial_end: number | null;
}

const trialSnapshot = (user: TestUser, ids: { customer: string; subscription: string }): SnapshotFields => ({
  user_id: user.id,
  stripe_customer_id: ids.customer,
  stripe_subscription_id: ids.subscription,
  status: 'trialing',
  tier: 'monthly',
  price_id: 'price_obyect_monthly',
  current_period_end: inDays(7),
  cancel_at_period_end: false,
  trial_end: inDays(7),
});

/** Calls the function as the stripe-webhook function does: as the service role. */
async function applyEvent(
  db: Database,
  event: { id: string; type: string; created: number } | null,
  snapshot: Partial<SnapshotFields> | null,
): Promise<string> {
  const [row] = await queryAs<{ outcome: string }>(db, serviceRole, 'select public.apply_stripe_event($1, $2, $3, $4) as outcome', [
    event?.id ?? null,
    event?.type ?? null,
    event?.created ?? null,
    snapshot === null ? null : JSON.stringify(snapshot),
  ]);
  return row!.outcome;
}

async function subscriptionRow(db: Database, subscriptionId: string) {
  const { rows } = await db.query<{
    status: string;
    tier: string;
    cancel_at_period_end: boolean;
    stripe_event_created: string;
    current_period_end: string | null;
    trial_end: string | null;
  }>(
    `select status, tier, cancel_at_period_end, stripe_event_created, current_period_end, trial_end
       from public.subscriptions where stripe_subscription_id = $1`,
    [subscriptionId],
  );
  return rows[0] ?? null;
}

const hasValidAccess = async (db: Database, user: TestUser) =>
  (await queryAs<{ access: boolean }>(db, userActor(user), 'select public.has_valid_access() as access'))[0]!.access;

describeOnEngines('billing: the webhook write', (ctx) => {
  const ids = () => ({ customer: `cus_${unique()}`, subscription: `sub_${unique()}` });
  const event = (type: string, created: number) => ({ id: `evt_${unique()}`, type, created });

  it('records the event, links the customer and creates the subscription that grants access', async () => {
    const user = await newUser(ctx.db);
    const stripe = ids();
    const created = event('customer.subscription.created', 1_000);
    expect(await applyEvent(ctx.db, created, trialSnapshot(user, stripe))).toBe('applied');
    expect(await subscriptionRow(ctx.db, stripe.subscription)).toMatchObject({ status: 'trialing', tier: 'monthly', stripe_event_created: '1000' });
    const { rows: customers } = await ctx.db.query('select stripe_customer_id from public.billing_customers where user_id = $1', [user.id]);
    expect(customers).toEqual([{ stripe_customer_id: stripe.customer }]);
    const { rows: events } = await ctx.db.query('select type from public.processed_webhook_events where event_id = $1', [created.id]);
    expect(events).toEqual([{ type: 'customer.subscription.created' }]);
    expect(await hasValidAccess(ctx.db, user)).toBe(true);
  });

  it('applies the same event id once: the second delivery is a duplicate and changes nothing', async () => {
    const user = await newUser(ctx.db);
    const stripe = ids();
    const updated = event('customer.subscription.updated', 2_000);
    expect(await applyEvent(ctx.db, updated, trialSnapshot(user, stripe))).toBe('applied');
    expect(await applyEvent(ctx.db, updated, { ...trialSnapshot(user, stripe), status: 'canceled' })).toBe('duplicate');
    expect((await subscriptionRow(ctx.db, stripe.subscription))!.status).toBe('trialing');
  });

  it('keeps the state of a later event when an earlier one arrives late, and still records the late one', async () => {
    const user = await newUser(ctx.db);
    const stripe = ids();
    expect(await applyEvent(ctx.db, event('customer.subscription.updated', 3_000), { ...trialSnapshot(user, stripe), cancel_at_period_end: true })).toBe(
      'applied',
    );
    const late = event('customer.subscription.created', 2_999);
    expect(await applyEvent(ctx.db, late, trialSnapshot(user, stripe))).toBe('stale');
    expect(await subscriptionRow(ctx.db, stripe.subscription)).toMatchObject({ cancel_at_period_end: true, stripe_event_created: '3000' });
    const { rows } = await ctx.db.query('select 1 from public.processed_webhook_events where event_id = $1', [late.id]);
    expect(rows).toHaveLength(1);
  });

  it('applies an event created in the same second as the stored one', async () => {
    const user = await newUser(ctx.db);
    const stripe = ids();
    await applyEvent(ctx.db, event('customer.subscription.created', 4_000), trialSnapshot(user, stripe));
    expect(await applyEvent(ctx.db, event('customer.subscription.updated', 4_000), { ...trialSnapshot(user, stripe), status: 'active' })).toBe('applied');
    expect((await subscriptionRow(ctx.db, stripe.subscription))!.status).toBe('active');
  });

  it("applies a state from the functions' own Stripe answer without an event, keeping the stored event time", async () => {
    const user = await newUser(ctx.db);
    const stripe = ids();
    await applyEvent(ctx.db, event('customer.subscription.created', 5_000), trialSnapshot(user, stripe));
    expect(await applyEvent(ctx.db, null, { ...trialSnapshot(user, stripe), cancel_at_period_end: true })).toBe('applied');
    expect(await subscriptionRow(ctx.db, stripe.subscription)).toMatchObject({ cancel_at_period_end: true, stripe_event_created: '5000' });
    // The webhook that confirms the change still applies.
    expect(await applyEvent(ctx.db, event('customer.subscription.updated', 5_001), { ...trialSnapshot(user, stripe), cancel_at_period_end: true })).toBe(
      'applied',
    );
  });

  it('takes a canceled state: the user loses access at once', async () => {
    const user = await newUser(ctx.db);
    const stripe = ids();
    await applyEvent(ctx.db, event('customer.subscription.created', 6_000), trialSnapshot(user, stripe));
    expect(await hasValidAccess(ctx.db, user)).toBe(true);
    await applyEvent(ctx.db, event('customer.subscription.deleted', 6_001), { ...trialSnapshot(user, stripe), status: 'canceled' });
    expect(await hasValidAccess(ctx.db, user)).toBe(false);
  });

  it('records an event without a subscription state', async () => {
    const trialWillEnd = event('customer.subscription.trial_will_end', 7_000);
    expect(await applyEvent(ctx.db, trialWillEnd, null)).toBe('recorded');
    expect(await applyEvent(ctx.db, trialWillEnd, null)).toBe('duplicate');
  });

  it('records the event but answers unknown_user for a user deleted meanwhile', async () => {
    const user = await newUser(ctx.db);
    await ctx.db.query('delete from auth.users where id = $1', [user.id]);
    const stripe = ids();
    expect(await applyEvent(ctx.db, event('customer.subscription.updated', 8_000), trialSnapshot(user, stripe))).toBe('unknown_user');
    expect(await subscriptionRow(ctx.db, stripe.subscription)).toBeNull();
  });

  it('does not move a user to another customer: the first link stays', async () => {
    const user = await newUser(ctx.db);
    const first = ids();
    await applyEvent(ctx.db, event('customer.subscription.created', 9_000), trialSnapshot(user, first));
    await applyEvent(ctx.db, event('customer.subscription.created', 9_001), trialSnapshot(user, ids()));
    const { rows } = await ctx.db.query('select stripe_customer_id from public.billing_customers where user_id = $1', [user.id]);
    expect(rows).toEqual([{ stripe_customer_id: first.customer }]);
  });

  const badInputs: { name: string; event: { id: string; type: string; created: number } | null; snapshot: Partial<SnapshotFields> | null; detail: string }[] = [
    { name: 'neither an event nor a state', event: null, snapshot: null, detail: 'invalid_stripe_event' },
    { name: 'an event without a type', event: { id: 'evt_x', type: '', created: 1 }, snapshot: null, detail: 'invalid_stripe_event' },
    { name: 'a negative event time', event: { id: 'evt_y', type: 'invoice.paid', created: -1 }, snapshot: null, detail: 'invalid_stripe_event' },
    { name: 'a state without a user id', event: null, snapshot: { stripe_customer_id: 'cus_1', stripe_subscription_id: 'sub_1', price_id: 'p', status: 'active', tier: 'monthly' }, detail: 'invalid_subscription_state' },
    { name: 'an unknown status', event: null, snapshot: { user_id: '00000000-0000-4000-8000-000000000000', stripe_customer_id: 'cus_1', stripe_subscription_id: 'sub_1', price_id: 'p', status: 'gone', tier: 'monthly' }, detail: 'unknown_subscription_status' },
    { name: 'an unknown tier', event: null, snapshot: { user_id: '00000000-0000-4000-8000-000000000000', stripe_customer_id: 'cus_1', stripe_subscription_id: 'sub_1', price_id: 'p', status: 'active', tier: 'weekly' }, detail: 'unknown_subscription_tier' },
  ];
  for (const bad of badInputs) {
    it(`refuses ${bad.name} with 22023 and changes nothing`, async () => {
      const before = (await ctx.db.query('select count(*)::int as n from public.processed_webhook_events')).rows[0];
      await expectPgError(applyEvent(ctx.db, bad.event, bad.snapshot), { code: '22023', detail: bad.detail });
      expect((await ctx.db.query('select count(*)::int as n from public.processed_webhook_events')).rows[0]).toEqual(before);
    });
  }

  it('may be called by the service role only', async () => {
    const user = await newUser(ctx.db);
    for (const actor of [anon, userActor(user)]) {
      await expectPgError(
        queryAs(ctx.db, actor, `select public.apply_stripe_event('evt_forged', 'customer.subscription.created', 1, $1)`, [
          JSON.stringify(trialSnapshot(user, ids())),
        ]),
        { code: '42501', message: /permission denied for function apply_stripe_event/ },
      );
    }
    expect(await hasValidAccess(ctx.db, user)).toBe(false);
  });
});

describeOnEngines('billing: linking a user to a Stripe customer', (ctx) => {
  const link = (userId: string | null, customerId: string | null) =>
    queryAs<{ customer: string }>(ctx.db, serviceRole, 'select public.link_billing_customer($1, $2) as customer', [userId, customerId]).then(
      (rows) => rows[0]!.customer,
    );

  it('links a user once and answers the first customer to later calls', async () => {
    const user = await newUser(ctx.db);
    expect(await link(user.id, 'cus_first')).toBe('cus_first');
    expect(await link(user.id, 'cus_second')).toBe('cus_first');
  });

  it('refuses a customer that belongs to another user', async () => {
    const owner = await newUser(ctx.db);
    const other = await newUser(ctx.db);
    await link(owner.id, 'cus_owned');
    await expectPgError(link(other.id, 'cus_owned'), { code: 'P0001', detail: 'customer_taken' });
  });

  it('refuses a missing user and empty ids by name', async () => {
    await expectPgError(link('00000000-0000-4000-8000-000000000000', 'cus_nobody'), { code: 'PT404', detail: 'user_not_found' });
    const user = await newUser(ctx.db);
    await expectPgError(link(user.id, ''), { code: '22023', detail: 'invalid_billing_customer' });
    await expectPgError(link(null, 'cus_x'), { code: '22023', detail: 'invalid_billing_customer' });
  });

  it('may be called by the service role only', async () => {
    const user = await newUser(ctx.db);
    for (const actor of [anon, userActor(user)]) {
      await expectPgError(queryAs(ctx.db, actor, `select public.link_billing_customer($1, 'cus_mine')`, [user.id]), {
        code: '42501',
        message: /permission denied for function link_billing_customer/,
      });
    }
  });
});

describeOnEngines('billing: the trial is given once', (ctx) => {
  const ids = () => ({ customer: `cus_${unique()}`, subscription: `sub_${unique()}`, card: `fp_${unique()}` });

  /** As the stripe-webhook function records a subscription that started: true when a holder had another subscription before. */
  const record = async (userId: string | null, customer: string, card: string | null, subscription: string) =>
    (
      await queryAs<{ seen: boolean }>(ctx.db, serviceRole, 'select public.record_subscription_holders($1, $2, $3, $4) as seen', [
        userId,
        customer,
        card,
        subscription,
      ])
    )[0]!.seen;
  /** As create-checkout asks: may this user, with this customer, have the trial? */
  const availableFor = async (userId: string, customer: string | null) =>
    (await queryAs<{ ok: boolean }>(ctx.db, serviceRole, 'select public.trial_available_for($1, $2) as ok', [userId, customer]))[0]!.ok;
  /** As check-subscription asks for the caller. */
  const availableToSelf = async (user: TestUser) =>
    (await queryAs<{ ok: boolean }>(ctx.db, userActor(user), 'select public.trial_available() as ok'))[0]!.ok;

  it('offers the trial to a new account, and no longer once a subscription of theirs started, even after its rows are deleted', async () => {
    const user = await newUser(ctx.db);
    const stripe = ids();
    expect(await availableToSelf(user)).toBe(true);
    expect(await availableFor(user.id, stripe.customer)).toBe(true);
    expect(await record(user.id, stripe.customer, stripe.card, stripe.subscription)).toBe(false);
    await ctx.db.query('delete from public.subscriptions where user_id = $1', [user.id]);
    await ctx.db.query('delete from public.billing_customers where user_id = $1', [user.id]);
    expect(await availableToSelf(user)).toBe(false);
    expect(await availableFor(user.id, null)).toBe(false);
  });

  it('refuses the trial to an account with a stored subscription, and to a new account on a customer that had one', async () => {
    const subscribed = await newUser(ctx.db);
    await newSubscription(ctx.db, subscribed, 'expired');
    expect(await availableToSelf(subscribed)).toBe(false);
    const first = await newUser(ctx.db);
    const stripe = ids();
    await record(first.id, stripe.customer, null, stripe.subscription);
    const second = await newUser(ctx.db);
    expect(await availableFor(second.id, stripe.customer)).toBe(false);
    expect(await availableFor(second.id, `cus_${unique()}`)).toBe(true);
  });

  it("answers whether a card, a customer or an account had another subscription, never counting the subscription's own", async () => {
    const first = await newUser(ctx.db);
    const stripe = ids();
    expect(await record(first.id, stripe.customer, stripe.card, stripe.subscription)).toBe(false);
    // Every later event of the same subscription records it again: still its first.
    expect(await record(first.id, stripe.customer, stripe.card, stripe.subscription)).toBe(false);
    // A new account with a new customer but the same card.
    const second = await newUser(ctx.db);
    expect(await record(second.id, `cus_${unique()}`, stripe.card, `sub_${unique()}`)).toBe(true);
    // The same account with a new card and subscription.
    expect(await record(first.id, stripe.customer, `fp_${unique()}`, `sub_${unique()}`)).toBe(true);
    // A deleted account's card still counts.
    await ctx.db.query('delete from auth.users where id = $1', [first.id]);
    expect(await record(null, `cus_${unique()}`, stripe.card, `sub_${unique()}`)).toBe(true);
    const { rows } = await ctx.db.query<{ user_id: string | null }>(`select user_id from public.subscription_holders where kind = 'card' and holder = $1`, [
      stripe.card,
    ]);
    expect(rows).toEqual([{ user_id: null }]);
  });

  it('lets a user read only their own holder rows, and nobody but the service role write them', async () => {
    const owner = await newUser(ctx.db);
    const other = await newUser(ctx.db);
    const stripe = ids();
    await record(owner.id, stripe.customer, stripe.card, stripe.subscription);
    const readAs = (user: TestUser) => queryAs<{ kind: string }>(ctx.db, userActor(user), 'select kind from public.subscription_holders order by kind');
    expect((await readAs(owner)).map((row) => row.kind)).toEqual(['account', 'card', 'customer']);
    expect(await readAs(other)).toEqual([]);
    await expectPgError(queryAs(ctx.db, anon, 'select * from public.subscription_holders'), { code: '42501' });
    for (const actor of [anon, userActor(owner)]) {
      await expectPgError(
        queryAs(ctx.db, actor, `insert into public.subscription_holders (kind, holder, first_subscription_id) values ('card', 'fp_mine', 'sub_mine')`),
        { code: '42501' },
      );
      await expectPgError(queryAs(ctx.db, actor, 'delete from public.subscription_holders'), { code: '42501' });
      await expectPgError(queryAs(ctx.db, actor, `update public.subscription_holders set holder = 'x'`), { code: '42501' });
    }
    expect((await readAs(owner)).length).toBe(3);
  });

  it('lets only the service role record holders or ask about another user, and a signed-in user ask about themselves', async () => {
    const user = await newUser(ctx.db);
    for (const actor of [anon, userActor(user)]) {
      await expectPgError(queryAs(ctx.db, actor, `select public.record_subscription_holders($1, 'cus_x', 'fp_x', 'sub_x')`, [user.id]), {
        code: '42501',
        message: /permission denied for function record_subscription_holders/,
      });
      await expectPgError(queryAs(ctx.db, actor, `select public.trial_available_for($1, null)`, [user.id]), {
        code: '42501',
        message: /permission denied for function trial_available_for/,
      });
    }
    await expectPgError(queryAs(ctx.db, anon, 'select public.trial_available()'), { code: '42501', message: /permission denied for function trial_available/ });
    await expectPgError(record(user.id, '', null, 'sub_x'), { code: '22023', detail: 'invalid_subscription_holder' });
  });
});

describeOnEngines('coupon previews', (ctx) => {
  const take = async (userId: string, address: string) =>
    (await queryAs<{ wait: number | null }>(ctx.db, serviceRole, 'select public.take_coupon_preview($1, $2) as wait', [userId, address]))[0]!.wait;

  it('lets a user preview 10 coupons in 10 minutes, then says how long to wait, from any address', async () => {
    const user = await newUser(ctx.db);
    for (let i = 0; i < 10; i += 1) expect(await take(user.id, `192.0.2.${i}`)).toBeNull();
    const wait = await take(user.id, '192.0.2.200');
    expect(wait).toBeGreaterThan(590);
    expect(wait).toBeLessThanOrEqual(600);
    // Another user is not held up.
    expect(await take((await newUser(ctx.db)).id, '192.0.2.201')).toBeNull();
  });

  it('lets an address preview 30 coupons in 10 minutes across accounts, then refuses every account there', async () => {
    const address = `198.51.100.${Math.floor(Math.random() * 250)}-${unique()}`;
    for (let i = 0; i < 30; i += 3) {
      const user = await newUser(ctx.db);
      for (let j = 0; j < 3; j += 1) expect(await take(user.id, address)).toBeNull();
    }
    expect(await take((await newUser(ctx.db)).id, address)).toBeGreaterThan(0);
    expect(await take((await newUser(ctx.db)).id, `${address}-elsewhere`)).toBeNull();
  });

  it('forgets previews older than the window', async () => {
    const user = await newUser(ctx.db);
    for (let i = 0; i < 10; i += 1) await take(user.id, '203.0.113.1');
    await ctx.db.query(`update private.coupon_previews set at = at - interval '11 minutes' where user_id = $1`, [user.id]);
    expect(await take(user.id, '203.0.113.1')).toBeNull();
    expect((await ctx.db.query('select 1 from private.coupon_previews where user_id = $1', [user.id])).rows).toHaveLength(1);
  });

  it('is the service role’s alone: anonymous callers and users cannot count or read previews', async () => {
    const user = await newUser(ctx.db);
    for (const actor of [anon, userActor(user)]) {
      await expectPgError(queryAs(ctx.db, actor, 'select public.take_coupon_preview($1, $2)', [user.id, '203.0.113.9']), { code: '42501' });
      await expectPgError(queryAs(ctx.db, actor, 'select * from private.coupon_previews'), { code: '42501' });
    }
  });
});
