import type { ApiHandler } from '../http/api-handler.ts';
import type { BillingEngine } from './billing-engine.ts';
import { arrayParam, booleanParam, integerParam, objectParam, parseStripeParams, text, type FormObject, type FormValue } from './form-body.ts';
import { discounted, resourceMissing, StripeApiError, type CustomerObject, type PromotionCodeObject, type SubscriptionObject } from './stripe-objects.ts';
import { newId, publicView, type StoredObject, type StripeState } from './stripe-state.ts';

interface ApiRequest {
  method: string;
  path: string[];
  params: FormObject;
}

type Route = (request: ApiRequest) => Promise<unknown>;

const stringRecord = (value: FormValue | undefined): Record<string, string> =>
  Object.fromEntries(Object.entries(objectParam(value) ?? {}).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));

/** `metadata['user_id']:'...'`, `email:'...'` and `name:'...'` clauses joined by AND or OR: the part of Stripe's search language the product uses. */
function searchMatcher(query: string): (customer: CustomerObject) => boolean {
  const joiner = /\s+OR\s+/i.test(query) ? 'or' : 'and';
  const clauses = query.split(/\s+(?:AND|OR)\s+/i).map((clause) => {
    const match = /^(?:metadata\[(['"])(.+?)\1\]|(email|name))\s*:\s*(['"])(.*)\4$/.exec(clause.trim());
    if (!match) throw new StripeApiError(400, `The local Stripe endpoint cannot search for: ${clause}`, { param: 'query' });
    const [, , metadataKey, field, , value] = match;
    return (customer: CustomerObject) =>
      metadataKey !== undefined ? customer.metadata[metadataKey] === value : customer[field as 'email' | 'name'] === value;
  });
  return (customer) => (joiner === 'and' ? clauses.every((clause) => clause(customer)) : clauses.some((clause) => clause(customer)));
}

/** A page of a list, newest first, as Stripe pages them (limit, starting_after). */
function page<T extends StoredObject>(items: T[], params: FormObject, url: string) {
  const limit = Math.min(Math.max(integerParam(params.limit) ?? 10, 1), 100);
  const after = text(params.starting_after);
  const start = after ? items.findIndex((item) => item.id === after) + 1 : 0;
  const data = items.slice(start, start + limit);
  return { object: 'list', data: data.map(publicView), has_more: start + limit < items.length, url };
}

/**
 * The Stripe REST API at /v1/, as far as the functions use it: form-encoded
 * parameters, expand[], idempotency keys, Stripe's error shape. The SDK's
 * base path is /v1/, so the local stack routes that prefix here.
 */
export function createStripeApi(options: {
  state: StripeState;
  engine: BillingEngine;
  apiVersion: string;
  /** Called after every change, e.g. to send its webhooks. */
  afterChange: () => void;
}): ApiHandler {
  const { state, engine } = options;

  const retrieve = (object: string, kind: string): Route => async ({ path }) => {
    const id = path.at(-1)!;
    const found = await state.get(id, object);
    if (!found) throw resourceMissing(kind, id);
    return publicView(found);
  };

  const routes: Record<string, Route> = {
    'POST customers': ({ params }) =>
      engine.createCustomer({ email: text(params.email), name: text(params.name), metadata: stringRecord(params.metadata) }).then(publicView),
    'GET customers/:id': retrieve('customer', 'customer'),
    'GET customers/search': async ({ params }) => {
      const query = text(params.query);
      if (!query) throw new StripeApiError(400, 'Missing required param: query.', { code: 'parameter_missing', param: 'query' });
      const found = await state.list<CustomerObject>('customer', searchMatcher(query));
      return { ...page(found, params, '/v1/customers/search'), object: 'search_result', next_page: null };
    },
    'GET customers': async ({ params }) => {
      const email = text(params.email);
      return page(await state.list<CustomerObject>('customer', (customer) => !email || customer.email === email), params, '/v1/customers');
    },
    'POST checkout/sessions': async ({ params }) => {
      const lineItem = objectParam(arrayParam(params.line_items)[0]);
      const subscriptionData = objectParam(params.subscription_data) ?? {};
      const quantity = integerParam(lineItem?.quantity) ?? 1;
      if (quantity !== 1) throw new StripeApiError(400, 'The local Stripe endpoint sells one subscription at a time', { param: 'line_items[0][quantity]' });
      const session = await engine.createCheckoutSession({
        mode: text(params.mode),
        customer: text(params.customer) || undefined,
        customerEmail: text(params.customer_email) || undefined,
        clientReferenceId: text(params.client_reference_id) || undefined,
        price: text(lineItem?.price),
        trialDays: integerParam(subscriptionData.trial_period_days),
        paymentMethodCollection: text(params.payment_method_collection) || undefined,
        subscriptionMetadata: stringRecord(subscriptionData.metadata),
        metadata: stringRecord(params.metadata),
        discount: objectParam(arrayParam(params.discounts)[0]),
        successUrl: text(params.success_url),
        cancelUrl: text(params.cancel_url) || undefined,
      });
      return publicView(session);
    },
    'GET checkout/sessions/:id': retrieve('checkout.session', 'checkout.session'),
    'GET subscriptions/:id': retrieve('subscription', 'subscription'),
    'POST subscriptions/:id': async ({ path, params }) => {
      const item = objectParam(arrayParam(params.items)[0]);
      const trialEnd = text(params.trial_end);
      if (trialEnd !== undefined && trialEnd !== 'now') {
        throw new StripeApiError(400, 'The local Stripe endpoint supports trial_end=now only', { param: 'trial_end' });
      }
      const updated = await engine.updateSubscription(path[1]!, {
        cancelAtPeriodEnd: booleanParam(params.cancel_at_period_end),
        metadata: objectParam(params.metadata) ? stringRecord(params.metadata) : undefined,
        price: text(item?.price) || undefined,
        trialEnd,
      });
      return publicView(updated);
    },
    'DELETE subscriptions/:id': async ({ path }) => publicView(await engine.cancelSubscription(path[1]!)),
    'GET subscriptions': async ({ params }) => {
      const customer = text(params.customer);
      const price = text(params.price);
      const status = text(params.status);
      const found = await state.list<SubscriptionObject>(
        'subscription',
        (subscription) =>
          (!customer || subscription.customer === customer) &&
          (!price || subscription.items.data.some((item) => item.price.id === price)) &&
          (status === 'all'
            ? true
            : status === 'ended'
              ? subscription.status === 'canceled' || subscription.status === 'incomplete_expired'
              : status
                ? subscription.status === status
                : subscription.status !== 'canceled'),
      );
      return page(found, params, '/v1/subscriptions');
    },
    'GET promotion_codes': async ({ params }) => {
      const code = text(params.code)?.toLowerCase();
      const active = booleanParam(params.active);
      const coupon = text(params.coupon);
      const found = await state.list<PromotionCodeObject>(
        'promotion_code',
        (promotion) =>
          (code === undefined || promotion.code.toLowerCase() === code) &&
          (active === undefined || promotion.active === active) &&
          (!coupon || promotion.promotion.coupon === coupon),
      );
      return page(found, params, '/v1/promotion_codes');
    },
    'GET promotion_codes/:id': retrieve('promotion_code', 'promotion code'),
    'GET coupons/:id': retrieve('coupon', 'coupon'),
    'GET prices/:id': retrieve('price', 'price'),
    'GET payment_methods/:id': retrieve('payment_method', 'payment method'),
    'GET invoices/:id': retrieve('invoice', 'invoice'),
    // The next invoice of a subscription, as Stripe previews it: what the card will be charged, coupon included.
    'POST invoices/create_preview': async ({ params }) => {
      const id = text(params.subscription);
      if (!id) throw new StripeApiError(400, 'Missing required param: subscription.', { code: 'parameter_missing', param: 'subscription' });
      const subscription = await state.get<SubscriptionObject>(id, 'subscription');
      if (!subscription) throw resourceMissing('subscription', id, 'subscription');
      if (subscription.status === 'canceled' || subscription.cancel_at_period_end) {
        throw new StripeApiError(400, 'No upcoming invoices for this subscription.', { code: 'invoice_upcoming_none', param: 'subscription' });
      }
      const item = subscription.items.data[0]!;
      const amount = discounted(item.price.unit_amount, subscription._local.percentOff);
      const periodStart = subscription.status === 'trialing' && subscription.trial_end ? subscription.trial_end : item.current_period_end;
      return {
        object: 'invoice',
        id: null,
        customer: subscription.customer,
        subscription: subscription.id,
        currency: item.price.currency,
        subtotal: item.price.unit_amount,
        total: amount,
        amount_due: amount,
        period_start: periodStart,
        period_end: periodStart,
        next_payment_attempt: periodStart,
        livemode: false,
      };
    },
    'GET events/:id': retrieve('event', 'event'),
    'POST billing_portal/sessions': async ({ params }) =>
      publicView(await engine.createPortalSession({ customer: text(params.customer) || undefined, returnUrl: text(params.return_url) || undefined })),
  };

  const routeFor = (method: string, path: string[]): Route | undefined => {
    const exact = routes[`${method} ${path.join('/')}`];
    if (exact) return exact;
    return routes[`${method} ${[...path.slice(0, -1), ':id'].join('/')}`];
  };

  /** Replaces ids by the objects they name along each expand[] path, e.g. `subscription`, `data.customer`. */
  async function expanded(value: unknown, segments: string[]): Promise<unknown> {
    if (segments.length === 0) {
      if (typeof value !== 'string') return value;
      const found = await state.get(value);
      return found ? publicView(found) : value;
    }
    if (Array.isArray(value)) return Promise.all(value.map((item) => expanded(item, segments)));
    if (!value || typeof value !== 'object') return value;
    const [head, ...rest] = segments as [string, ...string[]];
    const record = value as Record<string, unknown>;
    if (!(head in record)) return value;
    return { ...record, [head]: await expanded(record[head], rest) };
  }

  async function answer(request: ApiRequest): Promise<{ status: number; body: unknown }> {
    const route = routeFor(request.method, request.path);
    if (!route) throw new StripeApiError(404, `Unrecognized request URL (${request.method}: /v1/${request.path.join('/')}).`);
    let body = await route(request);
    for (const path of arrayParam(request.params.expand)) {
      if (typeof path === 'string') body = await expanded(body, path.split('.'));
    }
    return { status: 200, body };
  }

  const respond = (status: number, body: unknown, version: string, replayed = false) =>
    Response.json(body, {
      status,
      headers: { 'request-id': newId('req'), 'stripe-version': version, ...(replayed ? { 'idempotent-replayed': 'true' } : {}) },
    });

  return async (request) => {
    const url = new URL(request.url);
    const version = request.headers.get('stripe-version') ?? options.apiVersion;
    const key = /^Bearer\s+(sk_test_\S+)$/i.exec(request.headers.get('authorization') ?? '')?.[1];
    if (!key) {
      return respond(401, new StripeApiError(401, 'Invalid API Key provided: the local Stripe endpoint takes sk_test_ keys').toJson(), version);
    }
    const body = request.method === 'POST' ? await request.text() : '';
    let apiRequest: ApiRequest;
    try {
      const params = new URLSearchParams(url.search);
      for (const [name, value] of new URLSearchParams(body)) params.append(name, value);
      apiRequest = { method: request.method, path: url.pathname.replace(/^\/v1\//, '').split('/').filter(Boolean), params: parseStripeParams(params) };
    } catch (error) {
      return respond(400, new StripeApiError(400, (error as Error).message).toJson(), version);
    }
    const run = async () => {
      try {
        return await answer(apiRequest);
      } catch (error) {
        if (error instanceof StripeApiError) return { status: error.status, body: error.toJson() };
        throw error;
      }
    };
    if (request.method !== 'POST' && request.method !== 'DELETE') {
      const { status, body: answerBody } = await run();
      return respond(status, answerBody, version);
    }
    const idempotencyKey = request.headers.get('idempotency-key');
    const fingerprint = `${request.method} ${url.pathname} ${body}`;
    // Changes run one at a time; a repeated idempotency key gets the first answer back.
    const response = await state.serialized(async () => {
      if (idempotencyKey) {
        const { rows } = await state.db.query<{ request: string; status: number; body: unknown }>(
          'select request, status, body from stripe_local.idempotency_keys where key = $1',
          [idempotencyKey],
        );
        const earlier = rows[0];
        if (earlier) {
          if (earlier.request !== fingerprint) {
            return respond(
              400,
              new StripeApiError(400, 'Keys for idempotent requests can only be used with the same parameters they were first used with.', {
                type: 'idempotency_error',
              }).toJson(),
              version,
            );
          }
          return respond(earlier.status, earlier.body, version, true);
        }
      }
      const result = await run();
      if (idempotencyKey && result.status < 500) {
        await state.db.query('insert into stripe_local.idempotency_keys (key, request, status, body) values ($1, $2, $3, $4) on conflict do nothing', [
          idempotencyKey,
          fingerprint,
          result.status,
          JSON.stringify(result.body),
        ]);
      }
      return respond(result.status, result.body, version);
    });
    options.afterChange();
    return response;
  };
}
