import { z } from 'npm:zod@4';
import { billingServices } from '../_shared/billing-services.ts';
import type { BillingStore } from '../_shared/billing-store.ts';
import { clientAddressOf, corsHeaders, errorResponse, jsonResponse, readBody, tooManyResponse } from '../_shared/http.ts';
import { couponIdOf, findActivePromotionCode } from '../_shared/promotion-codes.ts';
import { requireSignedInUser, type Authenticate } from '../_shared/signed-in-user.ts';
import { stripeErrorMessage, type Stripe } from '../_shared/stripe-client.ts';
import { COUPON_CODE_MAX_LENGTH } from '../create-checkout/handler.ts';

export const previewCouponBodySchema = z.object({
  couponCode: z
    .string({ error: 'must be text' })
    .trim()
    .min(1, 'must not be empty')
    .max(COUPON_CODE_MAX_LENGTH, `must be at most ${COUPON_CODE_MAX_LENGTH} characters`),
});

type CouponTerms = Pick<Stripe.Coupon, 'valid' | 'percent_off' | 'amount_off' | 'currency' | 'duration' | 'duration_in_months'>;

/** The Stripe calls a preview makes; the SDK's client satisfies it. */
export interface PreviewCouponStripe {
  promotionCodes: {
    list(params: Stripe.PromotionCodeListParams): PromiseLike<{ data: { id: string; code: string; active: boolean; promotion: { coupon: string | { id: string } | null } }[] }>;
  };
  coupons: { retrieve(id: string): PromiseLike<CouponTerms> };
}

export interface PreviewCouponDependencies {
  authenticate: Authenticate;
  stripe: PreviewCouponStripe;
  /** Counts each preview per user and per address (10 and 30 in 10 minutes): each one is a Stripe call, and guesses find codes. */
  store: Pick<BillingStore, 'takeCouponPreview'>;
}

/**
 * What a promotion code takes off, before checkout, the same lookup
 * create-checkout makes (active codes only): `{ code, percent_off, amount_off,
 * currency, duration, duration_in_months }`, or invalid_coupon. The pricing
 * dialog shows the discounted price from it; checkout decides again.
 */
export function createPreviewCouponHandler(dependencies: () => PreviewCouponDependencies = billingServices) {
  return async (request: Request): Promise<Response> => {
    if (request.method === 'OPTIONS') return new Response('ok', { headers: corsHeaders });
    if (request.method !== 'POST') return errorResponse('method_not_allowed', 'Use POST');
    const deps = dependencies();
    const caller = await requireSignedInUser(request, deps.authenticate, 'use a coupon');
    if (!caller.ok) return caller.response;
    const body = await readBody(request, previewCouponBodySchema);
    if (!body.ok) return body.response;
    const { couponCode } = body.value;
    const wait = await deps.store.takeCouponPreview(caller.user.id, clientAddressOf(request));
    if (wait !== null) {
      const minutes = Math.max(1, Math.ceil(wait / 60));
      return tooManyResponse(`Too many coupon codes tried. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`, wait);
    }
    try {
      const promotion = await findActivePromotionCode(deps.stripe.promotionCodes, couponCode);
      const couponId = promotion ? couponIdOf(promotion) : null;
      const coupon = promotion && couponId ? await deps.stripe.coupons.retrieve(couponId) : null;
      if (!promotion || !coupon?.valid) return errorResponse('invalid_coupon', `Coupon code "${couponCode}" is not valid`);
      return jsonResponse({
        code: promotion.code,
        percent_off: coupon.percent_off ?? null,
        amount_off: coupon.amount_off ?? null,
        currency: coupon.currency ?? null,
        duration: coupon.duration,
        duration_in_months: coupon.duration_in_months ?? null,
      });
    } catch (error) {
      const message = stripeErrorMessage(error);
      if (message === null) throw error;
      return errorResponse('upstream_failed', `Failed to look up the coupon: ${message}`);
    }
  };
}

export const handler = createPreviewCouponHandler();
