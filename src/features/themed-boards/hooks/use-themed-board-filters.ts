import { useCallback, useEffect, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { ThemedBoardFilters } from '../api/list-themed-board-ads.ts';

/** A brand or category as the filters know it. */
export interface FilterOption {
  id: string;
  name: string;
}

/** The URL's query parameters of a themed board: brand and category by name, the search text. */
export const THEMED_FILTER_PARAMS = { brand: 'brand', category: 'category', search: 'q' } as const;

interface Resolved {
  item: FilterOption | null;
  pending: boolean;
  unknown: boolean;
}

/** A value from the URL against its list: a name (any case) or an id; missing or 'all' is no filter. */
export function resolveOption(value: string | null, items: FilterOption[] | undefined, failed: boolean): Resolved {
  const wanted = value?.trim() ?? '';
  if (wanted === '' || wanted.toLowerCase() === 'all') return { item: null, pending: false, unknown: false };
  if (!items) return failed ? { item: null, pending: false, unknown: true } : { item: null, pending: true, unknown: false };
  const item = items.find((candidate) => candidate.id === wanted || candidate.name.toLowerCase() === wanted.toLowerCase()) ?? null;
  return { item, pending: false, unknown: item === null };
}

interface Catalog {
  data: FilterOption[] | undefined;
  isError: boolean;
}

/**
 * A themed board's filters kept in the URL: brand and category by name and the
 * search text. `ready` turns true once brand and category are resolved to ids;
 * values that name nothing are dropped from the URL.
 */
export function useThemedBoardFilters(brands: Catalog, categories: Catalog) {
  const [params, setParams] = useSearchParams();
  const brand = resolveOption(params.get(THEMED_FILTER_PARAMS.brand), brands.data, brands.isError);
  const category = resolveOption(params.get(THEMED_FILTER_PARAMS.category), categories.data, categories.isError);
  const search = params.get(THEMED_FILTER_PARAMS.search) ?? '';

  const filters = useMemo<ThemedBoardFilters>(
    () => ({ brandId: brand.item?.id ?? null, categoryId: category.item?.id ?? null, search: search.trim() }),
    [brand.item, category.item, search],
  );

  const update = useCallback(
    (change: (next: URLSearchParams) => void) =>
      setParams(
        (previous) => {
          const next = new URLSearchParams(previous);
          change(next);
          return next;
        },
        { replace: true, preventScrollReset: true },
      ),
    [setParams],
  );

  const unknownBrand = brand.unknown;
  const unknownCategory = category.unknown;
  useEffect(() => {
    if (!unknownBrand && !unknownCategory) return;
    update((next) => {
      if (unknownBrand) next.delete(THEMED_FILTER_PARAMS.brand);
      if (unknownCategory) next.delete(THEMED_FILTER_PARAMS.category);
    });
  }, [unknownBrand, unknownCategory, update]);

  const setParam = useCallback(
    (param: string, value: string | null) => update((next) => (value ? next.set(param, value) : next.delete(param))),
    [update],
  );

  return {
    filters,
    ready: !brand.pending && !category.pending,
    search,
    brand: brand.item,
    category: category.item,
    brands: brands.data ?? [],
    categories: categories.data ?? [],
    setBrand: useCallback((item: FilterOption | null) => setParam(THEMED_FILTER_PARAMS.brand, item?.name ?? null), [setParam]),
    setCategory: useCallback((item: FilterOption | null) => setParam(THEMED_FILTER_PARAMS.category, item?.name ?? null), [setParam]),
    setSearch: useCallback((text: string) => setParam(THEMED_FILTER_PARAMS.search, text.trim() || null), [setParam]),
    /** Brand and category off in one change of the URL; the search stays. */
    clearFilters: useCallback(
      () =>
        update((next) => {
          next.delete(THEMED_FILTER_PARAMS.brand);
          next.delete(THEMED_FILTER_PARAMS.category);
        }),
      [update],
    ),
  };
}

export type ThemedBoardFiltersState = ReturnType<typeof useThemedBoardFilters>;
