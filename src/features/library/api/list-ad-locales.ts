import { queryOptions, useQuery } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { apiErrorFrom } from '../../../lib/api-error.ts';
import { CATALOG_STALE_MS } from '../../../lib/constants.ts';
import { AD_COUNTRY_PATTERN, AD_LANGUAGE_PATTERN } from '../../../lib/list-ads-query.ts';
import { supabase } from '../../../lib/supabase-client.ts';

const localeCount = (pattern: RegExp) => z.object({ code: z.string().check(z.regex(pattern)), ads: z.number().check(z.int(), z.nonnegative()) });

/** The ads' languages and countries (list_ad_locales), each with its number of ads, most ads first; only codes that have ads. */
export const adLocalesSchema = z.object({
  languages: z.array(localeCount(AD_LANGUAGE_PATTERN)),
  countries: z.array(localeCount(AD_COUNTRY_PATTERN)),
});
export type AdLocales = z.infer<typeof adLocalesSchema>;

/** The options of the library's language and country filters. */
export async function listAdLocales(): Promise<AdLocales> {
  const { data, error } = await supabase.rpc('list_ad_locales');
  if (error) throw apiErrorFrom(error);
  return adLocalesSchema.parse(data);
}

/** Cached as the catalogue is: the counts change as rarely as the brands do. */
export function adLocalesQueryOptions() {
  return queryOptions({ queryKey: ['ad-locales'], queryFn: listAdLocales, staleTime: CATALOG_STALE_MS });
}

export function useAdLocales() {
  return useQuery(adLocalesQueryOptions());
}
