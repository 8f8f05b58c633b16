import { alice, assertEquals, authenticateKnownUsers, MemoryBillingStore, postJson } from '../_shared/billing-test-doubles.ts';
import { Stripe } from '../_shared/stripe-client.ts';
import { createCustomerPortalHandler } from './handler.ts';

const url = 'http://local/customer-portal';

function setUp(options: { linked?: boolean; failWith?: Error } = {}) {
  const store = new MemoryBillingStore();
  if (options.linked ?? true) store.customers.set(alice.id, 'cus_alice');
  const asked: Stripe.BillingPortal.SessionCreateParams[] = [];
  const handler = createCustomerPortalHandler(() => ({
    env: { siteUrl: 'http://localhost:3000' },
    authenticate: authenticateKnownUsers,
    store,
    stripe: {
      billingPortal: {
        sessions: {
          create: async (params) => {
            if (options.failWith) throw options.failWith;
            asked.push(params);
            return { url: 'https://billing.example.test/session' };
          },
        },
      },
    },
  }));
  return { handler, asked };
}

Deno.test('refuses callers without a session or a billing account', async (t) => {
  const cases: [string, Request, number, unknown, boolean?][] = [
    ['a DELETE', new Request(url, { method: 'DELETE' }), 405, { error: { code: 'method_not_allowed', message: 'Use POST or GET' } }],
    ['no token', postJson(url, {}, null), 401, { error: { code: 'not_authenticated', message: 'Sign in to manage your subscription' } }],
    ['a forged token', postJson(url, {}, 'forged'), 401,
      { error: { code: 'not_authenticated', message: 'Your session has expired or is not valid; sign in again' } }],
    ['a user who never checked out', postJson(url, {}), 404,
      { error: { code: 'no_billing_account', message: 'You have no billing account yet; start a subscription first' } }, false],
  ];
  for (const [name, request, status, body, linked] of cases) {
    await t.step(name, async () => {
      const { handler, asked } = setUp({ linked });
      const response = await handler(request);
      assertEquals(response.status, status);
      assertEquals(await response.json(), body);
      assertEquals(asked, []);
    });
  }
});

Deno.test("opens the portal for the user's customer, returning to /profile", async () => {
  const { handler, asked } = setUp();
  const response = await handler(postJson(url, {}));
  assertEquals(response.status, 200);
  assertEquals(await response.json(), { url: 'https://billing.example.test/session' });
  assertEquals(asked, [{ customer: 'cus_alice', return_url: 'http://localhost:3000/profile' }]);
});

Deno.test("answers 502 with Stripe's message when Stripe refuses", async () => {
  const { handler } = setUp({ failWith: new Stripe.errors.StripeInvalidRequestError({ message: 'No such customer', type: 'invalid_request_error' }) });
  const response = await handler(postJson(url, {}));
  assertEquals(response.status, 502);
  assertEquals(await response.json(), { error: { code: 'upstream_failed', message: 'Failed to open billing portal: No such customer' } });
});
