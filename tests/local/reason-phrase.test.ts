import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reasonPhraseOf, sendWebResponse } from '../../local/http/node-adapter.ts';
import { responseWithBody } from '../../local/http/known-body.ts';
import { startStackOnPglite } from '../support/stack-on-pglite.ts';

/** The status line as a client reads it: code and reason phrase. */
function statusLine(url: string, method = 'GET'): Promise<{ status: number; reason: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, reason: res.statusMessage! }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the status line of every answer', () => {
  const answers: Record<string, () => Response> = {
    '/ok': () => responseWithBody('{"a":1}', { status: 200, headers: { 'content-type': 'application/json' } }),
    '/created-own': () => new Response('x', { status: 201, statusText: 'Made' }),
    '/partial': () => new Response(new Uint8Array(200_000), { status: 206, headers: { 'content-range': 'bytes 0-199999/400000' } }),
    '/none': () => new Response(null, { status: 204 }),
    '/missing': () => new Response('{"message":"no"}', { status: 404 }),
    '/teapot': () => new Response(null, { status: 299 }),
  };
  let server: Server;
  let origin: string;

  beforeAll(async () => {
    server = createServer((req, res) => void sendWebResponse(answers[req.url ?? '']!(), res, req.method));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it.each([
    ['/ok', 'GET', 200, 'OK'],
    ['/ok', 'HEAD', 200, 'OK'],
    ['/created-own', 'GET', 201, 'Made'],
    ['/partial', 'GET', 206, 'Partial Content'],
    ['/none', 'GET', 204, 'No Content'],
    ['/missing', 'GET', 404, 'Not Found'],
    ['/teapot', 'GET', 299, ''],
  ])('%s (%s) has the standard reason phrase, or its own when it gives one', async (path, method, status, reason) => {
    expect(await statusLine(`${origin}${path}`, method)).toEqual({ status, reason });
  });

  it('reaches fetch as statusText', async () => {
    const response = await fetch(`${origin}/missing`);
    expect([response.status, response.statusText]).toEqual([404, 'Not Found']);
    await response.body?.cancel();
  });

  it('keeps a reason phrase a Response was given', () => {
    expect(reasonPhraseOf(new Response(null, { status: 418, statusText: 'Short and stout' }))).toBe('Short and stout');
    expect(reasonPhraseOf(new Response(null, { status: 401 }))).toBe('Unauthorized');
  });
});

describe("the local stack's answers", () => {
  let stack: Awaited<ReturnType<typeof startStackOnPglite>>;
  beforeAll(async () => {
    stack = await startStackOnPglite();
  }, 120_000);
  afterAll(() => stack?.stop());

  it.each([
    ['/rest/v1/', 'no API key', 401, 'Unauthorized'],
    ['/auth/v1/health', 'health', 200, 'OK'],
  ])('%s (%s): %s %s', async (path, _what, status, reason) => {
    expect(await statusLine(`${stack.url}${path}`)).toEqual({ status, reason });
  });
});
