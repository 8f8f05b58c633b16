import type { Session } from '@supabase/supabase-js';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeOnEngines } from '../support/engines.ts';
import { type AuthHarness, authHarness, confirmedUser, SITE_URL, uniqueEmail } from './auth-harness.ts';

describeOnEngines('auth: sign-in, sessions and sign-out', (ctx) => {
  let harness: AuthHarness;
  let reuseHarness: AuthHarness;
  beforeAll(async () => {
    harness = await authHarness(ctx.db, { refreshTokenReuseIntervalSeconds: 0 });
    reuseHarness = await authHarness(ctx.db, { refreshTokenReuseIntervalSeconds: 60 });
  });

  const refresh = (refreshToken: string) =>
    harness.fetchFrom('refresh-test')(`${SITE_URL}/auth/v1/token?grant_type=refresh_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refresh_token: refreshToken }),
    });

  describe('signing in with a password', () => {
    it('answers a wrong password with 400 invalid_credentials', async () => {
      const { email } = await confirmedUser(harness);
      const { data, error } = await harness.client().auth.signInWithPassword({ email, password: 'not-the-password' });
      expect(data.session).toBeNull();
      expect(error).toMatchObject({ status: 400, code: 'invalid_credentials', message: 'Invalid login credentials' });
    });

    it('answers an unknown email exactly as a wrong password', async () => {
      const { error } = await harness.client().auth.signInWithPassword({ email: uniqueEmail('nobody'), password: 'whatever-1' });
      expect(error).toMatchObject({ status: 400, code: 'invalid_credentials', message: 'Invalid login credentials' });
    });

    it('gives token errors the OAuth error and error_description too', async () => {
      const response = await harness.fetchFrom('oauth-shape')(`${SITE_URL}/auth/v1/token?grant_type=password`, {
        method: 'POST',
        body: JSON.stringify({ email: uniqueEmail('nobody'), password: 'whatever-1' }),
      });
      expect(await response.json()).toEqual({
        code: 'invalid_credentials',
        error_code: 'invalid_credentials',
        msg: 'Invalid login credentials',
        error: 'invalid_grant',
        error_description: 'Invalid login credentials',
      });
    });

    it('matches the email whatever its case and records the sign-in time', async () => {
      const { email, password } = await confirmedUser(harness);
      const { data, error } = await harness.client().auth.signInWithPassword({ email: email.toUpperCase(), password });
      expect(error).toBeNull();
      expect(data.user!.email).toBe(email);
      expect(Date.parse(data.user!.last_sign_in_at!)).toBeGreaterThan(Date.now() - 60_000);
    });
  });

  describe('refresh tokens', () => {
    it('rotates the refresh token on every refresh and keeps the session', async () => {
      const { email, password } = await confirmedUser(harness);
      const client = harness.client();
      const { data: signedIn } = await client.auth.signInWithPassword({ email, password });
      const { data, error } = await client.auth.refreshSession();
      expect(error).toBeNull();
      expect(data.session!.refresh_token).not.toBe(signedIn.session!.refresh_token);
      const claims = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
      expect(claims(data.session!.access_token).session_id).toBe(claims(signedIn.session!.access_token).session_id);
      expect((await client.auth.getUser()).data.user!.email).toBe(email);
    });

    it('ends the whole session when a rotated refresh token is used again', async () => {
      const { email, password } = await confirmedUser(harness);
      const client = harness.client();
      const { data: signedIn } = await client.auth.signInWithPassword({ email, password });
      const stolen = signedIn.session!.refresh_token;
      const { data: refreshed } = await client.auth.refreshSession();
      const current = refreshed.session!;

      const reuse = await refresh(stolen);
      expect(reuse.status).toBe(400);
      expect(await reuse.json()).toMatchObject({
        code: 'refresh_token_already_used',
        msg: 'Invalid Refresh Token: Already Used',
        error: 'invalid_grant',
      });
      const afterReuse = await refresh(current.refresh_token);
      expect(afterReuse.status).toBe(400);
      expect(await afterReuse.json()).toMatchObject({ code: 'refresh_token_not_found' });
      const { data, error } = await harness.client().auth.getUser(current.access_token);
      expect(data.user).toBeNull();
      expect(error?.name).toBe('AuthSessionMissingError');
    });

    it('hands the current token to a client that refreshes with the previous one within the reuse interval', async () => {
      const { email, password } = await confirmedUser(reuseHarness);
      const client = reuseHarness.client();
      const { data: signedIn } = await client.auth.signInWithPassword({ email, password });
      const { data: refreshed } = await client.auth.refreshSession();
      const otherTab = reuseHarness.client();
      const { data, error } = await otherTab.auth.refreshSession({ refresh_token: signedIn.session!.refresh_token });
      expect(error).toBeNull();
      expect(data.session!.refresh_token).toBe(refreshed.session!.refresh_token);
    });

    it('answers an unknown refresh token with refresh_token_not_found', async () => {
      const { error } = await harness.client().auth.refreshSession({ refresh_token: 'never-issued' });
      expect(error).toMatchObject({ status: 400, code: 'refresh_token_not_found' });
    });
  });

  describe('signing out', () => {
    async function threeSessions() {
      const { email, password } = await confirmedUser(harness);
      const clients = [harness.client(), harness.client(), harness.client()] as const;
      const sessions: Session[] = [];
      for (const client of clients) sessions.push((await client.auth.signInWithPassword({ email, password })).data.session!);
      return { clients, sessions: sessions as [Session, Session, Session] };
    }
    const stillSignedIn = async (session: { refresh_token: string }) => (await refresh(session.refresh_token)).status === 200;

    it('ends only the current session with scope local', async () => {
      const { clients, sessions } = await threeSessions();
      const { error } = await clients[0].auth.signOut({ scope: 'local' });
      expect(error).toBeNull();
      expect((await clients[0].auth.getSession()).data.session).toBeNull();
      expect(await stillSignedIn(sessions[0])).toBe(false);
      expect(await stillSignedIn(sessions[1])).toBe(true);
      expect(await stillSignedIn(sessions[2])).toBe(true);
    });

    it('ends every other session with scope others and keeps the current one', async () => {
      const { clients, sessions } = await threeSessions();
      expect((await clients[0].auth.signOut({ scope: 'others' })).error).toBeNull();
      expect((await clients[0].auth.getUser()).data.user).not.toBeNull();
      expect(await stillSignedIn(sessions[1])).toBe(false);
      expect(await stillSignedIn(sessions[2])).toBe(false);
    });

    it('ends every session of the user with scope global', async () => {
      const { clients, sessions } = await threeSessions();
      expect((await clients[1].auth.signOut({ scope: 'global' })).error).toBeNull();
      for (const session of sessions) expect(await stillSignedIn(session)).toBe(false);
      const { error } = await harness.client().auth.getUser(sessions[0].access_token);
      expect(error?.name).toBe('AuthSessionMissingError');
    });

    it('answers POST /logout with 204 and no body', async () => {
      const { email, password } = await confirmedUser(harness);
      const { data } = await harness.client().auth.signInWithPassword({ email, password });
      const response = await harness.fetchFrom('logout')(`${SITE_URL}/auth/v1/logout?scope=local`, {
        method: 'POST',
        headers: { authorization: `Bearer ${data.session!.access_token}` },
      });
      expect(response.status).toBe(204);
      expect(await response.text()).toBe('');
    });

    it('rejects an unknown scope with validation_failed', async () => {
      const { email, password } = await confirmedUser(harness);
      const { data } = await harness.client().auth.signInWithPassword({ email, password });
      const response = await harness.fetchFrom('logout')(`${SITE_URL}/auth/v1/logout?scope=everything`, {
        method: 'POST',
        headers: { authorization: `Bearer ${data.session!.access_token}` },
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ code: 'validation_failed' });
      expect(await stillSignedIn(data.session!)).toBe(true);
    });
  });

  describe('GET /user', () => {
    it('answers without a token with 401 no_authorization', async () => {
      const response = await harness.fetchFrom('user')(`${SITE_URL}/auth/v1/user`);
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ code: 'no_authorization' });
    });

    it('answers a forged or anonymous token with 403 bad_jwt', async () => {
      const { email, password } = await confirmedUser(harness);
      const { data } = await harness.client().auth.signInWithPassword({ email, password });
      const [header, payload] = data.session!.access_token.split('.');
      const forged = `${header}.${payload}.${'A'.repeat(43)}`;
      const forgedAnswer = await harness.client().auth.getUser(forged);
      expect(forgedAnswer.error).toMatchObject({ status: 403, code: 'bad_jwt' });
      const anonAnswer = await harness.client().auth.getUser(harness.config.anonKey);
      expect(anonAnswer.error).toMatchObject({ status: 403, code: 'bad_jwt' });
    });
  });
});
