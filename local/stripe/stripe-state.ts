import { randomBytes } from 'node:crypto';
import type { Database, Queryable } from '../db/database.ts';

/**
 * The local Stripe's own schema, created at startup and never part of
 * supabase/migrations: hosted projects use real Stripe. The API objects are
 * kept as JSON documents, so they survive restarts as the database does.
 */
const SCHEMA_SQL = `
create schema if not exists stripe_local;
create table if not exists stripe_local.objects (
  id text primary key,
  object text not null,
  data jsonb not null,
  seq bigserial not null
);
create index if not exists objects_by_type on stripe_local.objects (object, seq);
create table if not exists stripe_local.idempotency_keys (
  key text primary key,
  request text not null,
  status integer not null,
  body jsonb not null,
  created_at timestamptz not null default now()
);
create table if not exists stripe_local.deliveries (
  id bigserial primary key,
  event_id text not null,
  url text not null,
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  delivered_at timestamptz,
  failed_at timestamptz,
  last_status integer,
  last_error text,
  unique (event_id, url)
);
create table if not exists stripe_local.clock (
  singleton boolean primary key default true check (singleton),
  offset_seconds bigint not null default 0
);
insert into stripe_local.clock (singleton) values (true) on conflict do nothing;
`;

/** An API object as stored: Stripe's fields, plus what only the local endpoint needs under `_local`. */
export interface StoredObject {
  id: string;
  object: string;
  created: number;
  _local?: Record<string, unknown>;
  [field: string]: unknown;
}

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** An id in Stripe's style: prefix, underscore, 24 letters and digits. */
export function newId(prefix: string): string {
  return `${prefix}_${[...randomBytes(24)].map((byte) => ALPHABET[byte % ALPHABET.length]).join('')}`;
}

/** An object without its local bookkeeping (a mapped type keeps both the named fields and the index signature). */
export type PublicView<T> = { [K in keyof T as K extends '_local' ? never : K]: T[K] };

/** The object as the API answers it: without the local bookkeeping. */
export function publicView<T extends StoredObject>(stored: T): PublicView<T> {
  const { _local: _omitted, ...visible } = stored;
  return visible as unknown as PublicView<T>;
}

export interface StripeState {
  db: Database;
  /** The endpoint's clock in Unix seconds: real time plus what the test clock advanced. */
  now(): number;
  advanceClock(seconds: number): Promise<number>;
  get<T extends StoredObject>(id: string, object?: string): Promise<T | null>;
  /** Writes objects and queues webhook deliveries of events in one transaction: all of a change or none of it. */
  save(objects: StoredObject[], deliveries?: { eventId: string; url: string }[]): Promise<void>;
  /** Objects of a type, newest first. */
  list<T extends StoredObject>(object: string, where?: (value: T) => boolean): Promise<T[]>;
  /** Runs changes one at a time, so that each sees the results of the one before. */
  serialized<T>(fn: () => Promise<T>): Promise<T>;
}

export async function openStripeState(db: Database): Promise<StripeState> {
  await db.exec(SCHEMA_SQL);
  let offset = Number((await db.query<{ offset_seconds: string }>('select offset_seconds from stripe_local.clock')).rows[0]?.offset_seconds ?? 0);
  let queue: Promise<unknown> = Promise.resolve();

  const state: StripeState = {
    db,
    now: () => Math.floor(Date.now() / 1000) + offset,
    async advanceClock(seconds) {
      const { rows } = await db.query<{ offset_seconds: string }>(
        'update stripe_local.clock set offset_seconds = offset_seconds + $1 where singleton returning offset_seconds',
        [seconds],
      );
      offset = Number(rows[0]!.offset_seconds);
      return state.now();
    },
    async get<T extends StoredObject>(id: string, object?: string) {
      const { rows } = await db.query<{ data: T; object: string }>('select data, object from stripe_local.objects where id = $1', [id]);
      const row = rows[0];
      if (!row || (object && row.object !== object)) return null;
      return row.data;
    },
    async save(objects, deliveries = []) {
      await db.transaction(async (tx: Queryable) => {
        for (const value of objects) {
          await tx.query(
            `insert into stripe_local.objects (id, object, data) values ($1, $2, $3)
             on conflict (id) do update set data = excluded.data`,
            [value.id, value.object, JSON.stringify(value)],
          );
        }
        for (const delivery of deliveries) {
          await tx.query('insert into stripe_local.deliveries (event_id, url) values ($1, $2) on conflict do nothing', [delivery.eventId, delivery.url]);
        }
      });
    },
    async list<T extends StoredObject>(object: string, where: (value: T) => boolean = () => true) {
      const { rows } = await db.query<{ data: T }>('select data from stripe_local.objects where object = $1 order by seq desc', [object]);
      return rows.map((row) => row.data).filter(where);
    },
    serialized<T>(fn: () => Promise<T>) {
      const run = queue.then(fn, fn);
      queue = run.catch(() => undefined);
      return run;
    },
  };
  return state;
}
