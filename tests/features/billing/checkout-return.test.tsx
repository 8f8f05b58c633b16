// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { CHECKOUT_SEEN_STORAGE_KEY } from '../../../src/features/billing/hooks/use-checkout-return.ts';
import { fakeSupabase, sessionFor } from '../support/fake-supabase.ts';
import { renderBilling, setUpBillingTests } from './render-billing.tsx';

vi.mock('../../../src/lib/supabase-client.ts', async () => ({ supabase: (await import('../support/fake-supabase.ts')).fakeSupabase.client }));

const USER_ID = '44444444-4444-4444-8444-444444444444';
const SUCCESS_DIALOG = { name: 'Payment Successful' };

describe('the return from checkout', () => {
  setUpBillingTests();

  it("shows 'Payment Successful' once, takes the checkout out of the address and asks for access again", async () => {
    fakeSupabase.session = sessionFor(USER_ID);
    fakeSupabase.onRpc('has_valid_access', () => ({ data: true, error: null }));
    const view = renderBilling('/library?brand=Lumen&checkout=success&session_id=cs_test_1');
    const dialog = await screen.findByRole('dialog', SUCCESS_DIALOG);
    expect(within(dialog).getByText('Thanks! Your purchase was successful. You now have full access.')).toBeTruthy();
    await waitFor(() => expect(view.currentUrl()).toBe('/library?brand=Lumen'));
    expect(fakeSupabase.callsOf('has_valid_access').length).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(window.localStorage.getItem(CHECKOUT_SEEN_STORAGE_KEY)!)).toEqual(['cs_test_1']);

    within(dialog).getByRole('button', { name: 'Start exploring' }).click();
    await waitFor(() => expect(screen.queryByRole('dialog', SUCCESS_DIALOG)).toBeNull());
    view.unmount();

    // The same return again (back button, a reload of an old address): no second dialog.
    const again = renderBilling('/library?checkout=success&session_id=cs_test_1');
    await waitFor(() => expect(again.currentUrl()).toBe('/library'));
    await screen.findByRole('button', { name: 'See plans' });
    expect(screen.queryByRole('dialog', SUCCESS_DIALOG)).toBeNull();
  });

  it("keeps asking for access until the subscription has arrived from Stripe, and only then says 'Payment Successful'", async () => {
    fakeSupabase.session = sessionFor(USER_ID);
    let subscribed = false;
    fakeSupabase.onRpc('has_valid_access', () => ({ data: subscribed, error: null }));
    renderBilling('/library?checkout=success&session_id=cs_test_2');
    await waitFor(() => expect(fakeSupabase.callsOf('has_valid_access').length).toBeGreaterThanOrEqual(2), { timeout: 5000 });
    // No access yet: the address alone announces nothing.
    expect(screen.queryByRole('dialog', SUCCESS_DIALOG)).toBeNull();
    expect(window.localStorage.getItem(CHECKOUT_SEEN_STORAGE_KEY)).toBeNull();

    // The webhook lands: the next check finds the subscription, the dialog opens and the checks stop.
    subscribed = true;
    await screen.findByRole('dialog', SUCCESS_DIALOG, { timeout: 5000 });
    expect(JSON.parse(window.localStorage.getItem(CHECKOUT_SEEN_STORAGE_KEY)!)).toEqual(['cs_test_2']);
    const settled = fakeSupabase.callsOf('has_valid_access').length;
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(fakeSupabase.callsOf('has_valid_access').length).toBe(settled);
  });

  it('takes a cancelled checkout out of the address without a dialog', async () => {
    fakeSupabase.session = sessionFor(USER_ID);
    const view = renderBilling('/library?checkout=cancelled');
    await waitFor(() => expect(view.currentUrl()).toBe('/library'));
    await screen.findByRole('button', { name: 'Upgrade Plan' });
    expect(screen.queryByRole('dialog', SUCCESS_DIALOG)).toBeNull();
  });
});
