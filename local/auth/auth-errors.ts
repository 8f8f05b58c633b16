/**
 * The error codes the local auth answers with: Supabase Auth's, so that
 * auth-js turns them into the same AuthApiError (and AuthWeakPasswordError,
 * AuthSessionMissingError) as against hosted Supabase.
 */
export type AuthErrorCode =
  | 'validation_failed'
  | 'bad_json'
  | 'bad_jwt'
  | 'no_authorization'
  | 'not_admin'
  | 'user_not_found'
  | 'user_banned'
  | 'session_not_found'
  | 'session_expired'
  | 'refresh_token_not_found'
  | 'refresh_token_already_used'
  | 'flow_state_not_found'
  | 'flow_state_expired'
  | 'bad_code_verifier'
  | 'invalid_credentials'
  | 'email_not_confirmed'
  | 'email_exists'
  | 'user_already_exists'
  | 'email_address_invalid'
  | 'weak_password'
  | 'same_password'
  | 'current_password_required'
  | 'current_password_invalid'
  | 'reauthentication_needed'
  | 'reauthentication_not_valid'
  | 'over_request_rate_limit'
  | 'over_email_send_rate_limit'
  | 'otp_expired'
  | 'otp_disabled'
  | 'phone_provider_disabled'
  | 'provider_disabled'
  | 'bad_oauth_state'
  | 'bad_oauth_callback'
  | 'provider_email_needs_verification'
  | 'not_found'
  | 'method_not_allowed'
  | 'unexpected_failure';

/** The response header that makes auth-js read `code` as the error code. */
export const API_VERSION_HEADER = 'x-supabase-api-version';
export const API_VERSION = '2024-01-01';

export class AuthApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: AuthErrorCode,
    message: string,
    /** Extra body fields, e.g. weak_password: { reasons }. */
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (code: AuthErrorCode, message: string) => new AuthApiError(400, code, message);
export const unprocessable = (code: AuthErrorCode, message: string) => new AuthApiError(422, code, message);
export const forbidden = (code: AuthErrorCode, message: string) => new AuthApiError(403, code, message);

/** OAuth 2 error names for errors of the token endpoint (RFC 6749 section 5.2). */
const INVALID_GRANT_CODES = new Set<AuthErrorCode>([
  'invalid_credentials',
  'email_not_confirmed',
  'refresh_token_not_found',
  'refresh_token_already_used',
  'session_expired',
  'session_not_found',
  'flow_state_not_found',
  'flow_state_expired',
  'bad_code_verifier',
  'user_banned',
]);

function oauthErrorName(error: AuthApiError): string {
  if (INVALID_GRANT_CODES.has(error.code)) return 'invalid_grant';
  if (error.status >= 500) return 'server_error';
  if (error.status === 429) return 'slow_down';
  return 'invalid_request';
}

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return Response.json(body, {
    status,
    headers: { [API_VERSION_HEADER]: API_VERSION, 'cache-control': 'no-store', ...headers },
  });
}

/**
 * Supabase Auth's error body: `code` and `error_code` carry the code, `msg`
 * the message; token endpoint errors add the OAuth `error` and
 * `error_description` as well.
 */
export function errorResponse(error: AuthApiError, options: { oauth?: boolean } = {}): Response {
  const oauth = options.oauth ? { error: oauthErrorName(error), error_description: error.message } : {};
  const body = { code: error.code, error_code: error.code, msg: error.message, ...oauth, ...error.extra };
  return jsonResponse(body, error.status, error.headers);
}
