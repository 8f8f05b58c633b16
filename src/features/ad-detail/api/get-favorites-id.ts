import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiErrorFrom } from '../../../lib/api-error.ts';
import { supabase } from '../../../lib/supabase-client.ts';

/** The id of the caller's Favorites board, created on first use. */
export async function getFavoritesId(): Promise<string> {
  const { data, error } = await supabase.rpc('get_or_create_favorites_id');
  if (error) throw apiErrorFrom(error);
  return z.string().min(1).parse(data);
}

export function favoritesIdQueryOptions(userId: string | null) {
  return queryOptions({
    queryKey: ['collections', 'favorites-id', userId],
    queryFn: getFavoritesId,
    enabled: userId !== null,
    staleTime: Infinity,
  });
}

export function useFavoritesId(userId: string | null) {
  return useQuery(favoritesIdQueryOptions(userId));
}
