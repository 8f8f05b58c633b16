import { createHash } from 'node:crypto';
import { knownBody, responseWithBody } from '../http/known-body.ts';

/**
 * ETag and 304 for rest/v1's GET answers. The tag is a hash of what the caller would receive (status, range,
 * media type and body), so two callers whose answers are the same bytes share a tag and a changed answer gets a new
 * one: a client revalidating what it kept (a browser does so for any GET answer with a tag and no lifetime) gets
 * 304 without the body when nothing changed, whoever it was kept for. Weak, because compression gives the same
 * answer different bytes on the wire.
 */
export async function withEntityTag(request: Request, response: Response): Promise<Response> {
  if (request.method !== 'GET' || (response.status !== 200 && response.status !== 206) || response.headers.has('etag')) return response;
  // Bytes, not text: a shared answer may come compressed already.
  const known = knownBody(response);
  const body = known ?? new Uint8Array(await response.arrayBuffer());
  // An answer built here has mutable headers and its bytes at hand: it is tagged as it is.
  const headers = known ? response.headers : new Headers(response.headers);
  const tag = `W/"${createHash('sha256')
    .update(`${response.status}\n${headers.get('content-range') ?? ''}\n${headers.get('content-type') ?? ''}\n`)
    .update(body)
    .digest('base64url')
    .slice(0, 32)}"`;
  headers.set('etag', tag);
  if (matchesTag(request.headers.get('if-none-match'), tag)) {
    const unchanged = new Headers(headers);
    unchanged.delete('content-type');
    unchanged.delete('content-length');
    return new Response(null, { status: 304, headers: unchanged });
  }
  return known ? response : responseWithBody(body, { status: response.status, statusText: response.statusText, headers });
}

/** If-None-Match's weak comparison: any listed tag equal to ours, with or without W/, or *. */
function matchesTag(ifNoneMatch: string | null, tag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = tag.slice(2);
  return ifNoneMatch.split(',').some((listed) => {
    const candidate = listed.trim();
    return candidate === '*' || candidate === tag || candidate === opaque || candidate === `W/${opaque}`;
  });
}
