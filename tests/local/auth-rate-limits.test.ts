import { beforeAll, describe, expect, it } from 'vitest';
import { rateLimitsFromEnv } from '../../local/auth/rate-limits.ts';
import { describeOnEngines } from '../support/engines.ts';
import { type AuthHarness, authHarness, confirmedUser, SITE_URL, uniqueAddress, uniqueEmail } from './auth-harness.ts';

describeOnEngines('auth: rate limits per account and client address', (ctx) => {
  let harness: AuthHarness;
  beforeAll(async () => {
    harness = await authHarness(ctx.db, {
      rateLimits: {
        signInFailures: { max: 300, windowSeconds: 3600 },
        accountSignInFailures: { max: 5, windowSeconds: 60 },
        signUps: { max: 2, windowSeconds: 3600 },
        emailRequests: { max: 2, windowSeconds: 3600 },
      },
    });
  });

  it('backs off an account after 5 failed sign-ins from an address, even with the right password there, but not from elsewhere', async () => {
    const { email, password } = await confirmedUser(harness);
    const client = harness.client({ address: '203.0.113.7' });
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      const { error } = await client.auth.signInWithPassword({ email, password: `wrong-${attempt}` });
      expect(error?.code).toBe('invalid_credentials');
    }
    const { data, error } = await client.auth.signInWithPassword({ email, password });
    expect(data.session).toBeNull();
    expect(error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
    expect(error!.message).toMatch(/^Too many failed sign-in attempts\. Please try again in \d+ (seconds|minutes)\.$/);

    const elsewhere = await harness.client({ address: '203.0.113.8' }).auth.signInWithPassword({ email, password });
    expect(elsewhere.error).toBeNull();
  });

  it('does not count successful sign-ins and tells when to retry', async () => {
    const { email, password } = await confirmedUser(harness);
    const address = uniqueAddress();
    const client = harness.client({ address });
    for (let attempt = 0; attempt < 8; attempt += 1) {
      expect((await client.auth.signInWithPassword({ email, password })).error).toBeNull();
    }
    for (let attempt = 0; attempt < 5; attempt += 1) await client.auth.signInWithPassword({ email, password: 'wrong-pass' });
    const response = await harness.fetchFrom(address)(`${SITE_URL}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      body: JSON.stringify({ email, password }),
    });
    expect(response.status).toBe(429);
    expect(Number(response.headers.get('retry-after'))).toBe(60);
  });

  it('ignores X-Forwarded-For, which any client can set', async () => {
    const { email, password } = await confirmedUser(harness);
    const address = uniqueAddress();
    const attempt = (forwardedFor: string, tryPassword: string) =>
      harness.fetchFrom(address)(`${SITE_URL}/auth/v1/token?grant_type=password`, {
        method: 'POST',
        headers: { 'x-forwarded-for': forwardedFor },
        body: JSON.stringify({ email, password: tryPassword }),
      });
    for (let i = 0; i < 5; i += 1) expect((await attempt(`10.0.0.${i}`, 'wrong-pass')).status).toBe(400);
    expect((await attempt('10.0.0.99', password)).status).toBe(429);
  });

  it('limits sign-ups from one address', async () => {
    const client = harness.client({ address: uniqueAddress() });
    for (let i = 0; i < 2; i += 1) {
      expect((await client.auth.signUp({ email: uniqueEmail('burst'), password: 'secret-123' })).error).toBeNull();
    }
    const email = uniqueEmail('burst');
    const { error } = await client.auth.signUp({ email, password: 'secret-123' });
    expect(error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
    expect(error!.message).toMatch(/^Too many sign-up attempts/);
    expect((await ctx.db.query('select 1 from auth.users where email = $1', [email])).rows).toHaveLength(0);
  });

  it('limits password-recovery emails from one address, for known and unknown emails alike', async () => {
    const { email } = await confirmedUser(harness);
    const client = harness.client({ address: uniqueAddress() });
    expect((await client.auth.resetPasswordForEmail(email)).error).toBeNull();
    expect((await client.auth.resetPasswordForEmail(uniqueEmail('nobody'))).error).toBeNull();
    const sentBefore = harness.mailer.list().length;
    const { error } = await client.auth.resetPasswordForEmail(email);
    expect(error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' });
    expect(error!.message).toMatch(/^Too many emails requested/);
    expect(harness.mailer.list().length).toBe(sentBefore);
  });
});

describe('auth: rate limits from the environment', () => {
  it('reads AUTH_RATE_LIMIT_* as <max>/<window seconds>', () => {
    expect(
      rateLimitsFromEnv({
        AUTH_RATE_LIMIT_SIGN_UPS: '500/3600',
        AUTH_RATE_LIMIT_SIGN_IN_FAILURES: ' 10 / 60 ',
        AUTH_RATE_LIMIT_ACCOUNT_SIGN_IN_FAILURES: '3/30',
        AUTH_RATE_LIMIT_EMAILS_PER_ADDRESS: '2/60',
      }),
    ).toEqual({
      signUps: { max: 500, windowSeconds: 3600 },
      signInFailures: { max: 10, windowSeconds: 60 },
      accountSignInFailures: { max: 3, windowSeconds: 30 },
      emailsPerAddress: { max: 2, windowSeconds: 60 },
    });
  });

  it('refuses a value it cannot read, naming the variable', () => {
    expect(() => rateLimitsFromEnv({ AUTH_RATE_LIMIT_EMAILS: 'lots' })).toThrow(/AUTH_RATE_LIMIT_EMAILS must be <max>\/<window seconds>/);
  });
});
