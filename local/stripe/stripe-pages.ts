import type { ApiHandler } from '../http/api-handler.ts';
import { escapeHtml } from '../mail/escape-html.ts';
import { TEST_CARDS, type BillingEngine } from './billing-engine.ts';
import {
  discounted,
  StripeApiError,
  type CheckoutSessionObject,
  type CouponObject,
  type CustomerObject,
  type EventObject,
  type PortalSessionObject,
  type PriceObject,
  type PromotionCodeObject,
  type SubscriptionObject,
} from './stripe-objects.ts';
import type { StripeState } from './stripe-state.ts';
import type { WebhookDeliveries } from './webhook-deliveries.ts';

/** The spec shows prices with a comma decimal separator: €8,95. */
const euro = (cents: number) => `€${(cents / 100).toFixed(2).replace('.', ',')}`;
const day = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);
const perInterval = (price: Pick<PriceObject, 'recurring'>) => (price.recurring.interval === 'year' ? 'year' : 'month');

const page = (title: string, body: string, status = 200) =>
  new Response(
    `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; margin: 0; background: #f6f7f9; color: #1a1f36; }
  main { max-width: 28rem; margin: 2rem auto; background: #fff; border-radius: 12px; padding: 1.5rem 2rem; box-shadow: 0 2px 12px #0001; }
  .banner { background: #fff8e1; border: 1px solid #f5d67b; border-radius: 8px; padding: .5rem .75rem; font-size: .875rem; }
  .error { background: #fdecea; border: 1px solid #f5b7b1; border-radius: 8px; padding: .5rem .75rem; }
  .price { font-size: 1.75rem; font-weight: 700; margin: .25rem 0; }
  s { color: #697386; }
  label { display: block; margin: .75rem 0 .25rem; font-size: .875rem; color: #4f566b; }
  input { width: 100%; box-sizing: border-box; padding: .6rem; border: 1px solid #d5dbe1; border-radius: 6px; font: inherit; }
  button { width: 100%; margin-top: .75rem; padding: .7rem; border: 0; border-radius: 6px; font: inherit; font-weight: 600; cursor: pointer; background: #635bff; color: #fff; }
  button.secondary { background: #e3e8ee; color: #1a1f36; }
  .subscription { border: 1px solid #e3e8ee; border-radius: 8px; padding: .75rem 1rem; margin: 1rem 0; }
  small { color: #697386; }
</style>
</head>
<body><main>
<p class="banner">Local Stripe test mode: no real payment is made.</p>
${body}
</main></body>
</html>`,
    {
      status,
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        // Pages show text that came from requests; nothing on them may run. Forms redirect to the app, so form-action stays open.
        'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
        // same-origin: the checkout form's POST carries its Origin, which the development doors check (no-referrer would send "null").
        'referrer-policy': 'same-origin',
      },
    },
  );

const seeOther = (location: string) => new Response(null, { status: 303, headers: { location, 'cache-control': 'no-store' } });
const notFound = (what: string) => page('Not found', `<h1>Not found</h1><p>${escapeHtml(what)}</p>`, 404);
const jsonError = (status: number, code: string, message: string) => Response.json({ error: { code, message } }, { status });

/**
 * The local Stripe's pages at /_stripe/: the hosted checkout
 * (/_stripe/checkout/<session>), the billing portal (/_stripe/portal/<session>)
 * and the test clock (POST /_stripe/test/advance {"seconds": n}).
 */
export function createStripePages(options: { state: StripeState; engine: BillingEngine; deliveries: WebhookDeliveries }): ApiHandler {
  const { state, engine, deliveries } = options;

  /** Sends a change's webhooks before the browser moves on, so the app already knows when it lands. */
  const settle = (events: EventObject[]) => deliveries.settle(events.map((event) => event.id));

  async function checkoutPage(session: CheckoutSessionObject, error?: StripeApiError): Promise<Response> {
    const price = await state.get<PriceObject>(session._local.price, 'price');
    if (!price) return notFound('The price of this checkout no longer exists.');
    if (session.status !== 'open') {
      return page(
        'Checkout complete',
        `<h1>This checkout is ${session.status === 'complete' ? 'complete' : 'no longer open'}</h1>
<p><a href="${escapeHtml(session.status === 'complete' ? session.success_url.replaceAll('{CHECKOUT_SESSION_ID}', session.id) : (session.cancel_url ?? '/'))}">Back to Obyect</a></p>`,
      );
    }
    const customer = session.customer ? await state.get<CustomerObject>(session.customer, 'customer') : null;
    const coupon = session._local.coupon ? await state.get<CouponObject>(session._local.coupon, 'coupon') : null;
    const promotion = session.discounts[0]?.promotion_code ? await state.get<PromotionCodeObject>(session.discounts[0].promotion_code, 'promotion_code') : null;
    const interval = perInterval(price);
    const amount = discounted(price.unit_amount, coupon?.percent_off ?? 0);
    const trialDays = session._local.trialDays;
    const firstCharge = trialDays ? day(state.now() + trialDays * 86_400) : day(state.now());
    const plan = price.nickname || (interval === 'year' ? 'Annual' : 'Monthly');
    return page(
      `Subscribe to Obyect ${plan}`,
      `<h1>Obyect ${escapeHtml(plan)}</h1>
<p class="price">${coupon ? `<s>${euro(price.unit_amount)}</s> ` : ''}${euro(amount)} <small>/ ${interval}</small></p>
${coupon ? `<p>Coupon <strong>${escapeHtml(promotion?.code ?? coupon.id)}</strong>: ${coupon.percent_off}% off</p>` : ''}
${trialDays ? `<p><strong>${trialDays}-day free trial</strong>: no charge today. Then ${euro(amount)} / ${interval} from ${firstCharge}.</p>` : `<p>${euro(amount)} due today.</p>`}
${customer?.email ? `<p>Email: ${escapeHtml(customer.email)}</p>` : ''}
${error ? `<p class="error" role="alert">${escapeHtml(error.message)}</p>` : ''}
<form method="post" action="/_stripe/checkout/${escapeHtml(session.id)}">
  <label for="card">Card number</label>
  <input id="card" name="card" inputmode="numeric" autocomplete="cc-number" value="4242 4242 4242 4242">
  <label for="expiry">Expiry</label>
  <input id="expiry" name="expiry" value="12 / 34">
  <label for="cvc">CVC</label>
  <input id="cvc" name="cvc" value="123">
  <button type="submit" name="action" value="pay">Pay</button>
  ${trialDays && session.payment_method_collection === 'if_required' ? '<button type="submit" class="secondary" name="action" value="trial_without_card">Start trial without card</button>' : ''}
  <button type="submit" class="secondary" name="action" value="cancel">Cancel</button>
</form>
<p><small>Test cards: ${TEST_CARDS.pays} pays; ${TEST_CARDS.failsCharges} is saved but its charges fail; ${TEST_CARDS.declined} is declined. Any other valid 16-digit number pays as a card of its own: a card that had a trial gets no second one.</small></p>`,
      error ? error.status : 200,
    );
  }

  async function checkout(request: Request, sessionId: string): Promise<Response> {
    const session = await state.get<CheckoutSessionObject>(sessionId, 'checkout.session');
    if (!session) return notFound('No such checkout.');
    if (request.method === 'GET' || request.method === 'HEAD') return checkoutPage(session);
    if (request.method !== 'POST') return new Response('Method not allowed', { status: 405, headers: { allow: 'GET, POST' } });
    const form = new URLSearchParams(await request.text());
    const action = form.get('action');
    if (action === 'cancel') return seeOther(session.cancel_url ?? session.success_url.replaceAll('{CHECKOUT_SESSION_ID}', session.id));
    if (action !== 'pay' && action !== 'trial_without_card') return checkoutPage(session, new StripeApiError(400, 'Choose Pay, Start trial without card or Cancel.'));
    try {
      const { redirect, events } = await state.serialized(() =>
        engine.completeCheckout(sessionId, action === 'pay' ? { withCard: true, cardNumber: form.get('card') ?? '' } : { withCard: false }),
      );
      await settle(events);
      return seeOther(redirect);
    } catch (error) {
      if (!(error instanceof StripeApiError)) throw error;
      return checkoutPage((await state.get<CheckoutSessionObject>(sessionId, 'checkout.session')) ?? session, error);
    }
  }

  function subscriptionHtml(subscription: SubscriptionObject, sessionId: string): string {
    const item = subscription.items.data[0]!;
    const live = subscription.status !== 'canceled' && subscription.status !== 'incomplete_expired';
    const other = item.price.recurring.interval === 'year' ? 'monthly' : 'annual';
    const when = !live
      ? `Ended ${day(subscription.ended_at ?? subscription.created)}`
      : subscription.cancel_at_period_end
        ? `Cancels on ${day(item.current_period_end)}`
        : subscription.status === 'trialing'
          ? `Trial ends ${day(subscription.trial_end ?? item.current_period_end)}`
          : `Renews on ${day(item.current_period_end)}`;
    const action = (value: string, label: string, secondary = true) =>
      `<form method="post" action="/_stripe/portal/${escapeHtml(sessionId)}">
  <input type="hidden" name="subscription" value="${escapeHtml(subscription.id)}">
  <button type="submit"${secondary ? ' class="secondary"' : ''} name="action" value="${value}">${label}</button>
</form>`;
    return `<section class="subscription">
<h2>${escapeHtml(item.price.nickname)} · ${euro(discounted(item.price.unit_amount, subscription._local.percentOff))} / ${perInterval(item.price)}</h2>
<p>Status: <strong>${escapeHtml(subscription.status)}</strong> · ${when}</p>
${
  live
    ? [
        subscription.cancel_at_period_end ? action('resume', 'Resume subscription', false) : action('cancel_at_period_end', 'Cancel at period end'),
        action('cancel_now', 'Cancel now'),
        action(`switch_${other}`, `Switch to ${other}`),
      ].join('\n')
    : ''
}
</section>`;
  }

  async function portal(request: Request, sessionId: string): Promise<Response> {
    const session = await state.get<PortalSessionObject>(sessionId, 'billing_portal.session');
    if (!session) return notFound('No such billing portal session.');
    if (request.method === 'POST') {
      const form = new URLSearchParams(await request.text());
      const subscription = await state.get<SubscriptionObject>(form.get('subscription') ?? '', 'subscription');
      if (!subscription || subscription.customer !== session.customer) return notFound('No such subscription for this customer.');
      const action = form.get('action');
      const prices = await state.list<PriceObject>('price', (price) => price.active);
      const priceFor = (interval: 'month' | 'year') => prices.find((price) => price.recurring.interval === interval)?.id;
      const change = async (): Promise<unknown> => {
        if (action === 'cancel_at_period_end') return engine.updateSubscription(subscription.id, { cancelAtPeriodEnd: true });
        if (action === 'resume') return engine.updateSubscription(subscription.id, { cancelAtPeriodEnd: false });
        if (action === 'cancel_now') return engine.cancelSubscription(subscription.id);
        if (action === 'switch_annual' || action === 'switch_monthly') {
          return engine.updateSubscription(subscription.id, { price: priceFor(action === 'switch_annual' ? 'year' : 'month') });
        }
        throw new StripeApiError(400, 'Unknown portal action.');
      };
      try {
        await state.serialized(change);
      } catch (error) {
        if (!(error instanceof StripeApiError)) throw error;
        return page('Billing portal', `<p class="error" role="alert">${escapeHtml(error.message)}</p><p><a href="/_stripe/portal/${escapeHtml(sessionId)}">Back</a></p>`, error.status);
      }
      await deliveries.settle(await pendingEventIds());
      return seeOther(`/_stripe/portal/${sessionId}`);
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') return new Response('Method not allowed', { status: 405, headers: { allow: 'GET, POST' } });
    const customer = await state.get<CustomerObject>(session.customer, 'customer');
    const subscriptions = await state.list<SubscriptionObject>('subscription', (subscription) => subscription.customer === session.customer);
    return page(
      'Billing portal',
      `<h1>Your Obyect subscription</h1>
${customer?.email ? `<p>${escapeHtml(customer.email)}</p>` : ''}
${subscriptions.length === 0 ? '<p>No subscriptions yet.</p>' : subscriptions.map((subscription) => subscriptionHtml(subscription, sessionId)).join('\n')}
<p><a href="${escapeHtml(session.return_url)}">Back to Obyect</a></p>`,
    );
  }

  /** Events still waiting for their first delivery. */
  async function pendingEventIds(): Promise<string[]> {
    const { rows } = await state.db.query<{ event_id: string }>(
      'select distinct event_id from stripe_local.deliveries where delivered_at is null and failed_at is null and attempts = 0',
    );
    return rows.map((row) => row.event_id);
  }

  async function advance(request: Request): Promise<Response> {
    if (request.method !== 'POST') return jsonError(405, 'method_not_allowed', 'Use POST');
    let seconds: unknown;
    try {
      seconds = ((await request.json()) as { seconds?: unknown }).seconds;
    } catch {
      return jsonError(400, 'invalid_body', 'The body must be JSON: {"seconds": <whole seconds>}');
    }
    if (typeof seconds !== 'number' || !Number.isInteger(seconds) || seconds < 1 || seconds > 10 * 366 * 86_400) {
      return jsonError(400, 'invalid_body', 'seconds: a whole number of seconds from 1 to ten years');
    }
    const { now, events } = await state.serialized(() => engine.advanceClock(seconds));
    await settle(events);
    return Response.json({ now, events: events.map((event) => ({ id: event.id, type: event.type, created: event.created })) });
  }

  return async (request) => {
    const path = new URL(request.url).pathname.replace(/\/+$/, '');
    const match = /^\/_stripe\/(checkout|portal)\/([A-Za-z0-9_]+)$/.exec(path);
    if (match) return match[1] === 'checkout' ? checkout(request, match[2]!) : portal(request, match[2]!);
    if (path === '/_stripe/test/advance') return advance(request);
    if (path === '/_stripe/test/clock' && request.method === 'GET') return Response.json({ now: state.now() });
    return notFound('The local Stripe serves /_stripe/checkout/<session>, /_stripe/portal/<session> and /_stripe/test/advance.');
  };
}
