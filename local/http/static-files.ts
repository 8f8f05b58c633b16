import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ApiHandler } from './api-handler.ts';
import { chooseEncoding, compressBest, isCompressible, MIN_COMPRESSED_BYTES, type Encoding } from './compression.ts';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
  '.webmanifest': 'application/manifest+json',
  '.gz': 'application/gzip',
};

/**
 * The built SPA: files from dist/, hashed assets cached for a year, and
 * index.html (never cached) for every other path so client routes load.
 * Text files go out compressed (Brotli or gzip, compressed once per file
 * version and kept in memory; with `precompress`, the built assets as the stack starts).
 * Source maps (*.map) are not served.
 */
export function createSpaHandler(distDir: string, options: { precompress?: boolean } = {}): ApiHandler {
  const root = path.resolve(distDir);
  const compressed = new Map<string, Promise<Record<Encoding, Buffer>>>();

  const compressedFile = (file: string, version: string) => {
    const key = `${file}\0${version}`;
    let entry = compressed.get(key);
    if (!entry) {
      entry = readFile(file).then(compressBest);
      // A failed read is tried again on the next request.
      entry.catch(() => compressed.delete(key));
      compressed.set(key, entry);
    }
    return entry;
  };

  // The built files are compressed as the stack starts, so that the first visitor does not wait for it.
  if (options.precompress) {
    void readdir(path.join(root, 'assets'))
      .then((names) =>
        Promise.all(
          names.map(async (name) => {
            const file = path.join(root, 'assets', name);
            const info = await stat(file);
            if (info.isFile() && info.size >= MIN_COMPRESSED_BYTES && isCompressible(CONTENT_TYPES[path.extname(file)] ?? null)) await compressedFile(file, `${info.size}:${info.mtimeMs}`);
          }),
        ),
      )
      .catch(() => undefined);
  }

  const fileResponse = async (request: Request, file: string, cache: string): Promise<Response | null> => {
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) return null;
    const type = CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream';
    const headers: Record<string, string> = { 'content-type': type, 'cache-control': cache };
    if (isCompressible(type)) {
      headers.vary = 'accept-encoding';
      const encoding = info.size >= MIN_COMPRESSED_BYTES ? chooseEncoding(request.headers.get('accept-encoding')) : null;
      if (encoding) {
        const body = (await compressedFile(file, `${info.size}:${info.mtimeMs}`))[encoding];
        return new Response(new Uint8Array(body), { headers: { ...headers, 'content-encoding': encoding, 'content-length': String(body.byteLength) } });
      }
    }
    return new Response(Readable.toWeb(createReadStream(file)) as ReadableStream, { headers: { ...headers, 'content-length': String(info.size) } });
  };

  return async (request) => {
    const url = new URL(request.url);
    // Source maps would hand out the app's sources: never served, even if a build left them in dist/.
    if (url.pathname.toLowerCase().endsWith('.map')) return new Response('Not found', { status: 404 });
    const wanted = path.resolve(root, `.${decodeURIComponent(url.pathname)}`);
    if (wanted.startsWith(root + path.sep)) {
      const immutable = url.pathname.startsWith('/assets/');
      const found = await fileResponse(request, wanted, immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=300');
      if (found) return found;
      if (immutable || path.extname(url.pathname)) return new Response('Not found', { status: 404 });
    }
    const index = await fileResponse(request, path.join(root, 'index.html'), 'no-cache');
    return index ?? new Response('The app has not been built: run `npm run build`.', { status: 503 });
  };
}
