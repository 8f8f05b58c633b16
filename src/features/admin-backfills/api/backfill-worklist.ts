import * as z from 'zod/mini';
import { apiErrorFrom } from '../../../lib/api-error.ts';
import { adImageUrl } from '../../../lib/image-urls.ts';
import { supabase } from '../../../lib/supabase-client.ts';

/** Where a page of a worklist starts: after this ad (newest first), or at the start. */
export const backfillCursorSchema = z.object({ created_at: z.string(), id: z.string() });
export type BackfillCursor = z.infer<typeof backfillCursorSchema>;

const worklistSchema = z.object({
  ads: z.array(z.object({ id: z.string(), created_at: z.string(), display_960_url: z.string() })),
  remaining: z.number(),
  next: z.nullable(backfillCursorSchema),
});
export type BackfillPage = z.infer<typeof worklistSchema>;
export type BackfillAd = BackfillPage['ads'][number];

/**
 * Everything a backfill does outside the page, for one kind of value derived
 * from an ad's image (its text, its fingerprint): one object, so it can run
 * against a stand-in in tests.
 */
export interface BackfillServices<Value> {
  /** A page of the ads still without the value, newest first. */
  listPage(after: BackfillCursor | null, limit: number): Promise<BackfillPage>;
  /** The ad's 960 display image. */
  fetchImage(ad: BackfillAd): Promise<Blob>;
  /** The value of one image, with the upload's own code. */
  derive(image: Blob): Promise<Value>;
  /** Stores values, 100 at most, all or nothing. */
  save(values: Array<{ id: string; value: Value }>): Promise<void>;
}

/** A page of a worklist function (admin_ads_without_image_text, admin_ads_without_fingerprint): they share their arguments and answer. */
export async function listWorklistPage(
  rpc: 'admin_ads_without_image_text' | 'admin_ads_without_fingerprint',
  after: BackfillCursor | null, limit: number): Promise<BackfillPage> {
  const { data, error } = await supabase.rpc(rpc, {
    p_after_created_at: after?.created_at ?? null,
    p_after_id: after?.id ?? null,
    p_limit: limit,
  });
  if (error) throw apiErrorFrom(error);
  return worklistSchema.parse(data);
}

/** An ad's 960 display image through its signed link. */
export async function fetchDisplayImage(ad: BackfillAd): Promise<Blob> {
  const response = await fetch(adImageUrl(ad.display_960_url));
  if (!response.ok) throw new Error(`The image answered ${response.status}`);
  return response.blob();
}
