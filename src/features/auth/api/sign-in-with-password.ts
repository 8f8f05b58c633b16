import { supabase } from '../../../lib/supabase-client.ts';

export interface Credentials {
  email: string;
  password: string;
}

/** Password sign-in; the error is the server's message, shown under the form. */
export async function signInWithPassword({ email, password }: Credentials): Promise<{ error: string | null }> {
  const { error } = await supabase.auth.signInWithPassword({ email: email.trim(), password });
  return { error: error ? error.message : null };
}
