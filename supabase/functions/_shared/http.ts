import { z } from 'npm:zod@4';

/** CORS for browsers calling functions directly (hosted Supabase); the SPA sends these headers. */
export const corsHeaders = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': 'authorization, x-client-info, apikey, content-type',
  'Access-Control-Allow-Methods': 'POST, GET, OPTIONS',
};

/** Every function's error codes and their HTTP statuses, in one place. */
export const errorStatus = {
  method_not_allowed: 405,
  invalid_body: 400,
  not_authenticated: 401,
  admin_required: 403,
  not_found: 404,
  unknown_price: 400,
  invalid_coupon: 400,
  origin_not_allowed: 400,
  invalid_signature: 400,
  already_subscribed: 409,
  too_many_requests: 429,
  no_subscription: 404,
  no_billing_account: 404,
  upstream_failed: 502,
  internal: 500,
} as const;
export type ErrorCode = keyof typeof errorStatus;

/** The one error shape of the functions: `{ error: { code, message } }`. */
export function errorResponse(code: ErrorCode, message: string): Response {
  return Response.json({ error: { code, message } }, { status: errorStatus[code], headers: corsHeaders });
}

/** A 429 with Retry-After, for a caller past a limit. */
export function tooManyResponse(message: string, retryAfterSeconds: number): Response {
  return Response.json(
    { error: { code: 'too_many_requests', message } },
    { status: 429, headers: { ...corsHeaders, 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) } },
  );
}

/**
 * The caller's address as the platform's gateway gives it: the first entry of X-Forwarded-For (hosted Supabase's
 * edge, and the local stack, which sets it from the client address it resolved).
 */
export function clientAddressOf(request: Request): string {
  return request.headers.get('x-forwarded-for')?.split(',')[0]?.trim() || 'unknown';
}

export function jsonResponse(body: unknown, status = 200): Response {
  return Response.json(body, { status, headers: corsHeaders });
}

/** Parses an optional JSON body with a schema; an empty body parses as {}. */
export async function readBody<T>(request: Request, schema: z.ZodType<T>): Promise<{ ok: true; value: T } | { ok: false; response: Response }> {
  const text = await request.text();
  let raw: unknown = {};
  if (text.trim() !== '') {
    try {
      raw = JSON.parse(text);
    } catch {
      return { ok: false, response: errorResponse('invalid_body', 'The body must be JSON') };
    }
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    return { ok: false, response: errorResponse('invalid_body', parsed.error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`).join('; ')) };
  }
  return { ok: true, value: parsed.data };
}

/** The caller's bearer token, if any. */
export function bearerToken(request: Request): string | null {
  return request.headers.get('authorization')?.match(/^Bearer\s+(.+)$/i)?.[1]?.trim() ?? null;
}
