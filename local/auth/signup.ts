import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Queryable } from '../db/database.ts';
import { sendAccountNotice, sendAuthEmail } from './auth-emails.ts';
import { type AuthEndpoint, isUniqueViolation, readBody, validEmail } from './auth-environment.ts';
import { badRequest, jsonResponse, unprocessable } from './auth-errors.ts';
import { type IssuedEmailToken, issueEmailToken } from './email-tokens.ts';
import { codeChallengeFrom, createFlowState } from './flow-state.ts';
import { assertAcceptablePassword, hashPassword } from './passwords.ts';
import { clientAddress } from './rate-limits.ts';
import { allowedRedirect } from './redirects.ts';
import { type AuthUser, authUser, createIdentity, findUserByEmail, findUserById, isConfirmed } from './users.ts';

const signupBodySchema = z.object({
  email: z.string().nullish(),
  phone: z.string().nullish(),
  password: z.string().nullish(),
  data: z.record(z.string(), z.unknown()).nullish(),
  code_challenge: z.string().nullish(),
  code_challenge_method: z.string().nullish(),
});

/** Creates a user who signs in with email and password (and no password for email-link sign-ins). */
export async function insertEmailUser(
  q: Queryable,
  user: { email: string; passwordHash: string | null; metadata: Record<string, unknown> },
): Promise<string> {
  const id = randomUUID();
  // raw_user_meta_data is what the profiles trigger reads the user's name from.
  await q.query(
    `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, raw_app_meta_data, raw_user_meta_data)
     values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2, $3,
             '{"provider": "email", "providers": ["email"]}'::jsonb, $4)`,
    [id, user.email, user.passwordHash ?? '', JSON.stringify(user.metadata)],
  );
  await createIdentity(q, {
    userId: id,
    provider: 'email',
    providerId: id,
    data: { sub: id, email: user.email, email_verified: false, phone_verified: false },
  });
  return id;
}

/**
 * What sign-up answers for an address that already has a confirmed account: a
 * made-up user shaped exactly like a new one (with an email identity), so the
 * answer does not tell whether the address is registered. Supabase Auth sends
 * a made-up user too, but without identities, which gives the answer away.
 */
function obfuscatedUser(email: string, metadata: Record<string, unknown>): AuthUser {
  const now = new Date().toISOString();
  const id = randomUUID();
  return {
    id,
    aud: 'authenticated',
    role: 'authenticated',
    email,
    phone: '',
    confirmation_sent_at: now,
    app_metadata: { provider: 'email', providers: ['email'] },
    user_metadata: metadata,
    identities: [
      {
        identity_id: randomUUID(),
        id,
        user_id: id,
        identity_data: { sub: id, email, email_verified: false, phone_verified: false },
        provider: 'email',
        created_at: now,
        updated_at: now,
        email,
      },
    ],
    created_at: now,
    updated_at: now,
    is_anonymous: false,
  };
}

/**
 * POST /signup: email and password; the account waits for its email to be
 * confirmed, so the answer is the user without a session and a confirmation
 * email goes out (with PKCE, its link lands with ?code=). An address that has
 * a confirmed account gets the same answer, and its owner an email saying so,
 * with links to sign in and to reset the password.
 */
export const signUp: AuthEndpoint = async (env, request) => {
  const address = clientAddress(request);
  env.limiter.check('signUps', address);
  env.limiter.check('emailRequests', address);
  const body = await readBody(request, signupBodySchema);
  if (body.phone && !body.email) throw badRequest('phone_provider_disabled', 'Phone signups are disabled');
  if (!body.email) throw badRequest('validation_failed', 'To sign up, please provide your email');
  const email = validEmail(body.email);
  if (!body.password) throw unprocessable('validation_failed', 'Signup requires a valid password');
  assertAcceptablePassword(body.password, env.settings.minPasswordLength);
  const codeChallenge = codeChallengeFrom(body.code_challenge, body.code_challenge_method);
  const redirectTo = allowedRedirect(env.settings, new URL(request.url).searchParams.get('redirect_to'));
  const metadata = body.data ?? {};
  env.limiter.check('emailsPerAddress', email);
  env.limiter.record('signUps', address);
  env.limiter.record('emailRequests', address);
  env.limiter.record('emailsPerAddress', email);
  // Hashed for every address, known or not, so that both answers take as long.
  const passwordHash = await hashPassword(body.password);

  let outcome: { user: AuthUser; token: IssuedEmailToken | null };
  try {
    outcome = await env.db.transaction(async (tx) => {
      const existing = await findUserByEmail(tx, email, { lock: true });
      if (existing && isConfirmed(existing)) return { user: obfuscatedUser(email, metadata), token: null };
      // An unconfirmed account gets a new confirmation email; its password and data stay as they were.
      const userId = existing?.id ?? (await insertEmailUser(tx, { email, passwordHash, metadata }));
      if (codeChallenge) {
        await createFlowState(tx, { userId, codeChallenge, providerType: 'email', authenticationMethod: 'email/signup' });
      }
      const token = await issueEmailToken(tx, userId, 'signup', email, { pkce: codeChallenge !== null, secret: env.settings.jwtSecret });
      return { user: await authUser(tx, (await findUserById(tx, userId))!), token };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw unprocessable('user_already_exists', 'User already registered');
    throw error;
  }
  if (outcome.token) {
    await sendAuthEmail(env.mailer, env.settings.apiUrl, { type: 'signup', to: email, token: outcome.token, redirectTo });
  } else {
    await sendAccountNotice(env.mailer, 'account_exists', email, redirectTo);
  }
  return jsonResponse(outcome.user);
};
