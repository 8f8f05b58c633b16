import { useMutation, useQueryClient } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { AD_LISTS_KEY } from '../../../lib/ad-list-cache.ts';
import { ApiError } from '../../../lib/api-error.ts';
import { supabase } from '../../../lib/supabase-client.ts';

export const tagAdsBodySchema = z.object({ day: z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/)) });
const tagAdsResponseSchema = z.object({ message: z.string(), tagged: z.number().check(z.int()) });
const functionErrorSchema = z.object({ error: z.object({ code: z.string(), message: z.string().check(z.minLength(1)) }) });

/** Yesterday's date in UTC, as the daily job counts days. */
export function yesterdayUtc(now = new Date()): string {
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - 1));
  return day.toISOString().slice(0, 10);
}

/** Runs tag-yesterdays-ads for a day; resolves to the function's message. */
export async function tagAdsOfDay(day: string): Promise<{ message: string; tagged: number }> {
  const { data, error } = await supabase.functions.invoke('tag-yesterdays-ads', { body: tagAdsBodySchema.parse({ day }) });
  if (error) {
    const context = (error as { context?: unknown }).context;
    if (context instanceof Response) {
      const parsed = functionErrorSchema.safeParse(await context.clone().json().catch(() => null));
      if (parsed.success) throw new ApiError(parsed.data.error.message, parsed.data.error.code, context.status);
    }
    throw new ApiError('The tagging function could not be reached.');
  }
  return tagAdsResponseSchema.parse(data);
}

export function useTagAdsOfDay() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: tagAdsOfDay,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: AD_LISTS_KEY }),
  });
}
