import { alice, assertEquals, authenticateKnownUsers, MemoryBillingStore, postJson, stripeSubscription } from '../_shared/billing-test-doubles.ts';
import { Stripe } from '../_shared/stripe-client.ts';
import type { SubscriptionFields } from '../_shared/subscription-snapshot.ts';
import { createCancelSubscriptionHandler, type CancelStripe } from './handler.ts';

const url = 'http://local/cancel-subscription';
const PERIOD_END = 1_900_000_000;
const ENDED_AT = 1_800_000_000;

function setUp(options: { subscribed?: boolean; failWith?: Error } = {}) {
  const store = new MemoryBillingStore();
  if (options.subscribed ?? true) {
    store.customers.set(alice.id, 'cus_alice');
    store.subscriptions.set('sub_1', {
      user_id: alice.id, stripe_customer_id: 'cus_alice', stripe_subscription_id: 'sub_1', status: 'trialing', tier: 'monthly',
      price_id: 'price_obyect_monthly', current_period_end: PERIOD_END, cancel_at_period_end: false, trial_end: PERIOD_END, stripe_event_created: 10,
    });
  }
  const asked: string[] = [];
  const answer = (subscription: SubscriptionFields) => {
    if (options.failWith) throw options.failWith;
    return subscription;
  };
  const stripe: CancelStripe = {
    subscriptions: {
      update: async (id, params) => {
        asked.push(`update ${id} ${JSON.stringify(params)}`);
        return answer(stripeSubscription({ id, cancel_at_period_end: params.cancel_at_period_end === true, periodEnd: PERIOD_END }));
      },
      cancel: async (id) => {
        asked.push(`cancel ${id}`);
        return answer(stripeSubscription({ id, status: 'canceled', ended_at: ENDED_AT, periodEnd: PERIOD_END }));
      },
    },
  };
  const handler = createCancelSubscriptionHandler(() => ({ authenticate: authenticateKnownUsers, store, stripe }));
  return { handler, store, asked };
}

Deno.test('refuses bad requests with a named error and cancels nothing', async (t) => {
  const cases: [string, Request, number, unknown, boolean?][] = [
    ['a GET', new Request(url), 405, { error: { code: 'method_not_allowed', message: 'Use POST' } }],
    ['no token', postJson(url, { immediate: false }, null), 401, { error: { code: 'not_authenticated', message: 'Sign in to cancel your subscription' } }],
    ['a forged token', postJson(url, { immediate: false }, 'forged'), 401,
      { error: { code: 'not_authenticated', message: 'Your session has expired or is not valid; sign in again' } }],
    ['no body', postJson(url, ''), 400, { error: { code: 'invalid_body', message: 'immediate: must be true (end now) or false (end at the period end)' } }],
    ['immediate as text', postJson(url, { immediate: 'yes' }), 400,
      { error: { code: 'invalid_body', message: 'immediate: must be true (end now) or false (end at the period end)' } }],
    ['a user without a subscription', postJson(url, { immediate: true }), 404, { error: { code: 'no_subscription', message: 'You have no subscription to cancel' } }, false],
  ];
  for (const [name, request, status, body, subscribed] of cases) {
    await t.step(name, async () => {
      const { handler, asked, store } = setUp({ subscribed });
      const before = JSON.stringify([...store.subscriptions]);
      const response = await handler(request);
      assertEquals(response.status, status);
      assertEquals(await response.json(), body);
      assertEquals(asked, []);
      assertEquals(JSON.stringify([...store.subscriptions]), before);
    });
  }
});

Deno.test('cancels at the period end: access until then, the row updated from Stripe at once', async () => {
  const { handler, store, asked } = setUp();
  const response = await handler(postJson(url, { immediate: false }));
  assertEquals(response.status, 200);
  assertEquals(await response.json(), { subscription: { current_period_end: PERIOD_END, cancel_at_period_end: true, status: 'trialing' } });
  assertEquals(asked, ['update sub_1 {"cancel_at_period_end":true}']);
  assertEquals(store.subscriptions.get('sub_1')!.cancel_at_period_end, true);
  // The row keeps the time of the last event, so the confirming webhook still applies.
  assertEquals(store.subscriptions.get('sub_1')!.stripe_event_created, 10);
  assertEquals(store.processedEvents.size, 0);
});

Deno.test('cancels now: access ends at the moment Stripe ended it', async () => {
  const { handler, store, asked } = setUp();
  const response = await handler(postJson(url, { immediate: true }));
  assertEquals(await response.json(), { subscription: { current_period_end: ENDED_AT, cancel_at_period_end: false, status: 'canceled' } });
  assertEquals(asked, ['cancel sub_1']);
  assertEquals(store.subscriptions.get('sub_1')!.status, 'canceled');
});

Deno.test("answers 502 with Stripe's message and leaves the row when Stripe refuses", async () => {
  const { handler, store } = setUp({ failWith: new Stripe.errors.StripeAPIError({ message: 'Stripe is down', type: 'api_error' }) });
  const response = await handler(postJson(url, { immediate: false }));
  assertEquals(response.status, 502);
  assertEquals(await response.json(), { error: { code: 'upstream_failed', message: 'Cancellation failed: Stripe is down' } });
  assertEquals(store.subscriptions.get('sub_1')!.cancel_at_period_end, false);
});

Deno.test('answers the cancellation Stripe made even when the row cannot be written; the webhook writes it', async () => {
  const { handler, store, asked } = setUp();
  store.applyStripeEvent = async () => {
    throw new Error('database unavailable');
  };
  const response = await handler(postJson(url, { immediate: false }));
  assertEquals(response.status, 200);
  assertEquals(asked, ['update sub_1 {"cancel_at_period_end":true}']);
});
