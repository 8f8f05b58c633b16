import { createClient } from 'npm:@supabase/supabase-js@2.109.0';
import { z } from 'npm:zod@4';
import { bearerToken, corsHeaders, errorResponse, jsonResponse, readBody } from '../_shared/http.ts';
import { readSupabaseEnv } from '../_shared/supabase-env.ts';

/** 2026-02-30 has the right shape but no day; the database would refuse it with an error that is not the caller's. */
const isCalendarDay = (day: string) => {
  const date = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === day && day >= '0001';
};

export const tagAdsBodySchema = z.object({
  day: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'day must be YYYY-MM-DD', abort: true })
    .refine(isCalendarDay, 'day must be a date of the calendar')
    .optional(),
});

/** Calls the SQL function as the caller, so the database decides who may tag. */
export type TagAdsOfDay = (accessToken: string, day: string | null) => Promise<{ data: { message: string; tagged: number } | null; error: { code?: string; message: string } | null }>;

const tagAdsOfDayAsCaller: TagAdsOfDay = async (accessToken, day) => {
  const env = readSupabaseEnv();
  const client = createClient(env.SUPABASE_URL, env.SUPABASE_ANON_KEY, {
    global: { headers: { Authorization: `Bearer ${accessToken}` } },
    auth: { persistSession: false, autoRefreshToken: false },
  });
  return await client.rpc('tag_ads_of_day', day ? { p_day: day } : {});
};

/**
 * The admin's 'Tag Ads' utility: gives the ads uploaded on a day (default
 * yesterday, UTC) the Black Friday tag where they lack it. Answers `{ message, tagged }`.
 */
export function createTagAdsHandler(tagAdsOfDay: TagAdsOfDay = tagAdsOfDayAsCaller) {
  return async (request: Request): Promise<Response> => {
    if (request.method === 'OPTIONS') return new Response('ok', { headers: corsHeaders });
    if (request.method !== 'POST') return errorResponse('method_not_allowed', 'Use POST');
    const token = bearerToken(request);
    if (!token) return errorResponse('not_authenticated', 'Sign in as an admin to tag ads');
    const body = await readBody(request, tagAdsBodySchema);
    if (!body.ok) return body.response;
    const { data, error } = await tagAdsOfDay(token, body.value.day ?? null);
    if (error) {
      if (error.code === '42501') return errorResponse('admin_required', 'This operation requires admin privileges.');
      return errorResponse('upstream_failed', error.message);
    }
    return jsonResponse({ message: data?.message ?? '', tagged: data?.tagged ?? 0 });
  };
}

export const handler = createTagAdsHandler();
