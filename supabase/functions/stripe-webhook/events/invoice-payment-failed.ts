import type { Stripe } from '../../_shared/stripe-client.ts';
import { stampOf, syncSubscription, type EventHandler } from '../webhook-context.ts';
import { subscriptionIdOfInvoice } from './invoice-subscription.ts';

/** A failed payment: the subscription turns past_due and stops granting access. */
export const invoicePaymentFailed: EventHandler = async (event, context) => {
  const subscriptionId = subscriptionIdOfInvoice(event.data.object as Stripe.Invoice);
  if (!subscriptionId) return await context.store.applyStripeEvent(stampOf(event), null);
  return await syncSubscription(event, subscriptionId, context);
};
