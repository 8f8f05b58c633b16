import { supabase } from '../../../lib/supabase-client.ts';
import { authErrorText } from './auth-error-text.ts';

/**
 * Sets a new password. A signed-in user proves it is them with the current
 * password; a user who came from a reset link has no current password to give
 * (the auth server counts the fresh link as proof).
 */
export async function updatePassword(password: string, currentPassword?: string): Promise<{ error: string | null }> {
  const { error } = await supabase.auth.updateUser(currentPassword ? { password, current_password: currentPassword } : { password });
  return { error: authErrorText(error) };
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
 * new email address (with the current password), which changes only once its
 * emailed link is opened.
 */
export async function updateProfile({
  fullName,
  email,
  currentPassword,
}: {
  fullName: string;
  email?: string;
  currentPassword?: string;
}): Promise<{ error: string | null }> {
  const data = { full_name: fullName.trim() };
  const { error } = email
    ? await supabase.auth.updateUser(
        { email: email.trim(), data, ...(currentPassword ? { current_password: currentPassword } : {}) },
        { emailRedirectTo: `${window.location.origin}/profile` },
      )
    : await supabase.auth.updateUser({ data });
  return { error: authErrorText(error) };
}
