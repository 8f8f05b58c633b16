/** CORS as Supabase's gateway answers it: any origin, the headers supabase-js sends, the headers it reads. */
const ALLOW_HEADERS = [
  'authorization', 'x-client-info', 'apikey', 'content-type', 'prefer', 'range', 'accept', 'accept-profile',
  'content-profile', 'x-upsert', 'cache-control', 'x-supabase-api-version', 'x-region', 'x-retry-count',
].join(', ');
const EXPOSE_HEADERS = ['content-range', 'content-location', 'x-supabase-api-version', 'etag', 'content-length', 'location'].join(', ');

export function withCors(response: Response): Response {
  try {
    // A Response the API built has mutable headers: add to them rather than copy the response.
    response.headers.set('access-control-allow-origin', '*');
    response.headers.set('access-control-expose-headers', EXPOSE_HEADERS);
    return response;
  } catch {
    // Immutable headers (a fetched response, Response.error() or redirect()): copy.
    const headers = new Headers(response.headers);
    headers.set('access-control-allow-origin', '*');
    headers.set('access-control-expose-headers', EXPOSE_HEADERS);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
}

export function preflight(): Response {
  return new Response(null, {
    status: 204,
    headers: {
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
      'access-control-allow-headers': ALLOW_HEADERS,
      'access-control-max-age': '86400',
    },
  });
}
