import { randomUUID } from 'node:crypto';
import busboy from 'busboy';
import { Readable } from 'node:stream';
import type { AccessClaims } from '../auth/jwt.ts';
import { errors as joseErrors, jwtVerify } from 'jose';
import { signJwt } from '../auth/jwt.ts';
import { withCaller } from '../db/caller-scope.ts';
import type { Queryable } from '../db/database.ts';
import type { ApiContext, ApiHandler } from '../http/api-handler.ts';
import { callerClaims, InvalidJwtError, MissingApiKeyError } from '../http/caller.ts';
import { jsonNestingExceeds, jsonTooDeepMessage, readBodyText, RequestBodyTooLargeError } from '../http/json-body.ts';
import { ObjectFiles, ObjectTooLargeError } from './object-files.ts';
import { createRenderCache, RENDER_FORMATS, RENDER_QUALITY, RENDER_WIDTHS, renderImage, type RenderOptions } from './image-render.ts';
import { StorageHttpError, storageErrors } from './storage-errors.ts';
import { isoTimestamp, withIsoTimestamps } from './storage-timestamps.ts';
import { STORAGE_MAX_OBJECT_BYTES as GLOBAL_SIZE_LIMIT, MULTIPART_OVERHEAD_BYTES } from './storage-limits.ts';
import { checkUploadedObject, checkUploadName, uploadMaxBytesFor } from './upload-checks.ts';

interface Bucket {
  id: string;
  public: boolean;
  file_size_limit: string | null;
  allowed_mime_types: string[] | null;
}

interface ObjectRow {
  id: string;
  bucket_id: string;
  name: string;
  version: string;
  metadata: { mimetype?: string; size?: number; cacheControl?: string; eTag?: string } | null;
  created_at: string;
  updated_at: string;
  last_accessed_at: string;
}

/** Object names: relative, no empty or dot segments, no control characters or backslashes. */
export function isValidObjectName(name: string): boolean {
  if (name.length === 0 || name.length > 1024) return false;
  if (/[\u0000-\u001f\u007f\\]/.test(name)) return false;
  return name.split('/').every((segment) => segment.length > 0 && segment !== '.' && segment !== '..');
}

function objectName(raw: string): string {
  let name: string;
  try {
    name = decodeURIComponent(raw);
  } catch {
    throw storageErrors.invalidKey(raw);
  }
  if (!isValidObjectName(name)) throw storageErrors.invalidKey(name);
  return name;
}

const mimeAllowed = (bucket: Bucket, type: string) =>
  !bucket.allowed_mime_types?.length ||
  bucket.allowed_mime_types.some((allowed) =>
    allowed.endsWith('/*') ? type.startsWith(allowed.slice(0, -1)) : allowed.toLowerCase() === type.toLowerCase(),
  );

/** A row-level security violation or missing grant, as the storage API reports it. */
function asStorageError(error: unknown): unknown {
  const code = (error as { code?: string }).code;
  if (code === '42501') return storageErrors.unauthorized();
  if (code === '23505') return storageErrors.duplicate();
  return error;
}

export interface StorageApi {
  handler: ApiHandler;
  files: ObjectFiles;
  /** Stores a file and its row as the database owner (seeding and server-side tools). */
  writeObject(bucket: string, name: string, bytes: Buffer, contentType: string): Promise<void>;
  /** Removes objects queued in public.storage_deletions; returns how many. */
  drainDeletions(): Promise<number>;
  /** Removes files no row references; returns how many. */
  sweep(olderThanMs?: number): Promise<number>;
}

/** A signed read with ?download= is saved by the browser under that name (the object's own when empty), as on Supabase. */
function withDownloadName(response: Response, download: string | null): Response {
  if (download === null || !response.ok) return response;
  const headers = new Headers(response.headers);
  const name = download.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 200);
  headers.set('content-disposition', name ? `attachment; filename="${name}"` : 'attachment');
  return new Response(response.body, { status: response.status, headers });
}

export interface StorageApiContext extends ApiContext {
  /** The clock signed URLs are checked against (milliseconds since the epoch); tests move it. */
  now?: () => number;
}

export async function createStorageApi(ctx: StorageApiContext): Promise<StorageApi> {
  const files = new ObjectFiles(ctx.config.DATA_DIR);
  await files.init();
  const secret = ctx.config.JWT_SECRET;
  const now = ctx.now ?? Date.now;

  const bucketOf = async (id: string): Promise<Bucket> => {
    const { rows } = await ctx.db.query<Bucket>(
      'select id, public, file_size_limit::text, allowed_mime_types from storage.buckets where id = $1',
      [id],
    );
    if (!rows[0]) throw storageErrors.bucketNotFound();
    return rows[0];
  };

  const selectObject = async (q: Queryable, bucket: string, name: string): Promise<ObjectRow> => {
    const { rows } = await q.query<ObjectRow>(
      `select id, bucket_id, name, version, metadata, created_at, updated_at, last_accessed_at
         from storage.objects where bucket_id = $1 and name = $2`,
      [bucket, name],
    );
    if (!rows[0]) throw storageErrors.objectNotFound();
    return rows[0];
  };

  const asCaller = <T>(claims: AccessClaims, fn: (q: Queryable) => Promise<T>) =>
    withCaller(ctx.db, claims, fn).catch((error) => {
      throw asStorageError(error);
    });

  /** Writes the row (as the caller, so policies decide) and makes the received file its new version. */
  const storeObject = async (
    q: Queryable,
    input: { bucket: string; name: string; tmpPath: string; size: number; contentType: string; cacheControl: string; upsert: boolean; owner?: string },
  ) => {
    const version = randomUUID();
    const metadata = {
      eTag: `"${version}"`,
      size: input.size,
      mimetype: input.contentType,
      cacheControl: input.cacheControl,
      lastModified: new Date().toISOString(),
      contentLength: input.size,
      httpStatusCode: 200,
    };
    const previous = input.upsert
      ? (await q.query<{ version: string }>('select version from storage.objects where bucket_id = $1 and name = $2', [input.bucket, input.name])).rows[0]
      : undefined;
    const insert = `insert into storage.objects (bucket_id, name, owner, owner_id, metadata, version)
                    values ($1, $2, $3, $4, $5, $6)`;
    const params = [input.bucket, input.name, input.owner ?? null, input.owner ?? null, JSON.stringify(metadata), version];
    const { rows } = previous
      ? await q.query<{ id: string }>(
          `update storage.objects set metadata = $3, version = $4, updated_at = now(), last_accessed_at = now()
            where bucket_id = $1 and name = $2 returning id`,
          [input.bucket, input.name, JSON.stringify(metadata), version],
        )
      : await q.query<{ id: string }>(`${insert} returning id`, params);
    if (!rows[0]) throw storageErrors.unauthorized();
    await files.commit(input.tmpPath, input.bucket, version);
    return { id: rows[0].id, version, previousVersion: previous?.version };
  };

  const readUpload = async (request: Request, bucket: Bucket, maxBytes = GLOBAL_SIZE_LIMIT) => {
    const limit = Math.min(Number(bucket.file_size_limit ?? GLOBAL_SIZE_LIMIT), maxBytes);
    const declared = Number(request.headers.get('content-length') ?? '0');
    const contentType = request.headers.get('content-type') ?? 'application/octet-stream';
    if (!request.body) throw storageErrors.badRequest('Empty upload');
    if (contentType.startsWith('multipart/form-data')) {
      if (declared > limit + MULTIPART_OVERHEAD_BYTES) throw storageErrors.tooLarge();
      return readMultipart(request, limit);
    }
    if (declared > limit) throw storageErrors.tooLarge();
    const cacheControl = request.headers.get('cache-control')?.match(/max-age=(\d+)/)?.[1] ?? '3600';
    try {
      const received = await files.receive(request.body, limit);
      return { ...received, contentType: contentType.split(';')[0]!.trim(), cacheControl: `max-age=${cacheControl}` };
    } catch (error) {
      if (error instanceof ObjectTooLargeError || error instanceof RequestBodyTooLargeError) throw storageErrors.tooLarge();
      throw error;
    }
  };

  /**
   * A multipart upload (what storage-js sends for a File or Blob): its one
   * file streams to a temporary file; past the limit the upload is refused
   * at once and nothing more of the request is read.
   */
  const readMultipart = (request: Request, limit: number) =>
    new Promise<{ tmpPath: string; size: number; contentType: string; cacheControl: string }>((resolve, reject) => {
      const source = Readable.fromWeb(request.body as never);
      const parser = busboy({ headers: Object.fromEntries(request.headers), limits: { files: 1, fileSize: limit + 1 } });
      let settled = false;
      const fail = (error: unknown) => {
        if (settled) return;
        settled = true;
        source.unpipe(parser);
        source.destroy();
        reject(error instanceof ObjectTooLargeError || error instanceof RequestBodyTooLargeError ? storageErrors.tooLarge() : error);
      };
      let cacheControl = '3600';
      let pending: Promise<{ tmpPath: string; size: number; contentType: string }> | null = null;
      parser.on('field', (name, value) => {
        if (name === 'cacheControl' && /^\d+$/.test(value)) cacheControl = value;
      });
      parser.on('file', (_name, stream, info) => {
        pending = files
          .receive(Readable.toWeb(stream) as ReadableStream<Uint8Array>, limit)
          .then((received) => ({ ...received, contentType: info.mimeType || 'application/octet-stream' }));
        pending.catch((error: unknown) => {
          stream.resume();
          if (error instanceof ObjectTooLargeError) fail(error);
        });
      });
      // busboy's own wording stays in the log; the caller learns that the form is malformed.
      parser.on('error', () => fail(storageErrors.badRequest('Malformed multipart upload')));
      parser.on('close', () => {
        if (settled) return;
        if (!pending) return fail(storageErrors.badRequest('The upload has no file'));
        pending
          .then((received) => {
            if (settled) return files.discard(received.tmpPath);
            settled = true;
            resolve({ ...received, cacheControl: `max-age=${cacheControl}` });
          })
          .catch(fail);
      });
      source.on('error', fail);
      source.pipe(parser);
    });

  const upload = async (request: Request, claims: AccessClaims, bucketId: string, name: string, upsert: boolean) => {
    const bucket = await bucketOf(bucketId);
    // Browser callers get the upload checks (upload-checks.ts); the service role is server-side code.
    const checked = claims.role !== 'service_role';
    if (checked) checkUploadName(name);
    const received = await readUpload(request, bucket, checked ? uploadMaxBytesFor(name) : GLOBAL_SIZE_LIMIT);
    try {
      if (!mimeAllowed(bucket, received.contentType)) throw storageErrors.invalidMime(received.contentType);
      if (checked) received.contentType = await checkUploadedObject(received.tmpPath, received.contentType, name);
      const stored = await asCaller(claims, async (q) => {
        if (!upsert) {
          const exists = await q.query('select 1 from storage.objects where bucket_id = $1 and name = $2', [bucketId, name]);
          if (exists.rows.length > 0) throw storageErrors.duplicate();
        }
        return storeObject(q, { bucket: bucketId, name, ...received, upsert, owner: claims.sub });
      });
      if (stored.previousVersion) await files.remove(bucketId, stored.previousVersion);
      return Response.json({ Id: stored.id, Key: `${bucketId}/${name}` });
    } finally {
      await files.discard(received.tmpPath);
    }
  };

  const serveFile = async (request: Request, row: ObjectRow, cacheControl?: string) => {
    const size = await files.size(row.bucket_id, row.version);
    if (size === null) throw storageErrors.objectNotFound();
    const etag = row.metadata?.eTag ?? `"${row.version}"`;
    const headers = new Headers({
      'content-type': row.metadata?.mimetype ?? 'application/octet-stream',
      'cache-control': cacheControl ?? (row.metadata?.cacheControl || 'max-age=3600'),
      etag,
      'last-modified': new Date(row.updated_at.replace(' ', 'T').replace(/\+00$/, 'Z')).toUTCString(),
      'accept-ranges': 'bytes',
      // Served as stored, never as what a browser would guess from the bytes.
      'x-content-type-options': 'nosniff',
    });
    if (request.headers.get('if-none-match') === etag) return new Response(null, { status: 304, headers });
    const range = request.headers.get('range')?.match(/^bytes=(\d*)-(\d*)$/);
    if (range && (range[1] || range[2])) {
      const start = range[1] ? Number(range[1]) : Math.max(size - Number(range[2]), 0);
      const end = range[1] && range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
      if (start >= size || start > end) {
        headers.set('content-range', `bytes */${size}`);
        return new Response(null, { status: 416, headers });
      }
      headers.set('content-range', `bytes ${start}-${end}/${size}`);
      headers.set('content-length', String(end - start + 1));
      return new Response(request.method === 'HEAD' ? null : files.read(row.bucket_id, row.version, { start, end }), { status: 206, headers });
    }
    headers.set('content-length', String(size));
    return new Response(request.method === 'HEAD' ? null : files.read(row.bucket_id, row.version), { status: 200, headers });
  };

  /** The variant asked for, one of those the stack renders (image-render.ts), or a 400 that names what it takes. */
  const renderOptions = (url: URL): RenderOptions => {
    const allowed = `widths ${RENDER_WIDTHS.join(' and ')}, quality ${RENDER_QUALITY}, format ${RENDER_FORMATS.join(' or ')}`;
    const width = url.searchParams.get('width');
    if (width !== null && !(RENDER_WIDTHS as readonly number[]).includes(Number(width))) {
      throw storageErrors.badRequest(`Invalid width: this server renders ${allowed}`);
    }
    if (url.searchParams.has('height')) throw storageErrors.badRequest(`Invalid height: this server renders ${allowed}, keeping the aspect`);
    const quality = url.searchParams.get('quality');
    if (quality !== null && Number(quality) !== RENDER_QUALITY) throw storageErrors.badRequest(`Invalid quality: this server renders ${allowed}`);
    const format = url.searchParams.get('format') ?? 'origin';
    if (!(RENDER_FORMATS as readonly string[]).includes(format)) throw storageErrors.badRequest(`Invalid format: this server renders ${allowed}`);
    const resize = url.searchParams.get('resize') ?? 'cover';
    if (!['cover', 'contain', 'fill'].includes(resize)) throw storageErrors.badRequest('Invalid resize');
    return {
      width: width === null ? undefined : Number(width),
      quality: RENDER_QUALITY,
      // Without a height every fit keeps the aspect: one variant per width and format.
      resize: 'cover',
      format: format as RenderOptions['format'],
    };
  };

  const renders = createRenderCache();

  const serveRendered = async (row: ObjectRow, options: RenderOptions) => {
    const size = await files.size(row.bucket_id, row.version);
    if (size === null) throw storageErrors.objectNotFound();
    const variant = `${options.width ?? 'full'}-${options.format}`;
    const rendered = await renders.render(`${row.bucket_id}/${row.version}/${variant}`, () => renderImage(files.pathOf(row.bucket_id, row.version), options));
    return new Response(new Uint8Array(rendered.data), {
      headers: { 'content-type': rendered.contentType, 'cache-control': 'max-age=3600', etag: `"${row.version}-${variant}"` },
    });
  };

  const signUrl = async (claims: AccessClaims, bucketId: string, name: string, expiresIn: unknown, kind: 'object' | 'render', transform?: unknown) => {
    if (typeof expiresIn !== 'number' || !Number.isFinite(expiresIn) || expiresIn < 1) throw storageErrors.badRequest('expiresIn must be a positive number');
    await asCaller(claims, (q) => selectObject(q, bucketId, name));
    const iat = Math.floor(now() / 1000);
    const token = await signJwt({ url: `${bucketId}/${name}`, transformations: transform ?? undefined, iat, exp: iat + Math.floor(expiresIn) } as unknown as AccessClaims, secret);
    const base = kind === 'render' ? '/render/image/sign' : '/object/sign';
    return `${base}/${bucketId}/${encodeURIComponent(name).replace(/%2F/g, '/')}?token=${token}`;
  };

  /** The object a signed URL names and the token's expiry (epoch seconds), or a 400 invalid-signature error. */
  const verifySignedUrl = async (url: URL, bucketId: string, name: string): Promise<{ row: ObjectRow; exp: number }> => {
    const token = url.searchParams.get('token');
    if (!token) throw storageErrors.invalidSignature('Missing token');
    let payload: { url?: unknown; exp?: unknown };
    try {
      // A URL token carries no role: it is checked for its signature, its expiry and the object it names.
      ({ payload } = await jwtVerify(token, new TextEncoder().encode(secret), {
        algorithms: ['HS256'],
        currentDate: new Date(now()),
        requiredClaims: ['exp'],
      }));
    } catch (error) {
      throw storageErrors.invalidSignature(error instanceof joseErrors.JWTExpired ? 'invalid signature: token is expired' : 'invalid signature');
    }
    if (payload.url !== `${bucketId}/${name}`) throw storageErrors.invalidSignature('Token does not match the object');
    return { row: await selectObject(ctx.db, bucketId, name), exp: Number(payload.exp) };
  };

  /** Caches may keep a signed read no longer than its link lives. */
  const signedCacheControl = (row: ObjectRow, exp: number) => {
    const stored = Number(/max-age=(\d+)/.exec(row.metadata?.cacheControl ?? '')?.[1] ?? 3600);
    return `max-age=${Math.max(0, Math.min(stored, exp - Math.floor(now() / 1000)))}`;
  };

  const listObjects = async (claims: AccessClaims, bucketId: string, body: Record<string, unknown>) => {
    const prefix = typeof body.prefix === 'string' ? body.prefix.replace(/^\/+/, '') : '';
    const limit = Math.min(Math.max(Number(body.limit ?? 100) || 100, 1), 1000);
    const offset = Math.max(Number(body.offset ?? 0) || 0, 0);
    const search = typeof body.search === 'string' ? body.search : '';
    const sortBy = (body.sortBy ?? {}) as { column?: string; order?: string };
    const column = ['name', 'updated_at', 'created_at', 'last_accessed_at'].includes(sortBy.column ?? '') ? sortBy.column! : 'name';
    const order = sortBy.order === 'desc' ? 'desc' : 'asc';
    const folder = prefix === '' || prefix.endsWith('/') ? prefix : `${prefix}/`;
    await bucketOf(bucketId);
    return asCaller(claims, async (q) => {
      const { rows } = await q.query<Record<string, unknown>>(
        `with entries as (
           select split_part(substr(name, char_length($2) + 1), '/', 1) as entry,
                  position('/' in substr(name, char_length($2) + 1)) > 0 as is_folder,
                  id, updated_at, created_at, last_accessed_at, metadata
             from storage.objects
            where bucket_id = $1 and starts_with(name, $2)
         ), grouped as (
           select entry as name, null::uuid as id, null::timestamptz as updated_at, null::timestamptz as created_at,
                  null::timestamptz as last_accessed_at, null::jsonb as metadata
             from entries where is_folder group by entry
           union all
           select entry, id, updated_at, created_at, last_accessed_at, metadata from entries where not is_folder
         )
         select name, id, updated_at, created_at, last_accessed_at, metadata from grouped
          where $3 = '' or name ilike '%' || $3 || '%'
          order by ${column} ${order} nulls first, name ${order}
          limit $4 offset $5`,
        [bucketId, folder, search, limit, offset],
      );
      return Response.json(rows.map(withIsoTimestamps));
    });
  };

  /** A JSON body of the API (sign, list, remove, move, copy): at most MAX_REQUEST_BODY_BYTES, nested within the limit; unreadable JSON reads as {}. */
  const jsonOf = async (request: Request): Promise<Record<string, unknown>> => {
    let text: string;
    try {
      text = await readBodyText(request, ctx.config.MAX_REQUEST_BODY_BYTES);
    } catch (error) {
      if (error instanceof RequestBodyTooLargeError) throw new StorageHttpError(413, 'Payload too large', error.message);
      throw error;
    }
    if (jsonNestingExceeds(text)) throw storageErrors.badRequest(jsonTooDeepMessage());
    try {
      const parsed: unknown = JSON.parse(text);
      return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  };

  const handler: ApiHandler = async (request) => {
    const url = new URL(request.url);
    const route = url.pathname.replace(/^\/storage\/v1/, '');
    const method = request.method;
    try {
      let match: RegExpMatchArray | null;
      // Public reads need no key, as on hosted Supabase.
      if ((method === 'GET' || method === 'HEAD') && (match = route.match(/^\/object\/public\/([^/]+)\/(.+)$/))) {
        const bucket = await bucketOf(match[1]!);
        if (!bucket.public) throw storageErrors.objectNotFound();
        return await serveFile(request, await selectObject(ctx.db, bucket.id, objectName(match[2]!)));
      }
      if ((method === 'GET' || method === 'HEAD') && (match = route.match(/^\/object\/sign\/([^/]+)\/(.+)$/))) {
        const signed = await verifySignedUrl(url, match[1]!, objectName(match[2]!));
        const response = await serveFile(request, signed.row, signedCacheControl(signed.row, signed.exp));
        return withDownloadName(response, url.searchParams.get('download'));
      }
      if (method === 'GET' && (match = route.match(/^\/render\/image\/public\/([^/]+)\/(.+)$/))) {
        const bucket = await bucketOf(match[1]!);
        if (!bucket.public) throw storageErrors.objectNotFound();
        return await serveRendered(await selectObject(ctx.db, bucket.id, objectName(match[2]!)), renderOptions(url));
      }
      if (method === 'GET' && (match = route.match(/^\/render\/image\/sign\/([^/]+)\/(.+)$/))) {
        return await serveRendered((await verifySignedUrl(url, match[1]!, objectName(match[2]!))).row, renderOptions(url));
      }

      const claims = await callerClaims(request, secret);

      if ((method === 'POST' || method === 'PUT') && (match = route.match(/^\/object\/(?!sign\/|list\/|move$|copy$|info\/|upload\/)([^/]+)\/(.+)$/))) {
        const upsert = method === 'PUT' || request.headers.get('x-upsert') === 'true';
        return await upload(request, claims, match[1]!, objectName(match[2]!), upsert);
      }
      if ((method === 'GET' || method === 'HEAD') && (match = route.match(/^\/object\/(?:authenticated\/)?([^/]+)\/(.+)$/)) && !route.startsWith('/object/info/')) {
        const bucketId = match[1]!;
        const name = objectName(match[2]!);
        await bucketOf(bucketId);
        const row = await asCaller(claims, (q) => selectObject(q, bucketId, name));
        return await serveFile(request, row);
      }
      if (method === 'GET' && (match = route.match(/^\/render\/image\/authenticated\/([^/]+)\/(.+)$/))) {
        const bucketId = match[1]!;
        const name = objectName(match[2]!);
        const row = await asCaller(claims, (q) => selectObject(q, bucketId, name));
        return await serveRendered(row, renderOptions(url));
      }
      if (method === 'GET' && (match = route.match(/^\/object\/info\/(?:authenticated\/|public\/)?([^/]+)\/(.+)$/))) {
        const bucketId = match[1]!;
        const name = objectName(match[2]!);
        const row = await asCaller(claims, (q) => selectObject(q, bucketId, name));
        return Response.json({
          id: row.id,
          name: row.name,
          version: row.version,
          bucket_id: row.bucket_id,
          size: row.metadata?.size ?? null,
          content_type: row.metadata?.mimetype ?? null,
          cache_control: row.metadata?.cacheControl ?? null,
          etag: row.metadata?.eTag ?? null,
          metadata: row.metadata,
          created_at: isoTimestamp(row.created_at),
          last_modified: isoTimestamp(row.updated_at),
        });
      }
      if (method === 'POST' && (match = route.match(/^\/object\/sign\/([^/]+)\/(.+)$/))) {
        const body = (await jsonOf(request)) as { expiresIn?: unknown; transform?: unknown };
        const signedURL = await signUrl(claims, match[1]!, objectName(match[2]!), body.expiresIn, body.transform ? 'render' : 'object', body.transform);
        return Response.json({ signedURL });
      }
      if (method === 'POST' && (match = route.match(/^\/object\/sign\/([^/]+)\/?$/))) {
        const body = (await jsonOf(request)) as { expiresIn?: unknown; paths?: unknown };
        if (!Array.isArray(body.paths) || body.paths.length > 1000) throw storageErrors.badRequest('paths must be an array of at most 1000 names');
        const results = [];
        for (const path of body.paths) {
          try {
            results.push({ error: null, path, signedURL: await signUrl(claims, match[1]!, objectName(String(path)), body.expiresIn, 'object') });
          } catch (error) {
            if (!(error instanceof StorageHttpError)) throw error;
            results.push({ error: error.message === 'Object not found' ? 'Either the object does not exist or you do not have access to it' : error.message, path, signedURL: null });
          }
        }
        return Response.json(results);
      }
      if (method === 'DELETE' && (match = route.match(/^\/object\/([^/]+)\/?$/))) {
        const bucketId = match[1]!;
        const body = (await jsonOf(request)) as { prefixes?: unknown };
        if (!Array.isArray(body.prefixes) || body.prefixes.length > 1000) throw storageErrors.badRequest('prefixes must be an array of at most 1000 names');
        const names = body.prefixes.map((name) => objectName(String(name).replace(/^\/+/, '')));
        await bucketOf(bucketId);
        const removed = await asCaller(claims, async (q) =>
          (await q.query<ObjectRow>(
            `delete from storage.objects where bucket_id = $1 and name = any($2::text[])
             returning id, bucket_id, name, version, metadata, created_at, updated_at, last_accessed_at`,
            [bucketId, names],
          )).rows,
        );
        for (const row of removed) if (row.version) await files.remove(bucketId, row.version);
        return Response.json(removed.map(({ version: _version, ...row }) => withIsoTimestamps(row)));
      }
      if (method === 'POST' && (match = route.match(/^\/object\/list\/([^/]+)\/?$/))) {
        return await listObjects(claims, match[1]!, (await jsonOf(request)) as Record<string, unknown>);
      }
      if (method === 'POST' && (route === '/object/move' || route === '/object/copy')) {
        const body = (await jsonOf(request)) as { bucketId?: string; sourceKey?: string; destinationKey?: string; destinationBucket?: string };
        if (!body.bucketId || !body.sourceKey || !body.destinationKey) throw storageErrors.badRequest('bucketId, sourceKey and destinationKey are required');
        const source = objectName(body.sourceKey);
        const destination = objectName(body.destinationKey);
        if (claims.role !== 'service_role') checkUploadName(destination);
        const destinationBucket = body.destinationBucket ?? body.bucketId;
        await bucketOf(body.bucketId);
        await bucketOf(destinationBucket);
        if (route === '/object/move') {
          await asCaller(claims, async (q) => {
            const moved = await q.query(
              'update storage.objects set bucket_id = $3, name = $4, updated_at = now() where bucket_id = $1 and name = $2 returning version',
              [body.bucketId, source, destinationBucket, destination],
            );
            if (moved.rows.length === 0) throw storageErrors.objectNotFound();
            if (destinationBucket !== body.bucketId) throw storageErrors.badRequest('Moving between buckets is not supported by the local stack');
          });
          return Response.json({ message: 'Successfully moved' });
        }
        const copied = await asCaller(claims, async (q) => {
          const row = await selectObject(q, body.bucketId!, source);
          const size = await files.size(row.bucket_id, row.version);
          if (size === null) throw storageErrors.objectNotFound();
          const received = await files.receive(files.read(row.bucket_id, row.version), Number.MAX_SAFE_INTEGER);
          try {
            return await storeObject(q, {
              bucket: destinationBucket,
              name: destination,
              tmpPath: received.tmpPath,
              size: received.size,
              contentType: row.metadata?.mimetype ?? 'application/octet-stream',
              cacheControl: row.metadata?.cacheControl ?? 'max-age=3600',
              upsert: false,
              owner: claims.sub,
            });
          } finally {
            await files.discard(received.tmpPath);
          }
        });
        return Response.json({ Id: copied.id, Key: `${destinationBucket}/${destination}` });
      }
      if (method === 'GET' && (match = route.match(/^\/bucket(?:\/([^/]+))?\/?$/))) {
        if (claims.role !== 'service_role') {
          if (match[1]) throw storageErrors.bucketNotFound();
          return Response.json([]);
        }
        const { rows } = await ctx.db.query(
          `select id, name, owner, public, file_size_limit, allowed_mime_types, created_at, updated_at from storage.buckets
            where $1::text is null or id = $1 order by name`,
          [match[1] ?? null],
        );
        if (match[1]) {
          if (!rows[0]) throw storageErrors.bucketNotFound();
          return Response.json(withIsoTimestamps(rows[0]));
        }
        return Response.json(rows.map(withIsoTimestamps));
      }
      throw storageErrors.notFound(`Route ${method} ${route} not found`);
    } catch (error) {
      if (error instanceof StorageHttpError) return error.toResponse();
      if (error instanceof MissingApiKeyError) return storageErrors.missingKey().toResponse();
      if (error instanceof InvalidJwtError) return storageErrors.invalidJwt(error.message).toResponse();
      if (error instanceof RequestBodyTooLargeError) return storageErrors.tooLarge().toResponse();
      const mapped = asStorageError(error);
      if (mapped instanceof StorageHttpError) return mapped.toResponse();
      console.error('storage/v1 error:', error);
      return new StorageHttpError(500, 'internal', 'Internal storage error').toResponse();
    }
  };

  const writeObject: StorageApi['writeObject'] = async (bucket, name, bytes, contentType) => {
    if (!isValidObjectName(name)) throw storageErrors.invalidKey(name);
    const received = await files.receive(bytes, Number.MAX_SAFE_INTEGER);
    try {
      await ctx.db.transaction((q) =>
        storeObject(q, { bucket, name, tmpPath: received.tmpPath, size: received.size, contentType, cacheControl: 'max-age=31536000', upsert: false }),
      );
    } finally {
      await files.discard(received.tmpPath);
    }
  };

  const drainDeletions = async () => {
    let removed = 0;
    for (;;) {
      const batch = await ctx.db.transaction(async (q) => {
        const { rows } = await q.query<{ id: string; bucket_id: string; name: string }>(
          'select id, bucket_id, name from public.storage_deletions order by id limit 200',
        );
        if (rows.length === 0) return [];
        const gone = await q.query<{ bucket_id: string; version: string }>(
          `delete from storage.objects o using unnest($1::text[], $2::text[]) as d (bucket_id, name)
            where o.bucket_id = d.bucket_id and o.name = d.name returning o.bucket_id, o.version`,
          [rows.map((row) => row.bucket_id), rows.map((row) => row.name)],
        );
        await q.query('delete from public.storage_deletions where id = any($1::bigint[])', [rows.map((row) => row.id)]);
        return gone.rows;
      });
      if (batch.length === 0) break;
      // Files go after the rows' commit: a crash here leaves unreferenced files, which sweep() removes.
      for (const row of batch) if (row.version) await files.remove(row.bucket_id, row.version);
      removed += batch.length;
    }
    return removed;
  };

  const sweep = (olderThanMs = 0) =>
    files.sweep(async (bucket, versions) => {
      const { rows } = await ctx.db.query<{ version: string }>(
        'select version from storage.objects where bucket_id = $1 and version = any($2::text[])',
        [bucket, versions],
      );
      return new Set(rows.map((row) => row.version));
    }, olderThanMs);

  return { handler, files, writeObject, drainDeletions, sweep };
}
