import { describe, expect, it } from 'vitest';
import {
  effectiveSort,
  hasIgnoredFactValues,
  NO_FACT_FILTERS,
  parseFactFilters,
  writeFactFilters,
  type FactFilterValues,
} from '../../../src/features/library/lib/fact-filters.ts';

const parse = (query: string) => parseFactFilters(new URLSearchParams(query));

function write(values: FactFilterValues, hookName: string | null = values.hook, searching = false, base = '') {
  const params = new URLSearchParams(base);
  writeFactFilters(params, values, hookName, searching);
  return params.toString();
}

describe('the facts filters in the URL', () => {
  it('reads every filter and the order', () => {
    expect(parse('platform=tiktok&platform=meta&format=video&offer=free_shipping&hook=Social%20proof&days=60&running=1&colour=Blue&sort=longest')).toEqual({
      platforms: ['meta', 'tiktok'],
      format: 'video',
      offer: 'free_shipping',
      hook: 'Social proof',
      language: null,
      country: null,
      minRunningDays: 60,
      stillRunning: true,
      colour: 'blue',
      sort: 'longest_running',
    });
    expect(parse('sort=recent').sort).toBe('recently_seen');
    expect(parse('sort=newest').sort).toBe('newest');
    expect(parse('')).toEqual(NO_FACT_FILTERS);
  });

  it('survives a write and a read unchanged, the platforms in one order and each once', () => {
    const values: FactFilterValues = {
      platforms: ['youtube', 'instagram'],
      format: 'carousel',
      offer: 'none',
      hook: 'Before and after',
      language: 'de',
      country: 'FR',
      minRunningDays: 365,
      stillRunning: true,
      colour: 'beige',
      sort: 'recently_seen',
    };
    const query = write(values);
    expect(query).toBe('platform=instagram&platform=youtube&format=carousel&offer=none&hook=Before+and+after&language=de&country=FR&days=365&running=1&colour=beige&sort=recent');
    expect(parse(query)).toEqual({ ...values, platforms: ['instagram', 'youtube'] });
    expect(parse('platform=meta&platform=META&platform=meta').platforms).toEqual(['meta']);
  });

  it('keeps the other parameters and leaves out what is off', () => {
    expect(write(NO_FACT_FILTERS, null, false, 'brand=Lumora&q=glow&format=video&running=1&colour=red')).toBe('brand=Lumora&q=glow');
  });

  it('leaves the default order out: newest without a search, relevance with one', () => {
    expect(write({ ...NO_FACT_FILTERS, sort: 'newest' }, null, false)).toBe('');
    expect(write({ ...NO_FACT_FILTERS, sort: 'newest' }, null, true)).toBe('sort=newest');
    expect(write({ ...NO_FACT_FILTERS, sort: null }, null, true)).toBe('');
    expect(effectiveSort(null, '')).toBe('newest');
    expect(effectiveSort(null, '  ')).toBe('newest');
    expect(effectiveSort(null, 'glow')).toBe('relevance');
    expect(effectiveSort('newest', 'glow')).toBe('newest');
    expect(effectiveSort('longest_running', '')).toBe('longest_running');
  });

  it('ignores values that are not ours, and says so', () => {
    const query = 'platform=myspace&platform=tiktok&format=gif&offer=free&days=61&running=yes&sort=relevance&hook=';
    const values = parse(query);
    expect(values).toEqual({ ...NO_FACT_FILTERS, platforms: ['tiktok'] });
    expect(hasIgnoredFactValues(new URLSearchParams(query), values)).toBe(true);
    for (const bad of ['days=0', 'days=-7', 'days=7.5', 'days=3651', 'days=1e2', 'sort=oldest', 'running=0', 'format=', 'offer=DISCOUNTS', 'colour=teal', 'colour=']) {
      const params = new URLSearchParams(bad);
      expect(hasIgnoredFactValues(params, parseFactFilters(params)), bad).toBe(true);
    }
    const good = new URLSearchParams('platform=tiktok&days=60&running=1&sort=longest&format=VIDEO');
    expect(hasIgnoredFactValues(good, parseFactFilters(good))).toBe(false);
    expect(parseFactFilters(good).format).toBe('video');
  });

  it("treats a missing or 'all' hook as no hook and bounds a long one to ten of the longest names", () => {
    expect(parse('hook=all').hook).toBeNull();
    expect(parse('hook=%20%20').hook).toBeNull();
    expect(parse('hook=Social%20proof,Before%20and%20after').hook).toBe('Social proof,Before and after');
    expect(parse(`hook=${'x'.repeat(2000)}`).hook).toHaveLength(810);
  });

  it('reads a language and a country as codes in any case, and ignores what is not a code', () => {
    expect(parse('language=de&country=fr')).toMatchObject({ language: 'de', country: 'FR' });
    expect(parse('language=DE&country=FR')).toMatchObject({ language: 'de', country: 'FR' });
    for (const bad of ['language=deu', 'language=d', 'language=', 'language=all', 'country=FRA', 'country=1F', 'country=']) {
      const params = new URLSearchParams(bad);
      const values = parseFactFilters(params);
      expect([values.language, values.country], bad).toEqual([null, null]);
      expect(hasIgnoredFactValues(params, values), bad).toBe(true);
    }
  });
});
