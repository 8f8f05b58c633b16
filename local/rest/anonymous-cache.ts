import type { AccessClaims } from '../auth/jwt.ts';
import type { Database } from '../db/database.ts';
import { isDatabaseError } from './rest-error.ts';

/**
 * Answers to anonymous function calls, kept while the database says they
 * still hold. The database declares which functions qualify in
 * private.anonymous_answer_versions (name, version): a function listed there
 * answers an anonymous caller from the rows of tables whose every writing
 * statement bumps its version in the same transaction. Each request reads the
 * versions (one small query) before anything else, so an answer is served
 * only while no write has committed since it was computed; an answer computed
 * while a write commits is stored under the version read before it, which the
 * next request already finds outdated. Answers were made by running the call
 * as the same anonymous claims under row-level security; the key holds those
 * claims, the call and every header that shapes the answer.
 *
 * Answers also hold signed image links, cut per window of time by the
 * database (private.image_link_window_start): the version read carries the
 * current window, so no answer outlives the window its links were signed in.
 *
 * A database without the table (or where the API's login cannot read it)
 * simply has no cache.
 */
const VERSIONS_SQL = `select function_name, version::text || '@' || private.image_link_window_start(now())::text as version
                        from private.anonymous_answer_versions`;
const MAX_ENTRIES = 256;
const MAX_BODY_CHARS = 2_000_000;
/** Headers that change an answer besides the method, path, query and body. */
const KEY_HEADERS = ['accept', 'accept-profile', 'content-profile', 'content-type', 'prefer', 'range'];

interface VersionRow {
  function_name: string;
  version: string;
}

interface Entry {
  version: string;
  status: number;
  headers: [string, string][];
  body: string | null;
}

export class AnonymousAnswerCache {
  private readonly entries = new Map<string, Entry>();
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
    this.disabled = false;
    this.names = null;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Whether a call of this function by this caller may be answered from the cache at all. */
  applies(claims: AccessClaims, functionName: string): boolean {
    return !this.disabled && claims.role === 'anon' && (this.names === null || this.names.has(functionName));
  }

  /** The function's current version, or null when it has none (or the cache is off). */
  async versionOf(functionName: string): Promise<string | null> {
    let rows: VersionRow[];
    try {
      rows = await this.readVersions();
    } catch (error) {
      // No such table or schema, or no right to read it: this database has no cache.
      if (isDatabaseError(error) && ['42P01', '3F000', '42501'].includes(error.code!)) {
        this.disabled = true;
        this.entries.clear();
        return null;
      }
      throw error;
    }
    this.names = new Set(rows.map((row) => row.function_name));
    return rows.find((row) => row.function_name === functionName)?.version ?? null;
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

  static key(claims: AccessClaims, request: Request, url: URL, body: string): string {
    const headers = KEY_HEADERS.map((name) => request.headers.get(name) ?? '');
    return JSON.stringify([claims, request.method, url.pathname, url.search, headers, body]);
  }

  /**
   * The cached answer under this version, or compute() run once for all the
   * requests asking at the same time, kept when it succeeded.
   */
  async answer(key: string, version: string, compute: () => Promise<Response>): Promise<Response> {
    const cached = this.entries.get(key);
    if (cached && cached.version === version) return responseOf(cached);
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
      const body = response.body === null ? null : await response.text();
      const entry: Entry = { version, status: response.status, headers: [...response.headers], body };
      if (body === null || body.length <= MAX_BODY_CHARS) this.store(key, entry);
      settle(entry);
      return responseOf(entry);
    } catch (error) {
      settle(null);
      throw error;
    } finally {
      this.computing.delete(flightKey);
    }
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

function responseOf(entry: Entry): Response {
  return new Response(entry.body, { status: entry.status, headers: entry.headers });
}
