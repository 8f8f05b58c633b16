import { vi } from 'vitest';
import type { Session } from '@supabase/supabase-js';
import { fakeSupabase } from '../support/fake-supabase.ts';

type AuthAnswer = { data: unknown; error: { message: string; status?: number; code?: string } | null };

/**
 * The auth calls of the account screens on the fake client, each a spy whose
 * answer a test may change; by default each succeeds without a session.
 */
export function installFakeAuth() {
  const auth = {
    signInWithPassword: vi.fn(async (_: { email: string; password: string }): Promise<AuthAnswer> => ({ data: { session: null, user: null }, error: null })),
    signUp: vi.fn(async (_: unknown): Promise<AuthAnswer> => ({ data: { session: null, user: null }, error: null })),
    signInWithOAuth: vi.fn(async (_: unknown): Promise<AuthAnswer> => ({ data: { provider: 'google', url: 'http://auth.test/authorize?provider=google' }, error: null })),
    resetPasswordForEmail: vi.fn(async (_email: string, _options: unknown): Promise<AuthAnswer> => ({ data: {}, error: null })),
    updateUser: vi.fn(async (_: unknown): Promise<AuthAnswer> => ({ data: { user: fakeSupabase.session?.user ?? null }, error: null })),
    refreshSession: vi.fn(async (): Promise<AuthAnswer> => ({ data: { session: fakeSupabase.session }, error: null })),
    exchangeCodeForSession: vi.fn(async (_code: string): Promise<AuthAnswer> => ({ data: { session: null }, error: { message: 'invalid flow state, no valid flow state found', status: 404 } })),
  };
  Object.assign(fakeSupabase.client.auth, auth);
  return auth;
}

/** A session answer for a sign-in spy that also signs the user in, as supabase-js does. */
export function signsIn(session: Session) {
  return async (): Promise<AuthAnswer> => {
    fakeSupabase.emitAuth('SIGNED_IN', session);
    return { data: { session, user: session.user }, error: null };
  };
}
