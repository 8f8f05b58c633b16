import { createHash, randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeOnEngines } from '../support/engines.ts';
import { type AuthHarness, authHarness, confirmedUser, fragmentOf, SITE_URL, uniqueEmail } from './auth-harness.ts';

describeOnEngines('auth: account changes and password recovery', (ctx) => {
  let harness: AuthHarness;
  beforeAll(async () => {
    harness = await authHarness(ctx.db);
  });

  async function signedIn(options: { data?: Record<string, unknown>; flowType?: 'implicit' | 'pkce' } = {}) {
    const user = await confirmedUser(harness, { data: options.data });
    const client = harness.client({ flowType: options.flowType });
    const { data, error } = await client.auth.signInWithPassword({ email: user.email, password: user.password });
    expect(error).toBeNull();
    return { ...user, client, session: data.session! };
  }

  const profileOf = async (userId: string) =>
    (await ctx.db.query<{ full_name: string | null }>('select full_name from public.profiles where user_id = $1', [userId])).rows[0];

  describe('updateUser', () => {
    it('changes the password, signs out the other sessions and keeps the current one', async () => {
      const { email, password, client } = await signedIn();
      const otherDevice = harness.client();
      await otherDevice.auth.signInWithPassword({ email, password });

      const { data, error } = await client.auth.updateUser({ password: 'brand-new-pass', current_password: password });
      expect(error).toBeNull();
      expect(data.user!.email).toBe(email);
      expect((await client.auth.refreshSession()).error).toBeNull();
      expect((await otherDevice.auth.refreshSession()).error).toMatchObject({ code: 'refresh_token_not_found' });
      expect((await harness.client().auth.signInWithPassword({ email, password })).error?.code).toBe('invalid_credentials');
      expect((await harness.client().auth.signInWithPassword({ email, password: 'brand-new-pass' })).error).toBeNull();
    });

    it('rejects a short new password with weak_password and keeps the old one', async () => {
      const { email, password, client } = await signedIn();
      const { error } = await client.auth.updateUser({ password: 'abc' });
      expect(error).toMatchObject({ name: 'AuthWeakPasswordError', status: 422, code: 'weak_password', reasons: ['length'] });
      expect((await harness.client().auth.signInWithPassword({ email, password })).error).toBeNull();
    });

    it('rejects the current password as the new one with same_password', async () => {
      const { password, client } = await signedIn();
      const { error } = await client.auth.updateUser({ password, current_password: password });
      expect(error).toMatchObject({
        status: 422,
        code: 'same_password',
        message: 'New password should be different from the old password.',
      });
    });

    it('merges metadata, removes keys set to null and updates the profile name', async () => {
      const { id, client } = await signedIn({ data: { first_name: 'Ada', last_name: 'Byron', plan: 'free' } });
      expect((await profileOf(id))?.full_name).toBe('Ada Byron');
      const { data, error } = await client.auth.updateUser({ data: { full_name: 'Ada Lovelace', plan: null } });
      expect(error).toBeNull();
      expect(data.user!.user_metadata).toEqual({ first_name: 'Ada', last_name: 'Byron', full_name: 'Ada Lovelace' });
      expect((await profileOf(id))?.full_name).toBe('Ada Lovelace');
    });

    it('changes the email only once the link sent to the new address is followed', async () => {
      const { email, password, id, client } = await signedIn();
      const newEmail = uniqueEmail('moved');
      const { data, error } = await client.auth.updateUser(
        { email: newEmail, current_password: password },
        { emailRedirectTo: `${SITE_URL}/profile` },
      );
      expect(error).toBeNull();
      expect(data.user).toMatchObject({ email, new_email: newEmail });
      expect(harness.mailer.latestTo(newEmail)!.subject).toMatch(/Confirm your new email address/);
      expect((await harness.client().auth.signInWithPassword({ email, password })).error).toBeNull();

      const landing = await harness.follow(harness.linkTo(newEmail));
      expect(landing.pathname).toBe('/profile');
      expect(fragmentOf(landing).get('type')).toBe('email_change');
      const { data: after } = await harness.client().auth.signInWithPassword({ email: newEmail, password });
      expect(after.user).toMatchObject({ id, email: newEmail });
      expect(after.user!.new_email).toBeUndefined();
      expect(after.user!.identities!.find((identity) => identity.provider === 'email')!.identity_data).toMatchObject({
        email: newEmail,
        email_verified: true,
      });
      expect((await harness.client().auth.signInWithPassword({ email, password })).error?.code).toBe('invalid_credentials');
    });

    it('confirms an email change through ?code= in the PKCE flow', async () => {
      // auth-js drops its code verifier when updateUser saves the session, so this exchange is done by hand.
      const { id, password, session } = await signedIn();
      const newEmail = uniqueEmail('pkce-moved');
      const verifier = randomBytes(32).toString('base64url');
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      const fetchAuth = harness.fetchFrom('pkce-email-change');
      const update = await fetchAuth(`${SITE_URL}/auth/v1/user`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${session.access_token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ email: newEmail, current_password: password, code_challenge: challenge, code_challenge_method: 's256' }),
      });
      expect(update.status).toBe(200);
      const code = (await harness.follow(harness.linkTo(newEmail))).searchParams.get('code')!;
      const exchange = await fetchAuth(`${SITE_URL}/auth/v1/token?grant_type=pkce`, {
        method: 'POST',
        body: JSON.stringify({ auth_code: code, code_verifier: verifier }),
      });
      expect(exchange.status).toBe(200);
      expect((await exchange.json()).user).toMatchObject({ id, email: newEmail });
    });

    it('answers a change to another account\u2019s address as to a free one, and tells that account\u2019s owner instead of sending a link', async () => {
      const other = await confirmedUser(harness);
      const { id, password, client } = await signedIn();
      const { data, error } = await client.auth.updateUser({ email: other.email, current_password: password });
      expect(error).toBeNull();
      expect(data.user).toMatchObject({ id, new_email: other.email });
      const notice = harness.mailer.latestTo(other.email)!;
      expect(notice.subject).toBe('Obyect: Someone asked to move an account to this address');
      expect(notice.links).toEqual([`${SITE_URL}/auth/signin`, `${SITE_URL}/auth/forgot-password`]);
    });
  });

  describe('password recovery', () => {
    it('sends a link that lands with a recovery session, which sets a new password', async () => {
      const { email, password } = await confirmedUser(harness);
      const client = harness.client();
      const { error } = await client.auth.resetPasswordForEmail(email, { redirectTo: `${SITE_URL}/auth/reset-password` });
      expect(error).toBeNull();
      const landing = await harness.follow(harness.linkTo(email));
      expect(landing.pathname).toBe('/auth/reset-password');
      const fragment = fragmentOf(landing);
      expect(fragment.get('type')).toBe('recovery');

      expect(
        (await client.auth.setSession({ access_token: fragment.get('access_token')!, refresh_token: fragment.get('refresh_token')! }))
          .error,
      ).toBeNull();
      expect((await client.auth.updateUser({ password: 'recovered-pass' })).error).toBeNull();
      expect((await harness.client().auth.signInWithPassword({ email, password: 'recovered-pass' })).error).toBeNull();
      expect((await harness.client().auth.signInWithPassword({ email, password })).error?.code).toBe('invalid_credentials');
    });

    it('lands with ?code= in the PKCE flow and the exchange says it is a recovery', async () => {
      const { email } = await confirmedUser(harness);
      const client = harness.client({ flowType: 'pkce' });
      const events: string[] = [];
      client.auth.onAuthStateChange((event) => {
        events.push(event);
      });
      await client.auth.resetPasswordForEmail(email, { redirectTo: `${SITE_URL}/auth/reset-password` });
      const landing = await harness.follow(harness.linkTo(email));
      expect(landing.pathname).toBe('/auth/reset-password');
      const { data, error } = await client.auth.exchangeCodeForSession(landing.searchParams.get('code')!);
      expect(error).toBeNull();
      expect((data as { redirectType?: string | null }).redirectType).toBe('recovery');
      expect(events).toContain('PASSWORD_RECOVERY');
      expect((await client.auth.updateUser({ password: 'pkce-recovered' })).error).toBeNull();
      expect((await harness.client().auth.signInWithPassword({ email, password: 'pkce-recovered' })).error).toBeNull();
    });

    it('answers the same for an unknown email and sends nothing', async () => {
      const { email } = await confirmedUser(harness);
      const ask = (address: string) =>
        harness.fetchFrom('recover')(`${SITE_URL}/auth/v1/recover`, { method: 'POST', body: JSON.stringify({ email: address }) });
      const known = await ask(email);
      const unknownEmail = uniqueEmail('nobody');
      const unknown = await ask(unknownEmail);
      expect(unknown.status).toBe(known.status);
      expect(await unknown.json()).toEqual(await known.json());
      expect(harness.mailer.latestTo(unknownEmail)).toBeUndefined();
      expect(harness.mailer.latestTo(email)!.subject).toMatch(/Reset your password/);
    });

    it('makes a recovery link unusable once the password was changed', async () => {
      const { email, password, client } = await signedIn();
      await harness.client().auth.resetPasswordForEmail(email);
      const link = harness.linkTo(email);
      expect((await client.auth.updateUser({ password: 'changed-meanwhile', current_password: password })).error).toBeNull();
      expect(fragmentOf(await harness.follow(link)).get('error_code')).toBe('otp_expired');
    });

    it('rejects a recovery request without an email', async () => {
      const response = await harness.fetchFrom('recover')(`${SITE_URL}/auth/v1/recover`, { method: 'POST', body: '{}' });
      expect(response.status).toBe(422);
      expect(await response.json()).toMatchObject({ code: 'validation_failed', msg: 'Password recovery requires an email' });
    });
  });

  describe('magic links', () => {
    it('signs an existing user in through a magic link', async () => {
      const { email, id } = await confirmedUser(harness);
      const client = harness.client();
      expect((await client.auth.signInWithOtp({ email, options: { shouldCreateUser: false } })).error).toBeNull();
      const landing = await harness.follow(harness.linkTo(email));
      expect(fragmentOf(landing).get('type')).toBe('magiclink');
      const { data } = await client.auth.setSession({
        access_token: fragmentOf(landing).get('access_token')!,
        refresh_token: fragmentOf(landing).get('refresh_token')!,
      });
      expect(data.user!.id).toBe(id);
    });

    it('does not create an account when shouldCreateUser is false, and answers as for a known address', async () => {
      const email = uniqueEmail('otp');
      const { error } = await harness.client().auth.signInWithOtp({ email, options: { shouldCreateUser: false } });
      expect(error).toBeNull();
      expect((await ctx.db.query('select 1 from auth.users where email = $1', [email])).rows).toHaveLength(0);
      expect(harness.mailer.latestTo(email)).toBeUndefined();
    });
  });
});
