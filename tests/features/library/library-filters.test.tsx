// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { sinceFor } from '../../../src/features/library/hooks/use-library-filters.ts';
import { BRANDS, CATEGORIES, makeAds, TAGS } from '../support/ad-fixtures.ts';
import { fakeSupabase } from '../support/fake-supabase.ts';
import { lastListAdsQuery, listAdsQueries, listAdsQuery } from '../support/list-ads-query.ts';
import { openFilterPanel, panelToggle } from '../support/filter-panel.ts';
import { renderApp, setUpAppTests } from '../support/render-app.tsx';

vi.mock('../../../src/lib/supabase-client.ts', async () => ({ supabase: (await import('../support/fake-supabase.ts')).fakeSupabase.client }));

const [lumora, northwind] = BRANDS as [(typeof BRANDS)[0], (typeof BRANDS)[0]];
const [skincare, coffee] = CATEGORIES as [(typeof CATEGORIES)[0], (typeof CATEGORIES)[0]];

const listCalls = () => fakeSupabase.callsOf('list_ads');
const lastListCall = lastListAdsQuery;

/** A filter of several's pill in the toolbar, named by its label and what it shows ('Brand: Lumora +1'). */
const filterPill = (label: string) => screen.getByRole('button', { name: new RegExp(`^${label}: `) });

/** Opens a filter's checklist and ticks (or unticks) one item; answers the item. */
async function pick(label: string, item: string) {
  if (!screen.queryByRole('menuitemcheckbox', { name: item })) fireEvent.click(filterPill(label));
  const option = await screen.findByRole('menuitemcheckbox', { name: item });
  fireEvent.click(option);
  return option;
}

const chipNames = () =>
  within(screen.getByRole('list', { name: 'Active filters' }))
    .getAllByRole('button')
    .map((chip) => chip.getAttribute('aria-label') ?? chip.textContent);

describe('library filters and the URL', () => {
  setUpAppTests();
  // The checklists' popover is a chunk loaded on first open: transformed here once, not inside a test's wait.
  beforeAll(() => import('../../../src/components/ui/popover-radix.tsx'), 30_000);

  it('presets the brand and category from ?brand= and ?category= names in any case, resolved to their ids', async () => {
    renderApp('/library?brand=lumora&category=COFFEE%20%26%20TEA');
    await waitFor(() => expect(listCalls()).toHaveLength(1));
    expect(lastListCall()).toMatchObject({ board: 'library', brand_ids: [lumora.id], category_ids: [coffee.id], cursor: null });
    expect(filterPill('Brand').getAttribute('aria-label')).toBe('Brand: Lumora');
    expect(filterPill('Category').getAttribute('aria-label')).toBe('Category: Coffee & Tea');
    // The type is behind Filters, none of it ticked; the brand and category are not counted there.
    expect(screen.queryByRole('button', { name: /^Type: / })).toBeNull();
    expect(screen.getByRole('button', { name: 'Filters' })).toBeTruthy();
    const panel = await openFilterPanel();
    expect(within(within(panel).getByRole('group', { name: 'Type' })).queryAllByRole('button', { pressed: true })).toEqual([]);
  });

  it('from 768 px keeps the search, brand, category, Filters and the order in the row, Filters counting the filters it holds that are on', async () => {
    renderApp('/library?brand=Lumora&type=static&date=week&running=1');
    await waitFor(() => expect(listCalls()).toHaveLength(1));
    const row = screen.getByTestId('filter-toolbar').firstElementChild as HTMLElement;
    const names = [...row.children].map((child) => (child.querySelector('input, select, button') ?? child).getAttribute('aria-label') ?? (child.querySelector('input') as HTMLInputElement | null)?.placeholder);
    expect(names).toEqual(['Search brands & categories…', 'Brand: Lumora', 'Category: All categories', 'Filters, 3 active', 'Sort']);
    const panel = await openFilterPanel();
    expect(within(panel).getByRole('heading', { name: 'Filters' })).toBeTruthy();
    expect(within(panel).queryByRole('combobox', { name: 'Sort' })).toBeNull();
    expect(within(panel).queryByRole('group', { name: 'Brand' })).toBeNull();
    fireEvent.click(within(panel).getByRole('button', { name: 'Show ads' }));
    await waitFor(() => expect(screen.queryByTestId('filter-panel')).toBeNull());
  });

  it('accepts a brand id in the URL too', async () => {
    const app = renderApp(`/library?brand=${northwind.id}`);
    await waitFor(() => expect(listCalls()).toHaveLength(1));
    expect(lastListCall().brand_ids).toEqual([northwind.id]);
    await waitFor(() => expect(app.currentUrl()).toBe(`/library?brand=${northwind.id}`));
  });

  it("treats 'all' as no filter", async () => {
    renderApp('/library?brand=all&category=all');
    await waitFor(() => expect(listCalls()).toHaveLength(1));
    expect(lastListCall()).toMatchObject({ brand_ids: null, category_ids: null });
  });

  it('drops a brand that names nothing from the URL and lists everything', async () => {
    const app = renderApp('/library?brand=no-such-brand&category=skincare');
    await waitFor(() => expect(app.currentUrl()).toBe('/library?category=skincare'));
    await waitFor(() => expect(lastListCall()).toMatchObject({ brand_ids: null, category_ids: [skincare.id] }));
  });

  it('writes a chosen filter to the URL by name and reloads the list from the start', async () => {
    const first = makeAds(60);
    fakeSupabase.onRpc('list_ads', (args) => {
      const filtered = Boolean(listAdsQuery(args).category_ids);
      return { data: { ads: filtered ? makeAds(3) : first, next_cursor: filtered ? null : 'next' }, error: null };
    });
    const app = renderApp('/library?brand=Lumora');
    await waitFor(() => expect(screen.getAllByTestId('ad-card')).toHaveLength(60));

    await pick('Category', 'Skincare');

    await waitFor(() => expect(app.currentUrl()).toBe('/library?brand=Lumora&category=Skincare'));
    await waitFor(() => expect(screen.getAllByTestId('ad-card')).toHaveLength(3));
    expect(lastListCall()).toMatchObject({ brand_ids: [lumora.id], category_ids: [skincare.id], cursor: null });
  });

  it('removes the brands from the URL when All brands is chosen', async () => {
    const app = renderApp('/library?brand=Lumora,Northwind');
    await waitFor(() => expect(listCalls()).toHaveLength(1));
    const all = await pick('Brand', 'All brands');
    await waitFor(() => expect(app.currentUrl()).toBe('/library'));
    await waitFor(() => expect(lastListCall().brand_ids).toBeNull());
    expect(all.getAttribute('aria-checked')).toBe('true');
    expect(filterPill('Brand').getAttribute('aria-label')).toBe('Brand: All brands');
  });

  it('sends two picked brands as brand_ids and writes them to the URL by name, comma-separated', async () => {
    const app = renderApp('/library');
    await waitFor(() => expect(listCalls()).toHaveLength(1));
    await pick('Brand', 'Lumora');
    await waitFor(() => expect(app.currentUrl()).toBe('/library?brand=Lumora'));
    fireEvent.click(screen.getByRole('menuitemcheckbox', { name: 'Northwind' }));
    await waitFor(() => expect(app.currentUrl()).toBe('/library?brand=Lumora,Northwind'));
    await waitFor(() => expect(lastListCall()).toMatchObject({ brand_ids: [lumora.id, northwind.id].sort(), cursor: null }));
    expect(filterPill('Brand').getAttribute('aria-label')).toBe('Brand: Lumora +1');
    expect(screen.getByRole('menuitemcheckbox', { name: 'Lumora' }).getAttribute('aria-checked')).toBe('true');
    expect(screen.getByRole('menuitemcheckbox', { name: 'All brands' }).getAttribute('aria-checked')).toBe('false');

    // One chip per brand, each taking only its own brand off.
    expect(chipNames()).toEqual(['Remove Brand: Lumora', 'Remove Brand: Northwind', 'Clear all']);
    fireEvent.click(screen.getByRole('button', { name: 'Remove Brand: Lumora' }));
    await waitFor(() => expect(app.currentUrl()).toBe('/library?brand=Northwind'));
    await waitFor(() => expect(lastListCall().brand_ids).toEqual([northwind.id]));
  });

  it('presets several brands and a language from ?brand=A,B&language=de and sends them', async () => {
    const app = renderApp('/library?brand=northwind,LUMORA&language=de');
    await waitFor(() => expect(listCalls()).toHaveLength(1));
    expect(lastListCall()).toMatchObject({ brand_ids: [lumora.id, northwind.id].sort(), language: 'de', country: null });
    expect(filterPill('Brand').getAttribute('aria-label')).toBe('Brand: Northwind +1');
    expect(chipNames()).toEqual(['Remove Brand: Northwind', 'Remove Brand: Lumora', 'Remove Language: German', 'Clear all']);
    await openFilterPanel();
    expect((screen.getByRole('combobox', { name: 'Language' }) as HTMLSelectElement).value).toBe('de');
    expect(app.currentUrl()).toBe('/library?brand=northwind,LUMORA&language=de');
  });

  it('drops the names the catalogue does not know from a list, keeping the others', async () => {
    const app = renderApp('/library?brand=Lumora,No%20such%20brand,,northwind&category=nothing,at,all');
    await waitFor(() => expect(app.currentUrl()).toBe('/library?brand=Lumora,Northwind'));
    await waitFor(() => expect(lastListCall()).toMatchObject({ brand_ids: [lumora.id, northwind.id].sort(), category_ids: null }));
    for (const query of listAdsQueries()) expect(query.category_ids).toBeNull();
  });

  it('takes a name with a comma as that one name, alone or among others', async () => {
    const withComma = { id: 'b0000000-0000-4000-8000-0000000000c1', name: 'Salt, Pepper & Co' };
    fakeSupabase.onTable('brands', () => ({ data: [...BRANDS, withComma], error: null }));
    const app = renderApp('/library?brand=Salt,%20Pepper%20%26%20Co');
    await waitFor(() => expect(listCalls()).toHaveLength(1));
    expect(lastListCall().brand_ids).toEqual([withComma.id]);
    expect(filterPill('Brand').getAttribute('aria-label')).toBe('Brand: Salt, Pepper & Co');

    await pick('Brand', 'Lumora');
    await waitFor(() => expect(lastListCall().brand_ids).toEqual([lumora.id, withComma.id].sort()));
    expect(app.currentUrl()).toBe('/library?brand=Salt,+Pepper+%26+Co,Lumora');
    expect(filterPill('Brand').getAttribute('aria-label')).toBe('Brand: Salt, Pepper & Co +1');
  });

  it('keeps ten values of a filter at most, in the URL and in the query', async () => {
    const many = Array.from({ length: 12 }, (_, index) => ({ id: `b0000000-0000-4000-8000-1000000000${String(index).padStart(2, '0')}`, name: `Brand ${index + 1}` }));
    fakeSupabase.onTable('brands', () => ({ data: many, error: null }));
    const app = renderApp(`/library?brand=${many.map((brand) => brand.name).join(',')}`);
    const kept = many.slice(0, 10);
    await waitFor(() => expect(app.currentUrl()).toBe(`/library?brand=${kept.map((brand) => brand.name.replace(' ', '+')).join(',')}`));
    await waitFor(() => expect(lastListCall().brand_ids).toEqual(kept.map((brand) => brand.id).sort()));
    for (const query of listAdsQueries()) expect(query.brand_ids!.length).toBeLessThanOrEqual(10);

    // With ten ticked, the others cannot be ticked, and the list says why.
    fireEvent.click(filterPill('Brand'));
    expect((await screen.findByRole('menuitemcheckbox', { name: 'Brand 11' })).hasAttribute('disabled')).toBe(true);
    expect(screen.getByText('Up to 10 at once')).toBeTruthy();
  });

  it('narrows a checklist of more than 8 options as one types in its find box', async () => {
    const many = Array.from({ length: 9 }, (_, index) => ({ id: `b0000000-0000-4000-8000-2000000000${String(index).padStart(2, '0')}`, name: `${index % 2 ? 'Glow' : 'Brew'} ${index + 1}` }));
    fakeSupabase.onTable('brands', () => ({ data: many, error: null }));
    fakeSupabase.onTable('categories', () => ({ data: CATEGORIES.slice(0, 1), error: null }));
    renderApp('/library');
    await waitFor(() => expect(listCalls()).toHaveLength(1));
    fireEvent.click(filterPill('Brand'));
    const find = await screen.findByRole('searchbox', { name: 'Find a brand' });
    expect(screen.getAllByRole('menuitemcheckbox')).toHaveLength(10);
    fireEvent.change(find, { target: { value: 'gLoW' } });
    expect(screen.getAllByRole('menuitemcheckbox').map((item) => item.textContent)).toEqual(['All brands', 'Glow 2', 'Glow 4', 'Glow 6', 'Glow 8']);
    fireEvent.change(find, { target: { value: 'zzz' } });
    expect(screen.getByText('No matches')).toBeTruthy();

    // A short list has no find box.
    fireEvent.keyDown(find, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('searchbox', { name: 'Find a brand' })).toBeNull());
    fireEvent.click(filterPill('Category'));
    expect(await screen.findByRole('menuitemcheckbox', { name: 'Skincare' })).toBeTruthy();
    expect(screen.queryByRole('searchbox', { name: 'Find a category' })).toBeNull();
  });

  it('passes the date filter to the server as the query’s since and keeps it in the URL', async () => {
    const app = renderApp('/library');
    await waitFor(() => expect(listCalls()).toHaveLength(1));
    await openFilterPanel();
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
    expect(lastListCall()).toMatchObject({ type_ids: ['e0000000-0000-4000-8000-000000000001'], tag_ids: [TAGS[0]!.id] });
    const bestseller = await panelToggle('Tags', 'Bestseller');
    expect(bestseller.getAttribute('aria-pressed')).toBe('true');
    expect(within(screen.getByRole('group', { name: 'Tags' })).queryByRole('button', { name: 'Black Friday' })).toBeNull();
    fireEvent.click(bestseller);
    await waitFor(() => expect(app.currentUrl()).toBe('/library?type=static'));
    await waitFor(() => expect(lastListCall()).toMatchObject({ type_ids: ['e0000000-0000-4000-8000-000000000001'], tag_ids: null }));
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
    expect(lastListCall()).toMatchObject({ brand_ids: [lumora.id], tag_ids: [TAGS[0]!.id], search: 'glow' });
    const chips = within(screen.getByRole('list', { name: 'Active filters' }));
    expect(chips.getAllByRole('button').map((chip) => chip.getAttribute('aria-label') ?? chip.textContent)).toEqual([
      'Remove Brand: Lumora',
      'Remove Tag: Bestseller',
      'Remove Date: Past year',
      'Clear all',
    ]);

    fireEvent.click(screen.getByRole('button', { name: 'Remove Tag: Bestseller' }));
    await waitFor(() => expect(app.currentUrl()).toBe('/library?brand=Lumora&date=year&q=glow'));
    await waitFor(() => expect(lastListCall()).toMatchObject({ brand_ids: [lumora.id], tag_ids: null }));

    fireEvent.click(screen.getByRole('button', { name: 'Clear all' }));
    await waitFor(() => expect(app.currentUrl()).toBe('/library?q=glow'));
    await waitFor(() => expect(lastListCall()).toMatchObject({ brand_ids: null, since: null, search: 'glow' }));
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
