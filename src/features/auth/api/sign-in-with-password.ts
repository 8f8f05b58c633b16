import { supabase } from '../../../lib/supabase-client.ts';
import { authErrorText } from './auth-error-text.ts';
import { ACCOUNT_TEXTS } from '../../../lib/account-texts.ts';

export interface Credentials {
  email: string;
  password: string;
}

const SIGN_IN_TEXTS = { over_request_rate_limit: ACCOUNT_TEXTS.account.errors.tooManySignIns };

/** Password sign-in; the error is our sentence for its code, shown under the form. */
export async function signInWithPassword({ email, password }: Credentials): Promise<{ error: string | null }> {
  const { error } = await supabase.auth.signInWithPassword({ email: email.trim(), password });
  return { error: authErrorText(error, SIGN_IN_TEXTS) };
}
