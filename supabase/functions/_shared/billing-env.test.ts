import { readBillingEnv } from './billing-env.ts';
import { assertEquals } from './billing-test-doubles.ts';
import { LOCAL_STRIPE_PRICES, LOCAL_STRIPE_WEBHOOK_SECRET } from './local-stripe-defaults.ts';

const base = { SUPABASE_URL: 'http://localhost:54321', SITE_URL: 'http://localhost:3000/' };

const failure = (env: Record<string, string>) => {
  try {
    readBillingEnv(env);
  } catch (error) {
    return (error as Error).message;
  }
  return null;
};

Deno.test("without a Stripe key, talks to the local test endpoint on the stack's own address with its defaults", () => {
  assertEquals(readBillingEnv(base), {
    supabaseUrl: 'http://localhost:54321',
    siteUrl: 'http://localhost:3000',
    allowedOrigins: ['http://localhost:3000'],
    stripeSecretKey: null,
    webhookSecret: LOCAL_STRIPE_WEBHOOK_SECRET,
    prices: LOCAL_STRIPE_PRICES,
    stripeApi: { host: 'localhost', port: 54321, protocol: 'http' },
  });
});

Deno.test('takes the local endpoint address and extra origins from the environment', () => {
  const env = readBillingEnv({ ...base, STRIPE_API_HOST: '127.0.0.1', STRIPE_API_PORT: '12111', ALLOWED_ORIGINS: 'http://localhost:5173/, https://obyect.example' });
  assertEquals(env.stripeApi, { host: '127.0.0.1', port: 12111, protocol: 'http' });
  assertEquals(env.allowedOrigins, ['http://localhost:3000', 'http://localhost:5173', 'https://obyect.example']);
});

Deno.test("with a Stripe key, talks to Stripe itself and needs the webhook secret and both prices", () => {
  const live = readBillingEnv({ ...base, STRIPE_SECRET_KEY: 'sk_live_x', STRIPE_WEBHOOK_SECRET: 'whsec_x', STRIPE_PRICE_MONTHLY: 'price_m', STRIPE_PRICE_ANNUAL: 'price_a' });
  assertEquals([live.stripeApi, live.webhookSecret, live.prices], [null, 'whsec_x', { monthly: 'price_m', annual: 'price_a' }]);
  assertEquals(
    failure({ ...base, STRIPE_SECRET_KEY: 'sk_live_x', STRIPE_PRICE_MONTHLY: '' }),
    'Billing environment is invalid: STRIPE_WEBHOOK_SECRET: STRIPE_WEBHOOK_SECRET is required with STRIPE_SECRET_KEY; ' +
      'STRIPE_PRICE_MONTHLY: STRIPE_PRICE_MONTHLY is required with STRIPE_SECRET_KEY; STRIPE_PRICE_ANNUAL: STRIPE_PRICE_ANNUAL is required with STRIPE_SECRET_KEY',
  );
});

Deno.test('refuses an origin list with something that is not a URL', () => {
  assertEquals(failure({ ...base, ALLOWED_ORIGINS: 'localhost:5173' }), 'Billing environment is invalid: ALLOWED_ORIGINS: localhost:5173 is not an http(s) URL');
});
