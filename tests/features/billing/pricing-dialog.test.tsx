// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { LOCAL_STRIPE_PRICES } from '../../../supabase/functions/_shared/local-stripe-defaults.ts';
import { pageNavigation } from '../../../src/features/billing/hooks/page-navigation.ts';
import { fakeSupabase, sessionFor } from '../support/fake-supabase.ts';
import { functionError, planAnswer, renderBilling, setUpBillingTests } from './render-billing.tsx';
import { BILLING_TEXTS } from '../../../src/lib/billing-texts.ts';

vi.mock('../../../src/lib/supabase-client.ts', async () => ({ supabase: (await import('../support/fake-supabase.ts')).fakeSupabase.client }));

const USER_ID = '33333333-3333-4333-8333-333333333333';
const CHECKOUT_URL = 'http://127.0.0.1/_stripe/checkout/cs_test_1';

/** Upgrade Plan shows once the session and the entitlement are known; it opens the plans. */
async function openPlans() {
  fireEvent.click(await screen.findByRole('button', { name: 'Upgrade Plan' }));
  return screen.findByRole('dialog', { name: 'Unlock every winning ad' });
}

/** A signed-in free user; by default one who never had a trial (check-subscription says trial_eligible). */
const signedIn = (trialEligible = true) => {
  fakeSupabase.session = sessionFor(USER_ID);
  fakeSupabase.onFunction('check-subscription', () => planAnswer({ trial_eligible: trialEligible }));
};

/** The dialog's action once check-subscription has answered. */
const actionButton = (dialog: HTMLElement, name: string) => within(dialog).findByRole('button', { name }) as Promise<HTMLButtonElement>;

const checkoutCalls = () => fakeSupabase.functionCalls.filter((call) => call.name === 'create-checkout');

describe('the pricing dialog', () => {
  setUpBillingTests();

  it('starts on Monthly at €8,95 per month', async () => {
    signedIn();
    renderBilling('/library');
    const dialog = await openPlans();
    expect(within(dialog).getByRole('radio', { name: 'Monthly' }).getAttribute('aria-checked')).toBe('true');
    expect(within(dialog).getByTestId('price').textContent).toBe('€8,95');
    expect(within(dialog).getByText('/ month')).toBeTruthy();
    expect(dialog.textContent).not.toContain('€75,18');
  });

  it('shows Annual as €6,27 per month, €75,18 a year, saving €32,22, with "save ~30%"', async () => {
    signedIn();
    renderBilling('/library');
    const dialog = await openPlans();
    const annual = within(dialog).getByRole('radio', { name: /Annual/ });
    expect(annual.textContent).toContain('save ~30%');
    fireEvent.click(annual);
    expect(annual.getAttribute('aria-checked')).toBe('true');
    expect(within(dialog).getByTestId('price').textContent).toBe('€6,27');
    expect(dialog.textContent).toContain('€75,18 billed yearly');
    expect(dialog.textContent).toContain('You save €32,22');
  });

  it('opens Terms and Privacy in a new tab', async () => {
    signedIn();
    renderBilling('/library');
    const dialog = await openPlans();
    for (const [name, href] of [['Terms', '/terms'], ['Privacy', '/privacy']] as const) {
      const link = within(dialog).getByRole('link', { name });
      expect(link.getAttribute('href')).toBe(href);
      expect(link.getAttribute('target')).toBe('_blank');
      expect(link.getAttribute('rel')).toContain('noopener');
    }
  });

  it("starts checkout with the annual plan's configured price id, the 7-day trial and the trimmed coupon, then goes to Stripe", async () => {
    signedIn();
    const assign = vi.spyOn(pageNavigation, 'assign').mockImplementation(() => {});
    fakeSupabase.onFunction('create-checkout', () => ({ data: { url: CHECKOUT_URL }, error: null }));
    renderBilling('/library');
    const dialog = await openPlans();
    fireEvent.click(within(dialog).getByRole('radio', { name: /Annual/ }));
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Coupon code' }), { target: { value: '  OBYECT20 ' } });
    fireEvent.click(await actionButton(dialog, 'Start 7-day free trial'));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(CHECKOUT_URL));
    expect(checkoutCalls()).toEqual([
      { name: 'create-checkout', body: { priceId: LOCAL_STRIPE_PRICES.annual, trialDays: 7, couponCode: 'OBYECT20', baseUrl: window.location.origin } },
    ]);
  });

  it('sends the monthly price by default and leaves an empty coupon out', async () => {
    signedIn();
    vi.spyOn(pageNavigation, 'assign').mockImplementation(() => {});
    fakeSupabase.onFunction('create-checkout', () => ({ data: { url: CHECKOUT_URL }, error: null }));
    renderBilling('/library');
    const dialog = await openPlans();
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Coupon code' }), { target: { value: '   ' } });
    fireEvent.click(await actionButton(dialog, 'Start 7-day free trial'));
    await waitFor(() => expect(checkoutCalls()).toHaveLength(1));
    expect(checkoutCalls()[0]!.body).toEqual({ priceId: LOCAL_STRIPE_PRICES.monthly, trialDays: 7, baseUrl: window.location.origin });
  });

  it('shows what a valid coupon takes off next to the plan price before checkout, and says when a code is not valid', async () => {
    signedIn();
    fakeSupabase.onFunction('preview-coupon', (body) =>
      (body as { couponCode: string }).couponCode.toUpperCase() === 'OBYECT20'
        ? { data: { code: 'OBYECT20', percent_off: 20, amount_off: null, currency: null, duration: 'forever', duration_in_months: null }, error: null }
        : functionError(400, 'invalid_coupon', 'Coupon code "NOPE" is not valid'),
    );
    renderBilling('/library');
    const dialog = await openPlans();
    const coupon = within(dialog).getByRole('textbox', { name: 'Coupon code' });
    fireEvent.change(coupon, { target: { value: ' obyect20 ' } });
    await waitFor(() => expect(within(dialog).getByTestId('coupon-status').textContent).toBe('OBYECT20 applied: 20% off every payment'));
    expect(within(dialog).getByTestId('price').textContent).toBe('€7,16');
    expect(within(dialog).getByTestId('price-before-coupon').textContent).toBe('instead of €8,95');

    fireEvent.click(within(dialog).getByRole('radio', { name: /Annual/ }));
    expect(within(dialog).getByTestId('price').textContent).toBe('€5,01');
    expect(within(dialog).getByTestId('price-before-coupon').textContent).toBe('instead of €6,27');
    expect(dialog.textContent).toContain('€60,14 billed yearly instead of €75,18');

    fireEvent.change(coupon, { target: { value: 'NOPE' } });
    await waitFor(() => expect(within(dialog).getByTestId('coupon-status').textContent).toBe('This coupon code is not valid.'));
    expect(within(dialog).getByTestId('price').textContent).toBe('€6,27');
    expect(within(dialog).queryByTestId('price-before-coupon')).toBeNull();
    expect(fakeSupabase.functionCalls.filter((call) => call.name === 'preview-coupon').map((call) => call.body)).toEqual([
      { couponCode: 'obyect20' },
      { couponCode: 'NOPE' },
    ]);
  });

  it("reads 'Redirecting…' and is disabled while checkout starts", async () => {
    signedIn();
    fakeSupabase.onFunction('create-checkout', () => new Promise(() => {}));
    renderBilling('/library');
    const dialog = await openPlans();
    fireEvent.click(await actionButton(dialog, 'Start 7-day free trial'));
    const button = await within(dialog).findByRole('button', { name: 'Redirecting…' });
    expect((button as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(button);
    expect(checkoutCalls()).toHaveLength(1);
  });

  it('says a coupon checkout refuses next to the field, once, with no toast', async () => {
    signedIn();
    // The preview cannot say (so only checkout's refusal can put the message there).
    fakeSupabase.onFunction('preview-coupon', () => functionError(502, 'upstream_failed', 'Stripe is down'));
    fakeSupabase.onFunction('create-checkout', () => functionError(400, 'invalid_coupon', 'Coupon code "NOPE" is not valid'));
    renderBilling('/library');
    const dialog = await openPlans();
    const field = within(dialog).getByRole('textbox', { name: 'Coupon code' });
    fireEvent.change(field, { target: { value: 'NOPE' } });
    fireEvent.click(await actionButton(dialog, 'Start 7-day free trial'));
    await waitFor(() => expect(within(dialog).getByTestId('coupon-status').textContent).toBe(BILLING_TEXTS.pricing.coupon.invalid));
    expect(screen.queryByText('Unable to start checkout')).toBeNull();
    expect(screen.getAllByText(BILLING_TEXTS.pricing.coupon.invalid)).toHaveLength(1);
    // The button is usable again, and another code is checked afresh.
    expect((await actionButton(dialog, 'Start 7-day free trial')).disabled).toBe(false);
    fireEvent.change(field, { target: { value: 'OTHER' } });
    await waitFor(() => expect(within(dialog).getByTestId('coupon-status').textContent).not.toBe(BILLING_TEXTS.pricing.coupon.invalid));
  });

  it('says that too many codes were tried when the coupon check answers 429, in our words', async () => {
    signedIn();
    fakeSupabase.onFunction('preview-coupon', () => functionError(429, 'too_many_requests', 'Too many coupon codes tried. Please try again in 10 minutes.'));
    renderBilling('/library');
    const dialog = await openPlans();
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Coupon code' }), { target: { value: 'GUESS11' } });
    await waitFor(() => expect(within(dialog).getByTestId('coupon-status').textContent).toBe(BILLING_TEXTS.pricing.coupon.tooMany));
  });

  it('says what to do, in our words, when checkout may not return to the address the page was opened at', async () => {
    signedIn();
    fakeSupabase.onFunction('create-checkout', () => functionError(400, 'origin_not_allowed', 'baseUrl: http://127.0.0.2:3000 is not an allowed origin'));
    renderBilling('/library');
    const dialog = await openPlans();
    fireEvent.click(await actionButton(dialog, 'Start 7-day free trial'));
    expect(await screen.findByText('Unable to start checkout')).toBeTruthy();
    expect(await screen.findByText(BILLING_TEXTS.checkout.originNotAllowed)).toBeTruthy();
    expect(screen.queryByText(/baseUrl|allowed origin/)).toBeNull();
  });

  it("says 'Please try again.' when the failure means nothing to the buyer, or no URL came back", async () => {
    signedIn();
    fakeSupabase.onFunction('create-checkout', () => functionError(502, 'upstream_failed', 'Failed to create checkout session: Stripe is down'));
    renderBilling('/library');
    const dialog = await openPlans();
    fireEvent.click(await actionButton(dialog, 'Start 7-day free trial'));
    expect(await screen.findByText('Unable to start checkout')).toBeTruthy();
    expect(await screen.findByText('Please try again.')).toBeTruthy();
    expect(screen.queryByText(/Stripe is down/)).toBeNull();

    fakeSupabase.onFunction('create-checkout', () => ({ data: {}, error: null }));
    const assign = vi.spyOn(pageNavigation, 'assign').mockImplementation(() => {});
    fireEvent.click(await actionButton(dialog, 'Start 7-day free trial'));
    await waitFor(() => expect(checkoutCalls()).toHaveLength(2));
    await waitFor(() => expect(screen.getAllByText('Unable to start checkout').length).toBeGreaterThanOrEqual(1));
    expect(assign).not.toHaveBeenCalled();
  });

  it('offers "Subscribe now" without the trial to an account that had one, and asks for no trial days', async () => {
    signedIn(false);
    vi.spyOn(pageNavigation, 'assign').mockImplementation(() => {});
    fakeSupabase.onFunction('create-checkout', () => ({ data: { url: CHECKOUT_URL, trial: false }, error: null }));
    renderBilling('/library');
    const dialog = await openPlans();
    const subscribe = await actionButton(dialog, 'Subscribe now');
    // Said before the button, not refused silently.
    const used = within(dialog).getByTestId('trial-used');
    expect(used.textContent).toBe("You've used your free trial.");
    expect(used.compareDocumentPosition(subscribe) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    fireEvent.click(subscribe);
    await waitFor(() => expect(checkoutCalls()).toHaveLength(1));
    expect(checkoutCalls()[0]!.body).toEqual({ priceId: LOCAL_STRIPE_PRICES.monthly, baseUrl: window.location.origin });
    expect(dialog.textContent!.replace("You've used your free trial.", '')).not.toMatch(/trial|No charge today/i);
    expect(screen.getByText('Full access to every winning ad, starting today.')).toBeTruthy();
    expect(dialog.textContent).toContain('Billed monthly');
    expect(dialog.textContent).toContain('Charged today. Cancel anytime.');
    expect(dialog.textContent).toContain('By subscribing you agree to our');
  });

  it('promises no trial while it asks the server, nor when the server cannot say', async () => {
    fakeSupabase.session = sessionFor(USER_ID);
    let answer: (value: ReturnType<typeof functionError>) => void = () => {};
    fakeSupabase.onFunction('check-subscription', () => new Promise<ReturnType<typeof functionError>>((resolve) => (answer = resolve)));
    renderBilling('/library');
    const dialog = await openPlans();
    const checking = await actionButton(dialog, 'Checking your offer…');
    expect(checking.disabled).toBe(true);
    expect(dialog.textContent).not.toMatch(/trial/i);
    act(() => answer(functionError(502, 'upstream_failed', 'Could not read your subscription; try again')));
    expect((await actionButton(dialog, 'Subscribe now')).disabled).toBe(false);
    expect(dialog.textContent).not.toMatch(/trial/i);
    expect(screen.queryByText(/Could not read/)).toBeNull();
  });

  it("shows 'Please try again.', never a validation library's wording, for a refused request", async () => {
    signedIn();
    fakeSupabase.onFunction('create-checkout', () => functionError(400, 'invalid_body', 'trialDays: Invalid input: expected 7'));
    renderBilling('/library');
    const dialog = await openPlans();
    fireEvent.click(await actionButton(dialog, 'Start 7-day free trial'));
    expect(await screen.findByText('Please try again.')).toBeTruthy();
    expect(screen.queryByText(/Invalid input/)).toBeNull();
  });

  it('sends an anonymous visitor to sign in with next, without calling checkout', async () => {
    const view = renderBilling('/library?brand=Lumen');
    fireEvent.click(await screen.findByRole('button', { name: 'See plans' }));
    // Anonymous: the upgrade flow itself goes to sign-in; the dialog's own button does the same.
    await waitFor(() => expect(view.currentUrl()).toBe(`/auth/signin?next=${encodeURIComponent('/library?brand=Lumen')}`));
    expect(fakeSupabase.functionCalls).toEqual([]);
  });

  it("sends a visitor whose session ended to sign in from the dialog's start-trial button", async () => {
    signedIn();
    const view = renderBilling('/library');
    const dialog = await openPlans();
    act(() => fakeSupabase.emitAuth('SIGNED_OUT', null));
    fireEvent.click(await actionButton(dialog, 'Start 7-day free trial'));
    await waitFor(() => expect(view.currentUrl()).toBe(`/auth/signin?next=${encodeURIComponent('/library')}`));
    expect(screen.queryByRole('dialog', { name: 'Unlock every winning ad' })).toBeNull();
    expect(checkoutCalls()).toEqual([]);
  });

  it('closes itself once the signed-in viewer is subscribed', async () => {
    signedIn();
    renderBilling('/library');
    await openPlans();
    fakeSupabase.onRpc('has_valid_access', () => ({ data: true, error: null }));
    act(() => fakeSupabase.emitAuth('TOKEN_REFRESHED', sessionFor(USER_ID)));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Unlock every winning ad' })).toBeNull());
  });
});
