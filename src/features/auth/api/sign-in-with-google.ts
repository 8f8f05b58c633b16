import { supabase } from '../../../lib/supabase-client.ts';

/** The auth server's message from a refused provider request, or a generic one. */
async function refusalMessage(response: Response): Promise<string> {
  const body = (await response.json().catch(() => null)) as { msg?: string; message?: string; error_description?: string } | null;
  return body?.msg ?? body?.message ?? body?.error_description ?? `Google sign-in is unavailable (${response.status}).`;
}

/**
 * Starts Google sign-in. The provider URL is checked first so a provider the
 * server has not enabled gives its clear message here instead of a bare error page.
 */
export async function signInWithGoogle(redirectTo: string): Promise<{ error: string | null }> {
  const { data, error } = await supabase.auth.signInWithOAuth({ provider: 'google', options: { redirectTo, skipBrowserRedirect: true } });
  if (error) return { error: error.message };
  if (!data.url) return { error: 'Google sign-in is unavailable.' };
  const probe = await fetch(data.url, { redirect: 'manual', credentials: 'omit' }).catch(() => null);
  if (probe && probe.type !== 'opaqueredirect' && probe.status >= 400) return { error: await refusalMessage(probe) };
  window.location.assign(data.url);
  return { error: null };
}
