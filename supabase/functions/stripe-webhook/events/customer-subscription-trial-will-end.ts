import type { Stripe } from '../../_shared/stripe-client.ts';
import { syncSubscription, type EventHandler } from '../webhook-context.ts';

/** Three days before the trial ends; the state is refreshed, nothing else changes. */
export const customerSubscriptionTrialWillEnd: EventHandler = async (event, context) =>
  await syncSubscription(event, (event.data.object as Stripe.Subscription).id, context);
