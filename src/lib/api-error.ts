import { API_ERROR_TEXTS } from './api-error-texts.ts';

/** An error from the backend with its stable code (the SQL functions' `detail`), when it has one. */
export class ApiError extends Error {
  readonly code: string | null;
  readonly status: number | null;

  constructor(message: string, code: string | null = null, status: number | null = null) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = status;
  }
}

interface PostgrestLikeError {
  message: string;
  details?: string | null;
  code?: string | null;
}

/** Our stable codes are snake_case words; PostgREST's details are otherwise prose (e.g. "Failing row contains ..."). */
const STABLE_CODE = /^[a-z][a-z0-9_]*$/;
const CHECK_CONSTRAINT = /violates check constraint "([a-z][a-z0-9_]*)"/;

/**
 * Turns a supabase-js PostgREST error into an ApiError named by its stable
 * code: the SQL functions' detail, else the check constraint that refused the
 * row, else the SQLSTATE.
 */
export function apiErrorFrom(error: PostgrestLikeError): ApiError {
  const detail = error.details && STABLE_CODE.test(error.details) ? error.details : null;
  const constraint = CHECK_CONSTRAINT.exec(error.message ?? '')?.[1] ?? null;
  return new ApiError(error.message, detail ?? constraint ?? (error.code || null));
}

/**
 * The sentence the SPA shows for a failed call: ours for each stable code it
 * knows, else the fallback. Never the server's or a library's own text.
 */
export function errorTextOf(error: unknown, fallback: string = API_ERROR_TEXTS.apiErrors.fallback): string {
  const code = error instanceof ApiError ? error.code : null;
  const texts: Readonly<Record<string, string>> = API_ERROR_TEXTS.apiErrors.byCode;
  return (code !== null && Object.hasOwn(texts, code) ? texts[code] : undefined) ?? fallback;
}
