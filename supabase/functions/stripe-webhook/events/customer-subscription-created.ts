import type { Stripe } from '../../_shared/stripe-client.ts';
import { syncSubscription, type EventHandler } from '../webhook-context.ts';

/** A new subscription (trialing after checkout). */
export const customerSubscriptionCreated: EventHandler = async (event, context) =>
  await syncSubscription(event, (event.data.object as Stripe.Subscription).id, context);
