/** Storage API errors in Supabase Storage's shape: `{ statusCode, error, message }`. */
export class StorageHttpError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    message: string,
  ) {
    super(message);
  }

  toResponse(): Response {
    return Response.json({ statusCode: String(this.status), error: this.error, message: this.message }, { status: this.status });
  }
}

export const storageErrors = {
  bucketNotFound: () => new StorageHttpError(404, 'Bucket not found', 'Bucket not found'),
  objectNotFound: () => new StorageHttpError(404, 'not_found', 'Object not found'),
  duplicate: () => new StorageHttpError(409, 'Duplicate', 'The resource already exists'),
  tooLarge: () => new StorageHttpError(413, 'Payload too large', 'The object exceeded the maximum allowed size'),
  invalidMime: (type: string) => new StorageHttpError(415, 'invalid_mime_type', `mime type ${type} is not supported`),
  invalidKey: (key: string) => new StorageHttpError(400, 'InvalidKey', `Invalid key: ${key}`),
  unauthorized: (message = 'new row violates row-level security policy') => new StorageHttpError(403, 'Unauthorized', message),
  invalidJwt: (message: string) => new StorageHttpError(401, 'InvalidJWT', message),
  missingKey: () => new StorageHttpError(401, 'Unauthorized', 'No API key found in request'),
  invalidSignature: (message = 'invalid signature') => new StorageHttpError(400, 'InvalidSignature', message),
  badRequest: (message: string) => new StorageHttpError(400, 'InvalidRequest', message),
  notFound: (message = 'Route not found') => new StorageHttpError(404, 'not_found', message),
};
