import { useMutation, useQueryClient } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { adFactsChangeSchema, type AdFactsChange } from '../../../lib/ad-facts.ts';
import { AD_LISTS_KEY } from '../../../lib/ad-list-cache.ts';
import { ApiError, apiErrorFrom } from '../../../lib/api-error.ts';
import { supabase } from '../../../lib/supabase-client.ts';

/** A type change: leave it, set it, or clear it (the spec's 'no change' and 'clear'). */
export type TypeChange = { mode: 'no_change' } | { mode: 'clear' } | { mode: 'set'; typeId: string };

export interface AdsChange {
  ids: string[];
  /** null: no change. */
  brandId: string | null;
  categoryId: string | null;
  type: TypeChange;
  addTagIds: string[];
  removeTagIds: string[];
  /** The facts to change: a key given sets it (null clears it), a key left out keeps it. */
  facts?: AdFactsChange;
}

export const adResultsSchema = z.array(z.object({ id: z.string(), ok: z.boolean(), error: z.nullable(z.string()) }));
export type AdResult = z.infer<typeof adResultsSchema>[number];

export function changesSomething(change: Omit<AdsChange, 'ids'>): boolean {
  return change.brandId !== null || change.categoryId !== null || change.type.mode !== 'no_change' || change.addTagIds.length > 0 || change.removeTagIds.length > 0 || Object.keys(change.facts ?? {}).length > 0;
}

/** A refused fact is named by the rule it broke (the hint carries the check's name), so the admin reads which one. */
function factsErrorFrom(error: { message: string; details?: string | null; hint?: string | null; code?: string | null }): ApiError {
  if (error.details === 'invalid_facts' && error.hint && /^ads_[a-z0-9_]+$/.test(error.hint)) return new ApiError(error.message, error.hint);
  return apiErrorFrom(error);
}

/** One call for any number of ads; answers a result per ad, in the order given. */
export async function updateAds(change: AdsChange): Promise<AdResult[]> {
  const facts = change.facts === undefined ? undefined : adFactsChangeSchema.safeParse(change.facts);
  if (facts && !facts.success) throw new ApiError('The facts did not pass their schema', 'invalid_facts');
  const { data, error } = await supabase.rpc('admin_update_ads', {
    p_ids: change.ids,
    p_brand_id: change.brandId,
    p_category_id: change.categoryId,
    p_type_mode: change.type.mode,
    p_type_id: change.type.mode === 'set' ? change.type.typeId : null,
    p_add_tag_ids: change.addTagIds,
    p_remove_tag_ids: change.removeTagIds,
    ...(facts ? { p_facts: facts.data } : {}),
  });
  if (error) throw factsErrorFrom(error);
  const results = adResultsSchema.parse(data);
  if (!results.some((result) => result.ok)) throw new ApiError('None of the ads exists any more.', 'not_found');
  return results;
}

export function useUpdateAds() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAds,
    onSettled: () => queryClient.invalidateQueries({ queryKey: AD_LISTS_KEY }),
  });
}
