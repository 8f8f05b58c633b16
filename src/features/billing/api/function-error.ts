import * as z from 'zod/mini';

/** A billing function's failure, with the function's stable code when it sent one (`{ error: { code, message } }`). */
export class BillingFunctionError extends Error {
  readonly code: string | null;
  readonly status: number | null;

  constructor(message: string, code: string | null = null, status: number | null = null) {
    super(message);
    this.name = 'BillingFunctionError';
    this.code = code;
    this.status = status;
  }
}

const functionErrorSchema = z.object({ error: z.object({ code: z.string(), message: z.string().check(z.minLength(1)) }) });

/** Reads supabase-js's functions error: the response it carries holds the function's own error body. */
export async function billingFunctionErrorFrom(error: unknown, fallback: string): Promise<BillingFunctionError> {
  const context = (error as { context?: unknown } | null)?.context;
  if (context instanceof Response) {
    try {
      const parsed = functionErrorSchema.safeParse(await context.clone().json());
      if (parsed.success) return new BillingFunctionError(parsed.data.error.message, parsed.data.error.code, context.status);
    } catch {
      // Not JSON: the gateway's or the network's failure, not the function's.
    }
    return new BillingFunctionError(fallback, null, context.status);
  }
  return new BillingFunctionError(fallback);
}
