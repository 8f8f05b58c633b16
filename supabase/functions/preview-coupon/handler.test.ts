import { assertEquals, authenticateKnownUsers, MemoryBillingStore, postJson } from '../_shared/billing-test-doubles.ts';
import { Stripe } from '../_shared/stripe-client.ts';
import { createPreviewCouponHandler } from './handler.ts';

const url = 'http://local/preview-coupon';

const coupons = {
  obyect20: { valid: true, percent_off: 20, amount_off: null, currency: null, duration: 'forever', duration_in_months: null },
  fiveoff: { valid: true, percent_off: null, amount_off: 500, currency: 'eur', duration: 'repeating', duration_in_months: 3 },
  expired: { valid: false, percent_off: 50, amount_off: null, currency: null, duration: 'once', duration_in_months: null },
} as const;

/** Stripe with three promotion codes, recording the codes it was asked for. */
function setUp(options: { failWith?: Error } = {}) {
  const asked: string[] = [];
  const promotions: Record<string, keyof typeof coupons> = { OBYECT20: 'obyect20', FIVEOFF: 'fiveoff', OLD50: 'expired' };
  const store = new MemoryBillingStore();
  const handler = createPreviewCouponHandler(() => ({
    authenticate: authenticateKnownUsers,
    store,
    stripe: {
      promotionCodes: {
        list: async (params) => {
          if (options.failWith) throw options.failWith;
          asked.push(params.code ?? '');
          assertEquals(params.active, true, 'active');
          const code = Object.keys(promotions).find((known) => known === params.code?.toUpperCase());
          return { data: code ? [{ id: `promo_${code}`, code, active: true, promotion: { coupon: promotions[code]! } }] : [] };
        },
      },
      coupons: { retrieve: async (id) => ({ ...coupons[id as keyof typeof coupons] }) },
    },
  }));
  return { handler, asked, store };
}

Deno.test('refuses callers without a session and bodies without a code', async (t) => {
  const cases: [string, Request, number, unknown][] = [
    ['a GET', new Request(url), 405, { error: { code: 'method_not_allowed', message: 'Use POST' } }],
    ['no token', postJson(url, { couponCode: 'OBYECT20' }, null), 401, { error: { code: 'not_authenticated', message: 'Sign in to use a coupon' } }],
    ['no code', postJson(url, {}), 400, { error: { code: 'invalid_body', message: 'couponCode: must be text' } }],
    ['a blank code', postJson(url, { couponCode: '   ' }), 400, { error: { code: 'invalid_body', message: 'couponCode: must not be empty' } }],
    ['a code of 201 characters', postJson(url, { couponCode: 'A'.repeat(201) }), 400,
      { error: { code: 'invalid_body', message: 'couponCode: must be at most 200 characters' } }],
  ];
  for (const [name, request, status, body] of cases) {
    await t.step(name, async () => {
      const { handler, asked } = setUp();
      const response = await handler(request);
      assertEquals(response.status, status);
      assertEquals(await response.json(), body);
      assertEquals(asked, []);
    });
  }
});

Deno.test("answers a code's terms, trimmed and in any case, as Stripe keeps them", async () => {
  const { handler, asked } = setUp();
  const percent = await handler(postJson(url, { couponCode: ' obyect20 ' }));
  assertEquals(percent.status, 200);
  assertEquals(await percent.json(), { code: 'OBYECT20', percent_off: 20, amount_off: null, currency: null, duration: 'forever', duration_in_months: null });
  const amount = await handler(postJson(url, { couponCode: 'FIVEOFF' }));
  assertEquals(await amount.json(), { code: 'FIVEOFF', percent_off: null, amount_off: 500, currency: 'eur', duration: 'repeating', duration_in_months: 3 });
  assertEquals(asked, ['obyect20', 'FIVEOFF']);
});

Deno.test('says invalid_coupon for an unknown code and for a coupon no longer valid', async () => {
  const { handler } = setUp();
  for (const code of ['NOPE', 'OLD50']) {
    const response = await handler(postJson(url, { couponCode: code }));
    assertEquals(response.status, 400);
    assertEquals(await response.json(), { error: { code: 'invalid_coupon', message: `Coupon code "${code}" is not valid` } });
  }
});

Deno.test("answers 502 when Stripe fails, without Stripe's internals", async () => {
  const { handler } = setUp({ failWith: new Stripe.errors.StripeAPIError({ message: 'Stripe is down', type: 'api_error' }) });
  const response = await handler(postJson(url, { couponCode: 'OBYECT20' }));
  assertEquals(response.status, 502);
  assertEquals(((await response.json()) as { error: { code: string } }).error.code, 'upstream_failed');
});

Deno.test('refuses the 11th code of a user in 10 minutes with 429 and Retry-After, before asking Stripe', async () => {
  const { handler, asked } = setUp();
  for (let i = 0; i < 10; i += 1) assertEquals((await handler(postJson(url, { couponCode: `GUESS${i}` }))).status, 400);
  const refused = await handler(postJson(url, { couponCode: 'OBYECT20' }));
  assertEquals(refused.status, 429);
  assertEquals(refused.headers.get('retry-after'), '600');
  assertEquals(await refused.json(), { error: { code: 'too_many_requests', message: 'Too many coupon codes tried. Please try again in 10 minutes.' } });
  assertEquals(asked.length, 10);
});

Deno.test('counts codes per client address too, as the gateway gives it in X-Forwarded-For', async () => {
  const { handler, store } = setUp();
  const from = (address: string) => {
    const request = postJson(url, { couponCode: 'OBYECT20' });
    request.headers.set('x-forwarded-for', `${address}, 10.0.0.1`);
    return request;
  };
  await handler(from('203.0.113.5'));
  assertEquals(store.couponPreviews.at(-1)?.address, '203.0.113.5');
});
