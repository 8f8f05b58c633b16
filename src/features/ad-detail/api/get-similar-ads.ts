import { queryOptions, useQuery } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { adSchema, type Ad } from '../../../lib/ad-schema.ts';
import { apiErrorFrom } from '../../../lib/api-error.ts';
import { supabase } from '../../../lib/supabase-client.ts';

const similarAdsSchema = z.array(adSchema);

/**
 * Up to 12 ads most like one ad (similar_ads: look, tags, category, hook, type and format), most alike first, each
 * clear or locked for the viewer as in the grid.
 */
export async function getSimilarAds(id: string): Promise<Ad[]> {
  const { data, error } = await supabase.rpc('similar_ads', { p_id: id });
  if (error) throw apiErrorFrom(error);
  return similarAdsSchema.parse(data);
}

// Under 'ads' so that what refreshes the lists (a new subscription, a deleted ad) refreshes these too; a plain array,
// so the lookups of list pages pass it by.
export function similarAdsQueryOptions(id: string) {
  return queryOptions({ queryKey: ['ads', 'similar', id], queryFn: () => getSimilarAds(id), retry: 1 });
}

export function useSimilarAds(id: string, enabled: boolean) {
  return useQuery({ ...similarAdsQueryOptions(id), enabled });
}
