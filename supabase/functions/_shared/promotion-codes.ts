import type { Stripe } from './stripe-client.ts';

/** An active promotion code as Stripe lists it; the SDK's objects satisfy it. */
export interface ListedPromotionCode {
  id: string;
  code: string;
  active: boolean;
  promotion?: { coupon: string | { id: string } | null };
}

/** The one Stripe call a promotion-code lookup makes. */
export interface PromotionCodeLister<Code extends ListedPromotionCode = ListedPromotionCode> {
  list(params: Stripe.PromotionCodeListParams): PromiseLike<{ data: Code[] }>;
}

/**
 * The active promotion code a buyer typed, as checkout applies it and the
 * pricing dialog previews it (Stripe matches codes without regard to case), or
 * null when there is none.
 */
export async function findActivePromotionCode<Code extends ListedPromotionCode>(codes: PromotionCodeLister<Code>, typed: string): Promise<Code | null> {
  const listed = await codes.list({ code: typed, active: true, limit: 1 });
  return listed.data[0] ?? null;
}

/** The id of the coupon behind a promotion code, whether Stripe expanded it or not. */
export function couponIdOf(code: ListedPromotionCode): string | null {
  const coupon = code.promotion?.coupon ?? null;
  return typeof coupon === 'string' ? coupon : (coupon?.id ?? null);
}
