import { BlockList, isIP } from 'node:net';

/**
 * Where a request came from, behind the proxies the stack is told to trust (TRUSTED_PROXIES, as Express's
 * `trust proxy`): the rate limits of auth and the realtime caps key on it. Without a trusted proxy it is the
 * socket's address and X-Forwarded-For is ignored, since any client can send one. With one, the addresses of
 * X-Forwarded-For are read from the right (each proxy appends the address it was reached from) past the trusted
 * ones; the first untrusted address is the client's. An address a client wrote at the left of the header is never
 * reached while the proxies append theirs.
 */
export type TrustedProxies = { kind: 'none' } | { kind: 'hops'; hops: number } | { kind: 'addresses'; list: BlockList; text: string };

const NAMED_RANGES: Record<string, Array<[string, number, 'ipv4' | 'ipv6']>> = {
  loopback: [['127.0.0.0', 8, 'ipv4'], ['::1', 128, 'ipv6']],
  linklocal: [['169.254.0.0', 16, 'ipv4'], ['fe80::', 10, 'ipv6']],
  uniquelocal: [['10.0.0.0', 8, 'ipv4'], ['172.16.0.0', 12, 'ipv4'], ['192.168.0.0', 16, 'ipv4'], ['fc00::', 7, 'ipv6']],
};

export const TRUSTED_PROXIES_HELP =
  'a number of proxies (1 for one proxy in front), or a comma-separated list of their addresses, ranges (10.0.0.0/8) ' +
  'and the names loopback, linklocal, uniquelocal';

/** Reads TRUSTED_PROXIES; throws with what it may hold when it is not valid. */
export function parseTrustedProxies(value: string): TrustedProxies {
  const text = value.trim();
  if (text === '') return { kind: 'none' };
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops < 1 || hops > 10) throw new Error(`TRUSTED_PROXIES as a number of proxies is 1 to 10, not ${text}`);
    return { kind: 'hops', hops };
  }
  const list = new BlockList();
  for (const item of text.split(',').map((part) => part.trim().toLowerCase()).filter(Boolean)) {
    const named = NAMED_RANGES[item];
    if (named) {
      for (const [network, prefix, family] of named) list.addSubnet(network, prefix, family);
      continue;
    }
    const [address, prefixText, ...rest] = item.split('/');
    const family = isIP(address ?? '');
    const prefix = prefixText === undefined ? (family === 6 ? 128 : 32) : Number(prefixText);
    if (family === 0 || rest.length > 0 || !Number.isInteger(prefix) || prefix < 0 || prefix > (family === 6 ? 128 : 32)) {
      throw new Error(`TRUSTED_PROXIES has "${item}", which is not an address or range: it takes ${TRUSTED_PROXIES_HELP}`);
    }
    list.addSubnet(address!, prefix, family === 6 ? 'ipv6' : 'ipv4');
  }
  return { kind: 'addresses', list, text };
}

/** An address as written in a socket or a header: IPv4-mapped IPv6 as IPv4, without brackets or a port. */
export function normalAddress(raw: string): string {
  let address = raw.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  if (bracketed) address = bracketed[1]!;
  else if (/^\d{1,3}(?:\.\d{1,3}){3}:\d+$/.test(address)) address = address.slice(0, address.lastIndexOf(':'));
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  return (mapped ? mapped[1]! : address).toLowerCase();
}

/** localhost, 127.0.0.0/8 and ::1: names only this machine answers to. */
export function isLoopbackName(name: string): boolean {
  return name === 'localhost' || name === '::1' || /^127(?:\.\d{1,3}){3}$/.test(name);
}

/** A socket address on this machine (IPv4, IPv6 or IPv4-mapped IPv6). */
export function isLoopbackAddress(address: string): boolean {
  return address === '::1' || /^(?:::ffff:)?127(?:\.\d{1,3}){3}$/i.test(address);
}

const isTrusted = (list: BlockList, address: string) => {
  const family = isIP(address);
  return family !== 0 && list.check(address, family === 6 ? 'ipv6' : 'ipv4');
};

/** The client's address: the socket's, or the first untrusted one of X-Forwarded-For read from the right. */
export function resolveClientAddress(socketAddress: string | undefined, forwardedFor: string | string[] | null | undefined, trusted: TrustedProxies): string {
  const socket = normalAddress(socketAddress ?? 'unknown');
  if (trusted.kind === 'none' || forwardedFor === undefined || forwardedFor === null) return socket;
  const forwarded = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor)
    .split(',')
    .map(normalAddress)
    .filter(Boolean);
  // Nearest first: the socket, then each proxy's report of who reached it.
  const chain = [socket, ...forwarded.reverse()];
  if (trusted.kind === 'hops') return chain[Math.min(trusted.hops, chain.length - 1)]!;
  for (let index = 0; index < chain.length; index += 1) {
    if (!isTrusted(trusted.list, chain[index]!)) return chain[index]!;
  }
  return chain.at(-1)!;
}
