// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { sinceFor } from '../../../src/features/library/hooks/use-library-filters.ts';
import { BRANDS, CATEGORIES, makeAds, TAGS } from '../support/ad-fixtures.ts';
import { fakeSupabase } from '../support/fake-supabase.ts';
import { lastListAdsQuery, listAdsQueries, listAdsQuery } from '../support/list-ads-query.ts';
import { renderApp, setUpAppTests } from '../support/render-app.tsx';

vi.mock('../../../src/lib/supabase-client.ts', async () => ({ supabase: (await import('../support/fake-supabase.ts')).fakeSupabase.client }));

const [lumora, northwind] = BRANDS as [(typeof BRANDS)[0], (typeof BRANDS)[0]];
const [skincare, coffee] = CATEGORIES as [(typeof CATEGORIES)[0], (typeof CATEGORIES)[0]];

const listCalls = () => fakeSupabase.callsOf('list_ads');
const lastListCall = lastListAdsQuery;

describe('library filters and the URL', () => {
  setUpAppTests();

  it('presets the brand and category from ?brand= and ?category= names in any case, resolved to their ids', async () => {
    renderApp('/library?brand=lumora&category=COFFEE%20%26%20TEA');
    await waitFor(() => expect(listCalls()).toHaveLength(1));
    expect(lastListCall()).toMatchObject({ board: 'library', brand_id: lumora.id, category_id: coffee.id, cursor: null });
    expect((screen.getByRole('combobox', { name: 'Brand' }) as HTMLSelectElement).value).toBe(lumora.id);
    expect((screen.getByRole('combobox', { name: 'Category' }) as HTMLSelectElement).value).toBe(coffee.id);
  });

  it('accepts a brand id in the URL too', async () => {
    const app = renderApp(`/library?brand=${northwind.id}`);
    await waitFor(() => expect(listCalls()).toHaveLength(1));
    expect(lastListCall().brand_id).toBe(northwind.id);
    await waitFor(() => expect(app.currentUrl()).toBe(`/library?brand=${northwind.id}`));
  });

  it("treats 'all' as no filter", async () => {
    renderApp('/library?brand=all&category=all');
    await waitFor(() => expect(listCalls()).toHaveLength(1));
    expect(lastListCall()).toMatchObject({ brand_id: null, category_id: null });
  });

  it('drops a brand that names nothing from the URL and lists everything', async () => {
    const app = renderApp('/library?brand=no-such-brand&category=skincare');
    await waitFor(() => expect(app.currentUrl()).toBe('/library?category=skincare'));
    await waitFor(() => expect(lastListCall()).toMatchObject({ brand_id: null, category_id: skincare.id }));
  });

  it('writes a chosen filter to the URL by name and reloads the list from the start', async () => {
    const first = makeAds(60);
    fakeSupabase.onRpc('list_ads', (args) => {
      const filtered = Boolean(listAdsQuery(args).category_id);
      return { data: { ads: filtered ? makeAds(3) : first, next_cursor: filtered ? null : 'next' }, error: null };
    });
    const app = renderApp('/library?brand=Lumora');
    await waitFor(() => expect(screen.getAllByTestId('ad-card')).toHaveLength(60));

    fireEvent.change(screen.getByRole('combobox', { name: 'Category' }), { target: { value: skincare.id } });

    await waitFor(() => expect(app.currentUrl()).toBe('/library?brand=Lumora&category=Skincare'));
    await waitFor(() => expect(screen.getAllByTestId('ad-card')).toHaveLength(3));
    expect(lastListCall()).toMatchObject({ brand_id: lumora.id, category_id: skincare.id, cursor: null });
  });

  it('removes the brand from the URL when All brands is chosen', async () => {
    const app = renderApp('/library?brand=Lumora');
    await waitFor(() => expect(listCalls()).toHaveLength(1));
    fireEvent.change(screen.getByRole('combobox', { name: 'Brand' }), { target: { value: 'all' } });
    await waitFor(() => expect(app.currentUrl()).toBe('/library'));
    await waitFor(() => expect(lastListCall().brand_id).toBeNull());
  });

  it('passes the date filter to the server as the query’s since and keeps it in the URL', async () => {
    const app = renderApp('/library');
    await waitFor(() => expect(listCalls()).toHaveLength(1));
    const dateSelect = screen.getByRole('combobox', { name: 'Date' }) as HTMLSelectElement;
    expect([...dateSelect.options].map((option) => option.text)).toEqual(['All time', 'Past week', 'Past month', 'Past year']);

    fireEvent.change(dateSelect, { target: { value: 'week' } });

    await waitFor(() => expect(app.currentUrl()).toBe('/library?date=week'));
    await waitFor(() => expect(lastListCall().since).toBe(sinceFor('week', new Date())));
    const since = new Date(lastListCall().since!).getTime();
    expect(Date.now() - since).toBeGreaterThanOrEqual(7 * 86_400_000);
    expect(Date.now() - since).toBeLessThan(8 * 86_400_000);
  });

  it('filters by type and tags, and leaves the Black Friday tag out of the library', async () => {
    const app = renderApp('/library?type=static&tag=bestseller');
    await waitFor(() => expect(listCalls()).toHaveLength(1));
    expect(lastListCall()).toMatchObject({ type_id: 'e0000000-0000-4000-8000-000000000001', tag_ids: [TAGS[0]!.id] });
    fireEvent.click(screen.getByRole('button', { name: /Tags/ }));
    expect(await screen.findByRole('menuitemcheckbox', { name: 'Bestseller' })).toBeTruthy();
    expect(screen.queryByRole('menuitemcheckbox', { name: 'Black Friday' })).toBeNull();
    fireEvent.click(screen.getByRole('menuitemcheckbox', { name: 'Bestseller' }));
    await waitFor(() => expect(app.currentUrl()).toBe('/library?type=static'));
    await waitFor(() => expect(lastListCall()).toMatchObject({ type_id: 'e0000000-0000-4000-8000-000000000001', tag_ids: null }));
  });

  it('searches on the server once typing has paused for 250 ms, and keeps the search in the URL', async () => {
    const app = renderApp('/library');
    await waitFor(() => expect(listCalls()).toHaveLength(1));
    const search = screen.getByPlaceholderText('Search brands & categories…');

    fireEvent.change(search, { target: { value: 'sk' } });
    // A pause shorter than the debounce: 'sk' is never searched.
    await new Promise((resolve) => setTimeout(resolve, 150));
    fireEvent.change(search, { target: { value: 'skin' } });

    await waitFor(() => expect(lastListCall().search).toBe('skin'));
    expect(listAdsQueries().map((query) => query.search)).toEqual([null, 'skin']);
    expect(app.currentUrl()).toBe('/library?q=skin');
  });

  it('shows each active filter as a chip that removes it, and Clear all takes every filter off but keeps the search', async () => {
    const app = renderApp('/library?brand=Lumora&tag=bestseller&date=year&q=glow');
    await waitFor(() => expect(listCalls()).toHaveLength(1));
    expect(lastListCall()).toMatchObject({ brand_id: lumora.id, tag_ids: [TAGS[0]!.id], search: 'glow' });
    const chips = within(screen.getByRole('list', { name: 'Active filters' }));
    expect(chips.getAllByRole('button').map((chip) => chip.getAttribute('aria-label') ?? chip.textContent)).toEqual([
      'Remove Brand: Lumora',
      'Remove Tag: Bestseller',
      'Remove Date: Past year',
      'Clear all',
    ]);

    fireEvent.click(screen.getByRole('button', { name: 'Remove Tag: Bestseller' }));
    await waitFor(() => expect(app.currentUrl()).toBe('/library?brand=Lumora&date=year&q=glow'));
    await waitFor(() => expect(lastListCall()).toMatchObject({ brand_id: lumora.id, tag_ids: null }));

    fireEvent.click(screen.getByRole('button', { name: 'Clear all' }));
    await waitFor(() => expect(app.currentUrl()).toBe('/library?q=glow'));
    await waitFor(() => expect(lastListCall()).toMatchObject({ brand_id: null, since: null, search: 'glow' }));
    expect(screen.queryByRole('list', { name: 'Active filters' })).toBeNull();
    expect((screen.getByPlaceholderText('Search brands & categories…') as HTMLInputElement).value).toBe('glow');
  });

  it('offers no Clear all for a single active filter', async () => {
    renderApp('/library?type=static');
    await waitFor(() => expect(listCalls()).toHaveLength(1));
    expect(screen.getByRole('button', { name: 'Remove Type: Static' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Clear all' })).toBeNull();
  });
});
