import { z } from 'zod';
import { type AuthEndpoint, readBody, validEmail } from './auth-environment.ts';
import { AuthApiError, badRequest, jsonResponse } from './auth-errors.ts';
import { exchangeAuthCode } from './flow-state.ts';
import { passwordAttempt } from './password-attempts.ts';
import { clientAddress } from './rate-limits.ts';
import { refreshSession, startSession } from './sessions.ts';
import { findUserByEmail, findUserById, isConfirmed } from './users.ts';

const passwordGrantSchema = z.object({
  email: z.string().nullish(),
  phone: z.string().nullish(),
  password: z.string().nullish(),
});
const refreshGrantSchema = z.object({ refresh_token: z.string().nullish() });
const pkceGrantSchema = z.object({ auth_code: z.string().nullish(), code_verifier: z.string().nullish() });

const INVALID_LOGIN = 'Invalid login credentials';

/**
 * grant_type=password: signInWithPassword. Wrong passwords back off the
 * account (see passwordAttempt), never the other accounts of the address.
 */
const passwordGrant: AuthEndpoint = async (env, request) => {
  const body = await readBody(request, passwordGrantSchema);
  if (body.phone && !body.email) throw badRequest('phone_provider_disabled', 'Phone logins are disabled');
  if (!body.email || !body.password) throw badRequest('validation_failed', 'Sign-in requires an email and a password');
  const email = validEmail(body.email);
  const user = await findUserByEmail(env.db, email);
  if (!(await passwordAttempt(env, request, { key: email, user }, body.password)) || !user) {
    throw badRequest('invalid_credentials', INVALID_LOGIN);
  }
  if (user.banned) throw badRequest('user_banned', 'User is banned');
  if (!isConfirmed(user)) throw badRequest('email_not_confirmed', 'Email not confirmed');
  const session = await env.db.transaction((tx) => startSession(tx, env.settings, user, 'password', request));
  return jsonResponse(session);
};

/** grant_type=refresh_token: rotation with reuse detection (see refreshSession). */
const refreshTokenGrant: AuthEndpoint = async (env, request) => {
  env.limiter.take('tokenRefreshes', clientAddress(request));
  const body = await readBody(request, refreshGrantSchema);
  if (!body.refresh_token) throw badRequest('validation_failed', 'refresh_token required');
  return jsonResponse(await refreshSession(env.db, env.settings, body.refresh_token));
};

/** grant_type=pkce: exchangeCodeForSession, the auth code with the verifier of its challenge. */
const pkceGrant: AuthEndpoint = async (env, request) => {
  const body = await readBody(request, pkceGrantSchema);
  if (!body.auth_code || !body.code_verifier) {
    throw badRequest('validation_failed', 'invalid request: both auth code and code verifier should be non-empty');
  }
  const { auth_code: authCode, code_verifier: codeVerifier } = body;
  const session = await env.db.transaction(async (tx) => {
    const flow = await exchangeAuthCode(tx, authCode, codeVerifier, env.settings.flowStateExpirySeconds);
    const user = await findUserById(tx, flow.user_id);
    if (!user) throw new AuthApiError(404, 'user_not_found', 'User not found');
    if (user.banned) throw badRequest('user_banned', 'User is banned');
    return startSession(tx, env.settings, user, flow.authentication_method, request, {
      providerToken: flow.provider_access_token,
      providerRefreshToken: flow.provider_refresh_token,
    });
  });
  return jsonResponse(session);
};

const GRANTS: Record<string, AuthEndpoint> = {
  password: passwordGrant,
  refresh_token: refreshTokenGrant,
  pkce: pkceGrant,
};

/** POST /token?grant_type=password|refresh_token|pkce */
export const token: AuthEndpoint = async (env, request) => {
  const grantType = new URL(request.url).searchParams.get('grant_type') ?? '';
  const grant = GRANTS[grantType];
  if (!grant) {
    throw new AuthApiError(400, 'validation_failed', `Unsupported grant_type: ${grantType || '(none)'}`, {
      error: 'unsupported_grant_type',
    });
  }
  return grant(env, request);
};
