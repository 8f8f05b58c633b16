import { z } from 'zod';
import { AD_FORMATS, AD_OFFERS, AD_PLATFORMS } from './ad-fact-values.ts';
import { COLOUR_SWATCH_IDS } from './colour-swatches.ts';
import { RUNNING_DAYS_MAX, SEARCH_MAX_LENGTH, TAG_FILTER_MAX } from './constants.ts';

/** The boards list_ads lists: the library and the two themed boards. */
export const LIST_ADS_BOARDS = ['library', 'black-friday', 'top-picks'] as const;

/**
 * The listing's orders: newest first; longest running first; last seen first (a running ad counts as seen today);
 * and, with a search, the best matches first (without one the server orders it as newest).
 */
export const LIST_ADS_SORTS = ['newest', 'longest_running', 'recently_seen', 'relevance'] as const;

/**
 * The one argument of list_ads (`p_query`), field for field as the database reads it (private.ads_query in
 * supabase/schemas/60_listing.sql): a field left out does not filter. The database checks the same rules and refuses
 * an unknown field.
 */
export const listAdsQuerySchema = z.strictObject({
  board: z.enum(LIST_ADS_BOARDS),
  brand_id: z.uuid().optional(),
  category_id: z.uuid().optional(),
  type_id: z.uuid().optional(),
  tag_ids: z.array(z.uuid()).min(1).max(TAG_FILTER_MAX).optional(),
  since: z.iso.datetime({ offset: true }).optional(),
  search: z.string().trim().min(1).max(SEARCH_MAX_LENGTH).optional(),
  cursor: z.string().min(1).max(1000).optional(),
  platforms: z.array(z.enum(AD_PLATFORMS)).min(1).max(AD_PLATFORMS.length).optional(),
  format: z.enum(AD_FORMATS).optional(),
  offer: z.enum(AD_OFFERS).optional(),
  hook_id: z.uuid().optional(),
  min_running_days: z.number().int().min(1).max(RUNNING_DAYS_MAX).optional(),
  still_running: z.literal(true).optional(),
  sort: z.enum(LIST_ADS_SORTS).optional(),
  colour: z.enum(COLOUR_SWATCH_IDS).optional(),
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
