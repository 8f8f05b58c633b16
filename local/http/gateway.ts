import type { ApiHandler } from './api-handler.ts';
import type { HostAllowList } from './allowed-hosts.ts';
import { preflight, withCors } from './cors.ts';
import { doorGone, loopbackOnly } from './dev-doors.ts';
import type { SecurityHeaders } from './security-headers.ts';

/** Routes by path prefix, as Supabase's gateway does; API responses get CORS headers. */
export interface GatewayRoutes {
  /** Prefix (e.g. '/rest/v1/') to handler; the longest matching prefix wins. */
  apis: Record<string, ApiHandler>;
  /**
   * Development doors of the local stack itself (e.g. '/_mailbox'): answered
   * on loopback only; null for a door that is shut (404, not the SPA).
   */
  devPages?: Record<string, ApiHandler | null>;
  /** Everything else: the SPA. */
  fallback: ApiHandler;
  /** Every request is checked against it before any route (DNS-rebinding defence). */
  hosts: HostAllowList;
  /** Added to every answer. */
  headers: SecurityHeaders;
}

export function createGateway(routes: GatewayRoutes): ApiHandler {
  const apiPrefixes = Object.keys(routes.apis).sort((a, b) => b.length - a.length);
  const pagePrefixes = Object.keys(routes.devPages ?? {}).sort((a, b) => b.length - a.length);
  const devPages = Object.fromEntries(
    Object.entries(routes.devPages ?? {}).map(([prefix, handler]) => [prefix, handler ? loopbackOnly(handler) : null]),
  );

  const route = async (request: Request): Promise<Response | null> => {
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
    if (page) return (devPages[page] ?? doorGone)(request);
    return null;
  };

  return async (request) => {
    const refused = routes.hosts.refusal(request);
    if (refused) return routes.headers.apply(request, refused, 'api');
    const routed = await route(request);
    if (routed) return routes.headers.apply(request, routed, 'api');
    return routes.headers.apply(request, await routes.fallback(request), 'spa');
  };
}
