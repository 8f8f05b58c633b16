import { describe, expect, it } from 'vitest';
import { adDetailSchema } from '../../../src/features/ad-detail/api/ad-detail-schema.ts';
import {
  adFactsChangeSchema,
  adFactsSchema,
  isCalendarDate,
  landingHost,
  latestToday,
} from '../../../src/lib/ad-facts.ts';
import { adSchema } from '../../../src/lib/ad-schema.ts';
import { makeAd, makeFacts } from '../support/ad-fixtures.ts';

describe('the ad facts schemas', () => {
  it('accepts a full change and a change of one fact, and refuses unknown facts', () => {
    expect(
      adFactsChangeSchema.safeParse({
        platforms: ['meta', 'tiktok'], placement: 'story', format: 'video', first_seen: '2026-01-01', last_seen: '2026-02-01',
        still_running: false, landing_url: 'https://example.com/p', primary_text: 'Text', headline: 'Head', call_to_action: 'book_now',
        offer: 'none', hook_id: '00000000-0000-4000-8000-000000000000', language: 'fr', country: 'FR',
      }).success,
    ).toBe(true);
    expect(adFactsChangeSchema.safeParse({ headline: null }).success).toBe(true);
    expect(adFactsChangeSchema.safeParse({}).success).toBe(true);
    expect(adFactsChangeSchema.safeParse({ tone: 'warm' }).success).toBe(false);
  });

  it('refuses each fact past its rule', () => {
    for (const change of [
      { platforms: [] }, { platforms: ['meta', 'meta'] }, { platforms: ['myspace'] }, { placement: 'reel' }, { format: 'gif' },
      { first_seen: '2026-02-30' }, { first_seen: '1/2/2026' }, { last_seen: '2999-01-01', first_seen: '2026-01-01' },
      { first_seen: '2026-03-01', last_seen: '2026-02-01' }, { first_seen: null, still_running: true }, { still_running: null },
      { landing_url: 'mailto:a@example.com' }, { landing_url: `https://example.com/${'a'.repeat(2029)}` },
      { headline: 'x'.repeat(301) }, { headline: '  ' }, { primary_text: 'x'.repeat(5001) }, { call_to_action: 'Shop now' },
      { offer: 'bogo' }, { hook_id: 'discount' }, { language: 'EN' }, { country: 'usa' },
    ]) {
      expect(adFactsChangeSchema.safeParse(change).success, JSON.stringify(change).slice(0, 80)).toBe(false);
    }
  });

  it('reads dates as calendar days, today being the latest day begun anywhere', () => {
    expect(isCalendarDate('2024-02-29')).toBe(true);
    expect(isCalendarDate('2025-02-29')).toBe(false);
    expect(isCalendarDate('2026-1-01')).toBe(false);
    expect(latestToday(new Date('2026-11-26T09:59:00Z'))).toBe('2026-11-26');
    expect(latestToday(new Date('2026-11-26T10:00:00Z'))).toBe('2026-11-27');
  });

  it('names the landing page by its host, without www, and nothing for other addresses', () => {
    expect(landingHost('https://www.lumora.com/p?x=1')).toBe('lumora.com');
    expect(landingHost('http://shop.example.co.uk:8080/')).toBe('shop.example.co.uk');
    expect(landingHost('javascript:alert(1)')).toBeNull();
    expect(landingHost('not a url')).toBeNull();
  });

  it('reads an ad with facts from get_ad and one without from a list', () => {
    expect(adFactsSchema.safeParse(makeFacts({ running_days: 3 })).success).toBe(true);
    const detail = adDetailSchema.parse(makeAd({ facts: makeFacts({ headline: 'Hi' }) }));
    expect(detail.facts?.headline).toBe('Hi');
    expect(adDetailSchema.parse(makeAd()).facts).toBeUndefined();
    // A list's schema drops facts it does not read.
    expect('facts' in adSchema.parse(makeAd({ facts: makeFacts({ headline: 'Hi' }) }))).toBe(false);
  });
});
