import { queryOptions, useQuery } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { apiErrorFrom } from '../../../lib/api-error.ts';
import { CATALOG_STALE_MS } from '../../../lib/constants.ts';
import { supabase } from '../../../lib/supabase-client.ts';

export type CatalogKind = 'brands' | 'categories' | 'types' | 'tags' | 'hooks';

export const catalogItemSchema = z.object({
  id: z.string().check(z.minLength(1)),
  name: z.string(),
  /** Tags only: the themed boards' tags carry a key. */
  system_key: z.optional(z.nullable(z.string())),
});
export type CatalogItem = z.infer<typeof catalogItemSchema>;

/** A catalogue table's rows (id and name) ordered by name; hooks are the ads' curated angles. */
export async function getCatalog(kind: CatalogKind): Promise<CatalogItem[]> {
  const { data, error } = await supabase
    .from(kind)
    .select(kind === 'tags' ? 'id,name,system_key' : 'id,name')
    .order('name');
  if (error) throw apiErrorFrom(error);
  return z
    .array(catalogItemSchema)
    .parse(data)
    .sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }));
}

export function catalogQueryOptions(kind: CatalogKind) {
  return queryOptions({ queryKey: [kind], queryFn: () => getCatalog(kind), staleTime: CATALOG_STALE_MS });
}

export function useCatalog(kind: CatalogKind) {
  return useQuery(catalogQueryOptions(kind));
}
