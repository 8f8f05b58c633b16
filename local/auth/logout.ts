import type { AuthEndpoint } from './auth-environment.ts';
import { API_VERSION, API_VERSION_HEADER, badRequest } from './auth-errors.ts';
import { authenticate, endSessions, type SignOutScope } from './sessions.ts';

const SCOPES: readonly SignOutScope[] = ['global', 'local', 'others'];

/** POST /logout?scope=global|local|others: ends sessions; their refresh tokens stop working at once. */
export const logout: AuthEndpoint = async (env, request) => {
  const scope = new URL(request.url).searchParams.get('scope') ?? 'global';
  if (!(SCOPES as readonly string[]).includes(scope)) {
    throw badRequest('validation_failed', `Unsupported logout scope: ${scope}. Use one of global, local, others`);
  }
  const caller = await authenticate(env.db, env.settings, request);
  await env.db.transaction((tx) => endSessions(tx, caller.user.id, caller.sessionId, scope as SignOutScope));
  return new Response(null, { status: 204, headers: { [API_VERSION_HEADER]: API_VERSION } });
};
