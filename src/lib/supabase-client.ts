import { createClient } from '@supabase/supabase-js';
import { env } from './env.ts';

/** The one Supabase client of the SPA: session in local storage, refreshed before expiry, PKCE for links. */
export const supabase = createClient(env.supabaseUrl, env.supabaseAnonKey, {
  auth: { persistSession: true, autoRefreshToken: true, detectSessionInUrl: true, flowType: 'pkce' },
});
