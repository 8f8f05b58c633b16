import { supabase } from '../../../lib/supabase-client.ts';

/**
 * Fetches the account afresh through a token refresh. An email-change link
 * lands with a code the client cannot exchange (saving the session after
 * updateUser dropped its PKCE verifier); the change is already applied on the
 * server, so fresh tokens carry the new address.
 */
export async function reloadAccount(): Promise<void> {
  await supabase.auth.refreshSession();
}
