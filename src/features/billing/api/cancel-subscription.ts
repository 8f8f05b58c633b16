import { useMutation, useQueryClient } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { supabase } from '../../../lib/supabase-client.ts';
import { billingFunctionErrorFrom } from './function-error.ts';

export const cancelSubscriptionBodySchema = z.object({ immediate: z.boolean() });

const cancelResponseSchema = z.object({ subscription: z.object({ current_period_end: z.nullable(z.number()) }) });

/** Cancels now or at the end of the period; resolves to when access ends (Unix seconds). */
export async function cancelSubscription(input: { immediate: boolean }): Promise<{ accessEnds: number | null }> {
  const body = cancelSubscriptionBodySchema.parse(input);
  const { data, error } = await supabase.functions.invoke('cancel-subscription', { body });
  if (error) throw await billingFunctionErrorFrom(error, 'Cancellation failed');
  return { accessEnds: cancelResponseSchema.parse(data).subscription.current_period_end };
}

/** After a cancellation the plan and the access are asked again. */
export function useCancelSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelSubscription,
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['subscription'] }),
        queryClient.invalidateQueries({ queryKey: ['entitlement'] }),
      ]);
    },
  });
}
