import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_JWT_SECRET, readConfig } from '../../local/config.ts';
import { createHostAllowList } from '../../local/http/allowed-hosts.ts';
import { createGateway } from '../../local/http/gateway.ts';
import { CLIENT_IP_HEADER } from '../../local/http/node-adapter.ts';
import { createSecurityHeaders } from '../../local/http/security-headers.ts';
import { LOCAL_STRIPE_SECRET_KEY } from '../../supabase/functions/_shared/local-stripe-defaults.ts';
import { rawRequest } from '../support/raw-request.ts';
import { PRODUCTION_ENV, startStackOnPglite } from '../support/stack-on-pglite.ts';

type Stack = Awaited<ReturnType<typeof startStackOnPglite>>;

const RECOVERY_LINK = 'http://localhost:3000/auth/v1/verify?token=recovery-token-of-the-admin&type=recovery';
const loopbackUrl = (stack: Stack, path: string) => `${stack.url.replace('//localhost:', '//127.0.0.1:')}${path}`;
const port = (stack: Stack) => new URL(stack.url).port;
const stripeKey = { authorization: `Bearer ${LOCAL_STRIPE_SECRET_KEY}` };

describe('development doors in development mode', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStackOnPglite();
    await stack.mailer.send({ to: 'admin@obyect.local', subject: 'Reset your password', text: RECOVERY_LINK, html: '', links: [RECOVERY_LINK] });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('shows the mailbox, recovery links included, on localhost and 127.0.0.1 and to a page on localhost', async () => {
    const direct = await rawRequest(loopbackUrl(stack, '/_mailbox.json'));
    expect(direct.status).toBe(200);
    expect(direct.body).toContain(RECOVERY_LINK);
    const fromPage = await rawRequest(loopbackUrl(stack, '/_mailbox.json'), { host: `localhost:${port(stack)}`, headers: { origin: `http://localhost:${port(stack)}` } });
    expect(fromPage.status).toBe(200);
    const html = await rawRequest(loopbackUrl(stack, '/_mailbox'), { host: `[::1]:${port(stack)}` });
    expect(html.status).toBe(200);
    expect(html.body).toContain('Reset your password');
  });

  it('refuses the mailbox to a foreign Host, as a page that rebound its DNS name to this machine would ask', async () => {
    for (const host of ['attacker.example', `attacker.example:${port(stack)}`, `localhost.attacker.example:${port(stack)}`, `127.0.0.1.nip.io:${port(stack)}`]) {
      for (const path of ['/_mailbox.json', '/_mailbox', '/_mailbox?format=json']) {
        const answer = await rawRequest(loopbackUrl(stack, path), { host });
        expect(answer.status, `${host} ${path}`).toBe(421);
        expect(JSON.parse(answer.body)).toEqual({ code: 'host_not_allowed', message: expect.any(String) });
        expect(answer.body).not.toContain('recovery-token');
      }
    }
  });

  it('refuses the mailbox to a page of a foreign Origin', async () => {
    for (const origin of ['http://attacker.example', 'https://localhost.attacker.example', 'null']) {
      const answer = await rawRequest(loopbackUrl(stack, '/_mailbox.json'), { headers: { origin } });
      expect(answer.status, origin).toBe(403);
      expect(JSON.parse(answer.body)).toEqual({ code: 'origin_not_allowed', message: expect.any(String) });
      expect(answer.body).not.toContain('recovery-token');
    }
  });

  it('serves the local Stripe pages and API on loopback, and refuses them to a foreign Host or Origin', async () => {
    expect((await rawRequest(loopbackUrl(stack, '/_stripe/test/clock'))).status).toBe(200);
    expect((await rawRequest(loopbackUrl(stack, '/v1/customers'), { headers: stripeKey })).status).toBe(200);

    expect((await rawRequest(loopbackUrl(stack, '/_stripe/test/clock'), { host: 'attacker.example' })).status).toBe(421);
    expect((await rawRequest(loopbackUrl(stack, '/v1/customers'), { host: 'attacker.example', headers: stripeKey })).status).toBe(421);

    const before = JSON.parse((await rawRequest(loopbackUrl(stack, '/_stripe/test/clock'))).body) as { now: number };
    const advance = await rawRequest(loopbackUrl(stack, '/_stripe/test/advance'), {
      method: 'POST',
      headers: { origin: 'http://attacker.example', 'content-type': 'text/plain' },
      body: JSON.stringify({ seconds: 30 * 86_400 }),
    });
    expect(advance.status).toBe(403);
    const after = JSON.parse((await rawRequest(loopbackUrl(stack, '/_stripe/test/clock'))).body) as { now: number };
    expect(after.now - before.now).toBeLessThan(60);
  });

  it('keeps the development doors from a non-loopback peer and from SITE_URL’s own host name', async () => {
    const config = { OBYECT_MODE: 'development' as const, SITE_URL: 'http://obyect.test:8080', ALLOWED_HOSTS: [] };
    const door = async () => Response.json({ emails: ['secret'] });
    const gateway = createGateway({
      apis: {},
      devPages: { '/_mailbox': door },
      fallback: async () => new Response('<!doctype html>', { headers: { 'content-type': 'text/html' } }),
      hosts: createHostAllowList(config),
      headers: createSecurityHeaders(config),
    });
    const lan = new Request('http://localhost:3000/_mailbox.json', { headers: { [CLIENT_IP_HEADER]: '192.168.1.20' } });
    expect((await gateway(lan)).status).toBe(421);
    expect((await gateway(new Request('http://obyect.test:8080/'))).status).toBe(200);
    expect((await gateway(new Request('http://obyect.test:8080/_mailbox.json'))).status).toBe(421);
    expect((await gateway(new Request('http://localhost:3000/_mailbox.json'))).status).toBe(200);
  });
});

describe('the mailbox with SMTP_URL set', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStackOnPglite({ SMTP_URL: 'smtp://127.0.0.1:9' });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('is gone (404), while the local Stripe pages stay', async () => {
    for (const path of ['/_mailbox', '/_mailbox.json', '/_mailbox?format=json']) {
      const answer = await rawRequest(loopbackUrl(stack, path));
      expect(answer.status, path).toBe(404);
      expect(answer.headers['content-type']).toContain('application/json');
    }
    expect((await rawRequest(loopbackUrl(stack, '/_stripe/test/clock'))).status).toBe(200);
  });
});

describe('production mode', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStackOnPglite({ ...PRODUCTION_ENV, ALLOWED_HOSTS: 'www.obyect.example' });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('has no mailbox, no local Stripe pages and no local Stripe API: 404 on its public name and on loopback', async () => {
    const doors = ['/_mailbox', '/_mailbox.json', '/_stripe/test/clock', '/_stripe/checkout/cs_test_1', '/v1/customers', '/v1/prices/price_real_monthly'];
    for (const host of ['obyect.example', `localhost:${port(stack)}`]) {
      for (const path of doors) {
        const answer = await rawRequest(loopbackUrl(stack, path), { host, headers: stripeKey });
        expect(answer.status, `${host} ${path}`).toBe(404);
      }
      const advance = await rawRequest(loopbackUrl(stack, '/_stripe/test/advance'), { method: 'POST', host, body: '{"seconds":60}' });
      expect(advance.status).toBe(404);
    }
  });

  it('answers its public name and ALLOWED_HOSTS, loopback names only from this machine, nothing else', async () => {
    expect((await rawRequest(loopbackUrl(stack, '/'), { host: 'obyect.example' })).status).toBe(200);
    expect((await rawRequest(loopbackUrl(stack, '/library'), { host: 'www.obyect.example' })).status).toBe(200);
    // The edge functions call the stack on localhost.
    expect((await rawRequest(loopbackUrl(stack, '/auth/v1/settings'), { host: `localhost:${port(stack)}` })).status).toBe(200);
    expect((await rawRequest(loopbackUrl(stack, '/'), { host: 'attacker.example' })).status).toBe(421);
    expect((await rawRequest(loopbackUrl(stack, '/auth/v1/settings'), { host: 'obyect.example.attacker.example' })).status).toBe(421);

    const config = { OBYECT_MODE: 'production' as const, SITE_URL: 'https://obyect.example', ALLOWED_HOSTS: [] };
    const fromLan = new Request('http://localhost:3000/', { headers: { [CLIENT_IP_HEADER]: '203.0.113.9' } });
    expect(createHostAllowList(config).refusal(fromLan)?.status).toBe(421);
  });

  it('does not start without its real settings, and says which are missing', () => {
    expect(() => readConfig({ OBYECT_MODE: 'production' })).toThrowError(
      /OBYECT_MODE=production[\s\S]*SITE_URL[\s\S]*SMTP_URL[\s\S]*DATABASE_URL[\s\S]*JWT_SECRET[\s\S]*STRIPE_SECRET_KEY[\s\S]*STRIPE_WEBHOOK_SECRET[\s\S]*STRIPE_PRICE_MONTHLY[\s\S]*STRIPE_PRICE_ANNUAL/,
    );
    expect(() => readConfig({ ...PRODUCTION_ENV, JWT_SECRET: LOCAL_JWT_SECRET })).toThrowError(/JWT_SECRET must not be the well-known local value/);
    expect(() => readConfig({ ...PRODUCTION_ENV, SITE_URL: 'http://obyect.example' })).toThrowError(/SITE_URL must be an https URL/);
    expect(() => readConfig({ ...PRODUCTION_ENV, STRIPE_SECRET_KEY: LOCAL_STRIPE_SECRET_KEY })).toThrowError(/STRIPE_SECRET_KEY must not be the local development value/);
    expect(() => readConfig({ ...PRODUCTION_ENV, STRIPE_SECRET_KEY: '' })).toThrowError(/STRIPE_SECRET_KEY is required/);
    expect(() => readConfig({ ...PRODUCTION_ENV, AUTH_PASSWORD_HASH_COST: '4' })).toThrowError(/AUTH_PASSWORD_HASH_COST must be at least 10 in production/);
    expect(readConfig(PRODUCTION_ENV).OBYECT_MODE).toBe('production');
    expect(readConfig(PRODUCTION_ENV).AUTH_PASSWORD_HASH_COST).toBe(10);
    expect(readConfig({}).OBYECT_MODE).toBe('development');
  });
});
