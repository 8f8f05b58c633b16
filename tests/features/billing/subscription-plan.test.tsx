// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { pageNavigation } from '../../../src/features/billing/hooks/page-navigation.ts';
import { CANCEL_NOTICE_STORAGE_KEY } from '../../../src/features/billing/hooks/use-cancel-notice.ts';
import { fakeSupabase, sessionFor } from '../support/fake-supabase.ts';
import { functionError, planAnswer, renderBilling, setUpBillingTests } from './render-billing.tsx';

vi.mock('../../../src/lib/supabase-client.ts', async () => ({ supabase: (await import('../support/fake-supabase.ts')).fakeSupabase.client }));

const USER_ID = '55555555-5555-4555-8555-555555555555';
const TRIAL_END = '2026-12-01T10:00:00.000Z';
const PERIOD_END_SECONDS = Date.parse(TRIAL_END) / 1000;
const PORTAL_URL = 'http://127.0.0.1/_stripe/portal/bps_1';

const planCard = () => screen.findByRole('region', { name: 'Subscription Plan' });
const currentPlan = async () => within(await planCard()).getByTestId('current-plan').textContent;
const storedNotice = () => JSON.parse(window.sessionStorage.getItem(CANCEL_NOTICE_STORAGE_KEY) ?? 'null');

function subscriber(plan: Parameters<typeof planAnswer>[0]) {
  fakeSupabase.session = sessionFor(USER_ID);
  fakeSupabase.onRpc('has_valid_access', () => ({ data: true, error: null }));
  fakeSupabase.onFunction('check-subscription', () => planAnswer({ subscribed: true, ...plan }));
}

const trial = { subscription_tier: 'Free Trial', subscription_end: TRIAL_END, current_period_end: PERIOD_END_SECONDS };

describe('Subscription Plan on /profile', () => {
  setUpBillingTests();

  it('shows Free with Upgrade Plan, which opens the plans, and nothing to manage', async () => {
    fakeSupabase.session = sessionFor(USER_ID);
    fakeSupabase.onFunction('check-subscription', () => planAnswer({}));
    renderBilling('/profile');
    await waitFor(async () => expect(await currentPlan()).toBe('Free'));
    const card = await planCard();
    fireEvent.click(await within(card).findByRole('button', { name: 'Upgrade Plan' }));
    expect(await screen.findByRole('dialog', { name: 'Unlock every winning ad' })).toBeTruthy();
    expect(within(card).queryByRole('button', { name: 'Manage Subscription' })).toBeNull();
    expect(within(card).queryByRole('button', { name: 'Cancel Subscription' })).toBeNull();
    expect(within(card).queryByTestId('plan-date')).toBeNull();
  });

  it('shows no Upgrade Plan while the entitlement is still loading', async () => {
    fakeSupabase.session = sessionFor(USER_ID);
    fakeSupabase.onRpc('has_valid_access', () => new Promise(() => {}));
    fakeSupabase.onFunction('check-subscription', () => planAnswer({}));
    renderBilling('/profile');
    const card = await planCard();
    await waitFor(() => expect(fakeSupabase.functionCalls.some((call) => call.name === 'check-subscription')).toBe(true));
    expect(within(card).queryByRole('button', { name: 'Upgrade Plan' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Upgrade Plan' })).toBeNull();
  });

  it("shows a Free Trial with 'Expires', Manage Subscription and cancelling, and no Upgrade Plan", async () => {
    subscriber(trial);
    renderBilling('/profile');
    await waitFor(async () => expect(await currentPlan()).toBe('Free Trial'));
    const card = await planCard();
    expect(within(card).getByTestId('plan-date').textContent).toBe('Expires: Dec 1, 2026');
    expect(within(card).getByRole('button', { name: 'Manage Subscription' })).toBeTruthy();
    expect(within(card).getByRole('button', { name: 'Cancel Subscription' })).toBeTruthy();
    expect(within(card).queryByRole('button', { name: 'Upgrade Plan' })).toBeNull();
  });

  it('shows a paid plan during its trial: the plan, the trial\'s end and the first charge with the coupon, then that none will come once set to cancel', async () => {
    const paidTrial = { ...trial, plan: 'Annual' as const, trial_end: TRIAL_END, next_charge: { amount: 6014, currency: 'eur', at: TRIAL_END } };
    subscriber(paidTrial);
    const view = renderBilling('/profile');
    await waitFor(async () => expect(await currentPlan()).toBe('Annual'));
    const card = await planCard();
    expect(within(card).getByTestId('plan-trial-badge').textContent).toBe('Free Trial');
    expect(within(card).getByTestId('plan-date').textContent).toBe('Trial ends: Dec 1, 2026');
    expect(within(card).getByTestId('plan-next-charge').textContent).toBe('Next charge: €60,14 on Dec 1, 2026');
    view.unmount();

    subscriber({ ...paidTrial, cancel_at_period_end: true, next_charge: null });
    renderBilling('/profile');
    await waitFor(async () =>
      expect(within(await planCard()).getByTestId('plan-next-charge').textContent).toBe('Set to cancel on Dec 1, 2026: nothing more will be charged'),
    );
    expect(within(await planCard()).getByTestId('plan-date').textContent).toBe('Trial ends: Dec 1, 2026');
  });

  it("shows an active plan with 'Next Billing', and 'Expires' once it is set to cancel", async () => {
    subscriber({ subscription_tier: 'Annual', subscription_end: TRIAL_END, current_period_end: PERIOD_END_SECONDS });
    const view = renderBilling('/profile');
    await waitFor(async () => expect(await currentPlan()).toBe('Annual'));
    expect(within(await planCard()).getByTestId('plan-date').textContent).toBe('Next Billing: Dec 1, 2026');
    view.unmount();

    subscriber({ subscription_tier: 'Annual', subscription_end: TRIAL_END, current_period_end: PERIOD_END_SECONDS, cancel_at_period_end: true });
    renderBilling('/profile');
    await waitFor(async () => expect(within(await planCard()).getByTestId('plan-date').textContent).toBe('Expires: Dec 1, 2026'));
  });

  it('says so when the plan cannot be read, and offers neither managing nor upgrading to someone with access', async () => {
    fakeSupabase.session = sessionFor(USER_ID);
    fakeSupabase.onRpc('has_valid_access', () => ({ data: true, error: null }));
    fakeSupabase.onFunction('check-subscription', () => functionError(502, 'upstream_failed', 'Could not read your subscription; try again'));
    renderBilling('/profile');
    const card = await planCard();
    expect(await within(card).findByText('Your plan could not be loaded. Please try again later.')).toBeTruthy();
    expect(within(card).getByTestId('current-plan').textContent).toBe('—');
    expect(within(card).queryByRole('button', { name: 'Manage Subscription' })).toBeNull();
    expect(within(card).queryByRole('button', { name: 'Upgrade Plan' })).toBeNull();
  });

  it('opens our billing-portal page in a new tab, cut off from this one, and asks nothing of Stripe from this tab', async () => {
    subscriber(trial);
    const tab = { opener: window } as unknown as Window;
    const open = vi.spyOn(window, 'open').mockReturnValue(tab);
    const assign = vi.spyOn(pageNavigation, 'assign').mockImplementation(() => {});
    renderBilling('/profile');
    fireEvent.click(await within(await planCard()).findByRole('button', { name: 'Manage Subscription' }));
    expect(open).toHaveBeenCalledWith('/profile/billing-portal', '_blank');
    expect(tab.opener).toBeNull();
    expect(assign).not.toHaveBeenCalled();
    expect(fakeSupabase.functionCalls.filter((call) => call.name === 'customer-portal')).toHaveLength(0);
  });

  it('goes to the billing-portal page in this tab where the browser opens no new one', async () => {
    subscriber(trial);
    vi.spyOn(window, 'open').mockReturnValue(null);
    const assign = vi.spyOn(pageNavigation, 'assign').mockImplementation(() => {});
    renderBilling('/profile');
    fireEvent.click(await within(await planCard()).findByRole('button', { name: 'Manage Subscription' }));
    expect(assign).toHaveBeenCalledWith('/profile/billing-portal');
  });

  it("the billing-portal page asks for one portal session and goes there in place of itself", async () => {
    subscriber(trial);
    fakeSupabase.onFunction('customer-portal', () => ({ data: { url: PORTAL_URL }, error: null }));
    const replace = vi.spyOn(pageNavigation, 'replace').mockImplementation(() => {});
    renderBilling('/profile/billing-portal');
    expect(await screen.findByRole('heading', { name: 'Opening your billing portal…' })).toBeTruthy();
    await waitFor(() => expect(replace).toHaveBeenCalledWith(PORTAL_URL));
    expect(fakeSupabase.functionCalls.filter((call) => call.name === 'customer-portal')).toHaveLength(1);
  });

  it("the billing-portal page says 'Failed to open billing portal' in our words, and tries again on request", async () => {
    subscriber(trial);
    fakeSupabase.onFunction('customer-portal', () => functionError(404, 'no_billing_account', 'You have no billing account yet; start a subscription first'));
    const replace = vi.spyOn(pageNavigation, 'replace').mockImplementation(() => {});
    renderBilling('/profile/billing-portal');
    expect(await screen.findByRole('heading', { name: 'Failed to open billing portal' })).toBeTruthy();
    expect(screen.getByTestId('portal-failure').textContent).toBe('You have no billing account yet. Start a subscription first.');
    expect(screen.queryByText(/start a subscription first$/)).toBeNull();
    expect(screen.getByRole('link', { name: 'Back to your profile' }).getAttribute('href')).toBe('/profile');
    fakeSupabase.onFunction('customer-portal', () => ({ data: { url: PORTAL_URL }, error: null }));
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(replace).toHaveBeenCalledWith(PORTAL_URL));
  });

  it('cancels at the period end: the notice is kept in session storage, and the page reloads after the 5 s countdown', async () => {
    subscriber(trial);
    const reload = vi.spyOn(pageNavigation, 'reload').mockImplementation(() => {});
    fakeSupabase.onFunction('cancel-subscription', () => {
      fakeSupabase.onFunction('check-subscription', () => planAnswer({ subscribed: true, ...trial, cancel_at_period_end: true }));
      return { data: { subscription: { current_period_end: PERIOD_END_SECONDS } }, error: null };
    });
    renderBilling('/profile');
    fireEvent.click(await within(await planCard()).findByRole('button', { name: 'Cancel Subscription' }));
    const confirm = await screen.findByRole('dialog', { name: 'Cancel your subscription?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel at period end' }));

    const countdown = await screen.findByRole('dialog', { name: 'Cancellation scheduled' });
    expect(fakeSupabase.functionCalls.filter((call) => call.name === 'cancel-subscription')).toEqual([{ name: 'cancel-subscription', body: { immediate: false } }]);
    expect(within(countdown).getByText(/This page refreshes in \d s to show your plan\./)).toBeTruthy();
    expect(within(countdown).getByRole('button', { name: 'Stay here' })).toBeTruthy();
    expect(await screen.findByText('You keep full access until Dec 1, 2026.')).toBeTruthy();
    expect(storedNotice()).toEqual({ scheduled: true, endDate: TRIAL_END, immediate: false });
    expect((await screen.findByTestId('cancel-notice')).textContent).toBe('Your subscription is set to cancel on Dec 1, 2026. You keep full access until then.');

    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1), { timeout: 8000 });
  }, 15_000);

  it("cancels now from the same dialog; 'Stay here' closes the countdown without reloading", async () => {
    subscriber(trial);
    const reload = vi.spyOn(pageNavigation, 'reload').mockImplementation(() => {});
    fakeSupabase.onFunction('cancel-subscription', () => {
      fakeSupabase.onRpc('has_valid_access', () => ({ data: false, error: null }));
      fakeSupabase.onFunction('check-subscription', () => planAnswer({}));
      return { data: { subscription: { current_period_end: Math.floor(Date.now() / 1000) } }, error: null };
    });
    renderBilling('/profile');
    fireEvent.click(await within(await planCard()).findByRole('button', { name: 'Cancel Subscription' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Cancel your subscription?' })).getByRole('button', { name: 'Cancel now' }));

    const countdown = await screen.findByRole('dialog', { name: 'Subscription cancelled' });
    expect(fakeSupabase.functionCalls.filter((call) => call.name === 'cancel-subscription')[0]!.body).toEqual({ immediate: true });
    fireEvent.click(within(countdown).getByRole('button', { name: 'Stay here' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Subscription cancelled' })).toBeNull());
    await waitFor(async () => expect(await currentPlan()).toBe('Free'));
    // An immediate cancellation's notice outlives the checks that follow (they report no subscription, not cancelling).
    expect((await screen.findByTestId('cancel-notice')).textContent).toBe('Your subscription has been cancelled and your access has ended.');
    expect(storedNotice()).toMatchObject({ scheduled: false, immediate: true });
    await new Promise((resolve) => setTimeout(resolve, 6000));
    expect(reload).not.toHaveBeenCalled();
  }, 15_000);

  it("says 'Cancellation failed: Please try again.' when cancelling fails, and keeps no notice", async () => {
    subscriber(trial);
    fakeSupabase.onFunction('cancel-subscription', () => functionError(502, 'upstream_failed', 'Cancellation failed: Stripe is down'));
    renderBilling('/profile');
    fireEvent.click(await within(await planCard()).findByRole('button', { name: 'Cancel Subscription' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Cancel your subscription?' })).getByRole('button', { name: 'Cancel at period end' }));
    expect(await screen.findByText('Cancellation failed')).toBeTruthy();
    expect(await screen.findByText('Please try again.')).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Cancellation scheduled' })).toBeNull();
    expect(storedNotice()).toBeNull();
  });

  it('offers only cancelling now when the plan is already set to cancel', async () => {
    subscriber({ ...trial, cancel_at_period_end: true });
    renderBilling('/profile');
    fireEvent.click(await within(await planCard()).findByRole('button', { name: 'Cancel Subscription' }));
    const confirm = await screen.findByRole('dialog', { name: 'Cancel your subscription?' });
    expect(within(confirm).queryByRole('button', { name: 'Cancel at period end' })).toBeNull();
    expect(within(confirm).getByRole('button', { name: 'Cancel now' })).toBeTruthy();
  });
});

describe('the cancellation notice', () => {
  setUpBillingTests();

  it('is cleared when the window gets focus and the check says the plan no longer cancels', async () => {
    window.sessionStorage.setItem(CANCEL_NOTICE_STORAGE_KEY, JSON.stringify({ scheduled: true, endDate: TRIAL_END, immediate: false }));
    let answer = planAnswer({ subscribed: true, ...trial, cancel_at_period_end: true });
    subscriber(trial);
    fakeSupabase.onFunction('check-subscription', () => answer);
    renderBilling('/profile');
    await screen.findByTestId('cancel-notice');
    await waitFor(async () => expect(await currentPlan()).toBe('Free Trial'));

    // Resumed in the portal, in the other tab.
    answer = planAnswer({ subscribed: true, ...trial, cancel_at_period_end: false });
    const checks = fakeSupabase.functionCalls.length;
    act(() => void window.dispatchEvent(new Event('focus')));
    await waitFor(() => expect(screen.queryByTestId('cancel-notice')).toBeNull());
    expect(fakeSupabase.functionCalls.length).toBeGreaterThan(checks);
    expect(window.sessionStorage.getItem(CANCEL_NOTICE_STORAGE_KEY)).toBeNull();
  });

  it('appears when the tab becomes visible and the check says the plan is set to cancel', async () => {
    let answer = planAnswer({ subscribed: true, ...trial });
    subscriber(trial);
    fakeSupabase.onFunction('check-subscription', () => answer);
    renderBilling('/profile');
    await waitFor(async () => expect(await currentPlan()).toBe('Free Trial'));
    expect(screen.queryByTestId('cancel-notice')).toBeNull();

    // Cancelled in the portal, in the other tab.
    answer = planAnswer({ subscribed: true, ...trial, cancel_at_period_end: true });
    act(() => void document.dispatchEvent(new Event('visibilitychange')));
    expect((await screen.findByTestId('cancel-notice')).textContent).toBe('Your subscription is set to cancel on Dec 1, 2026. You keep full access until then.');
    expect(storedNotice()).toEqual({ scheduled: true, endDate: TRIAL_END, immediate: false });
  });

  it('is checked again after the entitlement loads, and a damaged stored notice is ignored', async () => {
    window.sessionStorage.setItem(CANCEL_NOTICE_STORAGE_KEY, '{not json');
    subscriber(trial);
    renderBilling('/profile');
    await waitFor(async () => expect(await currentPlan()).toBe('Free Trial'));
    await waitFor(() => expect(fakeSupabase.callsOf('has_valid_access').length).toBeGreaterThanOrEqual(1));
    expect(fakeSupabase.functionCalls.filter((call) => call.name === 'check-subscription').length).toBeGreaterThanOrEqual(2);
    expect(screen.queryByTestId('cancel-notice')).toBeNull();
    expect(window.sessionStorage.getItem(CANCEL_NOTICE_STORAGE_KEY)).toBeNull();
  });
});
