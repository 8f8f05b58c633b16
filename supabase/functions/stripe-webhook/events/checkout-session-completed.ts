import type { Stripe } from '../../_shared/stripe-client.ts';
import { idOf, stampOf, syncSubscription, type EventHandler } from '../webhook-context.ts';

/** A finished checkout: the subscription it started, for the user who started it. */
export const checkoutSessionCompleted: EventHandler = async (event, context) => {
  const session = event.data.object as Stripe.Checkout.Session;
  const subscriptionId = session.mode === 'subscription' ? idOf(session.subscription) : null;
  if (!subscriptionId) return await context.store.applyStripeEvent(stampOf(event), null);
  return await syncSubscription(event, subscriptionId, context, session.client_reference_id ?? session.metadata?.user_id ?? null);
};
