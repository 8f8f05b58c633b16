import { queryOptions, useQuery } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { apiErrorFrom } from '../../../lib/api-error.ts';
import { supabase } from '../../../lib/supabase-client.ts';

/** The ids of the caller's boards (Favorites included) that hold the ad; row-level security keeps them the caller's. */
export async function getAdBoardIds(adId: string): Promise<string[]> {
  const { data, error } = await supabase.from('user_collection_items').select('collection_id').eq('ad_id', adId);
  if (error) throw apiErrorFrom(error);
  return z
    .array(z.object({ collection_id: z.string() }))
    .parse(data)
    .map((row) => row.collection_id);
}

export function adBoardIdsQueryOptions(adId: string, userId: string | null) {
  return queryOptions({
    queryKey: ['collection-items', 'by-ad', adId, userId],
    queryFn: () => getAdBoardIds(adId),
    enabled: userId !== null,
  });
}

export function useAdBoardIds(adId: string, userId: string | null) {
  return useQuery(adBoardIdsQueryOptions(adId, userId));
}
