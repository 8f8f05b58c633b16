import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { ApiHandler } from './api-handler.ts';
import { chooseEncoding, compressNow, isCompressible, MIN_COMPRESSED_BYTES } from './compression.ts';

/** The header the local stack sets to the socket's address; a client-sent value is dropped. */
export const CLIENT_IP_HEADER = 'x-local-client-ip';

/**
 * Node's request as a web Request, with the client's address in
 * CLIENT_IP_HEADER. The body is streamed, unless it was read already (small
 * bodies of a known length: an API call, where a web stream per request costs
 * more than the bytes).
 */
export function toWebRequest(req: IncomingMessage, origin: string, readBody?: Buffer): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name === CLIENT_IP_HEADER) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  headers.set(CLIENT_IP_HEADER, req.socket.remoteAddress ?? 'unknown');
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  return new Request(new URL(req.url ?? '/', origin), {
    method: req.method,
    headers,
    body: !hasBody ? undefined : readBody ?? (Readable.toWeb(req) as unknown as ReadableStream<Uint8Array>),
    // Required by Node's fetch for a streamed request body.
    ...(hasBody && !readBody ? { duplex: 'half' } : {}),
  } as RequestInit);
}

/**
 * Writes a web Response to Node's response, streaming its body. A small text
 * answer (an API's JSON) is compressed when the client accepts it.
 */
export async function sendWebResponse(response: Response, res: ServerResponse, method: string | undefined, acceptEncoding?: string): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name === 'set-cookie') return;
    headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  if (!response.body || method === 'HEAD') {
    res.writeHead(response.status, response.statusText, headers);
    res.end();
    return;
  }
  // Small bodies (API answers) go out in one write with their length; large ones (files) stream.
  const reader = response.body.getReader();
  const head: Uint8Array[] = [];
  let headBytes = 0;
  let ended = false;
  while (headBytes < SMALL_BODY_BYTES) {
    const { done, value } = await reader.read();
    if (done) {
      ended = true;
      break;
    }
    head.push(value);
    headBytes += value.byteLength;
  }
  if (ended) {
    let body: Buffer = Buffer.concat(head);
    const encoding = body.byteLength >= MIN_COMPRESSED_BYTES && !response.headers.has('content-encoding') && isCompressible(response.headers.get('content-type'))
      ? chooseEncoding(acceptEncoding)
      : null;
    if (encoding) {
      body = compressNow(body, encoding);
      headers['content-encoding'] = encoding;
      headers['content-length'] = String(body.byteLength);
      headers.vary = headers.vary ? `${headers.vary}, accept-encoding` : 'accept-encoding';
    } else if (!response.headers.has('content-length')) headers['content-length'] = String(body.byteLength);
    res.writeHead(response.status, response.statusText, headers);
    res.end(body);
    return;
  }
  res.writeHead(response.status, response.statusText, headers);
  try {
    for (const chunk of head) if (!res.write(chunk)) await new Promise((resolve) => res.once('drain', resolve));
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await new Promise((resolve) => res.once('drain', resolve));
    }
  } finally {
    res.end();
  }
}

const SMALL_BODY_BYTES = 256 * 1024;
/** Request bodies up to this size, with a Content-Length, are read before the handler runs. */
const SMALL_REQUEST_BYTES = 64 * 1024;

function smallBodyLength(req: IncomingMessage): number | null {
  if (req.method === 'GET' || req.method === 'HEAD' || req.headers['transfer-encoding'] !== undefined) return null;
  const length = Number(req.headers['content-length']);
  return Number.isInteger(length) && length >= 0 && length <= SMALL_REQUEST_BYTES ? length : null;
}

function readSmallBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.once('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.once('error', reject);
    req.once('aborted', () => reject(new Error('The client closed the request')));
  });
}

export function nodeListener(handler: ApiHandler, origin: () => string) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const request = smallBodyLength(req) === null
      ? Promise.resolve(toWebRequest(req, origin()))
      : readSmallBody(req).then((body) => toWebRequest(req, origin(), body));
    request
      .then(handler)
      .then((response) => sendWebResponse(response, res, req.method, req.headers['accept-encoding']))
      .catch((error: unknown) => {
        console.error('Unhandled error in the local stack:', error);
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: 'Internal error in the local stack' }));
      });
  };
}
