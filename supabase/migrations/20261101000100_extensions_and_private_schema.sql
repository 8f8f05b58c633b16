-- Extensions live in their own schema, as on hosted Supabase.
create extension if not exists pg_trgm with schema extensions;
create extension if not exists pgcrypto with schema extensions;

-- Internal helpers and server-only state. Not exposed by the API (only public is),
-- and no API role may use it.
create schema if not exists private;
revoke all on schema private from public, anon, authenticated;

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
