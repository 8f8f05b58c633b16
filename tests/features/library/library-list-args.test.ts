// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { libraryListQuery, type LibraryFilters } from '../../../src/features/library/api/list-library-ads.ts';
import { adFactsSchema } from '../../../src/lib/ad-facts.ts';
import { ApiError, errorTextOf } from '../../../src/lib/api-error.ts';
import { API_ERROR_TEXTS } from '../../../src/lib/api-error-texts.ts';
import { listAdsQuery } from '../support/list-ads-query.ts';

const base: LibraryFilters = { brandId: null, categoryId: null, typeId: null, tagIds: [], since: null, search: '' };
/** The library query as list_ads reads it, every field named. */
const sent = (filters: LibraryFilters, cursor: string | null) => listAdsQuery({ p_query: libraryListQuery(filters, cursor) });

describe('the library query as list_ads takes it', () => {
  it('sends the library board, no filter that is not set, and newest as the default order', () => {
    expect(sent(base, null)).toEqual({
      board: 'library', brand_id: null, category_id: null, type_id: null, tag_ids: null, since: null,
      search: null, cursor: null, platforms: null, format: null, offer: null, hook_id: null,
      min_running_days: null, still_running: null, sort: 'newest', colour: null,
    });
  });

  it('sends the facts filters and the order as given, platforms once each and in one order', () => {
    const query = sent({
      ...base, search: '  summer ', platforms: ['tiktok', 'meta', 'tiktok'], format: 'video', offer: 'discount',
      hookId: '00000000-0000-4000-8000-000000000001', minRunningDays: 60, stillRunning: true, sort: 'longest_running',
      colour: 'green',
    }, 'cursor');
    expect(query).toMatchObject({
      search: 'summer', cursor: 'cursor', platforms: ['meta', 'tiktok'], format: 'video', offer: 'discount',
      hook_id: '00000000-0000-4000-8000-000000000001', min_running_days: 60, still_running: true, sort: 'longest_running', colour: 'green',
    });
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
