import type { LocalConfig } from '../config.ts';
import { requestHost } from './allowed-hosts.ts';

/**
 * The headers every answer of the stack carries. The SPA's policy allows what
 * the app loads and nothing else: its own scripts (no inline script), inline
 * styles (the boot bar in index.html and the stylesheet sonner inserts, which
 * run no code), images from its own storage plus data: (thumbhash placeholders)
 * and blob: (the admin upload's previews), fetch and the realtime websocket to
 * the Supabase URL. API answers carry a policy that allows nothing.
 */
export type SecuritySettings = Pick<LocalConfig, 'OBYECT_MODE' | 'SITE_URL'> & {
  /** The Supabase URL the SPA was built against, when it is not the stack itself (VITE_SUPABASE_URL). */
  supabaseUrl?: string;
};

export type AnswerKind = 'spa' | 'api';

const API_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'";
const HSTS = 'max-age=31536000';

export interface SecurityHeaders {
  apply(request: Request, response: Response, kind: AnswerKind): Response;
}

export function createSecurityHeaders(settings: SecuritySettings): SecurityHeaders {
  const alwaysHttps = settings.OBYECT_MODE === 'production' && settings.SITE_URL?.startsWith('https://') === true;
  const supabase = settings.supabaseUrl && URL.canParse(settings.supabaseUrl) ? new URL(settings.supabaseUrl) : null;
  const supabaseSources = supabase ? [supabase.origin, `${supabase.protocol === 'https:' ? 'wss' : 'ws'}://${supabase.host}`] : [];

  const spaPolicy = (request: Request, https: boolean) => {
    const host = requestHost(request);
    // 'self' covers ws(s): of the same host only in newer browsers: name the realtime socket too.
    const socket = host ? [`${https ? 'wss' : 'ws'}://${host}`] : [];
    return [
      "default-src 'self'",
      // WebAssembly compiled from our own files: the admin's OCR engine (no eval of script text).
      "script-src 'self' 'wasm-unsafe-eval'",
      "style-src 'self' 'unsafe-inline'",
      `img-src 'self' data: blob: ${supabaseSources[0] ?? ''}`.trimEnd(),
      // Video ads from the storage's signed links, and the admin's chosen video read in the browser (its poster frame).
      `media-src 'self' blob: ${supabaseSources[0] ?? ''}`.trimEnd(),
      "font-src 'self'",
      ['connect-src', "'self'", ...socket, ...supabaseSources].join(' '),
      "object-src 'none'",
      "base-uri 'none'",
      "form-action 'self'",
      "frame-ancestors 'none'",
    ].join('; ');
  };

  return {
    apply(request, response, kind) {
      const https = alwaysHttps || new URL(request.url).protocol === 'https:' || forwardedProto(request) === 'https';
      return withHeaders(response, (headers) => {
        const own = headers.get('content-security-policy');
        if (own === null) headers.set('content-security-policy', kind === 'spa' ? spaPolicy(request, https) : API_POLICY);
        // A page with its own policy (the development pages) still may not be framed.
        else if (!/(^|;)\s*frame-ancestors\s/i.test(own)) headers.set('content-security-policy', `${own}; frame-ancestors 'none'`);
        headers.set('x-frame-options', 'DENY');
        headers.set('x-content-type-options', 'nosniff');
        if (!headers.has('referrer-policy')) headers.set('referrer-policy', 'strict-origin-when-cross-origin');
        if (https) headers.set('strict-transport-security', HSTS);
      });
    },
  };
}

/** The scheme the client used, as a TLS proxy in front reports it (the first hop's). */
function forwardedProto(request: Request): string | undefined {
  return request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
}

/** Sets headers on a response, copying it first when its headers are immutable (a fetched or redirect response). */
export function withHeaders(response: Response, set: (headers: Headers) => void): Response {
  try {
    set(response.headers);
    return response;
  } catch {
    const headers = new Headers(response.headers);
    set(headers);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
}
