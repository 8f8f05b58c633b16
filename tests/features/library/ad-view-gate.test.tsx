// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { isOverFreeLimit, readAdViewCount, recordAdView } from '../../../src/features/ad-gate/hooks/ad-view-counter.ts';
import { makeAd } from '../support/ad-fixtures.ts';
import { fakeSupabase, sessionFor } from '../support/fake-supabase.ts';
import { renderApp, setUpAppTests } from '../support/render-app.tsx';

vi.mock('../../../src/lib/supabase-client.ts', async () => ({ supabase: (await import('../support/fake-supabase.ts')).fakeSupabase.client }));

const KEY = 'obyect_ad_views';
const GATE_TITLE = 'Create your account to continue exploring winning ads';

describe('the anonymous view counter', () => {
  setUpAppTests();

  it.each([
    ['missing', null, 0],
    ['not a number', 'lots', 0],
    ['empty', '', 0],
    ['a count', '15', 15],
  ])('reads a %s stored value as %s', (_, stored, expected) => {
    if (stored !== null) localStorage.setItem(KEY, stored);
    expect(readAdViewCount(localStorage)).toBe(expected);
  });

  it('adds one per recorded view and saves it', () => {
    localStorage.setItem(KEY, '3');
    expect(recordAdView(localStorage, 'ad-a')).toBe(4);
    expect(localStorage.getItem(KEY)).toBe('4');
  });

  it('counts distinct ads: opening the same ads again adds nothing', () => {
    for (let round = 0; round < 3; round += 1) {
      for (const id of ['ad-1', 'ad-2', 'ad-3', 'ad-4', 'ad-5', 'ad-6']) recordAdView(localStorage, id);
    }
    expect(readAdViewCount(localStorage)).toBe(6);
    expect(recordAdView(localStorage, 'ad-7')).toBe(7);
  });

  it('reaches the limit at 16', () => {
    expect(isOverFreeLimit(15)).toBe(false);
    expect(isOverFreeLimit(16)).toBe(true);
    expect(isOverFreeLimit(40)).toBe(true);
  });
});

describe('the gate over an opened ad', () => {
  setUpAppTests();

  function serveAd() {
    const ad = makeAd();
    fakeSupabase.onRpc('get_ad', (args) => ({ data: args.p_id === ad.id ? ad : null, error: null }));
    return ad;
  }

  it('counts the first view from 0 when nothing is stored, without the gate', async () => {
    const ad = serveAd();
    renderApp(`/ads/${ad.id}`);
    await screen.findByTestId('ad-detail');
    await waitFor(() => expect(localStorage.getItem(KEY)).toBe('1'));
    expect(screen.queryByText(GATE_TITLE)).toBeNull();
  });

  it('counts from 0 when the stored count is garbage', async () => {
    localStorage.setItem(KEY, 'not-a-number');
    const ad = serveAd();
    renderApp(`/ads/${ad.id}`);
    await waitFor(() => expect(localStorage.getItem(KEY)).toBe('1'));
    expect(screen.queryByText(GATE_TITLE)).toBeNull();
  });

  it('opens the gate on the 16th ad with the spec texts; Not now closes it', async () => {
    localStorage.setItem(KEY, '15');
    const ad = serveAd();
    renderApp(`/ads/${ad.id}`);

    const dialog = await screen.findByRole('dialog', { name: GATE_TITLE });
    expect(localStorage.getItem(KEY)).toBe('16');
    expect(dialog.textContent).toContain(
      "You've reached your free 16-ad limit. Unlock unlimited browsing with a free account and subscribe anytime.",
    );
    expect(dialog.textContent).toContain("Already a member? You'll be taken to sign in.");

    fireEvent.click(screen.getByRole('button', { name: 'Not now' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: GATE_TITLE })).toBeNull());
  });

  it('keeps the count at 15 without the gate until the 16th view', async () => {
    localStorage.setItem(KEY, '14');
    const ad = serveAd();
    renderApp(`/ads/${ad.id}`);
    await waitFor(() => expect(localStorage.getItem(KEY)).toBe('15'));
    expect(screen.queryByText(GATE_TITLE)).toBeNull();
  });

  it("sends 'Create account' to sign-up with next pointing back at the ad", async () => {
    localStorage.setItem(KEY, '20');
    const ad = serveAd();
    const app = renderApp(`/ads/${ad.id}`);
    await screen.findByRole('dialog', { name: GATE_TITLE });
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() => expect(app.currentUrl()).toBe(`/auth/signup?next=${encodeURIComponent(`/ads/${ad.id}`)}`));
  });

  it("makes the footnote a link to sign-in with next back at the ad, in the spec's words", async () => {
    localStorage.setItem(KEY, '20');
    const ad = serveAd();
    const app = renderApp(`/ads/${ad.id}`);
    const dialog = await screen.findByRole('dialog', { name: GATE_TITLE });
    const link = within(dialog).getByRole('link', { name: "Already a member? You'll be taken to sign in." });
    fireEvent.click(link);
    await waitFor(() => expect(app.currentUrl()).toBe(`/auth/signin?next=${encodeURIComponent(`/ads/${ad.id}`)}`));
  });

  it('does not count a locked ad opened by its URL; past the limit the gate opens over it all the same', async () => {
    localStorage.setItem(KEY, '15');
    const locked = makeAd({ locked: true });
    fakeSupabase.onRpc('get_ad', (args) => ({ data: args.p_id === locked.id ? locked : null, error: null }));
    const first = renderApp(`/ads/${locked.id}`);
    await screen.findByTestId('ad-detail');
    await waitFor(() => expect(fakeSupabase.rpcCalls.some((call) => call.name === 'get_ad')).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(localStorage.getItem(KEY)).toBe('15');
    expect(localStorage.getItem('obyect_viewed_ad_ids')).toBeNull();
    expect(screen.queryByText(GATE_TITLE)).toBeNull();
    first.unmount();

    localStorage.setItem(KEY, '16');
    renderApp(`/ads/${locked.id}`);
    await screen.findByRole('dialog', { name: GATE_TITLE });
    expect(localStorage.getItem(KEY)).toBe('16');
  });

  it('opens the gate again on a repeat view once the limit is reached, without counting it', async () => {
    localStorage.setItem(KEY, '16');
    const ad = serveAd();
    localStorage.setItem('obyect_viewed_ad_ids', JSON.stringify([ad.id]));
    renderApp(`/ads/${ad.id}`);
    await screen.findByRole('dialog', { name: GATE_TITLE });
    expect(localStorage.getItem(KEY)).toBe('16');
  });

  it('does not count views of a signed-in user', async () => {
    fakeSupabase.session = sessionFor('11111111-1111-4111-8111-111111111111');
    fakeSupabase.onRpc('get_or_create_favorites_id', () => ({ data: 'fav-board', error: null }));
    localStorage.setItem(KEY, '15');
    const ad = serveAd();
    renderApp(`/ads/${ad.id}`);
    await screen.findByRole('link', { name: 'Lumora' });
    expect(localStorage.getItem(KEY)).toBe('15');
    expect(screen.queryByText(GATE_TITLE)).toBeNull();
  });
});
