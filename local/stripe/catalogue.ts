import { LOCAL_STRIPE_PRICES } from '../../supabase/functions/_shared/local-stripe-defaults.ts';
import type { CouponObject, PriceObject, PromotionCodeObject, StoredObject } from './stripe-objects.ts';

/** The product's prices in euro cents (spec: €8.95 a month, €75.18 a year). */
export const PRICE_CENTS = { monthly: 895, annual: 7518 } as const;
export const DEMO_PROMOTION_CODE = 'OBYECT20';

const CREATED = 1_788_220_800; // 2026-09-01: the catalogue exists before any customer.

/** What the local Stripe account holds before anyone checks out: the product, its two prices and the demo coupon. */
export function catalogueObjects(priceIds: { monthly: string; annual: string } = LOCAL_STRIPE_PRICES): StoredObject[] {
  const product = { id: 'prod_obyect', object: 'product', created: CREATED, name: 'Obyect', active: true, livemode: false, metadata: {} };
  const price = (id: string, nickname: string, unitAmount: number, interval: 'month' | 'year'): PriceObject => ({
    id,
    object: 'price',
    created: CREATED,
    active: true,
    currency: 'eur',
    unit_amount: unitAmount,
    unit_amount_decimal: String(unitAmount),
    nickname,
    product: product.id,
    type: 'recurring',
    billing_scheme: 'per_unit',
    lookup_key: nickname.toLowerCase(),
    recurring: { interval, interval_count: 1, usage_type: 'licensed', meter: null, trial_period_days: null },
    livemode: false,
    metadata: {},
  });
  const coupon: CouponObject = {
    id: 'obyect20',
    object: 'coupon',
    created: CREATED,
    name: '20% off',
    percent_off: 20,
    amount_off: null,
    currency: null,
    duration: 'forever',
    duration_in_months: null,
    valid: true,
    livemode: false,
    metadata: {},
  };
  const promotionCode: PromotionCodeObject = {
    id: 'promo_obyect20',
    object: 'promotion_code',
    created: CREATED,
    code: DEMO_PROMOTION_CODE,
    active: true,
    promotion: { type: 'coupon', coupon: coupon.id },
    customer: null,
    expires_at: null,
    max_redemptions: null,
    times_redeemed: 0,
    restrictions: { first_time_transaction: false, minimum_amount: null, minimum_amount_currency: null },
    livemode: false,
    metadata: {},
  };
  return [
    product,
    price(priceIds.monthly, 'Monthly', PRICE_CENTS.monthly, 'month'),
    price(priceIds.annual, 'Annual', PRICE_CENTS.annual, 'year'),
    coupon,
    promotionCode,
  ];
}
