import { billingServices } from '../_shared/billing-services.ts';
import type { BillingEnv } from '../_shared/billing-env.ts';
import type { BillingStore } from '../_shared/billing-store.ts';
import { corsHeaders, errorResponse, jsonResponse } from '../_shared/http.ts';
import { requireSignedInUser, type Authenticate } from '../_shared/signed-in-user.ts';
import { stripeErrorMessage, type Stripe } from '../_shared/stripe-client.ts';

/** The Stripe call the portal makes; the SDK's client satisfies it. */
export interface PortalStripe {
  billingPortal: { sessions: { create(params: Stripe.BillingPortal.SessionCreateParams): PromiseLike<{ url: string }> } };
}

export interface PortalDependencies {
  env: Pick<BillingEnv, 'siteUrl'>;
  authenticate: Authenticate;
  store: Pick<BillingStore, 'customerIdOf'>;
  stripe: PortalStripe;
}

/** Opens Stripe's billing portal for the caller's customer; answers `{ url }`. It returns to /profile. */
export function createCustomerPortalHandler(dependencies: () => PortalDependencies = billingServices) {
  return async (request: Request): Promise<Response> => {
    if (request.method === 'OPTIONS') return new Response('ok', { headers: corsHeaders });
    if (request.method !== 'POST' && request.method !== 'GET') return errorResponse('method_not_allowed', 'Use POST or GET');
    const deps = dependencies();
    const caller = await requireSignedInUser(request, deps.authenticate, 'manage your subscription');
    if (!caller.ok) return caller.response;
    const customer = await deps.store.customerIdOf(caller.user.id);
    if (!customer) return errorResponse('no_billing_account', 'You have no billing account yet; start a subscription first');
    try {
      const session = await deps.stripe.billingPortal.sessions.create({ customer, return_url: `${deps.env.siteUrl}/profile` });
      return jsonResponse({ url: session.url });
    } catch (error) {
      const message = stripeErrorMessage(error);
      if (message === null) throw error;
      return errorResponse('upstream_failed', `Failed to open billing portal: ${message}`);
    }
  };
}

export const handler = createCustomerPortalHandler();
