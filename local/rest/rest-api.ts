import type { AccessClaims } from '../auth/jwt.ts';
import { runAsCaller, type CallerStatement } from '../db/caller-scope.ts';
import type { Database, QueryResult } from '../db/database.ts';
import type { ApiContext, ApiHandler } from '../http/api-handler.ts';
import { callerClaims, InvalidJwtError, MissingApiKeyError } from '../http/caller.ts';
import { responseWithBody } from '../http/known-body.ts';
import { jsonNestingExceeds, jsonTooDeepMessage, readBodyText, RequestBodyTooLargeError } from '../http/json-body.ts';
import { parseColumns, parseSelect } from './query-grammar.ts';
import { Aliases, applyParameters, planSelect, referencedColumns, relationSource, tableNotFound, type PlanNode } from './read-plan.ts';
import { arrayLiteral, renderRead, type ReadOutput } from './read-sql.ts';
import {
  acceptedMedia, checkProfile, contentRange, parsePreferences, requestedRange, type AcceptedMedia, type Preferences,
} from './request-headers.ts';
import {
  errorResponse, isConnectionFailure, isDatabaseError, RestError, restErrorOfDatabase, unreachableDatabase,
} from './rest-error.ts';
import { withEntityTag } from './entity-tags.ts';
import { SharedAnswerCache } from './shared-answer-cache.ts';
import { CALL_CTE, callCte, resolveFunction, resultSource, scalarCallStatement } from './rpc-sql.ts';
import { EXPOSED_SCHEMA, loadSchemaCache, type Relation, type SchemaCache } from './schema-cache.ts';
import { qualified, quoteIdent, SqlParameters } from './sql-parameters.ts';
import { checkColumns, deleteSql, insertSql, updateSql } from './write-sql.ts';

/**
 * rest/v1: a PostgREST-compatible API over the exposed schema, for
 * supabase-js. Each request is one transaction as the caller (role and JWT
 * claims), so row-level security and grants are PostgreSQL's own.
 */
export interface RestApi extends ApiHandler {
  /** Reads the catalog again, e.g. after a migration (PostgREST's schema reload). */
  reloadSchema(): Promise<SchemaCache>;
}

const PREFIX = '/rest/v1';
const JSON_TYPE = 'application/json; charset=utf-8';
const OBJECT_TYPE = 'application/vnd.pgrst.object+json; charset=utf-8';
/** Query parameters that are never filters. */
const RESERVED = new Set(['select', 'columns', 'on_conflict', 'apikey']);
/** SQLSTATEs after which the catalog may have changed under the cache. */
const SCHEMA_CHANGED = new Set(['42P01', '42703', '42883', '42704', '42P10']);
const RELOAD_AFTER_MS = 1000;

class SchemaCacheHolder {
  private current: Promise<SchemaCache> | null = null;
  constructor(private readonly db: Database) {}

  get(): Promise<SchemaCache> {
    if (!this.current) {
      const loading = loadSchemaCache(this.db).catch((error: unknown) => {
        throw isConnectionFailure(error) ? unreachableDatabase(error as Error, true) : error;
      });
      loading.catch(() => {
        if (this.current === loading) this.current = null;
      });
      this.current = loading;
    }
    return this.current;
  }

  reload(): Promise<SchemaCache> {
    this.current = null;
    return this.get();
  }

  markStale(): void {
    this.current = null;
  }

  /** A name the cache does not know may be new: read the catalog again, at most once a second. */
  async refreshedUnless(cache: SchemaCache, known: (cache: SchemaCache) => boolean): Promise<SchemaCache> {
    if (known(cache) || Date.now() - cache.loadedAt < RELOAD_AFTER_MS) return cache;
    return this.reload();
  }
}

/** A request's one statement and how its result becomes the response. */
interface Execution {
  readOnly: boolean;
  /** respond may refuse the result (406, 416, max-affected), which must undo the statement's writes. */
  mayRefuse: boolean;
  statement: CallerStatement | null;
  respond(result: QueryResult<Record<string, unknown>>): Response;
}

type ResultRows = QueryResult<Record<string, unknown>>;
const firstRow = (result: ResultRows) => result.rows[0] as unknown as ReadRow;

interface RequestContext {
  request: Request;
  url: URL;
  prefer: Preferences;
  accept: AcceptedMedia;
  head: boolean;
  /** The body, when it was read before planning (to key the anonymous cache). */
  bodyText?: string;
}

export function createRestApi(ctx: ApiContext): RestApi {
  const schemaCache = new SchemaCacheHolder(ctx.db);
  const sharedAnswers = new SharedAnswerCache(ctx.db);

  async function handle(request: Request, claims: { current: AccessClaims | null }): Promise<Response> {
    const url = new URL(request.url);
    if (!url.pathname.startsWith(PREFIX)) throw notFoundPath(url.pathname);
    const segments = url.pathname.slice(PREFIX.length).split('/').filter(Boolean).map(decodePathSegment);
    // PostgreSQL text cannot hold NUL; inside a statement's parameters it breaks the wire protocol.
    if (segments.some((segment) => segment.includes('\0')) || [...url.searchParams].some(([key, value]) => `${key}${value}`.includes('\0'))) {
      throw new RestError(400, 'PGRST100', '"failed to parse query string"', 'NUL characters (%00) are not allowed in names or values');
    }

    if (request.method === 'OPTIONS') {
      return new Response(null, { status: 200, headers: { Allow: 'OPTIONS,GET,HEAD,POST,PATCH,DELETE' } });
    }
    const caller = await authenticate(request, ctx.config.JWT_SECRET);
    claims.current = caller;
    checkProfile(request, EXPOSED_SCHEMA);
    const context: RequestContext = {
      request,
      url,
      prefer: parsePreferences(request.headers.get('prefer')),
      accept: acceptedMedia(request.headers.get('accept')),
      head: request.method === 'HEAD',
    };

    const rpc = segments.length === 2 && segments[0] === 'rpc' ? segments[1]! : null;
    if (rpc !== null && context.prefer.tx !== 'rollback' && ['GET', 'HEAD', 'POST'].includes(request.method)
      && sharedAnswers.applies(caller, rpc)) {
      context.bodyText = request.method === 'POST' ? await readBodyText(request, ctx.config.MAX_REQUEST_BODY_BYTES) : '';
      const call = sharedAnswers.askedBefore(caller, request, url, context.bodyText) ? await sharedAnswers.callOf(caller, rpc) : null;
      if (call !== null) {
        const key = SharedAnswerCache.key(caller, call, request, url, context.bodyText);
        return sharedAnswers.answer(key, caller, call, () => execute(context, caller, rpc, segments), request.headers.get('accept-encoding'));
      }
    }
    return execute(context, caller, rpc, segments);
  }

  async function execute(context: RequestContext, caller: AccessClaims, rpc: string | null, segments: string[]): Promise<Response> {
    let execution: Execution;
    if (rpc !== null) {
      execution = await rpcExecution(context, rpc, caller.role);
    } else if (segments.length === 1) {
      execution = await relationExecution(context, segments[0]!);
    } else {
      throw notFoundPath(context.url.pathname);
    }

    return runAsCaller(ctx.db, caller, {
      statement: execution.statement,
      timezone: context.prefer.timezone,
      readOnly: execution.readOnly,
      // A read-only transaction has nothing to undo.
      mayRefuse: !execution.readOnly && execution.mayRefuse,
      rollback: context.prefer.tx === 'rollback',
      respond: execution.respond,
    });
  }

  async function relationExecution(context: RequestContext, name: string): Promise<Execution> {
    const cache = await schemaCache.refreshedUnless(await schemaCache.get(), (c) => c.relations.has(name));
    const relation = cache.relations.get(name);
    if (!relation) throw tableNotFound(name);
    const { request } = context;
    const root = planRequest(cache, context, relationSource(cache, name));
    switch (request.method) {
      case 'GET':
      case 'HEAD':
        applyRange(root, request);
        return readExecution(context, root, `${qualified(EXPOSED_SCHEMA, name)} as ${quoteIdent(root.alias)}`);
      case 'POST':
        return insertExecution(context, relation, root, await jsonBody(request, ctx.config.MAX_REQUEST_BODY_BYTES));
      case 'PATCH':
        return updateExecution(context, relation, root, await jsonBody(request, ctx.config.MAX_REQUEST_BODY_BYTES));
      case 'DELETE':
        return deleteExecution(context, relation, root);
      default:
        throw new RestError(405, 'PGRST117', `Unsupported HTTP method: ${request.method}`);
    }
  }

  async function rpcExecution(context: RequestContext, name: string, role: string): Promise<Execution> {
    const { request, url } = context;
    if (!['GET', 'HEAD', 'POST'].includes(request.method)) {
      throw new RestError(405, 'PGRST101', 'Only GET, HEAD and POST are allowed for functions');
    }
    let cache = await schemaCache.refreshedUnless(await schemaCache.get(), (c) => c.functions.has(name));
    const parameterNames = new Set((cache.functions.get(name) ?? []).flatMap((fn) => fn.parameters.map((p) => p.name)));
    let args: Record<string, unknown>;
    let filters: [string, string][];
    if (request.method === 'POST') {
      const body = await jsonBody(request, ctx.config.MAX_REQUEST_BODY_BYTES, true, context.bodyText);
      if (body === null || typeof body !== 'object' || Array.isArray(body)) {
        throw new RestError(400, 'PGRST102', 'Function arguments must be a JSON object of named arguments');
      }
      args = body as Record<string, unknown>;
      filters = filterEntries(url);
    } else {
      const grouped = new Map<string, string[]>();
      filters = [];
      for (const [key, value] of filterEntries(url)) {
        if (parameterNames.has(key)) grouped.set(key, [...(grouped.get(key) ?? []), value]);
        else filters.push([key, value]);
      }
      args = {};
      for (const [key, values] of grouped) args[key] = values.length > 1 ? arrayLiteral(values) : values[0];
    }
    let fn;
    try {
      fn = resolveFunction(cache, name, Object.keys(args), role);
    } catch (error) {
      if (!(error instanceof RestError) || error.code !== 'PGRST202') throw error;
      cache = await schemaCache.refreshedUnless(cache, () => false);
      fn = resolveFunction(cache, name, Object.keys(args), role);
    }
    const sql = new SqlParameters();
    const argumentsFrom = request.method === 'POST' ? 'json' : 'text';
    const readOnly = request.method !== 'POST';
    if (fn.returnShape === 'void') {
      const cte = callCte(fn, args, argumentsFrom, sql);
      return {
        readOnly,
        mayRefuse: false,
        statement: { text: `with ${cte} select count(*) as page_total from ${CALL_CTE}`, values: sql.values },
        respond: () => new Response(null, { status: 204, headers: appliedHeaders(context.prefer) }),
      };
    }
    const source = resultSource(cache, fn);
    const scalar = fn.returnShape === 'scalar';
    const root = planRequest(cache, context, source, scalar ? '*' : undefined, filters);
    applyRange(root, request);
    const output: ReadOutput = {
      count: Boolean(context.prefer.count),
      single: !fn.returnsSet || context.accept.single,
      head: context.head,
      stripNulls: context.accept.stripNulls,
      scalarColumn: scalar ? fn.name : undefined,
    };
    const asItIs = scalar && !fn.returnsSet && !output.count && !output.head && !output.stripNulls && root.filters.length === 0
      && root.order.length === 0 && root.limit === undefined && root.offset === undefined;
    const text = asItIs
      ? scalarCallStatement(fn, args, argumentsFrom, sql)
      : renderRead(root, `${CALL_CTE} as ${quoteIdent(root.alias)}`, output, sql, callCte(fn, args, argumentsFrom, sql));
    return {
      readOnly,
      mayRefuse: fn.returnsSet && refusable(context),
      statement: { text, values: sql.values },
      respond: (result) => {
        const row = firstRow(result);
        if (fn.returnsSet) return readResponse(context, row, root.offset ?? 0);
        const init = { status: 200, headers: { 'Content-Type': context.accept.single ? OBJECT_TYPE : JSON_TYPE, ...appliedHeaders(context.prefer) } };
        return responseWithBody(context.head ? null : row.body ?? 'null', init);
      },
    };
  }

  function readExecution(context: RequestContext, root: PlanNode, fromItem: string): Execution {
    const sql = new SqlParameters();
    const text = renderRead(root, fromItem, {
      count: Boolean(context.prefer.count),
      single: context.accept.single,
      head: context.head,
      stripNulls: context.accept.stripNulls,
    }, sql);
    return {
      readOnly: true,
      mayRefuse: refusable(context),
      statement: { text, values: sql.values },
      respond: (result) => readResponse(context, firstRow(result), root.offset ?? 0),
    };
  }

  function insertExecution(context: RequestContext, relation: Relation, root: PlanNode, body: unknown): Execution {
    const { url, prefer } = context;
    const rows = Array.isArray(body) ? body : [body];
    if (!rows.every((row) => row !== null && typeof row === 'object' && !Array.isArray(row))) {
      throw new RestError(400, 'PGRST102', 'Insert takes a JSON object or an array of JSON objects');
    }
    const objects = rows as Record<string, unknown>[];
    const columnsParam = url.searchParams.get('columns');
    let columns: string[];
    if (columnsParam !== null) {
      columns = parseColumns(columnsParam);
    } else {
      columns = objects.length ? Object.keys(objects[0]!) : [];
      const sameKeys = (row: Record<string, unknown>) =>
        Object.keys(row).length === columns.length && columns.every((column) => Object.hasOwn(row, column));
      if (!objects.every(sameKeys)) throw new RestError(400, 'PGRST102', 'All object keys must match');
    }
    checkColumns(relation, columns);
    const onConflictParam = url.searchParams.get('on_conflict');
    const onConflict = onConflictParam !== null ? parseColumns(onConflictParam) : undefined;
    if (onConflict) checkColumns(relation, onConflict);
    const representation = prefer.return === 'representation';
    const headersOnly = prefer.return === 'headers-only' && relation.primaryKey.length > 0;
    const sql = new SqlParameters();
    const returning = representation ? referencedColumns(root) : headersOnly ? relation.primaryKey : null;
    const statement = objects.length === 0 ? null : insertSql(relation, {
      rows: objects, columns, missingDefault: prefer.missing === 'default', resolution: prefer.resolution, onConflict,
    }, returning, sql);
    return writeExecution(context, relation, root, statement, sql, 'insert');
  }

  function updateExecution(context: RequestContext, relation: Relation, root: PlanNode, body: unknown): Execution {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw new RestError(400, 'PGRST102', 'Update takes one JSON object of the columns to set');
    }
    const columnsParam = context.url.searchParams.get('columns');
    const columns = columnsParam !== null ? parseColumns(columnsParam) : Object.keys(body);
    checkColumns(relation, columns);
    rejectLimitedWrite(root);
    const sql = new SqlParameters();
    const returning = context.prefer.return === 'representation' ? referencedColumns(root) : null;
    const statement = columns.length === 0 ? null : updateSql(relation, root, body as Record<string, unknown>, columns, returning, sql);
    return writeExecution(context, relation, root, statement, sql, 'update');
  }

  function deleteExecution(context: RequestContext, relation: Relation, root: PlanNode): Execution {
    rejectLimitedWrite(root);
    const sql = new SqlParameters();
    const returning = context.prefer.return === 'representation' ? referencedColumns(root) : null;
    return writeExecution(context, relation, root, deleteSql(relation, root, returning, sql), sql, 'delete');
  }

  function writeExecution(
    context: RequestContext,
    relation: Relation,
    root: PlanNode,
    statement: string | null,
    sql: SqlParameters,
    kind: 'insert' | 'update' | 'delete',
  ): Execution {
    const { prefer, accept } = context;
    const representation = prefer.return === 'representation';
    // The root's filters chose the rows to write; the written rows are returned as they are now.
    root.filters = [];
    const text = statement && representation
      ? renderRead(root, `pgrst_mutation as ${quoteIdent(root.alias)}`,
        { count: false, single: accept.single, head: false, stripNulls: accept.stripNulls }, sql, `pgrst_mutation as (${statement})`)
      : statement;
    return {
      readOnly: false,
      mayRefuse: true,
      statement: text ? { text, values: sql.values } : null,
      respond: (result) => {
        let affected = 0;
        let body: string | null = representation ? (accept.single ? null : '[]') : null;
        let location: string | null = null;
        if (text && representation) {
          const row = firstRow(result);
          affected = Number(row.page_total);
          body = row.body;
        } else if (text) {
          affected = result.rowCount;
          const first = result.rows[0];
          if (kind === 'insert' && prefer.return === 'headers-only' && first) {
            location = `/${relation.name}?${relation.primaryKey.map((key) => `${key}=eq.${encodeURIComponent(String(first[key]))}`).join('&')}`;
          }
        }
        if (kind !== 'insert' && prefer.maxAffected !== undefined && prefer.handling === 'strict' && affected > prefer.maxAffected) {
          throw new RestError(400, 'PGRST124', 'Query result exceeds max-affected preference constraint',
            `The query affects ${affected} rows`);
        }
        if (accept.single && affected !== 1) throw singleRowError(affected);
        const total = prefer.count ? affected : null;
        const headers: Record<string, string> = {
          'Content-Range': kind === 'insert' ? contentRange(1, 0, total) : contentRange(0, affected - 1, total),
          ...appliedHeaders(prefer),
        };
        if (location) headers.Location = location;
        if (representation) headers['Content-Type'] = accept.single ? OBJECT_TYPE : JSON_TYPE;
        const status = kind === 'insert' ? 201 : representation ? 200 : 204;
        return new Response(representation ? body : null, { status, headers });
      },
    };
  }

  function readResponse(context: RequestContext, row: ReadRow, offset: number): Response {
    const total = row.total === null ? null : Number(row.total);
    const pageTotal = Number(row.page_total);
    const range = contentRange(offset, offset + pageTotal - 1, total);
    if (total !== null && offset > total) {
      throw new RestError(416, 'PGRST103', 'Requested range not satisfiable',
        `An offset of ${offset} was requested, but there are only ${total} rows.`, null, { 'Content-Range': `*/${total}` });
    }
    if (context.accept.single && pageTotal !== 1) throw singleRowError(pageTotal);
    const status = total !== null && pageTotal < total ? 206 : 200;
    const init = {
      status,
      headers: {
        'Content-Type': context.accept.single ? OBJECT_TYPE : JSON_TYPE,
        'Content-Range': range,
        ...appliedHeaders(context.prefer),
      },
    };
    return responseWithBody(context.head ? null : row.body, init);
  }

  const handler = async (request: Request): Promise<Response> => {
    const claims: { current: AccessClaims | null } = { current: null };
    try {
      return await withEntityTag(request, await handle(request, claims));
    } catch (error) {
      if (error instanceof RestError) return errorResponse(error);
      if (error instanceof RequestBodyTooLargeError) {
        return errorResponse(new RestError(413, 'payload_too_large', `The request body is larger than ${error.limit} bytes`));
      }
      if (isConnectionFailure(error)) return errorResponse(unreachableDatabase(error as Error, false));
      if (isDatabaseError(error)) {
        if (SCHEMA_CHANGED.has(error.code!)) {
          schemaCache.markStale();
          sharedAnswers.reset();
        }
        return errorResponse(restErrorOfDatabase(error, claims.current !== null && claims.current.role !== 'anon'));
      }
      // The detail stays in the server's log: an error of our code is not the caller's business.
      console.error('rest/v1 failed:', error);
      return errorResponse(new RestError(500, 'PGRSTX00', 'Internal error in the local rest/v1 API'));
    }
  };
  return Object.assign(handler, {
    reloadSchema: () => {
      sharedAnswers.reset();
      return schemaCache.reload();
    },
  });
}

interface ReadRow {
  total: string | number | null;
  page_total: string | number;
  body: string | null;
}

async function authenticate(request: Request, secret: string): Promise<AccessClaims> {
  try {
    return await callerClaims(request, secret);
  } catch (error) {
    if (error instanceof MissingApiKeyError) {
      throw new RestError(401, 'PGRST302', 'No API key found in request', null,
        'No `apikey` request header or url param was found.', { 'WWW-Authenticate': 'Bearer' });
    }
    if (error instanceof InvalidJwtError) {
      // PostgREST: PGRST303 when a time claim fails, PGRST301 when the token itself is not valid.
      const expired = /expired/.test(error.message);
      const message = expired ? 'JWT expired' : error.message;
      throw new RestError(401, expired ? 'PGRST303' : 'PGRST301', message, null, null,
        { 'WWW-Authenticate': `Bearer error="invalid_token", error_description="${message.replace(/"/g, "'")}"` });
    }
    throw error;
  }
}

function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new RestError(400, 'PGRST100', '"failed to parse path"', `"${segment}" is not valid percent-encoded UTF-8`);
  }
}

function notFoundPath(pathname: string): RestError {
  return new RestError(404, 'PGRST125', `Invalid path specified in request URL: ${pathname}`, null,
    'Use /rest/v1/<table or view> or /rest/v1/rpc/<function>');
}

/** Every query parameter that may be a filter, order, limit or offset (in request order). */
function filterEntries(url: URL): [string, string][] {
  return [...url.searchParams.entries()].filter(([key]) => !RESERVED.has(key));
}

function planRequest(
  cache: SchemaCache,
  context: RequestContext,
  source: ReturnType<typeof relationSource>,
  selectOverride?: string,
  entries: [string, string][] = filterEntries(context.url),
): PlanNode {
  const select = selectOverride ?? context.url.searchParams.get('select') ?? '*';
  const root = planSelect(cache, source, parseSelect(select), new Aliases());
  applyParameters(root, entries);
  return root;
}

function applyRange(root: PlanNode, request: Request): void {
  const range = requestedRange(request);
  if (!range) return;
  if (root.offset === undefined) root.offset = range.offset;
  if (range.limit !== undefined) root.limit = root.limit === undefined ? range.limit : Math.min(root.limit, range.limit);
}

function rejectLimitedWrite(root: PlanNode): void {
  if (root.limit !== undefined || root.offset !== undefined) {
    throw new RestError(400, 'PGRST109', 'Limits and offsets are not supported on updates and deletes here', null,
      'Filter on a unique column instead');
  }
}

/** Whether readResponse may refuse a result: 406 for a single object, 416 past the counted rows. */
function refusable(context: RequestContext): boolean {
  return context.accept.single || Boolean(context.prefer.count);
}

function singleRowError(rows: number): RestError {
  return new RestError(406, 'PGRST116', 'Cannot coerce the result to a single JSON object', `The result contains ${rows} rows`);
}

function appliedHeaders(prefer: Preferences): Record<string, string> {
  const applied = [
    prefer.return && `return=${prefer.return}`,
    prefer.count && `count=${prefer.count}`,
    prefer.resolution && `resolution=${prefer.resolution}`,
    prefer.missing && `missing=${prefer.missing}`,
    prefer.tx && `tx=${prefer.tx}`,
  ].filter(Boolean);
  return applied.length ? { 'Preference-Applied': applied.join(', ') } : {};
}

async function jsonBody(request: Request, maxBytes: number, emptyIsObject = false, readText?: string): Promise<unknown> {
  const contentType = request.headers.get('content-type');
  if (contentType && !/^application\/json\b|\+json\b/i.test(contentType)) {
    throw new RestError(415, 'PGRST107', `Content-Type not acceptable: ${contentType}`);
  }
  const text = readText ?? (await readBodyText(request, maxBytes));
  if (text.trim() === '' && emptyIsObject) return {};
  if (jsonNestingExceeds(text)) throw new RestError(400, 'PGRST102', jsonTooDeepMessage());
  try {
    return JSON.parse(text);
  } catch {
    throw new RestError(400, 'PGRST102', 'Empty or invalid json');
  }
}
