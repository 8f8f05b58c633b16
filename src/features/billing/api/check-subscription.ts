import { queryOptions, useQuery } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { supabase } from '../../../lib/supabase-client.ts';
import { billingFunctionErrorFrom } from './function-error.ts';

/** A period end as Unix seconds or as date text: both readings of the spec. */
const periodEndSchema = z.optional(z.nullable(z.union([z.number(), z.string()])));

export const subscriptionStatusSchema = z.object({
  subscribed: z.boolean(),
  subscription_tier: z.nullable(z.string()),
  subscription_end: z.nullable(z.string()),
  cancel_at_period_end: z._default(z.optional(z.boolean()), false),
  current_period_end: periodEndSchema,
  period_end: periodEndSchema,
  /** Whether a checkout now would come with the 7-day trial (the server decides: one trial per account, customer and card). */
  trial_eligible: z._default(z.optional(z.boolean()), false),
  /** The plan bought, also during its trial; null without a subscription. */
  plan: z._default(z.optional(z.nullable(z.enum(['Monthly', 'Annual']))), null),
  trial_end: z._default(z.optional(z.nullable(z.string())), null),
  /** What Stripe will charge next (cents, coupon included) and when; null when nothing will be charged or it is unknown. */
  next_charge: z._default(z.optional(z.nullable(z.object({ amount: z.number(), currency: z.string(), at: z.string() }))), null),
});

export type SubscriptionStatus = z.infer<typeof subscriptionStatusSchema>;

/** A period end as an ISO date, whichever form the server sent. */
export function periodEndIso(value: number | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const date = typeof value === 'number' ? new Date(value * 1000) : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** The caller's plan from the subscriptions table: tier, dates and whether it is set to cancel. */
export async function getSubscriptionStatus(): Promise<SubscriptionStatus> {
  const { data, error } = await supabase.functions.invoke('check-subscription', { body: {} });
  if (error) throw await billingFunctionErrorFrom(error, 'Could not check your subscription');
  return subscriptionStatusSchema.parse(data);
}

/** Keyed by user, like the entitlement; refetched whenever the plan may have changed. */
export function subscriptionStatusQueryOptions(userId: string | null) {
  return queryOptions({
    queryKey: ['subscription', userId],
    queryFn: getSubscriptionStatus,
    enabled: userId !== null,
    retry: false,
    staleTime: 30_000,
  });
}

export function useSubscriptionStatus(userId: string | null) {
  return useQuery(subscriptionStatusQueryOptions(userId));
}
