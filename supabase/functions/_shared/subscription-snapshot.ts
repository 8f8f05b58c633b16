import type { Stripe } from './stripe-client.ts';

/** A subscription as public.apply_stripe_event stores it (times in Unix seconds). */
export interface SubscriptionSnapshot {
  user_id: string;
  stripe_customer_id: string;
  stripe_subscription_id: string;
  status: Stripe.Subscription.Status;
  tier: 'monthly' | 'annual';
  price_id: string;
  current_period_end: number | null;
  cancel_at_period_end: boolean;
  trial_end: number | null;
}

/** The parts of a Stripe subscription the product reads. */
export type SubscriptionFields = Pick<
  Stripe.Subscription,
  'id' | 'status' | 'cancel_at_period_end' | 'trial_end' | 'metadata' | 'ended_at'
> & {
  customer: string | { id: string };
  /** The card the subscription charges: an id, or the payment method when retrieved with expand[]=default_payment_method. */
  default_payment_method?: string | { id: string; card?: { fingerprint?: string | null } | null } | null;
  items: { data: { current_period_end: number; price: { id: string; recurring: { interval: string } | null } }[] };
};

export const customerIdOf = (subscription: Pick<SubscriptionFields, 'customer'>) =>
  typeof subscription.customer === 'string' ? subscription.customer : subscription.customer.id;

/**
 * Since API version 2025-03-31 the period lives on the items; a subscription
 * of the product has one item, and the latest end is the period's end.
 */
export function currentPeriodEnd(subscription: Pick<SubscriptionFields, 'items'>): number | null {
  const ends = subscription.items.data.map((item) => item.current_period_end).filter((end) => Number.isFinite(end));
  return ends.length > 0 ? Math.max(...ends) : null;
}

export function subscriptionSnapshot(subscription: SubscriptionFields, userId: string): SubscriptionSnapshot {
  const item = subscription.items.data[0];
  if (!item) throw new Error(`Subscription ${subscription.id} has no items`);
  return {
    user_id: userId,
    stripe_customer_id: customerIdOf(subscription),
    stripe_subscription_id: subscription.id,
    status: subscription.status,
    // The plan's interval decides the tier, so a renamed or re-created price keeps working.
    tier: item.price.recurring?.interval === 'year' ? 'annual' : 'monthly',
    price_id: item.price.id,
    current_period_end: currentPeriodEnd(subscription),
    cancel_at_period_end: subscription.cancel_at_period_end,
    trial_end: subscription.trial_end,
  };
}
