import * as z from 'zod/mini';
import type { AdFacts } from './ad-facts.ts';
import { isCalendarDate } from './calendar-days.ts';

const seenDay = z.string().check(z.refine(isCalendarDate, 'Must be a date (YYYY-MM-DD)'));

/**
 * One ad as the listing functions return it (list_ads, get_ad, list_collection_ads).
 * The facts (platforms, dates, copy ...) are shown clear or locked: they are the teaser.
 * Image links are Storage signed URLs relative to /storage/v1/ that stop working
 * within 24 hours: the display variants only when the server decided the caller
 * sees the ad clear, the blurred preview otherwise.
 */
export const adSchema = z.object({
  id: z.string().check(z.minLength(1)),
  brand_id: z.string().check(z.minLength(1)),
  brand_name: z.nullable(z.string()),
  brand_logo_path: z.nullable(z.string()),
  category_id: z.string().check(z.minLength(1)),
  category_name: z.nullable(z.string()),
  type_id: z.nullable(z.string()),
  type_name: z.nullable(z.string()),
  tag_names: z.array(z.string()),
  created_at: z.string(),
  requires_subscription: z.boolean(),
  is_black_friday: z.boolean(),
  is_top_picks: z.boolean(),
  width: z.number().check(z.int(), z.positive()),
  height: z.number().check(z.int(), z.positive()),
  thumbhash: z.string(),
  preview_path: z.string().check(z.minLength(1)),
  is_clear: z.boolean(),
  preview_url: z.nullable(z.string()),
  display_480_url: z.nullable(z.string()),
  display_960_url: z.nullable(z.string()),
  /**
   * The facts every card shows (private.ad_card, supabase/schemas/40_ads.sql): where the ad ran and
   * when it was seen. Optional: an answer from before them still parses. A platform
   * this build has no name for is kept, and the card leaves it out.
   */
  platforms: z.optional(z.nullable(z.array(z.string().check(z.minLength(1))))),
  first_seen: z.optional(z.nullable(seenDay)),
  last_seen: z.optional(z.nullable(seenDay)),
  still_running: z.optional(z.boolean()),
  /**
   * A video ad (supabase/schemas/40_ads.sql): its length on every card, locked or
   * clear (the duration badge), and a signed link to the video, in the display
   * links' window, only when the caller sees it clear. Absent on image ads.
   */
  video_duration_ms: z.optional(z.nullable(z.number().check(z.int(), z.gte(500), z.lte(600_000)))),
  video_url: z.optional(z.nullable(z.string().check(z.minLength(1)))),
});
/** An ad; only get_ad (the detail page, features/ad-detail/api/get-ad.ts) adds all its facts, running days worked out. */
export type Ad = z.infer<typeof adSchema> & { facts?: AdFacts };

/**
 * A page of a list: 60 ads at most and the signed cursor of the next page, if any. list_ads' first page also says
 * how many ads the query finds: exact up to 10,000, else the planner's estimate (total_is_estimate); later pages don't.
 */
export const adPageSchema = z.object({
  ads: z.array(adSchema),
  next_cursor: z.nullable(z.string()),
  total: z.optional(z.number().check(z.int(), z.nonnegative())),
  total_is_estimate: z.optional(z.boolean()),
});
export type AdPage = z.infer<typeof adPageSchema>;

/** The link to a clear video ad's video, or null: a locked ad and an image ad have none. */
export function playableVideoUrl(ad: Ad): string | null {
  return ad.is_clear && typeof ad.video_url === 'string' ? ad.video_url : null;
}

/** A video's length as its badge shows it: 0:04, 1:30 (whole seconds, rounded). */
export function videoDurationLabel(ms: number): string {
  const seconds = Math.max(1, Math.round(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** True when the server sent links to the ad's display variants: the caller sees it clear. */
export function isClear(ad: Ad): ad is Ad & { display_480_url: string; display_960_url: string } {
  return ad.is_clear && ad.display_480_url !== null && ad.display_960_url !== null;
}
