import { queryOptions, useQuery } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { apiErrorFrom } from '../../../lib/api-error.ts';
import { supabase } from '../../../lib/supabase-client.ts';

export type OptionKind = 'brands' | 'categories' | 'types' | 'tags' | 'hooks';

const optionSchema = z.object({ id: z.string().check(z.minLength(1)), name: z.string() });
export type CatalogOption = z.infer<typeof optionSchema>;

/** The choices of the table's filters, inline edit and bulk bar, by name. */
export async function getCatalogOptions(kind: OptionKind): Promise<CatalogOption[]> {
  const { data, error } = await supabase.from(kind).select('id,name').order('name');
  if (error) throw apiErrorFrom(error);
  return z
    .array(optionSchema)
    .parse(data)
    .sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }));
}

/** Under the table's own key, so renaming a brand anywhere refreshes these choices. */
export function catalogOptionsQueryOptions(kind: OptionKind) {
  return queryOptions({ queryKey: [kind, 'options'], queryFn: () => getCatalogOptions(kind), staleTime: 30_000 });
}

export function useCatalogOptions(kind: OptionKind, enabled = true) {
  return useQuery({ ...catalogOptionsQueryOptions(kind), enabled });
}
