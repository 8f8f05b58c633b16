import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { cleanup, render } from '@testing-library/react';
import { createMemoryRouter, Outlet, RouterProvider, useLocation } from 'react-router-dom';
import { toast } from 'sonner';
import { afterEach, beforeEach, vi } from 'vitest';
import { Toaster } from '../../../src/components/ui/toaster.tsx';
import { SessionProvider } from '../../../src/lib/auth-session.tsx';
import { EntitlementProvider } from '../../../src/features/billing/hooks/use-entitlement.tsx';
import { PricingDialogProvider } from '../../../src/features/billing/hooks/use-pricing-dialog.tsx';
import { ProfileSubscriptionCard } from '../../../src/app/routes/profile-subscription-card.tsx';
import { BillingPortalPage } from '../../../src/app/routes/profile-billing-portal.tsx';
import { UpgradePlanButton } from '../../../src/features/billing/components/upgrade-plan-button.tsx';
import { useUpgradeFlow } from '../../../src/features/billing/hooks/use-upgrade-flow.ts';
import { fakeSupabase } from '../support/fake-supabase.ts';

/** The providers the app root gives every page, without the app shell. */
function BillingRoot() {
  return (
    <SessionProvider>
      <EntitlementProvider>
        <PricingDialogProvider>
          <Outlet />
          <Toaster />
        </PricingDialogProvider>
      </EntitlementProvider>
    </SessionProvider>
  );
}

/** Where the router is, for assertions on redirects. */
function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{`${location.pathname}${location.search}${location.hash}`}</output>;
}

function PlansPage() {
  const startUpgrade = useUpgradeFlow();
  return (
    <main>
      <LocationProbe />
      <button type="button" onClick={startUpgrade}>
        See plans
      </button>
      <UpgradePlanButton />
    </main>
  );
}

function ProfilePage() {
  return (
    <main>
      <LocationProbe />
      <ProfileSubscriptionCard />
    </main>
  );
}

/**
 * The billing parts inside the app's real providers (session, entitlement,
 * the global pricing dialog, toasts) on a memory router: /library and /terms
 * hold a page with the upgrade flow, /profile the Subscription Plan card,
 * /profile/billing-portal the page Manage Subscription opens.
 */
export function renderBilling(url: string) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 60_000 } } });
  const [pathname, search = ''] = url.split('?');
  const router = createMemoryRouter(
    [
      {
        element: <BillingRoot />,
        children: [
          { path: '/library', element: <PlansPage /> },
          { path: '/profile', element: <ProfilePage /> },
          { path: '/profile/billing-portal', element: <BillingPortalPage /> },
          { path: '*', element: <LocationProbe /> },
        ],
      },
    ],
    { initialEntries: [{ pathname: pathname!, search: search ? `?${search}` : '' }] },
  );
  const view = render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </StrictMode>,
  );
  return { ...view, router, queryClient, currentUrl: () => `${router.state.location.pathname}${router.state.location.search}` };
}

/** A clean fake backend per test: a signed-out visitor without access unless the test says otherwise. */
export function setUpBillingTests() {
  beforeEach(() => {
    fakeSupabase.reset();
    fakeSupabase.onRpc('has_valid_access', () => ({ data: false, error: null }));
    window.localStorage.clear();
    window.sessionStorage.clear();
  });
  afterEach(() => {
    // Toasts live in sonner's module state: none may carry over into the next test.
    toast.dismiss();
    cleanup();
    vi.restoreAllMocks();
    vi.useRealTimers();
  });
}

/** check-subscription's answer for a plan. */
export function planAnswer(
  plan: Partial<{
    subscribed: boolean;
    subscription_tier: string;
    subscription_end: string | null;
    cancel_at_period_end: boolean;
    current_period_end: number | null;
    trial_eligible: boolean;
    plan: 'Monthly' | 'Annual' | null;
    trial_end: string | null;
    next_charge: { amount: number; currency: string; at: string } | null;
  }>,
) {
  return {
    data: { subscribed: false, subscription_tier: 'Free', subscription_end: null, cancel_at_period_end: false, current_period_end: null, trial_eligible: false, ...plan },
    error: null,
  };
}

/** A function's error as supabase-js reports it: the response with the function's `{ error: { code, message } }`. */
export function functionError(status: number, code: string, message: string) {
  return {
    data: null,
    error: Object.assign(new Error('Edge Function returned a non-2xx status code'), {
      context: new Response(JSON.stringify({ error: { code, message } }), { status, headers: { 'content-type': 'application/json' } }),
    }),
  };
}
