import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { ApiError, apiErrorFrom } from '../../../lib/api-error.ts';
import { AD_LISTS_KEY } from '../../../lib/ad-list-cache.ts';
import { supabase } from '../../../lib/supabase-client.ts';
import type { CatalogKind } from './get-catalog-entries.ts';

/** The catalogue names the admin types: surrounding spaces never count. */
export function cleanName(name: string): string {
  return name.trim().replace(/\s+/g, ' ');
}

export async function addCatalogEntry(kind: CatalogKind, name: string): Promise<void> {
  const { error } = await supabase.from(kind).insert({ name: cleanName(name) });
  if (error) throw apiErrorFrom(error);
}

export async function renameCatalogEntry(kind: CatalogKind, id: string, name: string): Promise<void> {
  const { data, error } = await supabase.from(kind).update({ name: cleanName(name) }).eq('id', id).select('id');
  if (error) throw apiErrorFrom(error);
  if (!Array.isArray(data) || data.length === 0) throw new ApiError('It no longer exists or you may not change it.', 'not_found');
}

export async function deleteCatalogEntry(kind: CatalogKind, id: string): Promise<void> {
  const { data, error } = await supabase.from(kind).delete().eq('id', id).select('id');
  if (error) throw apiErrorFrom(error);
  if (!Array.isArray(data) || data.length === 0) throw new ApiError('It no longer exists or you may not delete it.', 'not_found');
}

/** Names show in filters, on cards and in the admin table: all of them reload. */
export function refreshAfterCatalogChange(queryClient: QueryClient, kind: CatalogKind) {
  void queryClient.invalidateQueries({ queryKey: [kind] });
  void queryClient.invalidateQueries({ queryKey: AD_LISTS_KEY });
}

export function useAddCatalogEntry(kind: CatalogKind) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => addCatalogEntry(kind, name),
    onSuccess: () => refreshAfterCatalogChange(queryClient, kind),
  });
}

export function useRenameCatalogEntry(kind: CatalogKind) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) => renameCatalogEntry(kind, id, name),
    onSuccess: () => refreshAfterCatalogChange(queryClient, kind),
  });
}

export function useDeleteCatalogEntry(kind: CatalogKind) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteCatalogEntry(kind, id),
    onSuccess: () => refreshAfterCatalogChange(queryClient, kind),
  });
}
