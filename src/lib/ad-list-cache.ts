import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { Ad, AdPage } from './ad-schema.ts';

/** Every list of ads is cached under a key starting with 'ads', as pages of `{ ads, next_cursor }`. */
export const AD_LISTS_KEY = ['ads'] as const;

function isAdPages(data: unknown): data is InfiniteData<AdPage> {
  return typeof data === 'object' && data !== null && Array.isArray((data as { pages?: unknown }).pages);
}

/** The ad as a cached list showed it, preferring a clear copy: what the viewer was already shown. */
export function findCachedListAd(queryClient: QueryClient, id: string): Ad | undefined {
  let found: Ad | undefined;
  for (const [, data] of queryClient.getQueriesData({ queryKey: AD_LISTS_KEY })) {
    if (!isAdPages(data)) continue;
    for (const page of data.pages) {
      const ad = page.ads.find((candidate) => candidate.id === id);
      if (ad && (!found || (ad.is_clear && !found.is_clear))) found = ad;
    }
  }
  return found;
}

/** Removes ads from every cached list without refetching, so the grid keeps its place. */
export function removeAdsFromCachedLists(queryClient: QueryClient, ids: readonly string[]): void {
  const gone = new Set(ids);
  queryClient.setQueriesData({ queryKey: AD_LISTS_KEY }, (data: unknown) => {
    if (!isAdPages(data)) return data;
    return { ...data, pages: data.pages.map((page) => ({ ...page, ads: page.ads.filter((ad) => !gone.has(ad.id)) })) };
  });
}
