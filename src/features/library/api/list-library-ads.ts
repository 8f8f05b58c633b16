import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { adPageSchema, type AdPage } from '../../../lib/ad-schema.ts';
import { apiErrorFrom } from '../../../lib/api-error.ts';
import type { AdFormat, AdOffer, AdPlatform } from '../../../lib/ad-fact-values.ts';
import type { ColourSwatchId } from '../../../lib/colour-swatches.ts';
import { AD_LIST_CACHE_MS, PAGE_SIZE } from '../../../lib/constants.ts';
import { supabase } from '../../../lib/supabase-client.ts';

/**
 * The library's orders (list_ads' p_sort): newest first; longest running first; last seen first (a running ad
 * counts as seen today); and, with a search, the best matches first (without one the server orders it as newest).
 */
export const LIBRARY_SORTS = ['newest', 'longest_running', 'recently_seen', 'relevance'] as const;
export type LibrarySort = (typeof LIBRARY_SORTS)[number];

/**
 * The library's query as the server takes it: ids resolved, `since` an ISO instant fixed for the query's life.
 * The facts' filters and the order are optional: left out, they do not filter and the order is newest first.
 */
export interface LibraryFilters {
  brandId: string | null;
  categoryId: string | null;
  typeId: string | null;
  tagIds: string[];
  since: string | null;
  search: string;
  /** Ads that ran on any of these platforms (none: every ad). */
  platforms?: AdPlatform[];
  format?: AdFormat | null;
  offer?: AdOffer | null;
  hookId?: string | null;
  /** Ads that ran at least this many days (1 to RUNNING_DAYS_MAX), counted as the cards count them. */
  minRunningDays?: number | null;
  /** True: only ads still running; otherwise no filter. */
  stillRunning?: boolean;
  /** Ads with a dominant colour near this swatch of the palette. */
  colour?: ColourSwatchId | null;
  sort?: LibrarySort;
}

/** list_ads' arguments for a library query: all of them, a filter not set sent as null. */
export function libraryListArgs(filters: LibraryFilters, cursor: string | null) {
  const platforms = [...new Set(filters.platforms ?? [])].sort();
  return {
    p_board: 'library',
    p_brand_id: filters.brandId,
    p_category_id: filters.categoryId,
    p_type_id: filters.typeId,
    p_tag_ids: filters.tagIds.length > 0 ? filters.tagIds : null,
    p_since: filters.since,
    p_search: filters.search.trim() || null,
    p_cursor: cursor,
    p_platforms: platforms.length > 0 ? platforms : null,
    p_format: filters.format ?? null,
    p_offer: filters.offer ?? null,
    p_hook_id: filters.hookId ?? null,
    p_min_running_days: filters.minRunningDays ?? null,
    p_still_running: filters.stillRunning === true ? true : null,
    p_sort: filters.sort ?? 'newest',
    p_colour: filters.colour ?? null,
  };
}

/** One page of the library (60 ads) in the query's order; the server decides which ads are clear. */
export async function listLibraryAds(filters: LibraryFilters, cursor: string | null): Promise<AdPage> {
  const { data, error } = await supabase.rpc('list_ads', libraryListArgs(filters, cursor));
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
