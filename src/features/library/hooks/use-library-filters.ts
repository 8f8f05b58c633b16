import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';
import { DATE_RANGES, TAG_FILTER_MAX } from '../../../lib/constants.ts';
import { useCatalog, type CatalogItem } from '../api/get-catalog.ts';
import type { LibraryFilters } from '../api/list-library-ads.ts';
import {
  effectiveSort,
  FACT_PARAMS,
  hasIgnoredFactValues,
  parseFactFilters,
  writeFactFilters,
  type FactFilterValues,
} from '../lib/fact-filters.ts';

export type DateRange = (typeof DATE_RANGES)[number];

/** The URL's query parameters for the library's filters. */
export const FILTER_PARAMS = { brand: 'brand', category: 'category', type: 'type', tag: 'tag', date: 'date', search: 'q', ...FACT_PARAMS } as const;

interface Resolution {
  item: CatalogItem | null;
  /** The catalogue is still loading: the value cannot be resolved yet. */
  pending: boolean;
  /** The value names nothing in the catalogue. */
  unknown: boolean;
}

/**
 * A filter value from the URL resolved against its catalogue: a name (any case)
 * or an id; missing or 'all' means no filter.
 */
export function resolveCatalogValue(value: string | null, items: CatalogItem[] | undefined, failed: boolean): Resolution {
  if (value === null || value.trim() === '' || value.trim().toLowerCase() === 'all') return { item: null, pending: false, unknown: false };
  if (!items) return failed ? { item: null, pending: false, unknown: true } : { item: null, pending: true, unknown: false };
  const wanted = value.trim().toLowerCase();
  const item = items.find((candidate) => candidate.id === value.trim() || candidate.name.toLowerCase() === wanted) ?? null;
  return { item, pending: false, unknown: item === null };
}

export function parseDateRange(value: string | null): DateRange {
  return (DATE_RANGES as readonly string[]).includes(value ?? '') ? (value as DateRange) : 'all';
}

/**
 * The start of a date range as an ISO instant: midnight UTC of the same day a
 * week, month or year ago. Whole days keep it the same for the life of a
 * query, which the server's signed cursors require.
 */
export function sinceFor(range: DateRange, now: Date): string | null {
  if (range === 'all') return null;
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  if (range === 'week') start.setUTCDate(start.getUTCDate() - 7);
  if (range === 'month') start.setUTCMonth(start.getUTCMonth() - 1);
  if (range === 'year') start.setUTCFullYear(start.getUTCFullYear() - 1);
  return start.toISOString();
}

/**
 * The library's filters, kept in the URL: brand and category (and type, tags
 * and hook) by name, the date range, the search text, the ads' facts
 * (platforms, format, offer, running days, still running), the colour and the order.
 * `ready` turns true once every named value is resolved to its id.
 */
export function useLibraryFilters() {
  const [params, setParams] = useSearchParams();
  const brands = useCatalog('brands');
  const categories = useCatalog('categories');
  const types = useCatalog('types');
  const tags = useCatalog('tags');
  const hooks = useCatalog('hooks');

  const brandValue = params.get(FILTER_PARAMS.brand);
  const categoryValue = params.get(FILTER_PARAMS.category);
  const typeValue = params.get(FILTER_PARAMS.type);
  const tagValues = params.getAll(FILTER_PARAMS.tag);
  const tagKey = tagValues.join('\u0000');
  const range = parseDateRange(params.get(FILTER_PARAMS.date));
  const search = params.get(FILTER_PARAMS.search) ?? '';
  const paramsKey = params.toString();
  const facts = useMemo(() => parseFactFilters(new URLSearchParams(paramsKey)), [paramsKey]);
  const ignoredFacts = useMemo(() => hasIgnoredFactValues(new URLSearchParams(paramsKey), facts), [paramsKey, facts]);
  const sort = effectiveSort(facts.sort, search);

  const brand = resolveCatalogValue(brandValue, brands.data, brands.isError);
  const category = resolveCatalogValue(categoryValue, categories.data, categories.isError);
  const type = resolveCatalogValue(typeValue, types.data, types.isError);
  const hook = resolveCatalogValue(facts.hook, hooks.data, hooks.isError);
  const tagResolutions = useMemo(
    () => (tagKey === '' ? [] : tagKey.split('\u0000')).map((value) => resolveCatalogValue(value, tags.data, tags.isError)),
    [tagKey, tags.data, tags.isError],
  );
  const selectedTags = useMemo(
    () =>
      tagResolutions
        .map((resolution) => resolution.item)
        .filter((item): item is CatalogItem => item !== null)
        .filter((item, index, all) => all.findIndex((other) => other.id === item.id) === index)
        .slice(0, TAG_FILTER_MAX),
    [tagResolutions],
  );

  const today = new Date().toISOString().slice(0, 10);
  const since = useMemo(() => sinceFor(range, new Date(`${today}T12:00:00Z`)), [range, today]);
  const ready = !brand.pending && !category.pending && !type.pending && !hook.pending && tagResolutions.every((resolution) => !resolution.pending);

  const filters = useMemo<LibraryFilters>(
    () => ({
      brandId: brand.item?.id ?? null,
      categoryId: category.item?.id ?? null,
      typeId: type.item?.id ?? null,
      tagIds: selectedTags.map((tag) => tag.id).sort(),
      since,
      search: search.trim(),
      platforms: facts.platforms,
      format: facts.format,
      offer: facts.offer,
      hookId: hook.item?.id ?? null,
      minRunningDays: facts.minRunningDays,
      stillRunning: facts.stillRunning,
      colour: facts.colour,
      sort,
    }),
    [brand.item, category.item, type.item, selectedTags, since, search, facts, hook.item, sort],
  );

  // The params last written, not those of the last render: a second change made before the page renders the
  // first (a sort chosen right after a platform) starts from the first, so neither is lost.
  const latest = useRef(params);
  latest.current = params;
  const update = useCallback(
    (change: (next: URLSearchParams) => void) => {
      const next = new URLSearchParams(latest.current);
      change(next);
      latest.current = next;
      setParams(next, { replace: true, preventScrollReset: true });
    },
    [setParams],
  );

  // Values that name nothing are dropped, so the URL says what the grid shows.
  const unknownBrand = brand.unknown;
  const unknownCategory = category.unknown;
  const unknownType = type.unknown;
  const unknownTags = tagResolutions.some((resolution) => resolution.unknown);
  const unknownHook = hook.unknown;
  useEffect(() => {
    if (!unknownBrand && !unknownCategory && !unknownType && !unknownTags && !unknownHook && !ignoredFacts) return;
    update((next) => {
      if (unknownHook) next.delete(FILTER_PARAMS.hook);
      if (ignoredFacts) writeFactFilters(next, { ...parseFactFilters(next), hook: null }, next.get(FILTER_PARAMS.hook), next.has(FILTER_PARAMS.search));
      if (unknownBrand) next.delete(FILTER_PARAMS.brand);
      if (unknownCategory) next.delete(FILTER_PARAMS.category);
      if (unknownType) next.delete(FILTER_PARAMS.type);
      if (unknownTags) {
        next.delete(FILTER_PARAMS.tag);
        for (const tag of selectedTags) next.append(FILTER_PARAMS.tag, tag.name);
      }
    });
  }, [unknownBrand, unknownCategory, unknownType, unknownTags, unknownHook, ignoredFacts, selectedTags, update]);

  const setCatalogParam = useCallback(
    (param: string, item: CatalogItem | null) => update((next) => (item ? next.set(param, item.name) : next.delete(param))),
    [update],
  );

  const setBrand = useCallback((item: CatalogItem | null) => setCatalogParam(FILTER_PARAMS.brand, item), [setCatalogParam]);
  const setCategory = useCallback((item: CatalogItem | null) => setCatalogParam(FILTER_PARAMS.category, item), [setCatalogParam]);
  const setType = useCallback((item: CatalogItem | null) => setCatalogParam(FILTER_PARAMS.type, item), [setCatalogParam]);
  const setTags = useCallback(
    (items: CatalogItem[]) =>
      update((next) => {
        next.delete(FILTER_PARAMS.tag);
        for (const item of items.slice(0, TAG_FILTER_MAX)) next.append(FILTER_PARAMS.tag, item.name);
      }),
    [update],
  );
  const setRange = useCallback(
    (value: DateRange) => update((next) => (value === 'all' ? next.delete(FILTER_PARAMS.date) : next.set(FILTER_PARAMS.date, value))),
    [update],
  );
  const setSearch = useCallback(
    (text: string) => update((next) => (text.trim() ? next.set(FILTER_PARAMS.search, text.trim()) : next.delete(FILTER_PARAMS.search))),
    [update],
  );
  const setFacts = useCallback(
    (change: Partial<FactFilterValues>) =>
      update((next) => {
        const current = parseFactFilters(next);
        const changed = { ...current, ...change };
        const hookName = 'hook' in change ? (change.hook ?? null) : next.get(FILTER_PARAMS.hook);
        writeFactFilters(next, changed, hookName, (next.get(FILTER_PARAMS.search) ?? '').trim() !== '');
      }),
    [update],
  );
  const setHook = useCallback((item: CatalogItem | null) => setFacts({ hook: item?.name ?? null }), [setFacts]);
  const setSort = useCallback((value: FactFilterValues['sort']) => setFacts({ sort: value }), [setFacts]);

  // The search has its own box (and its own clear button) and the order is no filter: clearing the filters keeps both.
  const clearFilters = useCallback(
    () =>
      update((next) => {
        for (const param of Object.values(FILTER_PARAMS)) if (param !== FILTER_PARAMS.search && param !== FILTER_PARAMS.sort) next.delete(param);
      }),
    [update],
  );

  return {
    filters,
    ready,
    search,
    range,
    brand: brand.item,
    category: category.item,
    type: type.item,
    tags: selectedTags,
    hook: hook.item,
    facts,
    sort,
    catalogs: {
      brands: brands.data ?? [],
      categories: categories.data ?? [],
      types: types.data ?? [],
      // The Black Friday board's tag selects nothing in the library, which leaves those ads out.
      tags: (tags.data ?? []).filter((tag) => tag.system_key !== 'black_friday'),
      hooks: hooks.data ?? [],
    },
    setBrand,
    setCategory,
    setType,
    setTags,
    setRange,
    setSearch,
    setFacts,
    setHook,
    setSort,
    clearFilters,
  };
}

export type LibraryFiltersState = ReturnType<typeof useLibraryFilters>;
