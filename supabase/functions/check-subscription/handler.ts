import { createClient } from 'npm:@supabase/supabase-js@2.109.0';
import { billingServices } from '../_shared/billing-services.ts';
import { corsHeaders, errorResponse, jsonResponse } from '../_shared/http.ts';
import { requireSignedInUser, type Authenticate } from '../_shared/signed-in-user.ts';
import { subscriptionStatus, type StoredSubscription } from './subscription-status.ts';

/** What the caller may read about themselves, read as the caller so row-level security decides. */
export type ReadOwnEntitlement = (accessToken: string) => Promise<{ validAccess: boolean; rows: StoredSubscription[]; trialEligible: boolean }>;

export interface CheckSubscriptionDependencies {
  authenticate: Authenticate;
  readOwnEntitlement: ReadOwnEntitlement;
}

function readOwnEntitlementAt(supabaseUrl: string, anonKey: string): ReadOwnEntitlement {
  return async (accessToken) => {
    const client = createClient(supabaseUrl, anonKey, {
      global: { headers: { Authorization: `Bearer ${accessToken}` } },
      auth: { persistSession: false, autoRefreshToken: false },
    });
    const [access, rows, trial] = await Promise.all([
      client.rpc('has_valid_access'),
      client.from('subscriptions').select('status, tier, current_period_end, cancel_at_period_end, trial_end'),
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
  return { authenticate: services.authenticate, readOwnEntitlement: readOwnEntitlementAt(services.supabaseUrl, services.anonKey) };
};

/**
 * The caller's entitlement from the subscriptions table (written by the
 * stripe-webhook function): `{ subscribed, subscription_tier, subscription_end,
 * cancel_at_period_end, current_period_end, trial_eligible }`; trial_eligible
 * says whether a checkout would now come with the 7-day trial.
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
      return jsonResponse({ ...subscriptionStatus(validAccess, rows), trial_eligible: trialEligible });
    } catch (error) {
      console.error('check-subscription:', error);
      return errorResponse('upstream_failed', 'Could not read your subscription; try again');
    }
  };
}

export const handler = createCheckSubscriptionHandler();
