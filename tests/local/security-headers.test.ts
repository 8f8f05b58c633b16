import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createHostAllowList } from '../../local/http/allowed-hosts.ts';
import { createGateway } from '../../local/http/gateway.ts';
import { createSecurityHeaders } from '../../local/http/security-headers.ts';
import { projectRoot } from '../../local/stack.ts';
import { rawRequest, type RawAnswer } from '../support/raw-request.ts';
import { startStackOnPglite } from '../support/stack-on-pglite.ts';

type Stack = Awaited<ReturnType<typeof startStackOnPglite>>;

/** One directive of a Content-Security-Policy, e.g. "script-src 'self'". */
const directive = (policy: string | undefined, name: string) =>
  (policy ?? '').split(';').map((part) => part.trim()).find((part) => part.split(/\s+/)[0] === name);

function expectProtectiveHeaders(answer: RawAnswer, label: string) {
  expect(directive(answer.headers['content-security-policy'] as string, 'frame-ancestors'), label).toBe("frame-ancestors 'none'");
  expect(answer.headers['x-frame-options'], label).toBe('DENY');
  expect(answer.headers['x-content-type-options'], label).toBe('nosniff');
  expect(answer.headers['referrer-policy'], label).toBeDefined();
}

describe('what the stack answers a browser: its own host names only, protective headers, no source maps', () => {
  let stack: Stack;
  let base: string;
  let port: string;
  let apikey: string;

  beforeAll(async () => {
    stack = await startStackOnPglite();
    port = new URL(stack.url).port;
    base = `http://127.0.0.1:${port}`;
    apikey = stack.config.anonKey;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const everyRoute = (): { method: string; path: string; headers: Record<string, string>; body?: string }[] => [
    { method: 'GET', path: '/rest/v1/brands?select=name&limit=1', headers: { apikey } },
    { method: 'OPTIONS', path: '/rest/v1/brands', headers: { origin: 'http://attacker.example', 'access-control-request-method': 'GET' } },
    { method: 'GET', path: '/auth/v1/settings', headers: { apikey } },
    { method: 'POST', path: '/auth/v1/recover', headers: { apikey, 'content-type': 'application/json' }, body: '{"email":"admin@obyect.local"}' },
    { method: 'GET', path: '/storage/v1/object/public/brand-logos/none/logo.webp', headers: {} },
    { method: 'POST', path: '/functions/v1/create-checkout', headers: { apikey, 'content-type': 'application/json' }, body: '{}' },
    { method: 'GET', path: '/', headers: {} },
    { method: 'GET', path: '/library', headers: {} },
    { method: 'GET', path: '/assets/app.js', headers: {} },
  ];

  it('refuses a foreign Host on every API and the SPA (421, our error shape), and answers loopback names', async () => {
    for (const route of everyRoute()) {
      const label = `${route.method} ${route.path}`;
      const refused = await rawRequest(`${base}${route.path}`, { ...route, host: `attacker.example:${port}` });
      expect(refused.status, label).toBe(421);
      expect(JSON.parse(refused.body), label).toEqual({ code: 'host_not_allowed', message: expect.any(String) });
      expect(refused.headers['access-control-allow-origin'], label).toBeUndefined();
      for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, 'LOCALHOST.']) {
        expect((await rawRequest(`${base}${route.path}`, { ...route, host })).status, `${label} on ${host}`).not.toBe(421);
      }
    }
  });

  it('refuses the realtime websocket to a foreign Host and opens it on localhost', async () => {
    const open = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const socket = new WebSocket(`ws://127.0.0.1:${port}/realtime/v1/websocket?apikey=${apikey}&vsn=1.0.0`, { headers: { host } });
        socket.once('open', () => {
          socket.close();
          resolve(101);
        });
        socket.once('unexpected-response', (_request, response) => {
          resolve(response.statusCode ?? 0);
          socket.terminate();
        });
        socket.once('error', reject);
      });
    expect(await open('attacker.example')).toBe(421);
    expect(await open(`localhost:${port}`)).toBe(101);
  });

  it('sends the SPA with a policy that runs only its own scripts and may not be framed', async () => {
    for (const page of ['/', '/library', '/ads/some-ad']) {
      const answer = await rawRequest(`${base}${page}`);
      expect(answer.status).toBe(200);
      expectProtectiveHeaders(answer, page);
      expect(answer.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      const policy = answer.headers['content-security-policy'] as string;
      expect(directive(policy, 'script-src')).toBe("script-src 'self' 'wasm-unsafe-eval'");
      expect(directive(policy, 'default-src')).toBe("default-src 'self'");
      expect(directive(policy, 'object-src')).toBe("object-src 'none'");
      expect(directive(policy, 'base-uri')).toBe("base-uri 'none'");
      expect(directive(policy, 'img-src')).toBe("img-src 'self' data: blob:");
      expect(directive(policy, 'media-src')).toBe("media-src 'self' blob:");
      expect(directive(policy, 'connect-src')).toBe(`connect-src 'self' ws://127.0.0.1:${port}`);
      expect(answer.headers['strict-transport-security']).toBeUndefined();
    }
  });

  it('sends API answers, errors and refusals with a policy that allows nothing, and the development pages with their own', async () => {
    const answers: [string, RawAnswer][] = [
      ['rest', await rawRequest(`${base}/rest/v1/brands?select=name&limit=1`, { headers: { apikey } })],
      ['rest error', await rawRequest(`${base}/rest/v1/no_such_table`, { headers: { apikey } })],
      ['auth', await rawRequest(`${base}/auth/v1/settings`, { headers: { apikey } })],
      ['storage', await rawRequest(`${base}/storage/v1/object/public/brand-logos/none/logo.webp`)],
      ['unknown api', await rawRequest(`${base}/realtime/v1/nothing`)],
      ['refused host', await rawRequest(`${base}/rest/v1/brands`, { host: 'attacker.example' })],
    ];
    for (const [label, answer] of answers) {
      expectProtectiveHeaders(answer, label);
      expect(directive(answer.headers['content-security-policy'] as string, 'default-src'), label).toBe("default-src 'none'");
      expect(answer.headers['referrer-policy'], label).toBe('strict-origin-when-cross-origin');
    }
    const mailbox = await rawRequest(`${base}/_mailbox`);
    expectProtectiveHeaders(mailbox, 'mailbox');
    expect(directive(mailbox.headers['content-security-policy'] as string, 'default-src')).toBe("default-src 'none'");
    expect(mailbox.headers['referrer-policy']).toBe('no-referrer');
  });

  it('adds HSTS when the request came over https through a proxy', async () => {
    const proxied = await rawRequest(`${base}/`, { headers: { 'x-forwarded-proto': 'https' } });
    expect(proxied.headers['strict-transport-security']).toBe('max-age=31536000');
    expect(directive(proxied.headers['content-security-policy'] as string, 'connect-src')).toBe(`connect-src 'self' wss://127.0.0.1:${port}`);

    const production = { OBYECT_MODE: 'production' as const, SITE_URL: 'https://obyect.example', ALLOWED_HOSTS: [] };
    const gateway = createGateway({
      apis: { '/rest/v1/': async () => Response.json([]) },
      fallback: async () => new Response('<!doctype html>', { headers: { 'content-type': 'text/html' } }),
      hosts: createHostAllowList(production),
      headers: createSecurityHeaders(production),
    });
    for (const url of ['http://obyect.example/', 'http://obyect.example/rest/v1/brands']) {
      expect((await gateway(new Request(url))).headers.get('strict-transport-security'), url).toBe('max-age=31536000');
    }
  });

  it('serves no source map, even one left in dist/, and builds none', async () => {
    expect((await rawRequest(`${base}/assets/app.js`)).status).toBe(200);
    for (const map of ['/assets/app.js.map', '/assets/APP.JS.MAP', '/assets/app.js.map?v=1']) {
      const answer = await rawRequest(`${base}${map}`);
      expect(answer.status, map).toBe(404);
      expect(answer.body).not.toContain('secret source');
    }
    const viteConfig = (await import('../../vite.config.ts')).default as { build?: { sourcemap?: unknown } };
    expect(viteConfig.build?.sourcemap ?? false).toBe(false);
  });

  it('keeps index.html free of inline scripts, which the policy would block', async () => {
    const html = await readFile(path.join(projectRoot, 'index.html'), 'utf8');
    expect(html.match(/<script\b(?![^>]*\bsrc=)[^>]*>/gi) ?? []).toEqual([]);
    expect(html).not.toMatch(/\son[a-z]+\s*=/i);
  });
});
