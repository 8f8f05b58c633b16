import { queryOptions, useQuery } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { CATALOG_STALE_MS } from '../../../lib/constants.ts';
import { supabase } from '../../../lib/supabase-client.ts';

export type BannerPage = 'library' | 'black-friday' | 'top-picks';

const bannerRowsSchema = z.array(z.object({ image_path: z.string().check(z.minLength(1)) }));

/**
 * The public URL of a page's banner (bucket banners), or null when the page
 * has none. A failed read counts as none: banners are decoration.
 */
export async function getPageBanner(page: BannerPage): Promise<string | null> {
  const { data, error } = await supabase.from('page_banners').select('image_path').eq('page', page);
  if (error) return null;
  const parsed = bannerRowsSchema.safeParse(data);
  const path = parsed.success ? parsed.data[0]?.image_path : undefined;
  return path ? supabase.storage.from('banners').getPublicUrl(path).data.publicUrl : null;
}

export function pageBannerQueryOptions(page: BannerPage) {
  return queryOptions({ queryKey: ['page-banners', page], queryFn: () => getPageBanner(page), staleTime: CATALOG_STALE_MS });
}

export function usePageBanner(page: BannerPage) {
  return useQuery(pageBannerQueryOptions(page));
}
