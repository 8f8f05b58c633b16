import { queryOptions, useQuery } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { apiErrorFrom } from '../../../lib/api-error.ts';
import { supabase } from '../../../lib/supabase-client.ts';

const neighboursSchema = z.object({ previous_id: z.nullable(z.string()), next_id: z.nullable(z.string()) });
export type AdNeighbours = z.infer<typeof neighboursSchema>;

/** The ads before and after one ad, newest first and wrapping (callers with valid access only). */
export async function getAdNeighbours(id: string): Promise<AdNeighbours> {
  const { data, error } = await supabase.rpc('get_ad_neighbours', { p_id: id });
  if (error) throw apiErrorFrom(error);
  return neighboursSchema.parse(data);
}

export function adNeighboursQueryOptions(id: string) {
  return queryOptions({ queryKey: ['ads', 'neighbours', id], queryFn: () => getAdNeighbours(id), retry: false });
}

export function useAdNeighbours(id: string, enabled: boolean) {
  return useQuery({ ...adNeighboursQueryOptions(id), enabled });
}
