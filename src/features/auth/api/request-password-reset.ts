import { supabase } from '../../../lib/supabase-client.ts';
import { authErrorText } from './auth-error-text.ts';

/** One reset email, whose link lands on this site's reset-password page. */
export async function requestPasswordReset(email: string): Promise<{ error: string | null }> {
  const { error } = await supabase.auth.resetPasswordForEmail(email.trim(), { redirectTo: `${window.location.origin}/auth/reset-password` });
  return { error: authErrorText(error) };
}
