import { checkoutSessionCompleted } from './events/checkout-session-completed.ts';
import { customerSubscriptionCreated } from './events/customer-subscription-created.ts';
import { customerSubscriptionDeleted } from './events/customer-subscription-deleted.ts';
import { customerSubscriptionTrialWillEnd } from './events/customer-subscription-trial-will-end.ts';
import { customerSubscriptionUpdated } from './events/customer-subscription-updated.ts';
import { invoicePaid } from './events/invoice-paid.ts';
import { invoicePaymentFailed } from './events/invoice-payment-failed.ts';
import type { EventHandler } from './webhook-context.ts';

/** The allow-list: every event type the product acts on, and the file that handles it. Others are acknowledged and ignored. */
export const handledEvents: Readonly<Record<string, EventHandler>> = {
  'checkout.session.completed': checkoutSessionCompleted,
  'customer.subscription.created': customerSubscriptionCreated,
  'customer.subscription.updated': customerSubscriptionUpdated,
  'customer.subscription.deleted': customerSubscriptionDeleted,
  'customer.subscription.trial_will_end': customerSubscriptionTrialWillEnd,
  'invoice.paid': invoicePaid,
  'invoice.payment_failed': invoicePaymentFailed,
};

export const isHandledEvent = (type: string): boolean => Object.hasOwn(handledEvents, type);
