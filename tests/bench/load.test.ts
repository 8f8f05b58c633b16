import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLoad } from '../../bench/load.ts';

/** bench:stack's load generator reads answers by their length, by chunks, and across closed connections. */
describe('the load generator (bench/load.ts)', () => {
  let server: http.Server;
  let url: string;
  const bodies: string[] = [];

  beforeAll(async () => {
    server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        if (request.url === '/length') {
          bodies.push(Buffer.concat(chunks).toString('utf8'));
          const body = 'x'.repeat(100_000);
          response.writeHead(200, { 'content-length': String(body.length) });
          response.end(body);
        } else if (request.url === '/chunks') {
          response.writeHead(200, { 'content-type': 'text/plain' });
          response.write('a'.repeat(70_000));
          setImmediate(() => response.end('b'.repeat(10)));
        } else if (request.url === '/close') {
          response.writeHead(200, { connection: 'close', 'content-length': '2' });
          response.end('ok');
        } else if (request.url === '/missing') {
          response.writeHead(404, { 'content-length': '0' });
          response.end();
        } else {
          response.writeHead(304);
          response.end();
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const load = (path: string, method: 'GET' | 'POST' = 'GET', body?: (connection: number, sent: number) => string) =>
    runLoad({ url: url + path, method, headers: { 'x-test': '1' }, body, connections: 3, seconds: 0.3 });

  it('reads answers by Content-Length and sends each connection its own bodies', async () => {
    bodies.length = 0;
    const result = await load('/length', 'POST', (connection, sent) => `${connection}:${sent}`);
    expect(result.requests).toBeGreaterThan(3);
    expect(result.errors).toBe(0);
    expect(result.requests).toBe(bodies.length);
    expect(bodies).toContain('0:0');
    expect(bodies).toContain('2:1');
    expect(result.p99).toBeGreaterThanOrEqual(result.p50);
    expect(result.generatorCpu).toBeGreaterThan(0);
  });

  it('reads chunked answers and answers without a body', async () => {
    for (const path of ['/chunks', '/not-modified']) {
      const result = await load(path);
      expect(result.errors).toBe(0);
      expect(result.requests).toBeGreaterThan(3);
    }
  });

  it('opens a connection again after the server closes one, and counts error statuses as errors', async () => {
    const closing = await load('/close');
    expect(closing.errors).toBe(0);
    expect(closing.requests).toBeGreaterThan(3);
    const missing = await load('/missing');
    expect(missing.requests).toBe(0);
    expect(missing.errors).toBeGreaterThan(3);
  });
});
