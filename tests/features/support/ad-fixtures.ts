import { rgbaToThumbHash } from 'thumbhash';
import type { Ad } from '../../../src/lib/ad-schema.ts';
import type { AdFacts } from '../../../src/lib/ad-facts.ts';

/** A real thumbhash of a small two-tone image, so placeholders decode. */
export const SAMPLE_THUMBHASH = (() => {
  const width = 8;
  const height = 10;
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i += 1) rgba.set(i < 40 ? [230, 120, 90, 255] : [40, 60, 90, 255], i * 4);
  return Buffer.from(rgbaToThumbHash(width, height, rgba)).toString('base64');
})();

let sequence = 0;

/** Version-4 style ids, distinct per fixture. */
export function fixtureId(): string {
  sequence += 1;
  return `00000000-0000-4000-8000-${sequence.toString(16).padStart(12, '0')}`;
}

export const BRANDS = [
  { id: 'b0000000-0000-4000-8000-000000000001', name: 'Lumora' },
  { id: 'b0000000-0000-4000-8000-000000000002', name: 'Northwind' },
];
export const CATEGORIES = [
  { id: 'c0000000-0000-4000-8000-000000000001', name: 'Skincare' },
  { id: 'c0000000-0000-4000-8000-000000000002', name: 'Coffee & Tea' },
];
export const HOOKS = [
  { id: 'a1000000-0000-4000-8000-000000000001', name: 'Before and after' },
  { id: 'a1000000-0000-4000-8000-000000000002', name: 'Social proof' },
];
export const TYPES = [{ id: 'e0000000-0000-4000-8000-000000000001', name: 'Static' }];
export const TAGS = [
  { id: 'f0000000-0000-4000-8000-000000000001', name: 'Bestseller', system_key: null },
  { id: 'f0000000-0000-4000-8000-000000000002', name: 'Black Friday', system_key: 'black_friday' },
];
/** The ads' languages and countries as list_ad_locales answers, most ads first. */
export const AD_LOCALES = {
  languages: [
    { code: 'en', ads: 12 },
    { code: 'de', ads: 5 },
  ],
  countries: [
    { code: 'US', ads: 9 },
    { code: 'DE', ads: 4 },
    { code: 'FR', ads: 2 },
  ],
};

/** An ad as list_ads returns it: clear (with display links) unless `locked`. */
export function makeAd(overrides: Partial<Ad> & { locked?: boolean } = {}): Ad {
  const { locked = false, ...rest } = overrides;
  const id = rest.id ?? fixtureId();
  return {
    id,
    brand_id: BRANDS[0]!.id,
    brand_name: BRANDS[0]!.name,
    brand_logo_path: null,
    category_id: CATEGORIES[0]!.id,
    category_name: CATEGORIES[0]!.name,
    type_id: null,
    type_name: null,
    tag_names: [],
    created_at: '2026-11-01T10:00:00.000000Z',
    requires_subscription: true,
    is_black_friday: false,
    is_top_picks: false,
    width: 1080,
    height: 1350,
    thumbhash: SAMPLE_THUMBHASH,
    preview_path: `previews/${id}.webp`,
    is_clear: !locked,
    preview_url: locked ? `object/sign/ad-images/previews/${id}.webp?token=t` : null,
    display_480_url: locked ? null : `object/sign/ad-images/${id}/480.webp?token=t`,
    display_960_url: locked ? null : `object/sign/ad-images/${id}/960.webp?token=t`,
    ...rest,
  };
}

/** An ad's facts as get_ad returns them: none by default, as for an ad nobody filled in. */
export function makeFacts(overrides: Partial<AdFacts> = {}): AdFacts {
  return {
    platforms: null,
    placement: 'portrait',
    placement_derived: true,
    format: null,
    first_seen: null,
    last_seen: null,
    still_running: false,
    running_days: null,
    landing_url: null,
    primary_text: null,
    headline: null,
    call_to_action: null,
    offer: null,
    hook_id: null,
    hook_name: null,
    language: null,
    country: null,
    ...overrides,
  };
}

export function makeAds(count: number, overrides: Partial<Ad> & { locked?: boolean } = {}): Ad[] {
  return Array.from({ length: count }, () => makeAd(overrides));
}
