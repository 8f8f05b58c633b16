import * as z from 'zod/mini';
import { apiErrorFrom } from '../../../lib/api-error.ts';
import { ADMIN_BATCH_MAX } from '../../../lib/constants.ts';
import { supabase } from '../../../lib/supabase-client.ts';

export const adminAdFactsSchema = z.object({
  id: z.string(),
  platforms: z.nullable(z.array(z.string())),
  placement: z.nullable(z.string()),
  format: z.nullable(z.string()),
  first_seen: z.nullable(z.string()),
  last_seen: z.nullable(z.string()),
  still_running: z.boolean(),
  landing_url: z.nullable(z.string()),
  primary_text: z.nullable(z.string()),
  headline: z.nullable(z.string()),
  call_to_action: z.nullable(z.string()),
  offer: z.nullable(z.string()),
  hook_id: z.nullable(z.string()),
  hook_name: z.nullable(z.string()),
  language: z.nullable(z.string()),
  country: z.nullable(z.string()),
});
export type AdminAdFacts = z.infer<typeof adminAdFactsSchema>;

/** The stored facts of the ads named (admin_ad_facts), ADMIN_BATCH_MAX at a time; ids that name no ad are left out. */
export async function getAdminAdFacts(ids: readonly string[]): Promise<Map<string, AdminAdFacts>> {
  const facts = new Map<string, AdminAdFacts>();
  for (let start = 0; start < ids.length; start += ADMIN_BATCH_MAX) {
    const { data, error } = await supabase.rpc('admin_ad_facts', { p_ids: ids.slice(start, start + ADMIN_BATCH_MAX) });
    if (error) throw apiErrorFrom(error);
    for (const row of z.array(adminAdFactsSchema).parse(data)) facts.set(row.id, row);
  }
  return facts;
}
