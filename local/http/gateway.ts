import type { ApiHandler } from './api-handler.ts';
import { preflight, withCors } from './cors.ts';

/** Routes by path prefix, as Supabase's gateway does; API responses get CORS headers. */
export interface GatewayRoutes {
  /** Prefix (e.g. '/rest/v1/') to handler; the longest matching prefix wins. */
  apis: Record<string, ApiHandler>;
  /** Pages of the local stack itself, e.g. '/_mailbox'. */
  pages?: Record<string, ApiHandler>;
  /** Everything else: the SPA. */
  fallback: ApiHandler;
}

export function createGateway(routes: GatewayRoutes): ApiHandler {
  const apiPrefixes = Object.keys(routes.apis).sort((a, b) => b.length - a.length);
  const pagePrefixes = Object.keys(routes.pages ?? {}).sort((a, b) => b.length - a.length);
  return async (request) => {
    const { pathname } = new URL(request.url);
    const api = apiPrefixes.find((prefix) => pathname.startsWith(prefix) || `${pathname}/` === prefix);
    if (api) {
      if (request.method === 'OPTIONS') return preflight();
      return withCors(await routes.apis[api]!(request));
    }
    if (/^\/(auth|rest|storage|realtime|functions)\/v1(\/|$)/.test(pathname)) {
      return withCors(Response.json({ message: `No local API serves ${pathname}` }, { status: 404 }));
    }
    const page = pagePrefixes.find((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`) || pathname.startsWith(`${prefix}.`));
    if (page) return routes.pages![page]!(request);
    return routes.fallback(request);
  };
}
