import { newId, publicView, type PublicView, type StoredObject } from './stripe-state.ts';

export type { StoredObject };

/** Stripe's error shape and status, thrown by the endpoint and answered as `{ error: { type, message, code?, param? } }`. */
export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details: { type?: string; code?: string; param?: string } = {},
  ) {
    super(message);
  }
  toJson() {
    return { error: { type: this.details.type ?? 'invalid_request_error', message: this.message, ...(this.details.code ? { code: this.details.code } : {}), ...(this.details.param ? { param: this.details.param } : {}) } };
  }
}

export const resourceMissing = (kind: string, id: string, param = 'id') =>
  new StripeApiError(404, `No such ${kind}: '${id}'`, { code: 'resource_missing', param });

export type Interval = 'month' | 'year';

export interface PriceObject extends StoredObject {
  object: 'price';
  active: boolean;
  currency: string;
  unit_amount: number;
  nickname: string;
  product: string;
  recurring: { interval: Interval; interval_count: number; usage_type: 'licensed'; meter: null; trial_period_days: null };
}

export interface CouponObject extends StoredObject {
  object: 'coupon';
  name: string;
  percent_off: number;
  duration: 'forever';
  valid: boolean;
}

export interface PromotionCodeObject extends StoredObject {
  object: 'promotion_code';
  code: string;
  active: boolean;
  promotion: { type: 'coupon'; coupon: string };
}

export interface CustomerObject extends StoredObject {
  object: 'customer';
  email: string | null;
  name: string | null;
  metadata: Record<string, string>;
}

export interface PaymentMethodObject extends StoredObject {
  object: 'payment_method';
  type: 'card';
  customer: string | null;
  /** Stripe's card details; `fingerprint` is the same for the same card number on every customer. */
  card: { brand: 'visa' | 'mastercard' | 'amex' | 'unknown'; last4: string; exp_month: number; exp_year: number; fingerprint: string; funding: 'credit' };
}

export interface CheckoutSessionObject extends StoredObject {
  object: 'checkout.session';
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid' | 'no_payment_required';
  mode: 'subscription';
  customer: string | null;
  customer_email: string | null;
  client_reference_id: string | null;
  success_url: string;
  cancel_url: string | null;
  subscription: string | null;
  invoice: string | null;
  url: string | null;
  expires_at: number;
  amount_total: number;
  amount_subtotal: number;
  metadata: Record<string, string>;
  discounts: { promotion_code: string | null; coupon: string | null }[];
  /** 'always' (Stripe's default in subscription mode): a card even for a trial; 'if_required': a trial may start without one. */
  payment_method_collection: 'always' | 'if_required';
  _local: { price: string; trialDays: number | null; subscriptionMetadata: Record<string, string>; coupon: string | null };
}

export interface SubscriptionItemObject {
  id: string;
  object: 'subscription_item';
  created: number;
  current_period_start: number;
  current_period_end: number;
  price: PublicView<PriceObject>;
  quantity: number;
  subscription: string;
  metadata: Record<string, string>;
  discounts: string[];
}

export type SubscriptionStatus = 'trialing' | 'active' | 'past_due' | 'canceled' | 'unpaid' | 'incomplete' | 'incomplete_expired' | 'paused';

export interface SubscriptionObject extends StoredObject {
  object: 'subscription';
  status: SubscriptionStatus;
  customer: string;
  cancel_at: number | null;
  cancel_at_period_end: boolean;
  canceled_at: number | null;
  cancellation_details: { comment: null; feedback: null; reason: 'cancellation_requested' | 'payment_failed' | null };
  ended_at: number | null;
  trial_start: number | null;
  trial_end: number | null;
  billing_cycle_anchor: number;
  default_payment_method: string | null;
  latest_invoice: string | null;
  metadata: Record<string, string>;
  discounts: string[];
  items: { object: 'list'; data: SubscriptionItemObject[]; has_more: false; total_count: number; url: string };
  trial_settings: { end_behavior: { missing_payment_method: 'cancel' | 'create_invoice' | 'pause' } };
  _local: {
    /** The card given at checkout: null for a trial started without one. */
    card: { last4: string; declinesCharges: boolean } | null;
    percentOff: number;
    trialWillEndSent: boolean;
    pastDueSince: number | null;
  };
}

export interface InvoiceObject extends StoredObject {
  object: 'invoice';
  status: 'paid' | 'open';
  amount_due: number;
  amount_paid: number;
}

export interface PortalSessionObject extends StoredObject {
  object: 'billing_portal.session';
  customer: string;
  return_url: string;
  url: string;
}

export interface EventObject extends StoredObject {
  object: 'event';
  type: string;
  data: { object: Record<string, unknown>; previous_attributes?: Record<string, unknown> };
}

/** Adds one billing interval the way Stripe does: the same day of the next month or year, or that month's last day. */
export function addInterval(seconds: number, interval: Interval): number {
  const start = new Date(seconds * 1000);
  const year = start.getUTCFullYear() + (interval === 'year' ? 1 : 0);
  const month = start.getUTCMonth() + (interval === 'month' ? 1 : 0);
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const end = Date.UTC(year, month, Math.min(start.getUTCDate(), lastDay), start.getUTCHours(), start.getUTCMinutes(), start.getUTCSeconds());
  return Math.floor(end / 1000);
}

export const discounted = (amount: number, percentOff: number) => Math.round((amount * (100 - percentOff)) / 100);

export function subscriptionItem(subscriptionId: string, price: PriceObject, start: number, end: number, created: number): SubscriptionItemObject {
  return {
    id: newId('si'),
    object: 'subscription_item',
    created,
    current_period_start: start,
    current_period_end: end,
    price: publicView(price),
    quantity: 1,
    subscription: subscriptionId,
    metadata: {},
    discounts: [],
  };
}

export function invoiceFor(
  subscription: SubscriptionObject,
  details: {
    reason: 'subscription_create' | 'subscription_cycle' | 'subscription_update';
    subtotal: number;
    amount: number;
    start: number;
    end: number;
    paid: boolean;
    created: number;
  },
): InvoiceObject {
  const id = newId('in');
  const price = subscription.items.data[0]!.price;
  return {
    id,
    object: 'invoice',
    created: details.created,
    customer: subscription.customer,
    currency: price.currency,
    status: details.paid ? 'paid' : 'open',
    billing_reason: details.reason,
    amount_due: details.amount,
    amount_paid: details.paid ? details.amount : 0,
    amount_remaining: details.paid ? 0 : details.amount,
    subtotal: details.subtotal,
    total: details.amount,
    attempted: true,
    attempt_count: 1,
    collection_method: 'charge_automatically',
    period_start: details.start,
    period_end: details.end,
    parent: { type: 'subscription_details', quote_details: null, subscription_details: { metadata: subscription.metadata, subscription: subscription.id } },
    lines: {
      object: 'list',
      data: [
        {
          id: newId('il'),
          object: 'line_item',
          amount: details.amount,
          currency: price.currency,
          description: `1 × Obyect (${price.nickname})`,
          period: { start: details.start, end: details.end },
          pricing: { type: 'price_details', price_details: { price: price.id, product: price.product } },
          quantity: 1,
        },
      ],
      has_more: false,
      total_count: 1,
      url: `/v1/invoices/${id}/lines`,
    },
    status_transitions: { finalized_at: details.created, paid_at: details.paid ? details.created : null },
    hosted_invoice_url: null,
    livemode: false,
    metadata: {},
  };
}

/** An event carries a copy of the object as it was when the event happened. */
export function eventOf(
  type: string,
  object: StoredObject,
  created: number,
  options: { apiVersion: string; endpoints: number; previous?: Record<string, unknown> },
): EventObject {
  return {
    id: newId('evt'),
    object: 'event',
    api_version: options.apiVersion,
    created,
    data: { object: structuredClone(publicView(object)), ...(options.previous ? { previous_attributes: options.previous } : {}) },
    livemode: false,
    pending_webhooks: options.endpoints,
    request: { id: null, idempotency_key: null },
    type,
  };
}
