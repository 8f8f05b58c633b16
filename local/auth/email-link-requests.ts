import { z } from 'zod';
import type { Queryable } from '../db/database.ts';
import { sendAuthEmail } from './auth-emails.ts';
import { type AuthEndpoint, type AuthEnvironment, readBody, validEmail } from './auth-environment.ts';
import { badRequest, jsonResponse, unprocessable } from './auth-errors.ts';
import { type EmailLinkType, type IssuedEmailToken, issueEmailToken } from './email-tokens.ts';
import { type CodeChallenge, codeChallengeFrom, createFlowState } from './flow-state.ts';
import { clientAddress } from './rate-limits.ts';
import { allowedRedirect } from './redirects.ts';
import type { AuthMethod } from './sessions.ts';
import { insertEmailUser } from './signup.ts';
import { findUserByEmail, isConfirmed } from './users.ts';

const pkceFields = {
  code_challenge: z.string().nullish(),
  code_challenge_method: z.string().nullish(),
};
const recoverBodySchema = z.object({ email: z.string().nullish(), ...pkceFields });
const otpBodySchema = z.object({
  email: z.string().nullish(),
  phone: z.string().nullish(),
  data: z.record(z.string(), z.unknown()).nullish(),
  create_user: z.boolean().nullish(),
  ...pkceFields,
});
const resendBodySchema = z.object({ email: z.string().nullish(), phone: z.string().nullish(), type: z.string().nullish(), ...pkceFields });

const FLOW_METHOD: Record<EmailLinkType, AuthMethod> = {
  signup: 'email/signup',
  invite: 'invite',
  recovery: 'recovery',
  magiclink: 'magiclink',
  email_change: 'email_change',
};

interface PendingEmail {
  type: EmailLinkType;
  to: string;
  token: IssuedEmailToken;
}

/** Issues a link token (and PKCE flow state) for an existing user inside the caller's transaction. */
async function issueLink(
  env: AuthEnvironment,
  tx: Queryable,
  userId: string,
  type: EmailLinkType,
  email: string,
  codeChallenge: CodeChallenge | null,
): Promise<PendingEmail> {
  if (codeChallenge) {
    await createFlowState(tx, { userId, codeChallenge, providerType: 'email', authenticationMethod: FLOW_METHOD[type] });
  }
  return { type, to: email, token: await issueEmailToken(tx, userId, type, email, { pkce: codeChallenge !== null, secret: env.settings.jwtSecret }) };
}

/** The email limits of one request: its client address's, and the address it sends to (known or not, alike). */
function takeEmailLimits(env: AuthEnvironment, address: string, email: string): void {
  env.limiter.check('emailsPerAddress', email);
  env.limiter.record('emailRequests', address);
  env.limiter.record('emailsPerAddress', email);
}

function redirectOf(env: AuthEnvironment, request: Request): string {
  return allowedRedirect(env.settings, new URL(request.url).searchParams.get('redirect_to'));
}

async function deliver(env: AuthEnvironment, pending: PendingEmail | null, redirectTo: string): Promise<void> {
  if (pending) await sendAuthEmail(env.mailer, env.settings.apiUrl, { ...pending, redirectTo });
}

/**
 * POST /recover: emails a password-recovery link. The answer is the same
 * whether or not an account has this address.
 */
export const recover: AuthEndpoint = async (env, request) => {
  const address = clientAddress(request);
  env.limiter.check('emailRequests', address);
  const body = await readBody(request, recoverBodySchema);
  if (!body.email) throw unprocessable('validation_failed', 'Password recovery requires an email');
  const email = validEmail(body.email);
  const codeChallenge = codeChallengeFrom(body.code_challenge, body.code_challenge_method);
  const redirectTo = redirectOf(env, request);
  takeEmailLimits(env, address, email);
  const pending = await env.db.transaction(async (tx) => {
    const user = await findUserByEmail(tx, email, { lock: true });
    if (!user || user.banned) return null;
    return issueLink(env, tx, user.id, 'recovery', email, codeChallenge);
  });
  await deliver(env, pending, redirectTo);
  return jsonResponse({});
};

/**
 * POST /otp: a sign-in link by email (signInWithOtp). A new address gets an
 * account and a confirmation link, unless create_user is false: then nothing
 * is sent, and the answer is the same as for a known address (Supabase Auth
 * answers otp_disabled, which tells that the address has no account).
 */
export const requestEmailOtp: AuthEndpoint = async (env, request) => {
  const address = clientAddress(request);
  env.limiter.check('emailRequests', address);
  const body = await readBody(request, otpBodySchema);
  if (body.phone && !body.email) throw badRequest('phone_provider_disabled', 'Phone sign-in is not enabled');
  if (!body.email) throw badRequest('validation_failed', 'An email address is required');
  const email = validEmail(body.email);
  const codeChallenge = codeChallengeFrom(body.code_challenge, body.code_challenge_method);
  const redirectTo = redirectOf(env, request);
  takeEmailLimits(env, address, email);
  const pending = await env.db.transaction(async (tx) => {
    const user = await findUserByEmail(tx, email, { lock: true });
    if (user?.banned) return null;
    if (user) return issueLink(env, tx, user.id, isConfirmed(user) ? 'magiclink' : 'signup', email, codeChallenge);
    if (body.create_user === false) return null;
    const userId = await insertEmailUser(tx, { email, passwordHash: null, metadata: body.data ?? {} });
    return issueLink(env, tx, userId, 'signup', email, codeChallenge);
  });
  await deliver(env, pending, redirectTo);
  return jsonResponse({});
};

/** POST /resend: the confirmation email again (type signup) or the email-change link again (type email_change). */
export const resend: AuthEndpoint = async (env, request) => {
  const address = clientAddress(request);
  env.limiter.check('emailRequests', address);
  const body = await readBody(request, resendBodySchema);
  if (body.type !== 'signup' && body.type !== 'email_change') {
    throw badRequest('validation_failed', 'Missing one of these types: signup, email_change');
  }
  if (!body.email) throw badRequest('validation_failed', 'An email address is required');
  const email = validEmail(body.email);
  const type = body.type;
  const codeChallenge = codeChallengeFrom(body.code_challenge, body.code_challenge_method);
  const redirectTo = redirectOf(env, request);
  takeEmailLimits(env, address, email);
  const pending = await env.db.transaction(async (tx) => {
    if (type === 'signup') {
      const user = await findUserByEmail(tx, email, { lock: true });
      if (!user || user.banned || isConfirmed(user)) return null;
      return issueLink(env, tx, user.id, 'signup', email, codeChallenge);
    }
    // A change to an address another account has meanwhile taken can never complete: nothing to resend.
    const { rows } = await tx.query<{ id: string }>(
      `select id from auth.users
        where lower(email_change) = $1 and deleted_at is null
          and not exists (select 1 from auth.users holder where lower(holder.email) = $1 and holder.deleted_at is null)
        for update`,
      [email],
    );
    return rows[0] ? issueLink(env, tx, rows[0].id, 'email_change', email, codeChallenge) : null;
  });
  await deliver(env, pending, redirectTo);
  return jsonResponse({});
};
