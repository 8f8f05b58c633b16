// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { makeAd, makeFacts } from '../support/ad-fixtures.ts';
import { fakeSupabase, sessionFor } from '../support/fake-supabase.ts';
import { renderApp, setUpAppTests } from '../support/render-app.tsx';
import { LOCAL_STRIPE_PRICES } from '../../../supabase/functions/_shared/local-stripe-defaults.ts';

vi.mock('../../../src/lib/supabase-client.ts', async () => ({ supabase: (await import('../support/fake-supabase.ts')).fakeSupabase.client }));

const USER_ID = '33333333-3333-4333-8333-333333333333';

function serveList() {
  const clear = makeAd();
  const locked = makeAd({ locked: true, brand_name: 'Northwind' });
  fakeSupabase.onRpc('list_ads', () => ({ data: { ads: [clear, locked], next_cursor: null }, error: null }));
  return { clear, locked };
}

async function lockedCard() {
  const cards = await screen.findAllByTestId('ad-card');
  return cards.find((card) => card.dataset.locked === 'true')!;
}

describe('the upgrade flow from a locked ad', () => {
  setUpAppTests();

  it('sends an anonymous visitor to sign in with next holding the current path and query', async () => {
    serveList();
    const app = renderApp('/library?brand=Lumora&date=week');
    fireEvent.click(within(await lockedCard()).getByRole('button', { name: /locked/ }));
    await waitFor(() => expect(app.currentUrl()).toBe(`/auth/signin?next=${encodeURIComponent('/library?brand=Lumora&date=week')}`));
  });

  it('opens the pricing dialog with the spec prices for a signed-in user', async () => {
    fakeSupabase.session = sessionFor(USER_ID);
    serveList();
    const app = renderApp('/library');
    fireEvent.click(within(await lockedCard()).getByRole('button', { name: /locked/ }));

    const dialog = await screen.findByRole('dialog', { name: 'Unlock every winning ad' });
    expect(app.currentUrl()).toBe('/library');
    expect(within(dialog).getByTestId('price').textContent).toBe('€8,95');
    fireEvent.click(within(dialog).getByRole('radio', { name: /Annual/ }));
    expect(within(dialog).getByTestId('price').textContent).toBe('€6,27');
    expect(dialog.textContent).toContain('€75,18 billed yearly');
    expect(dialog.textContent).toContain('You save €32,22');
    expect(dialog.textContent).toContain('save ~30%');
    for (const link of ['Terms', 'Privacy']) {
      const anchor = within(dialog).getByRole('link', { name: link });
      expect(anchor.getAttribute('target')).toBe('_blank');
      expect(anchor.getAttribute('rel')).toContain('noopener');
    }
  });

  it("shows 'Unable to start checkout' with 'Please try again.' when checkout is unavailable", async () => {
    fakeSupabase.session = sessionFor(USER_ID);
    // An account that never had a trial: the dialog offers it.
    fakeSupabase.onFunction('check-subscription', () => ({ data: { subscribed: false, subscription_tier: 'Free', subscription_end: null, trial_eligible: true }, error: null }));
    serveList();
    renderApp('/library');
    fireEvent.click(within(await lockedCard()).getByRole('button', { name: /locked/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Unlock every winning ad' });
    fireEvent.change(within(dialog).getByLabelText('Coupon code'), { target: { value: '  WELCOME  ' } });
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Start 7-day free trial' }));

    expect(await screen.findByText('Unable to start checkout')).toBeTruthy();
    expect(screen.getByText('Please try again.')).toBeTruthy();
    expect(fakeSupabase.functionCalls.filter((call) => call.name === 'create-checkout')).toEqual([
      { name: 'create-checkout', body: { priceId: LOCAL_STRIPE_PRICES.monthly, trialDays: 7, couponCode: 'WELCOME', baseUrl: window.location.origin } },
    ]);
  });

  it('opens a clear ad as a modal over the library, from the list’s own copy of the ad, and asks the server only for its facts', async () => {
    const { clear } = serveList();
    // The server now answers the teaser locked: the image the list showed clear stays, the facts come from the answer.
    const lockedNow = makeAd({ id: clear.id, locked: true, facts: makeFacts({ headline: 'Glow that survives a Monday' }) });
    fakeSupabase.onRpc('get_ad', () => ({ data: lockedNow, error: null }));
    const app = renderApp('/library');
    const cards = await screen.findAllByTestId('ad-card');
    const clearCard = cards.find((card) => card.dataset.locked === 'false')!;
    fireEvent.click(within(clearCard).getByRole('link', { name: 'Open Lumora ad' }));

    const detail = await screen.findByTestId('ad-detail');
    expect(app.currentUrl()).toBe(`/ads/${clear.id}`);
    expect(screen.getByTestId('ad-grid')).toBeTruthy();
    expect(within(detail).getByRole('img', { name: /Lumora ad/ }).getAttribute('src')).toBe(`http://localhost:3000/storage/v1/object/sign/ad-images/${clear.id}/960.webp?token=t`);
    expect(await within(detail).findByText('Glow that survives a Monday')).toBeTruthy();
    expect(fakeSupabase.callsOf('get_ad')).toHaveLength(1);
    expect(within(detail).getByRole('img', { name: /Lumora ad/ }).getAttribute('src')).toBe(`http://localhost:3000/storage/v1/object/sign/ad-images/${clear.id}/960.webp?token=t`);
    expect(within(detail).getByTestId('promo-card').textContent).toContain('More winning creatives? Get started for free');

    fireEvent.click(within(detail).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(app.currentUrl()).toBe('/library'));
    expect(screen.queryByTestId('ad-detail')).toBeNull();
    expect(screen.getAllByTestId('ad-card')).toHaveLength(2);
  });
});
