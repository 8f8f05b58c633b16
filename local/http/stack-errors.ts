import { API_VERSION, API_VERSION_HEADER } from '../auth/auth-errors.ts';

/**
 * Errors the node adapter answers itself, before or instead of an API (a body,
 * URL or headers over their limits, a failure no API turned into an answer):
 * a code and a message of ours, in the error shape of the API the path
 * belongs to, so that supabase-js reads them as it reads that API's own errors.
 */
export type StackErrorCode =
  | 'payload_too_large'
  | 'uri_too_long'
  | 'headers_too_large'
  | 'bad_request'
  | 'request_timeout'
  | 'internal_error';

export interface StackErrorBody {
  body: string;
  headers: Record<string, string>;
}

export function stackErrorBody(pathname: string | null, status: number, code: StackErrorCode, message: string): StackErrorBody {
  const api = pathname ? /^\/(rest|auth|storage|functions)\/v1(\/|$)/.exec(pathname)?.[1] : undefined;
  const json: Record<string, string> = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };
  // The APIs answer any origin (cors.ts): a browser must be able to read these answers too.
  if (api) json['access-control-allow-origin'] = '*';
  switch (api) {
    case 'rest':
      return { body: JSON.stringify({ code, details: null, hint: null, message }), headers: json };
    case 'auth':
      return { body: JSON.stringify({ code, error_code: code, msg: message }), headers: { ...json, [API_VERSION_HEADER]: API_VERSION } };
    case 'storage':
      return { body: JSON.stringify({ statusCode: String(status), error: code, message }), headers: json };
    case 'functions':
      return { body: JSON.stringify({ error: { code, message } }), headers: json };
    default:
      return { body: JSON.stringify({ code, message }), headers: json };
  }
}

export function stackErrorResponse(pathname: string | null, status: number, code: StackErrorCode, message: string): Response {
  const { body, headers } = stackErrorBody(pathname, status, code, message);
  return new Response(body, { status, headers });
}

const REASONS: Record<number, string> = {
  400: 'Bad Request', 408: 'Request Timeout', 413: 'Payload Too Large', 414: 'URI Too Long', 431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
};

/** A whole HTTP/1.1 response, for a socket whose request Node could not parse (no request object, no path). */
export function rawStackError(status: number, code: StackErrorCode, message: string): string {
  const { body, headers } = stackErrorBody(null, status, code, message);
  const lines = [`HTTP/1.1 ${status} ${REASONS[status] ?? 'Error'}`, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)];
  lines.push(`content-length: ${Buffer.byteLength(body)}`, 'connection: close');
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}
