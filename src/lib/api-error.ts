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

/** Turns a supabase-js PostgREST error into an ApiError named by its stable code. */
export function apiErrorFrom(error: PostgrestLikeError): ApiError {
  return new ApiError(error.message, error.details || error.code || null);
}
