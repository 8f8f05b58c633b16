import { createHmac } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import Stripe from 'stripe';
import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { LOCAL_STRIPE_PRICES, LOCAL_STRIPE_SECRET_KEY, LOCAL_STRIPE_WEBHOOK_SECRET } from '../../supabase/functions/_shared/local-stripe-defaults.ts';
import { startLocalStack, type LocalStack } from '../../local/stack.ts';
import { createStripeEndpoint } from '../../local/stripe/stripe-endpoint.ts';
import { DEMO_ACCOUNTS, seedDemoAccounts } from '../../local/seed/demo-accounts.ts';
import { describeOnEngines } from '../support/engines.ts';
import { newUser, type TestUser } from '../support/factories.ts';
import { userToken } from '../support/local-config.ts';
import { TEST_CARDS } from '../../local/stripe/billing-engine.ts';
import { freshCardNumber } from '../support/test-cards.ts';

const DAY = 86_400;

interface SubscriptionStatus {
  subscribed: boolean;
  subscription_tier: string;
  subscription_end: string | null;
  cancel_at_period_end: boolean;
  current_period_end: number | null;
  trial_eligible: boolean;
  plan?: string | null;
  trial_end?: string | null;
  next_charge?: { amount: number; currency: string; at: string } | null;
}

/** The inputs and buttons of the first form on a page, as a browser would submit them. */
function formOf(html: string): { action: string; fields: Record<string, string> } {
  const form = /<form method="post" action="([^"]+)">([\s\S]*?)<\/form>/.exec(html);
  if (!form) throw new Error('The page has no form');
  const fields: Record<string, string> = {};
  for (const input of form[2]!.matchAll(/<input [^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)) fields[input[1]!] = input[2]!;
  return { action: form[1]!, fields };
}

/** The hex HMAC Stripe puts in v1=. */
const hmac = (payload: string, timestamp: number, secret = LOCAL_STRIPE_WEBHOOK_SECRET) =>
  createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex');

describeOnEngines('billing through the local stack', (ctx) => {
  let stack: LocalStack;
  const dataDir = `.tmp/billing-${process.pid}-${ctx.engine}`;

  beforeAll(async () => {
    stack = await startLocalStack({ db: ctx.db, port: 0, env: { DATA_DIR: dataDir } });
  });
  afterAll(async () => {
    await stack?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const clientFor = async (user: TestUser | null, token?: string): Promise<SupabaseClient> =>
    createClient(stack.url, stack.config.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false },
      // Node 20 has no global WebSocket.
      realtime: { transport: WebSocket as never },
      global: { headers: { Authorization: `Bearer ${token ?? (user ? await userToken(stack.config, user) : stack.config.anonKey)}` } },
    });

  async function invoke<T>(user: TestUser, name: string, body?: unknown): Promise<{ status: number; body: T }> {
    const { data, error } = await (await clientFor(user)).functions.invoke(name, body === undefined ? {} : { body: body as Record<string, unknown> });
    if (error) {
      const response = (error as { context?: Response }).context;
      if (!response) throw error;
      return { status: response.status, body: (await response.json()) as T };
    }
    return { status: 200, body: data as T };
  }

  const checkSubscription = async (user: TestUser) => (await invoke<SubscriptionStatus>(user, 'check-subscription')).body;

  const hasValidAccess = async (user: TestUser) => {
    const { data, error } = await (await clientFor(user)).rpc('has_valid_access');
    if (error) throw error;
    return data as boolean;
  };

  /**
   * Starts a checkout as the user and submits the local checkout page's form with the given button, paying with
   * `card` (by default one no other test uses: the trial is given once per card).
   */
  async function checkOut(user: TestUser, button: 'pay' | 'trial_without_card', body: Record<string, unknown> = {}, card = freshCardNumber()) {
    const started = await invoke<{ url: string; trial: boolean }>(user, 'create-checkout', { priceId: LOCAL_STRIPE_PRICES.monthly, trialDays: 7, baseUrl: stack.url, ...body });
    expect(started.status).toBe(200);
    const pageResponse = await fetch(started.body.url);
    expect(pageResponse.status).toBe(200);
    const html = await pageResponse.text();
    const form = formOf(html);
    const submitted = await fetch(new URL(form.action, started.body.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...form.fields, card, action: button }),
      redirect: 'manual',
    });
    return { html, submitted, sessionId: new URL(started.body.url).pathname.split('/').pop()!, trial: started.body.trial };
  }

  const advanceClock = async (seconds: number) => {
    const response = await fetch(`${stack.url}/_stripe/test/advance`, { method: 'POST', body: JSON.stringify({ seconds }) });
    expect(response.status).toBe(200);
    return (await response.json()) as { now: number; events: { id: string; type: string }[] };
  };

  const subscriptionRows = async (user: TestUser) =>
    (
      await ctx.db.query<{ stripe_subscription_id: string; status: string; cancel_at_period_end: boolean; stripe_event_created: string }>(
        'select stripe_subscription_id, status, cancel_at_period_end, stripe_event_created from public.subscriptions where user_id = $1',
        [user.id],
      )
    ).rows;

  it('takes a free user through checkout to a Free Trial that grants access, with the coupon shown', async () => {
    const user = await newUser(ctx.db);
    expect(await checkSubscription(user)).toEqual({
      subscribed: false,
      subscription_tier: 'Free',
      subscription_end: null,
      cancel_at_period_end: false,
      current_period_end: null,
      plan: null,
      trial_end: null,
      next_charge: null,
      trial_eligible: true,
    });
    expect(await hasValidAccess(user)).toBe(false);

    const { html, submitted, sessionId } = await checkOut(user, 'pay', { couponCode: ' obyect20 ' });
    expect(html).toContain('Obyect Monthly');
    expect(html).toContain('<s>€8,95</s> €7,16');
    expect(html).toContain('7-day free trial');
    expect(html).toContain('value="4242 4242 4242 4242"');
    expect(submitted.status).toBe(303);
    expect(submitted.headers.get('location')).toBe(`${stack.url}/library?checkout=success&session_id=${sessionId}`);

    // The webhook arrived before the browser was sent back.
    const status = await checkSubscription(user);
    expect(status).toMatchObject({ subscribed: true, subscription_tier: 'Free Trial', cancel_at_period_end: false });
    const trialEnd = Date.parse(status.subscription_end!);
    expect(Math.abs(trialEnd - (Date.now() + 7 * DAY * 1000))).toBeLessThan(60_000);
    expect(status.current_period_end).toBe(Math.floor(trialEnd / 1000));
    // The plan bought, and its first charge when the trial ends: the monthly price less the 20% coupon, from Stripe's preview.
    expect(status).toMatchObject({ plan: 'Monthly', trial_end: status.subscription_end, next_charge: { amount: 716, currency: 'eur', at: status.subscription_end } });
    expect(await hasValidAccess(user)).toBe(true);
    const { rows } = await ctx.db.query<{ stripe_customer_id: string }>('select stripe_customer_id from public.billing_customers where user_id = $1', [user.id]);
    expect(rows).toHaveLength(1);
  });

  /** The Stripe subscription behind the user's newest row, as the local Stripe holds it. */
  const stripeSubscriptionOf = async (user: TestUser) => {
    const { rows } = await ctx.db.query<{ data: { status: string; trial_start: number | null; latest_invoice: string } }>(
      `select o.data from stripe_local.objects o
         join public.subscriptions s on s.stripe_subscription_id = o.id
        where s.user_id = $1 order by s.created_at desc limit 1`,
      [user.id],
    );
    return rows[0]!.data;
  };

  it('gives the trial once per account: cancelled and checked out again, no trial days are asked and the plan is paid at once', async () => {
    const user = await newUser(ctx.db);
    const first = await checkOut(user, 'pay');
    expect(first.trial).toBe(true);
    expect(await checkSubscription(user)).toMatchObject({ subscription_tier: 'Free Trial', trial_eligible: false });
    expect((await invoke(user, 'cancel-subscription', { immediate: true })).status).toBe(200);
    expect(await checkSubscription(user)).toMatchObject({ subscribed: false, subscription_tier: 'Free', trial_eligible: false });
    // The record outlives the subscription rows.
    await ctx.db.query('delete from public.subscriptions where user_id = $1', [user.id]);
    expect((await checkSubscription(user)).trial_eligible).toBe(false);

    // Another card, so that only the account's own history can refuse the trial; the SPA may still send trialDays.
    const again = await checkOut(user, 'pay', { trialDays: 7 });
    expect(again.trial).toBe(false);
    expect(again.html).not.toContain('free trial');
    expect(again.html).toContain('€8,95 due today.');
    expect(again.submitted.status).toBe(303);
    const subscription = await stripeSubscriptionOf(user);
    expect([subscription.status, subscription.trial_start]).toEqual(['active', null]);
    expect(await checkSubscription(user)).toMatchObject({ subscribed: true, subscription_tier: 'Monthly', trial_eligible: false });
    expect(await hasValidAccess(user)).toBe(true);
  });

  it('ends at once the trial of a new account paying with a card that had one: the plan is active and paid, and access follows', async () => {
    const card = freshCardNumber();
    const first = await newUser(ctx.db);
    await checkOut(first, 'pay', {}, card);
    expect((await checkSubscription(first)).subscription_tier).toBe('Free Trial');

    const second = await newUser(ctx.db);
    // Nothing tells the second account's checkout about the card in advance.
    expect((await checkSubscription(second)).trial_eligible).toBe(true);
    const { html, submitted, trial } = await checkOut(second, 'pay', {}, card.replace(/(\d{4})(?=\d)/g, '$1 '));
    expect([trial, html.includes('7-day free trial')]).toEqual([true, true]);
    expect(submitted.status).toBe(303);

    // By the time the browser is back, stripe-webhook has ended the trial in Stripe and stored the paid plan.
    const subscription = await stripeSubscriptionOf(second);
    expect(subscription.status).toBe('active');
    const invoice = await ctx.db.query<{ data: { status: string; amount_paid: number; billing_reason: string } }>(
      'select data from stripe_local.objects where id = $1',
      [subscription.latest_invoice],
    );
    expect(invoice.rows[0]!.data).toMatchObject({ status: 'paid', amount_paid: 895, billing_reason: 'subscription_update' });
    expect((await subscriptionRows(second)).map((row) => row.status)).toEqual(['active']);
    expect(await checkSubscription(second)).toMatchObject({ subscribed: true, subscription_tier: 'Monthly', trial_eligible: false });
    expect(await hasValidAccess(second)).toBe(true);
    // The card's first trial is untouched.
    expect((await checkSubscription(first)).subscription_tier).toBe('Free Trial');
  });

  it("previews the demo coupon's terms before checkout, in any case, and refuses an unknown code as checkout does", async () => {
    const user = await newUser(ctx.db);
    expect(await invoke(user, 'preview-coupon', { couponCode: ' obyect20 ' })).toEqual({
      status: 200,
      body: { code: 'OBYECT20', percent_off: 20, amount_off: null, currency: null, duration: 'forever', duration_in_months: null },
    });
    expect(await invoke(user, 'preview-coupon', { couponCode: 'NOTACODE' })).toEqual({
      status: 400,
      body: { error: { code: 'invalid_coupon', message: 'Coupon code "NOTACODE" is not valid' } },
    });
  });

  it('refuses an unknown coupon with a clear 400 and a second checkout while subscribed with 409', async () => {
    const user = await newUser(ctx.db);
    const refused = await invoke(user, 'create-checkout', { priceId: LOCAL_STRIPE_PRICES.annual, couponCode: 'NOTACODE' });
    expect(refused).toEqual({ status: 400, body: { error: { code: 'invalid_coupon', message: 'Coupon code "NOTACODE" is not valid' } } });
    await checkOut(user, 'pay');
    const again = await invoke(user, 'create-checkout', { priceId: LOCAL_STRIPE_PRICES.annual });
    expect(again).toEqual({
      status: 409,
      body: { error: { code: 'already_subscribed', message: 'You already have a subscription; manage it from your profile' } },
    });
  });

  it('cancels at period end: still subscribed with the notice, then Free once the clock passes the period end', async () => {
    const user = await newUser(ctx.db);
    await checkOut(user, 'pay');
    const cancelled = await invoke<{ subscription: { current_period_end: number } }>(user, 'cancel-subscription', { immediate: false });
    expect(cancelled.status).toBe(200);
    const status = await checkSubscription(user);
    expect(status).toMatchObject({ subscribed: true, subscription_tier: 'Free Trial', cancel_at_period_end: true });
    expect(cancelled.body.subscription.current_period_end).toBe(status.current_period_end);

    const advanced = await advanceClock(8 * DAY);
    expect(advanced.events.map((event) => event.type)).toContain('customer.subscription.deleted');
    expect(await checkSubscription(user)).toMatchObject({ subscribed: false, subscription_tier: 'Free' });
    expect(await hasValidAccess(user)).toBe(false);
    expect((await subscriptionRows(user))[0]!.status).toBe('canceled');
  });

  it('starts a checkout from every loopback name the development stack answers to, and from no other origin', async () => {
    const user = await newUser(ctx.db);
    const port = new URL(stack.url).port;
    for (const origin of [`http://localhost:${port}`, `http://127.0.0.1:${port}`, `http://[::1]:${port}`]) {
      const started = await invoke<{ url: string }>(user, 'create-checkout', { priceId: LOCAL_STRIPE_PRICES.monthly, baseUrl: origin });
      expect(started.status, origin).toBe(200);
    }
    const refused = await invoke<{ error: { code: string } }>(user, 'create-checkout', { priceId: LOCAL_STRIPE_PRICES.monthly, baseUrl: 'http://127.0.0.2:9' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('origin_not_allowed');
  });

  it('lets a user try 10 coupon codes in 10 minutes, then answers 429 with when to try again, and Stripe is not asked', async () => {
    const user = await newUser(ctx.db);
    for (let i = 0; i < 10; i += 1) expect((await invoke(user, 'preview-coupon', { couponCode: `GUESS${i}` })).status).toBe(400);
    const refused = await invoke<{ error: { code: string; message: string } }>(user, 'preview-coupon', { couponCode: 'OBYECT20' });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toEqual({ code: 'too_many_requests', message: 'Too many coupon codes tried. Please try again in 10 minutes.' });
    // Counted under the address the stack resolved for the caller.
    const { rows } = await ctx.db.query<{ address: string }>('select distinct address from private.coupon_previews where user_id = $1', [user.id]);
    expect(rows).toEqual([{ address: '127.0.0.1' }]);
  });

  it('asks for a card for the trial too: the checkout offers no trial without one and refuses it when sent anyway', async () => {
    const user = await newUser(ctx.db);
    const { html, submitted } = await checkOut(user, 'trial_without_card');
    expect(html).toContain('7-day free trial');
    expect(html).not.toContain('Start trial without card');
    expect(submitted.status).toBe(400);
    expect(await submitted.text()).toContain('A card is needed: this checkout collects a payment method for its trial too.');
    expect(await checkSubscription(user)).toMatchObject({ subscribed: false, subscription_tier: 'Free' });
  });

  it('ends a trial whose card fails its first charge as Free, and turns a trial with the demo card into a paid Monthly plan', async () => {
    const failing = await newUser(ctx.db);
    const withCard = await newUser(ctx.db);
    await checkOut(failing, 'pay', {}, TEST_CARDS.failsCharges);
    await checkOut(withCard, 'pay');
    expect((await checkSubscription(failing)).subscription_tier).toBe('Free Trial');

    const advanced = await advanceClock(8 * DAY);
    expect(advanced.events.map((event) => event.type)).toEqual(expect.arrayContaining(['customer.subscription.trial_will_end', 'invoice.paid', 'invoice.payment_failed']));
    expect(await checkSubscription(failing)).toMatchObject({ subscribed: false, subscription_tier: 'Free' });
    const paid = await checkSubscription(withCard);
    expect(paid).toMatchObject({ subscribed: true, subscription_tier: 'Monthly', cancel_at_period_end: false });
    // The first paid month starts where the trial ended.
    expect(paid.current_period_end! - Math.floor(Date.now() / 1000)).toBeGreaterThan(7 * DAY + 27 * DAY);
  });

  it('cancels at once: access ends now', async () => {
    const user = await newUser(ctx.db);
    await checkOut(user, 'pay');
    const cancelled = await invoke<{ subscription: { current_period_end: number } }>(user, 'cancel-subscription', { immediate: true });
    expect(cancelled.status).toBe(200);
    expect(await checkSubscription(user)).toMatchObject({ subscribed: false, subscription_tier: 'Free' });
    expect(await hasValidAccess(user)).toBe(false);
  });

  it('opens the billing portal, which resumes a subscription set to cancel and returns to /profile', async () => {
    const user = await newUser(ctx.db);
    await checkOut(user, 'pay');
    await invoke(user, 'cancel-subscription', { immediate: false });
    const opened = await invoke<{ url: string }>(user, 'customer-portal');
    expect(opened.status).toBe(200);
    const html = await (await fetch(opened.body.url)).text();
    expect(html).toContain(`href="${stack.url}/profile"`);
    const resume = /<form method="post" action="([^"]+)">\s*<input type="hidden" name="subscription" value="([^"]+)">\s*<button type="submit" name="action" value="resume">/.exec(html);
    expect(resume).not.toBeNull();
    const submitted = await fetch(new URL(resume![1]!, opened.body.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ subscription: resume![2]!, action: 'resume' }),
      redirect: 'manual',
    });
    expect(submitted.status).toBe(303);
    expect(await checkSubscription(user)).toMatchObject({ subscribed: true, cancel_at_period_end: false });
  });

  it('answers a user without a billing account or a subscription with named errors', async () => {
    const user = await newUser(ctx.db);
    expect(await invoke(user, 'customer-portal')).toEqual({
      status: 404,
      body: { error: { code: 'no_billing_account', message: 'You have no billing account yet; start a subscription first' } },
    });
    expect(await invoke(user, 'cancel-subscription', { immediate: false })).toEqual({
      status: 404,
      body: { error: { code: 'no_subscription', message: 'You have no subscription to cancel' } },
    });
  });

  it('refuses a user who writes to subscriptions or profiles directly', async () => {
    const user = await newUser(ctx.db);
    const client = await clientFor(user);
    const inserted = await client.from('subscriptions').insert({
      user_id: user.id, stripe_customer_id: 'cus_self', stripe_subscription_id: 'sub_self', status: 'active', tier: 'annual', price_id: 'price_self',
    });
    expect(inserted.error?.code).toBe('42501');
    const updated = await client.from('profiles').update({ black_friday_access: true }).eq('user_id', user.id);
    expect(updated.error?.code).toBe('42501');
    const forged = await client.rpc('apply_stripe_event', {
      p_event_id: 'evt_self', p_event_type: 'customer.subscription.created', p_event_created: 1,
      p_subscription: { user_id: user.id, stripe_customer_id: 'cus_self', stripe_subscription_id: 'sub_self', status: 'active', tier: 'annual', price_id: 'p' },
    });
    expect(forged.error?.code).toBe('42501');
    expect(await subscriptionRows(user)).toEqual([]);
    expect(await hasValidAccess(user)).toBe(false);
  });

  it('answers check-subscription with a forged token with 401', async () => {
    const user = await newUser(ctx.db);
    const forged = `${(await userToken(stack.config, user)).slice(0, -4)}AAAA`;
    const { error } = await (await clientFor(null, forged)).functions.invoke('check-subscription');
    expect((error as { context?: Response }).context?.status).toBe(401);
    const expired = await userToken(stack.config, user, -60);
    const late = await (await clientFor(null, expired)).functions.invoke('check-subscription');
    expect((late.error as { context?: Response }).context?.status).toBe(401);
  });

  it('changes nothing when a webhook is replayed with the same event id, and refuses a tampered signature', async () => {
    const user = await newUser(ctx.db);
    await checkOut(user, 'pay');
    const [row] = await subscriptionRows(user);
    const { rows } = await ctx.db.query<{ data: Record<string, unknown> }>(
      `select data from stripe_local.objects where object = 'event' and data->>'type' = 'customer.subscription.created'
          and data->'data'->'object'->>'id' = $1`,
      [row!.stripe_subscription_id],
    );
    const { pending_webhooks: _pending, ...event } = rows[0]!.data;
    const payload = JSON.stringify({ ...event, pending_webhooks: 1 });
    const timestamp = Math.floor(Date.now() / 1000);
    const deliver = (signature: string) =>
      fetch(`${stack.url}/functions/v1/stripe-webhook`, { method: 'POST', headers: { 'stripe-signature': signature, 'content-type': 'application/json' }, body: payload });

    const replayed = await deliver(`t=${timestamp},v1=${hmac(payload, timestamp)}`);
    expect(replayed.status).toBe(200);
    expect(await replayed.json()).toEqual({ received: true, outcome: 'duplicate' });
    expect(await subscriptionRows(user)).toEqual([row]);

    const tampered = await deliver(`t=${timestamp},v1=${hmac(payload, timestamp).replace(/^./, (c) => (c === '0' ? '1' : '0'))}`);
    expect(tampered.status).toBe(400);
    expect(await tampered.json()).toEqual({ error: { code: 'invalid_signature', message: 'The Stripe-Signature does not match the payload' } });
    const stale = await deliver(`t=${timestamp - 301},v1=${hmac(payload, timestamp - 301)}`);
    expect(await stale.json()).toEqual({
      error: { code: 'invalid_signature', message: 'The Stripe-Signature timestamp is more than 300 seconds old' },
    });
  });

  it("speaks the Stripe SDK's wire format: expand[], search by metadata, idempotency keys and Stripe's errors", async () => {
    const url = new URL(stack.url);
    const stripe = new Stripe(LOCAL_STRIPE_SECRET_KEY, { host: url.hostname, port: Number(url.port), protocol: 'http', maxNetworkRetries: 0 });
    const customer = await stripe.customers.create({ email: 'sdk@example.test', metadata: { user_id: 'sdk-user' } }, { idempotencyKey: 'sdk-customer' });
    const again = await stripe.customers.create({ email: 'sdk@example.test', metadata: { user_id: 'sdk-user' } }, { idempotencyKey: 'sdk-customer' });
    expect(again.id).toBe(customer.id);
    const found = await stripe.customers.search({ query: "metadata['user_id']:'sdk-user'" });
    expect(found.data.map((item) => item.id)).toEqual([customer.id]);
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: customer.id,
      line_items: [{ price: LOCAL_STRIPE_PRICES.annual, quantity: 1 }],
      success_url: `${stack.url}/library?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
    });
    const expanded = await stripe.checkout.sessions.retrieve(session.id, { expand: ['customer'] });
    expect((expanded.customer as Stripe.Customer).email).toBe('sdk@example.test');
    const codes = await stripe.promotionCodes.list({ code: 'OBYECT20', active: true });
    expect(codes.data.map((code) => code.promotion.coupon)).toEqual(['obyect20']);
    await expect(stripe.subscriptions.retrieve('sub_missing')).rejects.toMatchObject({ type: 'StripeInvalidRequestError', code: 'resource_missing', statusCode: 404 });
    await expect(stripe.customers.create({}, { idempotencyKey: 'sdk-customer' })).rejects.toMatchObject({ type: 'StripeIdempotencyError' });
  });

  it('keeps its state in the database across a restart of the endpoint', async () => {
    const user = await newUser(ctx.db);
    await checkOut(user, 'pay');
    const [row] = await subscriptionRows(user);
    const restarted = await createStripeEndpoint({ db: ctx.db, env: {}, stackUrl: stack.url, log: () => {} });
    try {
      const response = await restarted.handler(
        new Request(`${stack.url}/v1/subscriptions/${row!.stripe_subscription_id}`, { headers: { authorization: `Bearer ${LOCAL_STRIPE_SECRET_KEY}` } }),
      );
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ id: row!.stripe_subscription_id, status: 'trialing', metadata: { user_id: user.id } });
    } finally {
      await restarted.close();
    }
  });
  it('makes the demo subscriber a customer of the local Stripe, for whom the portal opens and cancelling at period end works', async () => {
    await seedDemoAccounts(ctx.db, { stripe: { handler: stack.handler, url: stack.url } });
    const email = DEMO_ACCOUNTS.find((account) => account.role === 'subscriber')!.email;
    const { rows } = await ctx.db.query<{ id: string }>('select id from auth.users where email = $1', [email]);
    const subscriber: TestUser = { id: rows[0]!.id, email };
    expect((await subscriptionRows(subscriber)).map((row) => [row.stripe_subscription_id.startsWith('sub_'), row.stripe_subscription_id === 'sub_demo_subscriber', row.status]))
      .toEqual([[true, false, 'active']]);
    expect(await checkSubscription(subscriber)).toMatchObject({ subscribed: true, subscription_tier: 'Annual', cancel_at_period_end: false });

    const opened = await invoke<{ url: string }>(subscriber, 'customer-portal');
    expect(opened.status).toBe(200);
    expect((await fetch(opened.body.url)).status).toBe(200);
    const cancelled = await invoke<{ subscription: { current_period_end: number } }>(subscriber, 'cancel-subscription', { immediate: false });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.subscription.current_period_end * 1000).toBeGreaterThan(Date.now() + 300 * DAY * 1000);
    await expect.poll(async () => (await checkSubscription(subscriber)).cancel_at_period_end, { timeout: 15_000 }).toBe(true);
  });
});
