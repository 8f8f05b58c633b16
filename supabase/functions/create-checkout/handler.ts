import { z } from 'npm:zod@4';
import type { BillingEnv } from '../_shared/billing-env.ts';
import { billingServices } from '../_shared/billing-services.ts';
import type { BillingStore } from '../_shared/billing-store.ts';
import { corsHeaders, errorResponse, jsonResponse, readBody } from '../_shared/http.ts';
import { TRIAL_DAYS } from '../_shared/local-stripe-defaults.ts';
import { findActivePromotionCode } from '../_shared/promotion-codes.ts';
import { requireSignedInUser, type Authenticate, type SignedInUser } from '../_shared/signed-in-user.ts';
import { stripeErrorMessage, type Stripe } from '../_shared/stripe-client.ts';
import { checkoutReturnUrls, returnOrigin } from './return-urls.ts';

export const COUPON_CODE_MAX_LENGTH = 200;

export const createCheckoutBodySchema = z.object({
  priceId: z.string({ error: 'must be the monthly or the annual price' }).min(1, 'must be the monthly or the annual price'),
  // Far longer than any promotion code; a longer one would only fail later, at Stripe, as a 502.
  couponCode: z.string({ error: 'must be text' }).max(COUPON_CODE_MAX_LENGTH, `must be at most ${COUPON_CODE_MAX_LENGTH} characters`).optional(),
  baseUrl: z.url({ error: 'must be an http(s) URL', protocol: /^https?$/ }).optional(),
  // The SPA sends the trial it shows; the server decides whether there is one, so any other length is a mistake.
  trialDays: z.literal(TRIAL_DAYS, { error: `the trial is ${TRIAL_DAYS} days` }).optional(),
});

/** The Stripe calls a checkout makes; the SDK's client satisfies it. */
export interface CheckoutStripe {
  customers: {
    search(params: Stripe.CustomerSearchParams): PromiseLike<{ data: { id: string }[] }>;
    create(params: Stripe.CustomerCreateParams, options?: Stripe.RequestOptions): PromiseLike<{ id: string }>;
  };
  promotionCodes: { list(params: Stripe.PromotionCodeListParams): PromiseLike<{ data: { id: string; code: string; active: boolean }[] }> };
  checkout: {
    sessions: { create(params: Stripe.Checkout.SessionCreateParams, options?: Stripe.RequestOptions): PromiseLike<{ id: string; url: string | null }> };
  };
}

export interface CheckoutDependencies {
  env: Pick<BillingEnv, 'prices' | 'allowedOrigins'>;
  authenticate: Authenticate;
  store: Pick<BillingStore, 'customerIdOf' | 'linkCustomer' | 'liveSubscriptionOf' | 'trialAvailableFor'>;
  stripe: CheckoutStripe;
}

/** The user's Stripe customer: the linked one, else one found by the user id Stripe keeps, else a new one. */
async function customerFor(user: SignedInUser, deps: CheckoutDependencies): Promise<string> {
  const linked = await deps.store.customerIdOf(user.id);
  if (linked) return linked;
  const found = await deps.stripe.customers.search({ query: `metadata['user_id']:'${user.id}'`, limit: 1 });
  const customerId =
    found.data[0]?.id ??
    (
      await deps.stripe.customers.create(
        { ...(user.email ? { email: user.email } : {}), metadata: { user_id: user.id } },
        // Two checkouts started at once create one customer.
        { idempotencyKey: `customer-for-user-${user.id}` },
      )
    ).id;
  return await deps.store.linkCustomer(user.id, customerId);
}

/**
 * Starts a Stripe Checkout for the monthly or annual plan, an optional
 * promotion code, and the user's one Stripe customer; with the 7-day trial only
 * when the account and its customer never had a trial or subscription (the
 * card is checked by stripe-webhook once Stripe knows it). Answers
 * `{ url, trial }`: the page the browser goes to, and whether it has the trial.
 */
export function createCheckoutHandler(dependencies: () => CheckoutDependencies = billingServices) {
  return async (request: Request): Promise<Response> => {
    if (request.method === 'OPTIONS') return new Response('ok', { headers: corsHeaders });
    if (request.method !== 'POST') return errorResponse('method_not_allowed', 'Use POST');
    const deps = dependencies();
    const caller = await requireSignedInUser(request, deps.authenticate, 'start a subscription');
    if (!caller.ok) return caller.response;
    const body = await readBody(request, createCheckoutBodySchema);
    if (!body.ok) return body.response;
    const { priceId, baseUrl } = body.value;
    if (priceId !== deps.env.prices.monthly && priceId !== deps.env.prices.annual) {
      return errorResponse('unknown_price', `priceId: ${priceId} is neither the monthly nor the annual price`);
    }
    const origin = returnOrigin(baseUrl, request.headers.get('origin'), deps.env.allowedOrigins);
    if (!origin.ok) return errorResponse('origin_not_allowed', `baseUrl: ${origin.origin} is not an allowed origin`);
    if (await deps.store.liveSubscriptionOf(caller.user.id)) {
      return errorResponse('already_subscribed', 'You already have a subscription; manage it from your profile');
    }
    const couponCode = body.value.couponCode?.trim() ?? '';
    try {
      let promotionCodeId: string | null = null;
      if (couponCode !== '') {
        promotionCodeId = (await findActivePromotionCode(deps.stripe.promotionCodes, couponCode))?.id ?? null;
        if (!promotionCodeId) return errorResponse('invalid_coupon', `Coupon code "${couponCode}" is not valid`);
      }
      const customer = await customerFor(caller.user, deps);
      // Decided here, whatever the SPA showed or sent: a second trial is never asked of Stripe.
      const trial = await deps.store.trialAvailableFor(caller.user.id, customer);
      const session = await deps.stripe.checkout.sessions.create({
        mode: 'subscription',
        customer,
        client_reference_id: caller.user.id,
        line_items: [{ price: priceId, quantity: 1 }],
        // A card for the trial too, so the one-trial-per-card rule has a card to match (Stripe's default, said out loud).
        payment_method_collection: 'always',
        subscription_data: { ...(trial ? { trial_period_days: TRIAL_DAYS } : {}), metadata: { user_id: caller.user.id } },
        ...(promotionCodeId ? { discounts: [{ promotion_code: promotionCodeId }] } : {}),
        metadata: { user_id: caller.user.id },
        ...checkoutReturnUrls(origin.origin),
      });
      if (!session.url) return errorResponse('upstream_failed', 'No checkout URL returned');
      return jsonResponse({ url: session.url, trial });
    } catch (error) {
      const message = stripeErrorMessage(error);
      if (message === null) throw error;
      return errorResponse('upstream_failed', `Failed to create checkout session: ${message}`);
    }
  };
}

export const handler = createCheckoutHandler();
