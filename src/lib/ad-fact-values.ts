/**
 * The values and limits of an ad's facts (supabase/schemas/40_ads.sql),
 * without zod: the library's filters and cards read them on its first load; the
 * schemas built from them are in ad-facts.ts.
 */
export const AD_PLATFORMS = ['meta', 'instagram', 'tiktok', 'youtube', 'pinterest', 'snapchat', 'google'] as const;
export const AD_PLACEMENTS = ['feed', 'story', 'square', 'portrait', 'landscape'] as const;
export const AD_FORMATS = ['single_image', 'carousel', 'video'] as const;
export const AD_CALLS_TO_ACTION = [
  'shop_now',
  'learn_more',
  'sign_up',
  'get_offer',
  'order_now',
  'subscribe',
  'download',
  'book_now',
  'contact_us',
  'watch_more',
] as const;
export const AD_OFFERS = ['discount', 'free_shipping', 'bundle', 'none'] as const;

export const LANDING_URL_MAX_LENGTH = 2048;
export const PRIMARY_TEXT_MAX_LENGTH = 5000;
export const HEADLINE_MAX_LENGTH = 300;
export const HOOK_NAME_MAX_LENGTH = 80;

export type AdPlatform = (typeof AD_PLATFORMS)[number];
export type AdPlacement = (typeof AD_PLACEMENTS)[number];
export type AdFormat = (typeof AD_FORMATS)[number];
export type AdCallToAction = (typeof AD_CALLS_TO_ACTION)[number];
export type AdOffer = (typeof AD_OFFERS)[number];
