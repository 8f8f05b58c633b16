import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_AUTH_RATE_LIMITS } from '../../local/auth/rate-limits.ts';
import { describeOnEngines } from '../support/engines.ts';
import { type AuthHarness, authHarness, confirmedUser, fragmentOf, SITE_URL, uniqueAddress, uniqueEmail } from './auth-harness.ts';

/** The JSON's shape: every value replaced by its type, so two answers compare without their ids and times. */
function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shapeOf);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)).map(([key, inner]) => [key, shapeOf(inner)]));
  }
  return typeof value;
}

/** Status, shape and the time an auth/v1 request took. */
async function answer(harness: AuthHarness, path: string, init: RequestInit & { address?: string } = {}) {
  const started = performance.now();
  const response = await harness.fetchFrom(init.address ?? uniqueAddress())(`${SITE_URL}/auth/v1${path}`, init);
  const text = await response.text();
  return { status: response.status, shape: shapeOf(text ? JSON.parse(text) : null), ms: performance.now() - started };
}

const post = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

describeOnEngines('auth: holding up under abuse', (ctx) => {
  describe('failed sign-ins back off the account, never the other people of the address', () => {
    let harness: AuthHarness;
    let now = Date.now();
    beforeAll(async () => {
      harness = await authHarness(ctx.db, {
        clock: () => now,
        rateLimits: {
          signInFailures: DEFAULT_AUTH_RATE_LIMITS.signInFailures,
          accountSignInFailures: { max: 5, windowSeconds: 60 },
          accountSignInFailuresEverywhere: { max: 20, windowSeconds: 60 },
        },
      });
    });

    const signIn = (address: string, email: string, password: string) =>
      harness.fetchFrom(address)(`${SITE_URL}/auth/v1/token?grant_type=password`, post({ email, password }));

    it('lets another user sign in correctly from an address after an abuser’s 100 failed sign-ins from it', async () => {
      const shared = uniqueAddress();
      const colleague = await confirmedUser(harness);
      const victims = [await confirmedUser(harness), await confirmedUser(harness)];
      const targets = [...victims.map((victim) => victim.email), ...Array.from({ length: 23 }, () => uniqueEmail('guess'))];
      const statuses: number[] = [];
      for (const target of targets) {
        for (let guess = 0; guess < 4; guess += 1) statuses.push((await signIn(shared, target, `guess-${guess}`)).status);
      }
      expect(statuses).toHaveLength(100);
      expect(statuses.every((status) => status === 400)).toBe(true);

      const response = await signIn(shared, colleague.email, colleague.password);
      expect(response.status).toBe(200);
      expect((await response.json()).user.email).toBe(colleague.email);
      // The attacked accounts still sign in from the same address with their passwords, too.
      expect((await signIn(shared, victims[0]!.email, victims[0]!.password)).status).toBe(200);
    }, 180_000);

    it('answers the attacked account with 429 and Retry-After, doubles the wait, and lets it in again once the wait is over', async () => {
      const { email, password } = await confirmedUser(harness);
      const attacker = uniqueAddress();
      for (let guess = 0; guess < 5; guess += 1) expect((await signIn(attacker, email, `guess-${guess}`)).status).toBe(400);

      const refused = await signIn(attacker, email, password);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('60');
      expect(await refused.json()).toEqual({
        code: 'over_request_rate_limit',
        error_code: 'over_request_rate_limit',
        msg: 'Too many failed sign-in attempts. Please try again in 60 seconds.',
        error: 'slow_down',
        error_description: 'Too many failed sign-in attempts. Please try again in 60 seconds.',
      });

      now += 61_000;
      expect((await signIn(attacker, email, 'guess-again')).status).toBe(400);
      const doubled = await signIn(attacker, email, password);
      expect(doubled.status).toBe(429);
      expect(doubled.headers.get('retry-after')).toBe('120');

      now += 121_000;
      expect((await signIn(attacker, email, password)).status).toBe(200);
      // The right password forgave the failures: the next wrong one is free again.
      expect((await signIn(attacker, email, 'one-more-guess')).status).toBe(400);
      expect((await signIn(attacker, email, password)).status).toBe(200);
    }, 120_000);

    it('backs off an account everywhere after 20 failures from many addresses, except where it has a session', async () => {
      const { email, password } = await confirmedUser(harness);
      const home = uniqueAddress();
      expect((await signIn(home, email, password)).status).toBe(200);
      for (let attacker = 0; attacker < 5; attacker += 1) {
        const address = uniqueAddress();
        for (let guess = 0; guess < 4; guess += 1) expect((await signIn(address, email, `guess-${guess}`)).status).toBe(400);
      }
      const stranger = await signIn(uniqueAddress(), email, password);
      expect(stranger.status).toBe(429);
      expect(Number(stranger.headers.get('retry-after'))).toBe(60);
      expect((await signIn(home, email, password)).status).toBe(200);
      now += 61_000;
      expect((await signIn(uniqueAddress(), email, password)).status).toBe(200);
    }, 120_000);

    it('backs off an unknown email exactly as a known one', async () => {
      const attacker = uniqueAddress();
      const known = await confirmedUser(harness);
      const unknown = uniqueEmail('nobody');
      for (let guess = 0; guess < 5; guess += 1) {
        const [a, b] = [await signIn(attacker, known.email, `guess-${guess}`), await signIn(attacker, unknown, `guess-${guess}`)];
        expect([a.status, b.status]).toEqual([400, 400]);
        expect(await a.json()).toEqual(await b.json());
      }
      const [a, b] = [await signIn(attacker, known.email, 'guess'), await signIn(attacker, unknown, 'guess')];
      expect([a.status, b.status]).toEqual([429, 429]);
      expect(await a.json()).toEqual(await b.json());
    });
  });

  describe('the same answer for known and unknown email addresses', () => {
    let harness: AuthHarness;
    beforeAll(async () => {
      harness = await authHarness(ctx.db);
    });

    it('answers sign-up with a known address as with a new one, taking as long, and emails the owner that the account exists', async () => {
      const known = await confirmedUser(harness);
      const knownAnswers = [];
      const unknownAnswers = [];
      for (let round = 0; round < 3; round += 1) {
        knownAnswers.push(await answer(harness, '/signup', post({ email: known.email, password: 'another-pass', data: { first_name: 'Eve' } })));
        const fresh = uniqueEmail('fresh');
        unknownAnswers.push(await answer(harness, '/signup', post({ email: fresh, password: 'another-pass', data: { first_name: 'Eve' } })));
      }
      for (let round = 0; round < 3; round += 1) {
        expect(knownAnswers[round]!.status).toBe(200);
        expect(knownAnswers[round]!.status).toBe(unknownAnswers[round]!.status);
        expect(knownAnswers[round]!.shape).toEqual(unknownAnswers[round]!.shape);
      }
      // Both hash the password: without that, the known address answers several times faster.
      const [knownMs, unknownMs] = [median(knownAnswers.map((a) => a.ms)), median(unknownAnswers.map((a) => a.ms))];
      expect(Math.max(knownMs, unknownMs) / Math.min(knownMs, unknownMs)).toBeLessThan(3);

      const notice = harness.mailer.latestTo(known.email)!;
      expect(notice.subject).toBe('Obyect: You already have an account');
      expect(notice.text).toContain(`Sign in: ${SITE_URL}/auth/signin`);
      expect(notice.text).toContain(`Reset your password: ${SITE_URL}/auth/forgot-password`);
      expect((await harness.client().auth.signInWithPassword({ email: known.email, password: known.password })).error).toBeNull();
    });

    it('answers a magic-link request (OTP) for a known and an unknown address alike, with or without creating accounts', async () => {
      const known = await confirmedUser(harness);
      for (const createUser of [false, true]) {
        const a = await answer(harness, '/otp', post({ email: known.email, create_user: createUser }));
        const b = await answer(harness, '/otp', post({ email: uniqueEmail('otp'), create_user: createUser }));
        expect(a).toMatchObject({ status: 200, shape: {} });
        expect(b).toMatchObject({ status: 200, shape: {} });
      }
    });

    it('answers password recovery for a known and an unknown address alike', async () => {
      const known = await confirmedUser(harness);
      const a = await answer(harness, '/recover', post({ email: known.email }));
      const b = await answer(harness, '/recover', post({ email: uniqueEmail('nobody') }));
      expect(a).toMatchObject({ status: 200, shape: {} });
      expect(b).toMatchObject({ status: 200, shape: {} });
      expect(harness.mailer.latestTo(known.email)!.subject).toMatch(/Reset your password/);
    });

    it('answers an email change to another account’s address as to a free one', async () => {
      const other = await confirmedUser(harness);
      const { email, password } = await confirmedUser(harness);
      const { data } = await harness.client().auth.signInWithPassword({ email, password });
      const change = (newEmail: string) =>
        answer(harness, '/user', {
          method: 'PUT',
          headers: { authorization: `Bearer ${data.session!.access_token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ email: newEmail, current_password: password }),
        });
      const taken = await change(other.email);
      const free = await change(uniqueEmail('free'));
      expect(taken.status).toBe(200);
      expect(taken.status).toBe(free.status);
      expect(taken.shape).toEqual(free.shape);
      expect(harness.mailer.latestTo(other.email)!.subject).toBe('Obyect: Someone asked to move an account to this address');
    });

    it('limits emails to one address to one a minute, for known and unknown addresses alike', async () => {
      const limited = await authHarness(ctx.db, { rateLimits: { emailsPerAddress: { max: 1, windowSeconds: 60 } } });
      const known = await confirmedUser(harness);
      const unknown = uniqueEmail('nobody');
      for (const email of [known.email, unknown]) {
        expect((await answer(limited, '/recover', post({ email }))).status).toBe(200);
        const again = await limited.fetchFrom(uniqueAddress())(`${SITE_URL}/auth/v1/recover`, post({ email }));
        expect(again.status).toBe(429);
        expect(again.headers.get('retry-after')).toBe('60');
        expect(await again.json()).toMatchObject({ code: 'over_email_send_rate_limit' });
      }
    });
  });

  describe('a new password or email needs the current password or a fresh authentication', () => {
    let harness: AuthHarness;
    beforeAll(async () => {
      harness = await authHarness(ctx.db, { rateLimits: { accountSignInFailures: { max: 3, windowSeconds: 60 } } });
    });

    async function signedIn() {
      const user = await confirmedUser(harness);
      const client = harness.client();
      expect((await client.auth.signInWithPassword({ email: user.email, password: user.password })).error).toBeNull();
      return { ...user, client };
    }

    it('refuses a password change without the current password, or with a wrong one, and accepts it with the right one', async () => {
      const { email, password, client } = await signedIn();
      expect((await client.auth.updateUser({ password: 'stolen-session-pass' })).error).toMatchObject({
        status: 400,
        code: 'current_password_required',
        message: 'Current password required when setting a new password.',
      });
      expect((await client.auth.updateUser({ password: 'stolen-session-pass', current_password: 'a-guess' })).error).toMatchObject({
        status: 400,
        code: 'current_password_invalid',
      });
      expect((await harness.client().auth.signInWithPassword({ email, password })).error).toBeNull();
      expect((await client.auth.updateUser({ password: 'owner-new-pass', current_password: password })).error).toBeNull();
      expect((await harness.client().auth.signInWithPassword({ email, password: 'owner-new-pass' })).error).toBeNull();
    });

    it('refuses an email change without the current password and accepts it with it', async () => {
      const { id, password, client } = await signedIn();
      const newEmail = uniqueEmail('moved');
      expect((await client.auth.updateUser({ email: newEmail })).error).toMatchObject({ status: 400, code: 'current_password_required' });
      expect(harness.mailer.latestTo(newEmail)).toBeUndefined();
      const { data, error } = await client.auth.updateUser({ email: newEmail, current_password: password });
      expect(error).toBeNull();
      expect(data.user).toMatchObject({ id, new_email: newEmail });
      expect(harness.mailer.latestTo(newEmail)!.subject).toMatch(/Confirm your new email address/);
    });

    it('counts wrong current passwords against the account, so a stolen session cannot guess the password', async () => {
      const { password, client } = await signedIn();
      for (let guess = 0; guess < 3; guess += 1) {
        expect((await client.auth.updateUser({ password: 'guessed-pass', current_password: `guess-${guess}` })).error?.code).toBe(
          'current_password_invalid',
        );
      }
      expect((await client.auth.updateUser({ password: 'guessed-pass', current_password: password })).error).toMatchObject({
        status: 429,
        code: 'over_request_rate_limit',
      });
    });

    it('accepts the nonce emailed by reauthenticate instead of the current password, once', async () => {
      const { email, client } = await signedIn();
      expect((await client.auth.reauthenticate()).error).toBeNull();
      const nonce = /\b(\d{6})\b/.exec(harness.mailer.latestTo(email)!.text)![1]!;
      expect((await client.auth.updateUser({ password: 'nonce-new-pass', nonce: '000000' === nonce ? '111111' : '000000' })).error).toMatchObject({
        code: 'reauthentication_not_valid',
      });
      expect((await client.auth.updateUser({ password: 'nonce-new-pass', nonce })).error).toBeNull();
      expect((await client.auth.updateUser({ password: 'nonce-newer-pass', nonce })).error?.code).toBe('reauthentication_not_valid');
    });

    it('still resets a forgotten password from the recovery link without the current password', async () => {
      const { email, password } = await confirmedUser(harness);
      const client = harness.client();
      await client.auth.resetPasswordForEmail(email, { redirectTo: `${SITE_URL}/auth/reset-password` });
      const fragment = fragmentOf(await harness.follow(harness.linkTo(email)));
      await client.auth.setSession({ access_token: fragment.get('access_token')!, refresh_token: fragment.get('refresh_token')! });
      expect((await client.auth.updateUser({ password: 'recovered-pass' })).error).toBeNull();
      expect((await harness.client().auth.signInWithPassword({ email, password: 'recovered-pass' })).error).toBeNull();
      expect((await harness.client().auth.signInWithPassword({ email, password })).error?.code).toBe('invalid_credentials');
    });
  });

  describe('look-alike email addresses', () => {
    let harness: AuthHarness;
    beforeAll(async () => {
      harness = await authHarness(ctx.db);
    });

    it.each([
      ['a Cyrillic letter among Latin ones in the name', 'p\u0430ypal-support@example.com'],
      ['a Cyrillic letter in a Latin domain', 'billing@p\u0430ypal.com'],
      ['the same, written as punycode', 'billing@xn--pypal-4ve.com'],
      ['a Cyrillic domain that only looks Latin', 'ceo@\u0430\u0440\u0440\u04cf\u0435.com'],
      ['an invisible character', 'ad\u200bmin@obyect.local'],
      ['full-width letters', 'admin@\uff4fbyect.local'],
    ])('refuses sign-up with %s', async (_, email) => {
      const response = await harness.fetchFrom(uniqueAddress())(`${SITE_URL}/auth/v1/signup`, post({ email, password: 'secret-123' }));
      expect(response.status).toBe(400);
      const body = await response.json();
      expect(body).toMatchObject({ code: 'email_address_invalid', msg: expect.stringMatching(/^This email address could pass for another one: /) });
      expect((await ctx.db.query('select 1 from auth.users where email = $1', [email.toLowerCase()])).rows).toHaveLength(0);
    });

    it('accepts addresses written in one script, internationalised domains included', async () => {
      for (const email of [uniqueEmail('plain'), `ivan-${Date.now()}@\u043f\u0440\u0438\u043c\u0435\u0440.\u0440\u0444`, `jose-${Date.now()}@m\u00fcnchen.de`]) {
        const { error } = await harness.client().auth.signUp({ email, password: 'secret-123' });
        expect(error).toBeNull();
      }
    });
  });
});

describe('auth: default limits follow Supabase Auth', () => {
  it('refreshes 150 tokens and checks 30 codes per 5 minutes from an address, and sends one email a minute to an address', () => {
    expect(DEFAULT_AUTH_RATE_LIMITS).toMatchObject({
      tokenRefreshes: { max: 150, windowSeconds: 300 },
      verifications: { max: 30, windowSeconds: 300 },
      signUps: { max: 30, windowSeconds: 300 },
      emailsPerAddress: { max: 1, windowSeconds: 60 },
      accountSignInFailures: { max: 5, windowSeconds: 60 },
    });
  });
});
