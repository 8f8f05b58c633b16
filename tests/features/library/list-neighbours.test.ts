// @vitest-environment jsdom
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import type { LibraryFilters } from '../../../src/features/library/api/list-library-ads.ts';
import { filteredLibraryListHolding, isWholeLibrary, neighbourIn } from '../../../src/features/library/lib/list-neighbours.ts';

const whole: LibraryFilters = { brandIds: [], categoryIds: [], typeIds: [], tagIds: [], since: null, search: '' };
const HOOK = '00000000-0000-4000-8000-000000000001';

describe('the whole library, whose neighbours the server walks', () => {
  it('is the library with no filter, no search and the newest order', () => {
    expect(isWholeLibrary(whole)).toBe(true);
    expect(isWholeLibrary({ ...whole, search: '   ', stillRunning: false, platforms: [], hookIds: [], language: null, sort: 'newest' })).toBe(true);
  });

  it.each<[string, Partial<LibraryFilters>]>([
    ['a brand', { brandIds: [HOOK] }],
    ['a category', { categoryIds: [HOOK] }],
    ['a type', { typeIds: [HOOK] }],
    ['a tag', { tagIds: [HOOK] }],
    ['a period', { since: '2026-11-01T00:00:00.000Z' }],
    ['a search', { search: 'serum' }],
    ['a platform', { platforms: ['tiktok'] }],
    ['a format', { format: 'video' }],
    ['an offer', { offer: 'discount' }],
    ['a hook', { hookIds: [HOOK] }],
    ['a language', { language: 'de' }],
    ['a country', { country: 'FR' }],
    ['a running length', { minRunningDays: 60 }],
    ['still running', { stillRunning: true }],
    ['a colour', { colour: 'green' }],
    ['another order', { sort: 'longest_running' }],
  ])('is not the library narrowed or re-ordered by %s', (_name, change) => {
    expect(isWholeLibrary({ ...whole, ...change })).toBe(false);
  });
});

describe('the neighbours in a list on screen', () => {
  const list = { filters: { ...whole, colour: 'green' as const }, ids: ['a', 'b', 'c'], hasMore: false };

  it('are the ads before and after, wrapping round once the list is loaded to its end', () => {
    expect(neighbourIn(list, 'b', 'previous')).toBe('a');
    expect(neighbourIn(list, 'b', 'next')).toBe('c');
    expect(neighbourIn(list, 'a', 'previous')).toBe('c');
    expect(neighbourIn(list, 'c', 'next')).toBe('a');
    expect(neighbourIn(list, 'z', 'next')).toBeNull();
  });

  it('ask for the next page at the end of a list with more, and do not wrap before its start', () => {
    const partial = { ...list, hasMore: true };
    expect(neighbourIn(partial, 'c', 'next')).toBe('load-more');
    expect(neighbourIn(partial, 'a', 'previous')).toBeNull();
  });
});

describe('the filtered list that holds an ad', () => {
  const clients: QueryClient[] = [];
  afterEach(() => clients.splice(0).forEach((client) => client.clear()));

  /** A query client with the given library lists on screen (each with an observer, as the grid has). */
  function withLists(lists: Array<[LibraryFilters, string[]]>): QueryClient {
    const client = new QueryClient();
    clients.push(client);
    for (const [filters, ids] of lists) {
      const queryKey = ['ads', 'library', filters];
      const data = { pages: [{ ads: ids.map((id) => ({ id })), next_cursor: null }], pageParams: [null] };
      client.setQueryData(queryKey, data);
      new QueryObserver(client, { queryKey, queryFn: () => data, staleTime: Infinity }).subscribe(() => undefined);
    }
    return client;
  }

  it('is a list filtered by a colour, so the arrows walk that list', () => {
    const client = withLists([[{ ...whole, colour: 'green' }, ['g1', 'g2']]]);
    expect(filteredLibraryListHolding(client, 'g2')).toEqual({ filters: { ...whole, colour: 'green' }, ids: ['g1', 'g2'], hasMore: false });
  });

  it('is never the whole library, whose order the server gives', () => {
    const client = withLists([[whole, ['a1', 'a2']]]);
    expect(filteredLibraryListHolding(client, 'a1')).toBeNull();
  });
});
