import { createClient } from 'npm:@supabase/supabase-js@2.109.0';
import { billingServices } from '../_shared/billing-services.ts';
import { corsHeaders, errorResponse, jsonResponse } from '../_shared/http.ts';
import { requireSignedInUser, type Authenticate } from '../_shared/signed-in-user.ts';
import { grantingSubscription, nextChargeAt, subscriptionStatus, type NextCharge, type StoredSubscription } from './subscription-status.ts';

/** What the caller may read about themselves, read as the caller so row-level security decides. */
export type ReadOwnEntitlement = (accessToken: string) => Promise<{ validAccess: boolean; rows: StoredSubscription[]; trialEligible: boolean }>;

/** The amount of a subscription's next invoice, as Stripe previews it (coupon included); null when Stripe has none. */
export type PreviewNextInvoice = (stripeSubscriptionId: string) => Promise<{ amount: number; currency: string } | null>;

export interface CheckSubscriptionDependencies {
  authenticate: Authenticate;
  readOwnEntitlement: ReadOwnEntitlement;
  previewNextInvoice: PreviewNextInvoice;
}

function readOwnEntitlementAt(supabaseUrl: string, anonKey: string): ReadOwnEntitlement {
  return async (accessToken) => {
    const client = createClient(supabaseUrl, anonKey, {
      global: { headers: { Authorization: `Bearer ${accessToken}` } },
      auth: { persistSession: false, autoRefreshToken: false },
    });
    const [access, rows, trial] = await Promise.all([
      client.rpc('has_valid_access'),
      client.from('subscriptions').select('stripe_subscription_id, status, tier, current_period_end, cancel_at_period_end, trial_end'),
      client.rpc('trial_available'),
    ]);
    if (access.error) throw new Error(`has_valid_access failed: ${access.error.message}`);
    if (rows.error) throw new Error(`Reading subscriptions failed: ${rows.error.message}`);
    if (trial.error) throw new Error(`trial_available failed: ${trial.error.message}`);
    return { validAccess: access.data === true, rows: (rows.data ?? []) as StoredSubscription[], trialEligible: trial.data === true };
  };
}

const defaultDependencies = (): CheckSubscriptionDependencies => {
  const services = billingServices();
  return {
    authenticate: services.authenticate,
    readOwnEntitlement: readOwnEntitlementAt(services.supabaseUrl, services.anonKey),
    previewNextInvoice: async (subscription) => {
      const invoice = await services.stripe.invoices.createPreview({ subscription });
      return { amount: invoice.amount_due, currency: invoice.currency };
    },
  };
};

/** The next charge of the row that grants access; a failed preview only leaves the amount out of the answer. */
async function nextChargeOf(rows: StoredSubscription[], preview: PreviewNextInvoice): Promise<NextCharge | null> {
  const granting = grantingSubscription(rows);
  const at = granting ? nextChargeAt(granting) : null;
  if (!granting || at === null) return null;
  try {
    const amount = await preview(granting.stripe_subscription_id);
    return amount === null ? null : { ...amount, at };
  } catch (error) {
    console.error('check-subscription: previewing the next invoice failed:', error);
    return null;
  }
}

/**
 * The caller's entitlement from the subscriptions table (written by the
 * stripe-webhook function): `{ subscribed, subscription_tier, subscription_end,
 * cancel_at_period_end, current_period_end, plan, trial_end, next_charge,
 * trial_eligible }`; trial_eligible says whether a checkout would now come with
 * the 7-day trial, next_charge what Stripe will charge next (coupon included).
 */
export function createCheckSubscriptionHandler(dependencies: () => CheckSubscriptionDependencies = defaultDependencies) {
  return async (request: Request): Promise<Response> => {
    if (request.method === 'OPTIONS') return new Response('ok', { headers: corsHeaders });
    if (request.method !== 'POST' && request.method !== 'GET') return errorResponse('method_not_allowed', 'Use POST or GET');
    const deps = dependencies();
    const caller = await requireSignedInUser(request, deps.authenticate, 'check your subscription');
    if (!caller.ok) return caller.response;
    try {
      const { validAccess, rows, trialEligible } = await deps.readOwnEntitlement(caller.accessToken);
      const nextCharge = validAccess ? await nextChargeOf(rows, deps.previewNextInvoice) : null;
      return jsonResponse({ ...subscriptionStatus(validAccess, rows, Date.now(), nextCharge), trial_eligible: trialEligible });
    } catch (error) {
      console.error('check-subscription:', error);
      return errorResponse('upstream_failed', 'Could not read your subscription; try again');
    }
  };
}

export const handler = createCheckSubscriptionHandler();
