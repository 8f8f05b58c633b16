import type { LocalConfig } from '../config.ts';
import { STORAGE_MAX_UPLOAD_BODY_BYTES } from '../storage/storage-limits.ts';

/**
 * How large a request may be, checked by the node adapter before an API runs:
 * the URL and the headers as they arrive, the body while it streams in (a
 * Content-Length over the limit is refused before a byte of the body is read).
 */
export interface RequestLimits {
  /** rest, auth, functions and every other path: MAX_REQUEST_BODY_BYTES. */
  bodyBytes: number;
  /** storage/v1: uploads, each held to its bucket's file_size_limit by storage itself. */
  uploadBytes: number;
  urlBytes: number;
  /** The request line and all headers together (Node's maxHeaderSize). */
  headerBytes: number;
}

export const DEFAULT_BODY_BYTES = 1024 * 1024;
/** Long enough for any filter the SPA builds (an `in.(...)` of a page of ids), far below what could hurt. */
export const URL_MAX_BYTES = 16 * 1024;
/** Twice the URL limit: a long URL is answered 414 by us rather than 431 by Node's parser. */
export const HEADERS_MAX_BYTES = 32 * 1024;

export function requestLimitsOf(config: Pick<LocalConfig, 'MAX_REQUEST_BODY_BYTES'>): RequestLimits {
  return {
    bodyBytes: config.MAX_REQUEST_BODY_BYTES,
    uploadBytes: STORAGE_MAX_UPLOAD_BODY_BYTES,
    urlBytes: URL_MAX_BYTES,
    headerBytes: HEADERS_MAX_BYTES,
  };
}

/** The largest body a request to this path may send. Storage's JSON routes read at most bodyBytes themselves. */
export function bodyLimitFor(pathname: string, limits: RequestLimits): number {
  return pathname.startsWith('/storage/v1/') ? Math.max(limits.uploadBytes, limits.bodyBytes) : limits.bodyBytes;
}
