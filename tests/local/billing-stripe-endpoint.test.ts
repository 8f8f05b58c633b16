import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LOCAL_STRIPE_PRICES, LOCAL_STRIPE_SECRET_KEY, LOCAL_STRIPE_WEBHOOK_SECRET } from '../../supabase/functions/_shared/local-stripe-defaults.ts';
import { createStripeEndpoint, type StripeEndpoint } from '../../local/stripe/stripe-endpoint.ts';
import { describeOnEngines } from '../support/engines.ts';

const DAY = 86_400;
const ORIGIN = 'http://stack.test';

interface Delivery {
  signature: string;
  body: string;
}

/** A webhook endpoint that answers 500 until told otherwise, and keeps what it received. */
async function webhookReceiver() {
  const received: Delivery[] = [];
  let failing = 0;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ signature: String(request.headers['stripe-signature']), body: Buffer.concat(chunks).toString('utf8') });
      if (failing > 0) {
        failing -= 1;
        response.writeHead(500).end('down');
      } else {
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    failNext: (times: number) => {
      failing = times;
    },
    eventsOfType: (type: string) => received.map((delivery) => JSON.parse(delivery.body) as Stripe.Event).filter((event) => event.type === type),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const until = async (condition: () => boolean | Promise<boolean>, timeoutMs = 15_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('Timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

describeOnEngines('the local Stripe endpoint', (ctx) => {
  let receiver: Awaited<ReturnType<typeof webhookReceiver>>;
  let endpoint: StripeEndpoint;

  const open = () => createStripeEndpoint({ db: ctx.db, env: { STRIPE_WEBHOOK_URL: receiver.url }, stackUrl: ORIGIN, log: () => {} });

  beforeAll(async () => {
    receiver = await webhookReceiver();
    endpoint = await open();
  });
  afterAll(async () => {
    await endpoint?.close();
    await receiver?.close();
  });

  /** A call of the API as the SDK makes it: form-encoded, with the test key. */
  async function api<T>(method: string, path: string, params: Record<string, string> = {}): Promise<T> {
    const body = new URLSearchParams(params).toString();
    const response = await endpoint.handler(
      new Request(`${ORIGIN}/v1/${path}${method === 'GET' && body ? `?${body}` : ''}`, {
        method,
        headers: { authorization: `Bearer ${LOCAL_STRIPE_SECRET_KEY}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: method === 'GET' ? undefined : body,
      }),
    );
    const json = (await response.json()) as T;
    if (response.status !== 200) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  }

  /** A customer who checks out a plan with a card on the checkout page; answers the subscription id. */
  async function subscribe(card: string, price: string = LOCAL_STRIPE_PRICES.monthly, coupon?: string): Promise<string> {
    const customer = await api<{ id: string }>('POST', 'customers', { email: 'buyer@example.test' });
    const session = await api<{ id: string }>('POST', 'checkout/sessions', {
      mode: 'subscription',
      customer: customer.id,
      'line_items[0][price]': price,
      'line_items[0][quantity]': '1',
      'subscription_data[trial_period_days]': '7',
      success_url: `${ORIGIN}/library?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
      ...(coupon ? { 'discounts[0][promotion_code]': coupon } : {}),
    });
    const paid = await endpoint.handler(
      new Request(`${ORIGIN}/_stripe/checkout/${session.id}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ card, action: 'pay' }),
      }),
    );
    expect(paid.status).toBe(303);
    return (await api<{ subscription: string }>('GET', `checkout/sessions/${session.id}`)).subscription;
  }

  const advance = async (seconds: number) => {
    const response = await endpoint.handler(new Request(`${ORIGIN}/_stripe/test/advance`, { method: 'POST', body: JSON.stringify({ seconds }) }));
    expect(response.status).toBe(200);
    return ((await response.json()) as { events: { type: string }[] }).events.map((event) => event.type);
  };

  it('signs every webhook so that the official SDK verifies it with the endpoint secret', async () => {
    const customer = await api<{ id: string }>('POST', 'customers', { email: 'signed@example.test' });
    await until(() => receiver.eventsOfType('customer.created').some((event) => (event.data.object as Stripe.Customer).id === customer.id));
    const delivery = receiver.received.find((item) => item.body.includes(customer.id))!;
    expect(delivery.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const event = Stripe.webhooks.constructEvent(delivery.body, delivery.signature, LOCAL_STRIPE_WEBHOOK_SECRET, 300);
    expect(event).toMatchObject({ type: 'customer.created', object: 'event', livemode: false });
    expect(() => Stripe.webhooks.constructEvent(delivery.body, delivery.signature, 'whsec_other', 300)).toThrow(/signature/i);
  });

  it('retries a failed delivery until the endpoint accepts it, with the same event each time', async () => {
    receiver.failNext(2);
    const customer = await api<{ id: string }>('POST', 'customers', { email: 'retry@example.test' });
    await until(() => receiver.received.filter((item) => item.body.includes(customer.id)).length === 3, 20_000);
    const ids = receiver.received.filter((item) => item.body.includes(customer.id)).map((item) => (JSON.parse(item.body) as { id: string }).id);
    expect(new Set(ids).size).toBe(1);
    const deliveryRows = async () =>
      (
        await ctx.db.query<{ attempts: number; delivered: boolean }>(
          'select attempts, delivered_at is not null as delivered from stripe_local.deliveries where event_id = $1',
          [ids[0]],
        )
      ).rows;
    // The receiver has answered; the queue records the answer just after.
    await until(async () => (await deliveryRows())[0]?.delivered === true);
    expect(await deliveryRows()).toEqual([{ attempts: 3, delivered: true }]);
  });

  it('delivers after a restart what it could not deliver before', async () => {
    receiver.failNext(1);
    const customer = await api<{ id: string }>('POST', 'customers', { email: 'restart@example.test' });
    await until(() => receiver.received.some((item) => item.body.includes(customer.id)));
    await endpoint.close();
    endpoint = await open();
    await until(() => receiver.received.filter((item) => item.body.includes(customer.id)).length === 2, 20_000);
    expect((await api<{ email: string }>('GET', `customers/${customer.id}`)).email).toBe('restart@example.test');
  });

  it('bills the plan when the trial ends and every period after, less the coupon', async () => {
    const monthly = await subscribe('4242 4242 4242 4242', LOCAL_STRIPE_PRICES.monthly, 'promo_obyect20');
    const annual = await subscribe('4242424242424242', LOCAL_STRIPE_PRICES.annual);
    await advance(7 * DAY + 60);
    await advance(31 * DAY);
    await until(() => receiver.eventsOfType('invoice.paid').filter((event) => JSON.stringify(event).includes(monthly)).length >= 3);
    const invoicesOf = (subscription: string) =>
      receiver
        .eventsOfType('invoice.paid')
        .map((event) => event.data.object as Stripe.Invoice)
        .filter((invoice) => invoice.parent?.subscription_details?.subscription === subscription)
        .map((invoice) => [invoice.billing_reason, invoice.amount_paid]);
    expect(invoicesOf(monthly)).toEqual([
      ['subscription_create', 0],
      ['subscription_cycle', 716],
      ['subscription_cycle', 716],
    ]);
    expect(invoicesOf(annual)).toEqual([
      ['subscription_create', 0],
      ['subscription_cycle', 7518],
    ]);
    const state = await api<Stripe.Subscription>('GET', `subscriptions/${annual}`);
    expect(state.status).toBe('active');
    expect(state.items.data[0]!.current_period_end - state.trial_end!).toBeGreaterThanOrEqual(365 * DAY);
  });

  it('previews the next invoice of a subscription: the price less the coupon, charged when the trial ends; none once set to cancel', async () => {
    const monthly = await subscribe('4242 4242 4242 4242', LOCAL_STRIPE_PRICES.monthly, 'promo_obyect20');
    const trialing = await api<Stripe.Subscription>('GET', `subscriptions/${monthly}`);
    const preview = await api<Stripe.Invoice>('POST', 'invoices/create_preview', { subscription: monthly });
    expect([preview.amount_due, preview.currency, preview.next_payment_attempt]).toEqual([716, 'eur', trialing.trial_end]);
    await api('POST', `subscriptions/${monthly}`, { cancel_at_period_end: 'true' });
    await expect(api('POST', 'invoices/create_preview', { subscription: monthly })).rejects.toThrow(/No upcoming invoices/);
  });

  it("gives a card one fingerprint on every customer, attached to the customer and the subscription, as Stripe's card.fingerprint", async () => {
    const first = await subscribe('4242 4242 4242 4242');
    const second = await subscribe('4242424242424242');
    const other = await subscribe('4000 0566 5566 5556');
    const cardOf = async (subscription: string) => {
      const expanded = await api<Stripe.Subscription>('GET', `subscriptions/${subscription}?expand[]=default_payment_method`);
      const method = expanded.default_payment_method as Stripe.PaymentMethod;
      const customer = await api<Stripe.Customer>('GET', `customers/${expanded.customer as string}`);
      expect(customer.invoice_settings.default_payment_method).toBe(method.id);
      expect(method.customer).toBe(customer.id);
      expect(await api<Stripe.PaymentMethod>('GET', `payment_methods/${method.id}`)).toEqual(method);
      return method.card!;
    };
    const [a, b, c] = [await cardOf(first), await cardOf(second), await cardOf(other)];
    expect(a.fingerprint).toMatch(/^[0-9A-Za-z]{16}$/);
    expect(b.fingerprint).toBe(a.fingerprint);
    expect(c.fingerprint).not.toBe(a.fingerprint);
    expect([a.brand, a.last4, c.last4]).toEqual(['visa', '4242', '5556']);
  });

  it('ends a trial at once on trial_end=now: active, the plan billed now, and the events Stripe sends', async () => {
    const subscription = await subscribe('4242424242424242');
    const trialing = await api<Stripe.Subscription>('GET', `subscriptions/${subscription}`);
    const ended = await api<Stripe.Subscription>('POST', `subscriptions/${subscription}`, { trial_end: 'now' });
    expect(ended.status).toBe('active');
    // The endpoint's clock (moved on by earlier tests): the trial ended when it started, 7 days early.
    expect(trialing.trial_end! - ended.trial_end!).toBeGreaterThan(7 * DAY - 60);
    expect(ended.items.data[0]!.current_period_start).toBe(ended.trial_end);
    expect(ended.items.data[0]!.current_period_end - ended.trial_end!).toBeGreaterThanOrEqual(28 * DAY);
    const latest = await api<Stripe.Invoice>('GET', `invoices/${ended.latest_invoice as string}`);
    expect([latest.billing_reason, latest.status, latest.amount_paid]).toEqual(['subscription_update', 'paid', 895]);
    await until(() =>
      receiver
        .eventsOfType('customer.subscription.updated')
        .some((event) => (event.data.object as Stripe.Subscription).id === subscription && (event.data.object as Stripe.Subscription).status === 'active'),
    );
    const updated = receiver.eventsOfType('customer.subscription.updated').find((event) => (event.data.object as Stripe.Subscription).id === subscription)!;
    expect(updated.data.previous_attributes).toMatchObject({ status: 'trialing' });
    expect(receiver.eventsOfType('invoice.paid').some((event) => (event.data.object as Stripe.Invoice).id === latest.id)).toBe(true);
    // Outside a trial it changes nothing; any other trial_end is refused by name.
    expect((await api<Stripe.Subscription>('POST', `subscriptions/${subscription}`, { trial_end: 'now' })).latest_invoice).toBe(latest.id);
    await expect(api('POST', `subscriptions/${subscription}`, { trial_end: '1900000000' })).rejects.toThrow(/trial_end=now only/);
  });

  it('turns a trial whose card fails into past_due, then ends it after 14 days', async () => {
    const subscription = await subscribe('4000 0000 0000 0341');
    const atTrialEnd = await advance(7 * DAY + 60);
    expect(atTrialEnd).toEqual(expect.arrayContaining(['invoice.payment_failed', 'customer.subscription.updated']));
    expect((await api<Stripe.Subscription>('GET', `subscriptions/${subscription}`)).status).toBe('past_due');
    expect(await advance(15 * DAY)).toContain('customer.subscription.deleted');
    expect((await api<Stripe.Subscription>('GET', `subscriptions/${subscription}`)).status).toBe('canceled');
  });

  it('switches an active monthly plan to annual in the portal: a new annual period billed at once', async () => {
    const subscription = await subscribe('4242424242424242');
    await advance(7 * DAY + 60);
    const { customer } = await api<{ customer: string }>('GET', `subscriptions/${subscription}`);
    const portal = await api<{ url: string; id: string }>('POST', 'billing_portal/sessions', { customer, return_url: `${ORIGIN}/profile` });
    const page = await (await endpoint.handler(new Request(portal.url))).text();
    expect(page).toContain('Switch to annual');
    const switched = await endpoint.handler(
      new Request(portal.url, { method: 'POST', body: new URLSearchParams({ subscription, action: 'switch_annual' }) }),
    );
    expect(switched.status).toBe(303);
    const state = await api<Stripe.Subscription>('GET', `subscriptions/${subscription}`);
    expect([state.status, state.items.data[0]!.price.id, state.items.data[0]!.price.recurring?.interval]).toEqual(['active', LOCAL_STRIPE_PRICES.annual, 'year']);
    const latest = await api<Stripe.Invoice>('GET', `invoices/${state.latest_invoice as string}`);
    expect([latest.billing_reason, latest.amount_paid]).toEqual(['subscription_update', 7518]);
  });

  it('refuses a declined card on the checkout page and starts nothing', async () => {
    const customer = await api<{ id: string }>('POST', 'customers', {});
    const session = await api<{ id: string }>('POST', 'checkout/sessions', {
      mode: 'subscription',
      customer: customer.id,
      'line_items[0][price]': LOCAL_STRIPE_PRICES.monthly,
      success_url: `${ORIGIN}/library`,
    });
    const declined = await endpoint.handler(
      new Request(`${ORIGIN}/_stripe/checkout/${session.id}`, { method: 'POST', body: new URLSearchParams({ card: '4000000000000002', action: 'pay' }) }),
    );
    expect(declined.status).toBe(402);
    expect(await declined.text()).toContain('Your card was declined.');
    expect(await api<{ status: string; subscription: null }>('GET', `checkout/sessions/${session.id}`)).toMatchObject({ status: 'open', subscription: null });
  });

  it("answers unknown objects, bad parameters and missing keys with Stripe's error shape", async () => {
    const cases: [string, Request, number, unknown][] = [
      ['no API key', new Request(`${ORIGIN}/v1/customers`), 401,
        { error: { type: 'invalid_request_error', message: 'Invalid API Key provided: the local Stripe endpoint takes sk_test_ keys' } }],
      ['an unknown subscription', new Request(`${ORIGIN}/v1/subscriptions/sub_nope`, { headers: { authorization: `Bearer ${LOCAL_STRIPE_SECRET_KEY}` } }), 404,
        { error: { type: 'invalid_request_error', message: "No such subscription: 'sub_nope'", code: 'resource_missing', param: 'id' } }],
      ['an unknown price', new Request(`${ORIGIN}/v1/checkout/sessions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${LOCAL_STRIPE_SECRET_KEY}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'mode=subscription&line_items[0][price]=price_nope&success_url=http://x.test',
      }), 404, { error: { type: 'invalid_request_error', message: "No such price: 'price_nope'", code: 'resource_missing', param: 'line_items[0][price]' } }],
      ['an unknown route', new Request(`${ORIGIN}/v1/charges`, { headers: { authorization: `Bearer ${LOCAL_STRIPE_SECRET_KEY}` } }), 404,
        { error: { type: 'invalid_request_error', message: 'Unrecognized request URL (GET: /v1/charges).' } }],
    ];
    for (const [name, request, status, body] of cases) {
      const response = await endpoint.handler(request);
      expect([name, response.status, await response.json()]).toEqual([name, status, body]);
    }
  });

  it('refuses a test clock move that is not a positive whole number of seconds', async () => {
    for (const seconds of [0, -5, 1.5, '60']) {
      const response = await endpoint.handler(new Request(`${ORIGIN}/_stripe/test/advance`, { method: 'POST', body: JSON.stringify({ seconds }) }));
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: { code: 'invalid_body', message: 'seconds: a whole number of seconds from 1 to ten years' } });
    }
  });
});
