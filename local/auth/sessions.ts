import { randomBytes, randomUUID } from 'node:crypto';
import type { Database, Queryable } from '../db/database.ts';
import { AuthApiError, badRequest, forbidden } from './auth-errors.ts';
import type { AuthSettings } from './auth-settings.ts';
import { type AccessClaims, InvalidJwtError, signJwt, verifyJwt } from './jwt.ts';
import { clientAddress } from './rate-limits.ts';
import { type AuthUser, authUser, findUserById, type UserRow } from './users.ts';

/** How a session was authenticated (the amr claim), with Supabase Auth's names. */
export type AuthMethod = 'password' | 'otp' | 'oauth' | 'recovery' | 'magiclink' | 'email/signup' | 'email_change' | 'invite';

/** The session as Supabase Auth returns it from /token and puts in redirect fragments. */
export interface SessionResponse {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: AuthUser;
  provider_token?: string;
  provider_refresh_token?: string;
}

export interface ProviderTokens {
  providerToken?: string | null;
  providerRefreshToken?: string | null;
}

export type SignOutScope = 'global' | 'local' | 'others';

const newRefreshToken = () => randomBytes(24).toString('base64url');

async function insertRefreshToken(q: Queryable, userId: string, sessionId: string, parent: string | null): Promise<string> {
  const token = newRefreshToken();
  await q.query(
    `insert into auth.refresh_tokens (instance_id, token, user_id, session_id, parent)
     values ('00000000-0000-0000-0000-000000000000', $1, $2, $3, $4)`,
    [token, userId, sessionId, parent],
  );
  return token;
}

async function sessionResponse(
  q: Queryable,
  settings: AuthSettings,
  userId: string,
  sessionId: string,
  refreshToken: string,
  providerTokens: ProviderTokens = {},
): Promise<SessionResponse> {
  const user = await findUserById(q, userId);
  if (!user) throw new AuthApiError(500, 'unexpected_failure', 'The session user disappeared');
  const { rows: amr } = await q.query<{ method: string; timestamp: string }>(
    `select authentication_method as method, floor(extract(epoch from created_at))::bigint as timestamp
       from auth.mfa_amr_claims where session_id = $1 order by created_at desc`,
    [sessionId],
  );
  const { rows: sessions } = await q.query<{ aal: string }>('select aal from auth.sessions where id = $1', [sessionId]);
  const iat = Math.floor(Date.now() / 1000);
  const exp = iat + settings.jwtExpirySeconds;
  const claims: AccessClaims = {
    aud: user.aud ?? 'authenticated',
    exp,
    iat,
    iss: settings.apiUrl,
    sub: user.id,
    email: user.email ?? '',
    phone: user.phone ?? '',
    app_metadata: user.raw_app_meta_data,
    user_metadata: user.raw_user_meta_data,
    role: 'authenticated',
    aal: sessions[0]?.aal ?? 'aal1',
    amr: amr.map((entry) => ({ method: entry.method, timestamp: Number(entry.timestamp) })),
    session_id: sessionId,
    is_anonymous: user.is_anonymous,
  };
  const response: SessionResponse = {
    access_token: await signJwt(claims, settings.jwtSecret),
    token_type: 'bearer',
    expires_in: settings.jwtExpirySeconds,
    expires_at: exp,
    refresh_token: refreshToken,
    user: await authUser(q, user),
  };
  if (providerTokens.providerToken) response.provider_token = providerTokens.providerToken;
  if (providerTokens.providerRefreshToken) response.provider_refresh_token = providerTokens.providerRefreshToken;
  return response;
}

/** Signs the user in: a new session, its first refresh token and an access token. */
export async function startSession(
  q: Queryable,
  settings: AuthSettings,
  user: UserRow,
  method: AuthMethod,
  request: Request,
  providerTokens: ProviderTokens = {},
): Promise<SessionResponse> {
  const sessionId = randomUUID();
  await q.query(
    `insert into auth.sessions (id, user_id, aal, user_agent, ip, refreshed_at) values ($1, $2, 'aal1', $3, $4, now())`,
    [sessionId, user.id, request.headers.get('user-agent'), clientAddress(request)],
  );
  await q.query('insert into auth.mfa_amr_claims (session_id, authentication_method) values ($1, $2)', [sessionId, method]);
  await q.query('update auth.users set last_sign_in_at = now(), updated_at = now() where id = $1', [user.id]);
  const refreshToken = await insertRefreshToken(q, user.id, sessionId, null);
  return sessionResponse(q, settings, user.id, sessionId, refreshToken, providerTokens);
}

interface RefreshTokenRow {
  token: string;
  revoked: boolean;
  user_id: string;
  session_id: string;
  within_reuse_interval: boolean;
  session_expired: boolean;
}

/**
 * Rotates a refresh token: the presented token is revoked and a child token
 * issued. A revoked token presented again within the reuse interval (two
 * tabs refreshing at once) gets the session's current token; later, it is
 * treated as stolen and the whole session ends.
 */
export async function refreshSession(db: Database, settings: AuthSettings, refreshToken: string): Promise<SessionResponse> {
  const outcome = await db.transaction(async (tx): Promise<SessionResponse | AuthApiError> => {
    const { rows } = await tx.query<RefreshTokenRow>(
      `select rt.token, rt.revoked, rt.user_id, rt.session_id,
              rt.updated_at + make_interval(secs => $2) > now() as within_reuse_interval,
              coalesce(s.not_after < now(), false) as session_expired
         from auth.refresh_tokens rt join auth.sessions s on s.id = rt.session_id
        where rt.token = $1
        for update of rt, s`,
      [refreshToken, settings.refreshTokenReuseIntervalSeconds],
    );
    const token = rows[0];
    if (!token) return badRequest('refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
    const user = await findUserById(tx, token.user_id);
    if (!user) return badRequest('refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
    if (user.banned) return badRequest('user_banned', 'Invalid Refresh Token: User Banned');
    if (token.session_expired) return badRequest('session_expired', 'Invalid Refresh Token: Session Expired');

    let issued: string | null = null;
    if (token.revoked) {
      const { rows: active } = await tx.query<{ token: string; parent: string | null }>(
        `select token, parent from auth.refresh_tokens where session_id = $1 and not revoked order by id desc limit 1`,
        [token.session_id],
      );
      if (active[0]?.parent === token.token && token.within_reuse_interval) {
        issued = active[0].token;
      } else if (!token.within_reuse_interval) {
        // Reuse of a rotated token: someone else holds this session's tokens. End it (its tokens go with it).
        await tx.query('delete from auth.sessions where id = $1', [token.session_id]);
        return badRequest('refresh_token_already_used', 'Invalid Refresh Token: Already Used');
      }
    }
    if (!issued) {
      await tx.query('update auth.refresh_tokens set revoked = true, updated_at = now() where token = $1', [token.token]);
      issued = await insertRefreshToken(tx, token.user_id, token.session_id, token.token);
    }
    await tx.query('update auth.sessions set refreshed_at = now(), updated_at = now() where id = $1', [token.session_id]);
    return sessionResponse(tx, settings, token.user_id, token.session_id, issued);
  });
  if (outcome instanceof AuthApiError) throw outcome;
  return outcome;
}

export interface Caller {
  claims: AccessClaims;
  user: UserRow;
  sessionId: string | null;
}

/** The signed-in caller from the Bearer access token, with its user and session still existing. */
export async function authenticate(q: Queryable, settings: AuthSettings, request: Request): Promise<Caller> {
  const match = /^bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '');
  if (!match) throw new AuthApiError(401, 'no_authorization', 'This endpoint requires a valid Bearer token');
  let claims: AccessClaims;
  try {
    claims = await verifyJwt(match[1]!, settings.jwtSecret);
  } catch (error) {
    if (error instanceof InvalidJwtError) throw forbidden('bad_jwt', error.message);
    throw error;
  }
  if (claims.role !== 'authenticated' || typeof claims.sub !== 'string') {
    throw forbidden('bad_jwt', 'invalid claim: missing sub claim');
  }
  const user = await findUserById(q, claims.sub);
  if (!user) throw forbidden('user_not_found', 'User from sub claim in JWT does not exist');
  const sessionId = typeof claims.session_id === 'string' ? claims.session_id : null;
  if (sessionId) {
    const { rows } = await q.query('select 1 from auth.sessions where id = $1 and user_id = $2', [sessionId, user.id]);
    if (rows.length === 0) throw forbidden('session_not_found', 'Session from session_id claim in JWT does not exist');
  }
  return { claims, user, sessionId };
}

/** Ends the caller's sessions: this one (local), all (global) or all but this one (others). */
export async function endSessions(q: Queryable, userId: string, sessionId: string | null, scope: SignOutScope): Promise<void> {
  if (scope === 'global' || (scope === 'local' && !sessionId)) {
    await q.query('delete from auth.sessions where user_id = $1', [userId]);
  } else if (scope === 'local') {
    await q.query('delete from auth.sessions where id = $1 and user_id = $2', [sessionId, userId]);
  } else {
    await q.query('delete from auth.sessions where user_id = $1 and id is distinct from $2', [userId, sessionId]);
  }
}
