import * as z from 'zod/mini';
import { AD_FORMATS, AD_OFFERS, AD_PLATFORMS, type AdFormat, type AdOffer, type AdPlatform } from '../../../lib/ad-fact-values.ts';
import { COLOUR_SWATCH_IDS, type ColourSwatchId } from '../../../lib/colour-swatches.ts';
import { CATALOG_NAME_MAX_LENGTH, FILTER_VALUES_MAX } from '../../../lib/constants.ts';
import { AD_COUNTRY_PATTERN, AD_LANGUAGE_PATTERN } from '../../../lib/list-ads-query.ts';
import type { LibrarySort } from '../api/list-library-ads.ts';

/** The "running at least" choices, in days. */
export const MIN_RUNNING_DAYS_CHOICES = [7, 30, 60, 90, 180, 365] as const;
export type MinRunningDays = (typeof MIN_RUNNING_DAYS_CHOICES)[number];

/** The URL's query parameters for the facts filters and the order. */
export const FACT_PARAMS = {
  platform: 'platform',
  format: 'format',
  offer: 'offer',
  hook: 'hook',
  language: 'language',
  country: 'country',
  days: 'days',
  running: 'running',
  colour: 'colour',
  sort: 'sort',
} as const;

/** The order as the URL writes it: short words; the default order is left out. */
const SORT_IN_URL = { newest: 'newest', longest_running: 'longest', recently_seen: 'recent' } as const satisfies Partial<Record<LibrarySort, string>>;

const platformSchema = z.enum(AD_PLATFORMS);
const formatSchema = z.enum(AD_FORMATS);
const offerSchema = z.enum(AD_OFFERS);
const daysSchema = z.enum(MIN_RUNNING_DAYS_CHOICES.map(String) as [string, ...string[]]);
const sortSchema = z.enum(['newest', 'longest', 'recent'] as const);
const colourSchema = z.enum(COLOUR_SWATCH_IDS);

/** The longest hook value read from the URL: as many of the longest names as a filter takes, with their commas. */
const HOOK_VALUE_MAX_LENGTH = FILTER_VALUES_MAX * (CATALOG_NAME_MAX_LENGTH + 1);

/** The facts filters and the order as the URL gives them, every value checked; the hook is still a name or id. */
export interface FactFilterValues {
  platforms: AdPlatform[];
  format: AdFormat | null;
  offer: AdOffer | null;
  /** The hooks' names or ids as written in the URL (comma-separated), resolved against the curated list elsewhere. */
  hook: string | null;
  /** A language code (ISO 639-1, 'de'): written in any case, read in lowercase. */
  language: string | null;
  /** A country code (ISO 3166-1 alpha-2, 'FR'): written in any case, read in capitals. */
  country: string | null;
  minRunningDays: MinRunningDays | null;
  stillRunning: boolean;
  /** A swatch of the filter bar's palette: ads with a dominant colour near it. */
  colour: ColourSwatchId | null;
  /** The order asked for, or null for the default (relevance while searching, newest otherwise). */
  sort: Exclude<LibrarySort, 'relevance'> | null;
}

export const NO_FACT_FILTERS: FactFilterValues = {
  platforms: [],
  format: null,
  offer: null,
  hook: null,
  language: null,
  country: null,
  minRunningDays: null,
  stillRunning: false,
  colour: null,
  sort: null,
};

function parsed<T>(schema: z.ZodMiniType<T>, value: string | null): T | null {
  if (value === null) return null;
  const result = schema.safeParse(value.trim().toLowerCase());
  return result.success ? result.data : null;
}

/**
 * The facts filters read from the URL. `platform` repeats, one platform each
 * (`?platform=tiktok&platform=meta`); a value that is not one of ours is left
 * out, never sent to the server.
 */
export function parseFactFilters(params: URLSearchParams): FactFilterValues {
  const platforms = params
    .getAll(FACT_PARAMS.platform)
    .map((value) => parsed(platformSchema, value))
    .filter((value): value is AdPlatform => value !== null);
  const hook = params.get(FACT_PARAMS.hook)?.trim() ?? '';
  const language = params.get(FACT_PARAMS.language)?.trim().toLowerCase() ?? '';
  const country = params.get(FACT_PARAMS.country)?.trim().toUpperCase() ?? '';
  const days = parsed(daysSchema, params.get(FACT_PARAMS.days));
  const sort = parsed(sortSchema, params.get(FACT_PARAMS.sort));
  return {
    // In the catalogue's order, each once: the same choice is the same query.
    platforms: AD_PLATFORMS.filter((platform) => platforms.includes(platform)),
    format: parsed(formatSchema, params.get(FACT_PARAMS.format)),
    offer: parsed(offerSchema, params.get(FACT_PARAMS.offer)),
    hook: hook === '' || hook.toLowerCase() === 'all' ? null : hook.slice(0, HOOK_VALUE_MAX_LENGTH),
    language: AD_LANGUAGE_PATTERN.test(language) ? language : null,
    country: AD_COUNTRY_PATTERN.test(country) ? country : null,
    minRunningDays: days === null ? null : (Number(days) as MinRunningDays),
    stillRunning: params.get(FACT_PARAMS.running) === '1',
    colour: parsed(colourSchema, params.get(FACT_PARAMS.colour)),
    sort: sort === 'longest' ? 'longest_running' : sort === 'recent' ? 'recently_seen' : sort,
  };
}

/**
 * Writes the facts filters into the URL's parameters, replacing the ones
 * there. The hooks go by name, as the brands and categories do; language and country by code. Newest without a
 * search is the default and is left out; with a search the default is
 * relevance, so a chosen newest is written.
 */
export function writeFactFilters(params: URLSearchParams, values: FactFilterValues, hookName: string | null, searching: boolean): void {
  for (const param of Object.values(FACT_PARAMS)) params.delete(param);
  for (const platform of AD_PLATFORMS.filter((candidate) => values.platforms.includes(candidate))) params.append(FACT_PARAMS.platform, platform);
  if (values.format) params.set(FACT_PARAMS.format, values.format);
  if (values.offer) params.set(FACT_PARAMS.offer, values.offer);
  if (hookName) params.set(FACT_PARAMS.hook, hookName);
  if (values.language) params.set(FACT_PARAMS.language, values.language);
  if (values.country) params.set(FACT_PARAMS.country, values.country);
  if (values.minRunningDays !== null) params.set(FACT_PARAMS.days, String(values.minRunningDays));
  if (values.stillRunning) params.set(FACT_PARAMS.running, '1');
  if (values.colour) params.set(FACT_PARAMS.colour, values.colour);
  if (values.sort && !(values.sort === 'newest' && !searching)) params.set(FACT_PARAMS.sort, SORT_IN_URL[values.sort]);
}

/** The order the server is asked for: the one chosen, else relevance while searching and newest otherwise. */
export function effectiveSort(sort: FactFilterValues['sort'], search: string): LibrarySort {
  return sort ?? (search.trim() !== '' ? 'relevance' : 'newest');
}

/**
 * True when a parameter of the URL says something the parse above threw away,
 * so the URL can be cleaned to say what the grid shows.
 */
export function hasIgnoredFactValues(params: URLSearchParams, values: FactFilterValues): boolean {
  const platforms = params.getAll(FACT_PARAMS.platform);
  if (platforms.length !== values.platforms.length) return true;
  const one = (param: string, kept: unknown) => params.has(param) && kept === null;
  return (
    one(FACT_PARAMS.format, values.format) ||
    one(FACT_PARAMS.offer, values.offer) ||
    one(FACT_PARAMS.language, values.language) ||
    one(FACT_PARAMS.country, values.country) ||
    one(FACT_PARAMS.days, values.minRunningDays) ||
    one(FACT_PARAMS.colour, values.colour) ||
    one(FACT_PARAMS.sort, values.sort) ||
    (params.has(FACT_PARAMS.running) && !values.stillRunning)
  );
}
