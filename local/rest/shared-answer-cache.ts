import { createHash } from 'node:crypto';
import type { AccessClaims } from '../auth/jwt.ts';
import type { Database } from '../db/database.ts';
import { chooseEncoding, compressNow, isCompressible, MIN_COMPRESSED_BYTES, type Encoding } from '../http/compression.ts';
import { knownBody, responseWithBody } from '../http/known-body.ts';
import { isDatabaseError } from './rest-error.ts';

/**
 * Answers to function calls that many callers share, kept while the database
 * says they still hold. The database declares which functions qualify in
 * private.anonymous_answer_versions (name, version): a function listed there
 * answers from the rows of tables whose every writing statement bumps its
 * version in the same transaction, and depends on its caller only through the
 * caller's answer class (private.answer_class_of: 'anon', 'member' signed in
 * without valid access, 'access' with it). Answers are kept per class, so a
 * subscriber's answer serves every subscriber and never a free account.
 *
 * Each request reads the versions before anything else, by a query that
 * started after it arrived, so an answer is served only while no write has
 * committed since it was computed; an answer computed while a write commits is
 * stored under the version read before it, which the next request already
 * finds outdated. Anonymous callers share that query; a signed-in caller's
 * query also reads their class, at that moment (a subscription that ended is
 * seen by the next request). Answers were made by running the call as a caller
 * of that class under row-level security; the key holds the role, the class,
 * the call and every header that shapes the answer.
 *
 * Answers also hold signed image links, cut per window of time by the
 * database (private.image_link_window_start): the version read carries the
 * current window, so no answer outlives the window its links were signed in.
 *
 * A call is kept only from its second ask on, by a caller of any class
 * (askedBefore): the first is answered as if there were no cache, in one round
 * trip. Most calls asked once are never asked again (a filter or a date nobody
 * else combines), and keeping them would push out the answers many callers
 * share; so would a caller sending a new call with every request. Both the
 * calls asked and the answers kept are dropped least recently asked first.
 *
 * A database without the table (or where the API's login cannot read it)
 * simply has no cache.
 */
const VERSION_SQL = `version::text || '@' || private.image_link_window_start(now())::text`;
const VERSIONS_SQL = `select function_name, ${VERSION_SQL} as version from private.anonymous_answer_versions`;
/** One signed-in caller's class and the function's version, in one statement. */
const CALLER_VERSION_SQL = `select private.answer_class_of($1::uuid) as answer_class, ${VERSION_SQL} as version
                              from private.anonymous_answer_versions where function_name = $2`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_ENTRIES = 256;
/** Calls remembered as asked (by a digest of their key): a call asked again within this many others is kept. */
const MAX_ASKED = 65_536;
const MAX_BODY_BYTES = 2_000_000;
/** Headers that change an answer besides the method, path, query and body. */
const KEY_HEADERS = ['accept', 'accept-profile', 'content-profile', 'content-type', 'prefer', 'range'];

interface VersionRow {
  function_name: string;
  version: string;
}

/** What the cache needs to know of one call: the class its answer is shared by, and the version it must match. */
export interface SharedCall {
  answerClass: string;
  version: string;
}

interface Entry {
  version: string;
  status: number;
  headers: [string, string][];
  /** The answer's bytes, sent as they are to every caller of the class (never decoded and encoded again). */
  body: Uint8Array<ArrayBuffer> | null;
  /** The body compressed, per encoding, made the first time a client accepting it asks (encodedBody). */
  encoded?: Map<Encoding, Buffer>;
}

export class SharedAnswerCache {
  private readonly entries = new Map<string, Entry>();
  /** Digests of the calls asked (without the caller's class), least recently asked first. */
  private readonly asked = new Set<string>();
  private readonly computing = new Map<string, Promise<Entry | null>>();
  private disabled = false;
  /** Function names from the last versions read: calls of other functions skip the query. */
  private names: Set<string> | null = null;
  /** The versions query running now, and the one queued to start when it ends. */
  private running: Promise<VersionRow[]> | null = null;
  private queued: Promise<VersionRow[]> | null = null;

  constructor(private readonly db: Database) {}

  /** Forgets every answer and asks the database again which functions qualify (after a schema change). */
  reset(): void {
    this.entries.clear();
    this.asked.clear();
    this.disabled = false;
    this.names = null;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Whether a call of this function by this caller may be answered from the cache at all. */
  applies(claims: AccessClaims, functionName: string): boolean {
    if (this.disabled || (this.names !== null && !this.names.has(functionName))) return false;
    // An anonymous caller names nobody; a signed-in one names the user the class is read for.
    if (claims.role === 'anon') return claims.sub === undefined;
    return claims.role === 'authenticated' && typeof claims.sub === 'string' && UUID.test(claims.sub);
  }

  /** The caller's class and the function's current version, or null when it has none (or the cache is off). */
  async callOf(claims: AccessClaims, functionName: string): Promise<SharedCall | null> {
    try {
      if (claims.role === 'anon') {
        const rows = await this.readVersions();
        this.names = new Set(rows.map((row) => row.function_name));
        const version = rows.find((row) => row.function_name === functionName)?.version;
        return version === undefined ? null : { answerClass: 'anon', version };
      }
      // Which functions qualify is learnt once from the shared versions query; others skip the cache's query.
      if (this.names === null) this.names = new Set((await this.readVersions()).map((row) => row.function_name));
      if (!this.names.has(functionName)) return null;
      const { rows } = await this.db.query<{ answer_class: string; version: string }>(CALLER_VERSION_SQL, [claims.sub, functionName]);
      return rows[0] ? { answerClass: rows[0].answer_class, version: rows[0].version } : null;
    } catch (error) {
      // No such table, schema or function, or no right to use it: this database has no cache.
      if (isDatabaseError(error) && ['42P01', '3F000', '42501', '42883'].includes(error.code!)) {
        this.disabled = true;
        this.entries.clear();
        return null;
      }
      throw error;
    }
  }

  /**
   * The versions as read by a query that started after this call: the running
   * one if none is, else the next one, which every caller arriving while the
   * current one runs shares (a write committed before a request arrived is
   * always seen; concurrent requests cost one query per round trip, not one each).
   */
  private readVersions(): Promise<VersionRow[]> {
    if (!this.running) return this.start();
    if (!this.queued) {
      const queued = this.running.then(() => {}, () => {}).then(() => {
        this.queued = null;
        return this.start();
      });
      this.queued = queued;
    }
    return this.queued;
  }

  private start(): Promise<VersionRow[]> {
    const running = this.db.query<VersionRow>(VERSIONS_SQL).then((result) => result.rows);
    this.running = running;
    const clear = () => {
      if (this.running === running) this.running = null;
    };
    running.then(clear, clear);
    return running;
  }

  /**
   * Whether a caller of this role asked this call before, in any class; notes the ask. A call asked for the first
   * time is answered without the cache (no class or version read, nothing kept).
   */
  askedBefore(claims: AccessClaims, request: Request, url: URL, body: string): boolean {
    const headers = KEY_HEADERS.map((name) => request.headers.get(name) ?? '');
    const digest = createHash('sha256').update(JSON.stringify([claims.role, request.method, url.pathname, url.search, headers, body])).digest('base64');
    const before = this.asked.delete(digest);
    if (!before && this.asked.size >= MAX_ASKED) this.asked.delete(this.asked.values().next().value!);
    this.asked.add(digest);
    return before;
  }

  static key(claims: AccessClaims, call: SharedCall, request: Request, url: URL, body: string): string {
    const headers = KEY_HEADERS.map((name) => request.headers.get(name) ?? '');
    return JSON.stringify([claims.role, call.answerClass, request.method, url.pathname, url.search, headers, body]);
  }

  /**
   * The cached answer under this version, or compute() run once for all the
   * requests asking at the same time, kept when it succeeded.
   */
  async answer(key: string, claims: AccessClaims, call: SharedCall, compute: () => Promise<Response>, acceptEncoding: string | null = null): Promise<Response> {
    const { version } = call;
    const cached = this.entries.get(key);
    if (cached && cached.version === version) {
      // The most recently asked answer is the last to be dropped.
      this.entries.delete(key);
      this.entries.set(key, cached);
      return responseOf(cached, acceptEncoding);
    }
    const flightKey = `${version}\n${key}`;
    const running = this.computing.get(flightKey);
    if (running) {
      // Waiters whose shared computation failed or was refused compute their own.
      const entry = await running;
      return entry ? responseOf(entry) : compute();
    }
    let settle: (entry: Entry | null) => void = () => {};
    this.computing.set(flightKey, new Promise<Entry | null>((resolve) => {
      settle = resolve;
    }));
    try {
      const response = await compute();
      if (response.status < 200 || response.status >= 300) {
        settle(null);
        return response;
      }
      const body = knownBody(response) ?? (response.body === null ? null : new Uint8Array(await response.arrayBuffer()));
      const entry: Entry = { version, status: response.status, headers: [...response.headers], body };
      // The call ran after the class was read: if the caller's access changed in between, the answer is theirs
      // alone, never one to hand the class it was not computed for.
      if (!(await this.sameClass(claims, call))) {
        settle(null);
        return responseOf(entry);
      }
      if (body === null || body.byteLength <= MAX_BODY_BYTES) this.store(key, entry);
      settle(entry);
      return responseOf(entry, acceptEncoding);
    } catch (error) {
      settle(null);
      throw error;
    } finally {
      this.computing.delete(flightKey);
    }
  }

  private async sameClass(claims: AccessClaims, call: SharedCall): Promise<boolean> {
    if (claims.role === 'anon') return true;
    const { rows } = await this.db.query<{ answer_class: string }>('select private.answer_class_of($1::uuid) as answer_class', [claims.sub]);
    return rows[0]?.answer_class === call.answerClass;
  }

  private store(key: string, entry: Entry): void {
    const current = this.entries.get(key);
    if (current && isNewer(current.version, entry.version)) return;
    this.entries.delete(key);
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, entry);
  }
}

/** Versions read as "<writes>@<link window>": newer when either part is larger. */
function isNewer(a: string, b: string): boolean {
  const [aWrites, aWindow] = a.split('@').map(BigInt);
  const [bWrites, bWindow] = b.split('@').map(BigInt);
  return aWindow! > bWindow! || (aWindow === bWindow && aWrites! > bWrites!);
}

/**
 * The entry as an answer. For a client that accepts compression, a body worth compressing goes out compressed,
 * from the entry's own compressed copy: a shared answer is compressed once per encoding, not once per request
 * (Brotli of a 50 KB page costs about as much as serving it from the cache).
 */
function responseOf(entry: Entry, acceptEncoding: string | null = null): Response {
  const encoded = encodedBody(entry, acceptEncoding);
  if (!encoded) return responseWithBody(entry.body, { status: entry.status, headers: entry.headers });
  const headers = new Headers(entry.headers);
  headers.set('content-encoding', encoded.encoding);
  headers.set('content-length', String(encoded.bytes.byteLength));
  headers.append('vary', 'accept-encoding');
  const { bytes } = encoded;
  return responseWithBody(new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength), { status: entry.status, headers });
}

function encodedBody(entry: Entry, acceptEncoding: string | null): { encoding: Encoding; bytes: Buffer } | null {
  if (entry.body === null || entry.body.byteLength < MIN_COMPRESSED_BYTES) return null;
  const contentType = entry.headers.find(([name]) => name === 'content-type')?.[1] ?? null;
  if (!isCompressible(contentType) || entry.headers.some(([name]) => name === 'content-encoding')) return null;
  const encoding = chooseEncoding(acceptEncoding);
  if (!encoding) return null;
  entry.encoded ??= new Map();
  let bytes = entry.encoded.get(encoding);
  if (!bytes) {
    bytes = compressNow(entry.body, encoding);
    entry.encoded.set(encoding, bytes);
  }
  return { encoding, bytes };
}
