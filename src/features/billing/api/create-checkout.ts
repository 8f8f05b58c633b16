import { useMutation } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { TRIAL_DAYS } from '../../../lib/constants.ts';
import { env } from '../../../lib/env.ts';
import { supabase } from '../../../lib/supabase-client.ts';
import { billingFunctionErrorFrom } from './function-error.ts';
import { BILLING_TEXTS } from '../../../lib/billing-texts.ts';

export type BillingPeriod = 'monthly' | 'annual';

export const createCheckoutBodySchema = z.object({
  /** Stripe's price id of the chosen plan; create-checkout accepts only the two it is configured with. */
  priceId: z.string().check(z.minLength(1)),
  /** Sent when the dialog offered the trial; create-checkout decides again whether there is one. */
  trialDays: z.optional(z.literal(TRIAL_DAYS)),
  couponCode: z.optional(z.string().check(z.trim(), z.minLength(1))),
  baseUrl: z.string().check(z.url()),
});

const checkoutResponseSchema = z.object({ url: z.string().check(z.url()) });

/** An error whose message can be shown to the buyer as it is; `code` is create-checkout's (invalid_coupon …). */
export class CheckoutError extends Error {
  constructor(
    message: string,
    readonly code: string | null = null,
  ) {
    super(message);
    this.name = 'CheckoutError';
  }
}

/**
 * Failures whose message create-checkout writes for the buyer (our sentences); every other failure, and anything
 * a library says, reads 'Please try again.' instead.
 */
const BUYER_ERROR_CODES = new Set(['invalid_coupon', 'already_subscribed']);

/** Starts a Stripe checkout, with the 7-day trial when the dialog offers it (the server decides); resolves to the checkout page's URL. */
export async function createCheckout(input: { period: BillingPeriod; couponCode: string; withTrial: boolean }): Promise<string> {
  const coupon = input.couponCode.trim();
  const body = createCheckoutBodySchema.parse({
    priceId: env.stripePrices[input.period],
    ...(input.withTrial ? { trialDays: TRIAL_DAYS } : {}),
    ...(coupon ? { couponCode: coupon } : {}),
    baseUrl: window.location.origin,
  });
  const { data, error } = await supabase.functions.invoke('create-checkout', { body });
  if (error) {
    const failure = await billingFunctionErrorFrom(error, 'Failed to create checkout session');
    if (failure.code === 'origin_not_allowed') throw new CheckoutError(BILLING_TEXTS.checkout.originNotAllowed, failure.code);
    throw failure.code && BUYER_ERROR_CODES.has(failure.code) ? new CheckoutError(failure.message, failure.code) : new Error('Failed to create checkout session');
  }
  const parsed = checkoutResponseSchema.safeParse(data);
  if (!parsed.success) throw new Error('No checkout URL returned');
  return parsed.data.url;
}

export function useCreateCheckout() {
  return useMutation({ mutationFn: createCheckout });
}
