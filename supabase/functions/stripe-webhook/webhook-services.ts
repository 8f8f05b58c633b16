import type { BillingStore } from '../_shared/billing-store.ts';
import type { Stripe } from '../_shared/stripe-client.ts';
import type { SubscriptionFields } from '../_shared/subscription-snapshot.ts';

/** The Stripe calls the webhook makes; the SDK's client satisfies it. */
export interface WebhookStripe {
  subscriptions: {
    retrieve(id: string, params?: Stripe.SubscriptionRetrieveParams): PromiseLike<SubscriptionFields>;
    update(id: string, params: Stripe.SubscriptionUpdateParams, options?: Stripe.RequestOptions): PromiseLike<SubscriptionFields>;
  };
  customers: { retrieve(id: string): PromiseLike<{ deleted?: boolean | void; metadata?: Record<string, string> }> };
}

/** What every event handler is given: the Stripe calls and the billing store. */
export interface WebhookContext {
  stripe: WebhookStripe;
  store: Pick<BillingStore, 'userIdOfCustomer' | 'applyStripeEvent' | 'recordSubscriptionHolders'>;
}
