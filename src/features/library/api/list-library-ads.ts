import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { adPageSchema, type AdPage } from '../../../lib/ad-schema.ts';
import { apiErrorFrom } from '../../../lib/api-error.ts';
import { AD_LIST_CACHE_MS, PAGE_SIZE } from '../../../lib/constants.ts';
import { supabase } from '../../../lib/supabase-client.ts';
import type { LibrarySort } from '../lib/fact-filters.ts';

/** The library's query as the server takes it: ids resolved, `since` an ISO instant fixed for the query's life. */
export interface LibraryFilters {
  brandId: string | null;
  categoryId: string | null;
  typeId: string | null;
  tagIds: string[];
  since: string | null;
  search: string;
  /** Ads running on any of these platforms. */
  platforms: string[];
  format: string | null;
  offer: string | null;
  hookId: string | null;
  minRunningDays: number | null;
  /** True: only ads still running; false: no filter. */
  stillRunning: boolean;
  sort: LibrarySort;
}

/** One page of the library (60 ads) in the chosen order; the server decides which ads are clear. */
export async function listLibraryAds(filters: LibraryFilters, cursor: string | null): Promise<AdPage> {
  const { data, error } = await supabase.rpc('list_ads', {
    p_board: 'library',
    p_brand_id: filters.brandId,
    p_category_id: filters.categoryId,
    p_type_id: filters.typeId,
    p_tag_ids: filters.tagIds.length > 0 ? filters.tagIds : null,
    p_since: filters.since,
    p_search: filters.search.trim() || null,
    p_cursor: cursor,
    p_platforms: filters.platforms.length > 0 ? filters.platforms : null,
    p_format: filters.format,
    p_offer: filters.offer,
    p_hook_id: filters.hookId,
    p_min_running_days: filters.minRunningDays,
    p_still_running: filters.stillRunning || null,
    p_sort: filters.sort,
  });
  if (error) throw apiErrorFrom(error);
  const page = adPageSchema.parse(data);
  // An empty or short page is the last one.
  return page.ads.length < PAGE_SIZE ? { ...page, next_cursor: null } : page;
}

export function libraryAdsQueryOptions(filters: LibraryFilters) {
  return infiniteQueryOptions({
    queryKey: ['ads', 'library', filters],
    queryFn: ({ pageParam }) => listLibraryAds(filters, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.next_cursor ?? undefined,
    gcTime: AD_LIST_CACHE_MS,
  });
}

export function useLibraryAds(filters: LibraryFilters, enabled: boolean) {
  return useInfiniteQuery({ ...libraryAdsQueryOptions(filters), enabled });
}
