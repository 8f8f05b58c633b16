import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { LocalConfig } from '../config.ts';
import { isLoopbackAddress, isLoopbackName, resolveClientAddress, type TrustedProxies } from './client-address.ts';
import { CLIENT_IP_HEADER } from './node-adapter.ts';

/**
 * The DNS-rebinding defence: a browser that was made to reach this server
 * under another name still sends that name in Host, so the stack answers only
 * to names it knows. Development: loopback names (any port) and SITE_URL's
 * host; production: SITE_URL's host and ALLOWED_HOSTS, plus loopback names
 * from a loopback peer (the edge functions call the stack on localhost).
 */
export interface HostAllowList {
  /** Null when the request may go on; otherwise the refusal to send. */
  refusal(request: Request): Response | null;
  /** The same check for a websocket upgrade, which never becomes a Request. */
  allowsUpgrade(request: IncomingMessage): boolean;
}

export type HostSettings = Pick<LocalConfig, 'OBYECT_MODE' | 'SITE_URL' | 'ALLOWED_HOSTS'>;

/** The host name of a Host header or URL host, lower case, without port, brackets or a trailing dot; null if malformed. */
export function hostName(host: string): string | null {
  const match = /^(?:\[([0-9a-f:.]+)\]|([^\s:/\\@[\]]+))(?::(\d{1,5}))?$/i.exec(host.trim());
  if (!match) return null;
  return (match[1] ?? match[2]!).toLowerCase().replace(/\.$/, '');
}

/** The Host the client sent, or for a Request made in-process (tests, no Host header) its URL's host. */
export function requestHost(request: Request): string | null {
  const sent = request.headers.get('host');
  if (sent !== null) return sent;
  // A request that came over the network always carries its peer's address; one without Host is refused.
  if (request.headers.has(CLIENT_IP_HEADER)) return null;
  return new URL(request.url).host;
}

/** The peer's address when the request came over the network, else null (in-process). */
export function peerAddress(request: Request): string | null {
  return request.headers.get(CLIENT_IP_HEADER);
}

export function hostRefusal(): Response {
  return Response.json(
    { code: 'host_not_allowed', message: 'This server does not answer to that host name' },
    { status: 421, headers: { 'cache-control': 'no-store' } },
  );
}

export function createHostAllowList(settings: HostSettings, trustedProxies: TrustedProxies = { kind: 'none' }): HostAllowList {
  const named = new Set(settings.ALLOWED_HOSTS.map((host) => hostName(host)).filter((name): name is string => name !== null));
  if (settings.SITE_URL) named.add(new URL(settings.SITE_URL).hostname.toLowerCase().replace(/^\[|\]$/g, ''));
  const production = settings.OBYECT_MODE === 'production';

  const allows = (host: string | null | undefined, peer: string | null | undefined): boolean => {
    const name = host ? hostName(host) : null;
    if (name === null) return false;
    if (named.has(name)) return true;
    if (!isLoopbackName(name)) return false;
    // In production only this machine may use a loopback name: behind a proxy that keeps Host, no browser can.
    return !production || (peer !== null && peer !== undefined && isLoopbackAddress(peer));
  };

  return {
    refusal(request) {
      // A Request made in this process (tests, tools) has no peer: it comes from this machine.
      return allows(requestHost(request), peerAddress(request) ?? '127.0.0.1') ? null : hostRefusal();
    },
    allowsUpgrade(request) {
      return allows(request.headers.host, resolveClientAddress(request.socket.remoteAddress, request.headers['x-forwarded-for'], trustedProxies));
    },
  };
}

/** Answers a refused websocket upgrade as the HTTP answer it would have had, then closes the socket. */
export function refuseUpgrade(socket: Duplex): void {
  const body = JSON.stringify({ code: 'host_not_allowed', message: 'This server does not answer to that host name' });
  socket.end(
    `HTTP/1.1 421 Misdirected Request\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}
