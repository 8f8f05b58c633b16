import type { Database, Queryable } from '../../local/db/database.ts';

/** Who makes a request: the API roles as the local stack and PostgREST set them. */
export type Actor =
  | { role: 'anon' }
  | { role: 'authenticated'; id: string; email?: string }
  | { role: 'service_role' };

export const anon: Actor = { role: 'anon' };
export const serviceRole: Actor = { role: 'service_role' };
export const userActor = (user: { id: string; email?: string }): Actor => ({ role: 'authenticated', id: user.id, email: user.email });

export function claimsOf(actor: Actor): Record<string, unknown> {
  if (actor.role === 'authenticated') {
    return { sub: actor.id, role: 'authenticated', aud: 'authenticated', email: actor.email ?? null };
  }
  return { role: actor.role };
}

/** Switches the current transaction to the actor's role and claims, as each API request does. */
export async function becomeIn(tx: Queryable, actor: Actor): Promise<void> {
  await tx.query(`select set_config('request.jwt.claims', $1, true), set_config('role', $2, true)`, [
    JSON.stringify(claimsOf(actor)),
    actor.role,
  ]);
}

/** Runs fn in its own transaction as the actor; committed when it resolves. */
export function as<T>(db: Database, actor: Actor, fn: (q: Queryable) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await becomeIn(tx, actor);
    return fn(tx);
  });
}

/** Shorthand: one query as the actor, returning its rows. */
export async function queryAs<T = Record<string, unknown>>(
  db: Database,
  actor: Actor,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  return as(db, actor, async (q) => (await q.query<T>(sql, params)).rows);
}

export interface PgErrorShape {
  code?: string;
  detail?: string;
  constraint?: string;
  message?: string | RegExp;
}

/** Awaits a promise that must fail with a PostgreSQL error of this shape, and returns the error. */
export async function expectPgError(promise: Promise<unknown>, shape: PgErrorShape): Promise<Error> {
  let error: (Error & { code?: string; detail?: string; constraint?: string }) | undefined;
  try {
    await promise;
  } catch (caught) {
    error = caught as typeof error;
  }
  if (!error) throw new Error(`Expected a database error ${JSON.stringify(shape)}, but the call succeeded`);
  const mismatch = (field: string, want: unknown, got: unknown) =>
    new Error(`Expected error ${field} ${String(want)}, got ${String(got)} (${error?.message})`);
  if (shape.code && error.code !== shape.code) throw mismatch('code', shape.code, error.code);
  if (shape.detail && error.detail !== shape.detail) throw mismatch('detail', shape.detail, error.detail);
  if (shape.constraint && error.constraint !== shape.constraint) throw mismatch('constraint', shape.constraint, error.constraint);
  if (typeof shape.message === 'string' && error.message !== shape.message) throw mismatch('message', shape.message, error.message);
  if (shape.message instanceof RegExp && !shape.message.test(error.message)) throw mismatch('message', shape.message, error.message);
  return error;
}
