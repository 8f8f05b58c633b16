import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiErrorFrom } from '../../../lib/api-error.ts';
import { supabase } from '../../../lib/supabase-client.ts';
import type { CatalogEntry } from './get-catalog-entries.ts';
import { refreshAfterCatalogChange } from './save-catalog-entry.ts';
import { isUploadImageType, objectNameFor } from './storage-names.ts';

const BUCKET = 'brand-logos';

async function setLogoPath(brandId: string, logoPath: string | null): Promise<void> {
  const { data, error } = await supabase.from('brands').update({ logo_path: logoPath }).eq('id', brandId).select('id');
  if (error) throw apiErrorFrom(error);
  if (!Array.isArray(data) || data.length === 0) throw new ApiError('The brand no longer exists or you may not change it.', 'not_found');
}

/**
 * The replaced or removed object goes too: the database has queued it (for the
 * storage worker), and the admin may remove it at once. A failure leaves it queued.
 */
async function removeOldLogo(path: string | null | undefined, keep?: string): Promise<void> {
  if (path && path !== keep) await supabase.storage.from(BUCKET).remove([path]).catch(() => undefined);
}

/**
 * Uploads a new logo object, then points the brand at it and removes the old
 * one; a failed update removes the new object, so no file is left without its row.
 */
export async function uploadBrandLogo(brand: Pick<CatalogEntry, 'id' | 'logo_path'>, file: File): Promise<string> {
  if (!isUploadImageType(file.type)) throw new ApiError('Choose a PNG, JPEG or WebP image.', 'unsupported_type');
  const name = objectNameFor(brand.id, { name: file.name, type: file.type });
  const { error: uploadError } = await supabase.storage.from(BUCKET).upload(name, file, { contentType: file.type, upsert: false });
  if (uploadError) throw new ApiError(uploadError.message, 'upload_failed');
  try {
    await setLogoPath(brand.id, name);
  } catch (error) {
    await supabase.storage.from(BUCKET).remove([name]);
    throw error;
  }
  await removeOldLogo(brand.logo_path, name);
  return name;
}

/** Takes the logo off the brand, then removes its object. */
export async function removeBrandLogo(brand: Pick<CatalogEntry, 'id' | 'logo_path'>): Promise<void> {
  await setLogoPath(brand.id, null);
  await removeOldLogo(brand.logo_path);
}

export function useUploadBrandLogo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ brand, file }: { brand: CatalogEntry; file: File }) => uploadBrandLogo(brand, file),
    onSuccess: () => refreshAfterCatalogChange(queryClient, 'brands'),
  });
}

export function useRemoveBrandLogo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (brand: CatalogEntry) => removeBrandLogo(brand),
    onSuccess: () => refreshAfterCatalogChange(queryClient, 'brands'),
  });
}
