import { beforeAll, describe, expect, it } from 'vitest';
import { describeOnEngines } from '../support/engines.ts';
import { type AuthHarness, authHarness, confirmedUser, fragmentOf, SITE_URL, uniqueEmail } from './auth-harness.ts';

describeOnEngines('auth: sign-up and email confirmation', (ctx) => {
  let harness: AuthHarness;
  beforeAll(async () => {
    harness = await authHarness(ctx.db);
  });

  const profileName = async (userId: string) =>
    (await ctx.db.query<{ full_name: string | null }>('select full_name from public.profiles where user_id = $1', [userId])).rows[0]
      ?.full_name;

  describe('implicit flow', () => {
    it('answers sign-up with the user and no session, and emails a confirmation link', async () => {
      const email = uniqueEmail('Mixed.Case');
      const { data, error } = await harness.client().auth.signUp({
        email,
        password: 'secret-123',
        options: { data: { first_name: 'Ada', last_name: 'Lovelace' }, emailRedirectTo: `${SITE_URL}/auth/signin` },
      });
      expect(error).toBeNull();
      expect(data.session).toBeNull();
      expect(data.user).toMatchObject({
        email: email.toLowerCase(),
        aud: 'authenticated',
        role: 'authenticated',
        user_metadata: { first_name: 'Ada', last_name: 'Lovelace' },
        app_metadata: { provider: 'email', providers: ['email'] },
      });
      expect(data.user!.email_confirmed_at).toBeUndefined();
      expect(data.user!.identities).toHaveLength(1);

      const link = new URL(harness.linkTo(email));
      expect(link.origin + link.pathname).toBe(`${SITE_URL}/auth/v1/verify`);
      expect(link.searchParams.get('type')).toBe('signup');
      expect(link.searchParams.get('redirect_to')).toBe(`${SITE_URL}/auth/signin`);
      expect(harness.mailer.latestTo(email)!.text).toMatch(/Or enter this code: \d{6}/);
    });

    it('creates the profile with the full name from the sign-up metadata', async () => {
      const email = uniqueEmail();
      const { data } = await harness.client().auth.signUp({
        email,
        password: 'secret-123',
        options: { data: { first_name: 'Grace', last_name: 'Hopper' } },
      });
      expect(await profileName(data.user!.id)).toBe('Grace Hopper');
    });

    it('does not let an unconfirmed account sign in', async () => {
      const email = uniqueEmail();
      const client = harness.client();
      await client.auth.signUp({ email, password: 'secret-123' });
      const { data, error } = await client.auth.signInWithPassword({ email, password: 'secret-123' });
      expect(data.session).toBeNull();
      expect(error).toMatchObject({ status: 400, code: 'email_not_confirmed', message: 'Email not confirmed' });
    });

    it('lands the confirmation link on redirect_to with the session in the fragment', async () => {
      const email = uniqueEmail();
      const client = harness.client();
      const { data: signedUp } = await client.auth.signUp({
        email,
        password: 'secret-123',
        options: { emailRedirectTo: `${SITE_URL}/library`, data: { full_name: 'Katherine Johnson' } },
      });
      const landing = await harness.follow(harness.linkTo(email));
      expect(landing.origin + landing.pathname).toBe(`${SITE_URL}/library`);
      const fragment = fragmentOf(landing);
      expect(fragment.get('type')).toBe('signup');
      expect(fragment.get('token_type')).toBe('bearer');
      expect(Number(fragment.get('expires_in'))).toBe(harness.config.JWT_EXPIRY);
      expect(Number(fragment.get('expires_at'))).toBeGreaterThan(Date.now() / 1000);

      const { data, error } = await client.auth.setSession({
        access_token: fragment.get('access_token')!,
        refresh_token: fragment.get('refresh_token')!,
      });
      expect(error).toBeNull();
      expect(data.user!.id).toBe(signedUp.user!.id);
      expect(data.user!.email_confirmed_at).toBeTruthy();
      expect(data.user!.identities![0]!.identity_data).toMatchObject({ email, email_verified: true });
      expect(await profileName(signedUp.user!.id)).toBe('Katherine Johnson');

      const signedIn = await harness.client().auth.signInWithPassword({ email, password: 'secret-123' });
      expect(signedIn.error).toBeNull();
      expect(signedIn.data.session!.user.id).toBe(signedUp.user!.id);
    });

    it('issues access tokens with the claims Supabase Auth puts in them', async () => {
      const { email, password, id } = await confirmedUser(harness, { data: { full_name: 'Mary Jackson' } });
      const { data } = await harness.client().auth.signInWithPassword({ email, password });
      const session = data.session!;
      expect(session).toMatchObject({ token_type: 'bearer', expires_in: harness.config.JWT_EXPIRY });
      expect(session.expires_at).toBeGreaterThan(Date.now() / 1000);
      const claims = JSON.parse(Buffer.from(session.access_token.split('.')[1]!, 'base64url').toString());
      expect(claims).toMatchObject({
        aud: 'authenticated',
        iss: `${SITE_URL}/auth/v1`,
        sub: id,
        email,
        phone: '',
        role: 'authenticated',
        aal: 'aal1',
        app_metadata: { provider: 'email', providers: ['email'] },
        user_metadata: { full_name: 'Mary Jackson' },
        is_anonymous: false,
      });
      expect(claims.exp - claims.iat).toBe(harness.config.JWT_EXPIRY);
      expect(claims.amr).toEqual([{ method: 'password', timestamp: expect.any(Number) }]);
      expect(typeof claims.session_id).toBe('string');
    });

    it('sends the confirmation link to the site instead of a redirect_to on another origin', async () => {
      const email = uniqueEmail();
      await harness.client().auth.signUp({ email, password: 'secret-123', options: { emailRedirectTo: 'https://evil.example/steal' } });
      const link = new URL(harness.linkTo(email));
      expect(link.searchParams.get('redirect_to')).toBe(SITE_URL);
      const landing = await harness.follow(link.toString().replace(encodeURIComponent(SITE_URL), encodeURIComponent('https://evil.example/x')));
      expect(landing.origin).toBe(SITE_URL);
    });
  });

  describe('links back to the address the app was opened at', () => {
    it('returns to the loopback address the request came from (127.0.0.1 or localhost on the stack\'s port), never to another port', async () => {
      const email = uniqueEmail();
      const here = 'http://127.0.0.1:3000/auth/confirmed?next=%2Flibrary';
      await harness.client().auth.signUp({ email, password: 'secret-123', options: { emailRedirectTo: here } });
      const link = new URL(harness.linkTo(email));
      expect(link.searchParams.get('redirect_to')).toBe(here);
      const landing = await harness.follow(link.toString());
      expect(landing.origin + landing.pathname).toBe('http://127.0.0.1:3000/auth/confirmed');

      const other = uniqueEmail();
      await harness.client().auth.signUp({ email: other, password: 'secret-123', options: { emailRedirectTo: 'http://127.0.0.1:4000/library' } });
      expect(new URL(harness.linkTo(other)).searchParams.get('redirect_to')).toBe(SITE_URL);
    });
  });

  describe('a link whose token is no token of ours', () => {
    it('lands a NUL byte or an oversized token on the site as an expired link, never a 500', async () => {
      for (const token of ['%00', 'a'.repeat(600), 'pkce_%0A']) {
        const landing = await harness.follow(`${SITE_URL}/auth/v1/verify?type=signup&token=${token}&redirect_to=${encodeURIComponent(SITE_URL)}`);
        expect(fragmentOf(landing).get('error_code')).toBe('otp_expired');
      }
    });
  });

  describe('PKCE flow', () => {
    it('lands the confirmation link with ?code=, which the signing-up client exchanges for a session', async () => {
      const email = uniqueEmail();
      const client = harness.client({ flowType: 'pkce' });
      const { data: signedUp } = await client.auth.signUp({
        email,
        password: 'secret-123',
        options: { emailRedirectTo: `${SITE_URL}/library?tab=all`, data: { first_name: 'Dorothy', last_name: 'Vaughan' } },
      });
      expect(new URL(harness.linkTo(email)).searchParams.get('token')).toMatch(/^pkce_/);
      const landing = await harness.follow(harness.linkTo(email));
      expect(landing.hash).toBe('');
      expect(landing.searchParams.get('tab')).toBe('all');
      const code = landing.searchParams.get('code')!;
      expect(code).toBeTruthy();

      const { data, error } = await client.auth.exchangeCodeForSession(code);
      expect(error).toBeNull();
      expect(data.session!.user.id).toBe(signedUp.user!.id);
      expect(data.user!.email_confirmed_at).toBeTruthy();
      expect(await profileName(signedUp.user!.id)).toBe('Dorothy Vaughan');
    });

    it('exchanges an auth code once only', async () => {
      const email = uniqueEmail();
      const client = harness.client({ flowType: 'pkce' });
      await client.auth.signUp({ email, password: 'secret-123' });
      const code = (await harness.follow(harness.linkTo(email))).searchParams.get('code')!;
      const verifier = 'a'.repeat(43);
      const first = await harness.fetchFrom('pkce-test')(`${SITE_URL}/auth/v1/token?grant_type=pkce`, {
        method: 'POST',
        body: JSON.stringify({ auth_code: code, code_verifier: verifier }),
      });
      expect(first.status).toBe(403);
      expect(await first.json()).toMatchObject({ code: 'bad_code_verifier' });

      expect((await client.auth.exchangeCodeForSession(code)).error).toBeNull();
      const again = await harness.client({ flowType: 'pkce' }).auth.exchangeCodeForSession(code);
      expect(again.error).toBeTruthy();
    });
  });

  describe('links that no longer work', () => {
    it('redirects a used link with otp_expired in the fragment', async () => {
      const email = uniqueEmail();
      await harness.client().auth.signUp({ email, password: 'secret-123', options: { emailRedirectTo: `${SITE_URL}/welcome` } });
      const link = harness.linkTo(email);
      await harness.follow(link);
      const raw = await harness.fetchFrom('used-link')(link, { redirect: 'manual' });
      expect(raw.status).toBe(303);
      const again = await harness.follow(link);
      expect(again.origin + again.pathname).toBe(`${SITE_URL}/welcome`);
      expect(Object.fromEntries(fragmentOf(again))).toEqual({
        error: 'access_denied',
        error_code: 'otp_expired',
        error_description: 'Email link is invalid or has expired',
        sb: '',
      });
      expect(again.searchParams.get('error_code')).toBeNull();
    });

    it('redirects an expired PKCE link with the error in the query and the fragment', async () => {
      const email = uniqueEmail();
      await harness.client({ flowType: 'pkce' }).auth.signUp({ email, password: 'secret-123' });
      await ctx.db.query(
        `update auth.one_time_tokens set created_at = now() - interval '2 days'
          where user_id = (select id from auth.users where email = $1)`,
        [email],
      );
      const landing = await harness.follow(harness.linkTo(email));
      expect(landing.searchParams.get('error_code')).toBe('otp_expired');
      expect(landing.searchParams.get('code')).toBeNull();
      expect(fragmentOf(landing).get('error_description')).toBe('Email link is invalid or has expired');
      const { error } = await harness.client().auth.signInWithPassword({ email, password: 'secret-123' });
      expect(error?.code).toBe('email_not_confirmed');
    });

    it('stops an earlier confirmation link from working once a new one was sent', async () => {
      const email = uniqueEmail();
      const client = harness.client();
      await client.auth.signUp({ email, password: 'secret-123' });
      const first = harness.linkTo(email);
      await client.auth.resend({ type: 'signup', email });
      const second = harness.linkTo(email);
      expect(second).not.toBe(first);
      expect(fragmentOf(await harness.follow(first)).get('error_code')).toBe('otp_expired');
      expect(fragmentOf(await harness.follow(second)).get('access_token')).toBeTruthy();
    });

    it('answers POST /verify with a used code as a 403 otp_expired error', async () => {
      const email = uniqueEmail();
      const client = harness.client();
      await client.auth.signUp({ email, password: 'secret-123' });
      const code = /Or enter this code: (\d{6})/.exec(harness.mailer.latestTo(email)!.text)![1]!;
      const first = await client.auth.verifyOtp({ email, token: code, type: 'signup' });
      expect(first.error).toBeNull();
      expect(first.data.session?.user.email).toBe(email);
      const again = await harness.client().auth.verifyOtp({ email, token: code, type: 'signup' });
      expect(again.error).toMatchObject({ status: 403, code: 'otp_expired', message: 'Token has expired or is invalid' });
    });
  });

  describe('signing up again and bad input', () => {
    it('resends the confirmation to an unconfirmed address and keeps its first password', async () => {
      const email = uniqueEmail();
      const { data: first } = await harness.client().auth.signUp({ email, password: 'first-pass' });
      const { data: again, error } = await harness.client().auth.signUp({ email, password: 'second-pass' });
      expect(error).toBeNull();
      expect(again.user!.id).toBe(first.user!.id);
      await harness.follow(harness.linkTo(email));
      expect((await harness.client().auth.signInWithPassword({ email, password: 'first-pass' })).error).toBeNull();
      expect((await harness.client().auth.signInWithPassword({ email, password: 'second-pass' })).error?.code).toBe(
        'invalid_credentials',
      );
    });

    it('answers sign-up of a confirmed address with a made-up user shaped like a new one, and emails the owner that the account exists', async () => {
      const { email, id, password } = await confirmedUser(harness);
      const { data, error } = await harness.client().auth.signUp({ email, password: 'another-pass' });
      expect(error).toBeNull();
      expect(data.session).toBeNull();
      expect(data.user!.id).not.toBe(id);
      expect(data.user).toMatchObject({ role: 'authenticated', email, identities: [{ provider: 'email', user_id: data.user!.id }] });
      const notice = harness.mailer.latestTo(email)!;
      expect(notice.subject).toBe('Obyect: You already have an account');
      expect(notice.links).toEqual([`${SITE_URL}/auth/signin`, `${SITE_URL}/auth/forgot-password`]);
      expect((await harness.client().auth.signInWithPassword({ email, password })).error).toBeNull();
    });

    it('rejects a password shorter than 6 characters with weak_password and its reasons', async () => {
      const email = uniqueEmail();
      const { error } = await harness.client().auth.signUp({ email, password: '12345' });
      expect(error).toMatchObject({
        name: 'AuthWeakPasswordError',
        status: 422,
        code: 'weak_password',
        reasons: ['length'],
        message: 'Password should be at least 6 characters.',
      });
      expect((await ctx.db.query('select 1 from auth.users where email = $1', [email])).rows).toHaveLength(0);
    });

    it('rejects an invalid email address with validation_failed', async () => {
      const { error } = await harness.client().auth.signUp({ email: 'not-an-email', password: 'secret-123' });
      expect(error).toMatchObject({ status: 400, code: 'validation_failed', message: 'Unable to validate email address: invalid format' });
    });

    it('answers errors in the shape auth-js reads, with the API version header', async () => {
      const response = await harness.fetchFrom('shape-test')(`${SITE_URL}/auth/v1/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"email": ',
      });
      expect(response.status).toBe(400);
      expect(response.headers.get('x-supabase-api-version')).toBe('2024-01-01');
      expect(await response.json()).toEqual({ code: 'bad_json', error_code: 'bad_json', msg: expect.stringMatching(/^Could not parse/) });
    });
  });

  describe('service endpoints', () => {
    it('reports settings with email sign-up on and Google off when it is not configured', async () => {
      const response = await harness.fetchFrom('settings')(`${SITE_URL}/auth/v1/settings`);
      expect(await response.json()).toMatchObject({
        external: { email: true, google: false, phone: false },
        disable_signup: false,
        mailer_autoconfirm: false,
      });
      expect((await harness.fetchFrom('health')(`${SITE_URL}/auth/v1/health`)).status).toBe(200);
    });

    it('refuses Google sign-in when the provider is not configured', async () => {
      const { data } = await harness.client().auth.signInWithOAuth({
        provider: 'google',
        options: { redirectTo: `${SITE_URL}/library`, skipBrowserRedirect: true },
      });
      const response = await harness.fetchFrom('oauth')(data.url!, { redirect: 'manual' });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        code: 'validation_failed',
        msg: 'Unsupported provider: provider is not enabled',
      });
    });

    it('answers unknown paths with 404 and wrong methods with 405', async () => {
      const unknown = await harness.fetchFrom('paths')(`${SITE_URL}/auth/v1/nothing-here`);
      expect(unknown.status).toBe(404);
      const wrong = await harness.fetchFrom('paths')(`${SITE_URL}/auth/v1/signup`);
      expect(wrong.status).toBe(405);
      expect(wrong.headers.get('allow')).toBe('POST');
    });
  });
});
