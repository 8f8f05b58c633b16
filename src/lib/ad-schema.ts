import { z } from 'zod';

/**
 * One ad as the listing functions return it (list_ads, get_ad, list_collection_ads).
 * Display paths come only when the server decided the caller sees the ad clear.
 */
export const adSchema = z.object({
  id: z.string().min(1),
  brand_id: z.string().min(1),
  brand_name: z.string().nullable(),
  brand_logo_path: z.string().nullable(),
  category_id: z.string().min(1),
  category_name: z.string().nullable(),
  type_id: z.string().nullable(),
  type_name: z.string().nullable(),
  tag_names: z.array(z.string()),
  created_at: z.string(),
  requires_subscription: z.boolean(),
  is_black_friday: z.boolean(),
  is_top_picks: z.boolean(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  thumbhash: z.string(),
  preview_path: z.string().min(1),
  is_clear: z.boolean(),
  display_480_path: z.string().nullable(),
  display_960_path: z.string().nullable(),
});
export type Ad = z.infer<typeof adSchema>;

/** A page of a list: 60 ads at most and the signed cursor of the next page, if any. */
export const adPageSchema = z.object({
  ads: z.array(adSchema),
  next_cursor: z.string().nullable(),
});
export type AdPage = z.infer<typeof adPageSchema>;

/** True when the server sent the ad's display variants: the caller sees it clear. */
export function isClear(ad: Ad): ad is Ad & { display_480_path: string; display_960_path: string } {
  return ad.is_clear && ad.display_480_path !== null && ad.display_960_path !== null;
}
