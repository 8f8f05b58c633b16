import { randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeOnEngines } from '../support/engines.ts';
import { type AuthHarness, authHarness, confirmedUser, fragmentOf, SITE_URL, uniqueEmail } from './auth-harness.ts';

const ISSUER = 'https://accounts.google.test';
const CLIENT_ID = 'obyect-local-client';
const CLIENT_SECRET = 'obyect-local-secret';

interface Account {
  sub: string;
  email: string;
  email_verified: boolean;
  name?: string;
  picture?: string;
}

/**
 * A minimal OpenID Connect issuer answering through fetch: discovery, JWKS,
 * token and userinfo. `approve` plays the user consenting on its sign-in page.
 */
async function fakeIssuer() {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const codes = new Map<string, { account: Account; nonce: string | null; redirectUri: string }>();
  const accessTokens = new Map<string, Account>();
  const fetchIssuer: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.origin !== ISSUER) throw new Error(`unexpected call to ${url}`);
    switch (url.pathname) {
      case '/.well-known/openid-configuration':
        return Response.json({
          issuer: ISSUER,
          authorization_endpoint: `${ISSUER}/o/oauth2/auth`,
          token_endpoint: `${ISSUER}/token`,
          userinfo_endpoint: `${ISSUER}/userinfo`,
          jwks_uri: `${ISSUER}/certs`,
          token_endpoint_auth_methods_supported: ['client_secret_basic'],
        });
      case '/certs':
        return Response.json({ keys: [jwk] });
      case '/token': {
        const expected = `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`;
        if (request.headers.get('authorization') !== expected) return Response.json({ error: 'invalid_client' }, { status: 401 });
        const form = new URLSearchParams(await request.text());
        const grant = codes.get(form.get('code') ?? '');
        if (!grant || form.get('redirect_uri') !== grant.redirectUri) return Response.json({ error: 'invalid_grant' }, { status: 400 });
        codes.delete(form.get('code')!);
        const accessToken = randomBytes(16).toString('hex');
        accessTokens.set(accessToken, grant.account);
        const idToken = await new SignJWT({ email: grant.account.email, email_verified: grant.account.email_verified, ...(grant.nonce ? { nonce: grant.nonce } : {}) })
          .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
          .setIssuer(ISSUER)
          .setAudience(CLIENT_ID)
          .setSubject(grant.account.sub)
          .setIssuedAt()
          .setExpirationTime('5m')
          .sign(privateKey);
        return Response.json({ access_token: accessToken, id_token: idToken, refresh_token: `refresh-${accessToken}`, token_type: 'Bearer' });
      }
      case '/userinfo': {
        const account = accessTokens.get((request.headers.get('authorization') ?? '').replace(/^Bearer /, ''));
        return account ? Response.json(account) : new Response(null, { status: 401 });
      }
      default:
        return new Response(null, { status: 404 });
    }
  };
  /** The issuer's sign-in page consenting: the callback URL the browser is sent back to. */
  const approve = (authorizeUrl: URL, account: Account): string => {
    expect(authorizeUrl.origin + authorizeUrl.pathname).toBe(`${ISSUER}/o/oauth2/auth`);
    expect(authorizeUrl.searchParams.get('client_id')).toBe(CLIENT_ID);
    expect(authorizeUrl.searchParams.get('response_type')).toBe('code');
    expect(authorizeUrl.searchParams.get('scope')).toContain('openid');
    const code = randomBytes(8).toString('hex');
    const redirectUri = authorizeUrl.searchParams.get('redirect_uri')!;
    codes.set(code, { account, nonce: authorizeUrl.searchParams.get('nonce'), redirectUri });
    const callback = new URL(redirectUri);
    callback.searchParams.set('code', code);
    callback.searchParams.set('state', authorizeUrl.searchParams.get('state')!);
    return callback.toString();
  };
  return { fetchIssuer, approve };
}

const googleAccount = (overrides: Partial<Account> = {}): Account => ({
  sub: randomBytes(8).toString('hex'),
  email: uniqueEmail('google'),
  email_verified: true,
  name: 'Hedy Lamarr',
  picture: 'https://images.example.test/hedy.png',
  ...overrides,
});

describeOnEngines('auth: Google sign-in through OpenID Connect', (ctx) => {
  let harness: AuthHarness;
  let issuer: Awaited<ReturnType<typeof fakeIssuer>>;
  beforeAll(async () => {
    issuer = await fakeIssuer();
    harness = await authHarness(ctx.db, {
      google: { issuer: ISSUER, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET },
      fetch: issuer.fetchIssuer,
    });
  });

  /** signInWithOAuth, the issuer's consent, and the callback: where the browser lands in the app. */
  async function signInWithGoogle(client: ReturnType<AuthHarness['client']>, account: Account, redirectTo = `${SITE_URL}/library`) {
    const { data } = await client.auth.signInWithOAuth({ provider: 'google', options: { redirectTo, skipBrowserRedirect: true } });
    const authorize = await harness.fetchFrom('google')(data.url!, { redirect: 'manual' });
    expect(authorize.status).toBe(302);
    const callback = issuer.approve(new URL(authorize.headers.get('location')!), account);
    return harness.follow(callback);
  }

  const sessionFrom = async (client: ReturnType<AuthHarness['client']>, landing: URL) => {
    const fragment = fragmentOf(landing);
    const { data, error } = await client.auth.setSession({
      access_token: fragment.get('access_token')!,
      refresh_token: fragment.get('refresh_token')!,
    });
    expect(error).toBeNull();
    return data.session!;
  };

  it('reports Google as enabled in the settings', async () => {
    const settings = await (await harness.fetchFrom('settings')(`${SITE_URL}/auth/v1/settings`)).json();
    expect(settings.external.google).toBe(true);
  });

  it('creates a confirmed user with a Google identity and a profile named after the account', async () => {
    const client = harness.client();
    const account = googleAccount();
    const landing = await signInWithGoogle(client, account);
    expect(landing.pathname).toBe('/library');
    expect(fragmentOf(landing).get('provider_token')).toBeTruthy();
    const session = await sessionFrom(client, landing);
    expect(session.user).toMatchObject({
      email: account.email,
      app_metadata: { provider: 'google', providers: ['google'] },
      user_metadata: { full_name: 'Hedy Lamarr', avatar_url: account.picture, email_verified: true },
    });
    expect(session.user.email_confirmed_at).toBeTruthy();
    expect(session.user.identities).toEqual([expect.objectContaining({ provider: 'google', id: account.sub })]);
    const claims = JSON.parse(Buffer.from(session.access_token.split('.')[1]!, 'base64url').toString());
    expect(claims.amr).toEqual([{ method: 'oauth', timestamp: expect.any(Number) }]);
    const profile = await ctx.db.query<{ full_name: string; avatar_url: string }>(
      'select full_name, avatar_url from public.profiles where user_id = $1',
      [session.user.id],
    );
    expect(profile.rows[0]).toEqual({ full_name: 'Hedy Lamarr', avatar_url: account.picture });
  });

  it('signs the same Google account into the same user next time', async () => {
    const account = googleAccount();
    const first = await sessionFrom(harness.client(), await signInWithGoogle(harness.client(), account));
    const second = await sessionFrom(harness.client(), await signInWithGoogle(harness.client(), { ...account, email: account.email }));
    expect(second.user.id).toBe(first.user.id);
  });

  it('links Google to the account that already has the verified email address', async () => {
    const existing = await confirmedUser(harness, { data: { full_name: 'Existing Name' } });
    const session = await sessionFrom(harness.client(), await signInWithGoogle(harness.client(), googleAccount({ email: existing.email })));
    expect(session.user.id).toBe(existing.id);
    expect(session.user.app_metadata.providers).toEqual(['email', 'google']);
    expect(session.user.user_metadata.full_name).toBe('Existing Name');
    expect((await harness.client().auth.signInWithPassword({ email: existing.email, password: existing.password })).error).toBeNull();
  });

  it('takes the password away from an unconfirmed sign-up of the same address before linking', async () => {
    const email = uniqueEmail('squatted');
    await harness.client().auth.signUp({ email, password: 'squatter-pass' });
    const session = await sessionFrom(harness.client(), await signInWithGoogle(harness.client(), googleAccount({ email })));
    expect(session.user.email).toBe(email);
    expect((await harness.client().auth.signInWithPassword({ email, password: 'squatter-pass' })).error?.code).toBe(
      'invalid_credentials',
    );
  });

  it('lands with ?code= in the PKCE flow, exchanged for a session carrying the provider token', async () => {
    const client = harness.client({ flowType: 'pkce' });
    const account = googleAccount();
    const landing = await signInWithGoogle(client, account, `${SITE_URL}/library?from=google`);
    expect(landing.searchParams.get('from')).toBe('google');
    const { data, error } = await client.auth.exchangeCodeForSession(landing.searchParams.get('code')!);
    expect(error).toBeNull();
    expect(data.session!.user.email).toBe(account.email);
    expect(data.session!.provider_token).toBeTruthy();
  });

  it('lands with the provider error when the user declines', async () => {
    const { data } = await harness.client().auth.signInWithOAuth({
      provider: 'google',
      options: { redirectTo: `${SITE_URL}/auth/signin`, skipBrowserRedirect: true },
    });
    const authorize = new URL((await harness.fetchFrom('google')(data.url!, { redirect: 'manual' })).headers.get('location')!);
    const callback = new URL(authorize.searchParams.get('redirect_uri')!);
    callback.searchParams.set('state', authorize.searchParams.get('state')!);
    callback.searchParams.set('error', 'access_denied');
    callback.searchParams.set('error_description', 'The user declined');
    const landing = await harness.follow(callback.toString());
    expect(landing.pathname).toBe('/auth/signin');
    expect(Object.fromEntries(fragmentOf(landing))).toMatchObject({ error: 'access_denied', error_description: 'The user declined' });
  });

  it('refuses a callback whose state was not issued by this server', async () => {
    const response = await harness.fetchFrom('google')(`${SITE_URL}/auth/v1/callback?code=abc&state=forged.state.value`);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'bad_oauth_state' });
  });

  describe('unverified provider email', () => {
    it('refuses a Google account whose email is not verified', async () => {
      const landing = await signInWithGoogle(harness.client(), googleAccount({ email_verified: false }));
      expect(fragmentOf(landing).get('error_code')).toBe('provider_email_needs_verification');
      expect(fragmentOf(landing).get('access_token')).toBeNull();
    });
  });
});
