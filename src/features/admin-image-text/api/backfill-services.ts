import * as z from 'zod/mini';
import { apiErrorFrom } from '../../../lib/api-error.ts';
import { adImageUrl } from '../../../lib/image-urls.ts';
import { readImageText } from '../../../lib/media/read-image-text.ts';
import { supabase } from '../../../lib/supabase-client.ts';

/** Where a page of the worklist starts: after this ad (newest first), or at the start. */
export const backfillCursorSchema = z.object({ created_at: z.string(), id: z.string() });
export type BackfillCursor = z.infer<typeof backfillCursorSchema>;

const worklistSchema = z.object({
  ads: z.array(z.object({ id: z.string(), created_at: z.string(), display_960_url: z.string() })),
  remaining: z.number(),
  next: z.nullable(backfillCursorSchema),
});
export type BackfillPage = z.infer<typeof worklistSchema>;
export type BackfillAd = BackfillPage['ads'][number];

/** Everything the backfill does outside the page: one object, so it can run against a stand-in in tests. */
export interface BackfillServices {
  /** A page of the ads whose image text is not read yet (admin_ads_without_image_text). */
  listPage(after: BackfillCursor | null, limit: number): Promise<BackfillPage>;
  /** The ad's 960 display image. */
  fetchImage(ad: BackfillAd): Promise<Blob>;
  /** The normalised text in an image (the upload's OCR). */
  readText(image: Blob): Promise<string>;
  /** Stores read texts, 100 at most, all or nothing (admin_set_image_texts). */
  saveTexts(texts: Array<{ id: string; text: string }>): Promise<void>;
}

export const supabaseBackfillServices: BackfillServices = {
  async listPage(after, limit) {
    const { data, error } = await supabase.rpc('admin_ads_without_image_text', {
      p_after_created_at: after?.created_at ?? null,
      p_after_id: after?.id ?? null,
      p_limit: limit,
    });
    if (error) throw apiErrorFrom(error);
    return worklistSchema.parse(data);
  },
  async fetchImage(ad) {
    const response = await fetch(adImageUrl(ad.display_960_url));
    if (!response.ok) throw new Error(`The image answered ${response.status}`);
    return response.blob();
  },
  readText: (image) => readImageText(image),
  async saveTexts(texts) {
    const { error } = await supabase.rpc('admin_set_image_texts', { p_texts: texts });
    if (error) throw apiErrorFrom(error);
  },
};
