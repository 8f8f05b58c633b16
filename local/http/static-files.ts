import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ApiHandler } from './api-handler.ts';

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
};

/**
 * The built SPA: files from dist/, hashed assets cached for a year, and
 * index.html (never cached) for every other path so client routes load.
 */
export function createSpaHandler(distDir: string): ApiHandler {
  const root = path.resolve(distDir);
  const fileResponse = async (file: string, cache: string): Promise<Response | null> => {
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) return null;
    const type = CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream';
    return new Response(Readable.toWeb(createReadStream(file)) as ReadableStream, {
      headers: { 'content-type': type, 'content-length': String(info.size), 'cache-control': cache },
    });
  };
  return async (request) => {
    const url = new URL(request.url);
    const wanted = path.resolve(root, `.${decodeURIComponent(url.pathname)}`);
    if (wanted.startsWith(root + path.sep)) {
      const immutable = url.pathname.startsWith('/assets/');
      const found = await fileResponse(wanted, immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=300');
      if (found) return found;
      if (immutable || path.extname(url.pathname)) return new Response('Not found', { status: 404 });
    }
    const index = await fileResponse(path.join(root, 'index.html'), 'no-cache');
    return index ?? new Response('The app has not been built: run `npm run build`.', { status: 503 });
  };
}
