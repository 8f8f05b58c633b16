// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { libraryTotalText } from '../../../src/features/library/components/library-total.tsx';
import { makeAds } from '../support/ad-fixtures.ts';
import { fakeSupabase } from '../support/fake-supabase.ts';
import { listAdsQueries, listAdsQuery } from '../support/list-ads-query.ts';
import { openFilterPanel } from '../support/filter-panel.ts';
import { renderApp, setUpAppTests, TestIntersectionObserver } from '../support/render-app.tsx';

vi.mock('../../../src/lib/supabase-client.ts', async () => ({ supabase: (await import('../support/fake-supabase.ts')).fakeSupabase.client }));
vi.mock('../../../src/features/boards/components/sidebar-collections.tsx', () => ({ SidebarCollections: () => null }));

/** The line above the grid that says how many ads the filters find. */
const totalText = () => screen.getByTestId('library-total').textContent;

describe('the library’s total above the grid', () => {
  setUpAppTests();

  it('says the exact total of the first page in the viewer’s number format, in a polite live region', async () => {
    fakeSupabase.onRpc('list_ads', () => ({ data: { ads: makeAds(60), next_cursor: 'next', total: 1284, total_is_estimate: false }, error: null }));
    renderApp('/library');
    await waitFor(() => expect(totalText()).toBe('1,284 ads'));
    // A live region: a screen reader hears the new count.
    expect(screen.getByTestId('library-total').getAttribute('role')).toBe('status');
  });

  it('writes the number as the viewer’s language does', async () => {
    vi.spyOn(window.navigator, 'languages', 'get').mockReturnValue(['de-DE']);
    fakeSupabase.onRpc('list_ads', () => ({ data: { ads: makeAds(60), next_cursor: 'next', total: 1284, total_is_estimate: false }, error: null }));
    renderApp('/library');
    await waitFor(() => expect(totalText()).toBe('1.284 ads'));
  });

  it('says 1 ad for one', async () => {
    fakeSupabase.onRpc('list_ads', () => ({ data: { ads: makeAds(1), next_cursor: null, total: 1, total_is_estimate: false }, error: null }));
    renderApp('/library');
    await waitFor(() => expect(totalText()).toBe('1 ad'));
  });

  it('says about, rounded to two significant figures, when the server estimates', async () => {
    fakeSupabase.onRpc('list_ads', () => ({ data: { ads: makeAds(60), next_cursor: 'next', total: 48_213, total_is_estimate: true }, error: null }));
    renderApp('/library');
    await waitFor(() => expect(totalText()).toBe('about 48,000 ads'));
  });

  it('words each kind of total', () => {
    const page = (total: number | undefined, estimate = false, ads = 1) => ({ ads: makeAds(ads), next_cursor: null, total, total_is_estimate: estimate });
    expect(libraryTotalText(page(123_456, true))).toBe('about 120,000 ads');
    expect(libraryTotalText(page(10_001, true))).toBe('about 10,000 ads');
    expect(libraryTotalText(page(10_000))).toBe('10,000 ads');
    expect(libraryTotalText(page(2))).toBe('2 ads');
    expect(libraryTotalText(page(0, false, 0))).toBe('');
    expect(libraryTotalText(page(undefined))).toBe('');
    expect(libraryTotalText(undefined)).toBe('');
  });

  it('keeps the first page’s total while later pages (which carry none) load and arrive', async () => {
    let releaseSecond: () => void = () => {};
    const second = new Promise<void>((resolve) => (releaseSecond = resolve));
    fakeSupabase.onRpc('list_ads', async (args) => {
      if (listAdsQuery(args).cursor === null) return { data: { ads: makeAds(60), next_cursor: 'cursor-2', total: 75, total_is_estimate: false }, error: null };
      await second;
      return { data: { ads: makeAds(15), next_cursor: null }, error: null };
    });
    renderApp('/library');
    await waitFor(() => expect(screen.getAllByTestId('ad-card')).toHaveLength(60));
    expect(totalText()).toBe('75 ads');

    act(() => TestIntersectionObserver.intersectAll());
    await waitFor(() => expect(listAdsQueries().map((query) => query.cursor)).toEqual([null, 'cursor-2']));
    expect(totalText()).toBe('75 ads');
    releaseSecond();
    await waitFor(() => expect(screen.getAllByTestId('ad-card')).toHaveLength(75));
    expect(totalText()).toBe('75 ads');
  });

  it('says nothing on an empty result, where the empty state speaks', async () => {
    fakeSupabase.onRpc('list_ads', () => ({ data: { ads: [], next_cursor: null, total: 0, total_is_estimate: false }, error: null }));
    renderApp('/library');
    expect(await screen.findByText('No ads found matching your filters.')).toBeTruthy();
    expect(totalText()).toBe('');
  });

  it('keeps its line while a new query loads, and says the new total when its first page arrives', async () => {
    let releaseFiltered: () => void = () => {};
    const filtered = new Promise<void>((resolve) => (releaseFiltered = resolve));
    fakeSupabase.onRpc('list_ads', async (args) => {
      if (listAdsQuery(args).format === null) return { data: { ads: makeAds(60), next_cursor: 'next', total: 1284, total_is_estimate: false }, error: null };
      await filtered;
      return { data: { ads: makeAds(3), next_cursor: null, total: 3, total_is_estimate: false }, error: null };
    });
    const app = renderApp('/library');
    await waitFor(() => expect(totalText()).toBe('1,284 ads'));
    const line = screen.getByTestId('library-total');

    await openFilterPanel();
    fireEvent.change(screen.getByRole('combobox', { name: 'Format' }), { target: { value: 'video' } });
    await waitFor(() => expect(app.currentUrl()).toBe('/library?format=video'));
    // The same element, empty: its height stays and the grid below does not move.
    await waitFor(() => expect(totalText()).toBe(''));
    expect(screen.getByTestId('library-total')).toBe(line);
    expect(line.className).toContain('h-5');

    releaseFiltered();
    await waitFor(() => expect(totalText()).toBe('3 ads'));
    expect(screen.getByTestId('library-total')).toBe(line);
  });
});
