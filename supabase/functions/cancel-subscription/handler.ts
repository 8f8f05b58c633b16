import { z } from 'npm:zod@4';
import { billingServices } from '../_shared/billing-services.ts';
import type { BillingStore } from '../_shared/billing-store.ts';
import { corsHeaders, errorResponse, jsonResponse, readBody } from '../_shared/http.ts';
import { requireSignedInUser, type Authenticate } from '../_shared/signed-in-user.ts';
import { stripeErrorMessage, type Stripe } from '../_shared/stripe-client.ts';
import { currentPeriodEnd, subscriptionSnapshot, type SubscriptionFields } from '../_shared/subscription-snapshot.ts';

export const cancelSubscriptionBodySchema = z.object({
  immediate: z.boolean({ error: 'must be true (end now) or false (end at the period end)' }),
});

/** The Stripe calls a cancellation makes; the SDK's client satisfies it. */
export interface CancelStripe {
  subscriptions: {
    update(id: string, params: Stripe.SubscriptionUpdateParams): PromiseLike<SubscriptionFields>;
    cancel(id: string, params?: Stripe.SubscriptionCancelParams): PromiseLike<SubscriptionFields>;
  };
}

export interface CancelDependencies {
  authenticate: Authenticate;
  store: Pick<BillingStore, 'liveSubscriptionOf' | 'applyStripeEvent'>;
  stripe: CancelStripe;
}

/**
 * Cancels the caller's subscription at the end of its period (no renewal,
 * access until then) or at once. Answers `{ subscription: { current_period_end } }`
 * in Unix seconds: when access ends. The row is updated from Stripe's answer
 * right away; the webhook that follows confirms it.
 */
export function createCancelSubscriptionHandler(dependencies: () => CancelDependencies = billingServices) {
  return async (request: Request): Promise<Response> => {
    if (request.method === 'OPTIONS') return new Response('ok', { headers: corsHeaders });
    if (request.method !== 'POST') return errorResponse('method_not_allowed', 'Use POST');
    const deps = dependencies();
    const caller = await requireSignedInUser(request, deps.authenticate, 'cancel your subscription');
    if (!caller.ok) return caller.response;
    const body = await readBody(request, cancelSubscriptionBodySchema);
    if (!body.ok) return body.response;
    const live = await deps.store.liveSubscriptionOf(caller.user.id);
    if (!live) return errorResponse('no_subscription', 'You have no subscription to cancel');
    let subscription: SubscriptionFields;
    try {
      subscription = body.value.immediate
        ? await deps.stripe.subscriptions.cancel(live.stripe_subscription_id)
        : await deps.stripe.subscriptions.update(live.stripe_subscription_id, { cancel_at_period_end: true });
    } catch (error) {
      const message = stripeErrorMessage(error);
      if (message === null) throw error;
      return errorResponse('upstream_failed', `Cancellation failed: ${message}`);
    }
    try {
      await deps.store.applyStripeEvent(null, subscriptionSnapshot(subscription, caller.user.id));
    } catch (error) {
      // Stripe has cancelled; the webhook that follows writes the row.
      console.error('cancel-subscription: the row waits for the webhook:', error);
    }
    // An immediate cancel ends access now, not at the end of the period it cut short.
    const accessEnds = body.value.immediate ? (subscription.ended_at ?? Math.floor(Date.now() / 1000)) : currentPeriodEnd(subscription);
    return jsonResponse({
      subscription: { current_period_end: accessEnds, cancel_at_period_end: subscription.cancel_at_period_end, status: subscription.status },
    });
  };
}

export const handler = createCancelSubscriptionHandler();
