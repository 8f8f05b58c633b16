import { createClient } from 'npm:@supabase/supabase-js@2.109.0';
import { bearerToken, errorResponse } from './http.ts';

export interface SignedInUser {
  id: string;
  email: string | null;
}

/** The user a token belongs to, or null when the auth service refuses the token (forged, expired, signed out). */
export type Authenticate = (accessToken: string) => Promise<SignedInUser | null>;

export function createAuthenticate(supabaseUrl: string, anonKey: string): Authenticate {
  const client = createClient(supabaseUrl, anonKey, { auth: { persistSession: false, autoRefreshToken: false } });
  return async (accessToken) => {
    const { data, error } = await client.auth.getUser(accessToken);
    if (error) {
      if (error.status !== undefined && error.status >= 400 && error.status < 500) return null;
      throw error;
    }
    return data.user ? { id: data.user.id, email: data.user.email ?? null } : null;
  };
}

/** The caller, or the 401 to answer: functions that act for a user never run for a token the auth service refuses. */
export async function requireSignedInUser(
  request: Request,
  authenticate: Authenticate,
  whatFor: string,
): Promise<{ ok: true; user: SignedInUser; accessToken: string } | { ok: false; response: Response }> {
  const accessToken = bearerToken(request);
  if (!accessToken) return { ok: false, response: errorResponse('not_authenticated', `Sign in to ${whatFor}`) };
  const user = await authenticate(accessToken);
  if (!user) return { ok: false, response: errorResponse('not_authenticated', 'Your session has expired or is not valid; sign in again') };
  return { ok: true, user, accessToken };
}
