import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { adPageSchema, type AdPage } from '../../../lib/ad-schema.ts';
import { apiErrorFrom } from '../../../lib/api-error.ts';
import { AD_LIST_CACHE_MS, PAGE_SIZE } from '../../../lib/constants.ts';
import { supabase } from '../../../lib/supabase-client.ts';

/** One page (60) of a board's ads, newest saved first; the server decides which are clear. */
export async function listCollectionAds(boardId: string, cursor: string | null): Promise<AdPage> {
  const { data, error } = await supabase.rpc('list_collection_ads', { p_collection_id: boardId, p_cursor: cursor });
  if (error) throw apiErrorFrom(error);
  const page = adPageSchema.parse(data);
  return page.ads.length < PAGE_SIZE ? { ...page, next_cursor: null } : page;
}

export function collectionAdsQueryOptions(boardId: string) {
  return infiniteQueryOptions({
    queryKey: ['ads', 'collection', boardId],
    queryFn: ({ pageParam }) => listCollectionAds(boardId, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.next_cursor ?? undefined,
    gcTime: AD_LIST_CACHE_MS,
    retry: (count, error) => (error as { code?: string }).code !== 'board_not_found' && count < 2,
  });
}

export function useCollectionAds(boardId: string | null) {
  return useInfiniteQuery({ ...collectionAdsQueryOptions(boardId ?? ''), enabled: boardId !== null });
}

/** Takes one ad out of one board. */
export async function removeFromBoard({ boardId, adId }: { boardId: string; adId: string }): Promise<void> {
  const { error } = await supabase.rpc('save_ad_boards', { p_ad_id: adId, p_add: [], p_remove: [boardId] });
  if (error) throw apiErrorFrom(error);
}

export function useRemoveFromBoard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeFromBoard,
    onSuccess: (_result, { boardId, adId }) => {
      void queryClient.invalidateQueries({ queryKey: ['ads', 'collection', boardId] });
      void queryClient.invalidateQueries({ queryKey: ['collection-items', 'by-ad', adId] });
    },
  });
}
