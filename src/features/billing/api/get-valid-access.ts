import { queryOptions, useQuery } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { apiErrorFrom } from '../../../lib/api-error.ts';
import { supabase } from '../../../lib/supabase-client.ts';

/** Whether the signed-in caller has valid access (subscription, trial or admin), as the database decides. */
export async function getValidAccess(): Promise<boolean> {
  const { data, error } = await supabase.rpc('has_valid_access');
  if (error) throw apiErrorFrom(error);
  return z.boolean().parse(data);
}

/** Keyed by user, so a different account never sees another's answer. */
export function validAccessQueryOptions(userId: string | null) {
  return queryOptions({
    queryKey: ['entitlement', userId],
    queryFn: getValidAccess,
    enabled: userId !== null,
    retry: false,
    staleTime: 60_000,
  });
}

export function useValidAccess(userId: string | null) {
  return useQuery(validAccessQueryOptions(userId));
}
