import { createClient, type SupabaseClient } from 'npm:@supabase/supabase-js@2.109.0';
import type { SubscriptionSnapshot } from './subscription-snapshot.ts';

export type ApplyOutcome = 'applied' | 'stale' | 'duplicate' | 'recorded' | 'unknown_user';

export interface StripeEventStamp {
  id: string;
  type: string;
  created: number;
}

/** A subscription of the user that has not ended, as stored. */
export interface LiveSubscription {
  stripe_subscription_id: string;
  status: string;
  cancel_at_period_end: boolean;
}

/** A subscription that started, with what identifies who holds it (public.record_subscription_holders). */
export interface SubscriptionHolders {
  userId: string;
  customerId: string;
  /** Stripe's fingerprint of the subscription's card; null when it has none (yet). */
  cardFingerprint: string | null;
  subscriptionId: string;
}

/** The billing tables, written as the service role (users may only read their own subscriptions). */
export interface BillingStore {
  customerIdOf(userId: string): Promise<string | null>;
  /** Links the user to the customer unless they have one; answers the customer they have now. */
  linkCustomer(userId: string, customerId: string): Promise<string>;
  userIdOfCustomer(customerId: string): Promise<string | null>;
  liveSubscriptionOf(userId: string): Promise<LiveSubscription | null>;
  isEventProcessed(eventId: string): Promise<boolean>;
  /** Whether the user (with this customer) may still have the 7-day trial: never after a trial or subscription of the account or customer. */
  trialAvailableFor(userId: string, customerId: string | null): Promise<boolean>;
  /** Records the subscription's account, customer and card; answers whether any of them had another subscription before. */
  recordSubscriptionHolders(holders: SubscriptionHolders): Promise<boolean>;
  /** Counts a coupon preview of the user from the address: null when allowed, else the seconds to wait (public.take_coupon_preview). */
  takeCouponPreview(userId: string, address: string): Promise<number | null>;
  /** Records the event and applies the snapshot in one statement (public.apply_stripe_event). */
  applyStripeEvent(event: StripeEventStamp | null, snapshot: SubscriptionSnapshot | null): Promise<ApplyOutcome>;
}

/** Statuses Stripe does not come back from: such a subscription is over. */
export const endedStatuses = ['canceled', 'incomplete_expired'] as const;

const failure = (what: string, error: { message: string }) => new Error(`${what}: ${error.message}`);

export function createBillingStore(supabaseUrl: string, serviceRoleKey: string): BillingStore {
  const db: SupabaseClient = createClient(supabaseUrl, serviceRoleKey, { auth: { persistSession: false, autoRefreshToken: false } });
  return {
    async customerIdOf(userId) {
      const { data, error } = await db.from('billing_customers').select('stripe_customer_id').eq('user_id', userId).maybeSingle();
      if (error) throw failure('Reading the billing customer failed', error);
      return (data as { stripe_customer_id: string } | null)?.stripe_customer_id ?? null;
    },
    async linkCustomer(userId, customerId) {
      const { data, error } = await db.rpc('link_billing_customer', { p_user_id: userId, p_stripe_customer_id: customerId });
      if (error) throw failure('Linking the billing customer failed', error);
      return data as string;
    },
    async userIdOfCustomer(customerId) {
      const { data, error } = await db.from('billing_customers').select('user_id').eq('stripe_customer_id', customerId).maybeSingle();
      if (error) throw failure('Reading the billing customer failed', error);
      return (data as { user_id: string } | null)?.user_id ?? null;
    },
    async liveSubscriptionOf(userId) {
      const { data, error } = await db
        .from('subscriptions')
        .select('stripe_subscription_id, status, cancel_at_period_end')
        .eq('user_id', userId)
        .not('status', 'in', `(${endedStatuses.join(',')})`)
        .order('current_period_end', { ascending: false, nullsFirst: false })
        .limit(1);
      if (error) throw failure('Reading the subscription failed', error);
      return ((data as LiveSubscription[] | null) ?? [])[0] ?? null;
    },
    async isEventProcessed(eventId) {
      const { data, error } = await db.from('processed_webhook_events').select('event_id').eq('event_id', eventId).maybeSingle();
      if (error) throw failure('Reading the processed events failed', error);
      return data !== null;
    },
    async trialAvailableFor(userId, customerId) {
      const { data, error } = await db.rpc('trial_available_for', { p_user_id: userId, p_stripe_customer_id: customerId });
      if (error) throw failure('Reading the trial eligibility failed', error);
      return data === true;
    },
    async recordSubscriptionHolders(holders) {
      const { data, error } = await db.rpc('record_subscription_holders', {
        p_user_id: holders.userId,
        p_stripe_customer_id: holders.customerId,
        p_card_fingerprint: holders.cardFingerprint,
        p_stripe_subscription_id: holders.subscriptionId,
      });
      if (error) throw failure('Recording the subscription holders failed', error);
      return data === true;
    },
    async takeCouponPreview(userId, address) {
      const { data, error } = await db.rpc('take_coupon_preview', { p_user_id: userId, p_address: address });
      if (error) throw failure('Counting the coupon preview failed', error);
      return typeof data === 'number' ? data : null;
    },
    async applyStripeEvent(event, snapshot) {
      const { data, error } = await db.rpc('apply_stripe_event', {
        p_event_id: event?.id ?? null,
        p_event_type: event?.type ?? null,
        p_event_created: event?.created ?? null,
        p_subscription: snapshot,
      });
      if (error) throw failure('Applying the Stripe event failed', error);
      return data as ApplyOutcome;
    },
  };
}
