import { STATUS_CODES, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import { type Duplex, Readable } from 'node:stream';
import type { ApiHandler } from './api-handler.ts';
import { chooseEncoding, compressNow, isCompressible, MIN_COMPRESSED_BYTES } from './compression.ts';
import { RequestBodyTooLargeError } from './json-body.ts';
import { knownBody } from './known-body.ts';
import { resolveClientAddress, type TrustedProxies } from './client-address.ts';
import { bodyLimitFor, DEFAULT_BODY_BYTES, requestLimitsOf, type RequestLimits } from './request-limits.ts';
import { rawStackError, stackErrorBody, type StackErrorCode } from './stack-errors.ts';

/** The header the local stack sets to the client's address (the socket's, or as trusted proxies report it); a client-sent value is dropped. */
export const CLIENT_IP_HEADER = 'x-local-client-ip';

/**
 * Node's request as a web Request, with the client's address in
 * CLIENT_IP_HEADER (local/http/client-address.ts). The body is streamed, unless it was read already (small
 * bodies of a known length: an API call, where a web stream per request costs
 * more than the bytes).
 */
export function toWebRequest(
  req: IncomingMessage,
  origin: string,
  readBody?: Buffer,
  bodyStream?: ReadableStream<Uint8Array>,
  trustedProxies: TrustedProxies = { kind: 'none' },
): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name === CLIENT_IP_HEADER) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  headers.set(CLIENT_IP_HEADER, resolveClientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], trustedProxies));
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  return new Request(new URL(req.url ?? '/', origin), {
    method: req.method,
    headers,
    body: !hasBody ? undefined : readBody ?? bodyStream ?? (Readable.toWeb(req) as unknown as ReadableStream<Uint8Array>),
    // Required by Node's fetch for a streamed request body.
    ...(hasBody && !readBody ? { duplex: 'half' } : {}),
  } as RequestInit);
}

/**
 * The status line's reason phrase: the Response's own, else the standard one (a web Response's statusText is empty
 * unless given, and Node writes an empty one as it is: `HTTP/1.1 200 `, an empty statusText in every client).
 */
export function reasonPhraseOf(response: Response): string {
  return response.statusText || STATUS_CODES[response.status] || '';
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
  const known = knownBody(response);
  if ((!known && !response.body) || method === 'HEAD') {
    res.writeHead(response.status, reasonPhraseOf(response), headers);
    res.end();
    return;
  }
  // Small bodies (API answers) go out in one write with their length; large ones (files) stream. An answer
  // built from bytes at hand is sent from them, without reading its stream back.
  const reader = known ? null : response.body!.getReader();
  const head: Uint8Array[] = known ? [known] : [];
  let headBytes = known?.byteLength ?? 0;
  let ended = known !== undefined;
  while (reader && headBytes < SMALL_BODY_BYTES) {
    const { done, value } = await reader.read();
    if (done) {
      ended = true;
      break;
    }
    head.push(value);
    headBytes += value.byteLength;
  }
  if (ended) {
    let body: Uint8Array = head.length === 1 ? head[0]! : Buffer.concat(head);
    const encoding = body.byteLength >= MIN_COMPRESSED_BYTES && !response.headers.has('content-encoding') && isCompressible(response.headers.get('content-type'))
      ? chooseEncoding(acceptEncoding)
      : null;
    if (encoding) {
      body = compressNow(body, encoding);
      headers['content-encoding'] = encoding;
      headers['content-length'] = String(body.byteLength);
      headers.vary = headers.vary ? `${headers.vary}, accept-encoding` : 'accept-encoding';
    } else if (!response.headers.has('content-length')) headers['content-length'] = String(body.byteLength);
    res.writeHead(response.status, reasonPhraseOf(response), headers);
    res.end(body);
    return;
  }
  res.writeHead(response.status, reasonPhraseOf(response), headers);
  try {
    for (const chunk of head) if (!res.write(chunk)) await new Promise((resolve) => res.once('drain', resolve));
    for (;;) {
      const { done, value } = await reader!.read();
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
/**
 * How much of a streamed request body is read ahead of the handler before the
 * socket is paused: all of it up to a few megabytes (so that a body over the
 * limit is refused as soon as it passes it, whatever the handler is doing),
 * else a window (an upload streams to its file as it arrives).
 */
const readAheadBytes = (maxBytes: number) => (maxBytes <= 4 * 1024 * 1024 ? maxBytes + 1 : 256 * 1024);

/** The declared Content-Length, or null for a chunked request or one with no body. */
function declaredLength(req: IncomingMessage): number | null {
  if (req.method === 'GET' || req.method === 'HEAD' || req.headers['transfer-encoding'] !== undefined) return null;
  const length = Number(req.headers['content-length']);
  return Number.isInteger(length) && length >= 0 ? length : null;
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

/**
 * The request body as a web stream that holds at most readAheadBytes at a
 * time (the socket is paused until the handler reads on) and ends in
 * RequestBodyTooLargeError once more than maxBytes arrived; then
 * nothing more is read and onTooLarge answers 413. Cancelling pauses the
 * socket rather than destroying it, so that an API can still answer.
 */
function limitedBody(req: IncomingMessage, maxBytes: number, onTooLarge: () => void): ReadableStream<Uint8Array> {
  let received = 0;
  let finished = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        req.on('data', (chunk: Buffer) => {
          if (finished) return;
          received += chunk.byteLength;
          if (received > maxBytes) {
            finished = true;
            req.pause();
            controller.error(new RequestBodyTooLargeError(maxBytes));
            onTooLarge();
            return;
          }
          controller.enqueue(chunk);
          if ((controller.desiredSize ?? 1) <= 0) req.pause();
        });
        req.once('end', () => {
          if (finished) return;
          finished = true;
          controller.close();
        });
        req.once('error', (error) => {
          if (finished) return;
          finished = true;
          controller.error(error);
        });
        req.once('close', () => {
          if (finished) return;
          finished = true;
          controller.error(new Error('The client closed the request'));
        });
      },
      pull() {
        if (!finished) req.resume();
      },
      cancel() {
        finished = true;
        req.pause();
      },
    },
    { highWaterMark: readAheadBytes(maxBytes), size: (chunk) => chunk.byteLength },
  );
}

/** How long a connection stays open after an answer sent before its request arrived whole. */
const LINGER_MS = 5_000;

/**
 * Called before answering: if the request's body has not arrived whole (refused over its limit, or not read by
 * the API), the connection closes the way a careful server closes it. Node would destroy the socket as soon as
 * the answer is written when the request asked for `Connection: close`; with the client still sending, that
 * resets the connection, and a reset makes the client's system throw away the answer it had not read yet. So
 * the socket only half-closes after the answer (the client reads it, then sees the end), what still arrives is
 * read and dropped (never kept in memory), and the socket is destroyed when the client closes its side or after
 * LINGER_MS.
 */
function lingerUnlessComplete(req: IncomingMessage): void {
  if (req.complete) return;
  const socket = req.socket as Duplex & { destroySoon?: () => void };
  let lingering = false;
  const linger = () => {
    if (lingering) return;
    lingering = true;
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
    socket.once('end', () => socket.destroy());
    req.once('end', () => clearTimeout(timer));
    socket.end();
    req.resume();
    socket.resume();
  };
  // Node calls destroySoon once a last answer is written; every other answer keeps the socket for the next request.
  const destroySoon = socket.destroySoon;
  socket.destroySoon = linger;
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  req.once('end', () => {
    clearTimeout(timer);
    if (!lingering) socket.destroySoon = destroySoon;
  });
}

/** Node's server settings for the limits: the request line and headers together at most limits.headerBytes. */
export function serverOptions(limits: RequestLimits): ServerOptions {
  return { maxHeaderSize: limits.headerBytes };
}

/**
 * How long an idle kept-alive connection stays open. Node's default (5 s) is shorter than what clients keep an idle
 * connection for, so a client could send its next request just as the server closed the connection, and get a
 * reset instead of an answer (seen once in 15,000 requests of the 200-person load test). A server keeps idle
 * connections longer than its clients do, as proxies in front of Node are set up.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

export function keepConnectionsAlive(server: Server): void {
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  // Node wants the time allowed for a request's headers above the keep-alive time.
  server.headersTimeout = Math.max(server.headersTimeout, KEEP_ALIVE_TIMEOUT_MS + 1_000);
}

/**
 * Requests Node cannot parse (headers over maxHeaderSize, broken HTTP, too
 * slow to arrive) are answered in our error shape instead of Node's bare
 * status line, and the connection is closed.
 */
export function answerClientErrors(server: Server, limits: RequestLimits): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const answer = error.code === 'HPE_HEADER_OVERFLOW'
      ? rawStackError(431, 'headers_too_large', `The request line and headers together are larger than ${limits.headerBytes} bytes`)
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? rawStackError(408, 'request_timeout', 'The request did not arrive in time')
        : rawStackError(400, 'bad_request', 'The request is not valid HTTP');
    socket.end(answer);
  });
}

/** The path of a request's raw URL, without decoding (for choosing limits and error shapes). */
function pathOf(rawUrl: string): string {
  const end = rawUrl.search(/[?#]/);
  return end === -1 ? rawUrl : rawUrl.slice(0, end);
}

/**
 * Serves a handler on Node's server within the limits: a URL over
 * limits.urlBytes is answered 414, a body over its path's limit 413 (before
 * reading it when Content-Length says so, as soon as it passes the limit
 * otherwise), and a failure no API answered 500 with a generic message, the
 * detail only in the server's log.
 */
export function nodeListener(
  handler: ApiHandler,
  origin: () => string,
  limits: RequestLimits = requestLimitsOf({ MAX_REQUEST_BODY_BYTES: DEFAULT_BODY_BYTES }),
  trustedProxies: TrustedProxies = { kind: 'none' },
) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const rawUrl = req.url ?? '/';
    const pathname = pathOf(rawUrl);
    let answered = false;
    const refuse = (status: number, code: StackErrorCode, message: string) => {
      if (answered) return;
      answered = true;
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const { body, headers } = stackErrorBody(pathname, status, code, message);
      lingerUnlessComplete(req);
      res.writeHead(status, { ...headers, 'content-length': String(Buffer.byteLength(body)) });
      res.end(body);
    };

    if (Buffer.byteLength(rawUrl) > limits.urlBytes) {
      refuse(414, 'uri_too_long', `The URL is longer than ${limits.urlBytes} bytes`);
      return;
    }
    const maxBody = bodyLimitFor(pathname, limits);
    const tooLarge = () => refuse(413, 'payload_too_large', `The request body is larger than ${maxBody} bytes`);
    const declared = declaredLength(req);
    if (declared !== null && declared > maxBody) {
      tooLarge();
      return;
    }

    if (!URL.canParse(rawUrl, origin())) {
      refuse(400, 'bad_request', 'The request URL is not valid');
      return;
    }

    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const request = declared !== null && declared <= SMALL_REQUEST_BYTES
      ? readSmallBody(req).then((body) => toWebRequest(req, origin(), body, undefined, trustedProxies))
      : new Promise<Request>((resolve) => resolve(toWebRequest(req, origin(), undefined, hasBody ? limitedBody(req, maxBody, tooLarge) : undefined, trustedProxies)));
    request
      .then(handler)
      .then(async (response) => {
        if (answered) {
          await response.body?.cancel().catch(() => undefined);
          return;
        }
        answered = true;
        lingerUnlessComplete(req);
        await sendWebResponse(response, res, req.method, req.headers['accept-encoding']);
      })
      .catch((error: unknown) => {
        if (answered && res.headersSent && !res.writableEnded) {
          // The answer broke off while streaming: all the client can be told is that the connection ends.
          res.destroy();
          return;
        }
        if (answered) return;
        console.error(`Unhandled error in the local stack (${req.method} ${pathname}):`, error);
        refuse(500, 'internal_error', 'Internal error');
      });
  };
}
