// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeAd } from '../support/ad-fixtures.ts';
import { fakeSupabase, sessionFor } from '../support/fake-supabase.ts';
import { renderApp, setUpAppTests } from '../support/render-app.tsx';

vi.mock('../../../src/lib/supabase-client.ts', async () => ({ supabase: (await import('../support/fake-supabase.ts')).fakeSupabase.client }));

const USER_ID = '44444444-4444-4444-8444-444444444444';
const FAVORITES_ID = '55555555-5555-4555-8555-555555555555';

function serveAds(...ads: ReturnType<typeof makeAd>[]) {
  fakeSupabase.onRpc('get_ad', (args) => ({ data: ads.find((ad) => ad.id === args.p_id) ?? null, error: null }));
}

/** jsdom has no layout: under 768 px is answered by a matchMedia stand-in. */
function narrowScreen() {
  vi.stubGlobal(
    'matchMedia',
    vi.fn((query: string) => ({ matches: query.includes('max-width: 767px'), media: query, addEventListener() {}, removeEventListener() {} })),
  );
}

const ACTIONS = ['Add to board', 'Add to favorites', 'Download original', 'Share'];
/** The names of the buttons in an element, in order. */
const buttonNames = (element: HTMLElement) => within(element).queryAllByRole('button').map((button) => button.getAttribute('aria-label'));

describe('the ad detail', () => {
  setUpAppTests();
  afterEach(() => vi.unstubAllGlobals());

  it('says the ad could not be found for an unknown id, in a toast and on the page', async () => {
    serveAds();
    renderApp('/ads/66666666-6666-4666-8666-666666666666');
    expect(await screen.findByText('This ad could not be found.', { selector: 'p' })).toBeTruthy();
    await waitFor(() => expect(screen.getAllByText('Not found').length).toBeGreaterThanOrEqual(2));
  });

  it('links the brand and category to the library filtered by them', async () => {
    const ad = makeAd({ category_name: 'Coffee & Tea' });
    serveAds(ad);
    renderApp(`/ads/${ad.id}`);
    expect((await screen.findByRole('link', { name: 'Lumora' })).getAttribute('href')).toBe('/library?brand=Lumora');
    expect(screen.getByRole('link', { name: 'Coffee & Tea' }).getAttribute('href')).toBe('/library?category=Coffee%20%26%20Tea');
  });

  it('closes to /library when opened as a page, by the close button or Escape', async () => {
    const ad = makeAd();
    serveAds(ad);
    const app = renderApp(`/ads/${ad.id}`);
    await screen.findByRole('link', { name: 'Lumora' });
    fireEvent.keyDown(window, { key: 'Escape' });
    await waitFor(() => expect(app.currentUrl()).toBe('/library'));
  });

  it('shows a locked ad opened by URL with its blurred preview and the upgrade flow', async () => {
    const ad = makeAd({ locked: true });
    serveAds(ad);
    const app = renderApp(`/ads/${ad.id}`);
    const detail = await screen.findByTestId('ad-detail');
    await within(detail).findByText('This ad is for members');
    expect([...detail.querySelectorAll('img[data-preview]')].map((image) => image.getAttribute('src'))).toEqual([
      `http://localhost:3000/storage/v1/object/sign/ad-images/previews/${ad.id}.webp?token=t`,
    ]);
    expect(detail.innerHTML).not.toContain('960.webp');
    fireEvent.click(within(detail).getByRole('button', { name: 'Unlock full access' }));
    await waitFor(() => expect(app.currentUrl()).toBe(`/auth/signin?next=${encodeURIComponent(`/ads/${ad.id}`)}`));
  });

  it('gives users without valid access the promo card and no navigation', async () => {
    const ad = makeAd();
    serveAds(ad);
    renderApp(`/ads/${ad.id}`);
    const promo = await screen.findByTestId('promo-card');
    expect(promo.getAttribute('href')).toBe('/library');
    expect(screen.queryByRole('button', { name: 'Next ad' })).toBeNull();
    expect(fakeSupabase.callsOf('get_ad_neighbours')).toHaveLength(0);
  });

  describe('for a user with valid access', () => {
    const [first, second, third] = [makeAd(), makeAd({ brand_name: 'Northwind' }), makeAd({ brand_name: 'Kindred' })];

    async function navigationReady(name: string) {
      const button = await screen.findByRole('button', { name });
      await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false));
      return button;
    }

    /** A subscriber and three ads in a ring; `answered(id)` may hold back the answer of one ad's neighbours. */
    function serveNavigation(answered: (id: string) => Promise<void> | void = () => undefined) {
      fakeSupabase.session = sessionFor(USER_ID);
      fakeSupabase.onRpc('has_valid_access', () => ({ data: true, error: null }));
      fakeSupabase.onRpc('get_or_create_favorites_id', () => ({ data: FAVORITES_ID, error: null }));
      serveAds(first!, second!, third!);
      const order = [first!.id, second!.id, third!.id];
      fakeSupabase.onRpc('get_ad_neighbours', async (args) => {
        const index = order.indexOf(args.p_id as string);
        await answered(args.p_id as string);
        return { data: { previous_id: order.at(index - 1), next_id: order[(index + 1) % order.length] }, error: null };
      });
    }

    it('moves to the next and previous ads with the arrows, without a promo card', async () => {
      serveNavigation();
      const app = renderApp(`/ads/${second!.id}`);
      fireEvent.click(await navigationReady('Next ad'));
      await waitFor(() => expect(app.currentUrl()).toBe(`/ads/${third!.id}`));
      await screen.findByRole('link', { name: 'Kindred' });
      expect(screen.queryByTestId('promo-card')).toBeNull();
      fireEvent.click(await navigationReady('Previous ad'));
      await waitFor(() => expect(app.currentUrl()).toBe(`/ads/${second!.id}`));
    });

    it('moves with the keyboard arrows, wrapping around', async () => {
      serveNavigation();
      const app = renderApp(`/ads/${first!.id}`);
      await navigationReady('Next ad');
      fireEvent.keyDown(window, { key: 'ArrowLeft' });
      await waitFor(() => expect(app.currentUrl()).toBe(`/ads/${third!.id}`));
      await screen.findByRole('link', { name: 'Kindred' });
      await navigationReady('Next ad');
      fireEvent.keyDown(window, { key: 'ArrowRight' });
      await waitFor(() => expect(app.currentUrl()).toBe(`/ads/${first!.id}`));
    });

    it('moves one ad per key press even when presses come faster than the page renders', async () => {
      serveNavigation();
      const app = renderApp(`/ads/${first!.id}`);
      await navigationReady('Next ad');
      // The next ad's neighbours are fetched ahead; wait until they are known.
      await waitFor(() => expect(fakeSupabase.callsOf('get_ad_neighbours').map((args) => args.p_id)).toContain(second!.id));
      await act(async () => {
        fireEvent.keyDown(window, { key: 'ArrowRight' });
        fireEvent.keyDown(window, { key: 'ArrowRight' });
      });
      await waitFor(() => expect(app.currentUrl()).toBe(`/ads/${third!.id}`));
      await screen.findByRole('link', { name: 'Kindred' });
    });

    it('keeps a press that comes before the next ad’s neighbours are known, and moves on once they are', async () => {
      // The second ad's neighbours answer only when the test says so.
      let answerSecond: () => void = () => undefined;
      const secondAnswered = new Promise<void>((resolve) => (answerSecond = resolve));
      serveNavigation((id) => (id === second!.id ? secondAnswered : undefined));
      const app = renderApp(`/ads/${first!.id}`);
      await navigationReady('Next ad');
      await act(async () => {
        fireEvent.keyDown(window, { key: 'ArrowRight' });
        fireEvent.keyDown(window, { key: 'ArrowRight' });
      });
      await waitFor(() => expect(app.currentUrl()).toBe(`/ads/${second!.id}`));
      await act(async () => answerSecond());
      await waitFor(() => expect(app.currentUrl()).toBe(`/ads/${third!.id}`));
      await screen.findByRole('link', { name: 'Kindred' });
    });

    it('keeps the header for the brand and Close under 768 px: the actions and the arrows are in a bar under the page', async () => {
      narrowScreen();
      serveNavigation();
      const app = renderApp(`/ads/${second!.id}`);
      await navigationReady('Next ad');
      const detail = screen.getByTestId('ad-detail');
      const header = detail.querySelector('header')!;
      expect(buttonNames(header)).toEqual(['Close']);
      expect(within(header).getByRole('link', { name: 'Northwind' })).toBeTruthy();
      const bar = screen.getByTestId('ad-detail-bar');
      expect(buttonNames(bar)).toEqual(['Previous ad', ...ACTIONS, 'Next ad']);
      // No arrow floats over the page: the page holds none.
      expect(within(screen.getByRole('main')).queryByRole('button', { name: /^(Previous|Next) ad$/ })).toBeNull();

      fireEvent.click(within(bar).getByRole('button', { name: 'Next ad' }));
      await waitFor(() => expect(app.currentUrl()).toBe(`/ads/${third!.id}`));
      await screen.findByRole('link', { name: 'Kindred' });
      await navigationReady('Previous ad');
      fireEvent.keyDown(window, { key: 'ArrowLeft' });
      await waitFor(() => expect(app.currentUrl()).toBe(`/ads/${second!.id}`));
      await navigationReady('Next ad');
      const surface = screen.getByRole('main');
      fireEvent.touchStart(surface, { touches: [{ clientY: 400 }] });
      fireEvent.touchEnd(surface, { changedTouches: [{ clientY: 350 }] });
      await waitFor(() => expect(app.currentUrl()).toBe(`/ads/${third!.id}`));
    });

    it('keeps the actions in the header and the arrows beside the image from 768 px', async () => {
      serveNavigation();
      renderApp(`/ads/${second!.id}`);
      await navigationReady('Next ad');
      expect(buttonNames(screen.getByTestId('ad-detail').querySelector('header')!)).toEqual([...ACTIONS, 'Close']);
      expect(screen.queryByTestId('ad-detail-bar')).toBeNull();
      expect(buttonNames(screen.getByRole('main')).filter((name) => /^(Previous|Next) ad$/.test(name ?? ''))).toEqual(['Previous ad', 'Next ad']);
    });

    it('moves on a vertical swipe longer than 40 px, and not on a shorter one', async () => {
      serveNavigation();
      const app = renderApp(`/ads/${first!.id}`);
      await navigationReady('Next ad');
      const surface = screen.getByRole('main');
      fireEvent.touchStart(surface, { touches: [{ clientY: 400 }] });
      fireEvent.touchEnd(surface, { changedTouches: [{ clientY: 370 }] });
      expect(app.currentUrl()).toBe(`/ads/${first!.id}`);
      fireEvent.touchStart(surface, { touches: [{ clientY: 400 }] });
      fireEvent.touchEnd(surface, { changedTouches: [{ clientY: 350 }] });
      await waitFor(() => expect(app.currentUrl()).toBe(`/ads/${second!.id}`));
    });

    it('lets a swipe scroll the page, moving only from the end it points past', async () => {
      serveNavigation();
      const app = renderApp(`/ads/${second!.id}`);
      await navigationReady('Next ad');
      await navigationReady('Previous ad');
      const surface = screen.getByRole('main');
      // A page taller than the screen, scrolled to its middle.
      let scrollTop = 600;
      Object.defineProperty(surface, 'scrollHeight', { configurable: true, get: () => 2000 });
      Object.defineProperty(surface, 'clientHeight', { configurable: true, get: () => 800 });
      Object.defineProperty(surface, 'scrollTop', { configurable: true, get: () => scrollTop, set: (value: number) => (scrollTop = value) });
      const swipe = (from: number, to: number) => {
        fireEvent.touchStart(surface, { touches: [{ clientY: from }] });
        fireEvent.touchEnd(surface, { changedTouches: [{ clientY: to }] });
      };
      swipe(500, 300);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(app.currentUrl()).toBe(`/ads/${second!.id}`);
      swipe(300, 500);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(app.currentUrl()).toBe(`/ads/${second!.id}`);
      // At the bottom an upward swipe goes on.
      scrollTop = 1200;
      swipe(500, 300);
      await waitFor(() => expect(app.currentUrl()).toBe(`/ads/${third!.id}`));
    });
  });

  describe('favorites', () => {
    it('sends an anonymous visitor to sign in first', async () => {
      const ad = makeAd();
      serveAds(ad);
      const app = renderApp(`/ads/${ad.id}`);
      fireEvent.click(await screen.findByRole('button', { name: 'Add to favorites' }));
      await waitFor(() => expect(app.currentUrl()).toBe(`/auth/signin?next=${encodeURIComponent(`/ads/${ad.id}`)}`));
    });

    it('shows membership from the saved boards and toggles it through save_ad_boards', async () => {
      const ad = makeAd();
      serveAds(ad);
      fakeSupabase.session = sessionFor(USER_ID);
      fakeSupabase.onRpc('get_or_create_favorites_id', () => ({ data: FAVORITES_ID, error: null }));
      fakeSupabase.onTable('user_collection_items', () => ({ data: [{ collection_id: FAVORITES_ID }], error: null }));
      fakeSupabase.onRpc('save_ad_boards', () => ({ data: [], error: null }));
      renderApp(`/ads/${ad.id}`);

      const heart = await screen.findByRole('button', { name: 'Remove from favorites' });
      expect(heart.getAttribute('aria-pressed')).toBe('true');
      expect(fakeSupabase.tableQueries.find((query) => query.table === 'user_collection_items')).toMatchObject({
        columns: 'collection_id',
        filters: [['ad_id', 'eq', ad.id]],
      });

      fireEvent.click(heart);
      await waitFor(() => expect(fakeSupabase.callsOf('save_ad_boards')).toEqual([{ p_ad_id: ad.id, p_remove: [FAVORITES_ID] }]));
      const unsaved = await screen.findByRole('button', { name: 'Add to favorites' });
      expect(unsaved.getAttribute('aria-pressed')).toBe('false');

      fakeSupabase.onRpc('save_ad_boards', () => ({ data: [FAVORITES_ID], error: null }));
      fireEvent.click(unsaved);
      await waitFor(() => expect(fakeSupabase.callsOf('save_ad_boards').at(-1)).toEqual({ p_ad_id: ad.id, p_add: [FAVORITES_ID] }));
      expect(await screen.findByRole('button', { name: 'Remove from favorites' })).toBeTruthy();
    });
  });

  it('copies the ad link from the Share dialog', async () => {
    const ad = makeAd();
    serveAds(ad);
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderApp(`/ads/${ad.id}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Share' }));
    const dialog = await screen.findByRole('dialog', { name: 'Share' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Copy URL' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/ads/${ad.id}`));
    expect(await screen.findByText('Link copied')).toBeTruthy();
    expect(screen.getByText('Ad link copied to clipboard')).toBeTruthy();
  });

  it("says 'Copy failed' when the clipboard refuses", async () => {
    const ad = makeAd();
    serveAds(ad);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: async () => Promise.reject(new Error('denied')) }, configurable: true });
    renderApp(`/ads/${ad.id}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Share' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Share' })).getByRole('button', { name: 'Copy URL' }));
    expect(await screen.findByText('Copy failed')).toBeTruthy();
  });
});
