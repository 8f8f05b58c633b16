import { randomInt } from 'node:crypto';
import type { Queryable } from '../db/database.ts';
import { escapeHtml } from '../mail/escape-html.ts';
import { type AuthEndpoint, internalError } from './auth-environment.ts';
import { AuthApiError, badRequest, jsonResponse } from './auth-errors.ts';
import { emailTokenHash } from './email-tokens.ts';
import { passwordAttempt } from './password-attempts.ts';
import { clientAddress } from './rate-limits.ts';
import { authenticate, type Caller } from './sessions.ts';
import type { UserRow } from './users.ts';

/** How long the code from /reauthenticate stays valid. */
export const REAUTHENTICATION_EXPIRY_SECONDS = 10 * 60;

/**
 * How long a session signed in through an emailed link (a recovery, magic or
 * confirmation link: amr recovery, magiclink or otp) counts as a fresh
 * authentication, enough to change the password or email without the current
 * password: following the link proved the inbox, as a reset does.
 */
export const FRESH_EMAIL_LINK_SESSION_SECONDS = 15 * 60;
const EMAIL_LINK_METHODS = new Set(['recovery', 'magiclink', 'otp']);

/** Whether the caller's session came from an emailed link within the last FRESH_EMAIL_LINK_SESSION_SECONDS. */
export function isFreshEmailLinkSession(caller: Caller, nowSeconds = Date.now() / 1000): boolean {
  return (caller.claims.amr ?? []).some(
    (entry) => EMAIL_LINK_METHODS.has(entry.method) && nowSeconds - entry.timestamp <= FRESH_EMAIL_LINK_SESSION_SECONDS,
  );
}

const hasPassword = (user: UserRow) => Boolean(user.encrypted_password?.startsWith('$2'));

/**
 * GET /reauthenticate (auth-js reauthenticate()): emails the signed-in user a
 * six-digit code, the nonce that PUT /user accepts instead of the current password.
 */
export const reauthenticate: AuthEndpoint = async (env, request) => {
  const caller = await authenticate(env.db, env.settings, request);
  const email = caller.user.email;
  if (!email) throw badRequest('validation_failed', 'Reauthentication requires an email address');
  const address = clientAddress(request);
  env.limiter.check('emailRequests', address);
  env.limiter.check('emailsPerAddress', email);
  env.limiter.record('emailRequests', address);
  env.limiter.record('emailsPerAddress', email);
  const nonce = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await env.db.query(
    `insert into auth.one_time_tokens (user_id, token_type, token_hash, relates_to) values ($1, 'reauthentication_token', $2, $3)
     on conflict (user_id, token_type)
     do update set token_hash = excluded.token_hash, relates_to = excluded.relates_to, created_at = now(), updated_at = now()`,
    [caller.user.id, emailTokenHash(env.settings.jwtSecret, email, nonce), email.toLowerCase()],
  );
  const intro = 'Enter this code to confirm that it is you changing your password or email address:';
  try {
    await env.mailer.send({
      to: email,
      subject: 'Obyect: Confirm it is you',
      text: [intro, '', nonce, '', 'If you did not ask for it, change your password.', '', '— Obyect'].join('\n'),
      html: `<!doctype html>
<html><body style="font-family: system-ui, sans-serif; line-height: 1.5">
<h2>Confirm it is you</h2>
<p>${escapeHtml(intro)}</p>
<p><strong>${escapeHtml(nonce)}</strong></p>
<p>If you did not ask for it, change your password.</p>
<p>— Obyect</p>
</body></html>`,
    });
  } catch (error) {
    throw internalError('Error sending reauthentication email', error);
  }
  return jsonResponse({});
};

async function consumeNonce(q: Queryable, user: UserRow, nonce: string, secret: string): Promise<boolean> {
  if (!user.email) return false;
  const { rows } = await q.query(
    `delete from auth.one_time_tokens
      where user_id = $1 and token_type = 'reauthentication_token' and token_hash = $2
        and created_at + make_interval(secs => $3) > now()
      returning 1`,
    [user.id, emailTokenHash(secret, user.email, nonce.trim()), REAUTHENTICATION_EXPIRY_SECONDS],
  );
  return rows.length > 0;
}

/**
 * Refuses a change of password or email unless the caller proves it is them:
 * the current password, a nonce from /reauthenticate, or a session fresh from
 * an emailed link (a password reset). Wrong passwords and nonces count against
 * the account's sign-in limits, so a stolen session cannot guess the password.
 */
export async function requireReauthentication(
  env: Parameters<AuthEndpoint>[0],
  request: Request,
  caller: Caller,
  proof: { currentPassword?: string | null; nonce?: string | null; changing: 'password' | 'email' },
): Promise<void> {
  const user = caller.user;
  const key = user.email?.toLowerCase() ?? user.id;
  if (proof.currentPassword) {
    if (hasPassword(user) && (await passwordAttempt(env, request, { key, user }, proof.currentPassword))) return;
    throw badRequest('current_password_invalid', 'Current password is incorrect.');
  }
  if (proof.nonce) {
    const address = clientAddress(request);
    env.limiter.checkAccount(key, address);
    if (await consumeNonce(env.db, user, proof.nonce, env.settings.jwtSecret)) return;
    env.limiter.recordFailure(key, address);
    throw new AuthApiError(422, 'reauthentication_not_valid', 'Requires a valid nonce');
  }
  if (isFreshEmailLinkSession(caller)) return;
  if (hasPassword(user)) {
    const what = proof.changing === 'password' ? 'setting a new password' : 'changing the email address';
    throw badRequest('current_password_required', `Current password required when ${what}.`);
  }
  throw badRequest('reauthentication_needed', 'This change requires reauthentication: send the nonce from /reauthenticate');
}
