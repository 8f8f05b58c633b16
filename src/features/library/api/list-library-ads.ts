import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { adPageSchema, type AdPage } from '../../../lib/ad-schema.ts';
import { apiErrorFrom } from '../../../lib/api-error.ts';
import type { AdFormat, AdOffer, AdPlatform } from '../../../lib/ad-fact-values.ts';
import type { ColourSwatchId } from '../../../lib/colour-swatches.ts';
import { AD_LIST_CACHE_MS, PAGE_SIZE } from '../../../lib/constants.ts';
import { LIST_ADS_SORTS, listAdsQuery, type ListAdsQuery, type ListAdsSort } from '../../../lib/list-ads-query.ts';
import { supabase } from '../../../lib/supabase-client.ts';

/** The library's orders (list_ads' sort). */
export const LIBRARY_SORTS = LIST_ADS_SORTS;
export type LibrarySort = ListAdsSort;

/**
 * The library's query as the server takes it: ids resolved, `since` an ISO instant fixed for the query's life.
 * Brands, categories, types and hooks take several ids (an ad matches any), tags all of theirs.
 * The facts' filters and the order are optional: left out, they do not filter and the order is newest first.
 */
export interface LibraryFilters {
  brandIds: string[];
  categoryIds: string[];
  typeIds: string[];
  tagIds: string[];
  since: string | null;
  search: string;
  /** Ads that ran on any of these platforms (none: every ad). */
  platforms?: AdPlatform[];
  format?: AdFormat | null;
  offer?: AdOffer | null;
  hookIds?: string[];
  /** Ads in this language (ISO 639-1, e.g. 'de'). */
  language?: string | null;
  /** Ads for this country (ISO 3166-1 alpha-2, e.g. 'FR'). */
  country?: string | null;
  /** Ads that ran at least this many days (1 to RUNNING_DAYS_MAX), counted as the cards count them. */
  minRunningDays?: number | null;
  /** True: only ads still running; otherwise no filter. */
  stillRunning?: boolean;
  /** Ads with a dominant colour near this swatch of the palette. */
  colour?: ColourSwatchId | null;
  sort?: LibrarySort;
}

/** Ids each once and in one order: the same choice is the same query (and the same cache entry's cursor). */
const idSet = (ids: readonly string[]) => [...new Set(ids)].sort();

/** The library query as list_ads takes it (one field per filter that is set), with the page's cursor. */
export function libraryListQuery(filters: LibraryFilters, cursor: string | null): ListAdsQuery {
  return listAdsQuery({
    board: 'library',
    brand_ids: idSet(filters.brandIds),
    category_ids: idSet(filters.categoryIds),
    type_ids: idSet(filters.typeIds),
    tag_ids: filters.tagIds,
    since: filters.since,
    search: filters.search.trim(),
    cursor,
    platforms: [...new Set(filters.platforms ?? [])].sort(),
    format: filters.format,
    offer: filters.offer,
    hook_ids: idSet(filters.hookIds ?? []),
    language: filters.language,
    country: filters.country,
    min_running_days: filters.minRunningDays,
    still_running: filters.stillRunning,
    sort: filters.sort === 'newest' ? null : filters.sort,
    colour: filters.colour,
  });
}

/**
 * One page of the library (60 ads) in the query's order; the server decides which ads are clear. The first page
 * carries the query's total.
 */
export async function listLibraryAds(filters: LibraryFilters, cursor: string | null): Promise<AdPage> {
  const { data, error } = await supabase.rpc('list_ads', { p_query: libraryListQuery(filters, cursor) });
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
