import { LOCAL_STRIPE_PRICES, LOCAL_STRIPE_SECRET_KEY } from '../../supabase/functions/_shared/local-stripe-defaults.ts';
import type { Database } from '../db/database.ts';
import type { ApiHandler } from '../http/api-handler.ts';

/**
 * The demo subscriber's card: not the checkout page's prefilled 4242 card, whose
 * trial the next new account of the demo may still take (one trial per card).
 */
export const DEMO_SUBSCRIBER_CARD = '5555 5555 5555 4444';

/** The local stack's handler and address: the local Stripe endpoint answers at /v1/ and /_stripe/ on it. */
export interface DemoStripe {
  handler: ApiHandler;
  url: string;
  annualPrice?: string;
}

interface StripeSubscription {
  id: string;
  customer: string;
  status: string;
  items: { data: { current_period_end: number; price: { id: string } }[] };
}

async function stripeCall<T>(stripe: DemoStripe, method: 'GET' | 'POST', path: string, params: Record<string, string> = {}): Promise<T> {
  const body = new URLSearchParams(params).toString();
  const response = await stripe.handler(
    new Request(`${stripe.url}${path}${method === 'GET' && body ? `?${body}` : ''}`, {
      method,
      headers: { authorization: `Bearer ${LOCAL_STRIPE_SECRET_KEY}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: method === 'GET' ? undefined : body,
    }),
  );
  if (response.status >= 400) throw new Error(`The local Stripe endpoint answered ${method} ${path} with ${response.status}: ${await response.text()}`);
  return (path.startsWith('/v1/') ? response.json() : undefined) as Promise<T>;
}

/**
 * Makes a demo account a real customer of the local Stripe endpoint with an
 * active annual subscription, bought through its checkout page as a person
 * would, so that every billing button (portal, cancelling) works for it. The
 * subscription row is written at once, as stripe-webhook will write it again
 * when the events arrive, so access does not wait for the delivery.
 */
export async function subscribeDemoAccount(db: Database, stripe: DemoStripe, user: { id: string; email: string; name: string }): Promise<void> {
  const price = stripe.annualPrice ?? LOCAL_STRIPE_PRICES.annual;
  const customer = await stripeCall<{ id: string }>(stripe, 'POST', '/v1/customers', {
    email: user.email,
    name: user.name,
    'metadata[user_id]': user.id,
  });
  await db.query('select public.link_billing_customer($1, $2)', [user.id, customer.id]);
  const session = await stripeCall<{ id: string }>(stripe, 'POST', '/v1/checkout/sessions', {
    mode: 'subscription',
    customer: customer.id,
    'line_items[0][price]': price,
    'line_items[0][quantity]': '1',
    success_url: `${stripe.url}/library?checkout=success`,
    cancel_url: `${stripe.url}/library`,
    client_reference_id: user.id,
    'subscription_data[metadata][user_id]': user.id,
    'metadata[user_id]': user.id,
  });
  await stripeCall(stripe, 'POST', `/_stripe/checkout/${session.id}`, { action: 'pay', card: DEMO_SUBSCRIBER_CARD });
  const completed = await stripeCall<{ subscription: string | null }>(stripe, 'GET', `/v1/checkout/sessions/${session.id}`);
  if (!completed.subscription) throw new Error('The demo checkout did not start a subscription');
  const subscription = await stripeCall<StripeSubscription>(stripe, 'GET', `/v1/subscriptions/${completed.subscription}`);
  const item = subscription.items.data[0]!;
  await db.query(
    `insert into public.subscriptions (user_id, stripe_customer_id, stripe_subscription_id, status, tier, price_id, current_period_end)
     values ($1, $2, $3, $4, 'annual', $5, to_timestamp($6))
     on conflict (stripe_subscription_id) do nothing`,
    [user.id, customer.id, subscription.id, subscription.status, item.price.id, item.current_period_end],
  );
}
