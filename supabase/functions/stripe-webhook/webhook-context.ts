import type { ApplyOutcome, StripeEventStamp } from '../_shared/billing-store.ts';
import type { Stripe } from '../_shared/stripe-client.ts';
import { customerIdOf, subscriptionSnapshot, type SubscriptionFields } from '../_shared/subscription-snapshot.ts';
import { endRepeatedTrial } from './trial-once.ts';
import type { WebhookContext } from './webhook-services.ts';

/** What one event type does with a verified event of its type. */
export type EventHandler = (event: Stripe.Event, context: WebhookContext) => Promise<ApplyOutcome>;

export const stampOf = (event: Stripe.Event): StripeEventStamp => ({ id: event.id, type: event.type, created: event.created });

/** The user a subscription belongs to: the linked customer's, else the user id the checkout wrote into Stripe. */
async function userIdOf(subscription: SubscriptionFields, context: WebhookContext, hint: string | null): Promise<string | null> {
  const customerId = customerIdOf(subscription);
  const linked = await context.store.userIdOfCustomer(customerId);
  if (linked) return linked;
  if (subscription.metadata?.user_id) return subscription.metadata.user_id;
  if (hint) return hint;
  const customer = await context.stripe.customers.retrieve(customerId);
  return customer.deleted ? null : (customer.metadata?.user_id ?? null);
}

/**
 * Applies the subscription as Stripe has it now, not as the event carried it:
 * events come late, twice and out of order, the current state does not. A
 * trial whose account, customer or card had a subscription before is ended
 * first, and the state after that is what is applied.
 */
export async function syncSubscription(
  event: Stripe.Event,
  subscriptionId: string,
  context: WebhookContext,
  userIdHint: string | null = null,
): Promise<ApplyOutcome> {
  const retrieved = await context.stripe.subscriptions.retrieve(subscriptionId, { expand: ['default_payment_method'] });
  const userId = await userIdOf(retrieved, context, userIdHint);
  if (!userId) {
    console.warn(`stripe-webhook: no user for subscription ${subscriptionId}; event ${event.id} recorded only`);
    return await context.store.applyStripeEvent(stampOf(event), null);
  }
  const subscription = await endRepeatedTrial(retrieved, userId, context);
  return await context.store.applyStripeEvent(stampOf(event), subscriptionSnapshot(subscription, userId));
}

export const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === 'string' ? value : value.id;
