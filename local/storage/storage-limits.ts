/** The largest object any bucket accepts when it sets no limit of its own (hosted Supabase's global limit on the free plan). */
export const STORAGE_MAX_OBJECT_BYTES = 50 * 1024 * 1024;

/** What a multipart upload may carry besides its file: boundaries, part headers, the cacheControl field. */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

/** The largest request body an upload may have: the node adapter cuts off anything longer on storage's paths. */
export const STORAGE_MAX_UPLOAD_BODY_BYTES = STORAGE_MAX_OBJECT_BYTES + MULTIPART_OVERHEAD_BYTES;
