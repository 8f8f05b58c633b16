import type { Stripe } from '../../_shared/stripe-client.ts';
import { syncSubscription, type EventHandler } from '../webhook-context.ts';

/** Any change: trial to active, renewal, cancel at period end or resumed, plan switched. */
export const customerSubscriptionUpdated: EventHandler = async (event, context) =>
  await syncSubscription(event, (event.data.object as Stripe.Subscription).id, context);
