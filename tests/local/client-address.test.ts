import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../local/config.ts';
import { parseTrustedProxies, resolveClientAddress } from '../../local/http/client-address.ts';
import type { LocalStack } from '../../local/stack.ts';
import { PRODUCTION_ENV, startStackOnPglite } from '../support/stack-on-pglite.ts';

const none = parseTrustedProxies('');
const loopback = parseTrustedProxies('loopback');

describe('the client address behind trusted proxies', () => {
  it('is the socket address when no proxy is trusted, whatever X-Forwarded-For says', () => {
    expect(resolveClientAddress('203.0.113.5', '198.51.100.1', none)).toBe('203.0.113.5');
    expect(resolveClientAddress('::ffff:127.0.0.1', '198.51.100.1', none)).toBe('127.0.0.1');
  });

  it('behind a trusted proxy is the address it reports, not what the client wrote before it', () => {
    expect(resolveClientAddress('127.0.0.1', '198.51.100.1', loopback)).toBe('198.51.100.1');
    // The client sent "X-Forwarded-For: 10.9.9.9"; the proxy appended the address it saw.
    expect(resolveClientAddress('127.0.0.1', '10.9.9.9, 198.51.100.1', loopback)).toBe('198.51.100.1');
    expect(resolveClientAddress('127.0.0.1', ['127.0.0.2', '198.51.100.1, 127.0.0.3'], loopback)).toBe('198.51.100.1');
    expect(resolveClientAddress('::1', '[2001:db8::7]:4431', loopback)).toBe('2001:db8::7');
    // A request that did not come through the proxy: its own address.
    expect(resolveClientAddress('203.0.113.5', '198.51.100.1', loopback)).toBe('203.0.113.5');
    expect(resolveClientAddress('127.0.0.1', undefined, loopback)).toBe('127.0.0.1');
  });

  it('counts hops from the socket when told how many proxies are in front', () => {
    const two = parseTrustedProxies('2');
    expect(resolveClientAddress('10.0.0.2', '6.6.6.6, 198.51.100.1, 10.0.0.1', two)).toBe('198.51.100.1');
    expect(resolveClientAddress('10.0.0.2', undefined, parseTrustedProxies('1'))).toBe('10.0.0.2');
  });

  it('takes addresses, ranges and named ranges, and refuses anything else with what it takes', () => {
    const ranges = parseTrustedProxies('10.0.0.0/8, fd00::/8, 192.0.2.10');
    expect(resolveClientAddress('10.1.2.3', '198.51.100.1, 192.0.2.10', ranges)).toBe('198.51.100.1');
    expect(resolveClientAddress('fd00::1', '198.51.100.9', ranges)).toBe('198.51.100.9');
    // Every hop trusted: the farthest one.
    expect(resolveClientAddress('10.0.0.1', '172.16.0.4, 10.0.0.9', parseTrustedProxies('uniquelocal'))).toBe('172.16.0.4');
    expect(() => parseTrustedProxies('0')).toThrow(/1 to 10/);
    expect(() => parseTrustedProxies('10.0.0.0/33')).toThrow(/"10.0.0.0\/33", which is not an address or range/);
    expect(() => parseTrustedProxies('my-proxy')).toThrow(/loopback, linklocal, uniquelocal/);
  });

  it('is required in production mode behind a proxy on this machine, and checked in every mode', () => {
    const { TRUSTED_PROXIES: _, ...withoutProxies } = PRODUCTION_ENV;
    expect(() => readConfig(withoutProxies)).toThrow(/TRUSTED_PROXIES: required behind the proxy on this machine/);
    expect(readConfig({ ...withoutProxies, HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0');
    expect(readConfig(PRODUCTION_ENV).TRUSTED_PROXIES).toBe('loopback');
    expect(() => readConfig({ TRUSTED_PROXIES: 'everyone' })).toThrow(/TRUSTED_PROXIES[\s\S]*"everyone"/);
  });
});

/** Sign-ins that reach the stack as the README's proxy forwards them: from 127.0.0.1, with X-Forwarded-For. */
async function signIn(stack: LocalStack, forwardedFor: string, email: string, password: string): Promise<number> {
  const response = await fetch(`${stack.url}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: stack.config.anonKey, 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
    body: JSON.stringify({ email, password }),
  });
  await response.body?.cancel();
  return response.status;
}

async function confirmedAccount(stack: LocalStack, label: string) {
  const email = `${label}-${Date.now()}@example.test`;
  const password = 'a-right-password-1';
  const response = await fetch(`${stack.url}/auth/v1/admin/users`, {
    method: 'POST',
    headers: { apikey: stack.config.serviceRoleKey, authorization: `Bearer ${stack.config.serviceRoleKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, email_confirm: true }),
  });
  expect(response.status).toBe(200);
  return { email, password };
}

describe.each([
  { trusted: 'loopback', victimAfter: 200 },
  // Without the setting every visitor is the proxy: the attacker's failures lock the victim out.
  { trusted: '', victimAfter: 429 },
])('five wrong passwords from an attacker behind the proxy (TRUSTED_PROXIES="$trusted")', ({ trusted, victimAfter }) => {
  let stack: LocalStack & { stop(): Promise<void> };
  beforeAll(async () => {
    stack = await startStackOnPglite({ TRUSTED_PROXIES: trusted });
  });
  afterAll(() => stack?.stop());

  it(`leave the victim's own sign-in from elsewhere answering ${victimAfter}`, async () => {
    const victim = await confirmedAccount(stack, 'victim');
    for (let guess = 0; guess < 5; guess += 1) expect(await signIn(stack, '203.0.113.66', victim.email, `wrong-${guess}`)).toBe(400);
    expect(await signIn(stack, '203.0.113.66', victim.email, victim.password)).toBe(429);
    expect(await signIn(stack, '198.51.100.20', victim.email, victim.password)).toBe(victimAfter);
  });
});
