import { useMutation, useQueryClient } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { apiErrorFrom } from '../../../lib/api-error.ts';
import { favoritesIdQueryOptions } from '../../../lib/favorites-board.ts';
import { supabase } from '../../../lib/supabase-client.ts';
import { adBoardIdsQueryOptions } from './get-ad-board-ids.ts';

interface SaveFavoriteInput {
  adId: string;
  favorite: boolean;
  /** The caller's Favorites board (created on first use through the spec's fallback chain). */
  favoritesId: string;
}

/** Adds the ad to the caller's Favorites or removes it; resolves to the ids of the boards holding it afterwards. */
export async function saveFavorite({ adId, favorite, favoritesId }: SaveFavoriteInput): Promise<string[]> {
  const { data, error } = await supabase.rpc('save_ad_boards', {
    p_ad_id: adId,
    ...(favorite ? { p_add: [favoritesId] } : { p_remove: [favoritesId] }),
  });
  if (error) throw apiErrorFrom(error);
  return z.array(z.string()).parse(data);
}

export function useSaveFavorite(userId: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: Omit<SaveFavoriteInput, 'favoritesId'>) =>
      saveFavorite({ ...input, favoritesId: await queryClient.fetchQuery(favoritesIdQueryOptions(userId)) }),
    onSuccess: (boardIds, { adId }) => {
      queryClient.setQueryData(adBoardIdsQueryOptions(adId, userId).queryKey, boardIds);
      // Board pages (Favorites among them) list what was just saved or removed.
      void queryClient.invalidateQueries({ queryKey: ['ads', 'collection'] });
    },
  });
}
