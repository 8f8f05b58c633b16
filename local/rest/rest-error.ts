/**
 * PostgREST's one error shape, {code, details, hint, message}, with its HTTP
 * statuses: the API's own PGRST codes and PostgreSQL's SQLSTATEs mapped the
 * way PostgREST maps them.
 */
export class RestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: unknown = null,
    readonly hint: string | null = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  toJSON() {
    return { code: this.code, details: this.details, hint: this.hint, message: this.message };
  }
}

/** PGRST100: a query string parameter that does not follow the grammar. */
export const parseError = (what: string, details: string) =>
  new RestError(400, 'PGRST100', `"failed to parse ${what}"`, details);

export const columnNotFound = (relation: string, column: string) =>
  new RestError(400, '42703', `column ${relation}.${column} does not exist`);

/** The fields every PostgreSQL error carries through node-postgres and PGlite. */
export interface DatabaseErrorFields {
  code?: string;
  message: string;
  detail?: string;
  hint?: string;
}

export function isDatabaseError(error: unknown): error is DatabaseErrorFields & Error {
  const code = error instanceof Error ? (error as unknown as { code?: unknown }).code : undefined;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);
}

/** PostgREST's table from SQLSTATE to HTTP status; 42501 depends on whether the caller signed in. */
export function statusOfSqlState(code: string, authenticated: boolean): number {
  const custom = /^PT(\d{3})$/.exec(code);
  if (custom) return Number(custom[1]);
  const exact: Record<string, number> = {
    '23503': 409, '23505': 409, '25006': 405, '53400': 500, P0001: 400, '42883': 404, '42P01': 404, '42P17': 500,
  };
  if (code in exact) return exact[code]!;
  if (code === '42501') return authenticated ? 403 : 401;
  const byClass: Record<string, number> = {
    '08': 503, '09': 500, '0L': 403, '0P': 403, '25': 500, '28': 403, '2D': 500, '38': 500, '39': 500, '3B': 500,
    '40': 500, '53': 503, '54': 500, '55': 500, '57': 500, '58': 500, F0: 500, HV: 500, P0: 500, XX: 500,
  };
  return byClass[code.slice(0, 2)] ?? 400;
}

/**
 * SQLSTATE 57014 from a statement past its role's timeout (PostgreSQL's statement_timeout, or PGlite's
 * watchdog): PostgREST's 500 and code, with a message of ours.
 */
export const statementTimedOut = () =>
  new RestError(
    500,
    '57014',
    'The request took longer than its statement timeout allows and was stopped',
    null,
    'Ask for fewer rows or use narrower filters',
  );

export function restErrorOfDatabase(error: DatabaseErrorFields, authenticated: boolean): RestError {
  const code = error.code ?? 'XX000';
  if (code === '57014') return statementTimedOut();
  const status = statusOfSqlState(code, authenticated);
  const headers: Record<string, string> = status === 401 ? { 'WWW-Authenticate': 'Bearer' } : {};
  return new RestError(status, code, error.message, error.detail ?? null, error.hint ?? null, headers);
}

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', '57P01', '57P02', '57P03']);
const CONNECTION_MESSAGES = /Connection terminated|connection error|timeout exceeded when trying to connect|Cannot use a pool after calling end/i;

/** The database could not be reached (PostgreSQL stopped, restarting or gone), as opposed to a failed statement. */
export function isConnectionFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as unknown as { code?: unknown }).code;
  return (typeof code === 'string' && (CONNECTION_CODES.has(code) || code.startsWith('08'))) || CONNECTION_MESSAGES.test(error.message);
}

/** PostgREST's answers when the database cannot be reached: PGRST002 while loading the schema cache, PGRST000 otherwise. */
export function unreachableDatabase(error: Error, loadingSchema: boolean): RestError {
  return loadingSchema
    ? new RestError(503, 'PGRST002', 'Could not query the database for the schema cache. Retrying.', error.message)
    : new RestError(503, 'PGRST000', 'Could not connect with the database', error.message);
}

export function errorResponse(error: RestError): Response {
  return new Response(JSON.stringify(error), {
    status: error.status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...error.headers },
  });
}
