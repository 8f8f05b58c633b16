import { customerIdOf, type SubscriptionFields } from '../_shared/subscription-snapshot.ts';
import type { WebhookContext } from './webhook-services.ts';

/** Statuses of a subscription that never started: it gave no trial and no access, so it counts for nothing. */
const neverStarted = new Set<string>(['incomplete', 'incomplete_expired']);

/** Stripe's fingerprint of the subscription's card (the same card has the same one on every customer), if Stripe knows the card. */
export function cardFingerprintOf(subscription: Pick<SubscriptionFields, 'default_payment_method'>): string | null {
  const method = subscription.default_payment_method;
  return method && typeof method === 'object' ? (method.card?.fingerprint ?? null) : null;
}

/**
 * The trial is given once. Checkout cannot know the card in advance, so every
 * subscription that started records its account, customer and card here; a
 * trial whose holder had another subscription before is ended now (Stripe bills
 * the plan at once, as when a trial runs out). Answers the subscription as it is
 * afterwards.
 */
export async function endRepeatedTrial(subscription: SubscriptionFields, userId: string, context: WebhookContext): Promise<SubscriptionFields> {
  if (neverStarted.has(subscription.status)) return subscription;
  const hadOneBefore = await context.store.recordSubscriptionHolders({
    userId,
    customerId: customerIdOf(subscription),
    cardFingerprint: cardFingerprintOf(subscription),
    subscriptionId: subscription.id,
  });
  if (!hadOneBefore || subscription.status !== 'trialing') return subscription;
  console.warn(`stripe-webhook: subscription ${subscription.id} is a second trial for its account, customer or card; ending the trial now`);
  // One request however many events race here: Stripe answers a repeated key with the first answer.
  return await context.stripe.subscriptions.update(subscription.id, { trial_end: 'now' }, { idempotencyKey: `end-repeated-trial-${subscription.id}` });
}
