import { readFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import type { Attack, AttackTarget } from '../attack.ts';

/**
 * Oversized and malformed requests: a 400 MB body streamed at rest/v1, a JSON
 * body nested 5,000 levels deep at rest, auth and functions, and error bodies
 * read for stacks, file paths, JavaScript internals and the signature of a
 * function the caller may not execute.
 */

const MiB = 1024 * 1024;
const BODY_BYTES = 400 * MiB;
/** A refusal "at the limit" (1 MB by default): what the socket buffers hold besides is far below this. */
const SENT_BEFORE_REFUSAL_MAX = 32 * MiB;
const REFUSAL_MS_MAX = 5_000;
/** Memory the stack may take for a refused body; the issue measured +3.3 GB. */
const GROWTH_MAX = 64 * MiB;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const megabytes = (bytes: number) => `${(bytes / MiB).toFixed(bytes < 10 * MiB ? 1 : 0)} MB`;

/** The stack's resident memory, when the runner names its process (Linux /proc). */
async function residentBytes(target: AttackTarget): Promise<number | null> {
  const pid = (target as AttackTarget & { pid?: number }).pid;
  if (!pid) return null;
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kilobytes = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
    return kilobytes ? Number(kilobytes) * 1024 : null;
  } catch {
    return null;
  }
}

/** Samples the stack's memory every 50 ms until stopped; the highest growth over the start. */
function watchMemory(target: AttackTarget) {
  let start: number | null = null;
  let peak: number | null = null;
  let running = true;
  const loop = (async () => {
    start = await residentBytes(target);
    peak = start;
    while (running && start !== null) {
      const now = await residentBytes(target);
      if (now !== null && (peak === null || now > peak)) peak = now;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  return async (): Promise<number | null> => {
    running = false;
    await loop;
    return start === null || peak === null ? null : Math.max(0, peak - start);
  };
}

interface Streamed {
  status: number | null;
  body: string;
  sent: number;
  ms: number;
}

/** Streams up to `total` bytes of spaces (chunked), stopping the moment the stack answers or closes. */
function streamBody(url: string, headers: Record<string, string>, total: number): Promise<Streamed> {
  const started = performance.now();
  return new Promise((resolve) => {
    let sent = 0;
    let stopped = false;
    const req = httpRequest(url, { method: 'POST', headers, agent: false });
    const finish = (status: number | null, body: string) => {
      if (stopped) return;
      stopped = true;
      resolve({ status, body, sent, ms: performance.now() - started });
      req.destroy();
    };
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => finish(res.statusCode ?? null, body));
      res.on('error', () => finish(res.statusCode ?? null, body));
    });
    req.on('error', () => finish(null, ''));
    // Bounded even if the stack neither answers nor reads.
    setTimeout(() => finish(null, ''), 60_000).unref();
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const pump = () => {
      while (!stopped && sent < total) {
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once('drain', pump);
          return;
        }
      }
      if (!stopped) req.end();
    };
    pump();
  });
}

const anonHeaders = (target: AttackTarget) => ({ apikey: target.anonKey, authorization: `Bearer ${target.anonKey}`, 'content-type': 'application/json' });

/** What no error body may show. */
const INTERNALS = /\n\s+at |\bat [\w$.<>]+ \(|node:internal|node_modules|file:\/\/|\/work\/|\/home\/|\/tmp\/|\.ts:\d+|\.js:\d+|\b(TypeError|RangeError|ReferenceError|SyntaxError)\b|Maximum call stack|Unexpected token|JSON at position|Cannot read propert/;

const attacks: Attack[] = [
  {
    name: 'an anonymous 400 MB request body streamed at rest/v1 (stops sending once refused)',
    before: '500 after 12.5 s; +3.3 GB of memory held',
    async run(target) {
      const memory = watchMemory(target);
      const answer = await streamBody(`${target.url}/rest/v1/brands`, anonHeaders(target), BODY_BYTES);
      const growth = await memory();
      const held = answer.status === 413 && answer.sent <= SENT_BEFORE_REFUSAL_MAX && answer.ms <= REFUSAL_MS_MAX
        && (growth === null || growth <= GROWTH_MAX);
      return {
        now: `${answer.status ?? 'no answer'} after ${seconds(answer.ms)}, ${megabytes(answer.sent)} sent`
          + (growth === null ? '' : `; +${megabytes(growth)} of memory`),
        held,
      };
    },
  },
  {
    name: 'a JSON body nested 5,000 levels deep at rest/v1, auth/v1 and functions/v1',
    before: '500 (stack overflow)',
    async run(target) {
      const deep = (key: string) => `{"${key}":${'['.repeat(4_999)}1${']'.repeat(4_999)}}`;
      const account = await target.newAccount();
      const calls: [string, string, Record<string, string>, string][] = [
        ['rest', '/rest/v1/brands', anonHeaders(target), deep('name')],
        ['auth', '/auth/v1/token?grant_type=password', anonHeaders(target), deep('email')],
        ['functions', '/functions/v1/tag-yesterdays-ads', { ...anonHeaders(target), authorization: `Bearer ${account.accessToken}` }, deep('day')],
      ];
      const results: string[] = [];
      let held = true;
      for (const [api, path, headers, body] of calls) {
        const started = performance.now();
        const response = await fetch(`${target.url}${path}`, { method: 'POST', headers, body });
        const text = await response.text();
        const ms = performance.now() - started;
        results.push(`${api} ${response.status} in ${seconds(ms)}`);
        if (response.status !== 400 || INTERNALS.test(text) || !/nested more than 64 levels/.test(text)) held = false;
      }
      return { now: results.join(', '), held };
    },
  },
  {
    name: 'error bodies read for stacks, file paths, JS internals and hints at functions the caller may not execute',
    before: 'JavaScript internals in error bodies; a hint gave the signature of a function the caller may not execute',
    async run(target) {
      const anon = anonHeaders(target);
      const probes: [string, RequestInit][] = [
        ['/rest/v1/rpc/apply_stripe_event', { method: 'POST', headers: anon, body: '{}' }],
        ['/rest/v1/rpc/admin_set_black_friday_access', { method: 'POST', headers: anon, body: '{"x":1}' }],
        ['/rest/v1/brands', { method: 'POST', headers: anon, body: '{"name":' }],
        ['/rest/v1/brands?id=eq.not-a-uuid', { headers: anon }],
        ['/rest/v1/brands?select=((', { headers: anon }],
        ['/rest/v1/brands', { headers: { apikey: 'x.y.z', authorization: 'Bearer eyJ%%.eyJ.x' } }],
        ['/auth/v1/signup', { method: 'POST', headers: anon, body: '{"email":' }],
        ['/auth/v1/token?grant_type=password', { method: 'POST', headers: anon, body: '[1,2]' }],
        ['/auth/v1/user', { headers: { apikey: target.anonKey, authorization: 'Bearer eyJhbGciOiJub25lIn0.e30.' } }],
        ['/storage/v1/object/sign/ad-originals/a.jpg', { method: 'POST', headers: anon, body: '{"expiresIn":' }],
        ['/storage/v1/object/ad-originals/a.jpg', { method: 'POST', headers: { ...anon, 'content-type': 'multipart/form-data; boundary=zz' }, body: '--zz\r\ngarbage' }],
        ['/storage/v1/object/sign/ad-originals/a.jpg?token=eyJ.eyJ.x', {}],
        ['/functions/v1/tag-yesterdays-ads', { method: 'POST', headers: { ...anon, authorization: 'Bearer a.b.c' }, body: '{}' }],
        [`/rest/v1/brands?name=in.(${'a'.repeat(20_000)})`, { headers: anon }],
      ];
      const leaks: string[] = [];
      let errors = 0;
      for (const [path, init] of probes) {
        const response = await fetch(`${target.url}${path}`, init);
        const text = await response.text();
        if (response.status < 400) continue;
        errors += 1;
        const where = path.slice(0, 48);
        if (INTERNALS.test(text)) leaks.push(`${where}: internals`);
        if (path.startsWith('/rest/v1/rpc/') && (/Perhaps you meant/.test(text) || /=>/.test(text))) leaks.push(`${where}: signature hint`);
        let parsed: Record<string, unknown> | null = null;
        try {
          parsed = JSON.parse(text) as Record<string, unknown>;
        } catch {
          leaks.push(`${where}: not JSON`);
        }
        const flat = { ...parsed, ...((parsed?.error as Record<string, unknown> | undefined) ?? {}) };
        if (parsed && !(flat.code ?? flat.error ?? flat.statusCode)) leaks.push(`${where}: no code`);
      }
      return {
        now: leaks.length === 0 ? `${errors} error bodies: codes and messages only, no signature hints` : `${leaks.length} of ${errors}: ${leaks.join('; ')}`,
        held: leaks.length === 0 && errors === probes.length,
      };
    },
  },
];

export default attacks;
