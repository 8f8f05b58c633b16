import { queryOptions, useQuery } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { ApiError, apiErrorFrom } from './api-error.ts';
import { supabase } from './supabase-client.ts';
import { BOARD_TEXTS } from './board-texts.ts';

const idSchema = z.string().check(z.minLength(1));

/**
 * The id of the caller's Favorites board, created on first use. The spec's
 * fallback chain: the RPC, then the system board by lookup, then inserting it.
 */
export async function ensureFavoritesId(userId: string): Promise<string> {
  const rpc = await supabase.rpc('get_or_create_favorites_id');
  if (!rpc.error && typeof rpc.data === 'string' && rpc.data) return rpc.data;
  if (rpc.error) console.error('get_or_create_favorites_id failed', rpc.error);

  const lookup = await supabase.from('user_collections').select('id').eq('is_system', true).limit(1);
  if (!lookup.error && Array.isArray(lookup.data) && lookup.data.length > 0) return idSchema.parse((lookup.data[0] as { id: unknown }).id);
  if (lookup.error) console.error('Favorites lookup failed', lookup.error);

  const insert = await supabase
    .from('user_collections')
    .insert({ name: 'Favorites', parent_id: null, is_system: true, user_id: userId })
    .select('id')
    .single();
  if (!insert.error && insert.data) return idSchema.parse((insert.data as { id: unknown }).id);
  console.error('Favorites insert failed', insert.error);
  throw insert.error ? new ApiError(BOARD_TEXTS.boards.favoritesFailed, apiErrorFrom(insert.error).code) : new ApiError(BOARD_TEXTS.boards.favoritesFailed);
}

/** One Favorites id in the cache for the add-to-board panel, the ad detail's heart and the Favorites page. */
export function favoritesIdQueryOptions(userId: string | null) {
  return queryOptions({
    queryKey: ['collections', 'favorites-id', userId],
    queryFn: () => ensureFavoritesId(userId ?? ''),
    enabled: userId !== null,
    staleTime: Infinity,
  });
}

export function useFavoritesBoardId(userId: string | null, enabled = true) {
  return useQuery({ ...favoritesIdQueryOptions(userId), enabled: userId !== null && enabled });
}
