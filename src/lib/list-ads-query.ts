import * as z from 'zod/mini';
import { AD_FORMATS, AD_OFFERS, AD_PLATFORMS } from './ad-fact-values.ts';
import { COLOUR_SWATCH_IDS } from './colour-swatches.ts';
import { FILTER_VALUES_MAX, RUNNING_DAYS_MAX, SEARCH_MAX_LENGTH, TAG_FILTER_MAX } from './constants.ts';

/** The boards list_ads lists: the library and the two themed boards. */
export const LIST_ADS_BOARDS = ['library', 'black-friday', 'top-picks'] as const;

/**
 * The listing's orders: newest first; longest running first; last seen first (a running ad counts as seen today);
 * and, with a search, the best matches first (without one the server orders it as newest).
 */
export const LIST_ADS_SORTS = ['newest', 'longest_running', 'recently_seen', 'relevance'] as const;

/** A language as list_ads and the ads take it: ISO 639-1, two lowercase letters. */
export const AD_LANGUAGE_PATTERN = /^[a-z]{2}$/;
/** A country as list_ads and the ads take it: ISO 3166-1 alpha-2, two capitals. */
export const AD_COUNTRY_PATTERN = /^[A-Z]{2}$/;

/** Brands, categories, types, hooks: an ad matches any of the ids. */
const idsSchema = z.array(z.uuid()).check(z.minLength(1), z.maxLength(FILTER_VALUES_MAX));

/**
 * The one argument of list_ads (`p_query`), field for field as the database reads it (private.ads_query in
 * supabase/schemas/60_listing.sql): a field left out does not filter. The database checks the same rules and refuses
 * an unknown field.
 */
export const listAdsQuerySchema = z.strictObject({
  board: z.enum(LIST_ADS_BOARDS),
  brand_ids: z.optional(idsSchema),
  category_ids: z.optional(idsSchema),
  type_ids: z.optional(idsSchema),
  tag_ids: z.optional(z.array(z.uuid()).check(z.minLength(1), z.maxLength(TAG_FILTER_MAX))),
  since: z.optional(z.iso.datetime({ offset: true })),
  search: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(SEARCH_MAX_LENGTH))),
  cursor: z.optional(z.string().check(z.minLength(1), z.maxLength(1000))),
  platforms: z.optional(z.array(z.enum(AD_PLATFORMS)).check(z.minLength(1), z.maxLength(AD_PLATFORMS.length))),
  format: z.optional(z.enum(AD_FORMATS)),
  offer: z.optional(z.enum(AD_OFFERS)),
  hook_ids: z.optional(idsSchema),
  language: z.optional(z.string().check(z.regex(AD_LANGUAGE_PATTERN))),
  country: z.optional(z.string().check(z.regex(AD_COUNTRY_PATTERN))),
  min_running_days: z.optional(z.int().check(z.minimum(1), z.maximum(RUNNING_DAYS_MAX))),
  still_running: z.optional(z.literal(true)),
  sort: z.optional(z.enum(LIST_ADS_SORTS)),
  colour: z.optional(z.enum(COLOUR_SWATCH_IDS)),
});

export type ListAdsQuery = z.infer<typeof listAdsQuerySchema>;
export type ListAdsSort = (typeof LIST_ADS_SORTS)[number];

type Unset = null | undefined | '' | false | readonly never[];

/** A query with every field that is unset (null, empty, false, an empty list) left out, checked. */
export function listAdsQuery(fields: { [K in keyof ListAdsQuery]: ListAdsQuery[K] | Unset }): ListAdsQuery {
  const set = Object.entries(fields).filter(([, value]) => {
    if (value === null || value === undefined || value === '' || value === false) return false;
    return !Array.isArray(value) || value.length > 0;
  });
  return listAdsQuerySchema.parse(Object.fromEntries(set));
}
