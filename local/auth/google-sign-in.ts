import { randomBytes, randomUUID } from 'node:crypto';
import { createLocalJWKSet, type JSONWebKeySet, jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
import type { Queryable } from '../db/database.ts';
import { type AuthEndpoint, type AuthEnvironment, internalError } from './auth-environment.ts';
import { AuthApiError, badRequest, forbidden, jsonResponse, unprocessable } from './auth-errors.ts';
import type { GoogleProviderSettings } from './auth-settings.ts';
import { codeChallengeFrom, createFlowState, issueAuthCodeForFlow } from './flow-state.ts';
import { allowedRedirect, codeRedirect, errorRedirect, type FlowType, redirectResponse, sessionRedirect } from './redirects.ts';
import { type ProviderTokens, startSession } from './sessions.ts';
import { addProvider, createIdentity, findUserByEmail, findUserById, isConfirmed, type UserRow } from './users.ts';

const PROVIDER = 'google';
const STATE_AUDIENCE = 'auth/v1/callback';
const STATE_LIFETIME_SECONDS = 10 * 60;
const DISCOVERY_LIFETIME_MS = 10 * 60 * 1000;

const discoverySchema = z.object({
  issuer: z.string(),
  authorization_endpoint: z.string().url(),
  token_endpoint: z.string().url(),
  userinfo_endpoint: z.string().url().optional(),
  jwks_uri: z.string().url(),
  token_endpoint_auth_methods_supported: z.array(z.string()).optional(),
});
type Discovery = z.infer<typeof discoverySchema>;

const tokenResponseSchema = z.object({
  access_token: z.string(),
  id_token: z.string().optional(),
  refresh_token: z.string().optional(),
});

const providerClaimsSchema = z.object({
  sub: z.string().min(1),
  email: z.string().optional(),
  email_verified: z.union([z.boolean(), z.string()]).optional(),
  name: z.string().optional(),
  given_name: z.string().optional(),
  family_name: z.string().optional(),
  picture: z.string().optional(),
});
type ProviderClaims = z.infer<typeof providerClaimsSchema>;

// Discovery documents per fetch function and issuer, so each issuer is asked once every ten minutes.
const discoveries = new WeakMap<typeof fetch, Map<string, { document: Discovery; fetchedAt: number }>>();

async function discover(env: AuthEnvironment, google: GoogleProviderSettings): Promise<Discovery> {
  const cache = discoveries.get(env.fetch) ?? new Map<string, { document: Discovery; fetchedAt: number }>();
  discoveries.set(env.fetch, cache);
  const cached = cache.get(google.issuer);
  if (cached && Date.now() - cached.fetchedAt < DISCOVERY_LIFETIME_MS) return cached.document;
  const url = `${google.issuer}/.well-known/openid-configuration`;
  let document: Discovery;
  try {
    const response = await env.fetch(url, { headers: { accept: 'application/json' } });
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    document = discoverySchema.parse(await response.json());
  } catch (error) {
    throw internalError('Error getting the Google sign-in configuration from its issuer', error);
  }
  cache.set(google.issuer, { document, fetchedAt: Date.now() });
  return document;
}

const stateKey = (env: AuthEnvironment) => new TextEncoder().encode(env.settings.jwtSecret);

interface OAuthState {
  referrer: string;
  flowStateId: string | null;
  nonce: string;
}

/**
 * GET /authorize?provider=google: sends the browser to the provider's sign-in
 * page; the provider sends it back to /callback.
 */
export const authorize: AuthEndpoint = async (env, request) => {
  const params = new URL(request.url).searchParams;
  const provider = params.get('provider') ?? '';
  if (provider !== PROVIDER) {
    throw badRequest('validation_failed', `Unsupported provider: Provider ${provider || '(none)'} could not be found`);
  }
  const google = env.settings.google;
  if (!google) throw badRequest('validation_failed', 'Unsupported provider: provider is not enabled');
  const codeChallenge = codeChallengeFrom(params.get('code_challenge'), params.get('code_challenge_method'));
  const referrer = allowedRedirect(env.settings, params.get('redirect_to'));
  const discovery = await discover(env, google);
  const flowStateId = codeChallenge
    ? await createFlowState(env.db, { userId: null, codeChallenge, providerType: PROVIDER, authenticationMethod: 'oauth' })
    : null;
  const nonce = randomBytes(16).toString('base64url');
  const state = await new SignJWT({ provider: PROVIDER, referrer, flow_state_id: flowStateId, nonce })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setAudience(STATE_AUDIENCE)
    .setJti(randomUUID())
    .setIssuedAt()
    .setExpirationTime(`${STATE_LIFETIME_SECONDS}s`)
    .sign(stateKey(env));
  const scopes = new Set(['openid', 'email', 'profile', ...(params.get('scopes') ?? '').split(/[\s,]+/).filter(Boolean)]);
  const target = new URL(discovery.authorization_endpoint);
  target.searchParams.set('client_id', google.clientId);
  target.searchParams.set('redirect_uri', `${env.settings.apiUrl}/callback`);
  target.searchParams.set('response_type', 'code');
  target.searchParams.set('scope', [...scopes].join(' '));
  target.searchParams.set('state', state);
  target.searchParams.set('nonce', nonce);
  if (params.get('skip_http_redirect') === 'true') return jsonResponse({ url: target.toString() });
  return redirectResponse(target.toString(), 302);
};

async function readState(env: AuthEnvironment, state: string | null): Promise<OAuthState> {
  if (!state) throw badRequest('bad_oauth_state', 'OAuth state parameter missing');
  try {
    const { payload } = await jwtVerify(state, stateKey(env), { algorithms: ['HS256'], audience: STATE_AUDIENCE });
    if (payload.provider !== PROVIDER || typeof payload.referrer !== 'string' || typeof payload.nonce !== 'string') {
      throw new Error('unexpected claims');
    }
    return {
      referrer: payload.referrer,
      flowStateId: typeof payload.flow_state_id === 'string' ? payload.flow_state_id : null,
      nonce: payload.nonce,
    };
  } catch (error) {
    throw badRequest('bad_oauth_state', `OAuth state parameter is invalid: ${(error as Error).message}`);
  }
}

async function exchangeCode(
  env: AuthEnvironment,
  google: GoogleProviderSettings,
  discovery: Discovery,
  code: string,
): Promise<z.infer<typeof tokenResponseSchema>> {
  const form = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: `${env.settings.apiUrl}/callback` });
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
  const methods = discovery.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
  if (methods.includes('client_secret_basic')) {
    const credentials = `${encodeURIComponent(google.clientId)}:${encodeURIComponent(google.clientSecret)}`;
    headers.authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
  } else {
    form.set('client_id', google.clientId);
    form.set('client_secret', google.clientSecret);
  }
  const response = await env.fetch(discovery.token_endpoint, { method: 'POST', headers, body: form });
  const json = (await response.json().catch(() => null)) as Record<string, unknown> | null;
  const parsed = tokenResponseSchema.safeParse(json);
  if (!response.ok || !parsed.success) {
    const reason = typeof json?.error_description === 'string' ? json.error_description : typeof json?.error === 'string' ? json.error : `status ${response.status}`;
    throw badRequest('bad_oauth_callback', `Unable to exchange external code: ${reason}`);
  }
  return parsed.data;
}

/** The user's claims from the verified ID token, completed by the userinfo endpoint. */
async function providerClaims(
  env: AuthEnvironment,
  google: GoogleProviderSettings,
  discovery: Discovery,
  tokens: z.infer<typeof tokenResponseSchema>,
  nonce: string,
): Promise<ProviderClaims> {
  let claims: Record<string, unknown> = {};
  if (tokens.id_token) {
    const jwksResponse = await env.fetch(discovery.jwks_uri, { headers: { accept: 'application/json' } });
    if (!jwksResponse.ok) throw internalError(`The provider's signing keys are unavailable (${jwksResponse.status})`);
    const keys = createLocalJWKSet((await jwksResponse.json()) as JSONWebKeySet);
    try {
      const { payload } = await jwtVerify(tokens.id_token, keys, { issuer: discovery.issuer, audience: google.clientId });
      if (payload.nonce !== undefined && payload.nonce !== nonce) throw new Error('nonce mismatch');
      claims = payload;
    } catch (error) {
      throw badRequest('bad_oauth_callback', `The provider's ID token is invalid: ${(error as Error).message}`);
    }
  }
  if (discovery.userinfo_endpoint) {
    const response = await env.fetch(discovery.userinfo_endpoint, {
      headers: { authorization: `Bearer ${tokens.access_token}`, accept: 'application/json' },
    });
    if (response.ok) {
      const userinfo = (await response.json()) as Record<string, unknown>;
      if (claims.sub === undefined || userinfo.sub === claims.sub) claims = { ...userinfo, ...claims };
    }
  }
  const parsed = providerClaimsSchema.safeParse(claims);
  if (!parsed.success) throw badRequest('bad_oauth_callback', 'The provider did not say who the user is (no sub claim)');
  return parsed.data;
}

const emailIsVerified = (claims: ProviderClaims) => claims.email_verified === true || claims.email_verified === 'true';

function identityData(issuer: string, claims: ProviderClaims): Record<string, unknown> {
  const name = claims.name ?? ([claims.given_name, claims.family_name].filter(Boolean).join(' ') || undefined);
  return Object.fromEntries(
    Object.entries({
      iss: issuer,
      sub: claims.sub,
      provider_id: claims.sub,
      email: claims.email?.toLowerCase(),
      email_verified: emailIsVerified(claims),
      phone_verified: false,
      name,
      full_name: name,
      picture: claims.picture,
      avatar_url: claims.picture,
    }).filter(([, value]) => value !== undefined),
  );
}

/** The user this Google account signs in: known by its identity, linked by verified email, or new. */
async function userForProviderAccount(q: Queryable, issuer: string, claims: ProviderClaims): Promise<UserRow> {
  const data = identityData(issuer, claims);
  const { rows } = await q.query<{ user_id: string }>(
    `update auth.identities set identity_data = $3, last_sign_in_at = now(), updated_at = now()
      where provider = $1 and provider_id = $2 returning user_id`,
    [PROVIDER, claims.sub, JSON.stringify(data)],
  );
  if (rows[0]) {
    const user = await findUserById(q, rows[0].user_id, { lock: true });
    if (!user) throw forbidden('user_not_found', 'User not found');
    return user;
  }
  if (!claims.email) throw badRequest('validation_failed', 'Error getting user email from external provider');
  if (!emailIsVerified(claims)) {
    throw unprocessable('provider_email_needs_verification', 'The email address of this Google account is not verified');
  }
  const email = claims.email.toLowerCase();
  const existing = await findUserByEmail(q, email, { lock: true });
  let userId: string;
  if (existing) {
    userId = existing.id;
    if (!isConfirmed(existing)) {
      // Whoever signed up with this address never proved owning it: their password must not outlive the link.
      await q.query(`update auth.users set encrypted_password = '', email_confirmed_at = now() where id = $1`, [userId]);
    }
    // The account keeps its own name and picture; the provider's fill in what is missing.
    await q.query(`update auth.users set raw_user_meta_data = $2::jsonb || raw_user_meta_data, updated_at = now() where id = $1`, [
      userId,
      JSON.stringify(data),
    ]);
  } else {
    userId = randomUUID();
    await q.query(
      `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data, raw_user_meta_data)
       values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2, '', now(),
               '{"provider": "google", "providers": ["google"]}'::jsonb, $3)`,
      [userId, email, JSON.stringify(data)],
    );
  }
  await createIdentity(q, { userId, provider: PROVIDER, providerId: claims.sub, data, signedIn: true });
  await addProvider(q, userId, PROVIDER);
  return (await findUserById(q, userId))!;
}

/**
 * GET (or form POST) /callback: the provider's answer. Exchanges the code,
 * reads who the user is, signs them in and lands on the redirect_to of
 * /authorize with the session (implicit) or ?code= (PKCE).
 */
export const callback: AuthEndpoint = async (env, request) => {
  const params =
    request.method === 'POST' ? new URLSearchParams(await request.text()) : new URL(request.url).searchParams;
  const state = await readState(env, params.get('state'));
  const referrer = allowedRedirect(env.settings, state.referrer);
  const flow: FlowType = state.flowStateId ? 'pkce' : 'implicit';
  let location: string;
  try {
    const google = env.settings.google;
    if (!google) throw badRequest('validation_failed', 'Unsupported provider: provider is not enabled');
    const providerError = params.get('error');
    if (providerError) {
      throw new AuthApiError(403, 'bad_oauth_callback', params.get('error_description') || providerError, { error: providerError });
    }
    const code = params.get('code');
    if (!code) throw badRequest('bad_oauth_callback', 'OAuth callback with missing authorization code');
    const discovery = await discover(env, google);
    const tokens = await exchangeCode(env, google, discovery, code);
    const claims = await providerClaims(env, google, discovery, tokens, state.nonce);
    const providerTokens: ProviderTokens = { providerToken: tokens.access_token, providerRefreshToken: tokens.refresh_token };
    location = await env.db.transaction(async (tx) => {
      const user = await userForProviderAccount(tx, discovery.issuer, claims);
      if (user.banned) throw forbidden('user_banned', 'User is banned');
      if (state.flowStateId) {
        return codeRedirect(referrer, await issueAuthCodeForFlow(tx, state.flowStateId, user.id, providerTokens));
      }
      return sessionRedirect(referrer, await startSession(tx, env.settings, user, 'oauth', request, providerTokens));
    });
  } catch (error) {
    if (!(error instanceof AuthApiError)) throw error;
    location = errorRedirect(referrer, error, flow);
  }
  return redirectResponse(location, 302);
};
