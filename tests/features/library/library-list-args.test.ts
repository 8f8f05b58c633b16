// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { libraryListArgs, type LibraryFilters } from '../../../src/features/library/api/list-library-ads.ts';
import { adFactsSchema } from '../../../src/lib/ad-facts.ts';
import { ApiError, errorTextOf } from '../../../src/lib/api-error.ts';
import { API_ERROR_TEXTS } from '../../../src/lib/api-error-texts.ts';

const base: LibraryFilters = { brandId: null, categoryId: null, typeId: null, tagIds: [], since: null, search: '' };

describe('the library query as list_ads takes it', () => {
  it('sends every filter, a filter not set as null, and newest as the default order', () => {
    expect(libraryListArgs(base, null)).toEqual({
      p_board: 'library', p_brand_id: null, p_category_id: null, p_type_id: null, p_tag_ids: null, p_since: null,
      p_search: null, p_cursor: null, p_platforms: null, p_format: null, p_offer: null, p_hook_id: null,
      p_min_running_days: null, p_still_running: null, p_sort: 'newest', p_colour: null,
    });
  });

  it('sends the facts filters and the order as given, platforms once each and in one order', () => {
    const args = libraryListArgs({
      ...base, search: '  summer ', platforms: ['tiktok', 'meta', 'tiktok'], format: 'video', offer: 'discount',
      hookId: '00000000-0000-4000-8000-000000000001', minRunningDays: 60, stillRunning: true, sort: 'longest_running',
      colour: 'green',
    }, 'cursor');
    expect(args).toMatchObject({
      p_search: 'summer', p_cursor: 'cursor', p_platforms: ['meta', 'tiktok'], p_format: 'video', p_offer: 'discount',
      p_hook_id: '00000000-0000-4000-8000-000000000001', p_min_running_days: 60, p_still_running: true, p_sort: 'longest_running', p_colour: 'green',
    });
  });

  it('sends no running filter when stillRunning is false', () => {
    expect(libraryListArgs({ ...base, stillRunning: false }, null).p_still_running).toBeNull();
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
