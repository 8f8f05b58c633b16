// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeAd, makeAds } from '../support/ad-fixtures.ts';
import { fakeSupabase, sessionFor } from '../support/fake-supabase.ts';
import { listAdsQuery } from '../support/list-ads-query.ts';
import { renderApp, setUpAppTests } from '../support/render-app.tsx';

vi.mock('../../../src/lib/supabase-client.ts', async () => ({ supabase: (await import('../support/fake-supabase.ts')).fakeSupabase.client }));

const USER_ID = '77777777-7777-4777-8777-777777777777';

describe('library actions', () => {
  setUpAppTests();

  it('shows an anonymous visitor the Black Friday exclusive-access dialog, leading to sign-up', async () => {
    const app = renderApp('/library');
    fireEvent.click(await screen.findByRole('button', { name: 'View Black Friday Board' }));
    const dialog = await screen.findByRole('dialog', { name: 'Black Friday Collection' });
    expect(within(dialog).getByText('Exclusive Access')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fireEvent.click(screen.getByRole('button', { name: 'View Black Friday Board' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Get access now' }));
    await waitFor(() => expect(app.currentUrl()).toBe('/auth/signup'));
  });

  it('takes a signed-in user straight to the Black Friday board', async () => {
    fakeSupabase.session = sessionFor(USER_ID);
    const app = renderApp('/library');
    await waitFor(() => expect(fakeSupabase.callsOf('has_valid_access')).toHaveLength(1));
    fireEvent.click(screen.getByRole('button', { name: 'View Black Friday Board' }));
    await waitFor(() => expect(app.currentUrl()).toBe('/black-friday'));
  });

  it('opens the feedback form in a new tab from the floating button', async () => {
    renderApp('/library');
    const link = await screen.findByRole('link', { name: 'Request a feature' });
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toContain('noopener');
    expect(link.getAttribute('href')).toMatch(/^https:\/\//);
  });

  describe('puts the Request a feature button where it covers no card', () => {
    afterEach(() => vi.unstubAllGlobals());
    const feedback = () => screen.findByRole('link', { name: 'Request a feature' });
    const bar = () => screen.findByRole('region', { name: 'Need more inspiration?' });

    it('in the bottom bar, after its button, for an anonymous visitor and a signed-in free user', async () => {
      renderApp('/library');
      const anonymous = await feedback();
      expect(within(await bar()).getAllByRole('link').at(-1)).toBe(anonymous);
      cleanup();

      fakeSupabase.session = sessionFor(USER_ID);
      renderApp('/library');
      const region = await bar();
      const free = within(region).getByRole('link', { name: 'Request a feature' });
      expect(free.previousElementSibling?.textContent).toBe('Subscribe Now to Unlock Full Access');
      expect(free.dataset.placement).toBe('bar');
    });

    it('floating at the end of the page for a subscriber from 768 px, and in the header beside Share under 768 px', async () => {
      fakeSupabase.session = sessionFor(USER_ID);
      fakeSupabase.onRpc('has_valid_access', () => ({ data: true, error: null }));
      renderApp('/library');
      // The sidebar has a link of the same name; the button is the page's own.
      await waitFor(() => expect(fakeSupabase.callsOf('has_valid_access')).toHaveLength(1));
      const floating = await within(await screen.findByRole('main')).findByRole('link', { name: 'Request a feature' });
      expect(floating.dataset.placement).toBe('floating');
      expect(screen.getByTestId('app-sidebar').contains(floating)).toBe(false);
      expect(screen.queryByRole('region', { name: 'Need more inspiration?' })).toBeNull();
      cleanup();

      vi.stubGlobal(
        'matchMedia',
        vi.fn((query: string) => ({ matches: query.includes('max-width: 767px'), media: query, addEventListener() {}, removeEventListener() {} })),
      );
      renderApp('/library');
      const header = await feedback();
      expect(header.dataset.placement).toBe('header');
      expect(header.closest('header')).toBe(screen.getByRole('banner'));
      expect(header.nextElementSibling?.getAttribute('aria-label')).toBe('Share');
      expect(screen.getAllByRole('link', { name: 'Request a feature' })).toHaveLength(1);
    });
  });

  it('sends an anonymous visitor who adds to a board to sign in with next', async () => {
    fakeSupabase.onRpc('list_ads', () => ({ data: { ads: makeAds(1), next_cursor: null }, error: null }));
    const app = renderApp('/library?category=skincare');
    const card = await screen.findByTestId('ad-card');
    fireEvent.click(within(card).getByRole('button', { name: 'Add to board' }));
    await waitFor(() => expect(app.currentUrl()).toBe(`/auth/signin?next=${encodeURIComponent('/library?category=skincare')}`));
  });

  it('gives admins a delete button that confirms, deletes and drops the ad from the loaded pages', async () => {
    fakeSupabase.session = sessionFor(USER_ID);
    fakeSupabase.onRpc('is_admin', () => ({ data: true, error: null }));
    fakeSupabase.onRpc('has_valid_access', () => ({ data: true, error: null }));
    const ads = [makeAd({ brand_name: 'Northwind' }), ...makeAds(2)];
    fakeSupabase.onRpc('list_ads', () => ({ data: { ads, next_cursor: null }, error: null }));
    fakeSupabase.onRpc('admin_delete_ads', (args) => ({ data: (args.p_ids as string[]).map((id) => ({ id, ok: true, error: null })), error: null }));
    renderApp('/library');
    await waitFor(() => expect(screen.getAllByRole('button', { name: 'Delete ad' })).toHaveLength(3));

    const northwind = screen.getAllByTestId('ad-card').find((card) => card.dataset.adId === ads[0]!.id)!;
    fireEvent.click(within(northwind).getByRole('button', { name: 'Delete ad' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete ad' });
    expect(dialog.textContent).toContain('Delete "Northwind ad"? This cannot be undone.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));

    await waitFor(() => expect(screen.getAllByTestId('ad-card')).toHaveLength(2));
    expect(fakeSupabase.callsOf('admin_delete_ads')).toEqual([{ p_ids: [ads[0]!.id] }]);
    expect(fakeSupabase.callsOf('list_ads')).toHaveLength(1);
    expect(await screen.findByText('1 ad(s) removed.')).toBeTruthy();
  });

  it('shows no delete button to users who are not admins', async () => {
    fakeSupabase.session = sessionFor(USER_ID);
    fakeSupabase.onRpc('list_ads', () => ({ data: { ads: makeAds(2), next_cursor: null }, error: null }));
    renderApp('/library');
    await screen.findAllByTestId('ad-card');
    await waitFor(() => expect(fakeSupabase.callsOf('is_admin')).toHaveLength(1));
    expect(screen.queryByRole('button', { name: 'Delete ad' })).toBeNull();
  });

  it('keeps the loaded pages when coming back from an ad opened over the list', async () => {
    const first = makeAds(60);
    const second = makeAds(5);
    fakeSupabase.onRpc('list_ads', (args) =>
      listAdsQuery(args).cursor ? { data: { ads: second, next_cursor: null }, error: null } : { data: { ads: first, next_cursor: 'page-2' }, error: null },
    );
    const app = renderApp('/library');
    await waitFor(() => expect(screen.getAllByTestId('ad-card')).toHaveLength(60));
    const { TestIntersectionObserver } = await import('../support/render-app.tsx');
    TestIntersectionObserver.intersectAll();
    await waitFor(() => expect(screen.getAllByTestId('ad-card')).toHaveLength(65));

    const lastCard = screen.getAllByTestId('ad-card').find((card) => card.dataset.adId === second[4]!.id)!;
    fireEvent.click(within(lastCard).getByRole('link'));
    await screen.findByTestId('ad-detail');
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });

    await waitFor(() => expect(app.currentUrl()).toBe('/library'));
    await waitFor(() => expect(screen.queryByTestId('ad-detail')).toBeNull());
    expect(screen.getAllByTestId('ad-card')).toHaveLength(65);
    expect(fakeSupabase.callsOf('list_ads')).toHaveLength(2);
  });
});
