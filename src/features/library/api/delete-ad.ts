import { useMutation, useQueryClient } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { removeAdsFromCachedLists } from '../../../lib/ad-list-cache.ts';
import { ApiError, apiErrorFrom } from '../../../lib/api-error.ts';
import { supabase } from '../../../lib/supabase-client.ts';

const deleteResultSchema = z.array(z.object({ id: z.string(), ok: z.boolean(), error: z.nullable(z.string()) }));

/** Deletes one ad (admins only); resolves when the server reports it gone. */
export async function deleteAd(id: string): Promise<void> {
  const { data, error } = await supabase.rpc('admin_delete_ads', { p_ids: [id] });
  if (error) throw apiErrorFrom(error);
  const result = deleteResultSchema.parse(data).find((row) => row.id === id);
  if (!result?.ok) throw new ApiError('The ad could not be deleted', result?.error ?? 'not_found');
}

/** Deletes an ad and takes it out of every cached list, so the grid keeps its place. */
export function useDeleteAd() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAd,
    onSuccess: (_, id) => {
      removeAdsFromCachedLists(queryClient, [id]);
      queryClient.removeQueries({ queryKey: ['ads', 'detail', id] });
    },
  });
}
