import { createHmac } from 'node:crypto';
import { publicView, newId, type StoredObject, type StripeState } from './stripe-state.ts';
import {
  addInterval,
  discounted,
  eventOf,
  invoiceFor,
  resourceMissing,
  StripeApiError,
  subscriptionItem,
  type CheckoutSessionObject,
  type CouponObject,
  type CustomerObject,
  type EventObject,
  type PaymentMethodObject,
  type PortalSessionObject,
  type PriceObject,
  type PromotionCodeObject,
  type SubscriptionObject,
} from './stripe-objects.ts';

const DAY = 86_400;
/** Stripe announces a trial's end three days before it. */
const TRIAL_WILL_END_NOTICE = 3 * DAY;
/** How long a subscription stays past_due before the local endpoint gives up on it. */
const PAST_DUE_DAYS = 14;

/** Test cards: this one pays, this one is saved but every charge on it fails, this one is declined at checkout. */
export const TEST_CARDS = { pays: '4242424242424242', failsCharges: '4000000000000341', declined: '4000000000000002' } as const;

export interface BillingEngineOptions {
  state: StripeState;
  stackUrl: string;
  webhookUrls: string[];
  apiVersion: string;
}

/** What one change wrote: objects to save and events to deliver, saved together. */
class Change {
  readonly objects = new Map<string, StoredObject>();
  readonly events: EventObject[] = [];
  constructor(private readonly options: BillingEngineOptions) {}
  put<T extends StoredObject>(value: T): T {
    this.objects.set(value.id, value);
    return value;
  }
  emit(type: string, object: StoredObject, created: number, previous?: Record<string, unknown>): void {
    const event = eventOf(type, object, created, { apiVersion: this.options.apiVersion, endpoints: this.options.webhookUrls.length, previous });
    this.events.push(event);
    this.put(event);
  }
}

export type CheckoutChoice = { withCard: true; cardNumber: string } | { withCard: false };

const digitsOf = (card: string) => card.replace(/[\s-]/g, '');

const FINGERPRINT_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Like Stripe's card.fingerprint: 16 letters and digits, the same for the same card number on every customer and after restarts. */
export function cardFingerprint(cardNumber: string): string {
  const mac = createHmac('sha256', 'obyect-local-stripe-card-fingerprint').update(digitsOf(cardNumber)).digest();
  return [...mac.subarray(0, 16)].map((byte) => FINGERPRINT_ALPHABET[byte % FINGERPRINT_ALPHABET.length]).join('');
}

const brandOf = (digits: string): PaymentMethodObject['card']['brand'] =>
  digits.startsWith('4') ? 'visa' : /^5[1-5]/.test(digits) ? 'mastercard' : /^3[47]/.test(digits) ? 'amex' : 'unknown';

/** The Luhn check every card number passes. */
function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/**
 * The local Stripe account's behaviour: checkouts that start subscriptions,
 * updates and cancellations, and what happens as its clock moves on (trial
 * ends, renewals, period ends). Every change emits the events Stripe would.
 * Callers run one change at a time (StripeState.serialized).
 */
export function createBillingEngine(options: BillingEngineOptions) {
  const { state } = options;

  const commit = async (change: Change) => {
    const deliveries = change.events.flatMap((event) => options.webhookUrls.map((url) => ({ eventId: event.id, url })));
    await state.save([...change.objects.values()], deliveries);
    return change.events;
  };

  async function required<T extends StoredObject>(id: string, object: string, kind: string, param = 'id'): Promise<T> {
    const found = await state.get<T>(id, object);
    if (!found) throw resourceMissing(kind, id, param);
    return found;
  }

  const intervalOf = (subscription: SubscriptionObject) => subscription.items.data[0]!.price.recurring.interval;

  /** Charges the subscription's card for its price; a trial started without a card cannot be charged. */
  const chargeSucceeds = (subscription: SubscriptionObject) => subscription._local.card !== null && !subscription._local.card.declinesCharges;

  function endSubscription(change: Change, subscription: SubscriptionObject, at: number, reason: SubscriptionObject['cancellation_details']['reason']) {
    subscription.status = 'canceled';
    subscription.ended_at = at;
    subscription.canceled_at = subscription.canceled_at ?? at;
    subscription.cancellation_details = { comment: null, feedback: null, reason: subscription.cancellation_details.reason ?? reason };
    change.put(subscription);
    change.emit('customer.subscription.deleted', subscription, at);
  }

  /** Bills the next period from `start`: paid → active, failed → past_due; the period moves on either way, as Stripe's does. */
  function renew(
    change: Change,
    subscription: SubscriptionObject,
    start: number,
    reason: 'subscription_cycle' | 'subscription_update',
    previous: Record<string, unknown> = { status: subscription.status, items: structuredClone(subscription.items) },
  ) {
    const item = subscription.items.data[0]!;
    const end = addInterval(start, intervalOf(subscription));
    item.current_period_start = start;
    item.current_period_end = end;
    const paid = chargeSucceeds(subscription);
    const invoice = change.put(
      invoiceFor(subscription, {
        reason,
        subtotal: item.price.unit_amount,
        amount: discounted(item.price.unit_amount, subscription._local.percentOff),
        start,
        end,
        paid,
        created: start,
      }),
    );
    subscription.latest_invoice = invoice.id;
    subscription.status = paid ? 'active' : 'past_due';
    subscription._local.pastDueSince = paid ? null : (subscription._local.pastDueSince ?? start);
    change.put(subscription);
    change.emit(paid ? 'invoice.paid' : 'invoice.payment_failed', invoice, start);
    change.emit('customer.subscription.updated', subscription, start, previous);
  }

  /** The earliest thing due for a subscription by `now`, applied; false when nothing is due. */
  function stepDue(change: Change, subscription: SubscriptionObject, now: number): boolean {
    const periodEnd = subscription.items.data[0]!.current_period_end;
    if (subscription.status === 'trialing' && subscription.trial_end !== null) {
      const noticeAt = subscription.trial_end - TRIAL_WILL_END_NOTICE;
      if (!subscription._local.trialWillEndSent && noticeAt <= now && noticeAt < subscription.trial_end) {
        subscription._local.trialWillEndSent = true;
        change.put(subscription);
        change.emit('customer.subscription.trial_will_end', subscription, Math.max(noticeAt, subscription.trial_start ?? noticeAt));
        return true;
      }
      if (subscription.trial_end <= now) {
        if (subscription.cancel_at_period_end) endSubscription(change, subscription, subscription.trial_end, 'cancellation_requested');
        // A trial started without a card ends the subscription (trial_settings.end_behavior.missing_payment_method = cancel).
        else if (subscription._local.card === null) endSubscription(change, subscription, subscription.trial_end, null);
        else renew(change, subscription, subscription.trial_end, 'subscription_cycle');
        return true;
      }
      return false;
    }
    if ((subscription.status === 'active' || subscription.status === 'past_due') && periodEnd <= now) {
      if (subscription.cancel_at_period_end) endSubscription(change, subscription, periodEnd, 'cancellation_requested');
      else renew(change, subscription, periodEnd, 'subscription_cycle');
      return true;
    }
    if (subscription.status === 'past_due' && subscription._local.pastDueSince !== null && subscription._local.pastDueSince + PAST_DUE_DAYS * DAY <= now) {
      endSubscription(change, subscription, subscription._local.pastDueSince + PAST_DUE_DAYS * DAY, 'payment_failed');
      return true;
    }
    return false;
  }

  async function runDue(change: Change, now: number) {
    const lapsed = await state.list<CheckoutSessionObject>('checkout.session', (session) => session.status === 'open' && session.expires_at <= now);
    for (const session of lapsed) {
      Object.assign(session, { status: 'expired', url: null } satisfies Partial<CheckoutSessionObject>);
      change.put(session);
      change.emit('checkout.session.expired', session, session.expires_at);
    }
    const live = await state.list<SubscriptionObject>('subscription', (subscription) => subscription.status !== 'canceled' && subscription.status !== 'incomplete_expired');
    for (const subscription of live) {
      for (let steps = 0; steps < 10_000 && stepDue(change, subscription, now); steps += 1);
    }
  }

  async function promotionCodeFor(discount: Record<string, unknown> | undefined): Promise<{ promotionCode: PromotionCodeObject | null; coupon: CouponObject | null }> {
    if (!discount) return { promotionCode: null, coupon: null };
    if (typeof discount.promotion_code === 'string') {
      const promotionCode = await required<PromotionCodeObject>(discount.promotion_code, 'promotion_code', 'promotion code', 'discounts[0][promotion_code]');
      if (!promotionCode.active) throw new StripeApiError(400, `This promotion code is inactive: '${promotionCode.code}'`, { param: 'discounts[0][promotion_code]' });
      return { promotionCode, coupon: await required<CouponObject>(promotionCode.promotion.coupon, 'coupon', 'coupon') };
    }
    if (typeof discount.coupon === 'string') return { promotionCode: null, coupon: await required<CouponObject>(discount.coupon, 'coupon', 'coupon', 'discounts[0][coupon]') };
    return { promotionCode: null, coupon: null };
  }

  return {
    now: () => state.now(),

    async createCustomer(params: { email?: string; name?: string; metadata?: Record<string, string> }): Promise<CustomerObject> {
      const change = new Change(options);
      const customer = change.put<CustomerObject>({
        id: newId('cus'),
        object: 'customer',
        created: state.now(),
        email: params.email ?? null,
        name: params.name ?? null,
        metadata: params.metadata ?? {},
        livemode: false,
        balance: 0,
        currency: null,
        delinquent: false,
        description: null,
        invoice_settings: { default_payment_method: null },
      });
      change.emit('customer.created', customer, customer.created);
      await commit(change);
      return customer;
    },

    async createCheckoutSession(params: {
      mode?: string;
      customer?: string;
      customerEmail?: string;
      clientReferenceId?: string;
      price?: string;
      quantity?: number;
      trialDays?: number;
      paymentMethodCollection?: string;
      subscriptionMetadata: Record<string, string>;
      metadata: Record<string, string>;
      discount?: Record<string, unknown>;
      successUrl?: string;
      cancelUrl?: string;
    }): Promise<CheckoutSessionObject> {
      if (params.mode !== 'subscription') {
        throw new StripeApiError(400, 'The local Stripe endpoint supports Checkout in subscription mode only', { param: 'mode' });
      }
      if (!params.price) throw new StripeApiError(400, 'Missing required param: line_items[0][price].', { code: 'parameter_missing', param: 'line_items[0][price]' });
      const price = await required<PriceObject>(params.price, 'price', 'price', 'line_items[0][price]');
      if (!params.successUrl || !/^https?:\/\//.test(params.successUrl)) {
        throw new StripeApiError(400, 'Not a valid URL', { code: 'url_invalid', param: 'success_url' });
      }
      if (params.cancelUrl !== undefined && !/^https?:\/\//.test(params.cancelUrl)) {
        throw new StripeApiError(400, 'Not a valid URL', { code: 'url_invalid', param: 'cancel_url' });
      }
      if (params.customer) await required<CustomerObject>(params.customer, 'customer', 'customer', 'customer');
      if (params.trialDays !== undefined && (params.trialDays < 1 || params.trialDays > 730)) {
        throw new StripeApiError(400, 'trial_period_days must be between 1 and 730', { param: 'subscription_data[trial_period_days]' });
      }
      const collection = params.paymentMethodCollection ?? 'always';
      if (collection !== 'always' && collection !== 'if_required') {
        throw new StripeApiError(400, `Invalid payment_method_collection: must be one of always or if_required`, { param: 'payment_method_collection' });
      }
      const { promotionCode, coupon } = await promotionCodeFor(params.discount);
      const now = state.now();
      const id = newId('cs_test');
      const amount = params.trialDays ? 0 : discounted(price.unit_amount, coupon?.percent_off ?? 0);
      const change = new Change(options);
      const session = change.put<CheckoutSessionObject>({
        id,
        object: 'checkout.session',
        created: now,
        status: 'open',
        payment_status: 'unpaid',
        mode: 'subscription',
        ui_mode: 'hosted',
        customer: params.customer ?? null,
        customer_email: params.customerEmail ?? null,
        client_reference_id: params.clientReferenceId ?? null,
        success_url: params.successUrl,
        cancel_url: params.cancelUrl ?? null,
        subscription: null,
        invoice: null,
        url: `${options.stackUrl}/_stripe/checkout/${id}`,
        expires_at: now + DAY,
        currency: price.currency,
        amount_subtotal: params.trialDays ? 0 : price.unit_amount,
        amount_total: amount,
        metadata: params.metadata,
        discounts: coupon ? [{ promotion_code: promotionCode?.id ?? null, coupon: promotionCode ? null : coupon.id }] : [],
        payment_method_collection: collection,
        livemode: false,
        _local: { price: price.id, trialDays: params.trialDays ?? null, subscriptionMetadata: params.subscriptionMetadata, coupon: coupon?.id ?? null },
      });
      await commit(change);
      return session;
    },

    /**
     * The checkout page's Pay (or 'Start trial without card', offered only when the session was created with
     * payment_method_collection=if_required): the subscription starts, the events go out, the browser returns.
     */
    async completeCheckout(sessionId: string, choice: CheckoutChoice): Promise<{ redirect: string; events: EventObject[] }> {
      const session = await required<CheckoutSessionObject>(sessionId, 'checkout.session', 'checkout session');
      const now = state.now();
      if (session.status !== 'open' || session.expires_at <= now) throw new StripeApiError(400, 'This checkout is no longer open.');
      if (!choice.withCard && !session._local.trialDays) throw new StripeApiError(400, 'A card is needed when there is no trial.');
      if (!choice.withCard && session.payment_method_collection !== 'if_required') throw new StripeApiError(400, 'A card is needed: this checkout collects a payment method for its trial too.');
      let card: SubscriptionObject['_local']['card'] = null;
      if (choice.withCard) {
        const digits = digitsOf(choice.cardNumber);
        if (!/^\d{16}$/.test(digits) || !luhnValid(digits)) throw new StripeApiError(402, 'Your card number is invalid.', { type: 'card_error', code: 'invalid_number' });
        if (digits === TEST_CARDS.declined) throw new StripeApiError(402, 'Your card was declined.', { type: 'card_error', code: 'card_declined' });
        card = { last4: digits.slice(-4), declinesCharges: digits === TEST_CARDS.failsCharges };
        if (card.declinesCharges && !session._local.trialDays) throw new StripeApiError(402, 'Your card was declined.', { type: 'card_error', code: 'card_declined' });
      }
      const price = await required<PriceObject>(session._local.price, 'price', 'price');
      const coupon = session._local.coupon ? await state.get<CouponObject>(session._local.coupon, 'coupon') : null;
      const change = new Change(options);

      let customer = session.customer ? await state.get<CustomerObject>(session.customer, 'customer') : null;
      if (!customer) {
        customer = change.put<CustomerObject>({
          id: newId('cus'), object: 'customer', created: now, email: session.customer_email, name: null, metadata: {}, livemode: false,
          balance: 0, currency: null, delinquent: false, description: null, invoice_settings: { default_payment_method: null },
        });
        change.emit('customer.created', customer, now);
      }
      const customerId = customer.id;

      // The card becomes a payment method of the customer, their default, and the subscription's: the webhook reads its fingerprint there.
      let paymentMethod: PaymentMethodObject | null = null;
      if (choice.withCard) {
        const digits = digitsOf(choice.cardNumber);
        paymentMethod = change.put<PaymentMethodObject>({
          id: newId('pm'),
          object: 'payment_method',
          created: now,
          type: 'card',
          customer: customerId,
          card: { brand: brandOf(digits), last4: digits.slice(-4), exp_month: 12, exp_year: 2034, fingerprint: cardFingerprint(digits), funding: 'credit' },
          billing_details: { address: null, email: customer.email, name: null, phone: null },
          livemode: false,
          metadata: {},
        });
        change.emit('payment_method.attached', paymentMethod, now);
        const previous = { invoice_settings: structuredClone(customer.invoice_settings) };
        customer.invoice_settings = { ...(customer.invoice_settings as Record<string, unknown>), default_payment_method: paymentMethod.id };
        change.put(customer);
        change.emit('customer.updated', customer, now, previous);
      }

      const trialDays = session._local.trialDays;
      const id = newId('sub');
      const trialEnd = trialDays ? now + trialDays * DAY : null;
      const periodEnd = trialEnd ?? addInterval(now, price.recurring.interval);
      const subscription = change.put<SubscriptionObject>({
        id,
        object: 'subscription',
        created: now,
        start_date: now,
        status: trialEnd ? 'trialing' : 'active',
        customer: customerId,
        currency: price.currency,
        collection_method: 'charge_automatically',
        billing_cycle_anchor: periodEnd,
        billing_mode: { type: 'flexible' },
        cancel_at: null,
        cancel_at_period_end: false,
        canceled_at: null,
        cancellation_details: { comment: null, feedback: null, reason: null },
        ended_at: null,
        trial_start: trialEnd ? now : null,
        trial_end: trialEnd,
        trial_settings: { end_behavior: { missing_payment_method: card ? 'create_invoice' : 'cancel' } },
        default_payment_method: paymentMethod?.id ?? null,
        latest_invoice: null,
        metadata: session._local.subscriptionMetadata,
        discounts: coupon ? [newId('di')] : [],
        items: { object: 'list', data: [], has_more: false, total_count: 1, url: `/v1/subscription_items?subscription=${id}` },
        pause_collection: null,
        pending_update: null,
        schedule: null,
        test_clock: null,
        livemode: false,
        _local: { card, percentOff: coupon?.percent_off ?? 0, trialWillEndSent: false, pastDueSince: null },
      });
      subscription.items.data.push(subscriptionItem(id, price, now, periodEnd, now));
      const invoice = change.put(
        invoiceFor(subscription, {
          reason: 'subscription_create',
          subtotal: trialEnd ? 0 : price.unit_amount,
          amount: trialEnd ? 0 : discounted(price.unit_amount, subscription._local.percentOff),
          start: now,
          end: trialEnd ?? now,
          paid: true,
          created: now,
        }),
      );
      subscription.latest_invoice = invoice.id;
      Object.assign(session, {
        status: 'complete',
        payment_status: trialEnd ? 'no_payment_required' : 'paid',
        customer: customerId,
        subscription: id,
        invoice: invoice.id,
        url: null,
      } satisfies Partial<CheckoutSessionObject>);
      change.put(session);
      change.emit('customer.subscription.created', subscription, now);
      change.emit('invoice.paid', invoice, now);
      change.emit('checkout.session.completed', session, now);
      return { redirect: session.success_url.replaceAll('{CHECKOUT_SESSION_ID}', session.id), events: await commit(change) };
    },

    async updateSubscription(
      id: string,
      params: { cancelAtPeriodEnd?: boolean; metadata?: Record<string, string>; price?: string; trialEnd?: 'now' },
    ): Promise<SubscriptionObject> {
      const subscription = await required<SubscriptionObject>(id, 'subscription', 'subscription');
      if (subscription.status === 'canceled' || subscription.status === 'incomplete_expired') {
        throw new StripeApiError(400, 'A canceled subscription can only update its cancellation_details and metadata.');
      }
      const now = state.now();
      const change = new Change(options);
      const previous: Record<string, unknown> = {};
      if (params.cancelAtPeriodEnd !== undefined && params.cancelAtPeriodEnd !== subscription.cancel_at_period_end) {
        Object.assign(previous, {
          cancel_at_period_end: subscription.cancel_at_period_end,
          cancel_at: subscription.cancel_at,
          canceled_at: subscription.canceled_at,
          cancellation_details: subscription.cancellation_details,
        });
        subscription.cancel_at_period_end = params.cancelAtPeriodEnd;
        subscription.cancel_at = params.cancelAtPeriodEnd ? subscription.items.data[0]!.current_period_end : null;
        subscription.canceled_at = params.cancelAtPeriodEnd ? now : null;
        subscription.cancellation_details = { comment: null, feedback: null, reason: params.cancelAtPeriodEnd ? 'cancellation_requested' : null };
      }
      if (params.metadata) {
        previous.metadata = { ...subscription.metadata };
        const merged = { ...subscription.metadata, ...params.metadata };
        subscription.metadata = Object.fromEntries(Object.entries(merged).filter(([, value]) => value !== ''));
      }
      const item = subscription.items.data[0]!;
      if (params.price && params.price !== item.price.id) {
        const price = await required<PriceObject>(params.price, 'price', 'price', 'items[0][price]');
        previous.items = structuredClone(subscription.items);
        item.price = publicView(price);
        // A plan of another interval starts a new billing period now (outside a trial), billed at once.
        if (subscription.status !== 'trialing') {
          renew(change, subscription, now, 'subscription_update', { ...previous, status: subscription.status });
          await commit(change);
          return subscription;
        }
        item.current_period_end = subscription.trial_end ?? item.current_period_end;
      }
      // trial_end=now: the trial ends at once and the plan is billed now, as when a trial runs out. Outside a trial it changes nothing.
      if (params.trialEnd === 'now' && subscription.status === 'trialing') {
        Object.assign(previous, { status: subscription.status, trial_end: subscription.trial_end, items: previous.items ?? structuredClone(subscription.items) });
        subscription.trial_end = now;
        subscription.billing_cycle_anchor = now;
        renew(change, subscription, now, 'subscription_update', previous);
        await commit(change);
        return subscription;
      }
      change.put(subscription);
      if (Object.keys(previous).length > 0) change.emit('customer.subscription.updated', subscription, now, previous);
      await commit(change);
      return subscription;
    },

    async cancelSubscription(id: string): Promise<SubscriptionObject> {
      const subscription = await required<SubscriptionObject>(id, 'subscription', 'subscription');
      if (subscription.status === 'canceled' || subscription.status === 'incomplete_expired') {
        throw new StripeApiError(400, `This subscription has already been canceled: '${id}'`);
      }
      const change = new Change(options);
      subscription.cancellation_details = { comment: null, feedback: null, reason: 'cancellation_requested' };
      subscription.canceled_at = state.now();
      endSubscription(change, subscription, state.now(), 'cancellation_requested');
      await commit(change);
      return subscription;
    },

    async createPortalSession(params: { customer?: string; returnUrl?: string }): Promise<PortalSessionObject> {
      if (!params.customer) throw new StripeApiError(400, 'Missing required param: customer.', { code: 'parameter_missing', param: 'customer' });
      await required<CustomerObject>(params.customer, 'customer', 'customer', 'customer');
      if (params.returnUrl !== undefined && !/^https?:\/\//.test(params.returnUrl)) {
        throw new StripeApiError(400, 'Not a valid URL', { code: 'url_invalid', param: 'return_url' });
      }
      const id = newId('bps');
      const change = new Change(options);
      const session = change.put<PortalSessionObject>({
        id,
        object: 'billing_portal.session',
        created: state.now(),
        customer: params.customer,
        return_url: params.returnUrl ?? options.stackUrl,
        url: `${options.stackUrl}/_stripe/portal/${id}`,
        configuration: 'bpc_local',
        flow: null,
        locale: null,
        on_behalf_of: null,
        livemode: false,
      });
      await commit(change);
      return session;
    },

    /** The test clock: moves time on and applies everything that falls due, each event at the moment it happened. */
    async advanceClock(seconds: number): Promise<{ now: number; events: EventObject[] }> {
      const now = await state.advanceClock(seconds);
      const change = new Change(options);
      await runDue(change, now);
      return { now, events: await commit(change) };
    },

    /** Applies what fell due without moving the clock (real time passing). */
    async runDue(): Promise<EventObject[]> {
      const change = new Change(options);
      await runDue(change, state.now());
      return await commit(change);
    },
  };
}

export type BillingEngine = ReturnType<typeof createBillingEngine>;
