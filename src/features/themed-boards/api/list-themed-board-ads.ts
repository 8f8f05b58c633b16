import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { adPageSchema, type AdPage } from '../../../lib/ad-schema.ts';
import { apiErrorFrom } from '../../../lib/api-error.ts';
import { AD_LIST_CACHE_MS, PAGE_SIZE } from '../../../lib/constants.ts';
import { listAdsQuery } from '../../../lib/list-ads-query.ts';
import { supabase } from '../../../lib/supabase-client.ts';

/** The two themed boards, by the name list_ads and page_banners know them by. */
export type ThemedBoard = 'black-friday' | 'top-picks';

export interface ThemedBoardFilters {
  brandId: string | null;
  categoryId: string | null;
  search: string;
}

/** One page (60 ads) of a themed board, newest first; the server decides which ads are clear. */
export async function listThemedBoardAds(board: ThemedBoard, filters: ThemedBoardFilters, cursor: string | null): Promise<AdPage> {
  const query = listAdsQuery({
    board,
    // A board picks one brand and one category; list_ads takes lists.
    brand_ids: filters.brandId ? [filters.brandId] : null,
    category_ids: filters.categoryId ? [filters.categoryId] : null,
    search: filters.search.trim(),
    cursor,
  });
  const { data, error } = await supabase.rpc('list_ads', { p_query: query });
  if (error) throw apiErrorFrom(error);
  const page = adPageSchema.parse(data);
  // An empty or short page is the last one.
  return page.ads.length < PAGE_SIZE ? { ...page, next_cursor: null } : page;
}

export function themedBoardAdsQueryOptions(board: ThemedBoard, filters: ThemedBoardFilters) {
  return infiniteQueryOptions({
    queryKey: ['ads', board, filters],
    queryFn: ({ pageParam }) => listThemedBoardAds(board, filters, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.next_cursor ?? undefined,
    gcTime: AD_LIST_CACHE_MS,
  });
}

export function useThemedBoardAds(board: ThemedBoard, filters: ThemedBoardFilters, enabled: boolean) {
  return useInfiniteQuery({ ...themedBoardAdsQueryOptions(board, filters), enabled });
}
