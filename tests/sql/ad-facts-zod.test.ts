import { beforeAll, expect, it } from 'vitest';
import { describeOnEngines } from '../support/engines.ts';
import { newAd, newBrand, newCategory, newHook } from '../support/factories.ts';
import {
  AD_CALLS_TO_ACTION,
  AD_FORMATS,
  AD_OFFERS,
  AD_PLACEMENTS,
  AD_PLATFORMS,
  HEADLINE_MAX_LENGTH,
  LANDING_URL_MAX_LENGTH,
  PRIMARY_TEXT_MAX_LENGTH,
  adFactFields,
  adFactsChangeSchema,
} from '../../src/lib/ad-facts.ts';

type Fact = keyof typeof adFactFields;

/** How a JSON value becomes the column's SQL value. */
const sqlValue: Record<Fact, string> = {
  platforms: 'case when $1::jsonb = \'null\' then null else array(select jsonb_array_elements_text($1::jsonb)) end',
  placement: '$1::jsonb ->> 0',
  format: '$1::jsonb ->> 0',
  first_seen: '($1::jsonb ->> 0)::date',
  last_seen: '($1::jsonb ->> 0)::date',
  still_running: '($1::jsonb ->> 0)::boolean',
  landing_url: '$1::jsonb ->> 0',
  primary_text: '$1::jsonb ->> 0',
  headline: '$1::jsonb ->> 0',
  call_to_action: '$1::jsonb ->> 0',
  offer: '$1::jsonb ->> 0',
  hook_id: '($1::jsonb ->> 0)::uuid',
  language: '$1::jsonb ->> 0',
  country: '$1::jsonb ->> 0',
};

const daysFromNow = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
const near = (values: readonly string[]) => [...values, ...values.map((value) => value.toUpperCase()), `${values[0]}x`, ''];

/** Values each fact's zod schema and the table's checks must judge alike: every listed value, the limits and past them. */
// prettier-ignore
const samples = (hookId: string): Record<Fact, unknown[]> => ({
  platforms: [null, ...AD_PLATFORMS.map((p) => [p]), [...AD_PLATFORMS], ['myspace'], ['Meta'], [], ['meta', 'meta'], ['meta', 'tiktok']],
  placement: [null, ...near(AD_PLACEMENTS), 'reel'],
  format: [null, ...near(AD_FORMATS), 'gif'],
  first_seen: [null, '2024-02-29', daysFromNow(0), daysFromNow(-400), daysFromNow(3)],
  last_seen: [null, '2024-02-29', daysFromNow(0), daysFromNow(3)],
  still_running: [true, false],
  landing_url: [
    null, 'https://example.com', 'http://shop.example.co.uk/p?q=1#x', 'HTTPS://EXAMPLE.COM:8443/a', 'https://example.com/ä',
    `https://example.com/${'a'.repeat(LANDING_URL_MAX_LENGTH - 20)}`, `https://example.com/${'a'.repeat(LANDING_URL_MAX_LENGTH - 19)}`,
    'javascript:alert(1)', 'ftp://example.com', 'https://', 'https://exa mple.com', 'https://example.com/a b', 'example.com',
    'https://-example.com', 'https://example.com/a\u0007b',
  ],
  primary_text: [null, 'Hi', 'x'.repeat(PRIMARY_TEXT_MAX_LENGTH), 'x'.repeat(PRIMARY_TEXT_MAX_LENGTH + 1), '', '   ', '😀'.repeat(PRIMARY_TEXT_MAX_LENGTH)],
  headline: [null, 'Hi', 'x'.repeat(HEADLINE_MAX_LENGTH), 'x'.repeat(HEADLINE_MAX_LENGTH + 1), '', ' ', 'é'.repeat(HEADLINE_MAX_LENGTH)],
  call_to_action: [null, ...near(AD_CALLS_TO_ACTION), 'buy'],
  offer: [null, ...near(AD_OFFERS), 'bogo'],
  hook_id: [null, hookId, 'not-a-uuid'],
  language: [null, 'en', 'de', 'EN', 'eng', 'e', '1a'],
  country: [null, 'US', 'DE', 'us', 'USA', 'U', 'U1'],
});

describeOnEngines('ad facts: the zod schemas and the table agree', (ctx) => {
  let adId: string;
  let hookId: string;

  beforeAll(async () => {
    hookId = (await newHook(ctx.db)).id;
    adId = (await newAd(ctx.db, { brandId: (await newBrand(ctx.db)).id, categoryId: (await newCategory(ctx.db)).id })).id;
  });

  async function sqlAccepts(fact: Fact, value: unknown): Promise<boolean> {
    // last_seen and still_running need a first_seen; it is in the distant past.
    await ctx.db.query(`update public.ads set first_seen = '2000-01-01', last_seen = null, still_running = false where id = $1`, [adId]);
    const json = JSON.stringify(Array.isArray(value) || value === null ? value : [value]);
    return ctx.db.query(`update public.ads set ${fact} = ${sqlValue[fact]} where id = $2`, [json, adId]).then(
      () => true,
      () => false,
    );
  }

  it('accepts and refuses the same values, fact by fact', async () => {
    const all = samples(hookId);
    for (const fact of Object.keys(all) as Fact[]) {
      for (const value of all[fact]) {
        const zodAccepts = adFactFields[fact].safeParse(value).success;
        expect({ fact, value: JSON.stringify(value)?.slice(0, 60), accepted: zodAccepts })
          .toEqual({ fact, value: JSON.stringify(value)?.slice(0, 60), accepted: await sqlAccepts(fact, value) });
      }
    }
  });

  it('refuses in zod what the rules between dates refuse in SQL', async () => {
    expect(adFactsChangeSchema.safeParse({ first_seen: daysFromNow(-1), last_seen: daysFromNow(-3) }).success).toBe(false);
    expect(adFactsChangeSchema.safeParse({ first_seen: null, last_seen: daysFromNow(-3) }).success).toBe(false);
    expect(adFactsChangeSchema.safeParse({ first_seen: null, still_running: true }).success).toBe(false);
    expect(adFactsChangeSchema.safeParse({ first_seen: daysFromNow(-3), last_seen: daysFromNow(-1), still_running: true }).success).toBe(true);
    expect(adFactsChangeSchema.safeParse({ colour: 'red' }).success).toBe(false);
    for (const [set, ok] of [
      [`first_seen = '${daysFromNow(-1)}', last_seen = '${daysFromNow(-3)}'`, false],
      [`first_seen = null, last_seen = '${daysFromNow(-3)}'`, false],
      ['first_seen = null, last_seen = null, still_running = true', false],
      [`first_seen = '${daysFromNow(-3)}', last_seen = '${daysFromNow(-1)}', still_running = true`, true],
    ] as const) {
      const accepted = await ctx.db.query(`update public.ads set ${set} where id = $1`, [adId]).then(() => true, () => false);
      expect({ set, accepted }).toEqual({ set, accepted: ok });
    }
  });
});
