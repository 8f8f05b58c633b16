import { z } from 'zod';
import { sendAuthEmail } from './auth-emails.ts';
import { type AuthEndpoint, isUniqueViolation, readBody, validEmail } from './auth-environment.ts';
import { badRequest, jsonResponse, unprocessable } from './auth-errors.ts';
import { type IssuedEmailToken, issueEmailToken, revokeEmailTokens } from './email-tokens.ts';
import { codeChallengeFrom, createFlowState } from './flow-state.ts';
import { assertAcceptablePassword, hashPassword, passwordMatches } from './passwords.ts';
import { allowedRedirect } from './redirects.ts';
import { authenticate, endSessions } from './sessions.ts';
import { authUser, findUserByEmail, findUserById } from './users.ts';

/** GET /user: the signed-in user. */
export const getCurrentUser: AuthEndpoint = async (env, request) => {
  const caller = await authenticate(env.db, env.settings, request);
  return jsonResponse(await authUser(env.db, caller.user));
};

const updateUserBodySchema = z.object({
  email: z.string().nullish(),
  phone: z.string().nullish(),
  password: z.string().nullish(),
  data: z.record(z.string(), z.unknown()).nullish(),
  nonce: z.string().nullish(),
  code_challenge: z.string().nullish(),
  code_challenge_method: z.string().nullish(),
});

/**
 * PUT /user (updateUser): a new password (which signs out the user's other
 * sessions), metadata (merged; a null value removes its key) or a new email
 * address, which changes once the link sent to it is followed.
 */
export const updateCurrentUser: AuthEndpoint = async (env, request) => {
  const caller = await authenticate(env.db, env.settings, request);
  const body = await readBody(request, updateUserBodySchema);
  if (body.phone) throw badRequest('phone_provider_disabled', 'Phone sign-in is not enabled');
  const password = body.password ?? undefined;
  if (password !== undefined) assertAcceptablePassword(password, env.settings.minPasswordLength);
  const newEmail = body.email ? validEmail(body.email) : null;
  const codeChallenge = newEmail ? codeChallengeFrom(body.code_challenge, body.code_challenge_method) : null;
  const redirectTo = allowedRedirect(env.settings.siteUrl, new URL(request.url).searchParams.get('redirect_to'));
  const passwordHash = password !== undefined ? await hashPassword(password) : null;

  const { user, emailChange } = await env.db.transaction(async (tx) => {
    const current = (await findUserById(tx, caller.user.id, { lock: true }))!;
    if (password !== undefined && passwordHash) {
      if (await passwordMatches(password, current.encrypted_password)) {
        throw unprocessable('same_password', 'New password should be different from the old password.');
      }
      await tx.query('update auth.users set encrypted_password = $2, updated_at = now() where id = $1', [current.id, passwordHash]);
      await endSessions(tx, current.id, caller.sessionId, 'others');
      await revokeEmailTokens(tx, current.id, ['recovery']);
    }
    if (body.data) {
      await tx.query(
        `update auth.users
            set raw_user_meta_data = (
                  select coalesce(jsonb_object_agg(key, value), '{}'::jsonb)
                    from jsonb_each(raw_user_meta_data || $2::jsonb)
                   where jsonb_typeof(value) <> 'null'),
                updated_at = now()
          where id = $1`,
        [current.id, JSON.stringify(body.data)],
      );
    }
    let emailChange: { to: string; token: IssuedEmailToken } | null = null;
    if (newEmail && newEmail !== current.email?.toLowerCase()) {
      const holder = await findUserByEmail(tx, newEmail);
      if (holder && holder.id !== current.id) {
        throw unprocessable('email_exists', 'A user with this email address has already been registered');
      }
      await tx.query('update auth.users set email_change = $2, updated_at = now() where id = $1', [current.id, newEmail]);
      if (codeChallenge) {
        await createFlowState(tx, { userId: current.id, codeChallenge, providerType: 'email', authenticationMethod: 'email_change' });
      }
      emailChange = { to: newEmail, token: await issueEmailToken(tx, current.id, 'email_change', newEmail, { pkce: codeChallenge !== null, secret: env.settings.jwtSecret }) };
    }
    return { user: await authUser(tx, (await findUserById(tx, current.id))!), emailChange };
  }).catch((error: unknown) => {
    if (isUniqueViolation(error)) throw unprocessable('email_exists', 'A user with this email address has already been registered');
    throw error;
  });
  if (emailChange) {
    await sendAuthEmail(env.mailer, env.settings.apiUrl, { type: 'email_change', ...emailChange, redirectTo });
  }
  return jsonResponse(user);
};
