// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { libraryListQuery, type LibraryFilters } from '../../../src/features/library/api/list-library-ads.ts';
import { adFactsSchema } from '../../../src/lib/ad-facts.ts';
import { ApiError, errorTextOf } from '../../../src/lib/api-error.ts';
import { API_ERROR_TEXTS } from '../../../src/lib/api-error-texts.ts';
import { listAdsQuery } from '../support/list-ads-query.ts';

const base: LibraryFilters = { brandIds: [], categoryIds: [], typeIds: [], tagIds: [], since: null, search: '' };
const ID_A = '00000000-0000-4000-8000-00000000000a';
const ID_B = '00000000-0000-4000-8000-00000000000b';
/** The library query as list_ads reads it, every field named. */
const sent = (filters: LibraryFilters, cursor: string | null) => listAdsQuery({ p_query: libraryListQuery(filters, cursor) });

describe('the library query as list_ads takes it', () => {
  it('sends the library board, no filter that is not set, and newest as the default order', () => {
    expect(sent(base, null)).toEqual({
      board: 'library', brand_ids: null, category_ids: null, type_ids: null, tag_ids: null, since: null,
      search: null, cursor: null, platforms: null, format: null, offer: null, hook_ids: null, language: null, country: null,
      min_running_days: null, still_running: null, sort: 'newest', colour: null,
    });
  });

  it('sends the facts filters and the order as given, platforms once each and in one order', () => {
    const query = sent({
      ...base, search: '  summer ', platforms: ['tiktok', 'meta', 'tiktok'], format: 'video', offer: 'discount',
      hookIds: ['00000000-0000-4000-8000-000000000001'], language: 'de', country: 'FR', minRunningDays: 60, stillRunning: true, sort: 'longest_running',
      colour: 'green',
    }, 'cursor');
    expect(query).toMatchObject({
      search: 'summer', cursor: 'cursor', platforms: ['meta', 'tiktok'], format: 'video', offer: 'discount',
      hook_ids: ['00000000-0000-4000-8000-000000000001'], language: 'de', country: 'FR', min_running_days: 60, still_running: true, sort: 'longest_running', colour: 'green',
    });
  });

  it('sends brands, categories, types and hooks as lists of ids, each once and in one order', () => {
    expect(sent({ ...base, brandIds: [ID_B, ID_A, ID_B], categoryIds: [ID_A], typeIds: [ID_B], hookIds: [ID_B, ID_A] }, null)).toMatchObject({
      brand_ids: [ID_A, ID_B], category_ids: [ID_A], type_ids: [ID_B], hook_ids: [ID_A, ID_B],
    });
  });

  it('refuses what list_ads refuses: more than 10 values, a malformed language or country', () => {
    const eleven = Array.from({ length: 11 }, (_, index) => `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`);
    expect(() => libraryListQuery({ ...base, brandIds: eleven }, null)).toThrow();
    expect(() => libraryListQuery({ ...base, brandIds: eleven.slice(0, 10) }, null)).not.toThrow();
    for (const language of ['DE', 'deu', 'd']) expect(() => libraryListQuery({ ...base, language }, null), language).toThrow();
    for (const country of ['fr', 'FRA', 'F']) expect(() => libraryListQuery({ ...base, country }, null), country).toThrow();
  });

  it('sends no running filter when stillRunning is false', () => {
    expect(sent({ ...base, stillRunning: false }, null).still_running).toBeNull();
  });

  it('says our own sentences for the listing codes', () => {
    expect(errorTextOf(new ApiError('x', 'invalid_filter'))).toBe(API_ERROR_TEXTS.apiErrors.byCode.invalid_filter);
    expect(errorTextOf(new ApiError('x', 'unknown_sort'))).toBe(API_ERROR_TEXTS.apiErrors.byCode.unknown_sort);
  });
});

describe("get_ad's image text", () => {
  const facts = {
    platforms: null, placement: null, placement_derived: true, format: null, first_seen: null, last_seen: null,
    still_running: false, running_days: null, landing_url: null, primary_text: null, headline: null, call_to_action: null,
    offer: null, hook_id: null, hook_name: null, language: null, country: null,
  };
  it('parses with it, with null and without it', () => {
    expect(adFactsSchema.parse({ ...facts, image_text: 'SALE 50%' }).image_text).toBe('SALE 50%');
    expect(adFactsSchema.parse({ ...facts, image_text: null }).image_text).toBeNull();
    expect(adFactsSchema.parse(facts).image_text).toBeUndefined();
  });
});
