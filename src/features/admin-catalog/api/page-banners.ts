import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { ApiError, apiErrorFrom } from '../../../lib/api-error.ts';
import { supabase } from '../../../lib/supabase-client.ts';
import { isUploadImageType, objectNameFor } from './storage-names.ts';

/** The pages that show a banner (spec: library, black-friday, top-picks). */
export const BANNER_PAGES = ['library', 'black-friday', 'top-picks'] as const;
export type BannerPage = (typeof BANNER_PAGES)[number];

const BUCKET = 'banners';
const bannerSchema = z.object({ page: z.enum(BANNER_PAGES), image_path: z.string().check(z.minLength(1)) });
export type PageBanner = z.infer<typeof bannerSchema>;

export async function getPageBanners(): Promise<PageBanner[]> {
  const { data, error } = await supabase.from('page_banners').select('page,image_path');
  if (error) throw apiErrorFrom(error);
  return z.array(bannerSchema).parse(data);
}

export function pageBannersQueryOptions() {
  return queryOptions({ queryKey: ['page-banners'], queryFn: getPageBanners, staleTime: 30_000 });
}

export function usePageBanners() {
  return useQuery(pageBannersQueryOptions());
}

/** Public URL of a banner (public bucket banners). */
export function bannerUrl(path: string): string {
  return supabase.storage.from(BUCKET).getPublicUrl(path).data.publicUrl;
}

/** The database queued a replaced or removed image (for the storage worker); the admin removes it at once too. */
async function removeOldBanner(path: string | null, keep?: string): Promise<void> {
  if (path && path !== keep) await supabase.storage.from(BUCKET).remove([path]).catch(() => undefined);
}

/**
 * Uploads the image, then sets the page's row (insert, or update of the path)
 * and removes the old image; a failed row write removes the new object.
 */
export async function setPageBanner(page: BannerPage, file: File, previousPath: string | null): Promise<void> {
  const hasBanner = previousPath !== null;
  if (!isUploadImageType(file.type)) throw new ApiError('Choose a PNG, JPEG or WebP image.', 'unsupported_type');
  const name = objectNameFor(page, { name: file.name, type: file.type });
  const { error: uploadError } = await supabase.storage.from(BUCKET).upload(name, file, { contentType: file.type, upsert: false });
  if (uploadError) throw new ApiError(uploadError.message, 'upload_failed');
  const { data, error } = hasBanner
    ? await supabase.from('page_banners').update({ image_path: name }).eq('page', page).select('page')
    : await supabase.from('page_banners').insert({ page, image_path: name }).select('page');
  if (error || !Array.isArray(data) || data.length === 0) {
    await supabase.storage.from(BUCKET).remove([name]);
    throw error ? apiErrorFrom(error) : new ApiError('The banner could not be saved.', 'not_found');
  }
  await removeOldBanner(previousPath, name);
}

export async function removePageBanner(page: BannerPage, previousPath: string | null): Promise<void> {
  const { error } = await supabase.from('page_banners').delete().eq('page', page);
  if (error) throw apiErrorFrom(error);
  await removeOldBanner(previousPath);
}

export function useSetPageBanner() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ page, file, previousPath }: { page: BannerPage; file: File; previousPath: string | null }) => setPageBanner(page, file, previousPath),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['page-banners'] }),
  });
}

export function useRemovePageBanner() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ page, previousPath }: { page: BannerPage; previousPath: string | null }) => removePageBanner(page, previousPath),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['page-banners'] }),
  });
}
