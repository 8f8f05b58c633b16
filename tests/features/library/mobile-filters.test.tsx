// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BRANDS, TYPES } from '../support/ad-fixtures.ts';
import { lastListAdsQuery } from '../support/list-ads-query.ts';
import { renderApp, setUpAppTests } from '../support/render-app.tsx';

vi.mock('../../../src/lib/supabase-client.ts', async () => ({ supabase: (await import('../support/fake-supabase.ts')).fakeSupabase.client }));
vi.mock('../../../src/features/boards/components/sidebar-collections.tsx', () => ({ SidebarCollections: () => null }));

const lastListCall = lastListAdsQuery;

/** jsdom has no layout: under 768 px is answered by a matchMedia stand-in. */
function narrowScreen() {
  vi.stubGlobal(
    'matchMedia',
    vi.fn((query: string) => ({ matches: query.includes('max-width: 767px'), media: query, addEventListener() {}, removeEventListener() {} })),
  );
}

async function openSheet(button: HTMLElement) {
  await act(async () => fireEvent.click(button));
  return screen.findByRole('dialog', { name: 'Filters' });
}

describe('the filters under 768 px', () => {
  setUpAppTests();
  beforeEach(narrowScreen);
  afterEach(() => vi.unstubAllGlobals());

  it('keeps the search in the toolbar and puts every library filter behind a Filters button with the active count', async () => {
    const app = renderApp('/library?brand=Lumora');
    await waitFor(() => expect(lastListCall()).toMatchObject({ brand_ids: [BRANDS[0]!.id] }));
    expect(screen.getByPlaceholderText('Search brands & categories…')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Brand: / })).toBeNull();
    const button = screen.getByRole('button', { name: 'Filters, 1 active' });
    expect(screen.getByRole('button', { name: 'Remove Brand: Lumora' })).toBeTruthy();

    const sheet = await openSheet(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    await waitFor(() => expect(sheet.contains(document.activeElement)).toBe(true));
    // Brands, categories and types are toggles, several of each, as tags are.
    for (const name of ['Brand', 'Category', 'Type', 'Tags']) expect(within(sheet).getByRole('group', { name })).toBeTruthy();
    expect(within(sheet).getByRole('combobox', { name: 'Date' })).toBeTruthy();
    const brands = within(within(sheet).getByRole('group', { name: 'Brand' }));
    expect(brands.getByRole('button', { name: BRANDS[0]!.name, pressed: true })).toBeTruthy();
    expect(brands.getByRole('button', { name: BRANDS[1]!.name, pressed: false })).toBeTruthy();
    expect(within(sheet).getByRole('button', { name: 'Bestseller', pressed: false })).toBeTruthy();
    expect(within(sheet).queryByRole('button', { name: 'Black Friday' })).toBeNull();

    fireEvent.click(within(within(sheet).getByRole('group', { name: 'Type' })).getByRole('button', { name: TYPES[0]!.name }));
    fireEvent.click(within(sheet).getByRole('button', { name: 'Bestseller' }));
    fireEvent.click(brands.getByRole('button', { name: BRANDS[1]!.name }));
    await waitFor(() => expect(app.currentUrl()).toBe('/library?brand=Lumora,Northwind&type=Static&tag=Bestseller'));
    await waitFor(() => expect(lastListCall()).toMatchObject({ brand_ids: BRANDS.map((brand) => brand.id).sort(), type_ids: [TYPES[0]!.id] }));
    // The page behind the open sheet is hidden from assistive technology.
    expect(screen.getByRole('button', { name: 'Filters, 4 active', hidden: true })).toBeTruthy();
    expect(within(sheet).getByRole('button', { name: 'Bestseller', pressed: true })).toBeTruthy();

    fireEvent.keyDown(sheet, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Filters' })).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Filters, 4 active' })));
    expect(screen.getByRole('button', { name: 'Remove Tag: Bestseller' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Remove Brand: Northwind' })).toBeTruthy();
  });

  it('clears every filter from the sheet, keeping the search, and closes with Show ads', async () => {
    const app = renderApp('/library?brand=Lumora&date=week&q=glow');
    await waitFor(() => expect(lastListCall()).toMatchObject({ brand_ids: [BRANDS[0]!.id], search: 'glow' }));
    const button = screen.getByRole('button', { name: 'Filters, 2 active' });
    const sheet = await openSheet(button);
    fireEvent.click(within(sheet).getByRole('button', { name: 'Clear all' }));
    await waitFor(() => expect(app.currentUrl()).toBe('/library?q=glow'));
    // The sheet stays open with nothing left to count.
    expect(screen.getByRole('button', { name: 'Filters', hidden: true }).getAttribute('aria-expanded')).toBe('true');
    expect((within(sheet).getByRole('button', { name: 'Clear all' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(within(sheet).getByRole('button', { name: 'Show ads' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Filters' })).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Filters' })));
  });

  it('gives a themed board the same sheet, with its brand and category', async () => {
    const app = renderApp('/top-picks');
    await screen.findByText('No Top Picks found.');
    const sheet = await openSheet(screen.getByRole('button', { name: 'Filters' }));
    expect(within(sheet).getAllByRole('combobox').map((select) => (select as HTMLSelectElement).labels[0]?.textContent)).toEqual(['Brand', 'Category']);
    expect(within(sheet).queryByRole('combobox', { name: 'Type' })).toBeNull();
    fireEvent.change(within(sheet).getByRole('combobox', { name: 'Brand' }), { target: { value: BRANDS[1]!.id } });
    await waitFor(() => expect(app.currentUrl()).toBe(`/top-picks?brand=${BRANDS[1]!.name}`));
    await waitFor(() => expect(lastListCall()).toMatchObject({ board: 'top-picks', brand_ids: [BRANDS[1]!.id] }));
    expect(screen.getByRole('button', { name: 'Filters, 1 active', hidden: true })).toBeTruthy();
    expect(screen.getByRole('button', { name: `Remove Brand: ${BRANDS[1]!.name}`, hidden: true })).toBeTruthy();
  });
});
