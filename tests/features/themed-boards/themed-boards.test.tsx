// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { BRANDS, CATEGORIES, makeAd, makeAds } from '../support/ad-fixtures.ts';
import { fakeSupabase, sessionFor } from '../support/fake-supabase.ts';
import { lastListAdsQuery, listAdsQueries } from '../support/list-ads-query.ts';
import { renderApp, setUpAppTests } from '../support/render-app.tsx';
import { GRID_SEED_KEY, seededRank, shufflePage } from '../../../src/features/themed-boards/hooks/session-shuffle.ts';

vi.mock('../../../src/lib/supabase-client.ts', async () => ({ supabase: (await import('../support/fake-supabase.ts')).fakeSupabase.client }));
vi.mock('../../../src/features/boards/components/sidebar-collections.tsx', () => ({ SidebarCollections: () => null }));

const USER_ID = '22222222-2222-4222-8222-222222222222';
const cardIds = () => screen.getAllByTestId('ad-card').map((card) => card.dataset.adId);
const meta = (selector: string) => document.head.querySelector(selector)?.getAttribute('content');

describe('the Top Picks board', () => {
  setUpAppTests();

  it("is titled 'Top Picks', lists the top-picks board and says when it is empty", async () => {
    renderApp('/top-picks');
    expect(await screen.findByText('No Top Picks found.')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Top Picks' })).toBeTruthy();
    expect(document.title).toBe('Top Picks');
    expect(screen.getByRole('link', { name: 'Back to Library' }).getAttribute('href')).toBe('/library');
    expect(screen.getByPlaceholderText('Search brands & categories…')).toBeTruthy();
    expect((screen.getByRole('combobox', { name: 'Brand' }) as HTMLSelectElement).selectedOptions[0]!.textContent).toBe('All brands');
    expect((screen.getByRole('combobox', { name: 'Category' }) as HTMLSelectElement).selectedOptions[0]!.textContent).toBe('All categories');
    expect(listAdsQueries()[0]).toMatchObject({ board: 'top-picks', brand_ids: null, category_ids: null, search: null, cursor: null });
  });

  it('sets its description and Open Graph tags within the limits', async () => {
    renderApp('/top-picks');
    await screen.findByText('No Top Picks found.');
    const description = meta('meta[name="description"]')!;
    expect(description.length).toBeGreaterThan(20);
    expect(description.length).toBeLessThanOrEqual(160);
    expect(meta('meta[property="og:title"]')).toBe('Top Picks');
    expect(meta('meta[property="og:description"]')).toBe(description);
    expect(meta('meta[property="og:type"]')).toBe('website');
    expect(meta('meta[property="og:url"]')).toMatch(/\/top-picks$/);
  });

  it('reads brand and category from the URL by name and sends their ids', async () => {
    renderApp(`/top-picks?brand=${encodeURIComponent(BRANDS[1]!.name.toLowerCase())}&category=${encodeURIComponent(CATEGORIES[1]!.name)}`);
    await waitFor(() => expect(fakeSupabase.callsOf('list_ads')).toHaveLength(1));
    // One brand and one category, sent as the one-value lists list_ads takes.
    expect(listAdsQueries()[0]).toMatchObject({ board: 'top-picks', brand_ids: [BRANDS[1]!.id], category_ids: [CATEGORIES[1]!.id] });
    const brand = (await screen.findByRole('combobox', { name: 'Brand' })) as HTMLSelectElement;
    await waitFor(() => expect(brand.selectedOptions[0]!.textContent).toBe(BRANDS[1]!.name));
  });

  it('changing the brand filter writes it to the URL and reloads from the start', async () => {
    const app = renderApp('/top-picks');
    await screen.findByText('No Top Picks found.');
    fireEvent.change(screen.getByRole('combobox', { name: 'Brand' }), { target: { value: BRANDS[0]!.id } });
    await waitFor(() => expect(app.currentUrl()).toBe(`/top-picks?brand=${BRANDS[0]!.name}`));
    await waitFor(() => expect(lastListAdsQuery()).toMatchObject({ brand_ids: [BRANDS[0]!.id], cursor: null }));
  });

  it('shows the end text after the last page, and its banner from page_banners', async () => {
    fakeSupabase.onRpc('list_ads', () => ({ data: { ads: makeAds(5, { is_top_picks: true }), next_cursor: null, total: 5, total_is_estimate: false }, error: null }));
    fakeSupabase.onTable('page_banners', (query) =>
      query.filters.some(([column, , value]) => column === 'page' && value === 'top-picks')
        ? { data: [{ image_path: 'top-picks/banner.webp' }], error: null }
        : { data: [], error: null },
    );
    renderApp('/top-picks');
    expect((await screen.findByTestId('list-end')).textContent).toBe('You’ve reached the end.');
    const banner = await screen.findByTestId('page-banner');
    expect(banner.getAttribute('src')).toBe('https://storage.test/banners/top-picks/banner.webp');
    expect(banner.getAttribute('alt')).toBe('Top Picks');
  });

  it("toasts 'Could not load Top Picks.' when the list fails", async () => {
    fakeSupabase.onRpc('list_ads', () => ({ data: null, error: { message: 'boom' } }));
    renderApp('/top-picks');
    expect(await screen.findByText('Could not load Top Picks.', { selector: '[data-sonner-toast] *' })).toBeTruthy();
    expect(screen.getByText('Load failed')).toBeTruthy();
  });

  it('sends an anonymous visitor who clicks a locked ad to sign in, coming back to the filtered board', async () => {
    fakeSupabase.onRpc('list_ads', () => ({ data: { ads: [makeAd({ locked: true })], next_cursor: null }, error: null }));
    const app = renderApp(`/top-picks?brand=${BRANDS[0]!.name}`);
    const card = await screen.findByTestId('ad-card');
    fireEvent.click(within(card).getByRole('button', { name: /locked/ }));
    await waitFor(() => expect(app.currentUrl()).toBe(`/auth/signin?next=${encodeURIComponent(`/top-picks?brand=${BRANDS[0]!.name}`)}`));
  });
});

describe('the Black Friday board', () => {
  setUpAppTests();

  it('shows an anonymous visitor the exclusive-access dialog and never asks for the board; Cancel goes to the library', async () => {
    const app = renderApp('/black-friday');
    const dialog = await screen.findByRole('dialog', { name: 'Black Friday Collection' });
    expect(within(dialog).getByText('Exclusive Access')).toBeTruthy();
    expect(fakeSupabase.callsOf('list_ads')).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(app.currentUrl()).toBe('/library'));
  });

  it("sends 'Get access now' to sign-up", async () => {
    const app = renderApp('/black-friday');
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Black Friday Collection' })).getByRole('button', { name: 'Get access now' }));
    await waitFor(() => expect(app.currentUrl()).toBe('/auth/signup'));
  });

  it("lists the black-friday board for a signed-in user, titled 'Black Friday Board', with its empty text", async () => {
    fakeSupabase.session = sessionFor(USER_ID);
    renderApp(`/black-friday?category=${encodeURIComponent(CATEGORIES[0]!.name)}`);
    expect(await screen.findByText('No Black Friday ads found.')).toBeTruthy();
    expect(document.title).toBe('Black Friday Board');
    expect(screen.getByRole('heading', { level: 1, name: 'Black Friday Board' })).toBeTruthy();
    expect(listAdsQueries()[0]).toMatchObject({ board: 'black-friday', brand_ids: null, category_ids: [CATEGORIES[0]!.id] });
    expect(screen.queryByRole('dialog', { name: 'Black Friday Collection' })).toBeNull();
  });

  it('keeps one order for the whole session: the same seed, the same order; clear ads first', async () => {
    fakeSupabase.session = sessionFor(USER_ID);
    const ads = [...makeAds(4, { locked: true, is_black_friday: true }), ...makeAds(16, { is_black_friday: true })];
    fakeSupabase.onRpc('list_ads', () => ({ data: { ads, next_cursor: null }, error: null }));
    window.sessionStorage.setItem(GRID_SEED_KEY, '12345');
    const first = renderApp('/black-friday');
    await waitFor(() => expect(screen.getAllByTestId('ad-card')).toHaveLength(20));
    const order = cardIds();
    first.unmount();

    renderApp('/black-friday');
    await waitFor(() => expect(screen.getAllByTestId('ad-card')).toHaveLength(20));
    expect(cardIds()).toEqual(order);
    expect(window.sessionStorage.getItem(GRID_SEED_KEY)).toBe('12345');
    const lockedIds = new Set(ads.slice(0, 4).map((ad) => ad.id));
    expect(shufflePage(ads, 12345).slice(16).every((ad) => lockedIds.has(ad.id))).toBe(true);
  });
});

describe('the session shuffle', () => {
  it('is a permutation, changes with the seed and never with the call', () => {
    const ads = makeAds(30);
    const once = shufflePage(ads, 7).map((ad) => ad.id);
    expect(shufflePage(ads, 7).map((ad) => ad.id)).toEqual(once);
    expect([...once].sort()).toEqual(ads.map((ad) => ad.id).sort());
    expect(shufflePage(ads, 8).map((ad) => ad.id)).not.toEqual(once);
    expect(once).not.toEqual(ads.map((ad) => ad.id));
    expect(seededRank(7, 'a')).toBe(seededRank(7, 'a'));
  });

  it('orders the clear ads, then the locked ones, each by the seed\'s rank of their id', () => {
    const ads = makeAds(30).map((ad, index) => ({ ...ad, is_clear: index % 3 === 0 }));
    const byRank = (part: typeof ads) => [...part].sort((a, b) => seededRank(9, a.id) - seededRank(9, b.id)).map((ad) => ad.id);
    const expected = [...byRank(ads.filter((ad) => ad.is_clear)), ...byRank(ads.filter((ad) => !ad.is_clear))];
    expect(shufflePage(ads, 9).map((ad) => ad.id)).toEqual(expected);
  });

  it('makes a seed once per session and reads it back afterwards', async () => {
    window.sessionStorage.clear();
    const { sessionSeed } = await import('../../../src/features/themed-boards/hooks/session-shuffle.ts');
    const seed = sessionSeed();
    expect(seed).toBeGreaterThan(0);
    expect(sessionSeed()).toBe(seed);
    expect(window.sessionStorage.getItem(GRID_SEED_KEY)).toBe(String(seed));
  });
});
