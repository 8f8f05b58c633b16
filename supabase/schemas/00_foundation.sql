-- What every other file builds on: the extensions (in their own schema, as on hosted Supabase), the private
-- schema that no API role may use, server-only settings (the cursor and image-link secrets with their HMAC pads),
-- the versions of anonymous answers the local stack caches, and small helpers (names, timestamps, base64url, HMAC).

-- Function bodies may name tables of later files: they are checked when called, not when created.
set check_function_bodies = false;

-- Extensions live in their own schema, as on hosted Supabase.
create extension if not exists pg_trgm with schema extensions;
create extension if not exists pgcrypto with schema extensions;
create extension if not exists unaccent with schema extensions;
create extension if not exists cube with schema extensions;
create extension if not exists btree_gin with schema extensions;
-- rum where the server has it (hosted Supabase, Debian's postgresql-15-rum; not PGlite): the search reads its words
-- from a rum index there (60_listing.sql, docs/decisions/0071).
do $$
begin
  if exists (select 1 from pg_catalog.pg_available_extensions where name = 'rum') then
    create extension if not exists rum with schema extensions;
  end if;
end
$$;

-- Internal helpers and server-only state. Not exposed by the API (only public is),
-- and no API role may use it.
create schema if not exists private;
revoke all on schema private from public, anon, authenticated;

create table private.settings (
  key text primary key,
  value text not null,
  hmac_pads bytea not null
);

-- Versions of what anonymous visitors are answered, for the local stack's
-- rest/v1 cache of anonymous function calls. A row names a function of the
-- public schema whose answer to an anonymous caller depends only on the rows
-- of the tables listed below; every statement that writes one of those tables
-- bumps the version in the same transaction, so an answer cached under an
-- older version is never served again once the write commits. Nothing reads
-- this on hosted Supabase (PostgREST has no such cache); it costs one row
-- update per writing statement.
create table private.anonymous_answer_versions (
  function_name text primary key,
  version bigint not null default 0
);

-- Trims and collapses whitespace in a `name` column before a check constraint sees it.
create or replace function private.normalize_name() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.name := btrim(regexp_replace(coalesce(new.name, ''), '\s+', ' ', 'g'));
  return new;
end;
$$;

-- Keeps updated_at honest on tables that have it.
create or replace function private.touch_updated_at() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end;
$$;

create or replace function private.iso_utc(p_at timestamptz) returns text
language sql immutable
set search_path = ''
as $$
  select to_char(p_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
$$;

create or replace function private.base64url_encode(p_data bytea) returns text
language sql immutable
set search_path = ''
as $$
  select translate(encode(p_data, 'base64'), E'+/=\n', '-_')
$$;

create or replace function private.base64url_decode(p_text text) returns bytea
language sql immutable
set search_path = ''
as $$
  select decode(rpad(translate(p_text, '-_', '+/'), ((char_length(p_text) + 3) / 4) * 4, '='), 'base64')
$$;

-- HMAC-SHA256 (RFC 2104) of p_data under p_key: the key's pads, then the two hashes (hmac_sha256_with_pads).
create or replace function private.hmac_sha256(p_data bytea, p_key bytea) returns bytea
language sql immutable strict parallel safe
set search_path = ''
as $$
  select private.hmac_sha256_with_pads(p_data, private.hmac_pads(p_key))
$$;
revoke all on function private.hmac_sha256(p_data bytea, p_key bytea) from public;

create or replace function private.bump_anonymous_answer_version() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update private.anonymous_answer_versions set version = version + 1 where function_name = tg_argv[0];
  return null;
end;
$$;
revoke all on function private.bump_anonymous_answer_version() from public;

-- The 128 bytes (K xor ipad) || (K xor opad), K being the key padded with
-- zeros to the 64-byte block (hashed first when longer).
create or replace function private.hmac_pads(p_key bytea) returns bytea
language plpgsql immutable strict parallel safe
set search_path = ''
as $$
declare
  v_key bytea := case when length(p_key) > 64 then sha256(p_key) else p_key end;
  v_hex text;
  v_inner text;
  v_outer text;
begin
  v_hex := encode(v_key, 'hex') || repeat('00', 64 - length(v_key));
  -- XOR eight bytes at a time: each 16-digit hex chunk as a 64-bit integer.
  -- 3906369333256140342 = 0x3636363636363636 (ipad), 6655295901103053916 = 0x5c5c5c5c5c5c5c5c (opad).
  select string_agg(lpad(to_hex(('x' || substr(v_hex, 1 + 16 * j, 16))::bit(64)::bigint # 3906369333256140342), 16, '0'), '' order by j),
         string_agg(lpad(to_hex(('x' || substr(v_hex, 1 + 16 * j, 16))::bit(64)::bigint # 6655295901103053916), 16, '0'), '' order by j)
    into v_inner, v_outer
    from generate_series(0, 7) as j;
  return decode(v_inner || v_outer, 'hex');
end;
$$;
revoke all on function private.hmac_pads(p_key bytea) from public;

-- HMAC-SHA-256 of p_data under the pads private.hmac_pads gave for a key.
create or replace function private.hmac_sha256_with_pads(p_data bytea, p_pads bytea) returns bytea
language sql immutable strict parallel safe
set search_path = ''
as $$
  select sha256(substring(p_pads from 65 for 64) || sha256(substring(p_pads from 1 for 64) || p_data))
$$;
revoke all on function private.hmac_sha256_with_pads(p_data bytea, p_pads bytea) from public;

-- True when an array holds a value twice (nulls are refused separately).
create or replace function private.has_duplicates(p_values text[]) returns boolean
language sql immutable parallel safe
set search_path = ''
as $$
  select (select count(v) from unnest(p_values) v) <> (select count(distinct v) from unnest(p_values) v)
$$;

-- The last calendar day that has begun somewhere on Earth (UTC+14): a date
-- after it is in the future for everyone.
create or replace function private.latest_today() returns date
language sql stable parallel safe
set search_path = ''
as $$
  select ((now() at time zone 'UTC') + interval '14 hours')::date
$$;

create function private.settings_write_pads() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.hmac_pads := private.hmac_pads(convert_to(new.value, 'UTF8'));
  return new;
end;
$$;
revoke all on function private.settings_write_pads() from public;

create trigger settings_bump_list_ads_version after insert or update or delete or truncate on private.settings
  for each statement execute function private.bump_anonymous_answer_version('list_ads');

create trigger settings_write_pads before insert or update of value, hmac_pads on private.settings
  for each row execute function private.settings_write_pads();



alter table private.anonymous_answer_versions enable row level security;
revoke all on table private.anonymous_answer_versions from public, anon, authenticated;

insert into private.settings (key, value) values
  ('cursor_secret', encode(extensions.gen_random_bytes(32), 'hex')),
  ('image_link_secret', encode(extensions.gen_random_bytes(32), 'hex'))
on conflict (key) do nothing;

insert into private.anonymous_answer_versions (function_name) values ('list_ads') on conflict do nothing;
