import { supabase } from '../../../lib/supabase-client.ts';
import { authErrorText } from './auth-error-text.ts';
import { ACCOUNT_TEXTS } from '../../../lib/account-texts.ts';

/** Our sentence for a refused provider request, by the auth server's code. */
async function refusalMessage(response: Response): Promise<string> {
  const body = (await response.json().catch(() => null)) as { error_code?: string; code?: string | number } | null;
  const code = body?.error_code ?? (typeof body?.code === 'string' ? body.code : undefined);
  return code === 'validation_failed' ? ACCOUNT_TEXTS.account.errors.providerDisabled : (authErrorText({ code, status: response.status }) ?? ACCOUNT_TEXTS.account.errors.unexpected);
}

/**
 * Starts Google sign-in. The provider URL is checked first so a provider the
 * server has not enabled gives our clear sentence here instead of a bare error page.
 */
export async function signInWithGoogle(redirectTo: string): Promise<{ error: string | null }> {
  const { data, error } = await supabase.auth.signInWithOAuth({ provider: 'google', options: { redirectTo, skipBrowserRedirect: true } });
  if (error) return { error: authErrorText(error) };
  if (!data.url) return { error: ACCOUNT_TEXTS.account.errors.providerDisabled };
  const probe = await fetch(data.url, { redirect: 'manual', credentials: 'omit' }).catch(() => null);
  if (probe && probe.type !== 'opaqueredirect' && probe.status >= 400) return { error: await refusalMessage(probe) };
  window.location.assign(data.url);
  return { error: null };
}
