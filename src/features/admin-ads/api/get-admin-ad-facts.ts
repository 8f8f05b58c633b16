import * as z from 'zod/mini';
import { adFactsSchema } from '../../../lib/ad-facts.ts';
import { apiErrorFrom } from '../../../lib/api-error.ts';
import { ADMIN_BATCH_MAX } from '../../../lib/constants.ts';
import { supabase } from '../../../lib/supabase-client.ts';

/** One ad's stored facts as admin_ad_facts returns them: get_ad's facts without what get_ad works out for a viewer. */
export const adminAdFactsSchema = z.extend(z.omit(adFactsSchema, { placement_derived: true, running_days: true, image_text: true }), {
  id: z.string(),
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
