import type { Stripe } from '../../_shared/stripe-client.ts';
import { syncSubscription, type EventHandler } from '../webhook-context.ts';

/** The subscription ended (period end after a cancel, an immediate cancel, a trial without card). */
export const customerSubscriptionDeleted: EventHandler = async (event, context) =>
  await syncSubscription(event, (event.data.object as Stripe.Subscription).id, context);
