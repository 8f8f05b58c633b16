import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { adSchema } from '../../../lib/ad-schema.ts';
import { AD_LISTS_KEY } from '../../../lib/ad-list-cache.ts';
import { apiErrorFrom } from '../../../lib/api-error.ts';
import { supabase } from '../../../lib/supabase-client.ts';

const objectPaths = {
  original_path: z.string(),
  display_480_path: z.string(),
  display_960_path: z.string(),
  preview_path: z.string(),
};
const groupAdSchema = z.extend(adSchema, objectPaths);
const duplicateSchema = z.extend(adSchema, { ...objectPaths, distance: z.number() });
const groupsSchema = z.object({
  groups: z.array(z.object({ original: groupAdSchema, duplicates: z.array(duplicateSchema) })),
  total: z.number(),
});
export type NearDuplicateGroups = z.infer<typeof groupsSchema>;
export type NearDuplicateGroup = NearDuplicateGroups['groups'][number];

/** Groups this many to a page. */
export const GROUPS_PER_PAGE = 20;

/** One page of near-duplicate groups (admins only): the first ad and the later ones nearly the same, newest first. */
export async function getNearDuplicateGroups(page: number): Promise<NearDuplicateGroups> {
  const { data, error } = await supabase.rpc('admin_near_duplicate_groups', { p_page: page });
  if (error) throw apiErrorFrom(error);
  return groupsSchema.parse(data);
}

// Under the lists' key: deleting or uploading ads refreshes it as it refreshes the table.
export function nearDuplicateGroupsQueryOptions(page: number) {
  return queryOptions({
    queryKey: [...AD_LISTS_KEY, 'near-duplicates', page],
    queryFn: () => getNearDuplicateGroups(page),
    placeholderData: keepPreviousData,
  });
}

export function useNearDuplicateGroups(page: number) {
  return useQuery(nearDuplicateGroupsQueryOptions(page));
}
