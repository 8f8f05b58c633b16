import { alice, assertEquals, MemoryBillingStore, stripeSubscription } from '../_shared/billing-test-doubles.ts';
import type { Stripe } from '../_shared/stripe-client.ts';
import type { SubscriptionFields } from '../_shared/subscription-snapshot.ts';
import { createStripeWebhookHandler } from './handler.ts';
import type { WebhookStripe } from './webhook-services.ts';

const SECRET = 'whsec_test_secret';
const url = 'http://local/stripe-webhook';
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Stripe's scheme: t=<seconds>,v1=<hex HMAC-SHA256 of "t.payload" keyed with the endpoint secret>. */
async function signature(payload: string, secret = SECRET, timestamp = nowSeconds()): Promise<string> {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${timestamp}.${payload}`));
  const hex = [...new Uint8Array(mac)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `t=${timestamp},v1=${hex}`;
}

interface TestEvent {
  id: string;
  type: string;
  created: number;
  data: { object: Record<string, unknown> };
}

const event = (id: string, type: string, created: number, object: Record<string, unknown>): TestEvent => ({
  id, type, created, data: { object }, object: 'event', api_version: '2026-10-28.endive', livemode: false, pending_webhooks: 1, request: { id: null, idempotency_key: null },
} as TestEvent);

async function delivery(payloadOrEvent: TestEvent | string, sign: (payload: string) => Promise<string> = (payload) => signature(payload)): Promise<Request> {
  const payload = typeof payloadOrEvent === 'string' ? payloadOrEvent : JSON.stringify(payloadOrEvent, null, 2);
  return new Request(url, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': await sign(payload) }, body: payload });
}

/** Stripe holding one subscription whose current state the test sets. */
function setUp() {
  const store = new MemoryBillingStore();
  const stripeState: {
    subscription: SubscriptionFields;
    failing: boolean;
    failingUpdates: boolean;
    reads: number;
    expands: (string[] | undefined)[];
    updates: { id: string; params: Stripe.SubscriptionUpdateParams; idempotencyKey: string | undefined }[];
  } = {
    subscription: stripeSubscription({ id: 'sub_1', customer: 'cus_alice', metadata: { user_id: alice.id } }),
    failing: false,
    failingUpdates: false,
    reads: 0,
    expands: [],
    updates: [],
  };
  const stripe: WebhookStripe = {
    subscriptions: {
      retrieve: async (id, params) => {
        stripeState.reads += 1;
        stripeState.expands.push(params?.expand);
        if (stripeState.failing) throw new Error('Stripe is unreachable');
        if (id !== stripeState.subscription.id) throw new Error(`No such subscription: ${id}`);
        return stripeState.subscription;
      },
      update: async (id, params, options) => {
        if (stripeState.failingUpdates) throw new Error('Stripe is unreachable');
        stripeState.updates.push({ id, params, idempotencyKey: options?.idempotencyKey });
        // Stripe ends the trial and bills the plan: the subscription is active from now on.
        if (params.trial_end === 'now' && stripeState.subscription.status === 'trialing') {
          stripeState.subscription = { ...stripeState.subscription, status: 'active', trial_end: nowSeconds() };
        }
        return stripeState.subscription;
      },
    },
    customers: { retrieve: async () => ({ metadata: {} }) },
  };
  const handler = createStripeWebhookHandler(() => ({ webhookSecret: SECRET, stripe, store }));
  const row = () => store.subscriptions.get('sub_1');
  return { handler, store, stripeState, row };
}

const subscriptionEvent = (id: string, type: string, created: number) => event(id, type, created, { id: 'sub_1', object: 'subscription', status: 'trialing' });

Deno.test('refuses deliveries that are not signed by Stripe now, and records nothing', async (t) => {
  const sample = subscriptionEvent('evt_1', 'customer.subscription.created', 100);
  const payload = JSON.stringify(sample);
  const cases: [string, () => Promise<Request>, number, unknown][] = [
    ['a GET', async () => new Request(url), 405, { error: { code: 'method_not_allowed', message: 'Use POST' } }],
    ['no signature header', async () => new Request(url, { method: 'POST', body: payload }), 400,
      { error: { code: 'invalid_signature', message: 'Missing Stripe-Signature header' } }],
    ['a tampered payload', async () => new Request(url, { method: 'POST', headers: { 'stripe-signature': await signature(payload) }, body: payload.replace('trialing', 'active') }), 400,
      { error: { code: 'invalid_signature', message: 'The Stripe-Signature does not match the payload' } }],
    // The first hex digit of the signature changed to another one (replacing it by a fixed digit would leave one signature in 16 intact).
    ['a tampered signature', () => delivery(sample, async (body) => (await signature(body)).replace(/v1=(.)/, (_, digit: string) => `v1=${digit === '0' ? '1' : '0'}`)), 400,
      { error: { code: 'invalid_signature', message: 'The Stripe-Signature does not match the payload' } }],
    ['another secret', () => delivery(sample, (body) => signature(body, 'whsec_other')), 400,
      { error: { code: 'invalid_signature', message: 'The Stripe-Signature does not match the payload' } }],
    ['a timestamp older than 300 s', () => delivery(sample, (body) => signature(body, SECRET, nowSeconds() - 301)), 400,
      { error: { code: 'invalid_signature', message: 'The Stripe-Signature timestamp is more than 300 seconds old' } }],
    ['a garbled header', () => delivery(sample, async () => 'v1'), 400,
      { error: { code: 'invalid_signature', message: 'The Stripe-Signature does not match the payload' } }],
    ['a signed body that is not JSON', () => delivery('not json'), 400, { error: { code: 'invalid_body', message: 'The body must be a JSON Stripe event' } }],
    ...['null', '42', '"evt"', '[]', '{}', '{"id":"evt_1","type":7}'].map((json): [string, () => Promise<Request>, number, unknown] => [
      `signed JSON that is not an event: ${json}`,
      () => delivery(json),
      400,
      { error: { code: 'invalid_body', message: 'The body must be a JSON Stripe event' } },
    ]),
  ];
  for (const [name, request, status, body] of cases) {
    await t.step(name, async () => {
      const { handler, store, stripeState } = setUp();
      const response = await handler(await request());
      assertEquals(response.status, status);
      assertEquals(await response.json(), body);
      assertEquals(store.processedEvents.size, 0);
      assertEquals(stripeState.reads, 0);
    });
  }
});

Deno.test('accepts a signature made 299 s ago', async () => {
  const { handler } = setUp();
  const response = await handler(await delivery(subscriptionEvent('evt_recent', 'customer.subscription.created', 100), (body) => signature(body, SECRET, nowSeconds() - 299)));
  assertEquals(response.status, 200);
});

Deno.test('acknowledges event types outside the allow-list and ignores them', async () => {
  const { handler, store, stripeState } = setUp();
  const response = await handler(await delivery(event('evt_charge', 'charge.succeeded', 100, { id: 'ch_1', object: 'charge' })));
  assertEquals(response.status, 200);
  assertEquals(await response.json(), { received: true, outcome: 'ignored' });
  assertEquals(store.processedEvents.size, 0);
  assertEquals(stripeState.reads, 0);
});

Deno.test('applies a completed checkout as the subscription Stripe has now, for the user who checked out', async () => {
  const { handler, store, stripeState, row } = setUp();
  stripeState.subscription = stripeSubscription({ id: 'sub_1', customer: 'cus_alice', metadata: {}, periodEnd: 1_900_000_000 });
  const completed = event('evt_checkout', 'checkout.session.completed', 100, {
    id: 'cs_1', object: 'checkout.session', mode: 'subscription', subscription: 'sub_1', customer: 'cus_alice', client_reference_id: alice.id,
  });
  const response = await handler(await delivery(completed));
  assertEquals(await response.json(), { received: true, outcome: 'applied' });
  assertEquals(row(), {
    user_id: alice.id, stripe_customer_id: 'cus_alice', stripe_subscription_id: 'sub_1', status: 'trialing', tier: 'monthly', price_id: 'price_obyect_monthly',
    current_period_end: 1_900_000_000, cancel_at_period_end: false, trial_end: 1_900_000_000, stripe_event_created: 100,
  });
  assertEquals(store.customers.get(alice.id), 'cus_alice');
});

Deno.test('applies the same event once when Stripe delivers it twice', async () => {
  const { handler, stripeState, row } = setUp();
  const updated = subscriptionEvent('evt_twice', 'customer.subscription.updated', 200);
  assertEquals(await (await handler(await delivery(updated))).json(), { received: true, outcome: 'applied' });
  // Meanwhile the subscription changed in Stripe; the redelivery must not apply anything.
  stripeState.subscription = { ...stripeState.subscription, status: 'active' };
  const again = await handler(await delivery(updated));
  assertEquals(again.status, 200);
  assertEquals(await again.json(), { received: true, outcome: 'duplicate' });
  assertEquals(row()!.status, 'trialing');
  assertEquals(stripeState.reads, 1);
});

Deno.test("ends in Stripe's final state when 'updated' arrives before 'created'", async () => {
  const { handler, stripeState, row } = setUp();
  // Stripe's state after both events: the trial, set to cancel at its end.
  stripeState.subscription = { ...stripeState.subscription, cancel_at_period_end: true };
  const created = subscriptionEvent('evt_created', 'customer.subscription.created', 100);
  const updated = subscriptionEvent('evt_updated', 'customer.subscription.updated', 101);
  assertEquals(await (await handler(await delivery(updated))).json(), { received: true, outcome: 'applied' });
  // Even should the late event's read answer an older state (a read racing the change), its older time keeps it from overwriting.
  stripeState.subscription = { ...stripeState.subscription, cancel_at_period_end: false };
  assertEquals(await (await handler(await delivery(created))).json(), { received: true, outcome: 'stale' });
  assertEquals(row()!.cancel_at_period_end, true);
  assertEquals(row()!.stripe_event_created, 101);
});

Deno.test('takes the state from Stripe, not from the event payload, when events come late', async () => {
  const { handler, stripeState, row } = setUp();
  stripeState.subscription = { ...stripeState.subscription, status: 'canceled', ended_at: 1_800_000_000 };
  // The payload still says trialing: it was the state when the event was created.
  await handler(await delivery(subscriptionEvent('evt_late', 'customer.subscription.updated', 300)));
  assertEquals(row()!.status, 'canceled');
});

Deno.test('follows a paid invoice to its subscription', async () => {
  const { handler, stripeState, row } = setUp();
  stripeState.subscription = stripeSubscription({ id: 'sub_1', status: 'active', metadata: { user_id: alice.id }, priceId: 'price_obyect_annual', interval: 'year', periodEnd: 1_950_000_000 });
  const paid = event('evt_paid', 'invoice.paid', 400, {
    id: 'in_1', object: 'invoice', parent: { type: 'subscription_details', subscription_details: { subscription: 'sub_1', metadata: {} } },
  });
  assertEquals(await (await handler(await delivery(paid))).json(), { received: true, outcome: 'applied' });
  assertEquals([row()!.status, row()!.tier, row()!.current_period_end], ['active', 'annual', 1_950_000_000]);
});

Deno.test('records events that name no subscription of a known user, without applying anything', async () => {
  const { handler, store, stripeState } = setUp();
  const oneOff = event('evt_one_off', 'invoice.payment_failed', 500, { id: 'in_2', object: 'invoice', parent: null });
  assertEquals(await (await handler(await delivery(oneOff))).json(), { received: true, outcome: 'recorded' });
  stripeState.subscription = { ...stripeState.subscription, metadata: {}, customer: 'cus_stranger' };
  assertEquals(await (await handler(await delivery(subscriptionEvent('evt_stranger', 'customer.subscription.updated', 501)))).json(), {
    received: true,
    outcome: 'recorded',
  });
  assertEquals(store.subscriptions.size, 0);
  assertEquals([...store.processedEvents.keys()], ['evt_one_off', 'evt_stranger']);
});

Deno.test('answers 500 and records nothing when Stripe cannot be read, so that the redelivery applies it', async () => {
  const { handler, store, stripeState, row } = setUp();
  const created = subscriptionEvent('evt_retry', 'customer.subscription.created', 600);
  stripeState.failing = true;
  const failed = await handler(await delivery(created));
  assertEquals(failed.status, 500);
  assertEquals(await failed.json(), { error: { code: 'internal', message: 'Processing the event failed; it will be delivered again' } });
  assertEquals(store.processedEvents.size, 0);
  stripeState.failing = false;
  assertEquals(await (await handler(await delivery(created))).json(), { received: true, outcome: 'applied' });
  assertEquals(row()!.status, 'trialing');
});

/** A subscription paid with a card whose Stripe fingerprint is given. */
const withCard = (fingerprint: string, fields: Partial<SubscriptionFields> = {}): SubscriptionFields => ({
  ...stripeSubscription({ id: 'sub_1', customer: 'cus_alice', metadata: { user_id: alice.id } }),
  default_payment_method: { id: 'pm_1', card: { fingerprint } },
  ...fields,
});

Deno.test("keeps a card's first trial, reading the card with the subscription, and records its account, customer and card", async () => {
  const { handler, store, stripeState, row } = setUp();
  stripeState.subscription = withCard('fp_first');
  assertEquals(await (await handler(await delivery(subscriptionEvent('evt_first', 'customer.subscription.created', 700)))).json(), { received: true, outcome: 'applied' });
  assertEquals(stripeState.expands, [['default_payment_method']]);
  assertEquals(stripeState.updates, []);
  assertEquals(row()!.status, 'trialing');
  assertEquals(Object.fromEntries(store.holders), { [`account:${alice.id}`]: 'sub_1', 'customer:cus_alice': 'sub_1', 'card:fp_first': 'sub_1' });
  // Later events of the same subscription are still its first trial.
  assertEquals(await (await handler(await delivery(subscriptionEvent('evt_again', 'customer.subscription.updated', 701)))).json(), { received: true, outcome: 'applied' });
  assertEquals(stripeState.updates, []);
});

Deno.test('ends at once a trial whose card, customer or account had a trial or subscription before, and applies the active state', async (t) => {
  const cases: [string, (store: MemoryBillingStore) => void][] = [
    ['a card used by another account', (store) => store.holders.set('card:fp_seen', 'sub_of_bob')],
    ['a customer that had a subscription', (store) => store.holders.set('customer:cus_alice', 'sub_old')],
    ['an account that had a subscription', (store) => store.holders.set(`account:${alice.id}`, 'sub_old')],
  ];
  for (const [name, arrange] of cases) {
    await t.step(name, async () => {
      const { handler, store, stripeState, row } = setUp();
      arrange(store);
      stripeState.subscription = withCard('fp_seen');
      const response = await handler(await delivery(subscriptionEvent('evt_second_trial', 'customer.subscription.created', 800)));
      assertEquals(await response.json(), { received: true, outcome: 'applied' });
      assertEquals(stripeState.updates, [{ id: 'sub_1', params: { trial_end: 'now' }, idempotencyKey: 'end-repeated-trial-sub_1' }]);
      assertEquals(row()!.status, 'active');
    });
  }
});

Deno.test('asks Stripe to end a repeated trial with one idempotency key however many events race, and leaves a paid plan alone', async () => {
  const { handler, store, stripeState } = setUp();
  store.holders.set('card:fp_seen', 'sub_of_bob');
  stripeState.subscription = withCard('fp_seen');
  // Two events read the trial before either ended it.
  const trialing = stripeState.subscription;
  await handler(await delivery(subscriptionEvent('evt_race_1', 'customer.subscription.created', 900)));
  stripeState.subscription = trialing;
  await handler(await delivery(event('evt_race_2', 'checkout.session.completed', 900, {
    id: 'cs_1', object: 'checkout.session', mode: 'subscription', subscription: 'sub_1', customer: 'cus_alice', client_reference_id: alice.id,
  })));
  assertEquals(stripeState.updates.map((update) => update.idempotencyKey), ['end-repeated-trial-sub_1', 'end-repeated-trial-sub_1']);
  // Once active, later events change nothing in Stripe.
  await handler(await delivery(subscriptionEvent('evt_paid_later', 'customer.subscription.updated', 901)));
  assertEquals(stripeState.updates.length, 2);
});

Deno.test('answers 500 when ending a repeated trial fails, so that the redelivery ends it', async () => {
  const { handler, store, stripeState, row } = setUp();
  store.holders.set('card:fp_seen', 'sub_of_bob');
  stripeState.subscription = withCard('fp_seen');
  stripeState.failingUpdates = true;
  const created = subscriptionEvent('evt_end_retry', 'customer.subscription.created', 1_000);
  assertEquals((await handler(await delivery(created))).status, 500);
  assertEquals(row(), undefined);
  stripeState.failingUpdates = false;
  assertEquals(await (await handler(await delivery(created))).json(), { received: true, outcome: 'applied' });
  assertEquals(row()!.status, 'active');
});

Deno.test('records nothing for a subscription that never started', async () => {
  const { handler, store, stripeState } = setUp();
  stripeState.subscription = withCard('fp_unpaid', { status: 'incomplete', trial_end: null });
  await handler(await delivery(subscriptionEvent('evt_incomplete', 'customer.subscription.created', 1_100)));
  assertEquals(store.holders.size, 0);
});
