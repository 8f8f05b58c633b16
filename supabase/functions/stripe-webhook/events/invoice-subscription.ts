import type { Stripe } from '../../_shared/stripe-client.ts';
import { idOf } from '../webhook-context.ts';

/** The subscription an invoice bills, if any (since API version 2025-03-31 under parent.subscription_details). */
export const subscriptionIdOfInvoice = (invoice: Stripe.Invoice): string | null =>
  idOf(invoice.parent?.subscription_details?.subscription ?? null);
