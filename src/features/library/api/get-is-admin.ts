import { queryOptions, useQuery } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { apiErrorFrom } from '../../../lib/api-error.ts';
import { supabase } from '../../../lib/supabase-client.ts';

/** Whether the signed-in caller is an admin: a server-side role, never an email compared in the browser. */
export async function getIsAdmin(): Promise<boolean> {
  const { data, error } = await supabase.rpc('is_admin');
  if (error) throw apiErrorFrom(error);
  return z.boolean().parse(data);
}

export function isAdminQueryOptions(userId: string | null) {
  return queryOptions({ queryKey: ['is-admin', userId], queryFn: getIsAdmin, enabled: userId !== null, staleTime: 5 * 60_000 });
}

/** False while unknown and for signed-out visitors. */
export function useIsAdmin(userId: string | null): boolean {
  return useQuery(isAdminQueryOptions(userId)).data === true;
}
