import { z } from 'zod';
import type { Queryable } from '../db/database.ts';
import { type AuthEndpoint, isUniqueViolation, readBody } from './auth-environment.ts';
import { AuthApiError, badRequest, forbidden, jsonResponse, unprocessable } from './auth-errors.ts';
import {
  consumeEmailToken,
  EMAIL_LINK_TYPES,
  type EmailLinkType,
  type EmailTokenRow,
  emailTokenHash,
  findEmailToken,
  PKCE_TOKEN_PREFIX,
} from './email-tokens.ts';
import { issueAuthCodeForUser } from './flow-state.ts';
import { clientAddress } from './rate-limits.ts';
import { allowedRedirect, codeRedirect, errorRedirect, type FlowType, redirectResponse, sessionRedirect } from './redirects.ts';
import { type AuthMethod, startSession } from './sessions.ts';
import { createIdentity, findUserById, type UserRow, updateIdentityData } from './users.ts';

const LINK_EXPIRED = 'Email link is invalid or has expired';
const CODE_EXPIRED = 'Token has expired or is invalid';

const FLOW_METHOD: Record<EmailLinkType, AuthMethod> = {
  signup: 'email/signup',
  invite: 'invite',
  recovery: 'recovery',
  magiclink: 'magiclink',
  email_change: 'email_change',
};

const isEmailLinkType = (type: string): type is EmailLinkType => (EMAIL_LINK_TYPES as readonly string[]).includes(type);

async function ensureVerifiedEmailIdentity(q: Queryable, user: UserRow, email: string): Promise<void> {
  const { rows } = await q.query('select 1 from auth.identities where user_id = $1 and provider = $2', [user.id, 'email']);
  if (rows.length > 0) {
    await updateIdentityData(q, user.id, 'email', { email, email_verified: true });
  } else {
    await createIdentity(q, {
      userId: user.id,
      provider: 'email',
      providerId: user.id,
      data: { sub: user.id, email, email_verified: true, phone_verified: false },
    });
  }
}

/** Uses the token up and does what the link is for; returns the user to sign in. */
async function applyEmailLink(q: Queryable, type: EmailLinkType, token: EmailTokenRow, expiredMessage: string): Promise<UserRow> {
  const user = await findUserById(q, token.user_id, { lock: true });
  if (!user) throw forbidden('otp_expired', expiredMessage);
  if (user.banned) throw forbidden('user_banned', 'User is banned');
  await consumeEmailToken(q, token);
  if (type === 'email_change') {
    if (!user.email_change || user.email_change.toLowerCase() !== token.relates_to) {
      throw forbidden('otp_expired', expiredMessage);
    }
    try {
      await q.query(
        `update auth.users
            set email = email_change, email_change = '', email_change_sent_at = null,
                email_confirmed_at = coalesce(email_confirmed_at, now()), updated_at = now()
          where id = $1`,
        [user.id],
      );
    } catch (error) {
      if (isUniqueViolation(error)) throw unprocessable('email_exists', 'A user with this email address has already been registered');
      throw error;
    }
    await ensureVerifiedEmailIdentity(q, user, token.relates_to);
  } else {
    // Confirming the address: a signup link, and also a recovery or magic link followed by an unconfirmed user.
    await q.query(
      `update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()), updated_at = now() where id = $1`,
      [user.id],
    );
    if (user.email) await updateIdentityData(q, user.id, 'email', { email_verified: true });
  }
  return (await findUserById(q, user.id))!;
}

/**
 * GET /verify: the link in an auth email. Lands on redirect_to with the
 * session in the fragment (implicit flow) or with ?code= (PKCE); a used or
 * expired link lands there with error, error_code and error_description.
 */
/** What a link's token or an emailed code can look like: a few hundred printable characters at most. */
const isTokenShaped = (value: string) => /^[\x21-\x7e]{1,512}$/.test(value);

export const verifyEmailLink: AuthEndpoint = async (env, request) => {
  const params = new URL(request.url).searchParams;
  const type = params.get('type') ?? '';
  const token = (params.get('token') ?? '').trim();
  if (!type) throw badRequest('validation_failed', 'Verify requires a verification type');
  if (!token) throw badRequest('validation_failed', 'Verify requires a token or a token hash');
  const redirectTo = allowedRedirect(env.settings, params.get('redirect_to'));
  const flow: FlowType = token.startsWith(PKCE_TOKEN_PREFIX) ? 'pkce' : 'implicit';
  let location: string;
  try {
    env.limiter.take('verifications', clientAddress(request));
    if (!isEmailLinkType(type)) throw badRequest('validation_failed', 'Unsupported verification type');
    location = await env.db.transaction(async (tx) => {
      // Tokens are short and printable; anything else (a NUL byte, a megabyte) is no token of ours and never reaches SQL.
      const row = isTokenShaped(token) ? await findEmailToken(tx, [type], [token], env.settings.emailLinkExpirySeconds) : null;
      if (!row || row.expired) throw forbidden('otp_expired', LINK_EXPIRED);
      const user = await applyEmailLink(tx, type, row, LINK_EXPIRED);
      if (flow === 'pkce') return codeRedirect(redirectTo, await issueAuthCodeForUser(tx, user.id, FLOW_METHOD[type]));
      const session = await startSession(tx, env.settings, user, 'otp', request);
      return sessionRedirect(redirectTo, session, { type });
    });
  } catch (error) {
    if (!(error instanceof AuthApiError)) throw error;
    location = errorRedirect(redirectTo, error, flow);
  }
  return redirectResponse(location);
};

const verifyBodySchema = z.object({
  type: z.string().nullish(),
  token: z.string().nullish(),
  token_hash: z.string().nullish(),
  email: z.string().nullish(),
  phone: z.string().nullish(),
});

/**
 * POST /verify (verifyOtp): the six-digit code with its email, or the
 * link's token_hash; answers with a session.
 */
export const verifyOtp: AuthEndpoint = async (env, request) => {
  env.limiter.take('verifications', clientAddress(request));
  const body = await readBody(request, verifyBodySchema);
  if (!body.type) throw badRequest('validation_failed', 'Verify requires a verification type');
  if (body.type === 'sms' || body.type === 'phone_change' || body.phone) {
    throw badRequest('phone_provider_disabled', 'Phone sign-in is not enabled');
  }
  const requested = body.type;
  const types: EmailLinkType[] = requested === 'email' ? ['signup', 'magiclink'] : isEmailLinkType(requested) ? [requested] : [];
  if (types.length === 0) throw badRequest('validation_failed', 'Unsupported verification type');
  let hashes: string[];
  let expiredMessage: string;
  if ([body.token, body.token_hash].some((value) => value && !isTokenShaped(value.trim()))) throw forbidden('otp_expired', LINK_EXPIRED);
  if (body.token_hash && !body.token) {
    const hash = body.token_hash.trim();
    hashes = [hash, `${PKCE_TOKEN_PREFIX}${hash}`];
    expiredMessage = LINK_EXPIRED;
  } else if (body.token && body.email && !body.token_hash) {
    const hash = emailTokenHash(env.settings.jwtSecret, body.email, body.token.trim());
    hashes = [hash, `${PKCE_TOKEN_PREFIX}${hash}`];
    expiredMessage = CODE_EXPIRED;
  } else {
    throw badRequest('validation_failed', 'Verify requires either a token with its email or a token hash');
  }
  const session = await env.db.transaction(async (tx) => {
    const row = await findEmailToken(tx, types, hashes, env.settings.emailLinkExpirySeconds);
    if (!row || row.expired) throw forbidden('otp_expired', expiredMessage);
    const type: EmailLinkType =
      requested === 'email' ? (row.token_type === 'confirmation_token' ? 'signup' : 'magiclink') : (requested as EmailLinkType);
    const user = await applyEmailLink(tx, type, row, expiredMessage);
    return startSession(tx, env.settings, user, 'otp', request);
  });
  return jsonResponse(session);
};
