import type { Queryable } from '../db/database.ts';

/** A row of auth.users as the auth service reads it (timestamps as PostgreSQL prints them). */
export interface UserRow {
  id: string;
  aud: string | null;
  role: string | null;
  email: string | null;
  encrypted_password: string | null;
  email_confirmed_at: string | null;
  confirmation_sent_at: string | null;
  recovery_sent_at: string | null;
  email_change: string | null;
  email_change_sent_at: string | null;
  last_sign_in_at: string | null;
  raw_app_meta_data: Record<string, unknown>;
  raw_user_meta_data: Record<string, unknown>;
  created_at: string;
  updated_at: string;
  phone: string | null;
  phone_confirmed_at: string | null;
  is_anonymous: boolean;
  banned: boolean;
}

interface IdentityRow {
  id: string;
  provider_id: string;
  user_id: string;
  identity_data: Record<string, unknown>;
  provider: string;
  last_sign_in_at: string | null;
  created_at: string;
  updated_at: string;
  email: string | null;
}

/** The user as Supabase Auth returns it (auth-js's User). */
export interface AuthUser {
  id: string;
  aud: string;
  role: string;
  email: string;
  phone: string;
  email_confirmed_at?: string;
  confirmed_at?: string;
  confirmation_sent_at?: string;
  recovery_sent_at?: string;
  new_email?: string;
  email_change_sent_at?: string;
  last_sign_in_at?: string;
  app_metadata: Record<string, unknown>;
  user_metadata: Record<string, unknown>;
  identities: AuthIdentity[];
  created_at: string;
  updated_at: string;
  is_anonymous: boolean;
}

export interface AuthIdentity {
  identity_id: string;
  id: string;
  user_id: string;
  identity_data: Record<string, unknown>;
  provider: string;
  last_sign_in_at?: string;
  created_at: string;
  updated_at: string;
  email?: string;
}

const USER_COLUMNS = `id, aud, role, email, encrypted_password, email_confirmed_at, confirmation_sent_at, recovery_sent_at,
  email_change, email_change_sent_at, last_sign_in_at, raw_app_meta_data, raw_user_meta_data, created_at, updated_at,
  phone, phone_confirmed_at, is_anonymous, coalesce(banned_until > now(), false) as banned`;

/** Email addresses are compared and stored in lower case, as Supabase Auth does. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export async function findUserById(q: Queryable, id: string, options: { lock?: boolean } = {}): Promise<UserRow | null> {
  const { rows } = await q.query<UserRow>(
    `select ${USER_COLUMNS} from auth.users where id = $1 and deleted_at is null${options.lock ? ' for update' : ''}`,
    [id],
  );
  return rows[0] ?? null;
}

export async function findUserByEmail(q: Queryable, email: string, options: { lock?: boolean } = {}): Promise<UserRow | null> {
  const { rows } = await q.query<UserRow>(
    `select ${USER_COLUMNS} from auth.users
      where lower(email) = $1 and is_sso_user = false and deleted_at is null${options.lock ? ' for update' : ''}`,
    [normalizeEmail(email)],
  );
  return rows[0] ?? null;
}

/** PostgreSQL's text timestamps ('2026-01-02 03:04:05.678+00') as ISO 8601 in UTC. */
export function isoTimestamp(value: string): string;
export function isoTimestamp(value: string | null | undefined): string | undefined;
export function isoTimestamp(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  const match = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2}(?:\.\d+)?)([+-]\d{2})(?::?(\d{2}))?(?::?(\d{2}))?$/.exec(value);
  if (!match) return new Date(value).toISOString();
  const [, date, time, hours, minutes] = match;
  return new Date(`${date}T${time}${hours}:${minutes ?? '00'}`).toISOString();
}

export const isConfirmed = (user: UserRow) => user.email_confirmed_at !== null || user.phone_confirmed_at !== null;

async function identitiesOf(q: Queryable, userId: string): Promise<AuthIdentity[]> {
  const { rows } = await q.query<IdentityRow>(
    `select id, provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at, email
       from auth.identities where user_id = $1 order by created_at, id`,
    [userId],
  );
  return rows.map((row) => ({
    identity_id: row.id,
    id: row.provider_id,
    user_id: row.user_id,
    identity_data: row.identity_data,
    provider: row.provider,
    last_sign_in_at: isoTimestamp(row.last_sign_in_at),
    created_at: isoTimestamp(row.created_at),
    updated_at: isoTimestamp(row.updated_at),
    email: row.email ?? undefined,
  }));
}

export async function authUser(q: Queryable, user: UserRow): Promise<AuthUser> {
  const confirmedAt = user.email_confirmed_at ?? user.phone_confirmed_at;
  return {
    id: user.id,
    aud: user.aud ?? 'authenticated',
    role: user.role ?? 'authenticated',
    email: user.email ?? '',
    email_confirmed_at: isoTimestamp(user.email_confirmed_at),
    phone: user.phone ?? '',
    confirmation_sent_at: isoTimestamp(user.confirmation_sent_at),
    confirmed_at: isoTimestamp(confirmedAt),
    recovery_sent_at: isoTimestamp(user.recovery_sent_at),
    new_email: user.email_change || undefined,
    email_change_sent_at: user.email_change ? isoTimestamp(user.email_change_sent_at) : undefined,
    last_sign_in_at: isoTimestamp(user.last_sign_in_at),
    app_metadata: user.raw_app_meta_data,
    user_metadata: user.raw_user_meta_data,
    identities: await identitiesOf(q, user.id),
    created_at: isoTimestamp(user.created_at),
    updated_at: isoTimestamp(user.updated_at),
    is_anonymous: user.is_anonymous,
  };
}

/** Adds a provider to app_metadata.providers (and sets provider when there was none). */
export async function addProvider(q: Queryable, userId: string, provider: string): Promise<void> {
  await q.query(
    `update auth.users
        set raw_app_meta_data = raw_app_meta_data
              || jsonb_build_object('provider', coalesce(raw_app_meta_data ->> 'provider', $2::text))
              || jsonb_build_object('providers', (
                   select coalesce(jsonb_agg(distinct p order by p), '[]'::jsonb)
                     from jsonb_array_elements_text(coalesce(raw_app_meta_data -> 'providers', '[]'::jsonb) || to_jsonb($2::text)) p)),
            updated_at = now()
      where id = $1`,
    [userId, provider],
  );
}

export async function createIdentity(
  q: Queryable,
  identity: { userId: string; provider: string; providerId: string; data: Record<string, unknown>; signedIn?: boolean },
): Promise<void> {
  await q.query(
    `insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at)
     values ($1, $2, $3, $4, case when $5 then now() end)`,
    [identity.providerId, identity.userId, JSON.stringify(identity.data), identity.provider, identity.signedIn ?? false],
  );
}

/** Merges keys into an identity's data (the email identity follows email changes and confirmation). */
export async function updateIdentityData(q: Queryable, userId: string, provider: string, data: Record<string, unknown>): Promise<void> {
  await q.query(
    `update auth.identities set identity_data = identity_data || $3::jsonb, updated_at = now()
      where user_id = $1 and provider = $2`,
    [userId, provider, JSON.stringify(data)],
  );
}
