import type { AuthApiError } from './auth-errors.ts';
import type { SessionResponse } from './sessions.ts';

export type FlowType = 'implicit' | 'pkce';

/**
 * Where to send the browser after an email link or a provider sign-in: the
 * requested address when its origin is on the allow-list (the site's, see
 * AuthSettings.redirectOrigins), otherwise the site itself (no open redirect).
 */
export function allowedRedirect(settings: { siteUrl: string; redirectOrigins?: string[] }, requested: string | null | undefined): string {
  if (!requested) return settings.siteUrl;
  try {
    const target = new URL(requested);
    const allowed = settings.redirectOrigins ?? [new URL(settings.siteUrl).origin];
    if ((target.protocol === 'http:' || target.protocol === 'https:') && allowed.includes(target.origin)) return target.toString();
  } catch {
    // Not an absolute URL: fall back to the site.
  }
  return settings.siteUrl;
}

// Supabase Auth marks its redirects with an empty `sb` parameter so clients can tell them apart.
const SUPABASE_MARK = 'sb';

/** The implicit flow's landing: the session in the URL fragment, as auth-js reads it. */
export function sessionRedirect(target: string, session: SessionResponse, extra: Record<string, string> = {}): string {
  const url = new URL(target);
  const fragment = new URLSearchParams({
    ...extra,
    access_token: session.access_token,
    token_type: session.token_type,
    expires_in: String(session.expires_in),
    expires_at: String(session.expires_at),
    refresh_token: session.refresh_token,
  });
  if (session.provider_token) fragment.set('provider_token', session.provider_token);
  if (session.provider_refresh_token) fragment.set('provider_refresh_token', session.provider_refresh_token);
  fragment.set(SUPABASE_MARK, '');
  url.hash = fragment.toString();
  return url.toString();
}

/** The PKCE flow's landing: ?code= to exchange with the code verifier. */
export function codeRedirect(target: string, authCode: string): string {
  const url = new URL(target);
  url.searchParams.set('code', authCode);
  return url.toString();
}

const OAUTH_ERROR_BY_STATUS: Record<number, string> = {
  400: 'invalid_request',
  401: 'unauthorized_client',
  403: 'access_denied',
  500: 'server_error',
  503: 'temporarily_unavailable',
};

/** A failed link or sign-in: error, error_code and error_description in the fragment, and for PKCE in the query too. */
export function errorRedirect(target: string, error: AuthApiError, flow: FlowType): string {
  const url = new URL(target);
  const params = new URLSearchParams();
  const name = typeof error.extra.error === 'string' ? error.extra.error : OAUTH_ERROR_BY_STATUS[error.status];
  if (name) params.set('error', name);
  params.set('error_code', error.code);
  params.set('error_description', error.message);
  if (flow === 'pkce') {
    for (const [key, value] of params) url.searchParams.set(key, value);
  }
  params.set(SUPABASE_MARK, '');
  url.hash = params.toString();
  return url.toString();
}

export function redirectResponse(location: string, status = 303): Response {
  return new Response(null, { status, headers: { location, 'cache-control': 'no-store' } });
}
