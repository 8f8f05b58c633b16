/** A subscription row as the user reads it through the API (timestamps as ISO text). */
export interface StoredSubscription {
  stripe_subscription_id: string;
  status: string;
  tier: 'monthly' | 'annual';
  current_period_end: string | null;
  cancel_at_period_end: boolean;
  trial_end: string | null;
}

export type SubscriptionTier = 'Free' | 'Free Trial' | 'Monthly' | 'Annual';

/** check-subscription's answer, as the spec names it. */
export interface SubscriptionStatus {
  subscribed: boolean;
  subscription_tier: SubscriptionTier;
  /** When access ends or renews, as ISO text; null without a subscription. */
  subscription_end: string | null;
  cancel_at_period_end: boolean;
  /** Unix seconds. */
  current_period_end: number | null;
  /** The plan bought, also during its trial (subscription_tier then says 'Free Trial'); null without a subscription. */
  plan: 'Monthly' | 'Annual' | null;
  /** When the trial ends, as ISO text; null outside a trial. */
  trial_end: string | null;
  /** What the card will be charged next and when (coupon included); null when nothing will be charged. */
  next_charge: NextCharge | null;
}

export interface NextCharge {
  /** In the currency's smallest unit (cents). */
  amount: number;
  currency: string;
  /** ISO text. */
  at: string;
}

const GRACE_MS = 2 * 86_400_000;
const time = (text: string | null) => (text === null ? Infinity : Date.parse(text));

/** Until when a row grants access: the rule of private.subscription_grants_access, so the row shown is the one that counts. */
export function accessUntil(row: StoredSubscription): number {
  if (row.status === 'trialing') return time(row.trial_end ?? row.current_period_end);
  if (row.status === 'active') return time(row.current_period_end) + (row.cancel_at_period_end ? 0 : GRACE_MS);
  return -Infinity;
}

/**
 * The answer for a caller: `subscribed` is the database's has_valid_access()
 * (admins included); the tier and dates come from the row that grants access.
 */
export function grantingSubscription(rows: StoredSubscription[], now = Date.now()): StoredSubscription | undefined {
  return rows.filter((row) => accessUntil(row) > now).sort((a, b) => accessUntil(b) - accessUntil(a))[0];
}

/** When the next charge of a row falls: the trial's end during a trial, else the period's end; null when it will not renew. */
export function nextChargeAt(row: StoredSubscription): string | null {
  if (row.cancel_at_period_end || (row.status !== 'trialing' && row.status !== 'active')) return null;
  const at = row.status === 'trialing' ? (row.trial_end ?? row.current_period_end) : row.current_period_end;
  return at === null ? null : new Date(at).toISOString();
}

export function subscriptionStatus(
  validAccess: boolean,
  rows: StoredSubscription[],
  now = Date.now(),
  nextCharge: NextCharge | null = null,
): SubscriptionStatus {
  const granting = grantingSubscription(rows, now);
  if (!validAccess || !granting) {
    return {
      subscribed: validAccess,
      subscription_tier: 'Free',
      subscription_end: null,
      cancel_at_period_end: false,
      current_period_end: null,
      plan: null,
      trial_end: null,
      next_charge: null,
    };
  }
  const end = granting.status === 'trialing' ? (granting.trial_end ?? granting.current_period_end) : granting.current_period_end;
  return {
    subscribed: true,
    subscription_tier: granting.status === 'trialing' ? 'Free Trial' : granting.tier === 'annual' ? 'Annual' : 'Monthly',
    subscription_end: end === null ? null : new Date(end).toISOString(),
    cancel_at_period_end: granting.cancel_at_period_end,
    current_period_end: granting.current_period_end === null ? null : Math.floor(Date.parse(granting.current_period_end) / 1000),
    plan: granting.tier === 'annual' ? 'Annual' : 'Monthly',
    trial_end: granting.status === 'trialing' && granting.trial_end !== null ? new Date(granting.trial_end).toISOString() : null,
    next_charge: nextChargeAt(granting) === null ? null : nextCharge,
  };
}
