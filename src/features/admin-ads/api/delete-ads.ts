import { useMutation, useQueryClient } from '@tanstack/react-query';
import { AD_LISTS_KEY, removeAdsFromCachedLists } from '../../../lib/ad-list-cache.ts';
import { apiErrorFrom } from '../../../lib/api-error.ts';
import { supabase } from '../../../lib/supabase-client.ts';
import type { AdminAd } from './get-admin-ads.ts';
import { adResultsSchema, type AdResult } from './update-ads.ts';

export type AdToDelete = Pick<AdminAd, 'id' | 'original_path' | 'display_480_path' | 'display_960_path' | 'preview_path'> & {
  /** Its stored facts: a video ad's format is video. */
  facts?: Pick<NonNullable<AdminAd['facts']>, 'format'> | null;
};

/**
 * Where the upload stores a video ad's video: beside its original, in the
 * same random folder (object-paths.ts), as an MP4 or a WebM.
 */
export function uploadedVideoNames(ad: AdToDelete): string[] {
  const slash = ad.original_path.lastIndexOf('/');
  if (ad.facts?.format !== 'video' || slash < 1) return [];
  const folder = ad.original_path.slice(0, slash);
  return [`${folder}/video.mp4`, `${folder}/video.webm`];
}

/**
 * Deletes ads in one transaction. The database queues their stored images
 * and videos for removal (the storage worker's job); the admin's session
 * removes them at once as well, which is all a project without that worker
 * gets (a video ad's video under the name the upload gives it). A failed
 * removal leaves them queued.
 */
export async function deleteAds(ads: AdToDelete[]): Promise<AdResult[]> {
  const { data, error } = await supabase.rpc('admin_delete_ads', { p_ids: ads.map((ad) => ad.id) });
  if (error) throw apiErrorFrom(error);
  const results = adResultsSchema.parse(data);
  const gone = new Set(results.filter((result) => result.ok).map((result) => result.id));
  const deleted = ads.filter((ad) => gone.has(ad.id));
  if (deleted.length > 0) {
    await Promise.allSettled([
      supabase.storage.from('ad-originals').remove(deleted.map((ad) => ad.original_path)),
      supabase.storage.from('ad-images').remove(deleted.flatMap((ad) => [ad.display_480_path, ad.display_960_path, ad.preview_path])),
      ...(deleted.some((ad) => uploadedVideoNames(ad).length > 0) ? [supabase.storage.from('ad-videos').remove(deleted.flatMap(uploadedVideoNames))] : []),
    ]);
  }
  return results;
}

export function useDeleteAds() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAds,
    onSuccess: (results) => removeAdsFromCachedLists(queryClient, results.filter((result) => result.ok).map((result) => result.id)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: AD_LISTS_KEY }),
  });
}
