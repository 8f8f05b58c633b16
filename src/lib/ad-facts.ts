import * as z from 'zod/mini';
import {
  AD_CALLS_TO_ACTION,
  AD_FORMATS,
  AD_OFFERS,
  AD_PLACEMENTS,
  AD_PLATFORMS,
  HEADLINE_MAX_LENGTH,
  LANDING_URL_MAX_LENGTH,
  PRIMARY_TEXT_MAX_LENGTH,
} from './ad-fact-values.ts';
import { isCalendarDate, latestToday } from './calendar-days.ts';

export { isCalendarDate, latestToday, runningDays } from './calendar-days.ts';
export * from './ad-fact-values.ts';

/**
 * The facts' zod schemas (supabase/schemas/40_ads.sql): the
 * same lists and limits as the table's checks, which tests/sql/ad-facts-zod.test.ts
 * holds the two to. The lists themselves are in ad-fact-values.ts, without zod,
 * for the library's filters.
 */

/** An http(s) address with a host, no spaces or control characters: ads_landing_url_format. */
const LANDING_URL_PATTERN = /^https?:\/\/[a-z0-9]([a-z0-9.-]*[a-z0-9])?(:[0-9]{1,5})?([/?#][^\s\p{Cc}]*)?$/iu;
const text = (max: number) =>
  z.string().check(
    z.maxLength(max),
    z.refine((value) => value.trim() !== '', 'Must not be empty'),
  );
const seenDate = z.string().check(
  z.refine(isCalendarDate, 'Must be a date (YYYY-MM-DD)'),
  z.refine((value) => value <= latestToday(), 'Cannot be in the future'),
);

/** One value of each fact, as the admin may write it (null clears it). */
export const adFactFields = {
  platforms: z.nullable(
    z.array(z.enum(AD_PLATFORMS)).check(
      z.minLength(1),
      z.refine((values) => new Set(values).size === values.length, 'A platform is listed twice'),
    ),
  ),
  placement: z.nullable(z.enum(AD_PLACEMENTS)),
  format: z.nullable(z.enum(AD_FORMATS)),
  first_seen: z.nullable(seenDate),
  last_seen: z.nullable(seenDate),
  still_running: z.boolean(),
  landing_url: z.nullable(z.string().check(z.maxLength(LANDING_URL_MAX_LENGTH), z.regex(LANDING_URL_PATTERN))),
  primary_text: z.nullable(text(PRIMARY_TEXT_MAX_LENGTH)),
  headline: z.nullable(text(HEADLINE_MAX_LENGTH)),
  call_to_action: z.nullable(z.enum(AD_CALLS_TO_ACTION)),
  offer: z.nullable(z.enum(AD_OFFERS)),
  hook_id: z.nullable(z.uuid()),
  language: z.nullable(z.string().check(z.regex(/^[a-z]{2}$/))),
  country: z.nullable(z.string().check(z.regex(/^[A-Z]{2}$/))),
};

/**
 * The facts an admin changes in one edit (admin_update_ads' p_facts): only the
 * keys given change. The rules between facts are checked when both are given;
 * the database checks them against the stored values as well.
 */
export const adFactsChangeSchema = z.strictObject(
  Object.fromEntries(Object.entries(adFactFields).map(([key, schema]) => [key, z.optional(schema)])) as {
    [K in keyof typeof adFactFields]: z.ZodMiniOptional<(typeof adFactFields)[K]>;
  },
).check(
  z.refine(
    (facts) => !(facts.first_seen && facts.last_seen && facts.first_seen > facts.last_seen),
    { message: 'First seen must not be after last seen', path: ['last_seen'] },
  ),
  z.refine((facts) => !(facts.last_seen && facts.first_seen === null), {
    message: 'A last seen date needs a first seen date',
    path: ['first_seen'],
  }),
  z.refine((facts) => !(facts.still_running === true && facts.first_seen === null), {
    message: 'A running ad needs a first seen date',
    path: ['first_seen'],
  }),
);
export type AdFactsChange = z.infer<typeof adFactsChangeSchema>;

/** The facts as get_ad returns them: the placement derived from the size when none was set, running days worked out. */
export const adFactsSchema = z.object({
  platforms: z.nullable(z.array(z.string())),
  placement: z.nullable(z.string()),
  placement_derived: z.boolean(),
  format: z.nullable(z.string()),
  first_seen: z.nullable(z.string()),
  last_seen: z.nullable(z.string()),
  still_running: z.boolean(),
  running_days: z.nullable(z.number().check(z.int())),
  landing_url: z.nullable(z.string()),
  primary_text: z.nullable(z.string()),
  headline: z.nullable(z.string()),
  call_to_action: z.nullable(z.string()),
  offer: z.nullable(z.string()),
  hook_id: z.nullable(z.string()),
  hook_name: z.nullable(z.string()),
  language: z.nullable(z.string()),
  country: z.nullable(z.string()),
  /**
   * The words printed in the image (private.ads_json, supabase/schemas/60_listing.sql): given only when the caller sees the ad clear,
   * null when it is locked or not read yet. Optional: an answer from before it still parses.
   */
  image_text: z.optional(z.nullable(z.string())),
});
export type AdFacts = z.infer<typeof adFactsSchema>;

/** The host of a landing page address, without "www.", or null when it is not a web address. */
export function landingHost(url: string): string | null {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
    return parsed.hostname.replace(/^www\./, '');
  } catch {
    return null;
  }
}
