import { queryOptions, useQuery } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { apiErrorFrom } from '../../../lib/api-error.ts';
import { supabase } from '../../../lib/supabase-client.ts';

export type CatalogKind = 'brands' | 'categories' | 'tags' | 'types' | 'hooks';
export const CATALOG_KINDS: readonly CatalogKind[] = ['brands', 'categories', 'tags', 'types', 'hooks'];

export const catalogEntrySchema = z.object({
  id: z.string().check(z.minLength(1)),
  name: z.string(),
  /** Brands only. */
  logo_path: z.optional(z.nullable(z.string())),
  /** Tags only: the themed boards' tags carry a key and cannot be deleted. */
  system_key: z.optional(z.nullable(z.string())),
});
export type CatalogEntry = z.infer<typeof catalogEntrySchema>;

const COLUMNS: Record<CatalogKind, string> = {
  brands: 'id,name,logo_path',
  categories: 'id,name',
  tags: 'id,name,system_key',
  types: 'id,name',
  hooks: 'id,name',
};

/** Every row of a catalogue table, by name regardless of case. */
export async function getCatalogEntries(kind: CatalogKind): Promise<CatalogEntry[]> {
  const { data, error } = await supabase.from(kind).select(COLUMNS[kind]).order('name');
  if (error) throw apiErrorFrom(error);
  return z
    .array(catalogEntrySchema)
    .parse(data)
    .sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }));
}

/** Under the table's own key, so a write here refreshes the library's filters too. */
export function catalogEntriesQueryOptions(kind: CatalogKind) {
  return queryOptions({ queryKey: [kind, 'admin'], queryFn: () => getCatalogEntries(kind), staleTime: 30_000 });
}

export function useCatalogEntries(kind: CatalogKind) {
  return useQuery(catalogEntriesQueryOptions(kind));
}
