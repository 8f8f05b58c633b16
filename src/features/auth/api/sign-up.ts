import { supabase } from '../../../lib/supabase-client.ts';
import { authErrorText } from './auth-error-text.ts';

export interface SignUpInput {
  email: string;
  password: string;
  firstName?: string;
  lastName?: string;
  /** The absolute address the confirmation link lands on. */
  emailRedirectTo: string;
}

/** Creates the account; the user confirms it through the emailed link. */
export async function signUp({ email, password, firstName, lastName, emailRedirectTo }: SignUpInput): Promise<{ error: string | null }> {
  const data: Record<string, string> = {};
  if (firstName) data.first_name = firstName.trim();
  if (lastName) data.last_name = lastName.trim();
  if (firstName || lastName) data.full_name = [firstName, lastName].map((part) => part?.trim()).filter(Boolean).join(' ');
  const { error } = await supabase.auth.signUp({ email: email.trim(), password, options: { data, emailRedirectTo } });
  return { error: authErrorText(error) };
}
