import { z } from 'zod';
import type { Queryable } from '../db/database.ts';
import { verifyLink } from './auth-emails.ts';
import { type AuthEndpoint, type AuthEnvironment, isUniqueViolation, readBody, validEmail } from './auth-environment.ts';
import { AuthApiError, badRequest, forbidden, jsonResponse, unprocessable } from './auth-errors.ts';
import { type EmailLinkType, issueEmailToken } from './email-tokens.ts';
import { InvalidJwtError, verifyJwt } from './jwt.ts';
import { assertAcceptablePassword, hashPassword } from './passwords.ts';
import { allowedRedirect } from './redirects.ts';
import { insertEmailUser } from './signup.ts';
import { authUser, findUserByEmail, findUserById, type UserRow } from './users.ts';

/** The admin API is for the service role only (server-side tools, seeders, e2e fixtures). */
async function requireServiceRole(env: AuthEnvironment, request: Request): Promise<void> {
  const match = /^bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '');
  if (!match) throw new AuthApiError(401, 'no_authorization', 'This endpoint requires a valid Bearer token');
  try {
    const claims = await verifyJwt(match[1]!, env.settings.jwtSecret);
    if (claims.role !== 'service_role') throw forbidden('not_admin', 'User not allowed');
  } catch (error) {
    if (error instanceof InvalidJwtError) throw forbidden('bad_jwt', error.message);
    throw error;
  }
}

const GO_DURATION_UNITS: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600 };

/** ban_duration as Supabase Auth reads it: a Go duration such as '24h' or '1h30m', or 'none' to lift a ban. */
function banUntil(duration: string): Date | null {
  if (duration === 'none') return null;
  const parts = [...duration.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  if (parts.length === 0 || parts.map((part) => part[0]).join('') !== duration) {
    throw badRequest('validation_failed', `invalid format for ban duration: ${duration}`);
  }
  const seconds = parts.reduce((sum, part) => sum + Number(part[1]) * GO_DURATION_UNITS[part[2]!]!, 0);
  return new Date(Date.now() + seconds * 1000);
}

const metadataSchema = z.record(z.string(), z.unknown()).nullish();
const adminUserBodySchema = z.object({
  email: z.string().nullish(),
  phone: z.string().nullish(),
  password: z.string().nullish(),
  email_confirm: z.boolean().nullish(),
  user_metadata: metadataSchema,
  app_metadata: metadataSchema,
  ban_duration: z.string().nullish(),
});
type AdminUserBody = z.infer<typeof adminUserBodySchema>;

/** Applies the fields every admin write shares; the user row must exist. */
async function applyAdminChanges(q: Queryable, userId: string, body: AdminUserBody, passwordHash: string | null): Promise<void> {
  if (passwordHash) await q.query('update auth.users set encrypted_password = $2 where id = $1', [userId, passwordHash]);
  if (body.email_confirm === true) {
    await q.query('update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()) where id = $1', [userId]);
    await q.query(`update auth.identities set identity_data = identity_data || '{"email_verified": true}' where user_id = $1 and provider = 'email'`, [
      userId,
    ]);
  }
  if (body.user_metadata) {
    await q.query('update auth.users set raw_user_meta_data = raw_user_meta_data || $2::jsonb where id = $1', [
      userId,
      JSON.stringify(body.user_metadata),
    ]);
  }
  if (body.app_metadata) {
    await q.query('update auth.users set raw_app_meta_data = raw_app_meta_data || $2::jsonb where id = $1', [
      userId,
      JSON.stringify(body.app_metadata),
    ]);
  }
  if (body.ban_duration) {
    const until = banUntil(body.ban_duration);
    await q.query('update auth.users set banned_until = $2 where id = $1', [userId, until?.toISOString() ?? null]);
    if (until) await q.query('delete from auth.sessions where user_id = $1', [userId]);
  }
  await q.query('update auth.users set updated_at = now() where id = $1', [userId]);
}

const emailTaken = () => unprocessable('email_exists', 'A user with this email address has already been registered');

async function passwordHashOf(env: AuthEnvironment, password: string | null | undefined): Promise<string | null> {
  if (password === null || password === undefined) return null;
  assertAcceptablePassword(password, env.settings.minPasswordLength);
  return hashPassword(password);
}

/** POST /admin/users (auth.admin.createUser). */
export const adminCreateUser: AuthEndpoint = async (env, request) => {
  await requireServiceRole(env, request);
  const body = await readBody(request, adminUserBodySchema);
  if (body.phone && !body.email) throw badRequest('phone_provider_disabled', 'Phone sign-in is not enabled');
  if (!body.email) throw badRequest('validation_failed', 'Unable to validate email address: invalid format');
  const email = validEmail(body.email);
  const passwordHash = await passwordHashOf(env, body.password);
  try {
    const user = await env.db.transaction(async (tx) => {
      if (await findUserByEmail(tx, email)) throw emailTaken();
      const userId = await insertEmailUser(tx, { email, passwordHash, metadata: body.user_metadata ?? {} });
      await applyAdminChanges(tx, userId, { ...body, user_metadata: null }, null);
      return authUser(tx, (await findUserById(tx, userId))!);
    });
    return jsonResponse(user);
  } catch (error) {
    if (isUniqueViolation(error)) throw emailTaken();
    throw error;
  }
};

function userIdFrom(request: Request): string {
  const id = /\/admin\/users\/([^/]+)$/.exec(new URL(request.url).pathname)?.[1] ?? '';
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) {
    throw badRequest('validation_failed', 'user_id must be an UUID');
  }
  return id;
}

async function existingUser(q: Queryable, id: string): Promise<UserRow> {
  const user = await findUserById(q, id);
  if (!user) throw new AuthApiError(404, 'user_not_found', 'User not found');
  return user;
}

/** GET /admin/users/{id} (auth.admin.getUserById). */
export const adminGetUser: AuthEndpoint = async (env, request) => {
  await requireServiceRole(env, request);
  return jsonResponse(await authUser(env.db, await existingUser(env.db, userIdFrom(request))));
};

/** PUT /admin/users/{id} (auth.admin.updateUserById). */
export const adminUpdateUser: AuthEndpoint = async (env, request) => {
  await requireServiceRole(env, request);
  const id = userIdFrom(request);
  const body = await readBody(request, adminUserBodySchema);
  const email = body.email ? validEmail(body.email) : null;
  const passwordHash = await passwordHashOf(env, body.password);
  try {
    const user = await env.db.transaction(async (tx) => {
      const current = await existingUser(tx, id);
      if (email && email !== current.email) {
        const holder = await findUserByEmail(tx, email);
        if (holder && holder.id !== id) throw emailTaken();
        await tx.query(`update auth.users set email = $2, email_change = '' where id = $1`, [id, email]);
        await tx.query(`update auth.identities set identity_data = identity_data || jsonb_build_object('email', $2::text) where user_id = $1 and provider = 'email'`, [
          id,
          email,
        ]);
      }
      await applyAdminChanges(tx, id, body, passwordHash);
      return authUser(tx, (await findUserById(tx, id))!);
    });
    return jsonResponse(user);
  } catch (error) {
    if (isUniqueViolation(error)) throw emailTaken();
    throw error;
  }
};

/** DELETE /admin/users/{id} (auth.admin.deleteUser): the user and everything that references them. */
export const adminDeleteUser: AuthEndpoint = async (env, request) => {
  await requireServiceRole(env, request);
  const id = userIdFrom(request);
  const body = await readBody(request, z.object({ should_soft_delete: z.boolean().nullish() }));
  await env.db.transaction(async (tx) => {
    await existingUser(tx, id);
    if (body.should_soft_delete) {
      await tx.query('delete from auth.sessions where user_id = $1', [id]);
      await tx.query('delete from auth.identities where user_id = $1', [id]);
      await tx.query(
        `update auth.users set deleted_at = now(), email = null, encrypted_password = '', raw_user_meta_data = '{}'::jsonb where id = $1`,
        [id],
      );
    } else {
      await tx.query('delete from auth.users where id = $1', [id]);
    }
  });
  return jsonResponse({});
};

/** GET /admin/users?page=&per_page= (auth.admin.listUsers), oldest first, with the total and page links. */
export const adminListUsers: AuthEndpoint = async (env, request) => {
  await requireServiceRole(env, request);
  const params = new URL(request.url).searchParams;
  const page = Math.max(1, Number.parseInt(params.get('page') || '1', 10) || 1);
  const perPage = Math.min(1000, Math.max(1, Number.parseInt(params.get('per_page') || '50', 10) || 50));
  const { rows: count } = await env.db.query<{ total: string }>('select count(*) as total from auth.users where deleted_at is null');
  const total = Number(count[0]!.total);
  const { rows: ids } = await env.db.query<{ id: string }>(
    'select id from auth.users where deleted_at is null order by created_at, id limit $1 offset $2',
    [perPage, (page - 1) * perPage],
  );
  const users = [];
  for (const { id } of ids) users.push(await authUser(env.db, (await findUserById(env.db, id))!));
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const links = [];
  if (page < lastPage) links.push(`</admin/users?page=${page + 1}&per_page=${perPage}>; rel="next"`);
  links.push(`</admin/users?page=${lastPage}&per_page=${perPage}>; rel="last"`);
  return jsonResponse({ users, aud: 'authenticated' }, 200, { 'x-total-count': String(total), link: links.join(', ') });
};

const generateLinkBodySchema = z.object({
  type: z.string(),
  email: z.string(),
  password: z.string().nullish(),
  data: metadataSchema,
  redirect_to: z.string().nullish(),
});

/**
 * POST /admin/generate_link: an email link without sending the email, for
 * server-side tools and test fixtures. Types signup, invite, magiclink, recovery.
 */
export const adminGenerateLink: AuthEndpoint = async (env, request) => {
  await requireServiceRole(env, request);
  const body = await readBody(request, generateLinkBodySchema);
  const types: EmailLinkType[] = ['signup', 'invite', 'magiclink', 'recovery'];
  if (!(types as string[]).includes(body.type)) {
    throw badRequest('validation_failed', `Unsupported link type: ${body.type}. Use one of ${types.join(', ')}`);
  }
  const type = body.type as EmailLinkType;
  const email = validEmail(body.email);
  const redirectTo = allowedRedirect(env.settings, new URL(request.url).searchParams.get('redirect_to') ?? body.redirect_to);
  const passwordHash = type === 'signup' ? await passwordHashOf(env, body.password ?? '') : null;
  const { user, token } = await env.db.transaction(async (tx) => {
    let existing = await findUserByEmail(tx, email, { lock: true });
    if (!existing && (type === 'magiclink' || type === 'recovery')) throw new AuthApiError(404, 'user_not_found', 'User with this email not found');
    if (existing && (type === 'signup' || type === 'invite') && existing.email_confirmed_at) throw emailTaken();
    if (!existing) {
      const userId = await insertEmailUser(tx, { email, passwordHash, metadata: body.data ?? {} });
      if (type === 'invite') await tx.query('update auth.users set invited_at = now() where id = $1', [userId]);
      existing = (await findUserById(tx, userId))!;
    }
    const token = await issueEmailToken(tx, existing.id, type, email, { pkce: false, secret: env.settings.jwtSecret });
    return { user: await authUser(tx, (await findUserById(tx, existing.id))!), token };
  });
  return jsonResponse({
    ...user,
    action_link: verifyLink(env.settings.apiUrl, type, token.linkToken, redirectTo),
    email_otp: token.otp,
    hashed_token: token.linkToken,
    redirect_to: redirectTo,
    verification_type: type,
  });
};
