import { alice, assertEquals, authenticateKnownUsers, MemoryBillingStore, postJson } from '../_shared/billing-test-doubles.ts';
import { Stripe } from '../_shared/stripe-client.ts';
import { createCheckoutHandler, type CheckoutStripe } from './handler.ts';

const prices = { monthly: 'price_obyect_monthly', annual: 'price_obyect_annual' };
const url = 'http://local/create-checkout';

/** Stripe as the checkout sees it, recording what it was asked. */
function recordingStripe(options: { existingCustomer?: string; failWith?: Error } = {}) {
  const asked = {
    searches: [] as string[],
    customers: [] as { params: Stripe.CustomerCreateParams; idempotencyKey: string | undefined }[],
    codes: [] as string[],
    sessions: [] as Stripe.Checkout.SessionCreateParams[],
  };
  const stripe: CheckoutStripe = {
    customers: {
      search: async (params) => {
        asked.searches.push(params.query);
        return { data: options.existingCustomer ? [{ id: options.existingCustomer }] : [] };
      },
      create: async (params, requestOptions) => {
        asked.customers.push({ params, idempotencyKey: requestOptions?.idempotencyKey });
        return { id: 'cus_new' };
      },
    },
    promotionCodes: {
      list: async (params) => {
        asked.codes.push(params.code ?? '');
        return { data: params.code?.toUpperCase() === 'OBYECT20' ? [{ id: 'promo_obyect20', code: 'OBYECT20', active: true }] : [] };
      },
    },
    checkout: {
      sessions: {
        create: async (params) => {
          if (options.failWith) throw options.failWith;
          asked.sessions.push(params);
          return { id: 'cs_test_1', url: 'https://checkout.example.test/cs_test_1' };
        },
      },
    },
  };
  return { stripe, asked };
}

function setUp(options: Parameters<typeof recordingStripe>[0] = {}) {
  const store = new MemoryBillingStore();
  const { stripe, asked } = recordingStripe(options);
  const handler = createCheckoutHandler(() => ({
    env: { prices, allowedOrigins: ['http://localhost:3000', 'https://obyect.example'] },
    authenticate: authenticateKnownUsers,
    store,
    stripe,
  }));
  return { handler, store, asked };
}

Deno.test('refuses bad requests with a named error and starts no checkout', async (t) => {
  const cases: [string, Request, number, unknown, ((store: MemoryBillingStore) => void)?][] = [
    ['a GET', new Request(url), 405, { error: { code: 'method_not_allowed', message: 'Use POST' } }],
    ['no token', postJson(url, { priceId: prices.monthly }, null), 401, { error: { code: 'not_authenticated', message: 'Sign in to start a subscription' } }],
    ['a forged token', postJson(url, { priceId: prices.monthly }, 'forged'), 401,
      { error: { code: 'not_authenticated', message: 'Your session has expired or is not valid; sign in again' } }],
    ['a body that is not JSON', postJson(url, '{price'), 400, { error: { code: 'invalid_body', message: 'The body must be JSON' } }],
    ['no priceId', postJson(url, {}), 400, { error: { code: 'invalid_body', message: 'priceId: must be the monthly or the annual price' } }],
    ['a price that is not ours', postJson(url, { priceId: 'price_other' }), 400,
      { error: { code: 'unknown_price', message: 'priceId: price_other is neither the monthly nor the annual price' } }],
    ['a longer trial', postJson(url, { priceId: prices.monthly, trialDays: 30 }), 400, { error: { code: 'invalid_body', message: 'trialDays: the trial is 7 days' } }],
    ['a coupon that is not text', postJson(url, { priceId: prices.monthly, couponCode: 20 }), 400, { error: { code: 'invalid_body', message: 'couponCode: must be text' } }],
    ['a coupon longer than any code', postJson(url, { priceId: prices.monthly, couponCode: 'C'.repeat(201) }), 400,
      { error: { code: 'invalid_body', message: 'couponCode: must be at most 200 characters' } }],
    ['a baseUrl that is not a URL', postJson(url, { priceId: prices.monthly, baseUrl: 'obyect' }), 400,
      { error: { code: 'invalid_body', message: 'baseUrl: must be an http(s) URL' } }],
    ['a javascript: baseUrl', postJson(url, { priceId: prices.monthly, baseUrl: 'javascript:alert(1)' }), 400,
      { error: { code: 'invalid_body', message: 'baseUrl: must be an http(s) URL' } }],
    ['a baseUrl on another origin', postJson(url, { priceId: prices.monthly, baseUrl: 'https://evil.example/library' }), 400,
      { error: { code: 'origin_not_allowed', message: 'baseUrl: https://evil.example is not an allowed origin' } }],
    ['an unknown coupon', postJson(url, { priceId: prices.annual, couponCode: ' NOPE ' }), 400,
      { error: { code: 'invalid_coupon', message: 'Coupon code "NOPE" is not valid' } }],
    ['a user who already has a subscription', postJson(url, { priceId: prices.monthly }), 409,
      { error: { code: 'already_subscribed', message: 'You already have a subscription; manage it from your profile' } },
      (store) => { store.subscriptions.set('sub_live', { user_id: alice.id, stripe_customer_id: 'cus_alice', stripe_subscription_id: 'sub_live', status: 'trialing', tier: 'monthly', price_id: prices.monthly, current_period_end: 1, cancel_at_period_end: false, trial_end: 1, stripe_event_created: 1 }); }],
  ];
  for (const [name, request, status, body, arrange] of cases) {
    await t.step(name, async () => {
      const { handler, store, asked } = setUp();
      arrange?.(store);
      const response = await handler(request);
      assertEquals(await response.json(), body);
      assertEquals(response.status, status);
      assertEquals(asked.sessions, []);
      assertEquals(asked.customers, []);
    });
  }
});

Deno.test('starts a monthly checkout with the 7-day trial for a new customer, returning to the site', async () => {
  const { handler, store, asked } = setUp();
  const response = await handler(postJson(url, { priceId: prices.monthly, trialDays: 7, baseUrl: 'http://localhost:3000/top-picks' }));
  assertEquals(response.status, 200);
  assertEquals(await response.json(), { url: 'https://checkout.example.test/cs_test_1', trial: true });
  assertEquals(asked.searches, [`metadata['user_id']:'${alice.id}'`]);
  assertEquals(asked.customers, [{ params: { email: alice.email, metadata: { user_id: alice.id } }, idempotencyKey: `customer-for-user-${alice.id}` }]);
  assertEquals(store.customers.get(alice.id), 'cus_new');
  assertEquals(asked.sessions, [{
    mode: 'subscription',
    customer: 'cus_new',
    client_reference_id: alice.id,
    line_items: [{ price: prices.monthly, quantity: 1 }],
    // A card for the trial too: the one-trial-per-card rule needs one to match.
    payment_method_collection: 'always',
    subscription_data: { trial_period_days: 7, metadata: { user_id: alice.id } },
    metadata: { user_id: alice.id },
    success_url: 'http://localhost:3000/library?checkout=success&session_id={CHECKOUT_SESSION_ID}',
    cancel_url: 'http://localhost:3000/library?checkout=cancelled',
  }]);
});

Deno.test('asks Stripe for no trial days when the account had a subscription, even one whose row is gone, or its customer had one', async (t) => {
  const cases: [string, (store: MemoryBillingStore) => void][] = [
    ['an ended subscription of the account', (store) => {
      store.subscriptions.set('sub_old', { user_id: alice.id, stripe_customer_id: 'cus_alice', stripe_subscription_id: 'sub_old', status: 'canceled', tier: 'monthly', price_id: prices.monthly, current_period_end: 1, cancel_at_period_end: false, trial_end: 1, stripe_event_created: 1 });
    }],
    ['the account recorded as a holder, its subscription rows deleted', (store) => store.holders.set(`account:${alice.id}`, 'sub_old')],
    ["the account's customer recorded as a holder", (store) => {
      store.customers.set(alice.id, 'cus_alice');
      store.holders.set('customer:cus_alice', 'sub_of_someone');
    }],
  ];
  for (const [name, arrange] of cases) {
    await t.step(name, async () => {
      const { handler, store, asked } = setUp();
      arrange(store);
      // The SPA may still send the trial it once showed: the server decides.
      const response = await handler(postJson(url, { priceId: prices.monthly, trialDays: 7 }));
      assertEquals(response.status, 200);
      assertEquals(await response.json(), { url: 'https://checkout.example.test/cs_test_1', trial: false });
      assertEquals(asked.sessions.length, 1);
      assertEquals(asked.sessions[0]!.subscription_data, { metadata: { user_id: alice.id } });
    });
  }
});

Deno.test('reuses the linked Stripe customer without looking it up again', async () => {
  const { handler, store, asked } = setUp();
  await store.linkCustomer(alice.id, 'cus_alice');
  await handler(postJson(url, { priceId: prices.annual }));
  assertEquals(asked.searches, []);
  assertEquals(asked.customers, []);
  assertEquals(asked.sessions[0]!.customer, 'cus_alice');
  assertEquals(asked.sessions[0]!.line_items, [{ price: prices.annual, quantity: 1 }]);
});

Deno.test("finds the user's customer in Stripe by user id when the link is missing, and links it", async () => {
  const { handler, store, asked } = setUp({ existingCustomer: 'cus_found' });
  await handler(postJson(url, { priceId: prices.monthly }));
  assertEquals(asked.customers, []);
  assertEquals(store.customers.get(alice.id), 'cus_found');
  assertEquals(asked.sessions[0]!.customer, 'cus_found');
});

Deno.test('applies a trimmed coupon code as its promotion code', async () => {
  const { handler, asked } = setUp();
  await handler(postJson(url, { priceId: prices.annual, couponCode: '  obyect20 ' }));
  assertEquals(asked.codes, ['obyect20']);
  assertEquals(asked.sessions[0]!.discounts, [{ promotion_code: 'promo_obyect20' }]);
});

Deno.test('omits an empty coupon code', async () => {
  const { handler, asked } = setUp();
  const response = await handler(postJson(url, { priceId: prices.monthly, couponCode: '   ' }));
  assertEquals(response.status, 200);
  assertEquals(asked.codes, []);
  assertEquals('discounts' in asked.sessions[0]!, false);
});

Deno.test("returns to the caller's Origin when it is allowed, and to the site otherwise", async () => {
  const allowed = setUp();
  await allowed.handler(postJson(url, { priceId: prices.monthly }, 'alice-token', { origin: 'https://obyect.example' }));
  assertEquals(allowed.asked.sessions[0]!.cancel_url, 'https://obyect.example/library?checkout=cancelled');
  const foreign = setUp();
  await foreign.handler(postJson(url, { priceId: prices.monthly }, 'alice-token', { origin: 'https://evil.example' }));
  assertEquals(foreign.asked.sessions[0]!.cancel_url, 'http://localhost:3000/library?checkout=cancelled');
});

Deno.test("answers 502 with Stripe's message when Stripe refuses", async () => {
  const refusal = new Stripe.errors.StripeInvalidRequestError({ message: 'No such price', type: 'invalid_request_error' });
  const { handler } = setUp({ failWith: refusal });
  const response = await handler(postJson(url, { priceId: prices.monthly }));
  assertEquals(response.status, 502);
  assertEquals(await response.json(), { error: { code: 'upstream_failed', message: 'Failed to create checkout session: No such price' } });
});
