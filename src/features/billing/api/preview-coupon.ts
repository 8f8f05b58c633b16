import { queryOptions, useQuery } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { supabase } from '../../../lib/supabase-client.ts';
import { billingFunctionErrorFrom } from './function-error.ts';

/** What a promotion code takes off, as preview-coupon reads it from Stripe. */
export const couponTermsSchema = z.object({
  code: z.string(),
  percent_off: z.nullable(z.number()),
  amount_off: z.nullable(z.number()),
  currency: z.nullable(z.string()),
  duration: z.enum(['once', 'repeating', 'forever']),
  duration_in_months: z.nullable(z.number()),
});
export type CouponTerms = z.infer<typeof couponTermsSchema>;

/** The answer for a code: its terms, that it is no coupon of ours (invalid_coupon), or that too many were tried (429). */
export type CouponPreview = { valid: true; terms: CouponTerms } | { valid: false; reason: 'invalid' | 'too_many' };

export async function previewCoupon(couponCode: string): Promise<CouponPreview> {
  const { data, error } = await supabase.functions.invoke('preview-coupon', { body: { couponCode } });
  if (error) {
    const failure = await billingFunctionErrorFrom(error, 'Could not check the coupon');
    if (failure.code === 'invalid_coupon') return { valid: false, reason: 'invalid' };
    if (failure.code === 'too_many_requests') return { valid: false, reason: 'too_many' };
    throw failure;
  }
  return { valid: true, terms: couponTermsSchema.parse(data) };
}

/** Keyed by the code as checkout will send it (trimmed; Stripe reads codes in any case). */
export function couponPreviewQueryOptions(couponCode: string, enabled: boolean) {
  const code = couponCode.trim();
  return queryOptions({
    queryKey: ['coupon-preview', code.toUpperCase()],
    queryFn: () => previewCoupon(code),
    enabled: enabled && code !== '',
    retry: false,
    staleTime: 5 * 60_000,
  });
}

export function useCouponPreview(couponCode: string, enabled: boolean) {
  return useQuery(couponPreviewQueryOptions(couponCode, enabled));
}

/**
 * A price in euro cents after the coupon, as Stripe computes an invoice: a
 * percentage rounded to the cent, or a euro amount off, never below zero;
 * null when the coupon is in another currency (its amount cannot be shown).
 */
export function priceAfterCoupon(cents: number, terms: CouponTerms): number | null {
  if (terms.percent_off !== null) return Math.round((cents * (100 - terms.percent_off)) / 100);
  if (terms.amount_off !== null && terms.currency?.toLowerCase() === 'eur') return Math.max(0, cents - terms.amount_off);
  return null;
}
