import type { ApiHandler } from './api-handler.ts';
import { hostName, peerAddress, requestHost } from './allowed-hosts.ts';
import { isLoopbackAddress, isLoopbackName } from './client-address.ts';

/**
 * The development doors (the mailbox, the local Stripe pages and API) read
 * and change what no stranger may: recovery links, subscriptions. They answer
 * only a loopback Host from a loopback peer, and, when the browser says where
 * the call comes from, a loopback Origin; the stack leaves them out of
 * production and the mailbox out when SMTP_URL is set (local/stack.ts).
 */
export function loopbackOnly(handler: ApiHandler): ApiHandler {
  return async (request) => {
    const host = requestHost(request);
    const name = host === null ? null : hostName(host);
    const peer = peerAddress(request);
    if (name === null || !isLoopbackName(name) || (peer !== null && !isLoopbackAddress(peer))) {
      return refusal(421, 'host_not_allowed', 'Development pages answer only on localhost');
    }
    const origin = request.headers.get('origin');
    if (origin !== null && !isLoopbackOrigin(origin)) {
      return refusal(403, 'origin_not_allowed', 'Development pages answer only to pages on localhost');
    }
    return handler(request);
  };
}

function isLoopbackOrigin(origin: string): boolean {
  // "null" (a sandboxed or opaque origin) and anything unparsable are foreign.
  if (!URL.canParse(origin)) return false;
  const url = new URL(origin);
  const name = hostName(url.host);
  return (url.protocol === 'http:' || url.protocol === 'https:') && name !== null && isLoopbackName(name);
}

function refusal(status: number, code: string, message: string): Response {
  return Response.json({ code, message }, { status, headers: { 'cache-control': 'no-store' } });
}

/** What a door left out answers: as if it had never existed. */
export function doorGone(): Response {
  return Response.json({ code: 'not_found', message: 'Not found' }, { status: 404 });
}
