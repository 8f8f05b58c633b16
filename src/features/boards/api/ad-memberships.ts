import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { apiErrorFrom } from '../../../lib/api-error.ts';
import { supabase } from '../../../lib/supabase-client.ts';

/** The ids of the caller's boards (Favorites included) that hold the ad. */
export async function getAdMemberships(adId: string): Promise<string[]> {
  const { data, error } = await supabase.from('user_collection_items').select('collection_id').eq('ad_id', adId);
  if (error) throw apiErrorFrom(error);
  return z
    .array(z.object({ collection_id: z.string() }))
    .parse(data)
    .map((row) => row.collection_id);
}

/** Shares its key with the ad detail's heart, so the heart and the Favorites row always agree. */
export function adMembershipsQueryOptions(adId: string, userId: string | null) {
  return queryOptions({
    queryKey: ['collection-items', 'by-ad', adId, userId],
    queryFn: () => getAdMemberships(adId),
    enabled: userId !== null,
  });
}

export function useAdMemberships(adId: string, userId: string | null, enabled = true) {
  return useQuery({ ...adMembershipsQueryOptions(adId, userId), enabled: userId !== null && enabled });
}

export interface SaveAdBoardsInput {
  adId: string;
  add: string[];
  remove: string[];
}

/** Every add and remove of one ad's boards in one transaction; resolves to the boards holding it afterwards. */
export async function saveAdBoards({ adId, add, remove }: SaveAdBoardsInput): Promise<string[]> {
  const { data, error } = await supabase.rpc('save_ad_boards', { p_ad_id: adId, p_add: add, p_remove: remove });
  if (error) throw apiErrorFrom(error);
  return z.array(z.string()).parse(data);
}

export function useSaveAdBoards(userId: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveAdBoards,
    onSuccess: (boardIds, { adId }) => {
      queryClient.setQueryData(adMembershipsQueryOptions(adId, userId).queryKey, boardIds);
      void queryClient.invalidateQueries({ queryKey: ['ads', 'collection'] });
    },
    onError: (_error, { adId }) => {
      // Nothing changed on the server; read the memberships again in case this tab's copy was stale.
      void queryClient.invalidateQueries({ queryKey: adMembershipsQueryOptions(adId, userId).queryKey });
    },
  });
}
