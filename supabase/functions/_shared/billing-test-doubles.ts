// In-memory stand-ins for the billing functions' tests: the auth service, the
// billing tables (with apply_stripe_event's contract) and Stripe's answers.
import type { ApplyOutcome, BillingStore, LiveSubscription, StripeEventStamp, SubscriptionHolders } from './billing-store.ts';
import type { SignedInUser } from './signed-in-user.ts';
import type { SubscriptionFields, SubscriptionSnapshot } from './subscription-snapshot.ts';

export const alice: SignedInUser = { id: '11111111-1111-4111-8111-111111111111', email: 'alice@example.test' };
export const bob: SignedInUser = { id: '22222222-2222-4222-8222-222222222222', email: 'bob@example.test' };

/** Tokens 'alice-token' and 'bob-token' are valid; every other token is refused. */
export const authenticateKnownUsers = async (token: string): Promise<SignedInUser | null> =>
  ({ 'alice-token': alice, 'bob-token': bob })[token] ?? null;

interface StoredRow extends SubscriptionSnapshot {
  stripe_event_created: number;
}

/** The billing tables in memory, keeping apply_stripe_event's promises: one application per event id, never an older state over a newer one. */
export class MemoryBillingStore implements BillingStore {
  customers = new Map<string, string>();
  subscriptions = new Map<string, StoredRow>();
  processedEvents = new Map<string, string>();
  users = new Set<string>([alice.id, bob.id]);
  /** subscription_holders: 'account:<user>', 'customer:<cus>' or 'card:<fingerprint>' → the first subscription that used it. */
  holders = new Map<string, string>();

  async customerIdOf(userId: string) {
    return this.customers.get(userId) ?? null;
  }
  async linkCustomer(userId: string, customerId: string) {
    if (!this.customers.has(userId)) this.customers.set(userId, customerId);
    return this.customers.get(userId)!;
  }
  async userIdOfCustomer(customerId: string) {
    return [...this.customers].find(([, customer]) => customer === customerId)?.[0] ?? null;
  }
  async liveSubscriptionOf(userId: string): Promise<LiveSubscription | null> {
    const live = [...this.subscriptions.values()]
      .filter((row) => row.user_id === userId && row.status !== 'canceled' && row.status !== 'incomplete_expired')
      .sort((a, b) => (b.current_period_end ?? 0) - (a.current_period_end ?? 0))[0];
    return live ? { stripe_subscription_id: live.stripe_subscription_id, status: live.status, cancel_at_period_end: live.cancel_at_period_end } : null;
  }
  async isEventProcessed(eventId: string) {
    return this.processedEvents.has(eventId);
  }
  async trialAvailableFor(userId: string, customerId: string | null) {
    const customers = [customerId, this.customers.get(userId)].filter((id): id is string => !!id);
    const subscribed = [...this.subscriptions.values()].some((row) => row.user_id === userId && row.status !== 'incomplete' && row.status !== 'incomplete_expired');
    return !subscribed && !this.holders.has(`account:${userId}`) && !customers.some((id) => this.holders.has(`customer:${id}`));
  }
  async recordSubscriptionHolders(holders: SubscriptionHolders) {
    const keys = [`account:${holders.userId}`, `customer:${holders.customerId}`, ...(holders.cardFingerprint ? [`card:${holders.cardFingerprint}`] : [])];
    for (const key of keys) if (!this.holders.has(key)) this.holders.set(key, holders.subscriptionId);
    return keys.some((key) => this.holders.get(key) !== holders.subscriptionId);
  }
  /** take_coupon_preview's rule in memory: 10 a user and 30 an address, in a window the tests do not outlast. */
  couponPreviews: Array<{ userId: string; address: string }> = [];
  async takeCouponPreview(userId: string, address: string) {
    const byUser = this.couponPreviews.filter((preview) => preview.userId === userId).length;
    const byAddress = this.couponPreviews.filter((preview) => preview.address === address).length;
    if (byUser >= 10 || byAddress >= 30) return 600;
    this.couponPreviews.push({ userId, address });
    return null;
  }
  async applyStripeEvent(event: StripeEventStamp | null, snapshot: SubscriptionSnapshot | null): Promise<ApplyOutcome> {
    if (event) {
      if (this.processedEvents.has(event.id)) return 'duplicate';
      this.processedEvents.set(event.id, event.type);
    }
    if (!snapshot) return 'recorded';
    if (!this.users.has(snapshot.user_id)) return 'unknown_user';
    if (!this.customers.has(snapshot.user_id)) this.customers.set(snapshot.user_id, snapshot.stripe_customer_id);
    const stored = this.subscriptions.get(snapshot.stripe_subscription_id);
    if (event && stored && stored.stripe_event_created > event.created) return 'stale';
    this.subscriptions.set(snapshot.stripe_subscription_id, {
      ...snapshot,
      user_id: stored?.user_id ?? snapshot.user_id,
      stripe_event_created: Math.max(stored?.stripe_event_created ?? 0, event?.created ?? 0),
    });
    return 'applied';
  }
}

/** A Stripe subscription as the API answers it (version 2025-03-31 and later: the period is on the item). */
export function stripeSubscription(fields: Partial<Omit<SubscriptionFields, 'items'>> & { priceId?: string; interval?: 'month' | 'year'; periodEnd?: number } = {}): SubscriptionFields {
  const { priceId = 'price_obyect_monthly', interval = 'month', periodEnd = 1_900_000_000, ...rest } = fields;
  return {
    id: 'sub_1',
    status: 'trialing',
    cancel_at_period_end: false,
    trial_end: periodEnd,
    ended_at: null,
    metadata: {},
    customer: 'cus_alice',
    items: { data: [{ current_period_end: periodEnd, price: { id: priceId, recurring: { interval } } }] },
    ...rest,
  };
}

/** A JSON request as supabase-js functions.invoke sends it. */
export function postJson(url: string, body: unknown, token: string | null = 'alice-token', headers: Record<string, string> = {}): Request {
  return new Request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** JSON with object keys sorted, so that equal values print alike. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, inner) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : inner,
  );

export function assertEquals(actual: unknown, expected: unknown, what = 'value'): void {
  if (canonical(actual) !== canonical(expected)) throw new Error(`Expected ${what} ${canonical(expected)}, got ${canonical(actual)}`);
}
