import { assertEquals, authenticateKnownUsers, postJson } from '../_shared/billing-test-doubles.ts';
import { createCheckSubscriptionHandler } from './handler.ts';
import type { StoredSubscription } from './subscription-status.ts';

const url = 'http://local/check-subscription';
const now = Date.now();
const iso = (fromNowMs: number) => new Date(now + fromNowMs).toISOString();
const seconds = (fromNowMs: number) => Math.floor((now + fromNowMs) / 1000);
const DAY = 86_400_000;

/** Stripe's preview of each subscription's next invoice: the plan's price less a 20% coupon on sub_monthly. */
const previews: Record<string, { amount: number; currency: string }> = {
  sub_monthly: { amount: 716, currency: 'eur' },
  sub_annual: { amount: 7518, currency: 'eur' },
};

function handlerReading(validAccess: boolean, rows: StoredSubscription[], trialEligible = rows.length === 0) {
  const tokensRead: string[] = [];
  const previewed: string[] = [];
  const handler = createCheckSubscriptionHandler(() => ({
    authenticate: authenticateKnownUsers,
    readOwnEntitlement: async (token) => {
      tokensRead.push(token);
      return { validAccess, rows, trialEligible };
    },
    previewNextInvoice: async (id) => {
      previewed.push(id);
      return previews[id] ?? null;
    },
  }));
  return { handler, tokensRead, previewed };
}

Deno.test('refuses callers it cannot identify, before reading anything', async (t) => {
  const cases: [string, Request, number, unknown][] = [
    ['a PUT', new Request(url, { method: 'PUT' }), 405, { error: { code: 'method_not_allowed', message: 'Use POST or GET' } }],
    ['no token', postJson(url, {}, null), 401, { error: { code: 'not_authenticated', message: 'Sign in to check your subscription' } }],
    ['a forged or expired token', postJson(url, {}, 'expired-token'), 401,
      { error: { code: 'not_authenticated', message: 'Your session has expired or is not valid; sign in again' } }],
  ];
  for (const [name, request, status, body] of cases) {
    await t.step(name, async () => {
      const { handler, tokensRead } = handlerReading(true, []);
      const response = await handler(request);
      assertEquals(response.status, status);
      assertEquals(await response.json(), body);
      assertEquals(tokensRead, []);
    });
  }
});

const trialing: StoredSubscription = {
  stripe_subscription_id: 'sub_monthly', status: 'trialing', tier: 'monthly', current_period_end: iso(7 * DAY), cancel_at_period_end: false, trial_end: iso(7 * DAY),
};
const annual: StoredSubscription = {
  stripe_subscription_id: 'sub_annual', status: 'active', tier: 'annual', current_period_end: iso(300 * DAY), cancel_at_period_end: false, trial_end: null,
};
const free = { subscription_tier: 'Free', subscription_end: null, cancel_at_period_end: false, current_period_end: null, plan: null, trial_end: null, next_charge: null };

Deno.test('answers the spec shape from the rows the caller may read', async (t) => {
  const cases: [string, boolean, StoredSubscription[], unknown][] = [
    ['a free user', false, [], { subscribed: false, ...free, trial_eligible: true }],
    ['a trial of the monthly plan, charged less the coupon when it ends', true, [trialing],
      { subscribed: true, subscription_tier: 'Free Trial', subscription_end: iso(7 * DAY), cancel_at_period_end: false, current_period_end: seconds(7 * DAY),
        plan: 'Monthly', trial_end: iso(7 * DAY), next_charge: { amount: 716, currency: 'eur', at: iso(7 * DAY) } }],
    ['a trial of the annual plan set to cancel: nothing will be charged', true, [{ ...trialing, stripe_subscription_id: 'sub_annual', tier: 'annual', cancel_at_period_end: true }],
      { subscribed: true, subscription_tier: 'Free Trial', subscription_end: iso(7 * DAY), cancel_at_period_end: true, current_period_end: seconds(7 * DAY),
        plan: 'Annual', trial_end: iso(7 * DAY), next_charge: null }],
    ['an annual subscriber', true, [annual],
      { subscribed: true, subscription_tier: 'Annual', subscription_end: iso(300 * DAY), cancel_at_period_end: false, current_period_end: seconds(300 * DAY),
        plan: 'Annual', trial_end: null, next_charge: { amount: 7518, currency: 'eur', at: iso(300 * DAY) } }],
    ['a monthly subscriber who cancelled at period end', true, [{ ...annual, tier: 'monthly', current_period_end: iso(3 * DAY), cancel_at_period_end: true }],
      { subscribed: true, subscription_tier: 'Monthly', subscription_end: iso(3 * DAY), cancel_at_period_end: true, current_period_end: seconds(3 * DAY),
        plan: 'Monthly', trial_end: null, next_charge: null }],
    ['a subscription that ended', false, [{ ...annual, status: 'canceled', current_period_end: iso(-DAY) }], { subscribed: false, ...free }],
    ['a trial whose end has passed', false, [{ ...trialing, trial_end: iso(-60_000), current_period_end: iso(-60_000) }], { subscribed: false, ...free }],
    ['an old canceled subscription next to a live trial', true, [{ ...annual, status: 'canceled' }, trialing],
      { subscribed: true, subscription_tier: 'Free Trial', subscription_end: iso(7 * DAY), cancel_at_period_end: false, current_period_end: seconds(7 * DAY),
        plan: 'Monthly', trial_end: iso(7 * DAY), next_charge: { amount: 716, currency: 'eur', at: iso(7 * DAY) } }],
    ['an admin without a subscription', true, [], { subscribed: true, ...free }],
    ['a row the database no longer counts', false, [trialing], { subscribed: false, ...free }],
  ];
  for (const [name, validAccess, rows, expected] of cases) {
    await t.step(name, async () => {
      const { handler, tokensRead } = handlerReading(validAccess, rows);
      const response = await handler(postJson(url, {}));
      assertEquals(response.status, 200);
      assertEquals(await response.json(), { trial_eligible: rows.length === 0, ...(expected as object) });
      assertEquals(tokensRead, ['alice-token']);
    });
  }
});

Deno.test("carries the database's trial eligibility, which outlives the subscription rows", async () => {
  // No subscription row left, but the account or its card had a trial: the database says no.
  const { handler } = handlerReading(false, [], false);
  const response = await handler(postJson(url, {}));
  assertEquals(await response.json(), { subscribed: false, ...free, trial_eligible: false });
});

Deno.test('answers 502 when the database cannot be read', async () => {
  const handler = createCheckSubscriptionHandler(() => ({
    authenticate: authenticateKnownUsers,
    readOwnEntitlement: async () => {
      throw new Error('connection refused');
    },
    previewNextInvoice: async () => null,
  }));
  const response = await handler(new Request(url, { headers: { authorization: 'Bearer alice-token' } }));
  assertEquals(response.status, 502);
  assertEquals(await response.json(), { error: { code: 'upstream_failed', message: 'Could not read your subscription; try again' } });
});

Deno.test('answers without the amount when Stripe cannot preview the next invoice', async () => {
  const handler = createCheckSubscriptionHandler(() => ({
    authenticate: authenticateKnownUsers,
    readOwnEntitlement: async () => ({ validAccess: true, rows: [annual], trialEligible: false }),
    previewNextInvoice: async () => {
      throw new Error('Stripe is down');
    },
  }));
  const response = await handler(postJson(url, {}));
  assertEquals(response.status, 200);
  const body = await response.json();
  assertEquals([body.plan, body.next_charge], ['Annual', null]);
});

Deno.test('asks Stripe for no preview when no subscription grants access', async () => {
  const { handler, previewed } = handlerReading(false, [{ ...annual, status: 'canceled', current_period_end: iso(-DAY) }]);
  await handler(postJson(url, {}));
  assertEquals(previewed, []);
});
