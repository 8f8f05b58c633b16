// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDate, formatDay } from '../../../src/lib/formatting.ts';

/** The browser's languages, as navigator reports them. */
function viewerSpeaks(...languages: string[]) {
  vi.spyOn(navigator, 'languages', 'get').mockReturnValue(languages);
  vi.spyOn(navigator, 'language', 'get').mockReturnValue(languages[0] ?? '');
}

describe('dates on every screen', () => {
  afterEach(() => vi.restoreAllMocks());

  it.each([
    [['en-US'], 'Dec 8, 2026'],
    [['en-GB', 'en'], '8 Dec 2026'],
    [['de-DE', 'de'], '8. Dez. 2026'],
    [['nl-NL'], '8 dec 2026'],
    [[], 'Dec 8, 2026'],
  ])('are written one way, in the viewer’s language (%j): %s', (languages, written) => {
    viewerSpeaks(...languages);
    expect(formatDay('2026-12-08')).toBe(written);
    expect(formatDate('2026-12-08T12:00:00Z')).toBe(written);
  });

  it('write a date without a time as that day, and nothing for what is not a date', () => {
    viewerSpeaks('en-GB');
    expect(formatDay('2026-01-01')).toBe('1 Jan 2026');
    expect(formatDay('2026-13-45')).toBe('');
    expect(formatDate('soon')).toBe('');
  });
});
