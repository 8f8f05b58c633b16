import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { Ad } from '../../../lib/ad-schema.ts';
import { findCachedListAd } from '../../../lib/ad-list-cache.ts';
import { apiErrorFrom } from '../../../lib/api-error.ts';
import { adDetailSchema } from './ad-detail-schema.ts';
import { supabase } from '../../../lib/supabase-client.ts';

/** Not an id at all: PostgreSQL's invalid text representation. */
const INVALID_ID_CODE = '22P02';

/** One ad for its detail page, clear or locked as the server decides; null when there is no such ad. */
export async function getAd(id: string): Promise<Ad | null> {
  const { data, error } = await supabase.rpc('get_ad', { p_id: id });
  if (error) {
    if (error.code === INVALID_ID_CODE) return null;
    throw apiErrorFrom(error);
  }
  return data === null ? null : adDetailSchema.parse(data);
}

export function adQueryOptions(id: string) {
  return queryOptions({ queryKey: ['ads', 'detail', id], queryFn: () => getAd(id) });
}

/**
 * The ad, starting from the copy a cached list holds: an ad a list showed
 * clear (a teaser, for an anonymous visitor too) opens clear at once and stays
 * clear. The list's cards carry no facts, so get_ad is asked once for them;
 * its answer replaces the list's copy, except that the image the viewer was
 * already shown clear is kept.
 */
export function useAd(id: string) {
  const queryClient = useQueryClient();
  const listAd = useMemo(() => findCachedListAd(queryClient, id), [queryClient, id]);
  return useQuery({
    ...adQueryOptions(id),
    queryFn: async () => keepShownImage(await getAd(id), listAd),
    initialData: listAd,
    staleTime: (query) => (listAd?.is_clear && query.state.data?.facts ? Infinity : 0),
  });
}

/** The server's ad with the list copy's clear image when the list showed it clear and the server now answers locked. */
export function keepShownImage(ad: Ad | null, listAd: Ad | undefined): Ad | null {
  if (!ad || !listAd?.is_clear || ad.is_clear) return ad;
  return { ...listAd, facts: ad.facts };
}
