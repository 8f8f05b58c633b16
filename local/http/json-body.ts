/**
 * JSON bodies the stack parses: nested at most JSON_MAX_DEPTH levels (checked
 * by a scan without recursion, before JSON.parse, so that a deep body costs a
 * pass over its bytes rather than a stack overflow), and read at most up to a
 * byte limit, also when the body arrives without the node adapter in front.
 */
export const JSON_MAX_DEPTH = 64;

/** A body over its byte limit: each API answers it with 413 in its own error shape. */
export class RequestBodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`The request body is larger than ${limit} bytes`);
    this.name = 'RequestBodyTooLargeError';
  }
}

export const jsonTooDeepMessage = (maxDepth = JSON_MAX_DEPTH) => `The JSON body is nested more than ${maxDepth} levels deep`;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * Whether arrays and objects nest deeper than maxDepth. Brackets inside
 * strings do not count. Works on text or on UTF-8 bytes alike: no byte of a
 * multi-byte UTF-8 sequence is ASCII, so quotes and brackets are never mistaken.
 */
export function jsonNestingExceeds(json: string | Uint8Array, maxDepth = JSON_MAX_DEPTH): boolean {
  const at = typeof json === 'string' ? (i: number) => json.charCodeAt(i) : (i: number) => json[i]!;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < json.length; i += 1) {
    const c = at(i);
    if (inString) {
      if (c === BACKSLASH) i += 1;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      depth += 1;
      if (depth > maxDepth) return true;
    } else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) {
      depth -= 1;
    }
  }
  return false;
}

/** The body as text, refused with RequestBodyTooLargeError past maxBytes (read no further than that). */
export async function readBodyText(request: Request, maxBytes: number): Promise<string> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) throw new RequestBodyTooLargeError(maxBytes);
  return new TextDecoder().decode(await readBodyBytes(request, maxBytes));
}

/** The body's bytes, refused with RequestBodyTooLargeError past maxBytes. */
export async function readBodyBytes(request: Request, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new RequestBodyTooLargeError(maxBytes);
    }
    chunks.push(value);
  }
  // Chunks of a request body are backed by ArrayBuffers (never shared memory).
  if (chunks.length === 1) return chunks[0]! as Uint8Array<ArrayBuffer>;
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
