import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../../local/db/database.ts';
import type { ApiHandler } from '../../local/http/api-handler.ts';
import { JSON_MAX_DEPTH, jsonNestingExceeds } from '../../local/http/json-body.ts';
import { answerClientErrors, nodeListener, serverOptions } from '../../local/http/node-adapter.ts';
import { requestLimitsOf, type RequestLimits } from '../../local/http/request-limits.ts';
import { createRestApi } from '../../local/rest/rest-api.ts';
import { startLocalStack, type LocalStack } from '../../local/stack.ts';
import { openTestDatabase } from '../support/engines.ts';
import { freePort, startStackProcess, stackKeys, type StackProcess } from '../support/stack-process.ts';
import { grantAdmin, newUser } from '../support/factories.ts';
import { newLocalConfig, TEST_ORIGIN, userToken } from '../support/local-config.ts';

/**
 * Requests are bounded before they are read: bodies (1 MB for rest, auth and
 * functions; each bucket's file_size_limit for uploads), JSON nesting (64
 * levels), the URL and the headers. Memory stays flat under an oversized
 * body, and no error body carries a stack, a file path or a signature the
 * caller may not execute.
 */

const MiB = 1024 * 1024;
const LIMIT = MiB;

/** `depth` levels of arrays around a number, inside `{"<key>": ...}` when a key is given (which adds one level). */
function nested(depth: number, key?: string): string {
  const inner = key ? depth - 1 : depth;
  const value = `${'['.repeat(inner)}1${']'.repeat(inner)}`;
  return key ? `{"${key}":${value}}` : value;
}

interface StreamedAnswer {
  status: number | null;
  body: string;
  /** Bytes written before the answer came (or the connection ended). */
  sent: number;
  ms: number;
}

/**
 * Sends up to `total` bytes as a body, stopping as soon as an answer arrives
 * (or the connection ends): chunked unless `declared` gives a Content-Length.
 */
function sendBody(url: string, options: { method?: string; headers?: Record<string, string>; total: number; declared?: number }): Promise<StreamedAnswer> {
  const started = Date.now();
  return new Promise((resolve) => {
    let sent = 0;
    let stopped = false;
    const headers: Record<string, string> = { ...options.headers };
    if (options.declared !== undefined) headers['content-length'] = String(options.declared);
    const req = httpRequest(url, { method: options.method ?? 'POST', headers, agent: false });
    const finish = (status: number | null, body: string) => {
      if (stopped) return;
      stopped = true;
      resolve({ status, body, sent, ms: Date.now() - started });
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
    // Headers go out at once, also when no byte of the body follows.
    req.flushHeaders();
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const pump = () => {
      while (!stopped && sent < options.total) {
        const piece = chunk.subarray(0, Math.min(chunk.length, options.total - sent));
        sent += piece.length;
        if (!req.write(piece)) {
          req.once('drain', pump);
          return;
        }
      }
      if (!stopped && options.declared === undefined) req.end();
    };
    pump();
  });
}

/** An answer to a request that declares a body it does not send (yet). */
function declareOnly(url: string, declared: number, headers: Record<string, string> = {}): Promise<StreamedAnswer> {
  return sendBody(url, { total: 0, declared, headers });
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** What no error body may show: stack frames, file paths, JavaScript's own error names. */
function expectNoInternals(body: string, where: string) {
  expect(body, where).not.toMatch(/\n\s+at |\bat [\w$.<>]+ \(|node:internal|node_modules|file:\/\/|\/work\/|\/home\/|\/tmp\/|\.ts:\d+|\.js:\d+|\.mjs/);
  expect(body, where).not.toMatch(/\b(TypeError|RangeError|ReferenceError|SyntaxError|AbortError)\b|Maximum call stack|Unexpected token|JSON at position|undefined is not|Cannot read propert/);
}

describe('JSON nesting', () => {
  it('counts arrays and objects, not brackets inside strings', () => {
    expect(jsonNestingExceeds(nested(64))).toBe(false);
    expect(jsonNestingExceeds(nested(65))).toBe(true);
    expect(jsonNestingExceeds(nested(64, 'a'))).toBe(false);
    expect(jsonNestingExceeds(nested(65, 'a'))).toBe(true);
    expect(jsonNestingExceeds(JSON.stringify({ text: '['.repeat(500), quoted: '\\"[[[[' }))).toBe(false);
    expect(jsonNestingExceeds(new TextEncoder().encode(`{"é":${nested(64)}}`))).toBe(true);
    expect(jsonNestingExceeds(nested(5_000))).toBe(true);
    expect(JSON_MAX_DEPTH).toBe(64);
  });
});

describe('the node adapter', () => {
  const limits: RequestLimits = requestLimitsOf({ MAX_REQUEST_BODY_BYTES: LIMIT });
  let server: Server;
  let url: string;
  let received = 0;
  // Reads whatever it is given, as an API that trusts its input would.
  const handler: ApiHandler = async (request) => {
    if (new URL(request.url).pathname === '/rest/v1/fail') throw new Error(`broke at ${path.join(process.cwd(), 'local/rest/x.ts')}:12`);
    const text = await request.text();
    received += text.length;
    return Response.json({ length: text.length });
  };

  beforeAll(async () => {
    server = createServer(serverOptions(limits));
    answerClientErrors(server, limits);
    server.on('request', nodeListener(handler, () => url, limits));
    url = await listen(server);
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('answers 413 to a Content-Length over the limit before reading a byte of the body', async () => {
    const answer = await declareOnly(`${url}/rest/v1/brands`, 400 * 1024 * MiB);
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'payload_too_large', message: `The request body is larger than ${LIMIT} bytes` });
    expect(answer.ms).toBeLessThan(2_000);
  });

  it('accepts a body of exactly the limit', async () => {
    const answer = await sendBody(`${url}/rest/v1/brands`, { total: LIMIT, declared: LIMIT });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ length: LIMIT });
  });

  it('cuts a streamed body off at the limit with 413, and memory stays flat', async () => {
    received = 0;
    const rssBefore = process.memoryUsage().rss;
    const answer = await sendBody(`${url}/auth/v1/signup`, { total: 256 * MiB });
    const growth = process.memoryUsage().rss - rssBefore;
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'payload_too_large', error_code: 'payload_too_large' });
    expect(received).toBe(0);
    // Refused once the limit passed: the client stopped long before its 256 MB.
    expect(answer.sent).toBeLessThan(32 * MiB);
    expect(growth).toBeLessThan(48 * MiB);
  });

  it('answers 414 to a URL over 16 KB, in the error shape of the API', async () => {
    const response = await fetch(`${url}/rest/v1/brands?name=in.(${'a'.repeat(17 * 1024)})`);
    expect(response.status).toBe(414);
    expect(await response.json()).toEqual({ code: 'uri_too_long', details: null, hint: null, message: 'The URL is longer than 16384 bytes' });
    expect((await fetch(`${url}/rest/v1/brands?name=in.(${'a'.repeat(15 * 1024)})`)).status).toBe(200);
  });

  it('answers 431 to headers over 32 KB with our error shape', async () => {
    const response = await fetch(`${url}/rest/v1/brands`, { headers: { 'x-padding': 'p'.repeat(40 * 1024) } });
    expect(response.status).toBe(431);
    expect(await response.json()).toEqual({ code: 'headers_too_large', message: 'The request line and headers together are larger than 32768 bytes' });
  });

  it('answers a failure no API turned into an answer with 500 and a generic message; the detail goes to the log only', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const response = await fetch(`${url}/rest/v1/fail`);
      expect(response.status).toBe(500);
      const body = await response.text();
      expect(JSON.parse(body)).toEqual({ code: 'internal_error', details: null, hint: null, message: 'Internal error' });
      expectNoInternals(body, 'adapter 500');
      expect(String(logged.mock.calls[0]?.[1])).toContain('broke at');
    } finally {
      logged.mockRestore();
    }
  });
});

describe('rest/v1 when something unexpected fails', () => {
  it('answers 500 without the error\'s message, stack or path', async () => {
    const config = await newLocalConfig();
    const failing = new Error(`ENOENT: no such file or directory, open '${path.join(process.cwd(), 'local/db/pglite.ts')}'`);
    const db = { query: async () => { throw failing; }, transaction: async () => { throw failing; } } as unknown as Database;
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const api = createRestApi({ db, config });
      const response = await api(new Request(`${TEST_ORIGIN}/rest/v1/brands`, { headers: { apikey: config.anonKey } }));
      expect(response.status).toBe(500);
      const body = await response.text();
      expect(JSON.parse(body)).toEqual({ code: 'PGRSTX00', details: null, hint: null, message: 'Internal error in the local rest/v1 API' });
      expectNoInternals(body, 'rest 500');
    } finally {
      logged.mockRestore();
      await config.cleanup();
    }
  });
});

describe('the local stack under oversized and malformed requests', () => {
  let db: Database;
  let stack: LocalStack;
  let url: string;
  let anon: Record<string, string>;
  let service: Record<string, string>;
  let adminToken: string;
  let dataDir: string | undefined;

  beforeAll(async () => {
    db = await openTestDatabase('pglite');
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'obyect-limits-'));
    stack = await startLocalStack({ db, port: 0, env: { DATA_DIR: dataDir } });
    url = stack.url.replace('//localhost:', '//127.0.0.1:');
    anon = { apikey: stack.config.anonKey, authorization: `Bearer ${stack.config.anonKey}` };
    service = { apikey: stack.config.serviceRoleKey, authorization: `Bearer ${stack.config.serviceRoleKey}` };
    const admin = await newUser(db);
    await grantAdmin(db, admin);
    adminToken = await userToken(stack.config, admin);
    await db.exec(`
      create function public.request_limits_depth(p jsonb) returns text language sql stable as $$ select jsonb_typeof(p) $$;
      grant execute on function public.request_limits_depth(jsonb) to anon, authenticated;
      create function public.request_limits_private(p_secret_column text) returns int language sql stable as $$ select 1 $$;
      revoke execute on function public.request_limits_private(text) from public, anon, authenticated;
      grant execute on function public.request_limits_private(text) to service_role;
    `);
  });
  afterAll(async () => {
    await stack?.close();
    await db?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const json = (headers: Record<string, string>) => ({ ...headers, 'content-type': 'application/json' });
  const functionUrl = () => `${url}/functions/v1/tag-yesterdays-ads`;

  it.each([
    ['rest', '/rest/v1/brands'],
    ['auth', '/auth/v1/signup'],
    ['functions', '/functions/v1/tag-yesterdays-ads'],
  ])('answers 413 on %s to a body over 1 MB, declared or streamed, and memory stays flat', async (_api, route) => {
    const declared = await declareOnly(`${url}${route}`, 400 * 1024 * MiB, json(anon));
    expect(declared.status).toBe(413);
    expect(declared.body).toContain('payload_too_large');

    const rssBefore = process.memoryUsage().rss;
    const streamed = await sendBody(`${url}${route}`, { total: 256 * MiB, headers: json(anon) });
    const growth = process.memoryUsage().rss - rssBefore;
    expect(streamed.status).toBe(413);
    expect(streamed.body).toContain('payload_too_large');
    expect(streamed.sent).toBeLessThan(32 * MiB);
    expect(growth).toBeLessThan(48 * MiB);
  });

  it('accepts a body just under the limit on rest', async () => {
    const body = JSON.stringify({ p: 'x'.repeat(LIMIT - 100) });
    expect(body.length).toBeLessThanOrEqual(LIMIT);
    const response = await fetch(`${url}/rest/v1/rpc/request_limits_depth`, { method: 'POST', headers: json(anon), body });
    expect(response.status, await response.clone().text()).toBe(200);
    expect(await response.json()).toBe('string');
  });

  describe('uploads over the bucket\'s file_size_limit (brand-logos: 2 MB)', () => {
    const logoFiles = async () => (await readdir(path.join(stack.storage.files.root, 'brand-logos')).catch(() => [] as string[])).length;
    const rowsNamed = async (name: string) =>
      (await db.query<{ n: number }>("select count(*)::int as n from storage.objects where bucket_id = 'brand-logos' and name = $1", [name])).rows[0]!.n;
    const expectNothingLeft = async (name: string, filesBefore: number) => {
      expect(await rowsNamed(name)).toBe(0);
      expect(await logoFiles()).toBe(filesBefore);
      expect(await readdir(stack.storage.files.tmpDir)).toEqual([]);
    };

    it('answers 413 before reading when Content-Length says too much', async () => {
      const before = await logoFiles();
      const answer = await declareOnly(`${url}/storage/v1/object/brand-logos/declared.png`, 3 * MiB, { ...service, 'content-type': 'image/png' });
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body)).toMatchObject({ statusCode: '413', error: 'Payload too large' });
      await expectNothingLeft('declared.png', before);
    });

    it('cuts a streamed upload off once it passes the limit, leaving no row and no file', async () => {
      const before = await logoFiles();
      const answer = await sendBody(`${url}/storage/v1/object/brand-logos/streamed.png`, { total: 64 * MiB, headers: { ...service, 'content-type': 'image/png' } });
      expect(answer.status).toBe(413);
      expect(answer.sent).toBeLessThan(32 * MiB);
      await expectNothingLeft('streamed.png', before);
    });

    it('cuts a streamed multipart upload off the same way', async () => {
      const before = await logoFiles();
      const boundary = 'limits-boundary';
      const head = Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="cacheControl"\r\n\r\n3600\r\n--${boundary}\r\ncontent-disposition: form-data; name=""; filename="multi.png"\r\ncontent-type: image/png\r\n\r\n`);
      const started = Date.now();
      const answer = await new Promise<StreamedAnswer>((resolve) => {
        let sent = 0;
        let done = false;
        const req = httpRequest(`${url}/storage/v1/object/brand-logos/multi.png`, {
          method: 'POST', agent: false, headers: { ...service, 'content-type': `multipart/form-data; boundary=${boundary}` },
        });
        req.on('response', (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => {
            done = true;
            resolve({ status: res.statusCode ?? null, body, sent, ms: Date.now() - started });
            req.destroy();
          });
        });
        req.on('error', () => {
          if (!done) resolve({ status: null, body: '', sent, ms: Date.now() - started });
          done = true;
        });
        req.write(head);
        const chunk = Buffer.alloc(64 * 1024, 7);
        const pump = () => {
          while (!done && sent < 64 * MiB) {
            sent += chunk.length;
            if (!req.write(chunk)) return void req.once('drain', pump);
          }
        };
        pump();
      });
      expect(answer.status).toBe(413);
      expect(answer.sent).toBeLessThan(32 * MiB);
      await expectNothingLeft('multi.png', before);
    });

    it('still takes the admin page\'s uploads within the limit, as supabase-js sends them', async () => {
      const logo = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#2d6cdf' } }).png().toBuffer();
      const form = new FormData();
      form.append('cacheControl', '3600');
      form.append('', new Blob([new Uint8Array(logo)], { type: 'image/png' }), 'logo.png');
      const response = await fetch(`${url}/storage/v1/object/brand-logos/limits/logo.png`, {
        method: 'POST', headers: { apikey: stack.config.anonKey, authorization: `Bearer ${adminToken}` }, body: form,
      });
      expect(response.status, await response.clone().text()).toBe(200);
      expect(await rowsNamed('limits/logo.png')).toBe(1);
    });
  });

  describe('JSON nested deeper than 64 levels', () => {
    it('is refused with 400 by rest, and 64 levels are accepted', async () => {
      const deep = await fetch(`${url}/rest/v1/rpc/request_limits_depth`, { method: 'POST', headers: json(anon), body: nested(65, 'p') });
      expect(deep.status).toBe(400);
      expect(await deep.json()).toMatchObject({ code: 'PGRST102', message: 'The JSON body is nested more than 64 levels deep' });
      const atLimit = await fetch(`${url}/rest/v1/rpc/request_limits_depth`, { method: 'POST', headers: json(anon), body: nested(64, 'p') });
      expect(atLimit.status, await atLimit.clone().text()).toBe(200);
      expect(await atLimit.json()).toBe('array');
      const huge = await fetch(`${url}/rest/v1/brands`, { method: 'POST', headers: json(service), body: nested(5_000, 'name') });
      expect(huge.status).toBe(400);
    });

    it('is refused with 400 by auth, and 64 levels are read', async () => {
      const body = (depth: number) => `{"email":"nobody@example.com","password":"not-the-password","data":${nested(depth - 1)}}`;
      const deep = await fetch(`${url}/auth/v1/token?grant_type=password`, { method: 'POST', headers: json(anon), body: body(65) });
      expect(deep.status).toBe(400);
      expect(await deep.json()).toMatchObject({ code: 'bad_json', msg: 'The JSON body is nested more than 64 levels deep' });
      const atLimit = await fetch(`${url}/auth/v1/token?grant_type=password`, { method: 'POST', headers: json(anon), body: body(64) });
      expect(((await atLimit.json()) as { code: string }).code).not.toBe('bad_json');
    });

    it('is refused with 400 by functions before the function runs, and 64 levels reach it', async () => {
      const deep = await fetch(functionUrl(), { method: 'POST', headers: json({ ...anon, authorization: `Bearer ${adminToken}` }), body: nested(65, 'day') });
      expect(deep.status).toBe(400);
      expect(await deep.json()).toEqual({ error: { code: 'bad_json', message: 'The JSON body is nested more than 64 levels deep' } });
      const atLimit = await fetch(functionUrl(), { method: 'POST', headers: json({ ...anon, authorization: `Bearer ${adminToken}` }), body: nested(64, 'day') });
      // The function itself reads it and refuses the day's shape.
      expect(await atLimit.json()).toMatchObject({ error: { code: 'invalid_body' } });
    });

    it('is refused with 400 by storage\'s JSON routes', async () => {
      const deep = await fetch(`${url}/storage/v1/object/list/brand-logos`, { method: 'POST', headers: json(service), body: nested(65, 'prefix') });
      expect(deep.status).toBe(400);
      expect(await deep.json()).toMatchObject({ error: 'InvalidRequest', message: 'The JSON body is nested more than 64 levels deep' });
      const atLimit = await fetch(`${url}/storage/v1/object/list/brand-logos`, { method: 'POST', headers: json(service), body: nested(64, 'prefix') });
      expect(atLimit.status).toBe(200);
    });
  });

  it('answers 414 and 431 through the stack', async () => {
    expect((await fetch(`${url}/rest/v1/brands?id=in.(${'0'.repeat(20_000)})`, { headers: anon })).status).toBe(414);
    expect((await fetch(`${url}/auth/v1/settings`, { headers: { ...anon, cookie: 'c'.repeat(40_000) } })).status).toBe(431);
  });

  it('never hints at the signature of a function the caller may not execute', async () => {
    const asAnon = await fetch(`${url}/rest/v1/rpc/request_limits_private`, { method: 'POST', headers: json(anon), body: '{"wrong":1}' });
    expect(asAnon.status).toBe(404);
    const anonBody = (await asAnon.json()) as { code: string; hint: string; message: string; details: string };
    expect(anonBody.code).toBe('PGRST202');
    expect(JSON.stringify(anonBody)).not.toContain('p_secret_column');
    const asService = await fetch(`${url}/rest/v1/rpc/request_limits_private`, { method: 'POST', headers: json(service), body: '{"wrong":1}' });
    expect(((await asService.json()) as { hint: string }).hint).toBe('Perhaps you meant to call the function public.request_limits_private(p_secret_column => text)');
  });

  it('answers every error path with a code and a message of ours, never a stack or a file path', async () => {
    const user = { ...anon, authorization: `Bearer ${adminToken}` };
    const cases: { name: string; path: string; init?: RequestInit }[] = [
      { name: 'rest bad filter', path: '/rest/v1/brands?id=eq', init: { headers: anon } },
      { name: 'rest bad select', path: '/rest/v1/brands?select=((', init: { headers: anon } },
      { name: 'rest bad json', path: '/rest/v1/brands', init: { method: 'POST', headers: json(service), body: '{"name":' } },
      { name: 'rest bad percent', path: '/rest/v1/%E0%A4%A', init: { headers: anon } },
      { name: 'rest bad uuid', path: '/rest/v1/brands?id=eq.not-a-uuid', init: { headers: anon } },
      { name: 'rest bad cast', path: '/rest/v1/rpc/request_limits_depth', init: { method: 'POST', headers: json(anon), body: '{"p":"\\ud800"}' } },
      { name: 'rest forged token', path: '/rest/v1/brands', init: { headers: { apikey: 'x.y.z', authorization: 'Bearer x.y.z' } } },
      { name: 'rest garbage token', path: '/rest/v1/brands', init: { headers: { apikey: '%%%', authorization: 'Bearer eyJ%%.eyJ.x' } } },
      { name: 'rest wrong content type', path: '/rest/v1/brands', init: { method: 'POST', headers: { ...service, 'content-type': 'text/xml' }, body: '<a/>' } },
      { name: 'rest unknown table', path: '/rest/v1/nope', init: { headers: anon } },
      { name: 'rest method', path: '/rest/v1/brands', init: { method: 'PUT', headers: json(service), body: '{}' } },
      { name: 'auth bad json', path: '/auth/v1/signup', init: { method: 'POST', headers: json(anon), body: '{"email":' } },
      { name: 'auth array', path: '/auth/v1/token?grant_type=password', init: { method: 'POST', headers: json(anon), body: '[1,2]' } },
      { name: 'auth bad grant', path: '/auth/v1/token?grant_type=nope', init: { method: 'POST', headers: json(anon), body: '{}' } },
      { name: 'auth unknown', path: '/auth/v1/nowhere', init: { headers: anon } },
      { name: 'auth bad user token', path: '/auth/v1/user', init: { headers: { apikey: stack.config.anonKey, authorization: 'Bearer eyJhbGciOiJub25lIn0.e30.' } } },
      { name: 'auth verify garbage', path: '/auth/v1/verify?token=%00&type=signup&redirect_to=javascript:alert(1)', init: { headers: anon, redirect: 'manual' } },
      { name: 'storage bad key', path: '/storage/v1/object/brand-logos/%ZZ', init: { method: 'POST', headers: service, body: 'x' } },
      { name: 'storage bad multipart', path: '/storage/v1/object/brand-logos/a.png', init: { method: 'POST', headers: { ...service, 'content-type': 'multipart/form-data; boundary=zz' }, body: '--zz\r\ngarbage' } },
      { name: 'storage bad json', path: '/storage/v1/object/sign/brand-logos/a.png', init: { method: 'POST', headers: json(service), body: '{"expiresIn":' } },
      { name: 'storage bad signature', path: '/storage/v1/object/sign/brand-logos/a.png?token=eyJ.eyJ.x', init: {} },
      { name: 'storage bad render', path: '/storage/v1/render/image/public/brand-logos/a.png?width=-1', init: {} },
      { name: 'storage unknown', path: '/storage/v1/nowhere', init: { headers: service } },
      { name: 'functions unknown', path: '/functions/v1/nowhere', init: { method: 'POST', headers: json(user), body: '{}' } },
      { name: 'functions bad json', path: '/functions/v1/tag-yesterdays-ads', init: { method: 'POST', headers: json(user), body: '{"day":' } },
      { name: 'functions forged token', path: '/functions/v1/tag-yesterdays-ads', init: { method: 'POST', headers: { authorization: 'Bearer a.b.c' }, body: '{}' } },
      { name: 'functions bad day', path: '/functions/v1/tag-yesterdays-ads', init: { method: 'POST', headers: json(user), body: '{"day":"2026-13-45"}' } },
    ];
    for (const { name, path: route, init } of cases) {
      const response = await fetch(`${url}${route}`, init);
      const body = await response.text();
      // A link that no longer works sends the browser to a page of the app, never to the caller's redirect_to.
      if (response.status >= 300 && response.status < 400) expect(response.headers.get('location'), name).toMatch(/^http:\/\/(localhost|127\.0\.0\.1):\d+\//);
      if (response.status < 400) continue;
      expectNoInternals(body, `${name}: ${body}`);
      const parsed = JSON.parse(body) as Record<string, unknown>;
      const flat = { ...parsed, ...((parsed.error as Record<string, unknown> | undefined) ?? {}) };
      expect(flat.code ?? flat.error ?? flat.statusCode, `${name}: ${body}`).toBeTruthy();
      expect(flat.message ?? flat.msg, `${name}: ${body}`).toBeTruthy();
    }
  });
});

describe('the local stack in its own process, refusing a body while the client still sends', () => {
  let dataDir: string;
  let stack: StackProcess;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'obyect-limits-process-'));
    stack = await startStackProcess({ env: { DATA_DIR: dataDir, PORT: String(await freePort()) } });
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('lets a client that asked to close the connection read the 413 every time, instead of a reset', async () => {
    // Destroyed at once under a client still sending, a socket is reset, and the reset throws away the unread answer.
    const { anonKey } = await stackKeys();
    const headers = { apikey: anonKey, authorization: `Bearer ${anonKey}`, 'content-type': 'application/json', connection: 'close' };
    const statuses: (number | null)[] = [];
    for (let i = 0; i < 30; i += 1) statuses.push((await sendBody(`${stack.url}/rest/v1/brands`, { total: 64 * MiB, headers })).status);
    expect(statuses).toEqual(statuses.map(() => 413));
  }, 120_000);
});
