import { supabase } from '../../../lib/supabase-client.ts';
import { ACCOUNT_TEXTS } from '../../../lib/account-texts.ts';
import { authErrorText } from './auth-error-text.ts';

/**
 * Makes sure a recovery session exists: the client may already have exchanged
 * the link's code while starting up; otherwise the code is exchanged here.
 */
export async function ensureRecoverySession(code: string | null): Promise<{ ok: boolean; error: string | null }> {
  const { data } = await supabase.auth.getSession();
  if (data.session) return { ok: true, error: null };
  if (!code) return { ok: false, error: null };
  const exchanged = await supabase.auth.exchangeCodeForSession(code);
  if (exchanged.error || !exchanged.data.session) return { ok: false, error: authErrorText(exchanged.error, { unexpected_failure: ACCOUNT_TEXTS.account.errors.linkExpired }) ?? ACCOUNT_TEXTS.account.errors.linkExpired };
  return { ok: true, error: null };
}
