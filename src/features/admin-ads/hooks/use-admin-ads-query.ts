import { useState } from 'react';
import { useDebouncedValue } from '../../../hooks/use-debounced-value.ts';
import { ADMIN_SEARCH_DEBOUNCE_MS } from '../../../lib/constants.ts';
import type { AdminAdsQuery, AdminSort } from '../api/get-admin-ads.ts';

export interface AdminAdsFilters {
  brandId: string | null;
  categoryId: string | null;
  typeId: string | null;
  tagIds: string[];
  dateFrom: string | null;
  dateTo: string | null;
  sort: AdminSort;
}

export const NO_FILTERS: AdminAdsFilters = { brandId: null, categoryId: null, typeId: null, tagIds: [], dateFrom: null, dateTo: null, sort: 'newest' };

/**
 * The table's search, filters, sort and page. The search counts once typing
 * pauses for 300 ms; the page goes back to the first on any change of search,
 * filter or sort (kept with the query it belongs to, so no stale page is fetched).
 */
export function useAdminAdsQuery() {
  const [searchInput, setSearchInput] = useState('');
  const search = useDebouncedValue(searchInput.trim(), ADMIN_SEARCH_DEBOUNCE_MS);
  const [filters, setFilters] = useState<AdminAdsFilters>(NO_FILTERS);
  const key = JSON.stringify([search, filters]);
  const [paging, setPaging] = useState({ key, page: 0 });
  const page = paging.key === key ? paging.page : 0;

  const query: AdminAdsQuery = { search, ...filters, page };
  return {
    query,
    searchInput,
    setSearchInput,
    filters,
    setFilter: <K extends keyof AdminAdsFilters>(name: K, value: AdminAdsFilters[K]) => setFilters((current) => ({ ...current, [name]: value })),
    toggleTag: (tagId: string) =>
      setFilters((current) => ({
        ...current,
        tagIds: current.tagIds.includes(tagId) ? current.tagIds.filter((id) => id !== tagId) : [...current.tagIds, tagId],
      })),
    clearFilters: () => {
      setFilters(NO_FILTERS);
      setSearchInput('');
    },
    hasFilters: searchInput.trim() !== '' || JSON.stringify(filters) !== JSON.stringify(NO_FILTERS),
    setPage: (next: number) => setPaging({ key, page: Math.max(0, next) }),
  };
}
