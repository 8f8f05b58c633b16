import { z } from 'zod';
import { sendAccountNotice, sendAuthEmail } from './auth-emails.ts';
import { type AuthEndpoint, isUniqueViolation, readBody, validEmail } from './auth-environment.ts';
import { badRequest, jsonResponse, unprocessable } from './auth-errors.ts';
import { type IssuedEmailToken, issueEmailToken, revokeEmailTokens } from './email-tokens.ts';
import { codeChallengeFrom, createFlowState } from './flow-state.ts';
import { assertAcceptablePassword, hashPassword, passwordMatches } from './passwords.ts';
import { clientAddress } from './rate-limits.ts';
import { requireReauthentication } from './reauthentication.ts';
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
  current_password: z.string().nullish(),
  data: z.record(z.string(), z.unknown()).nullish(),
  nonce: z.string().nullish(),
  code_challenge: z.string().nullish(),
  code_challenge_method: z.string().nullish(),
});

/**
 * PUT /user (updateUser): a new password (which signs out the user's other
 * sessions), metadata (merged; a null value removes its key) or a new email
 * address, which changes once the link sent to it is followed. A new password
 * or email needs the current password (current_password), a nonce from
 * /reauthenticate, or a session fresh from an emailed link (a reset). An
 * address another account has gets the same answer as a free one; its owner
 * gets a notice instead of a link.
 */
export const updateCurrentUser: AuthEndpoint = async (env, request) => {
  const caller = await authenticate(env.db, env.settings, request);
  const body = await readBody(request, updateUserBodySchema);
  if (body.phone) throw badRequest('phone_provider_disabled', 'Phone sign-in is not enabled');
  const password = body.password ?? undefined;
  if (password !== undefined) assertAcceptablePassword(password, env.settings.minPasswordLength);
  const requestedEmail = body.email ? validEmail(body.email) : null;
  const newEmail = requestedEmail && requestedEmail !== caller.user.email?.toLowerCase() ? requestedEmail : null;
  const codeChallenge = newEmail ? codeChallengeFrom(body.code_challenge, body.code_challenge_method) : null;
  const redirectTo = allowedRedirect(env.settings, new URL(request.url).searchParams.get('redirect_to'));
  if (password !== undefined || newEmail) {
    await requireReauthentication(env, request, caller, {
      currentPassword: body.current_password,
      nonce: body.nonce,
      changing: password !== undefined ? 'password' : 'email',
    });
  }
  if (newEmail) {
    const address = clientAddress(request);
    env.limiter.check('emailRequests', address);
    env.limiter.check('emailsPerAddress', newEmail);
    env.limiter.record('emailRequests', address);
    env.limiter.record('emailsPerAddress', newEmail);
  }
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
    let emailChange: { to: string; token: IssuedEmailToken | null } | null = null;
    if (newEmail) {
      await tx.query(
        `update auth.users set email_change = $2, email_change_sent_at = now(), updated_at = now() where id = $1`,
        [current.id, newEmail],
      );
      // Another account's address: the same answer as for a free one (Supabase Auth says email_exists), a notice to its owner and no link.
      const holder = await findUserByEmail(tx, newEmail);
      if (holder && holder.id !== current.id) {
        await revokeEmailTokens(tx, current.id, ['email_change']);
        emailChange = { to: newEmail, token: null };
      } else {
        if (codeChallenge) {
          await createFlowState(tx, { userId: current.id, codeChallenge, providerType: 'email', authenticationMethod: 'email_change' });
        }
        const token = await issueEmailToken(tx, current.id, 'email_change', newEmail, { pkce: codeChallenge !== null, secret: env.settings.jwtSecret });
        emailChange = { to: newEmail, token };
      }
    }
    return { user: await authUser(tx, (await findUserById(tx, current.id))!), emailChange };
  }).catch((error: unknown) => {
    if (isUniqueViolation(error)) throw unprocessable('email_exists', 'A user with this email address has already been registered');
    throw error;
  });
  if (emailChange?.token) {
    await sendAuthEmail(env.mailer, env.settings.apiUrl, { type: 'email_change', to: emailChange.to, token: emailChange.token, redirectTo });
  } else if (emailChange) {
    await sendAccountNotice(env.mailer, 'email_change_to_existing', emailChange.to, redirectTo);
  }
  return jsonResponse(user);
};
