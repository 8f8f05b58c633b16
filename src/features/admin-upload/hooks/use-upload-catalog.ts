import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CATALOG_STALE_MS } from '../../../lib/constants.ts';
import type { UploadCatalogItem, UploadCatalogKind, UploadListKind, UploadServices } from '../api/upload-services.ts';

/** Under the table's own key, so whoever refreshes ['brands'] (or categories, tags) refreshes these lists too. */
export const uploadCatalogKey = (kind: UploadListKind) => [kind, 'admin-upload'] as const;

export function useUploadCatalog(services: UploadServices, kind: UploadListKind) {
  return useQuery({ queryKey: uploadCatalogKey(kind), queryFn: () => services.listCatalog(kind), staleTime: CATALOG_STALE_MS });
}

/** Adds a brand, category or tag, then refreshes every list of that kind. */
export function useAddCatalogEntry(services: UploadServices, kind: UploadCatalogKind) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => services.addCatalogEntry(kind, name),
    onSuccess: async (entry: UploadCatalogItem) => {
      queryClient.setQueryData<UploadCatalogItem[]>(uploadCatalogKey(kind), (list) =>
        list ? [...list.filter((item) => item.id !== entry.id), entry].sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' })) : [entry],
      );
      await queryClient.invalidateQueries({ queryKey: [kind] });
    },
  });
}
