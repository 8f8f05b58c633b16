import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest, createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseEncoding } from '../../local/http/compression.ts';
import { nodeListener } from '../../local/http/node-adapter.ts';
import { createSpaHandler } from '../../local/http/static-files.ts';

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** One request with node:http, which (unlike fetch) neither asks for nor undoes compression by itself. */
function get(url: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

const decode = (answer: RawAnswer): string => {
  const encoding = answer.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(answer.body).toString();
  if (encoding === 'gzip') return gunzipSync(answer.body).toString();
  return answer.body.toString();
};

describe('the encoding a client accepts', () => {
  it('prefers Brotli, then gzip, and honours q=0', () => {
    expect(chooseEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(chooseEncoding('gzip, deflate')).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(chooseEncoding('br;q=0.0, gzip;q=0')).toBeNull();
    expect(chooseEncoding('identity')).toBeNull();
    expect(chooseEncoding(undefined)).toBeNull();
    expect(chooseEncoding('*')).toBe('gzip');
  });
});

describe('compressed answers from the local stack’s HTTP server', () => {
  let server: Server;
  let base: string;
  let distDir: string;
  const script = `export const texts = ${JSON.stringify(Array.from({ length: 400 }, (_, index) => `text number ${index}`))};\n`;
  const listing = JSON.stringify({ ads: Array.from({ length: 60 }, (_, index) => ({ id: `ad-${index}`, brand_name: 'Lumora', width: 1080, height: 1350 })) });

  beforeAll(async () => {
    distDir = await mkdtemp(path.join(tmpdir(), 'obyect-compression-'));
    await writeFile(path.join(distDir, 'index.html'), '<!doctype html><div id="root"></div>');
    await writeFile(path.join(distDir, 'app.js'), script);
    await writeFile(path.join(distDir, 'photo.webp'), Buffer.alloc(4096, 7));
    const spa = createSpaHandler(distDir);
    server = createServer(
      nodeListener(async (request) => {
        const { pathname } = new URL(request.url);
        if (pathname === '/rest/v1/listing') return new Response(listing, { headers: { 'content-type': 'application/json' } });
        if (pathname === '/rest/v1/small') return Response.json({ ok: true });
        return spa(request);
      }, () => base),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await rm(distDir, { recursive: true, force: true });
  });

  it('sends the SPA’s scripts as Brotli or gzip, whichever the client takes, and the same bytes once decoded', async () => {
    const br = await get(`${base}/app.js`, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('accept-encoding');
    expect(Number(br.headers['content-length'])).toBe(br.body.byteLength);
    expect(br.body.byteLength).toBeLessThan(Buffer.byteLength(script) / 3);
    expect(decode(br)).toBe(script);

    const gzip = await get(`${base}/app.js`, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(decode(gzip)).toBe(script);

    const plain = await get(`${base}/app.js`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(script);
  });

  it('compresses an API’s JSON answer when accepted, and leaves small answers and images as they are', async () => {
    const compressed = await get(`${base}/rest/v1/listing`, { 'accept-encoding': 'br' });
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(compressed.body.byteLength).toBeLessThan(Buffer.byteLength(listing) / 4);
    expect(JSON.parse(decode(compressed))).toEqual(JSON.parse(listing));

    const plain = await get(`${base}/rest/v1/listing`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(listing);

    const small = await get(`${base}/rest/v1/small`, { 'accept-encoding': 'br, gzip' });
    expect(small.headers['content-encoding']).toBeUndefined();

    const image = await get(`${base}/photo.webp`, { 'accept-encoding': 'br, gzip' });
    expect(image.headers['content-encoding']).toBeUndefined();
    expect(image.body.byteLength).toBe(4096);
  });
});
