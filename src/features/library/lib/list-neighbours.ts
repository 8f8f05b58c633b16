import { InfiniteQueryObserver, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import type { AdPage } from '../../../lib/ad-schema.ts';
import { libraryAdsQueryOptions, libraryListQuery, type LibraryFilters } from '../api/list-library-ads.ts';

const LIBRARY_LISTS_KEY = ['ads', 'library'] as const;

/**
 * The library as everyone first sees it: every ad, newest first; the server's get_ad_neighbours walks that order.
 * Read from the query list_ads is sent, so a filter added there can never be taken for the whole library.
 */
export function isWholeLibrary(filters: LibraryFilters): boolean {
  const { board: _board, ...narrowing } = libraryListQuery(filters, null);
  return Object.keys(narrowing).length === 0;
}

export interface HoldingList {
  filters: LibraryFilters;
  ids: string[];
  hasMore: boolean;
}

/**
 * The filtered, searched or re-ordered library list on screen (its query
 * active) that holds the ad, or null: the detail opened over it walks its
 * order, not the whole library's.
 */
export function filteredLibraryListHolding(queryClient: QueryClient, id: string): HoldingList | null {
  for (const query of queryClient.getQueryCache().findAll({ queryKey: LIBRARY_LISTS_KEY, type: 'active' })) {
    const filters = query.queryKey[2] as LibraryFilters | undefined;
    const data = query.state.data as InfiniteData<AdPage> | undefined;
    if (!filters || !data || isWholeLibrary(filters)) continue;
    const ids = data.pages.flatMap((page) => page.ads.map((ad) => ad.id));
    if (ids.includes(id)) return { filters, ids, hasMore: Boolean(data.pages.at(-1)?.next_cursor) };
  }
  return null;
}

/**
 * The ad before or after one in such a list, or 'load-more' when it lies on
 * the next page, not loaded yet. The ends wrap round, as the whole library's
 * do, once the list is loaded to its end.
 */
export function neighbourIn(list: HoldingList, id: string, direction: 'previous' | 'next'): string | null | 'load-more' {
  const index = list.ids.indexOf(id);
  if (index < 0) return null;
  if (direction === 'previous') return index > 0 ? list.ids[index - 1]! : list.hasMore ? null : (list.ids.at(-1) ?? null);
  if (index < list.ids.length - 1) return list.ids[index + 1]!;
  return list.hasMore ? 'load-more' : (list.ids[0] ?? null);
}

/** Loads the list's next page into the same cache the grid reads, and answers the ad after `id`. */
export async function nextAfterLoadingMore(queryClient: QueryClient, list: HoldingList, id: string): Promise<string | null> {
  const result = await new InfiniteQueryObserver(queryClient, libraryAdsQueryOptions(list.filters)).fetchNextPage();
  const ids = result.data?.pages.flatMap((page) => page.ads.map((ad) => ad.id)) ?? list.ids;
  const index = ids.indexOf(id);
  return index < 0 ? null : (ids[index + 1] ?? null);
}
