import { supabase } from '../../../lib/supabase-client.ts';

/** Sets a new password for the signed-in (or recovering) user. */
export async function updatePassword(password: string): Promise<{ error: string | null }> {
  const { error } = await supabase.auth.updateUser({ password });
  return { error: error ? error.message : null };
}

/**
 * The last step of a reset: the new password, then the recovery session ends
 * here so the user signs in with it.
 */
export async function finishPasswordRecovery(password: string): Promise<{ error: string | null }> {
  const { error } = await updatePassword(password);
  if (error) return { error };
  await supabase.auth.signOut({ scope: 'local' });
  return { error: null };
}

/**
 * Saves the display name in the user's metadata and, when given, asks for a
 * new email address, which changes only once its emailed link is opened.
 */
export async function updateProfile({ fullName, email }: { fullName: string; email?: string }): Promise<{ error: string | null }> {
  const data = { full_name: fullName.trim() };
  const { error } = email
    ? await supabase.auth.updateUser({ email: email.trim(), data }, { emailRedirectTo: `${window.location.origin}/profile` })
    : await supabase.auth.updateUser({ data });
  return { error: error ? error.message : null };
}
