import { useMutation } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { apiErrorFrom } from '../../../lib/api-error.ts';
import { adImageUrl } from '../../../lib/image-urls.ts';
import { supabase } from '../../../lib/supabase-client.ts';

const originalDownloadSchema = z.object({
  url: z.string().check(z.minLength(1)),
  file_name: z.string().check(z.minLength(1)),
  expires_at: z.string(),
});
export type OriginalDownload = z.infer<typeof originalDownloadSchema>;

/** A link to the ad's original, valid for 5 minutes; the server refuses callers without valid access (42501). */
export async function getOriginalDownload(adId: string): Promise<OriginalDownload> {
  const { data, error } = await supabase.rpc('get_ad_original_download', { p_id: adId });
  if (error) throw apiErrorFrom(error);
  return originalDownloadSchema.parse(data);
}

/** Asks for a fresh link and lets the browser save the file under the brand's name. */
export function useDownloadOriginal() {
  return useMutation({
    mutationFn: async (adId: string) => {
      const download = await getOriginalDownload(adId);
      const link = document.createElement('a');
      link.href = `${adImageUrl(download.url)}&download=${encodeURIComponent(download.file_name)}`;
      link.rel = 'noopener';
      link.download = download.file_name;
      document.body.append(link);
      link.click();
      link.remove();
      return download;
    },
  });
}
