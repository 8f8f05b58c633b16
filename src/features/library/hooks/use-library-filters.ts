import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { CATALOG_NAME_MAX_LENGTH, DATE_RANGES, FILTER_VALUES_MAX, TAG_FILTER_MAX } from '../../../lib/constants.ts';
import { useCatalog, type CatalogItem } from '../api/get-catalog.ts';
import { useAdLocales } from '../api/list-ad-locales.ts';
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
  /** The values the catalogue knows, each once, at most FILTER_VALUES_MAX. */
  items: CatalogItem[];
  /** The catalogue is still loading: the value cannot be resolved yet. */
  pending: boolean;
  /** The value says more than the items: a name or id the catalogue lacks, an empty piece, or more than the cap. */
  dirty: boolean;
}

const NO_VALUES: Resolution = { items: [], pending: false, dirty: false };

/**
 * A filter's value from the URL resolved against its catalogue: names (any case) or ids, comma-separated
 * (`?brand=Lumora,Northwind`); missing or 'all' means no filter. A name may hold a comma: at each place the longest
 * run of pieces that names an item is taken, so a value that is one name as a whole is that one name.
 */
export function resolveCatalogValues(value: string | null, items: CatalogItem[] | undefined, failed: boolean): Resolution {
  if (value === null || value.trim() === '' || value.trim().toLowerCase() === 'all') return NO_VALUES;
  if (!items) return failed ? { items: [], pending: false, dirty: true } : { items: [], pending: true, dirty: false };
  const byKey = new Map<string, CatalogItem>();
  for (const item of items) byKey.set(item.name.trim().toLowerCase(), item);
  for (const item of items) byKey.set(item.id.toLowerCase(), item);
  const longestKey = Math.max(CATALOG_NAME_MAX_LENGTH, ...items.map((item) => Math.max(item.name.trim().length, item.id.length)));

  const pieces = value.split(',');
  const found: CatalogItem[] = [];
  let dirty = false;
  for (let start = 0; start < pieces.length; ) {
    let match: { item: CatalogItem; end: number } | null = null;
    let candidate = '';
    for (let end = start; end < pieces.length; end += 1) {
      candidate = end === start ? pieces[end]! : `${candidate},${pieces[end]}`;
      if (candidate.trim().length > longestKey) break;
      const item = byKey.get(candidate.trim().toLowerCase());
      if (item) match = { item, end: end + 1 };
    }
    if (match) {
      if (!found.some((other) => other.id === match.item.id)) found.push(match.item);
      start = match.end;
    } else {
      dirty = true;
      start += 1;
    }
  }
  return { items: found.slice(0, FILTER_VALUES_MAX), pending: false, dirty: dirty || found.length > FILTER_VALUES_MAX };
}

/**
 * Items as one URL value: their names, comma-separated; their ids when the names would read back as other items
 * (a name with a comma next to names that together spell another).
 */
export function catalogParamValue(chosen: CatalogItem[], items: CatalogItem[]): string | null {
  if (chosen.length === 0) return null;
  const names = chosen.map((item) => item.name).join(',');
  const readBack = resolveCatalogValues(names, items, false);
  const same = !readBack.dirty && readBack.items.length === chosen.length && readBack.items.every((item, index) => item.id === chosen[index]!.id);
  return same ? names : chosen.map((item) => item.id).join(',');
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

/** The query string with its commas as they are (`brand=Lumora,Northwind`): a comma reads the same either way. */
export function searchWithCommas(params: URLSearchParams): string {
  return params.toString().replace(/%2C/gi, ',');
}

/** One tag from the URL (tags repeat the parameter, one name or id each): missing or 'all' means none. */
function resolveTag(value: string, items: CatalogItem[] | undefined, failed: boolean) {
  const wanted = value.trim().toLowerCase();
  if (wanted === '' || wanted === 'all') return { item: null, pending: false, unknown: false };
  if (!items) return failed ? { item: null, pending: false, unknown: true } : { item: null, pending: true, unknown: false };
  const item = items.find((candidate) => candidate.id === value.trim() || candidate.name.toLowerCase() === wanted) ?? null;
  return { item, pending: false, unknown: item === null };
}

const idsOf = (items: CatalogItem[]) => items.map((item) => item.id).sort();

interface Catalogue {
  data: CatalogItem[] | undefined;
  isError: boolean;
}

function useResolvedValues(value: string | null, catalogue: Catalogue): Resolution {
  return useMemo(() => resolveCatalogValues(value, catalogue.data, catalogue.isError), [value, catalogue.data, catalogue.isError]);
}

/** A language or country code from the URL against the codes that have ads: unknown once they are loaded. */
function resolveLocale(code: string | null, codes: string[] | undefined, failed: boolean) {
  if (code === null) return { code: null, pending: false, unknown: false };
  // Without the list (it failed) a well-formed code is sent as it is: the server checks it.
  if (!codes) return failed ? { code, pending: false, unknown: false } : { code: null, pending: true, unknown: false };
  return codes.includes(code) ? { code, pending: false, unknown: false } : { code: null, pending: false, unknown: true };
}

/**
 * The library's filters, kept in the URL: brands, categories, types and hooks
 * by name (several each, comma-separated), tags by name, the date range, the
 * search text, the ads' facts (platforms, format, offer, language, country,
 * running days, still running), the colour and the order. `ready` turns true
 * once every named value is resolved to its id.
 */
export function useLibraryFilters() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const brandCatalog = useCatalog('brands');
  const categoryCatalog = useCatalog('categories');
  const typeCatalog = useCatalog('types');
  const tagCatalog = useCatalog('tags');
  const hookCatalog = useCatalog('hooks');
  const locales = useAdLocales();

  const tagValues = params.getAll(FILTER_PARAMS.tag);
  const tagKey = tagValues.join('\u0000');
  const range = parseDateRange(params.get(FILTER_PARAMS.date));
  const search = params.get(FILTER_PARAMS.search) ?? '';
  const paramsKey = params.toString();
  const facts = useMemo(() => parseFactFilters(new URLSearchParams(paramsKey)), [paramsKey]);
  const ignoredFacts = useMemo(() => hasIgnoredFactValues(new URLSearchParams(paramsKey), facts), [paramsKey, facts]);
  const sort = effectiveSort(facts.sort, search);

  const brands = useResolvedValues(params.get(FILTER_PARAMS.brand), brandCatalog);
  const categories = useResolvedValues(params.get(FILTER_PARAMS.category), categoryCatalog);
  const types = useResolvedValues(params.get(FILTER_PARAMS.type), typeCatalog);
  const hooks = useResolvedValues(facts.hook, hookCatalog);
  const language = resolveLocale(facts.language, locales.data?.languages.map((locale) => locale.code), locales.isError);
  const country = resolveLocale(facts.country, locales.data?.countries.map((locale) => locale.code), locales.isError);
  const tagResolutions = useMemo(
    () => (tagKey === '' ? [] : tagKey.split('\u0000')).map((value) => resolveTag(value, tagCatalog.data, tagCatalog.isError)),
    [tagKey, tagCatalog.data, tagCatalog.isError],
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
  const ready =
    [brands, categories, types, hooks, language, country].every((resolution) => !resolution.pending) &&
    tagResolutions.every((resolution) => !resolution.pending);

  const filters = useMemo<LibraryFilters>(
    () => ({
      brandIds: idsOf(brands.items),
      categoryIds: idsOf(categories.items),
      typeIds: idsOf(types.items),
      tagIds: idsOf(selectedTags),
      since,
      search: search.trim(),
      platforms: facts.platforms,
      format: facts.format,
      offer: facts.offer,
      hookIds: idsOf(hooks.items),
      language: language.code,
      country: country.code,
      minRunningDays: facts.minRunningDays,
      stillRunning: facts.stillRunning,
      colour: facts.colour,
      sort,
    }),
    [brands.items, categories.items, types.items, selectedTags, since, search, facts, hooks.items, language.code, country.code, sort],
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
      navigate(`?${searchWithCommas(next)}`, { replace: true, preventScrollReset: true });
    },
    [navigate],
  );

  // Values that name nothing (and values past the cap) are dropped, so the URL says what the grid shows.
  const dirtyBrands = brands.dirty;
  const dirtyCategories = categories.dirty;
  const dirtyTypes = types.dirty;
  const dirtyHooks = hooks.dirty;
  const unknownTags = tagResolutions.some((resolution) => resolution.unknown);
  const unknownLanguage = language.unknown;
  const unknownCountry = country.unknown;
  const cleanUrl = dirtyBrands || dirtyCategories || dirtyTypes || dirtyHooks || unknownTags || unknownLanguage || unknownCountry || ignoredFacts;
  // What the rewrite writes, read when it runs: the effect only follows whether there is anything to clean.
  const resolved = useRef({ brands, categories, types, hooks, selectedTags, catalogs: { brandCatalog, categoryCatalog, typeCatalog, hookCatalog } });
  resolved.current = { brands, categories, types, hooks, selectedTags, catalogs: { brandCatalog, categoryCatalog, typeCatalog, hookCatalog } };
  useEffect(() => {
    if (!cleanUrl) return;
    const now = resolved.current;
    const { catalogs } = now;
    update((next) => {
      const rewrite = (param: string, resolution: Resolution, catalogue: Catalogue) => {
        if (!resolution.dirty) return;
        const value = catalogParamValue(resolution.items, catalogue.data ?? []);
        if (value) next.set(param, value);
        else next.delete(param);
      };
      if (ignoredFacts || now.hooks.dirty || unknownLanguage || unknownCountry) {
        const hookValue = now.hooks.dirty ? catalogParamValue(now.hooks.items, catalogs.hookCatalog.data ?? []) : next.get(FILTER_PARAMS.hook);
        const current = parseFactFilters(next);
        writeFactFilters(
          next,
          { ...current, language: unknownLanguage ? null : current.language, country: unknownCountry ? null : current.country },
          hookValue,
          next.has(FILTER_PARAMS.search),
        );
      }
      rewrite(FILTER_PARAMS.brand, now.brands, catalogs.brandCatalog);
      rewrite(FILTER_PARAMS.category, now.categories, catalogs.categoryCatalog);
      rewrite(FILTER_PARAMS.type, now.types, catalogs.typeCatalog);
      if (unknownTags) {
        next.delete(FILTER_PARAMS.tag);
        for (const tag of now.selectedTags) next.append(FILTER_PARAMS.tag, tag.name);
      }
    });
  }, [cleanUrl, dirtyBrands, dirtyCategories, dirtyTypes, dirtyHooks, unknownTags, unknownLanguage, unknownCountry, ignoredFacts, update]);

  const setCatalogParam = useCallback(
    (param: string, items: CatalogItem[], catalogue: CatalogItem[]) =>
      update((next) => {
        const value = catalogParamValue(items.slice(0, FILTER_VALUES_MAX), catalogue);
        if (value) next.set(param, value);
        else next.delete(param);
      }),
    [update],
  );

  const brandItems = brandCatalog.data;
  const categoryItems = categoryCatalog.data;
  const typeItems = typeCatalog.data;
  const hookItems = hookCatalog.data;
  const setBrands = useCallback((items: CatalogItem[]) => setCatalogParam(FILTER_PARAMS.brand, items, brandItems ?? []), [setCatalogParam, brandItems]);
  const setCategories = useCallback(
    (items: CatalogItem[]) => setCatalogParam(FILTER_PARAMS.category, items, categoryItems ?? []),
    [setCatalogParam, categoryItems],
  );
  const setTypes = useCallback((items: CatalogItem[]) => setCatalogParam(FILTER_PARAMS.type, items, typeItems ?? []), [setCatalogParam, typeItems]);
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
        const hookValue = 'hook' in change ? (change.hook ?? null) : next.get(FILTER_PARAMS.hook);
        writeFactFilters(next, changed, hookValue, (next.get(FILTER_PARAMS.search) ?? '').trim() !== '');
      }),
    [update],
  );
  const setHooks = useCallback(
    (items: CatalogItem[]) => setFacts({ hook: catalogParamValue(items.slice(0, FILTER_VALUES_MAX), hookItems ?? []) }),
    [setFacts, hookItems],
  );
  const setLanguage = useCallback((code: string | null) => setFacts({ language: code }), [setFacts]);
  const setCountry = useCallback((code: string | null) => setFacts({ country: code }), [setFacts]);
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
    brands: brands.items,
    categories: categories.items,
    types: types.items,
    tags: selectedTags,
    hooks: hooks.items,
    // While the codes load, the controls show the URL's.
    language: language.pending ? facts.language : language.code,
    country: country.pending ? facts.country : country.code,
    facts,
    sort,
    catalogs: {
      brands: brandCatalog.data ?? [],
      categories: categoryCatalog.data ?? [],
      types: typeCatalog.data ?? [],
      // The Black Friday board's tag selects nothing in the library, which leaves those ads out.
      tags: (tagCatalog.data ?? []).filter((tag) => tag.system_key !== 'black_friday'),
      hooks: hookCatalog.data ?? [],
      /** The codes that have ads, most ads first. */
      languages: locales.data?.languages.map((locale) => locale.code) ?? [],
      countries: locales.data?.countries.map((locale) => locale.code) ?? [],
    },
    setBrands,
    setCategories,
    setTypes,
    setTags,
    setRange,
    setSearch,
    setFacts,
    setHooks,
    setLanguage,
    setCountry,
    setSort,
    clearFilters,
  };
}

export type LibraryFiltersState = ReturnType<typeof useLibraryFilters>;
