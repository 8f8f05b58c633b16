// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { makeAds } from '../support/ad-fixtures.ts';
import { fakeSupabase } from '../support/fake-supabase.ts';
import { listAdsQueries, listAdsQuery } from '../support/list-ads-query.ts';
import { renderApp, setUpAppTests, TestIntersectionObserver } from '../support/render-app.tsx';

vi.mock('../../../src/lib/supabase-client.ts', async () => ({ supabase: (await import('../support/fake-supabase.ts')).fakeSupabase.client }));

describe('the library grid', () => {
  setUpAppTests();

  it('is titled for the library and shows 12 skeletons while the first page loads', async () => {
    fakeSupabase.onRpc('list_ads', () => new Promise(() => {}));
    renderApp('/library');
    await waitFor(() => expect(screen.getAllByTestId('ad-skeleton')).toHaveLength(12));
    expect(document.title).toBe('Ad Library – Filters and Discovery');
    expect(screen.getByPlaceholderText('Search brands & categories…')).toBeTruthy();
  });

  it('says no ads match the filters when the server returns none', async () => {
    renderApp('/library');
    expect(await screen.findByText('No ads found matching your filters.')).toBeTruthy();
    expect(screen.queryAllByTestId('ad-card')).toHaveLength(0);
  });

  it('loads the next page of 60 with the cursor when the sentinel nears the viewport, then says it reached the end', async () => {
    const first = makeAds(60);
    const second = makeAds(12);
    fakeSupabase.onRpc('list_ads', (args) =>
      listAdsQuery(args).cursor === 'cursor-2' ? { data: { ads: second, next_cursor: null }, error: null } : { data: { ads: first, next_cursor: 'cursor-2' }, error: null },
    );
    renderApp('/library');
    await waitFor(() => expect(screen.getAllByTestId('ad-card')).toHaveLength(60));
    expect(screen.queryByTestId('list-end')).toBeNull();
    const observer = TestIntersectionObserver.instances.at(-1)!;
    expect(observer.options?.rootMargin).toContain('1200px');

    act(() => TestIntersectionObserver.intersectAll());

    await waitFor(() => expect(screen.getAllByTestId('ad-card')).toHaveLength(72));
    expect(listAdsQueries().map((query) => query.cursor)).toEqual([null, 'cursor-2']);
    expect(screen.getByTestId('list-end').textContent).toBe('You’ve reached the end.');
    act(() => TestIntersectionObserver.intersectAll());
    expect(fakeSupabase.callsOf('list_ads')).toHaveLength(2);
  });

  it('stops at a short page even when the server sent a cursor', async () => {
    fakeSupabase.onRpc('list_ads', () => ({ data: { ads: makeAds(59), next_cursor: 'more' }, error: null }));
    renderApp('/library');
    expect(await screen.findByTestId('list-end')).toBeTruthy();
    act(() => TestIntersectionObserver.intersectAll());
    expect(fakeSupabase.callsOf('list_ads')).toHaveLength(1);
  });

  it('lays each card out at its aspect ratio with the thumbhash painted and WebP variants by width', async () => {
    const ads = makeAds(6);
    fakeSupabase.onRpc('list_ads', () => ({ data: { ads, next_cursor: null }, error: null }));
    renderApp('/library');
    const cards = await screen.findAllByTestId('ad-card');
    const firstImage = within(cards.find((card) => card.dataset.adId === ads[0]!.id)!).getByRole('img', { name: /Lumora ad/ });
    const box = firstImage.parentElement!;
    expect(box.style.aspectRatio).toBe('1080 / 1350');
    expect(box.style.backgroundImage).toContain('data:image/png;base64');
    expect(firstImage.getAttribute('srcset')).toBe(
      `http://localhost:3000/storage/v1/object/sign/ad-images/${ads[0]!.id}/480.webp?token=t 480w, http://localhost:3000/storage/v1/object/sign/ad-images/${ads[0]!.id}/960.webp?token=t 960w`,
    );
    expect(firstImage.getAttribute('sizes')).toBe('(max-width: 767px) 100vw, (max-width: 1023px) 50vw, (max-width: 1279px) 34vw, 25vw');
    expect(firstImage.getAttribute('loading')).toBe('eager');
    expect(firstImage.getAttribute('fetchpriority')).toBe('high');

    // jsdom's window is 1024 px wide: three columns, so the first three ads are the first row.
    const cardOf = (id: string) => cards.find((card) => card.dataset.adId === id)!;
    const loading = ads.map((ad) => within(cardOf(ad.id)).getByRole('img').getAttribute('loading'));
    expect(loading).toEqual(['eager', 'eager', 'eager', 'lazy', 'lazy', 'lazy']);
    const lazyImage = within(cardOf(ads[4]!.id)).getByRole('img');
    expect(lazyImage.getAttribute('decoding')).toBe('async');
    expect(lazyImage.getAttribute('fetchpriority')).toBe('auto');
  });

  it('shows a locked ad with its blurred preview and a lock, never a display variant', async () => {
    const [clear, locked] = [...makeAds(1), ...makeAds(1, { locked: true })];
    fakeSupabase.onRpc('list_ads', () => ({ data: { ads: [clear, locked], next_cursor: null }, error: null }));
    renderApp('/library');
    const cards = await screen.findAllByTestId('ad-card');
    expect(cards.map((card) => card.dataset.locked)).toEqual(['false', 'true']);
    const lockedCard = cards[1]!;
    const images = lockedCard.querySelectorAll('img');
    expect([...images].map((image) => image.getAttribute('src'))).toEqual([`http://localhost:3000/storage/v1/object/sign/ad-images/previews/${locked!.id}.webp?token=t`]);
    expect(lockedCard.innerHTML).not.toContain('480.webp');
    expect(within(lockedCard).getByText('Unlock to view')).toBeTruthy();
  });

  it('shows the brand logo, or the first letter of the brand without one', async () => {
    const [withLogo, withoutLogo] = [
      ...makeAds(1, { brand_logo_path: 'lumora/logo.png' }),
      ...makeAds(1, { brand_name: 'northwind', brand_logo_path: null }),
    ];
    fakeSupabase.onRpc('list_ads', () => ({ data: { ads: [withLogo, withoutLogo], next_cursor: null }, error: null }));
    renderApp('/library');
    const cards = await screen.findAllByTestId('ad-card');
    expect(cards[0]!.querySelector('img[src="https://storage.test/brand-logos/lumora/logo.png"]')).not.toBeNull();
    expect(within(cards[1]!).getByTestId('brand-initial').textContent).toBe('N');
    expect(within(cards[0]!).getByText('Skincare')).toBeTruthy();
  });
});

describe('the library grid when loading fails', () => {
  setUpAppTests();

  it("shows 'Load failed' with our sentence for the server's refusal when the first page fails, and loads again on retry", async () => {
    fakeSupabase.onRpc('list_ads', () => ({ data: null, error: { message: 'Search text is too long (100 characters at most)', details: 'search_too_long' } }));
    renderApp('/library');
    expect(await screen.findByText('Load failed')).toBeTruthy();
    expect(screen.getByText('Searches can be up to 100 characters long.')).toBeTruthy();
    expect(screen.queryByText('Search text is too long (100 characters at most)')).toBeNull();

    fakeSupabase.onRpc('list_ads', () => ({ data: { ads: makeAds(2), next_cursor: null }, error: null }));
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.getAllByTestId('ad-card')).toHaveLength(2));
  });

  it("says 'Could not load more ads.' when a later page fails, and stops asking until the viewer retries", async () => {
    fakeSupabase.onRpc('list_ads', (args) =>
      listAdsQuery(args).cursor ? { data: null, error: { message: 'Invalid cursor', details: 'invalid_cursor' } } : { data: { ads: makeAds(60), next_cursor: 'c2' }, error: null },
    );
    renderApp('/library');
    await waitFor(() => expect(screen.getAllByTestId('ad-card')).toHaveLength(60));
    act(() => TestIntersectionObserver.intersectAll());
    expect(await screen.findByText('Could not load more ads.')).toBeTruthy();
    const calls = fakeSupabase.callsOf('list_ads').length;
    act(() => TestIntersectionObserver.intersectAll());
    expect(fakeSupabase.callsOf('list_ads')).toHaveLength(calls);

    fakeSupabase.onRpc('list_ads', (args) => {
      const { cursor } = listAdsQuery(args);
      return { data: { ads: makeAds(cursor ? 3 : 60), next_cursor: cursor ? null : 'c2' }, error: null };
    });
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.getAllByTestId('ad-card')).toHaveLength(63));
    expect(screen.getByTestId('list-end')).toBeTruthy();
  });
});
