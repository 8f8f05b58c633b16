-- The baseline: the whole schema as supabase/schemas declared it on 2026-12-02, when the migrations before it
-- (20261101000100_extensions_and_private_schema to 20261218000100_list_ads_keeps_its_plans) were squashed into
-- this one file. Each part below is a copy of one file of supabase/schemas, in their order. From here on, a change
-- is made in supabase/schemas and in a new migration that takes a database from this state to the new one
-- (supabase/README.md); this file is never edited.

-- ==========================================================================================
-- supabase/schemas/00_foundation.sql
-- ==========================================================================================

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

-- ==========================================================================================
-- supabase/schemas/10_accounts.sql
-- ==========================================================================================

-- Accounts: a profile per auth user, kept from the user's metadata by triggers on auth.users, and the admin grant,
-- a row that only the database owner writes (`npm run admin`, seeding), never an API role.

-- Function bodies may name tables of later files: they are checked when called, not when created.
set check_function_bodies = false;

-- Admin is a server-side role: a row here, written only by the database owner
-- (`npm run admin`, seeding), never by an API role.
create table public.admin_users (
  user_id uuid primary key references auth.users (id) on delete cascade,
  granted_at timestamp with time zone not null default now()
);

create table public.profiles (
  user_id uuid primary key references auth.users (id) on delete cascade,
  full_name text,
  avatar_url text,
  black_friday_access boolean not null default false,
  created_at timestamp with time zone not null default now(),
  updated_at timestamp with time zone not null default now()
);

create or replace function public.is_admin() returns boolean
language sql stable
security definer
set search_path = ''
as $$
  select exists (select 1 from public.admin_users where user_id = (select auth.uid()))
$$;
revoke all on function public.is_admin() from public;

-- Used by the `npm run admin` command and by seeding, never through the API.
create or replace function private.set_admin(p_email text, p_grant boolean) returns uuid
language plpgsql
set search_path = ''
as $$
declare
  v_user_id uuid;
begin
  if nullif(btrim(p_email), '') is null then
    raise exception 'An email is required' using errcode = '22023', detail = 'email_required';
  end if;
  -- A missing flag must not silently revoke.
  if p_grant is null then
    raise exception 'Say whether to grant or revoke admin' using errcode = '22023', detail = 'grant_required';
  end if;
  select id into v_user_id from auth.users where lower(email) = lower(btrim(p_email));
  if v_user_id is null then
    raise exception 'No user with email %', p_email using errcode = 'PT404', detail = 'user_not_found';
  end if;
  if p_grant then
    insert into public.admin_users (user_id) values (v_user_id) on conflict do nothing;
  else
    delete from public.admin_users where user_id = v_user_id;
  end if;
  return v_user_id;
end;
$$;

create or replace function private.full_name_from_metadata(p_meta jsonb) returns text
language sql immutable
set search_path = ''
as $$
  -- 200 characters at most: the metadata is the user's to write.
  select left(nullif(btrim(coalesce(
    nullif(btrim(p_meta ->> 'full_name'), ''),
    nullif(btrim(concat_ws(' ', nullif(btrim(p_meta ->> 'first_name'), ''), nullif(btrim(p_meta ->> 'last_name'), ''))), ''),
    nullif(btrim(p_meta ->> 'name'), ''),
    nullif(btrim(p_meta ->> 'display_name'), '')
  )), ''), 200)
$$;

-- Users write their own metadata, so only a plain http(s) address becomes an avatar.
create or replace function private.avatar_from_metadata(p_meta jsonb) returns text
language sql immutable
set search_path = ''
as $$
  select url from (values (1, p_meta ->> 'avatar_url'), (2, p_meta ->> 'picture'), (3, p_meta ->> 'image')) as m (rank, url)
   where url ~* '^https?://[^\s"''<>]+$' and char_length(url) <= 2048
   order by rank
   limit 1
$$;

create or replace function private.create_profile_for_new_user() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.profiles (user_id, full_name, avatar_url)
  values (new.id, private.full_name_from_metadata(new.raw_user_meta_data), private.avatar_from_metadata(new.raw_user_meta_data))
  on conflict (user_id) do nothing;
  return new;
end;
$$;

create or replace function private.sync_profile_from_metadata() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.profiles
     set full_name = private.full_name_from_metadata(new.raw_user_meta_data),
         avatar_url = private.avatar_from_metadata(new.raw_user_meta_data)
   where user_id = new.id;
  return new;
end;
$$;

create or replace function private.require_admin() returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not public.is_admin() then
    raise exception 'This operation requires admin privileges.' using errcode = '42501', detail = 'admin_required';
  end if;
end;
$$;

create trigger profiles_touch before update on public.profiles
  for each row execute function private.touch_updated_at();

create trigger on_auth_user_created after insert on auth.users
  for each row execute function private.create_profile_for_new_user();

create trigger on_auth_user_metadata_updated after update of raw_user_meta_data on auth.users
  for each row when (old.raw_user_meta_data is distinct from new.raw_user_meta_data)
  execute function private.sync_profile_from_metadata();

alter table public.admin_users enable row level security;
revoke all on table public.admin_users from authenticated, service_role, anon;
grant select on table public.admin_users to authenticated, service_role;

create policy "admin_users: a user sees their own grant"
  on public.admin_users for select to authenticated
  using (user_id = (select auth.uid()));

alter table public.profiles enable row level security;
revoke all on table public.profiles from authenticated, anon;
grant select on table public.profiles to authenticated;

create policy "profiles: a user reads their own" on public.profiles for select to authenticated
  using (user_id = (select auth.uid()));
create policy "profiles: admins read all" on public.profiles for select to authenticated
  using ((select public.is_admin()));

-- ==========================================================================================
-- supabase/schemas/20_billing_and_entitlement.sql
-- ==========================================================================================

-- Billing and the access rule. Stripe's customers, subscriptions and processed webhook events (written only by the
-- service role through apply_stripe_event), the holders that make one trial per person, and the functions that decide
-- whether a user may see premium ads clear: has_valid_access and its private helpers. Every paywall decision in the
-- other files goes through them.

-- Function bodies may name tables of later files: they are checked when called, not when created.
set check_function_bodies = false;

create table public.billing_customers (
  user_id uuid primary key references auth.users (id) on delete cascade,
  stripe_customer_id text not null unique,
  created_at timestamp with time zone not null default now()
);

create table public.subscriptions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  stripe_customer_id text not null,
  stripe_subscription_id text not null unique,
  status text not null,
  tier text not null,
  price_id text not null,
  current_period_end timestamp with time zone,
  cancel_at_period_end boolean not null default false,
  trial_end timestamp with time zone,
  -- Stripe's event.created of the last applied event: an older event never overwrites a newer one.
  stripe_event_created bigint not null default 0,
  created_at timestamp with time zone not null default now(),
  updated_at timestamp with time zone not null default now(),
  constraint subscriptions_status_known check (status in (
    'trialing', 'active', 'past_due', 'canceled', 'unpaid', 'incomplete', 'incomplete_expired', 'paused')),
  constraint subscriptions_tier_known check (tier in ('monthly', 'annual'))
);

create table public.processed_webhook_events (
  event_id text primary key,
  type text not null,
  processed_at timestamp with time zone not null default now()
);

create table public.subscription_holders (
  -- 'account': holder is the user id; 'customer': the Stripe customer id; 'card': the card's fingerprint.
  kind text not null,
  holder text not null,
  -- The user whose subscription first used the holder; kept (as null) when the account is deleted.
  user_id uuid references auth.users (id) on delete set null,
  first_subscription_id text not null,
  first_seen_at timestamp with time zone not null default now(),
  constraint subscription_holders_pkey primary key (kind, holder),
  constraint subscription_holders_holder_given check (holder <> '' and first_subscription_id <> ''),
  constraint subscription_holders_kind_known check (kind in ('account', 'customer', 'card'))
);

-- Does one subscription row grant access at p_now? A trial grants access until
-- it ends; an active subscription until its period ends, plus two days of grace
-- for a late renewal event unless it is set to cancel at period end. Stripe
-- marks a subscription 'canceled' only once it has ended (at its period end, or
-- at once for an immediate cancel), so 'canceled' and the unpaid states grant
-- nothing, whatever period end was recorded.
create or replace function private.subscription_grants_access(
  p_status text, p_current_period_end timestamptz, p_cancel_at_period_end boolean, p_trial_end timestamptz, p_now timestamptz
) returns boolean
language sql stable
set search_path = ''
as $$
  select case p_status
    when 'trialing' then coalesce(p_trial_end, p_current_period_end, 'infinity'::timestamptz) > p_now
    when 'active' then case
      when p_cancel_at_period_end then coalesce(p_current_period_end, 'infinity'::timestamptz) > p_now
      else coalesce(p_current_period_end, 'infinity'::timestamptz) + interval '2 days' > p_now
    end
    else false
  end
$$;

create or replace function private.user_has_subscription_access(p_user_id uuid) returns boolean
language plpgsql stable
set search_path = ''
as $$
begin
  return exists (
    select 1 from public.subscriptions s
    where s.user_id = p_user_id
      and private.subscription_grants_access(s.status, s.current_period_end, s.cancel_at_period_end, s.trial_end, now()));
end;
$$;

create or replace function public.has_valid_access() returns boolean
language plpgsql stable
security definer
set search_path = ''
as $$
begin
  return private.user_has_valid_access((select auth.uid()));
end;
$$;
revoke all on function public.has_valid_access() from public;

-- Records a Stripe event (when p_event_id is given) and applies a subscription
-- snapshot, unless the event was processed before ('duplicate') or the row
-- already holds the state of a later event ('stale'). A snapshot without an
-- event (the functions' own API answers) always applies and keeps the stored
-- event time. Answers 'applied', 'stale', 'duplicate', 'recorded' (an event
-- without a snapshot) or 'unknown_user' (the user was deleted meanwhile).
create function public.apply_stripe_event(
  p_event_id text,
  p_event_type text,
  p_event_created bigint,
  p_subscription jsonb
) returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user_id uuid;
  v_status text;
  v_tier text;
  v_changed integer;
begin
  if p_event_id is not null then
    if p_event_id = '' or coalesce(p_event_type, '') = '' or p_event_created is null or p_event_created < 0 then
      raise exception 'A Stripe event needs an id, a type and a creation time' using errcode = '22023', detail = 'invalid_stripe_event';
    end if;
    insert into public.processed_webhook_events (event_id, type) values (p_event_id, p_event_type)
      on conflict (event_id) do nothing;
    if not found then
      return 'duplicate';
    end if;
  elsif p_subscription is null then
    raise exception 'Give a Stripe event, a subscription state or both' using errcode = '22023', detail = 'invalid_stripe_event';
  end if;

  if p_subscription is null then
    return 'recorded';
  end if;

  if jsonb_typeof(p_subscription) <> 'object'
     or coalesce(p_subscription ->> 'user_id', '') !~ '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$'
     or coalesce(p_subscription ->> 'stripe_customer_id', '') = ''
     or coalesce(p_subscription ->> 'stripe_subscription_id', '') = ''
     or coalesce(p_subscription ->> 'price_id', '') = '' then
    raise exception 'A subscription state needs a user id, a customer, a subscription and a price'
      using errcode = '22023', detail = 'invalid_subscription_state';
  end if;
  v_status := p_subscription ->> 'status';
  if v_status is null or v_status not in ('trialing', 'active', 'past_due', 'canceled', 'unpaid', 'incomplete', 'incomplete_expired', 'paused') then
    raise exception 'Unknown subscription status: %', coalesce(v_status, 'none')
      using errcode = '22023', detail = 'unknown_subscription_status';
  end if;
  v_tier := p_subscription ->> 'tier';
  if v_tier is null or v_tier not in ('monthly', 'annual') then
    raise exception 'Unknown subscription tier: %', coalesce(v_tier, 'none') using errcode = '22023', detail = 'unknown_subscription_tier';
  end if;

  v_user_id := (p_subscription ->> 'user_id')::uuid;
  if not exists (select 1 from auth.users u where u.id = v_user_id) then
    return 'unknown_user';
  end if;

  insert into public.billing_customers (user_id, stripe_customer_id)
    values (v_user_id, p_subscription ->> 'stripe_customer_id')
    on conflict do nothing;

  insert into public.subscriptions as s (
    user_id, stripe_customer_id, stripe_subscription_id, status, tier, price_id,
    current_period_end, cancel_at_period_end, trial_end, stripe_event_created
  ) values (
    v_user_id,
    p_subscription ->> 'stripe_customer_id',
    p_subscription ->> 'stripe_subscription_id',
    v_status,
    v_tier,
    p_subscription ->> 'price_id',
    to_timestamp((p_subscription ->> 'current_period_end')::double precision),
    coalesce((p_subscription ->> 'cancel_at_period_end')::boolean, false),
    to_timestamp((p_subscription ->> 'trial_end')::double precision),
    coalesce(p_event_created, 0)
  )
  on conflict (stripe_subscription_id) do update set
    stripe_customer_id = excluded.stripe_customer_id,
    status = excluded.status,
    tier = excluded.tier,
    price_id = excluded.price_id,
    current_period_end = excluded.current_period_end,
    cancel_at_period_end = excluded.cancel_at_period_end,
    trial_end = excluded.trial_end,
    stripe_event_created = greatest(s.stripe_event_created, excluded.stripe_event_created)
  -- Equal times apply: the webhook re-reads the subscription, so the later read is never older.
  where p_event_created is null or s.stripe_event_created <= p_event_created;
  get diagnostics v_changed = row_count;
  return case when v_changed > 0 then 'applied' else 'stale' end;
end;
$$;
revoke all on function public.apply_stripe_event(p_event_id text, p_event_type text, p_event_created bigint, p_subscription jsonb) from public, anon, authenticated;

-- Links a user to their Stripe customer unless they have one already, and
-- answers the customer the user has now (the first one linked wins a race).
create function public.link_billing_customer(p_user_id uuid, p_stripe_customer_id text) returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_customer text;
begin
  if p_user_id is null or coalesce(p_stripe_customer_id, '') = '' then
    raise exception 'A billing customer needs a user id and a Stripe customer id'
      using errcode = '22023', detail = 'invalid_billing_customer';
  end if;
  if not exists (select 1 from auth.users u where u.id = p_user_id) then
    raise exception 'User not found' using errcode = 'PT404', detail = 'user_not_found';
  end if;
  insert into public.billing_customers (user_id, stripe_customer_id) values (p_user_id, p_stripe_customer_id)
    on conflict do nothing;
  select b.stripe_customer_id into v_customer from public.billing_customers b where b.user_id = p_user_id;
  if v_customer is null then
    raise exception 'That Stripe customer belongs to another user' using errcode = 'P0001', detail = 'customer_taken';
  end if;
  return v_customer;
end;
$$;
revoke all on function public.link_billing_customer(p_user_id uuid, p_stripe_customer_id text) from public, anon, authenticated;

-- May this user (with this Stripe customer, when known) still have the trial?
-- Not after any subscription of theirs that started (a trial included), nor
-- when their account or their customer is recorded as a holder.
create function private.trial_available(p_user_id uuid, p_stripe_customer_id text) returns boolean
language sql stable
set search_path = ''
as $$
  select p_user_id is not null
    and not exists (
      select 1 from public.subscriptions s
       where s.user_id = p_user_id and s.status not in ('incomplete', 'incomplete_expired'))
    and not exists (select 1 from public.subscription_holders h where h.user_id = p_user_id)
    and not exists (select 1 from public.subscription_holders h where h.kind = 'account' and h.holder = p_user_id::text)
    and not exists (
      select 1 from public.subscription_holders h
       where h.kind = 'customer'
         and (h.holder = p_stripe_customer_id
              or h.holder in (select c.stripe_customer_id from public.billing_customers c where c.user_id = p_user_id)))
$$;

-- The caller's own eligibility, for check-subscription's answer.
create function public.trial_available() returns boolean
language sql stable
security definer
set search_path = ''
as $$
  select private.trial_available((select auth.uid()), null)
$$;
revoke all on function public.trial_available() from public, anon;

-- Any user's eligibility, for create-checkout (service role), which decides whether to ask Stripe for trial days.
create function public.trial_available_for(p_user_id uuid, p_stripe_customer_id text) returns boolean
language sql stable
security definer
set search_path = ''
as $$
  select private.trial_available(p_user_id, p_stripe_customer_id)
$$;
revoke all on function public.trial_available_for(p_user_id uuid, p_stripe_customer_id text) from public, anon, authenticated;

-- Records the account, the customer and the card (each when given) of a
-- subscription that started, and answers whether any of them had another
-- subscription before: the stripe-webhook function then ends a trial at once.
-- The first subscription to record a holder keeps it, so two subscriptions
-- racing with one card cannot both count as its first.
create function public.record_subscription_holders(
  p_user_id uuid,
  p_stripe_customer_id text,
  p_card_fingerprint text,
  p_stripe_subscription_id text
) returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user_id uuid;
begin
  if coalesce(p_stripe_subscription_id, '') = '' or coalesce(p_stripe_customer_id, '') = '' then
    raise exception 'A subscription holder needs a subscription and a customer'
      using errcode = '22023', detail = 'invalid_subscription_holder';
  end if;
  select u.id into v_user_id from auth.users u where u.id = p_user_id;
  insert into public.subscription_holders (kind, holder, user_id, first_subscription_id)
  select h.kind, h.holder, v_user_id, p_stripe_subscription_id
    from (values
      ('account', v_user_id::text),
      ('customer', p_stripe_customer_id),
      ('card', nullif(p_card_fingerprint, ''))
    ) as h (kind, holder)
   where h.holder is not null
  on conflict (kind, holder) do nothing;
  return exists (
    select 1 from public.subscription_holders h
     where h.first_subscription_id <> p_stripe_subscription_id
       and ((h.kind = 'account' and h.holder = v_user_id::text)
            or (h.kind = 'customer' and h.holder = p_stripe_customer_id)
            or (h.kind = 'card' and h.holder = nullif(p_card_fingerprint, '')))
  ) or exists (
    -- Subscriptions stored before this rule, or whose holder rows were removed.
    select 1 from public.subscriptions s
     where s.user_id = v_user_id and s.stripe_subscription_id <> p_stripe_subscription_id
       and s.status not in ('incomplete', 'incomplete_expired')
  );
end;
$$;
revoke all on function public.record_subscription_holders(p_user_id uuid, p_stripe_customer_id text, p_card_fingerprint text, p_stripe_subscription_id text) from public, anon, authenticated;

create or replace function private.user_has_valid_access(p_user_id uuid) returns boolean
language plpgsql stable
security definer
set search_path = ''
as $$
begin
  return p_user_id is not null
    and (exists (select 1 from public.admin_users a where a.user_id = p_user_id)
         or private.user_has_subscription_access(p_user_id));
end;
$$;
revoke all on function private.user_has_valid_access(p_user_id uuid) from public;

create index subscriptions_user_id on public.subscriptions (user_id);

create index subscription_holders_user_id on public.subscription_holders (user_id);

create trigger subscriptions_touch before update on public.subscriptions
  for each row execute function private.touch_updated_at();

alter table public.billing_customers enable row level security;
revoke all on table public.billing_customers from anon, authenticated;

alter table public.subscriptions enable row level security;
revoke all on table public.subscriptions from authenticated, anon;
grant select on table public.subscriptions to authenticated;

create policy "subscriptions: a user reads their own" on public.subscriptions for select to authenticated
  using (user_id = (select auth.uid()));

alter table public.processed_webhook_events enable row level security;
revoke all on table public.processed_webhook_events from anon, authenticated;

alter table public.subscription_holders enable row level security;
revoke all on table public.subscription_holders from authenticated, anon;
grant select on table public.subscription_holders to authenticated;

create policy "subscription_holders: a user reads their own" on public.subscription_holders for select to authenticated
  using (user_id = (select auth.uid()));

-- ==========================================================================================
-- supabase/schemas/30_catalog.sql
-- ==========================================================================================

-- The catalogue an ad is filed under: brands, categories, types, hooks and tags, and the banners of the pages.
-- Everyone reads them; only admins write. Names are normalised before their checks, a brand or category in use
-- cannot be deleted, and the two system tags (Black Friday, Top Picks) cannot be renamed or removed.

-- Function bodies may name tables of later files: they are checked when called, not when created.
set check_function_bodies = false;

create table public.brands (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  logo_path text,
  created_at timestamp with time zone not null default now(),
  constraint brands_logo_path_format check (logo_path is null or (logo_path ~ '^[A-Za-z0-9][A-Za-z0-9/_.-]*$' and logo_path !~ '\.\.')),
  constraint brands_name_length check (char_length(name) <= 80),
  constraint brands_name_not_empty check (name <> '')
);

create table public.categories (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  created_at timestamp with time zone not null default now(),
  constraint categories_name_length check (char_length(name) <= 80),
  constraint categories_name_not_empty check (name <> '')
);

-- system_key marks the tags that put an ad on a themed board.
create table public.tags (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  system_key text unique,
  created_at timestamp with time zone not null default now(),
  constraint tags_name_length check (char_length(name) <= 80),
  constraint tags_name_not_empty check (name <> ''),
  constraint tags_system_key_known check (system_key is null or system_key in ('black_friday', 'top_picks'))
);

create table public.types (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  created_at timestamp with time zone not null default now(),
  constraint types_name_length check (char_length(name) <= 80),
  constraint types_name_not_empty check (name <> '')
);

-- One banner image per themed page, in the public banners bucket.
create table public.page_banners (
  page text primary key,
  image_path text not null,
  updated_at timestamp with time zone not null default now(),
  constraint page_banners_image_path_format check (image_path ~ '^[A-Za-z0-9][A-Za-z0-9/_.-]*$' and image_path !~ '\.\.'),
  constraint page_banners_page_known check (page in ('library', 'black-friday', 'top-picks'))
);

-- Hooks (angles): a short curated list the admin manages, like categories.
create table public.hooks (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  created_at timestamp with time zone not null default now(),
  constraint hooks_name_length check (char_length(name) <= 80),
  constraint hooks_name_not_empty check (name <> '')
);

-- The themed boards' tags cannot be deleted or lose their meaning.
create or replace function private.protect_system_tags() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op = 'DELETE' and old.system_key is not null then
    raise exception 'The tag "%" drives a themed board and cannot be deleted', old.name
      using errcode = 'P0001', detail = 'system_tag_protected';
  end if;
  if tg_op = 'UPDATE' and new.system_key is distinct from old.system_key then
    raise exception 'A tag''s board role cannot be changed'
      using errcode = 'P0001', detail = 'system_tag_protected';
  end if;
  return case when tg_op = 'DELETE' then old else new end;
end;
$$;

-- A brand or category still used by ads cannot go: the admin is told so by name
-- (the foreign keys restrict as well, for a delete racing an insert).
create or replace function private.refuse_delete_in_use() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_count bigint;
begin
  if tg_table_name = 'brands' then
    select count(*) into v_count from public.ads where brand_id = old.id;
  else
    select count(*) into v_count from public.ads where category_id = old.id;
  end if;
  if v_count > 0 then
    raise exception '"%" is still used by % ad(s); move or delete them first', old.name, v_count
      using errcode = 'P0001', detail = case tg_table_name when 'brands' then 'brand_in_use' else 'category_in_use' end;
  end if;
  return old;
end;
$$;

create unique index brands_name_unique on public.brands (lower(name));

create index brands_name_trgm on public.brands using gin (name extensions.gin_trgm_ops);

create unique index categories_name_unique on public.categories (lower(name));

create index categories_name_trgm on public.categories using gin (name extensions.gin_trgm_ops);

create unique index tags_name_unique on public.tags (lower(name));

create index tags_name_trgm on public.tags using gin (name extensions.gin_trgm_ops);

create unique index types_name_unique on public.types (lower(name));

create unique index hooks_name_unique on public.hooks (lower(name));

create index hooks_name_trgm on public.hooks using gin (name extensions.gin_trgm_ops);

create trigger brands_normalize_name before insert or update of name on public.brands
  for each row execute function private.normalize_name();

create trigger categories_normalize_name before insert or update of name on public.categories
  for each row execute function private.normalize_name();

create trigger tags_normalize_name before insert or update of name on public.tags
  for each row execute function private.normalize_name();

create trigger types_normalize_name before insert or update of name on public.types
  for each row execute function private.normalize_name();

create trigger tags_protect_system before update or delete on public.tags
  for each row execute function private.protect_system_tags();

create trigger brands_refuse_delete_in_use before delete on public.brands
  for each row execute function private.refuse_delete_in_use();

create trigger categories_refuse_delete_in_use before delete on public.categories
  for each row execute function private.refuse_delete_in_use();

create trigger page_banners_touch before update on public.page_banners
  for each row execute function private.touch_updated_at();

create trigger tags_bump_list_ads_version after insert or update or delete or truncate on public.tags
  for each statement execute function private.bump_anonymous_answer_version('list_ads');

create trigger brands_bump_list_ads_version after insert or update or delete or truncate on public.brands
  for each statement execute function private.bump_anonymous_answer_version('list_ads');

create trigger categories_bump_list_ads_version after insert or update or delete or truncate on public.categories
  for each statement execute function private.bump_anonymous_answer_version('list_ads');

create trigger types_bump_list_ads_version after insert or update or delete or truncate on public.types
  for each statement execute function private.bump_anonymous_answer_version('list_ads');

create trigger hooks_normalize_name before insert or update of name on public.hooks
  for each row execute function private.normalize_name();

alter table public.brands enable row level security;
revoke all on table public.brands from anon, authenticated;
grant select on table public.brands to anon;
grant select, delete on table public.brands to authenticated;
grant insert (name, logo_path), update (name, logo_path) on table public.brands to authenticated;

create policy "brands: everyone reads" on public.brands for select to anon, authenticated using (true);
create policy "brands: admins insert" on public.brands for insert to authenticated with check ((select public.is_admin()));
create policy "brands: admins update" on public.brands for update to authenticated using ((select public.is_admin())) with check ((select public.is_admin()));
create policy "brands: admins delete" on public.brands for delete to authenticated using ((select public.is_admin()));

alter table public.categories enable row level security;
revoke all on table public.categories from anon, authenticated;
grant select on table public.categories to anon;
grant select, delete on table public.categories to authenticated;
grant insert (name), update (name) on table public.categories to authenticated;

create policy "categories: everyone reads" on public.categories for select to anon, authenticated using (true);
create policy "categories: admins insert" on public.categories for insert to authenticated with check ((select public.is_admin()));
create policy "categories: admins update" on public.categories for update to authenticated using ((select public.is_admin())) with check ((select public.is_admin()));
create policy "categories: admins delete" on public.categories for delete to authenticated using ((select public.is_admin()));

alter table public.tags enable row level security;
revoke all on table public.tags from anon, authenticated;
grant select on table public.tags to anon;
grant select, delete on table public.tags to authenticated;
grant insert (name), update (name) on table public.tags to authenticated;

create policy "tags: everyone reads" on public.tags for select to anon, authenticated using (true);
create policy "tags: admins insert" on public.tags for insert to authenticated with check ((select public.is_admin()));
create policy "tags: admins update" on public.tags for update to authenticated using ((select public.is_admin())) with check ((select public.is_admin()));
create policy "tags: admins delete" on public.tags for delete to authenticated using ((select public.is_admin()));

alter table public.types enable row level security;
revoke all on table public.types from anon, authenticated;
grant select on table public.types to anon;
grant select, delete on table public.types to authenticated;
grant insert (name), update (name) on table public.types to authenticated;

create policy "types: everyone reads" on public.types for select to anon, authenticated using (true);
create policy "types: admins insert" on public.types for insert to authenticated with check ((select public.is_admin()));
create policy "types: admins update" on public.types for update to authenticated using ((select public.is_admin())) with check ((select public.is_admin()));
create policy "types: admins delete" on public.types for delete to authenticated using ((select public.is_admin()));

alter table public.page_banners enable row level security;
revoke all on table public.page_banners from anon, authenticated;
grant select on table public.page_banners to anon;
grant select, delete on table public.page_banners to authenticated;
grant insert (page, image_path), update (image_path) on table public.page_banners to authenticated;

create policy "page_banners: everyone reads" on public.page_banners for select to anon, authenticated using (true);
create policy "page_banners: admins insert" on public.page_banners for insert to authenticated with check ((select public.is_admin()));
create policy "page_banners: admins update" on public.page_banners for update to authenticated
  using ((select public.is_admin())) with check ((select public.is_admin()));
create policy "page_banners: admins delete" on public.page_banners for delete to authenticated using ((select public.is_admin()));

alter table public.hooks enable row level security;
revoke all on table public.hooks from anon, authenticated;
grant select on table public.hooks to anon;
grant select, delete on table public.hooks to authenticated;
grant insert (name), update (name) on table public.hooks to authenticated;

create policy "hooks: everyone reads" on public.hooks for select to anon, authenticated using (true);
create policy "hooks: admins insert" on public.hooks for insert to authenticated with check ((select public.is_admin()));
create policy "hooks: admins update" on public.hooks for update to authenticated using ((select public.is_admin())) with check ((select public.is_admin()));
create policy "hooks: admins delete" on public.hooks for delete to authenticated using ((select public.is_admin()));

insert into public.tags (name, system_key) values ('Black Friday', 'black_friday'), ('Top Picks', 'top_picks');

-- ==========================================================================================
-- supabase/schemas/40_ads.sql
-- ==========================================================================================

-- The ads and their facts. One row per creative: its catalogue links, its image variants, the facts of the ad
-- (platforms, placement, format, running dates, copy, offer, hook, language, country, the text in the image) with their
-- checks, the card every list shows (kept in `card` by triggers when the ad or its catalogue changes), the tags with
-- the themed boards' flags that follow them, exact counts for the admin table, and the free sample that non-subscribers
-- see clear. The image columns are not readable by API roles: paths reach a caller only through functions that
-- decide whether the caller may see the ad clear (60_listing).

-- Function bodies may name tables of later files: they are checked when called, not when created.
set check_function_bodies = false;

-- Every word's bits of a search document, but those of the period and block words (which begin with '~'). The
-- generated column computes it as the role that writes the row, the admin through the API (authenticated), as
-- ads_running_lag_order's expression does: that role may execute it, and it runs as its owner, since
-- the schema stays closed to that role (so the API cannot name it).
create function private.search_signature(p_vector tsvector) returns bit(256)
language sql immutable strict parallel safe
security definer
set search_path = ''
as $$
  select coalesce(bit_or(private.search_word_bits(w)), repeat('0', 256)::bit(256))
    from unnest(tsvector_to_array(p_vector)) w
   where left(w, 1) <> '~'
$$;
revoke all on function private.search_signature(p_vector tsvector) from public;
grant execute on function private.search_signature(p_vector tsvector) to authenticated, service_role;

create table public.ads (
  id uuid primary key default gen_random_uuid(),
  brand_id uuid not null references public.brands (id) on delete restrict,
  category_id uuid not null references public.categories (id) on delete restrict,
  type_id uuid references public.types (id) on delete set null,
  created_at timestamp with time zone not null default now(),
  requires_subscription boolean not null default true,
  -- Maintained from the themed boards' tags (ad_tags triggers), never written directly.
  is_black_friday boolean not null default false,
  is_top_picks boolean not null default false,
  original_path text not null unique,
  display_480_path text not null unique,
  display_960_path text not null unique,
  preview_path text not null unique,
  width integer not null,
  height integer not null,
  thumbhash text not null,
  card json not null,
  free_sample boolean not null default false,
  -- When the ad joined the sample; kept when it leaves while premium (it comes back first).
  free_sample_since timestamp with time zone,
  platforms text[],
  placement text,
  format text,
  first_seen date,
  last_seen date,
  still_running boolean not null default false,
  landing_url text,
  primary_text text,
  headline text,
  call_to_action text,
  offer text,
  hook_id uuid references public.hooks (id) on delete set null,
  language text,
  country text,
  image_text text,
  search_text text not null default ''::text,
  search_vector tsvector not null default ''::tsvector,
  visual_hash bigint,
  colour_histogram real[],
  dominant_colours jsonb,
  -- Derived by ads_visual_fingerprint; never written directly.
  visual_vector extensions.cube,
  colour_point extensions.cube,
  colour_swatches text[],
  near_duplicate_of uuid,
  video_path text unique,
  video_duration_ms integer,
  search_signature bit(256) generated always as (private.search_signature(search_vector)) stored,
  constraint ads_call_to_action_known check (call_to_action is null or call_to_action in (
    'shop_now', 'learn_more', 'sign_up', 'get_offer', 'order_now', 'subscribe', 'download', 'book_now', 'contact_us', 'watch_more')),
  constraint ads_colour_histogram_shape check (
    colour_histogram is null
    or (array_ndims(colour_histogram) = 1 and cardinality(colour_histogram) = 16
        and 0 <= all (colour_histogram) and 1 >= all (colour_histogram))),
  constraint ads_country_iso_3166_1 check (country is null or country ~ '^[A-Z]{2}$'),
  constraint ads_dominant_colours_shape check (
    dominant_colours is null or (jsonb_typeof(dominant_colours) = 'array' and jsonb_array_length(dominant_colours) between 1 and 5)),
  constraint ads_fingerprint_whole check (
    (visual_hash is null) = (colour_histogram is null) and (visual_hash is null) = (dominant_colours is null)),
  constraint ads_format_known check (format is null or format in ('single_image', 'carousel', 'video')),
  constraint ads_headline_length check (headline is null or (btrim(headline) <> '' and char_length(headline) <= 300)),
  constraint ads_image_text_length check (char_length(image_text) <= 5000),
  constraint ads_landing_url_format check (
    landing_url is null or (landing_url ~* '^https?://[a-z0-9]([a-z0-9.-]*[a-z0-9])?(:[0-9]{1,5})?([/?#][^[:space:][:cntrl:]]*)?$')),
  constraint ads_landing_url_length check (landing_url is null or char_length(landing_url) <= 2048),
  constraint ads_language_iso_639_1 check (language is null or language ~ '^[a-z]{2}$'),
  constraint ads_last_seen_needs_first_seen check (last_seen is null or first_seen is not null),
  constraint ads_offer_known check (offer is null or offer in ('discount', 'free_shipping', 'bundle', 'none')),
  constraint ads_paths_format check (
    original_path ~ '^[A-Za-z0-9][A-Za-z0-9/_.-]*$' and original_path !~ '\.\.'
    and display_480_path ~ '^[A-Za-z0-9][A-Za-z0-9/_.-]*$' and display_480_path !~ '\.\.'
    and display_960_path ~ '^[A-Za-z0-9][A-Za-z0-9/_.-]*$' and display_960_path !~ '\.\.'
    and preview_path ~ '^[A-Za-z0-9][A-Za-z0-9/_.-]*$' and preview_path !~ '\.\.'),
  constraint ads_placement_known check (placement is null or placement in ('feed', 'story', 'square', 'portrait', 'landscape')),
  constraint ads_platforms_distinct check (platforms is null or not private.has_duplicates(platforms)),
  constraint ads_platforms_known check (
    platforms is null or (cardinality(platforms) >= 1 and array_position(platforms, null) is null
      and platforms <@ array['meta', 'instagram', 'tiktok', 'youtube', 'pinterest', 'snapchat', 'google']::text[])),
  constraint ads_primary_text_length check (primary_text is null or (btrim(primary_text) <> '' and char_length(primary_text) <= 5000)),
  constraint ads_seen_not_in_future check (
    (first_seen is null or first_seen <= private.latest_today()) and (last_seen is null or last_seen <= private.latest_today())),
  constraint ads_seen_order check (first_seen is null or last_seen is null or first_seen <= last_seen),
  constraint ads_size_positive check (width between 1 and 20000 and height between 1 and 20000),
  constraint ads_still_running_needs_first_seen check (not still_running or first_seen is not null),
  constraint ads_thumbhash_base64 check (thumbhash ~ '^[A-Za-z0-9+/]{8,64}={0,2}$'),
  constraint ads_video_duration_bounds check (video_duration_ms is null or video_duration_ms between 500 and 600000),
  constraint ads_video_is_format_video check (video_path is null or format is not distinct from 'video'),
  constraint ads_video_path_and_duration check ((video_path is null) = (video_duration_ms is null)),
  constraint ads_video_path_format check (
    video_path is null or (video_path ~ '^[A-Za-z0-9][A-Za-z0-9/_-]*\.(mp4|webm)$' and char_length(video_path) <= 200))
) with (toast_tuple_target=4096);

create table public.ad_tags (
  ad_id uuid not null references public.ads (id) on delete cascade,
  tag_id uuid not null references public.tags (id) on delete cascade,
  -- A copy of the ad's created_at, so a tag filter is one ordered index range.
  ad_created_at timestamp with time zone not null,
  constraint ad_tags_pkey primary key (ad_id, tag_id)
);

-- An exact total for the admin table without counting a million rows.
create table private.ad_counts (
  singleton boolean primary key default true,
  total bigint not null,
  constraint ad_counts_singleton_check check (singleton)
);

-- How many ads carry each tag, kept by a statement trigger on ad_tags.
create table private.tag_ad_counts (
  tag_id uuid primary key references public.tags (id) on delete cascade,
  ads bigint not null,
  constraint tag_ad_counts_not_negative check (ads >= 0)
);

create table private.free_sample_counts (
  singleton boolean primary key default true,
  premium bigint not null,
  members bigint not null,
  constraint free_sample_counts_not_negative check (premium >= 0 and members >= 0),
  constraint free_sample_counts_singleton_check check (singleton)
);

create or replace function private.ad_tags_copy_created_at() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  select a.created_at into new.ad_created_at from public.ads a where a.id = new.ad_id;
  if new.ad_created_at is null then
    raise exception 'Ad not found' using errcode = 'PT404', detail = 'ad_not_found';
  end if;
  return new;
end;
$$;

create or replace function private.ads_sync_tag_copies() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.ad_tags set ad_created_at = new.created_at where ad_id = new.id;
  return null;
end;
$$;

-- The themed boards follow their tags: an ad is on the Black Friday board or
-- in Top Picks exactly when it carries that board's tag.
create or replace function private.ad_has_system_tag(p_ad_id uuid, p_key text) returns boolean
language sql stable
security definer
set search_path = ''
as $$
  select exists (select 1 from public.ad_tags t join public.tags g on g.id = t.tag_id
                  where t.ad_id = p_ad_id and g.system_key = p_key)
$$;

-- Whoever writes the flags (the owner included), they end up equal to the tags.
create or replace function private.ads_board_flags_follow_tags() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    new.is_black_friday := false;
    new.is_top_picks := false;
  else
    new.is_black_friday := private.ad_has_system_tag(new.id, 'black_friday');
    new.is_top_picks := private.ad_has_system_tag(new.id, 'top_picks');
  end if;
  return new;
end;
$$;

-- Once per statement, and only for the ads whose system tags changed, so bulk
-- edits of ordinary tags never touch the ads.
create or replace function private.ad_tags_sync_board_flags() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.ads a
     set is_black_friday = private.ad_has_system_tag(a.id, 'black_friday'),
         is_top_picks = private.ad_has_system_tag(a.id, 'top_picks')
   where a.id in (select c.ad_id from changed c join public.tags g on g.id = c.tag_id where g.system_key is not null);
  return null;
end;
$$;

create or replace function private.ads_count_inserted() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update private.ad_counts set total = total + (select count(*) from inserted);
  return null;
end;
$$;

create or replace function private.ads_count_deleted() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update private.ad_counts set total = total - (select count(*) from deleted);
  return null;
end;
$$;

create or replace function private.ads_count_truncated() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update private.ad_counts set total = 0;
  return null;
end;
$$;

-- The card every list shows: the catalogue names, the facts every card shows and, for a video ad, its length (the
-- grid's duration badge, shown locked or clear: it is a fact, not the creative).
create or replace function private.ad_card(p_ad public.ads) returns jsonb
language sql stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'id', p_ad.id,
    'brand_id', p_ad.brand_id,
    'brand_name', (select b.name from public.brands b where b.id = p_ad.brand_id),
    'brand_logo_path', (select b.logo_path from public.brands b where b.id = p_ad.brand_id),
    'category_id', p_ad.category_id,
    'category_name', (select c.name from public.categories c where c.id = p_ad.category_id),
    'type_id', p_ad.type_id,
    'type_name', (select ty.name from public.types ty where ty.id = p_ad.type_id),
    -- An explicit collation, so the order is the same whatever the database's locale.
    'tag_names', coalesce((select jsonb_agg(g.name order by lower(g.name) collate "C", g.name collate "C")
                             from public.ad_tags t join public.tags g on g.id = t.tag_id
                            where t.ad_id = p_ad.id), '[]'::jsonb),
    'created_at', private.iso_utc(p_ad.created_at),
    'requires_subscription', p_ad.requires_subscription,
    'is_black_friday', p_ad.is_black_friday,
    'is_top_picks', p_ad.is_top_picks,
    'width', p_ad.width,
    'height', p_ad.height,
    'thumbhash', p_ad.thumbhash,
    'preview_path', p_ad.preview_path,
    'platforms', to_jsonb(p_ad.platforms),
    'first_seen', p_ad.first_seen,
    'last_seen', p_ad.last_seen,
    'still_running', p_ad.still_running)
    || case when p_ad.video_duration_ms is not null
         then jsonb_build_object('video_duration_ms', p_ad.video_duration_ms) else '{}'::jsonb end
$$;
revoke all on function private.ad_card(p_ad public.ads) from public;

-- Written on every insert and on every update of a column the card shows.
-- BEFORE row triggers run in name order: this one sorts after
-- ads_board_flags_follow_tags, so the card sees the flags it settled.
create or replace function private.ads_write_card() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  new.card := private.ad_card(new);
  return new;
end;
$$;
revoke all on function private.ads_write_card() from public;

-- Cards of the ads whose tags were added or removed, once per statement. An
-- update that keeps every (ad, tag) pair (the copy of created_at following
-- its ad) changes no card.
create or replace function private.ad_tags_write_cards() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    update public.ads a set card = private.ad_card(a) where a.id in (select n.ad_id from new_rows n);
  elsif tg_op = 'DELETE' then
    update public.ads a set card = private.ad_card(a) where a.id in (select o.ad_id from old_rows o);
  else
    update public.ads a set card = private.ad_card(a)
     where a.id in (select d.ad_id
                      from ((select n.ad_id, n.tag_id from new_rows n except select o.ad_id, o.tag_id from old_rows o)
                            union
                            (select o.ad_id, o.tag_id from old_rows o except select n.ad_id, n.tag_id from new_rows n)) d);
  end if;
  return null;
end;
$$;
revoke all on function private.ad_tags_write_cards() from public;

-- A renamed brand, category, type or tag (or a brand's new logo) rewrites the
-- cards that show it. Deleting one needs nothing here: brands and categories
-- in use cannot be deleted, a deleted type sets the ads' type_id to null (an
-- update of the ad) and a deleted tag deletes its ad_tags rows.
create or replace function private.catalog_write_cards() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_table_name = 'brands' then
    update public.ads a set card = private.ad_card(a) where a.brand_id = new.id;
  elsif tg_table_name = 'categories' then
    update public.ads a set card = private.ad_card(a) where a.category_id = new.id;
  elsif tg_table_name = 'types' then
    update public.ads a set card = private.ad_card(a) where a.type_id = new.id;
  elsif tg_table_name = 'tags' then
    update public.ads a set card = private.ad_card(a) where a.id in (select t.ad_id from public.ad_tags t where t.tag_id = new.id);
  end if;
  return null;
end;
$$;
revoke all on function private.catalog_write_cards() from public;

create or replace function private.ad_tags_count() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op in ('INSERT', 'UPDATE') then
    insert into private.tag_ad_counts as c (tag_id, ads)
    select n.tag_id, count(*) from new_rows n group by n.tag_id
        on conflict (tag_id) do update set ads = c.ads + excluded.ads;
  end if;
  if tg_op in ('DELETE', 'UPDATE') then
    -- A deleted tag's row is already gone with it.
    update private.tag_ad_counts c set ads = c.ads - o.ads
      from (select o.tag_id, count(*) as ads from old_rows o group by o.tag_id) o
     where c.tag_id = o.tag_id;
  end if;
  return null;
end;
$$;
revoke all on function private.ad_tags_count() from public;

-- Whoever inserts an ad (the owner included), it starts outside the sample; the statement trigger decides.
create or replace function private.ads_free_sample_starts_out() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  new.free_sample := false;
  new.free_sample_since := null;
  return new;
end;
$$;
revoke all on function private.ads_free_sample_starts_out() from public;

-- Members beyond the cap leave, the latest to join first.
create or replace function private.free_sample_trim() returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_premium bigint;
  v_members bigint;
  v_left bigint;
begin
  select premium, members into v_premium, v_members from private.free_sample_counts for update;
  if v_members <= ceil(v_premium / 10.0) then
    return;
  end if;
  update public.ads a set free_sample = false
   where a.id in (select m.id from public.ads m where m.free_sample
                   order by m.free_sample_since desc, m.id desc limit (v_members - ceil(v_premium / 10.0))::bigint);
  get diagnostics v_left = row_count;
  update private.free_sample_counts set members = members - v_left;
end;
$$;
revoke all on function private.free_sample_trim() from public;

-- Fills the sample up to the cap: ads that left it come back first, then the
-- newly published premium ads p_published (in publish order) that take the
-- premium count past a multiple of ten, then the others of them.
create or replace function private.free_sample_fill(p_published uuid[]) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_premium bigint;
  v_members bigint;
  v_need bigint;
  v_before bigint;
  v_joined bigint;
begin
  select premium, members into v_premium, v_members from private.free_sample_counts for update;
  v_need := ceil(v_premium / 10.0)::bigint - v_members;
  if v_need <= 0 then
    return;
  end if;
  update public.ads a set free_sample = true
   where a.id in (select w.id from public.ads w
                   where not w.free_sample and w.free_sample_since is not null and w.requires_subscription
                   order by w.free_sample_since, w.id limit v_need);
  get diagnostics v_joined = row_count;
  v_need := v_need - v_joined;
  if v_need > 0 and cardinality(p_published) > 0 then
    v_before := v_premium - cardinality(p_published);
    -- A microsecond apart in publish order, so "the latest to join" is well defined within one statement too.
    update public.ads a set free_sample = true, free_sample_since = now() + c.ord * interval '1 microsecond'
      from (select p.id, p.ord from unnest(p_published) with ordinality as p (id, ord)
             order by (v_before + p.ord - 1) % 10 <> 0, p.ord limit v_need) c
     where a.id = c.id;
    get diagnostics v_need = row_count;
    v_joined := v_joined + v_need;
  end if;
  update private.free_sample_counts set members = members + v_joined;
end;
$$;
revoke all on function private.free_sample_fill(p_published uuid[]) from public;

create or replace function private.ads_free_sample_published() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_published uuid[] := array(select n.id from new_rows n where n.requires_subscription order by n.created_at, n.id);
begin
  if cardinality(v_published) = 0 then
    return null;
  end if;
  update private.free_sample_counts set premium = premium + cardinality(v_published);
  perform private.free_sample_fill(v_published);
  return null;
end;
$$;
revoke all on function private.ads_free_sample_published() from public;

create or replace function private.ads_free_sample_deleted() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update private.free_sample_counts
     set premium = premium - (select count(*) from old_rows o where o.requires_subscription),
         members = members - (select count(*) from old_rows o where o.free_sample);
  perform private.free_sample_trim();
  return null;
end;
$$;
revoke all on function private.ads_free_sample_deleted() from public;

-- An ad made free leaves the sample for good; an ad made premium is published to it. Per row: transition
-- tables cannot go with a column list, and a statement trigger on every update of ads would run for each
-- card rewrite.
create or replace function private.ads_free_sample_premium_changed() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_member boolean;
begin
  if new.requires_subscription then
    update private.free_sample_counts set premium = premium + 1;
    perform private.free_sample_fill(array[new.id]);
  else
    -- The row as it is now, not as the statement found it: an earlier row's trim may have taken it out already.
    select a.free_sample into v_member from public.ads a where a.id = new.id;
    update public.ads set free_sample = false, free_sample_since = null where id = new.id;
    update private.free_sample_counts set premium = premium - 1, members = members - (case when v_member then 1 else 0 end);
    perform private.free_sample_trim();
  end if;
  return null;
end;
$$;
revoke all on function private.ads_free_sample_premium_changed() from public;

create or replace function private.ads_free_sample_truncated() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update private.free_sample_counts set premium = 0, members = 0;
  return null;
end;
$$;
revoke all on function private.ads_free_sample_truncated() from public;

-- The sample chosen anew over the whole library in publish order, and the
-- counts recomputed: for tools that write ads with triggers off (the benchmark
-- seed).
create or replace function private.free_sample_rebuild() returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.ads set free_sample = false, free_sample_since = null where free_sample or free_sample_since is not null;
  update public.ads a set free_sample = true, free_sample_since = a.created_at
    from (select p.id, row_number() over (order by p.created_at, p.id) as n
            from public.ads p where p.requires_subscription) p
   where a.id = p.id and (p.n - 1) % 10 = 0;
  update private.free_sample_counts
     set premium = (select count(*) from public.ads where requires_subscription),
         members = (select count(*) from public.ads where free_sample);
end;
$$;
revoke all on function private.free_sample_rebuild() from public;

-- Rules (a) to (d) for one ad and one caller. Inlined into the lists' queries.
create or replace function private.ad_is_clear_for(p_ad public.ads, p_signed_in boolean, p_valid_access boolean)
returns boolean
language sql stable
as $$
  select p_valid_access or not p_ad.requires_subscription or p_ad.free_sample or (p_signed_in and p_ad.is_black_friday)
$$;
revoke all on function private.ad_is_clear_for(p_ad public.ads, p_signed_in boolean, p_valid_access boolean) from public;

create or replace function private.placement_for_size(p_width integer, p_height integer) returns text
language sql immutable parallel safe
as $$
  select case
    when p_width is null or p_height is null or p_width <= 0 or p_height <= 0 then null
    when 10 * p_height::bigint >= 16 * p_width::bigint then 'story'
    when 10 * p_height::bigint > 11 * p_width::bigint then 'portrait'
    when 10 * p_width::bigint > 11 * p_height::bigint then 'landscape'
    else 'square'
  end
$$;
revoke all on function private.placement_for_size(p_width integer, p_height integer) from public;

create or replace function private.running_days(p_first_seen date, p_last_seen date, p_still_running boolean) returns integer
language sql stable parallel safe
as $$
  select case
    when p_first_seen is null then null
    when p_still_running then greatest((now() at time zone 'UTC')::date, coalesce(p_last_seen, p_first_seen)) - p_first_seen + 1
    when p_last_seen is null then null
    else p_last_seen - p_first_seen + 1
  end
$$;
revoke all on function private.running_days(p_first_seen date, p_last_seen date, p_still_running boolean) from public;

create or replace function private.ad_facts(p_ad public.ads) returns jsonb
language sql stable
as $$
  select jsonb_build_object(
    'platforms', to_jsonb(p_ad.platforms),
    'placement', coalesce(p_ad.placement, private.placement_for_size(p_ad.width, p_ad.height)),
    'placement_derived', p_ad.placement is null,
    'format', p_ad.format,
    'first_seen', p_ad.first_seen,
    'last_seen', p_ad.last_seen,
    'still_running', p_ad.still_running,
    'running_days', private.running_days(p_ad.first_seen, p_ad.last_seen, p_ad.still_running),
    'landing_url', p_ad.landing_url,
    'primary_text', p_ad.primary_text,
    'headline', p_ad.headline,
    'call_to_action', p_ad.call_to_action,
    'offer', p_ad.offer,
    'hook_id', p_ad.hook_id,
    'hook_name', (select h.name from public.hooks h where h.id = p_ad.hook_id),
    'language', p_ad.language,
    'country', p_ad.country)
$$;
revoke all on function private.ad_facts(p_ad public.ads) from public;

-- The sentence for each fact check an edit can break, and the rule for a video ad: its format stays 'video'.
create or replace function private.ad_fact_error(p_constraint text) returns text
language sql immutable
set search_path = ''
as $$
  select case p_constraint
    when 'ads_platforms_known' then 'Platforms must be some of meta, instagram, tiktok, youtube, pinterest, snapchat, google'
    when 'ads_platforms_distinct' then 'A platform is listed twice'
    when 'ads_placement_known' then 'Placement must be feed, story, square, portrait or landscape'
    when 'ads_format_known' then 'Format must be single_image, carousel or video'
    when 'ads_seen_order' then 'First seen must not be after last seen'
    when 'ads_last_seen_needs_first_seen' then 'A last seen date needs a first seen date'
    when 'ads_still_running_needs_first_seen' then 'A running ad needs a first seen date'
    when 'ads_seen_not_in_future' then 'Seen dates cannot be in the future'
    when 'ads_landing_url_format' then 'The landing page must be an http or https address'
    when 'ads_landing_url_length' then 'The landing page address is longer than 2048 characters'
    when 'ads_primary_text_length' then 'The primary text must be 1 to 5000 characters'
    when 'ads_headline_length' then 'The headline must be 1 to 300 characters'
    when 'ads_call_to_action_known' then 'Unknown call to action'
    when 'ads_offer_known' then 'Offer must be discount, free_shipping, bundle or none'
    when 'ads_language_iso_639_1' then 'Language must be two lowercase letters (ISO 639-1)'
    when 'ads_country_iso_3166_1' then 'Country must be two uppercase letters (ISO 3166-1)'
    when 'ads_video_is_format_video' then 'An ad with a video must keep the format video'
    else 'The facts are not valid'
  end
$$;
revoke all on function private.ad_fact_error(p_constraint text) from public;

-- The host of a landing page address, lower case and without "www.", or null.
create or replace function private.landing_host(p_url text) returns text
language sql immutable parallel safe
set search_path = ''
as $$
  select nullif(regexp_replace(lower(substring(p_url from '^[A-Za-z]+://([^/:?#]+)')), '^www\.', ''), '')
$$;
revoke all on function private.landing_host(p_url text) from public;

-- Two bits of 256 for a word: the first two bytes of its md5. Plain SQL of catalog functions, so the planner writes
-- it into the statements that call it (list_ads writes a search's words as constants, and they are worked out once
-- when the statement is planned); it is not security definer and reads nothing, so it needs no search_path.
create function private.search_word_bits(p_word text) returns bit(256)
language sql immutable strict parallel safe
as $$
  select pg_catalog.set_bit(pg_catalog.set_bit(pg_catalog.repeat('0', 256)::bit(256),
           pg_catalog.get_byte(pg_catalog.decode(pg_catalog.md5(p_word), 'hex'), 0), 1),
           pg_catalog.get_byte(pg_catalog.decode(pg_catalog.md5(p_word), 'hex'), 1), 1)
$$;
revoke all on function private.search_word_bits(p_word text) from public;

create index ads_brand_order on public.ads (brand_id, created_at desc, id desc);

create index ads_category_order on public.ads (category_id, created_at desc, id desc);

create index ads_type_order on public.ads (type_id, created_at desc, id desc);

-- Admin table: newest/oldest across all boards.
create index ads_created_order on public.ads (created_at desc, id desc);

create index ads_free_sample_latest on public.ads (free_sample_since desc, id desc) where free_sample;

create index ads_free_sample_waiting on public.ads (free_sample_since, id)
  where not free_sample and free_sample_since is not null;

-- A hook's deletion clears it from its ads through this index.
create index ads_hook on public.ads (hook_id);

-- The backfill's worklist walks the ads not read yet, newest first.
create index ads_image_text_unread on public.ads (created_at desc, id desc) where image_text is null;

-- A hook's ads newest first (the hook filter is a short list, like categories).
create index ads_hook_order on public.ads (hook_id, created_at desc, id desc) where hook_id is not null;

-- Ads by first and last sighting, for the few first seen after X that ran long enough by a later last sighting.
create index ads_seen_dates on public.ads (first_seen, last_seen) where first_seen is not null;

create index ads_visual_hash_q0 on public.ads ((((visual_hash >> 48) & 65535)::int)) where visual_hash is not null;

create index ads_visual_hash_q1 on public.ads ((((visual_hash >> 32) & 65535)::int)) where visual_hash is not null;

create index ads_visual_hash_q2 on public.ads ((((visual_hash >> 16) & 65535)::int)) where visual_hash is not null;

create index ads_visual_hash_q3 on public.ads (((visual_hash & 65535)::int)) where visual_hash is not null;

-- Nearest colour points per board.
create index ads_colour_point_library on public.ads using gist (colour_point) where not is_black_friday;

create index ads_colour_point_black_friday on public.ads using gist (colour_point) where is_black_friday;

create index ads_near_duplicate_of on public.ads (near_duplicate_of) where near_duplicate_of is not null;

create index ads_fingerprint_missing on public.ads (created_at desc, id desc) where visual_hash is null;

create index ads_colour_beige_order on public.ads (created_at desc, id desc) where (colour_swatches @> '{beige}'::text[]);

create index ads_colour_black_order on public.ads (created_at desc, id desc) where (colour_swatches @> '{black}'::text[]);

create index ads_colour_blue_order on public.ads (created_at desc, id desc) where (colour_swatches @> '{blue}'::text[]);

create index ads_colour_brown_order on public.ads (created_at desc, id desc) where (colour_swatches @> '{brown}'::text[]);

create index ads_colour_green_order on public.ads (created_at desc, id desc) where (colour_swatches @> '{green}'::text[]);

create index ads_colour_grey_order on public.ads (created_at desc, id desc) where (colour_swatches @> '{grey}'::text[]);

create index ads_colour_orange_order on public.ads (created_at desc, id desc) where (colour_swatches @> '{orange}'::text[]);

create index ads_colour_pink_order on public.ads (created_at desc, id desc) where (colour_swatches @> '{pink}'::text[]);

create index ads_colour_purple_order on public.ads (created_at desc, id desc) where (colour_swatches @> '{purple}'::text[]);

create index ads_colour_red_order on public.ads (created_at desc, id desc) where (colour_swatches @> '{red}'::text[]);

create index ads_colour_white_order on public.ads (created_at desc, id desc) where (colour_swatches @> '{white}'::text[]);

create index ads_colour_yellow_order on public.ads (created_at desc, id desc) where (colour_swatches @> '{yellow}'::text[]);

-- A brand's ads in the longest-running and recently-seen orders are read from streams of their own.
--
-- Those orders merge streams of ads: running ads by first sighting or by id, ended ads by days ran or
-- by last sighting, and the undated ads by id. Walked whole-library and filtered, a brand with 2% of the library
-- reads about 3,000 ads to find a page of 61 (7 to 10 ms at 1,000,000 ads, bench:db's "longest running + brand").
-- Each stream also has a brand-first index, which the same statements read in order: the brand's own ads, 61 of
-- them. See docs/decisions/0048.
create index ads_brand_running_since on public.ads (brand_id, first_seen, id) where still_running;

create index ads_brand_ran_for on public.ads (brand_id, (first_seen - last_seen), id) where not still_running and last_seen is not null;

create index ads_brand_running on public.ads (brand_id, id) where still_running;

create index ads_brand_last_seen on public.ads (brand_id, last_seen desc, id) where not still_running and last_seen is not null;

create index ads_brand_undated on public.ads (brand_id, id) where not still_running and last_seen is null;

create index ads_undated on public.ads (id)
  include (still_running, first_seen, last_seen, created_at, is_black_friday, is_top_picks, colour_swatches, platforms,
           format, offer, hook_id, category_id, type_id)
  where not still_running and last_seen is null;

create index ads_library_order on public.ads (created_at desc, id desc) include (search_signature) where not is_black_friday;

create index ads_black_friday_order on public.ads (created_at desc, id desc) include (search_signature) where is_black_friday;

create index ads_top_picks_order on public.ads (created_at desc, id desc) include (search_signature) where is_top_picks;

-- The streams of the two dated orders again, holding only what a search of the board alone
-- reads on its walk: the board and the signature (and the sightings its days run are counted from, which an index
-- of their difference does not give back). The filters' streams hold thirteen more columns,
-- and each of their entries costs more to read; a search with filters walks those.
create index ads_signed_running_since on public.ads (first_seen, id)
  include (is_black_friday, is_top_picks, search_signature) where still_running;

create index ads_signed_ran_for on public.ads ((first_seen - last_seen), id)
  include (first_seen, last_seen, is_black_friday, is_top_picks, search_signature) where not still_running and last_seen is not null;

create index ads_signed_running on public.ads (id)
  include (is_black_friday, is_top_picks, search_signature) where still_running;

create index ads_signed_last_seen on public.ads (last_seen desc, id)
  include (is_black_friday, is_top_picks, search_signature) where not still_running and last_seen is not null;

create index ads_running_since on public.ads (first_seen, id)
  include (still_running, last_seen, created_at, is_black_friday, is_top_picks, colour_swatches, platforms, format, offer,
           hook_id, category_id, type_id, search_signature)
  where still_running;

create index ads_ran_for on public.ads ((first_seen - last_seen), id)
  include (still_running, first_seen, last_seen, created_at, is_black_friday, is_top_picks, colour_swatches, platforms,
           format, offer, hook_id, category_id, type_id, search_signature)
  where not still_running and last_seen is not null;

create index ads_running on public.ads (id)
  include (still_running, first_seen, last_seen, created_at, is_black_friday, is_top_picks, colour_swatches, platforms,
           format, offer, hook_id, category_id, type_id, search_signature)
  where still_running;

create index ads_last_seen on public.ads (last_seen desc, id)
  include (still_running, first_seen, created_at, is_black_friday, is_top_picks, colour_swatches, platforms, format,
           offer, hook_id, category_id, type_id, search_signature)
  where not still_running and last_seen is not null;

create index ads_search on public.ads
  using gin (search_vector, search_text extensions.gin_trgm_ops, colour_swatches, platforms, format, offer, hook_id,
             category_id, type_id);

create index ad_tags_tag_order on public.ad_tags (tag_id, ad_created_at desc, ad_id desc);

create trigger ad_tags_copy_created_at before insert or update on public.ad_tags
  for each row execute function private.ad_tags_copy_created_at();

create trigger ads_sync_tag_copies after update of created_at on public.ads
  for each row when (old.created_at is distinct from new.created_at)
  execute function private.ads_sync_tag_copies();

create trigger ads_board_flags_follow_tags before insert or update of is_black_friday, is_top_picks on public.ads
  for each row execute function private.ads_board_flags_follow_tags();

create trigger ad_tags_inserted_sync_board_flags after insert on public.ad_tags
  referencing new table as changed for each statement execute function private.ad_tags_sync_board_flags();

create trigger ad_tags_deleted_sync_board_flags after delete on public.ad_tags
  referencing old table as changed for each statement execute function private.ad_tags_sync_board_flags();

-- An update can move a row off one ad and onto another: both are resynced.
create trigger ad_tags_updated_sync_board_flags_old after update on public.ad_tags
  referencing old table as changed for each statement execute function private.ad_tags_sync_board_flags();

create trigger ad_tags_updated_sync_board_flags_new after update on public.ad_tags
  referencing new table as changed for each statement execute function private.ad_tags_sync_board_flags();

create trigger ads_count_inserted after insert on public.ads
  referencing new table as inserted for each statement execute function private.ads_count_inserted();

create trigger ads_count_deleted after delete on public.ads
  referencing old table as deleted for each statement execute function private.ads_count_deleted();

create trigger ads_count_truncated after truncate on public.ads
  for each statement execute function private.ads_count_truncated();

create trigger ads_bump_list_ads_version after insert or update or delete or truncate on public.ads
  for each statement execute function private.bump_anonymous_answer_version('list_ads');

create trigger ad_tags_bump_list_ads_version after insert or update or delete or truncate on public.ad_tags
  for each statement execute function private.bump_anonymous_answer_version('list_ads');

create trigger ad_tags_inserted_write_cards after insert on public.ad_tags
  referencing new table as new_rows for each statement execute function private.ad_tags_write_cards();

create trigger ad_tags_deleted_write_cards after delete on public.ad_tags
  referencing old table as old_rows for each statement execute function private.ad_tags_write_cards();

create trigger ad_tags_updated_write_cards after update on public.ad_tags
  referencing old table as old_rows new table as new_rows for each statement execute function private.ad_tags_write_cards();

create trigger brands_write_cards after update of name, logo_path on public.brands
  for each row when (old.name is distinct from new.name or old.logo_path is distinct from new.logo_path)
  execute function private.catalog_write_cards();

create trigger categories_write_cards after update of name on public.categories
  for each row when (old.name is distinct from new.name) execute function private.catalog_write_cards();

create trigger types_write_cards after update of name on public.types
  for each row when (old.name is distinct from new.name) execute function private.catalog_write_cards();

create trigger tags_write_cards after update of name on public.tags
  for each row when (old.name is distinct from new.name) execute function private.catalog_write_cards();

create trigger ad_tags_inserted_count after insert on public.ad_tags
  referencing new table as new_rows for each statement execute function private.ad_tags_count();

create trigger ad_tags_deleted_count after delete on public.ad_tags
  referencing old table as old_rows for each statement execute function private.ad_tags_count();

create trigger ad_tags_updated_count after update on public.ad_tags
  referencing old table as old_rows new table as new_rows for each statement execute function private.ad_tags_count();

create trigger ads_free_sample_starts_out before insert on public.ads
  for each row execute function private.ads_free_sample_starts_out();

create trigger ads_free_sample_published after insert on public.ads
  referencing new table as new_rows for each statement execute function private.ads_free_sample_published();

create trigger ads_free_sample_deleted after delete on public.ads
  referencing old table as old_rows for each statement execute function private.ads_free_sample_deleted();

create trigger ads_free_sample_premium_changed after update of requires_subscription on public.ads
  for each row when (old.requires_subscription is distinct from new.requires_subscription)
  execute function private.ads_free_sample_premium_changed();

create trigger ads_free_sample_truncated after truncate on public.ads
  for each statement execute function private.ads_free_sample_truncated();

create trigger ads_write_card before insert or update of brand_id, category_id, type_id, created_at,
    requires_subscription, is_black_friday, is_top_picks, width, height, thumbhash, preview_path,
    platforms, first_seen, last_seen, still_running, video_duration_ms
  on public.ads for each row execute function private.ads_write_card();

alter table public.ads enable row level security;
revoke all on table public.ads from authenticated, anon;
grant delete on table public.ads to authenticated;
grant select (id, brand_id, category_id, type_id, created_at, requires_subscription, is_black_friday, is_top_picks, preview_path, width, height, thumbhash, free_sample) on table public.ads to anon;
grant insert (id, brand_id, category_id, type_id, created_at, requires_subscription, original_path, display_480_path, display_960_path, preview_path, width, height, thumbhash, platforms, placement, format, first_seen, last_seen, still_running, landing_url, primary_text, headline, call_to_action, offer, hook_id, language, country, image_text, visual_hash, colour_histogram, dominant_colours, video_path, video_duration_ms), select (id, brand_id, category_id, type_id, created_at, requires_subscription, is_black_friday, is_top_picks, preview_path, width, height, thumbhash, free_sample), update (brand_id, category_id, type_id, requires_subscription, platforms, placement, format, first_seen, last_seen, still_running, landing_url, primary_text, headline, call_to_action, offer, hook_id, language, country, image_text, visual_hash, colour_histogram, dominant_colours, video_path, video_duration_ms) on table public.ads to authenticated;

create policy "ads: everyone reads the catalogue fields" on public.ads for select to anon, authenticated using (true);
create policy "ads: admins insert" on public.ads for insert to authenticated with check ((select public.is_admin()));
create policy "ads: admins update" on public.ads for update to authenticated
  using ((select public.is_admin())) with check ((select public.is_admin()));
create policy "ads: admins delete" on public.ads for delete to authenticated using ((select public.is_admin()));

alter table public.ad_tags enable row level security;
revoke all on table public.ad_tags from anon, authenticated;
grant select on table public.ad_tags to anon;
grant select, delete on table public.ad_tags to authenticated;
grant insert (ad_id, tag_id) on table public.ad_tags to authenticated;

create policy "ad_tags: everyone reads" on public.ad_tags for select to anon, authenticated using (true);
create policy "ad_tags: admins insert" on public.ad_tags for insert to authenticated with check ((select public.is_admin()));
create policy "ad_tags: admins delete" on public.ad_tags for delete to authenticated using ((select public.is_admin()));



alter table private.tag_ad_counts enable row level security;
revoke all on table private.tag_ad_counts from public, anon, authenticated;

alter table private.free_sample_counts enable row level security;
revoke all on table private.free_sample_counts from public, anon, authenticated;

insert into private.ad_counts (total) values (0);

insert into private.free_sample_counts (premium, members) values (0, 0);

-- ==========================================================================================
-- supabase/schemas/50_media.sql
-- ==========================================================================================

-- What is done with a creative's pixels: visual fingerprints (a perceptual hash, a colour histogram, dominant colours
-- and the swatches of the filter bar's palette), near-duplicate detection, similar ads, and the signed links through
-- which a caller who may see an ad gets its images, video and original.

-- Function bodies may name tables of later files: they are checked when called, not when created.
set check_function_bodies = false;

-- The filter bar's palette (src/lib/colour-swatches.ts): each swatch's name, its sRGB colour and that colour in CIELAB.
create table private.colour_palette (
  name text primary key,
  hex text not null unique,
  l double precision not null,
  a double precision not null,
  b double precision not null,
  constraint colour_palette_hex_check check ((hex ~ '^#[0-9a-f]{6}$'::text))
);

-- The start (epoch seconds) of the 12-hour window p_at falls in.
create or replace function private.image_link_window_start(p_at timestamptz) returns bigint
language sql immutable
set search_path = ''
as $$
  select (floor(extract(epoch from p_at) / 43200) * 43200)::bigint
$$;
revoke all on function private.image_link_window_start(p_at timestamp with time zone) from public;

-- plpgsql, which keeps its statement's plan for the session: an SQL function with settings is planned again at every
-- call (docs/decisions/0047).
create or replace function private.image_link_key() returns bytea
language plpgsql stable
security definer
set search_path = ''
as $$
begin
  return (select s.hmac_pads from private.settings s where s.key = 'image_link_secret');
end;
$$;
revoke all on function private.image_link_key() from public;

-- A subscriber's download of an ad's original, signed for 5 minutes; for a video ad the download is its video (the
-- original image is only its poster frame), under the same rules.
create or replace function public.get_ad_original_download(p_id uuid) returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_ad public.ads;
  v_brand text;
  v_now bigint := floor(extract(epoch from now()))::bigint;
begin
  if not public.has_valid_access() then
    raise exception 'An active subscription is required' using errcode = '42501', detail = 'subscription_required';
  end if;
  select * into v_ad from public.ads where id = p_id;
  if v_ad.id is null then
    raise exception 'Ad not found' using errcode = 'PT404', detail = 'ad_not_found';
  end if;
  select b.name into v_brand from public.brands b where b.id = v_ad.brand_id;
  return jsonb_build_object(
    'url', case when v_ad.video_path is not null
             then private.signed_object_url('ad-videos', v_ad.video_path, v_now, v_now + 300, private.image_link_key())
             else private.signed_object_url('ad-originals', v_ad.original_path, v_now, v_now + 300, private.image_link_key()) end,
    'file_name', coalesce(nullif(trim(both '-' from regexp_replace(lower(v_brand), '[^a-z0-9]+', '-', 'g')), ''), 'ad')
      || '-' || left(v_ad.id::text, 8) || coalesce(substring(coalesce(v_ad.video_path, v_ad.original_path) from '\.[A-Za-z0-9]+$'), ''),
    'expires_at', private.iso_utc(to_timestamp(v_now + 300)));
end;
$$;
revoke all on function public.get_ad_original_download(p_id uuid) from public;

create function private.signed_object_url(p_bucket text, p_name text, p_iat bigint, p_exp bigint, p_key_pads bytea)
returns text
language sql stable
as $$
  select 'object/sign/' || p_bucket || '/' || p_name || '?token=eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.'
    || replace(replace(replace(replace(encode(convert_to('{"url":"' || p_bucket || '/' || p_name || '","iat":' || p_iat
         || ',"exp":' || p_exp || '}', 'UTF8'), 'base64'), E'\n', ''), '+', '-'), '/', '_'), '=', '')
    || '.'
    || rtrim(replace(replace(encode(sha256(substring(p_key_pads from 65 for 64) || sha256(substring(p_key_pads from 1 for 64)
         || convert_to('eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.'
         || replace(replace(replace(replace(encode(convert_to('{"url":"' || p_bucket || '/' || p_name || '","iat":' || p_iat
              || ',"exp":' || p_exp || '}', 'UTF8'), 'base64'), E'\n', ''), '+', '-'), '/', '_'), '=', ''), 'UTF8'))),
         'base64'), '+', '-'), '/', '_'), '=')
$$;
revoke all on function private.signed_object_url(p_bucket text, p_name text, p_iat bigint, p_exp bigint, p_key_pads bytea) from public;

-- '#rrggbb' in CIELAB (D65, 2°): sRGB decoded, to XYZ, to L*a*b*.
create or replace function private.hex_to_lab(p_hex text, out l double precision, out a double precision, out b double precision)
language plpgsql immutable strict parallel safe
set search_path = ''
as $$
declare
  v_lin double precision[] := array[]::double precision[];
  v_c double precision;
  v_x double precision;
  v_y double precision;
  v_z double precision;
  v_f double precision[];
  v_t double precision;
begin
  if p_hex !~ '^#[0-9a-f]{6}$' then
    raise exception 'A colour is written #rrggbb' using errcode = '22023';
  end if;
  for i in 0 .. 2 loop
    v_c := ('x' || substr(p_hex, 2 + 2 * i, 2))::bit(8)::int / 255.0;
    v_lin := v_lin || case when v_c <= 0.04045 then v_c / 12.92 else ((v_c + 0.055) / 1.055) ^ 2.4 end;
  end loop;
  v_x := (0.4124564 * v_lin[1] + 0.3575761 * v_lin[2] + 0.1804375 * v_lin[3]) / 0.95047;
  v_y := (0.2126729 * v_lin[1] + 0.7151522 * v_lin[2] + 0.0721750 * v_lin[3]);
  v_z := (0.0193339 * v_lin[1] + 0.1191920 * v_lin[2] + 0.9503041 * v_lin[3]) / 1.08883;
  foreach v_t in array array[v_x, v_y, v_z] loop
    v_f := v_f || case when v_t > 216.0 / 24389 then cbrt(v_t) else (24389.0 / 27 * v_t + 16) / 116 end;
  end loop;
  l := 116 * v_f[2] - 16;
  a := 500 * (v_f[1] - v_f[2]);
  b := 200 * (v_f[2] - v_f[3]);
end;
$$;
revoke all on function private.hex_to_lab(p_hex text, OUT l double precision, OUT a double precision, OUT b double precision) from public;

-- The swatches an ad matches: each dominant colour that covers at least 10% of the image matches its nearest swatch,
-- and any other swatch at most 10 units (CIELAB distance) farther than the nearest, so a colour between two swatches
-- is found under both.
create or replace function private.colour_swatches(p_colours jsonb) returns text[]
language sql stable parallel safe
set search_path = ''
as $$
  select coalesce(array_agg(distinct d.name order by d.name), '{}')
    from (select s.name, s.distance, min(s.distance) over (partition by c.ord) as nearest
            from jsonb_array_elements(p_colours) with ordinality c (colour, ord)
           cross join lateral private.hex_to_lab(c.colour ->> 'hex') lab
           cross join lateral (select p.name, sqrt((p.l - lab.l) ^ 2 + (p.a - lab.a) ^ 2 + (p.b - lab.b) ^ 2) as distance
                                 from private.colour_palette p) s
           where (c.colour ->> 'share')::double precision >= 0.1) d
   where d.distance <= d.nearest + 10
$$;
revoke all on function private.colour_swatches(p_colours jsonb) from public;

-- An image's colour as a point: the mean of its dominant colours in CIELAB weighted by their shares, and how far
-- they lie from that mean on average (a flat image 0, a colourful one more), each over 100.
create or replace function private.colour_point(p_colours jsonb) returns extensions.cube
language sql stable parallel safe
set search_path = ''
as $$
  with c as (select (e ->> 'share')::double precision as w, lab.l, lab.a, lab.b
               from jsonb_array_elements(p_colours) e cross join lateral private.hex_to_lab(e ->> 'hex') lab),
       m as (select sum(c.w * c.l) / nullif(sum(c.w), 0) as l, sum(c.w * c.a) / nullif(sum(c.w), 0) as a,
                    sum(c.w * c.b) / nullif(sum(c.w), 0) as b, nullif(sum(c.w), 0) as total from c)
  select extensions.cube(array[m.l / 100, m.a / 100, m.b / 100,
                               (select sum(c.w * sqrt((c.l - m.l) ^ 2 + (c.a - m.a) ^ 2 + (c.b - m.b) ^ 2)) from c) / m.total / 100])
    from m where m.total is not null
$$;
revoke all on function private.colour_point(p_colours jsonb) from public;

-- How many of 64 bits two hashes differ in.
create or replace function private.hash_distance(p_a bigint, p_b bigint) returns int
language sql immutable strict parallel safe
set search_path = ''
as $$
  select bit_count((p_a # p_b)::bit(64))::int
$$;
revoke all on function private.hash_distance(p_a bigint, p_b bigint) from public;

-- The four 16-bit quarters of a hash, each with its value and the 16 values one bit away: two hashes at most 7 bits
-- apart share a quarter at most one bit apart (7 differing bits over 4 quarters leave one quarter with at most 1), so
-- looking up these 68 values in the quarters' indexes finds every near-duplicate.
create or replace function private.hash_quarter_probes(p_hash bigint)
returns table (q0 int[], q1 int[], q2 int[], q3 int[])
language sql immutable strict parallel safe
set search_path = ''
as $$
  select array_agg(((p_hash >> 48) & 65535)::int # f), array_agg(((p_hash >> 32) & 65535)::int # f),
         array_agg(((p_hash >> 16) & 65535)::int # f), array_agg((p_hash & 65535)::int # f)
    from (select 0 as f union all select 1 << g from generate_series(0, 15) g) flips
$$;
revoke all on function private.hash_quarter_probes(p_hash bigint) from public;

-- The ads whose image nearly duplicates a fingerprint's: a hash at most 7 bits away and a colour histogram at most 0.3
-- away (Euclidean; two images of one layout in different colours share a hash, not their colours).
create or replace function private.ads_near_hash(p_hash bigint, p_vector extensions.cube) returns table(id uuid, distance integer, created_at timestamp with time zone)
language plpgsql stable strict parallel safe
set search_path = ''
set max_parallel_workers_per_gather = 0
set jit = off
as $$
declare
  v_probes record;
begin
  select * into v_probes from private.hash_quarter_probes(p_hash);
  return query
    select a.id, private.hash_distance(a.visual_hash, p_hash), a.created_at
      from public.ads a
     where a.visual_hash is not null
       and (((a.visual_hash >> 48) & 65535)::int = any (v_probes.q0) or ((a.visual_hash >> 32) & 65535)::int = any (v_probes.q1)
            or ((a.visual_hash >> 16) & 65535)::int = any (v_probes.q2) or (a.visual_hash & 65535)::int = any (v_probes.q3))
       and private.hash_distance(a.visual_hash, p_hash) <= 7
       and extensions.cube_distance(a.visual_vector, p_vector) <= 0.3;
end;
$$;
revoke all on function private.ads_near_hash(p_hash bigint, p_vector extensions.cube) from public;

-- Checks a written fingerprint and derives what is searched by. An ad is a near-duplicate of the earliest ad added
-- before it whose image nearly duplicates its own (private.ads_near_hash).
create or replace function private.ads_visual_fingerprint() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_sum double precision;
begin
  if new.visual_hash is null then
    new.visual_vector := null;
    new.colour_point := null;
    new.colour_swatches := null;
    new.near_duplicate_of := null;
    return new;
  end if;
  v_sum := (select sum(x) from unnest(new.colour_histogram) x);
  if v_sum not between 0.999 and 1.001 then
    raise exception 'A colour histogram''s shares must add up to 1' using errcode = '23514', detail = 'invalid_fingerprint';
  end if;
  if exists (select 1 from jsonb_array_elements(new.dominant_colours) c
              where jsonb_typeof(c) <> 'object' or (select count(*) from jsonb_object_keys(c)) <> 2
                 or jsonb_typeof(c -> 'hex') is distinct from 'string' or (c ->> 'hex') !~ '^#[0-9a-f]{6}$'
                 or jsonb_typeof(c -> 'share') is distinct from 'number'
                 or (c ->> 'share')::numeric not between 0 and 1) then
    raise exception 'A dominant colour is a #rrggbb hex and a share from 0 to 1' using errcode = '23514', detail = 'invalid_fingerprint';
  end if;
  new.visual_vector := extensions.cube(new.colour_histogram::double precision[]);
  new.colour_point := private.colour_point(new.dominant_colours);
  new.colour_swatches := private.colour_swatches(new.dominant_colours);
  new.near_duplicate_of := (select n.id from private.ads_near_hash(new.visual_hash, new.visual_vector) n
                             where n.id <> new.id and (n.created_at, n.id) < (new.created_at, new.id)
                             order by n.created_at, n.id limit 1);
  return new;
end;
$$;
revoke all on function private.ads_visual_fingerprint() from public;

-- When an ad comes, changes image or date, the ads pointing at it and the ads near it look again. One update whose
-- condition joined the two with OR would read the whole table for every ad written (an index answers neither side of
-- such an OR); so two updates, each through its own index: the ads pointing at it
-- (ads_near_duplicate_of), then, when it has a fingerprint, the ads near it (the hash quarter indexes), leaving out
-- those the first update already made look again.
create or replace function private.ads_near_duplicates_look_again() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'DELETE' then
    update public.ads a set near_duplicate_of = null where a.near_duplicate_of = old.id;
    return old;
  end if;
  if tg_op = 'UPDATE' and old.visual_hash is not distinct from new.visual_hash
     and old.colour_histogram is not distinct from new.colour_histogram and old.created_at = new.created_at then
    return new;
  end if;
  if tg_op = 'UPDATE' then
    update public.ads a set near_duplicate_of = null where a.near_duplicate_of = new.id and a.id <> new.id;
  end if;
  if new.visual_hash is not null then
    update public.ads a set near_duplicate_of = null
     where a.id in (select n.id from private.ads_near_hash(new.visual_hash, new.visual_vector) n)
       and a.id <> new.id
       and a.near_duplicate_of is distinct from new.id;
  end if;
  return new;
end;
$$;
revoke all on function private.ads_near_duplicates_look_again() from public;

-- How alike two ads are, 0 to 1: the mix docs/decisions/0038 documents. Visual: the colour histograms' distance
-- (0 to √2 between two distributions) and the hashes' differing bits (32 is what unrelated images differ by).
create or replace function private.ad_likeness(p_a public.ads, p_b public.ads, p_shared_tags int, p_tags_a int, p_tags_b int)
returns double precision
language sql immutable parallel safe
set search_path = ''
as $$
  select 0.40 * coalesce(0.6 * (1 - least(1, extensions.cube_distance(p_a.visual_vector, p_b.visual_vector) / sqrt(2)))
                         + 0.4 * greatest(0, 1 - private.hash_distance(p_a.visual_hash, p_b.visual_hash) / 32.0), 0)
       + 0.25 * case when p_tags_a + p_tags_b - p_shared_tags > 0
                     then p_shared_tags::double precision / (p_tags_a + p_tags_b - p_shared_tags) else 0 end
       + 0.12 * (p_a.category_id = p_b.category_id)::int
       + 0.08 * coalesce((p_a.hook_id = p_b.hook_id)::int, 0)
       + 0.08 * coalesce((p_a.type_id = p_b.type_id)::int, 0)
       + 0.07 * coalesce((p_a.format = p_b.format)::int, 0)
$$;
revoke all on function private.ad_likeness(p_a public.ads, p_b public.ads, p_shared_tags integer, p_tags_a integer, p_tags_b integer) from public;

-- Up to 12 ads most like one ad, from its own board (the Black Friday board's for signed-in callers only), each
-- locked or clear for the caller exactly as in the grid, most alike first. The candidates: the 100 nearest in colour
-- (ads.colour_point), the 30 newest ads of each of its ordinary tags, and the 30 newest of its category and of its
-- hook; each is then scored by private.ad_likeness.
create or replace function public.similar_ads(p_id uuid) returns jsonb
language plpgsql
stable
security definer
set search_path = ''
set max_parallel_workers_per_gather = 0
as $$
declare
  v_ad public.ads;
  v_uid uuid := (select auth.uid());
  v_valid_access boolean;
  v_tags uuid[];
  v_ids uuid[];
  v_clear boolean[];
begin
  select * into v_ad from public.ads where id = p_id;
  if v_ad.id is null then
    raise exception 'Ad not found' using errcode = 'PT404', detail = 'ad_not_found';
  end if;
  if v_ad.is_black_friday and v_uid is null then
    return '[]'::jsonb;
  end if;
  v_valid_access := public.has_valid_access();
  v_tags := array(select t.tag_id from public.ad_tags t join public.tags g on g.id = t.tag_id
                   where t.ad_id = v_ad.id and g.system_key is null);

  with candidates as (
    (select a.id from public.ads a
      where v_ad.colour_point is not null and a.colour_point is not null and not a.is_black_friday
        and not v_ad.is_black_friday
      order by a.colour_point operator(extensions.<->) v_ad.colour_point limit 101)
    union
    (select a.id from public.ads a
      where v_ad.colour_point is not null and a.colour_point is not null and a.is_black_friday
        and v_ad.is_black_friday
      order by a.colour_point operator(extensions.<->) v_ad.colour_point limit 101)
    union
    select t.ad_id from unnest(v_tags) m (tag_id)
     cross join lateral (select h.ad_id from public.ad_tags h where h.tag_id = m.tag_id
                          order by h.ad_created_at desc, h.ad_id desc limit 30) t
    union
    (select a.id from public.ads a where a.category_id = v_ad.category_id order by a.created_at desc, a.id desc limit 30)
    union
    (select a.id from public.ads a where v_ad.hook_id is not null and a.hook_id = v_ad.hook_id
      order by a.created_at desc, a.id desc limit 30)
  ), scored as (
    select a.id, a.created_at, private.ad_is_clear_for(a, v_uid is not null, v_valid_access) as clear,
           private.ad_likeness(v_ad, a,
             (select count(*) from public.ad_tags h where h.ad_id = a.id and h.tag_id = any (v_tags))::int,
             cardinality(v_tags),
             (select count(*) from public.ad_tags h join public.tags g on g.id = h.tag_id
               where h.ad_id = a.id and g.system_key is null)::int) as likeness
      from candidates c join public.ads a on a.id = c.id
     where a.id <> v_ad.id and a.is_black_friday = v_ad.is_black_friday
     order by likeness desc, a.created_at desc, a.id desc
     limit 12
  )
  select array_agg(s.id order by s.likeness desc, s.created_at desc, s.id desc),
         array_agg(s.clear order by s.likeness desc, s.created_at desc, s.id desc)
    into v_ids, v_clear
    from scored s;
  return private.ads_json(coalesce(v_ids, '{}'), coalesce(v_clear, '{}'));
end;
$$;
revoke all on function public.similar_ads(p_id uuid) from public;

-- For the admin's upload: the ads whose image nearly duplicates a fingerprint's (private.ads_near_hash), nearest hash
-- first, at most 5, each as the grid shows it to an admin, with its hash distance.
create or replace function public.admin_near_duplicates(p_hash bigint, p_histogram real[]) returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_ids uuid[];
  v_extra jsonb[];
begin
  perform private.require_admin();
  if p_hash is null or p_histogram is null or cardinality(p_histogram) <> 16 or array_ndims(p_histogram) <> 1
     or array_position(p_histogram, null) is not null then
    raise exception 'A fingerprint hash and its 16-bin histogram are required' using errcode = 'P0001', detail = 'invalid_fingerprint';
  end if;
  select array_agg(n.id order by n.distance, n.created_at, n.id),
         array_agg(jsonb_build_object('distance', n.distance) order by n.distance, n.created_at, n.id)
    into v_ids, v_extra
    from (select * from private.ads_near_hash(p_hash, extensions.cube(p_histogram::double precision[]))
           order by distance, created_at, id limit 5) n;
  return private.ads_json(coalesce(v_ids, '{}'), array_fill(true, array[coalesce(cardinality(v_ids), 0)]), v_extra);
end;
$$;
revoke all on function public.admin_near_duplicates(p_hash bigint, p_histogram real[]) from public, anon;

-- For the admin's table: near-duplicate groups, each the earliest ad and the later ads that are near-duplicates of
-- it, the groups with the newest duplicate first, 20 groups a page (p_page from 0).
create or replace function public.admin_near_duplicate_groups(p_page int default 0) returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_groups jsonb;
  v_total int;
begin
  perform private.require_admin();
  if p_page is null or p_page not between 0 and 10000 then
    raise exception 'Page must be 0 to 10000' using errcode = 'P0001', detail = 'invalid_page';
  end if;
  select count(distinct near_duplicate_of) into v_total from public.ads where near_duplicate_of is not null;
  select coalesce(jsonb_agg(jsonb_build_object(
           'original', private.ads_json(array[o.id], array[true], array[private.ad_object_paths(o)]) -> 0,
           'duplicates', (select private.ads_json(array_agg(d.id order by d.created_at, d.id),
                                                  array_agg(true order by d.created_at, d.id),
                                                  array_agg(private.ad_object_paths(d)
                                                            || jsonb_build_object('distance', private.hash_distance(d.visual_hash, o.visual_hash))
                                                            order by d.created_at, d.id))
                            from public.ads d
                           where d.near_duplicate_of = o.id))
           order by g.latest desc, g.original), '[]'::jsonb)
    into v_groups
    from (select a.near_duplicate_of as original, max(a.created_at) as latest
            from public.ads a where a.near_duplicate_of is not null
           group by a.near_duplicate_of
           order by max(a.created_at) desc, a.near_duplicate_of
           limit 20 offset p_page * 20) g
    join public.ads o on o.id = g.original;
  return jsonb_build_object('groups', v_groups, 'total', v_total);
end;
$$;
revoke all on function public.admin_near_duplicate_groups(p_page integer) from public, anon;

-- The token a Storage signed URL carries for one object, before its signature: the HS256 header and the payload
-- {"url","iat","exp"}, base64url. Plain SQL without settings, so the planner inlines it.
create function private.image_link_token(p_bucket text, p_name text, p_iat bigint, p_exp bigint) returns text
language sql stable
as $$
  select 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.'
    || replace(replace(replace(replace(encode(convert_to('{"url":"' || p_bucket || '/' || p_name || '","iat":' || p_iat
         || ',"exp":' || p_exp || '}', 'UTF8'), 'base64'), E'\n', ''), '+', '-'), '/', '_'), '=', '')
$$;
revoke all on function private.image_link_token(p_bucket text, p_name text, p_iat bigint, p_exp bigint) from public;

-- The signed URL (relative to /storage/v1/) for one object and the token image_link_token wrote for it, signed with
-- the pads of private.image_link_key(): the same text as private.signed_object_url's. The token should be a column
-- or a variable: an expression passed here would be written twice when the planner inlines this.
create function private.signed_image_link(p_bucket text, p_name text, p_token text, p_key_pads bytea) returns text
language sql stable
as $$
  select 'object/sign/' || p_bucket || '/' || p_name || '?token=' || p_token || '.'
    || rtrim(replace(replace(encode(sha256(substring(p_key_pads from 65 for 64)
         || sha256(substring(p_key_pads from 1 for 64) || convert_to(p_token, 'UTF8'))), 'base64'), '+', '-'), '/', '_'), '=')
$$;
revoke all on function private.signed_image_link(p_bucket text, p_name text, p_token text, p_key_pads bytea) from public;

create trigger ads_visual_fingerprint
  before insert or update of visual_hash, colour_histogram, dominant_colours, visual_vector, colour_point, colour_swatches,
                             near_duplicate_of, created_at
  on public.ads for each row execute function private.ads_visual_fingerprint();

create trigger ads_near_duplicates_look_again after insert or update of visual_hash, colour_histogram, created_at or delete
  on public.ads for each row execute function private.ads_near_duplicates_look_again();



insert into private.colour_palette (name, hex, l, a, b)
select p.name, p.hex, lab.l, lab.a, lab.b
  from (values ('red', '#d7263d'), ('orange', '#f08a24'), ('yellow', '#f4d03f'), ('green', '#3a9d5d'),
               ('blue', '#2e6fd8'), ('purple', '#7d4cdb'), ('pink', '#ee7fb4'), ('brown', '#8a5a34'),
               ('beige', '#e6d3b3'), ('black', '#141414'), ('grey', '#8e8e8e'), ('white', '#f7f7f5')) p (name, hex)
 cross join lateral private.hex_to_lab(p.hex) lab;

-- ==========================================================================================
-- supabase/schemas/60_listing.sql
-- ==========================================================================================

-- The library's listing: list_ads (boards, filters, search, running days, four orders, keyset cursors signed with
-- HMAC, the paywall decided per ad), the ad page (get_ad, get_ad_neighbours), the words the search reads (search text,
-- vector, lexicon and signatures) and the indexes its reads walk.

-- Function bodies may name tables of later files: they are checked when called, not when created.
set check_function_bodies = false;

-- Every word some ad's search document holds (never a period word). A word stays after its last ad goes: it then
-- only adds a word no ad has to a search.
create table private.search_lexicon (
  word text collate "C" primary key,
  constraint search_lexicon_word_not_empty check (word <> '')
);

-- The same cursor as before: the payload, '.', and the first 18 bytes of its HMAC-SHA-256, both base64url. Written
-- out in plpgsql, where each SQL helper (base64url_encode, hmac_sha256_with_pads) was a function with settings,
-- planned again at every call.
create or replace function private.sign_cursor(p_payload jsonb) returns text
language plpgsql stable
security definer
set search_path = ''
as $$
declare
  v_text bytea := convert_to(p_payload::text, 'UTF8');
  v_pads bytea := (select s.hmac_pads from private.settings s where s.key = 'cursor_secret');
begin
  return translate(encode(v_text, 'base64'), E'+/=\n', '-_') || '.'
    || translate(encode(substring(sha256(substring(v_pads from 65 for 64) || sha256(substring(v_pads from 1 for 64) || v_text))
                                  from 1 for 18), 'base64'), E'+/=\n', '-_');
end;
$$;

-- The payload of a cursor this database signed for the same query, or an error.
create or replace function private.read_cursor(p_cursor text, p_query_key text) returns jsonb
language plpgsql stable
security definer
set search_path = ''
as $$
declare
  v_payload jsonb;
begin
  -- Length first: a huge string is refused before any decoding work.
  if char_length(p_cursor) between 1 and 1000 then
    begin
      v_payload := convert_from(private.base64url_decode(split_part(p_cursor, '.', 1)), 'UTF8')::jsonb;
    exception when others then
      v_payload := null;
    end;
  end if;
  if v_payload is null or jsonb_typeof(v_payload) <> 'object' or private.sign_cursor(v_payload) <> p_cursor
     or v_payload ->> 'q' is distinct from p_query_key then
    raise exception 'Invalid cursor' using errcode = '22023', detail = 'invalid_cursor';
  end if;
  return v_payload;
end;
$$;

-- The same as jsonb, for the answers that are built on as jsonb (one ad, similar ads, near duplicates).
create or replace function private.ads_json(p_ids uuid[], p_clear boolean[], p_extra jsonb[] default null)
returns jsonb
language plpgsql stable
security definer
set search_path = ''
as $$
begin
  return private.ads_json_text(p_ids, p_clear, p_extra)::jsonb;
end;
$$;

-- One ad for its detail page, or null when there is no such ad; the words in its image only for a caller who sees
-- it clear (they are part of the creative).
create or replace function public.get_ad(p_id uuid) returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_ad public.ads;
  v_clear boolean;
begin
  select * into v_ad from public.ads where id = p_id;
  if not found then
    return null;
  end if;
  v_clear := private.ad_is_clear_for(v_ad, (select auth.uid()) is not null, public.has_valid_access());
  return private.ads_json(array[v_ad.id], array[v_clear],
           array[jsonb_build_object('facts', private.ad_facts(v_ad)
                   || jsonb_build_object('image_text', case when v_clear then v_ad.image_text end))]) -> 0;
end;
$$;
revoke all on function public.get_ad(p_id uuid) from public;

-- The ads before and after one ad on its board (library or Black Friday), newest first, wrapping around at the
-- ends; subscribers only.
create or replace function public.get_ad_neighbours(p_id uuid) returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_ad public.ads;
  v_previous uuid;
  v_next uuid;
begin
  if not public.has_valid_access() then
    raise exception 'An active subscription is required' using errcode = '42501', detail = 'subscription_required';
  end if;
  select * into v_ad from public.ads where id = p_id;
  if v_ad.id is null then
    raise exception 'Ad not found' using errcode = 'PT404', detail = 'ad_not_found';
  end if;
  -- Each side as its own statement, so each lookup walks that side's ordered partial index.
  if v_ad.is_black_friday then
    select coalesce(
             (select a.id from public.ads a where a.is_black_friday and (a.created_at, a.id) > (v_ad.created_at, v_ad.id)
               order by a.created_at, a.id limit 1),
             (select a.id from public.ads a where a.is_black_friday order by a.created_at, a.id limit 1)),
           coalesce(
             (select a.id from public.ads a where a.is_black_friday and (a.created_at, a.id) < (v_ad.created_at, v_ad.id)
               order by a.created_at desc, a.id desc limit 1),
             (select a.id from public.ads a where a.is_black_friday order by a.created_at desc, a.id desc limit 1))
      into v_previous, v_next;
  else
    select coalesce(
             (select a.id from public.ads a where not a.is_black_friday and (a.created_at, a.id) > (v_ad.created_at, v_ad.id)
               order by a.created_at, a.id limit 1),
             (select a.id from public.ads a where not a.is_black_friday order by a.created_at, a.id limit 1)),
           coalesce(
             (select a.id from public.ads a where not a.is_black_friday and (a.created_at, a.id) < (v_ad.created_at, v_ad.id)
               order by a.created_at desc, a.id desc limit 1),
             (select a.id from public.ads a where not a.is_black_friday order by a.created_at desc, a.id desc limit 1))
      into v_previous, v_next;
  end if;
  return jsonb_build_object('previous_id', v_previous, 'next_id', v_next);
end;
$$;
revoke all on function public.get_ad_neighbours(p_id uuid) from public, service_role;

-- The class of the user the verified claims name (null: not signed in). Called by the stack's API login with
-- the user id from a JWT it has verified, never through the API.
create or replace function private.answer_class_of(p_user_id uuid) returns text
language sql stable
security definer
set search_path = ''
as $$
  select case
    when p_user_id is null then 'anon'
    when private.user_has_valid_access(p_user_id) then 'access'
    else 'member'
  end
$$;
revoke all on function private.answer_class_of(p_user_id uuid) from public;

-- Text as the search compares it: lower case, accents removed.
create or replace function private.search_fold(p_text text) returns text
language sql stable parallel safe
set search_path = ''
as $$
  select lower(extensions.unaccent('extensions.unaccent'::regdictionary, coalesce(p_text, '')))
$$;
revoke all on function private.search_fold(p_text text) from public;

-- As before, reading the card as json.
create or replace function private.ad_search_text(p_ad public.ads) returns text
language sql stable
set search_path = ''
as $$
  select private.search_fold(concat_ws(e'\n',
    p_ad.card ->> 'brand_name', p_ad.card ->> 'category_name', p_ad.card ->> 'type_name',
    (select string_agg(n.name, e'\n') from json_array_elements_text(p_ad.card -> 'tag_names') n (name)),
    p_ad.headline, p_ad.primary_text, private.landing_host(p_ad.landing_url), p_ad.image_text))
$$;
revoke all on function private.ad_search_text(p_ad public.ads) from public;

-- The words of a folded text, split at spaces and punctuation, as both the document and a search are read.
create or replace function private.search_words(p_folded text) returns tsvector
language sql immutable parallel safe
set search_path = ''
as $$
  select pg_catalog.to_tsvector('pg_catalog.simple'::regconfig, regexp_replace(p_folded, '[[:space:][:punct:]]+', ' ', 'g'))
$$;
revoke all on function private.search_words(p_folded text) from public;

create or replace function private.ads_write_search() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  new.search_text := private.ad_search_text(new);
  new.search_vector := private.ad_search_vector(new.search_text, new.created_at, new.first_seen, new.last_seen,
                                                new.still_running);
  if tg_op = 'INSERT' or new.search_vector is distinct from old.search_vector then
    insert into private.search_lexicon (word)
      select w from unnest(pg_catalog.tsvector_to_array(new.search_vector)) w
       where left(w, 1) <> '~'
      on conflict do nothing;
  end if;
  return new;
end;
$$;
revoke all on function private.ads_write_search() from public;

-- How many days after its first sighting an ad was added (UTC days), the key of its stream: -1 for an ad first
-- seen after it was added, 0 to 31 day by day, then 32 (32 to 63 days), 33 (64 to 127), 34 (128 to 255), 35 (256 to
-- 511), 36 (512 to 1023) and 37 (1024 or more). Null without a first sighting. Both dates never change with today.
create or replace function private.ad_added_lag(p_created_at timestamptz, p_first_seen date) returns int
language sql immutable parallel safe
set search_path = ''
as $$
  select case when p_first_seen is null then null
              when (p_created_at at time zone 'UTC')::date - p_first_seen < 32
                then greatest((p_created_at at time zone 'UTC')::date - p_first_seen, -1)
              else 31 + pg_catalog.width_bucket((p_created_at at time zone 'UTC')::date - p_first_seen,
                                                array[32, 64, 128, 256, 512, 1024]) end
$$;
revoke all on function private.ad_added_lag(p_created_at timestamp with time zone, p_first_seen date) from public;
grant execute on function private.ad_added_lag(p_created_at timestamp with time zone, p_first_seen date) to authenticated, service_role;

-- The words of the day, month and year an ad was added, UTC: '~d20261127', '~m202611', '~y2026'. A typed search is
-- split at spaces and punctuation before it becomes words (list_ads, private.search_words), so none of its words
-- starts with '~' and no search finds an ad by its date.
create or replace function private.search_period_words(p_created_at timestamptz) returns tsvector
language sql stable parallel safe
set search_path = ''
as $$
  select pg_catalog.array_to_tsvector(array[
    '~d' || pg_catalog.to_char(p_created_at at time zone 'UTC', 'YYYYMMDD'),
    '~m' || pg_catalog.to_char(p_created_at at time zone 'UTC', 'YYYYMM'),
    '~y' || pg_catalog.to_char(p_created_at at time zone 'UTC', 'YYYY')])
$$;
revoke all on function private.search_period_words(p_created_at timestamp with time zone) from public;

-- A rare search's reads of the newest ads a period at a time, each read's statement kept prepared.
create or replace function private.search_newest_by_periods(
  p_walked text,
  p_statement text,
  p_depth int,
  p_need int,
  p_hits int,
  p_brand_id uuid, p_category_id uuid, p_type_id uuid, p_tags uuid[], p_since timestamptz,
  p_after_at timestamptz, p_after_id uuid,
  p_platforms text[], p_format text, p_offer text, p_hook_id uuid, p_min_running_days int, p_today date,
  p_tsquery tsquery, p_phrase text
) returns uuid[]
language plpgsql
set search_path = ''
as $$
declare
  -- A read expects at most c_fetch matches, and the page's rest with a quarter more when it needs fewer. Day words
  -- span at most c_days days, month words c_months months, year words c_years years.
  c_fetch constant int := 200;
  c_margin constant double precision := 1.25;
  c_days constant int := 31;
  c_months constant int := 24;
  c_years constant int := 64;
  c_short_reads constant int := 40;
  c_nil constant uuid := '00000000-0000-0000-0000-000000000000';
  v_walked int;
  v_first_at timestamptz;
  v_at timestamptz;
  v_id uuid;
  v_in timestamptz;
  v_oldest timestamptz := (select min(a.created_at) from public.ads a);
  v_found uuid[] := '{}';
  v_page uuid[];
  v_hits bigint := p_hits;
  v_seconds double precision;
  v_rate double precision;
  v_span double precision;
  v_from timestamptz;
  v_level text;
  v_start timestamptz;
  v_reads int := 0;
  v_indexscan text := current_setting('enable_indexscan');
  v_indexonlyscan text := current_setting('enable_indexonlyscan');
  v_seqscan text := current_setting('enable_seqscan');
begin
  execute private.list_ads_statement(p_walked, p_brand_id, p_category_id, p_type_id, p_tags, p_since, p_after_at, p_after_id,
                                     null, null, null, null, p_platforms, p_format, p_offer, p_hook_id, p_min_running_days, p_today,
                                     p_tsquery, p_phrase)
    into v_walked, v_first_at, v_at, v_id;
  if v_walked < p_depth or p_need <= 0 then
    return v_found;
  end if;
  v_seconds := greatest(extract(epoch from v_first_at - v_at), 1);
  -- A period's matches are found in the search index and fetched alone: never by walking an ordered index.
  perform set_config('enable_indexscan', 'off', true), set_config('enable_indexonlyscan', 'off', true),
          set_config('enable_seqscan', 'off', true);
  while cardinality(v_found) < p_need and v_at >= v_oldest loop
    -- The instant the read ends at: the position's own, or just below a period read before.
    v_in := v_at - case when v_id = c_nil then interval '1 microsecond' else interval '0' end;
    v_rate := greatest(v_hits, 1) / v_seconds;
    -- How far back the read reaches: the time the page's rest takes at the rate measured, at most c_fetch matches'.
    v_span := least((p_need - cardinality(v_found)) * c_margin, c_fetch) / v_rate;
    v_from := least(case when v_reads >= c_short_reads or v_span >= extract(epoch from v_in - v_oldest) then v_oldest
                         else v_in - make_interval(secs => v_span) end, v_in);
    v_level := case
      when (v_in at time zone 'UTC')::date - (v_from at time zone 'UTC')::date < c_days then 'day'
      when (extract(year from v_in at time zone 'UTC') - extract(year from v_from at time zone 'UTC')) * 12
           + extract(month from v_in at time zone 'UTC') - extract(month from v_from at time zone 'UTC') < c_months then 'month'
      else 'year' end;
    if v_level = 'year' then
      v_from := greatest(v_from, date_trunc('year', v_in, 'UTC') - make_interval(years => c_years - 1));
    end if;
    v_start := date_trunc(v_level, v_from, 'UTC');
    execute private.kept_statement(p_statement,
      'uuid, uuid, uuid, uuid[], timestamptz, timestamptz, uuid, text, text, text, text, text[], text, text, uuid, int, date, '
      || 'tsquery, text, tsquery, timestamptz, uuid, int',
      concat_ws(', ', quote_nullable(p_brand_id), quote_nullable(p_category_id), quote_nullable(p_type_id),
                quote_nullable(p_tags), quote_nullable(p_since), quote_nullable(p_after_at),
                quote_nullable(p_after_id), quote_nullable(null), quote_nullable(null), quote_nullable(null),
                quote_nullable(null), quote_nullable(p_platforms), quote_nullable(p_format), quote_nullable(p_offer),
                quote_nullable(p_hook_id), quote_nullable(p_min_running_days), quote_nullable(p_today),
                quote_nullable(p_tsquery), quote_nullable(p_phrase),
                quote_nullable(private.search_periods_query(v_level, v_start, v_in)), quote_nullable(v_at),
                quote_nullable(v_id), quote_nullable(p_need - cardinality(v_found))))
      into v_page;
    v_found := v_found || v_page;
    v_hits := v_hits + cardinality(v_page);
    v_seconds := v_seconds + greatest(extract(epoch from v_at - v_start), 1);
    -- Below the read: (t, id) < (its start, the least id) is t < its start.
    v_at := v_start;
    v_id := c_nil;
    v_reads := v_reads + 1;
  end loop;
  perform set_config('enable_indexscan', v_indexscan, true), set_config('enable_indexonlyscan', v_indexonlyscan, true),
          set_config('enable_seqscan', v_seqscan, true);
  return v_found;
end;
$$;
revoke all on function private.search_newest_by_periods(p_walked text, p_statement text, p_depth integer, p_need integer, p_hits integer, p_brand_id uuid, p_category_id uuid, p_type_id uuid, p_tags uuid[], p_since timestamp with time zone, p_after_at timestamp with time zone, p_after_id uuid, p_platforms text[], p_format text, p_offer text, p_hook_id uuid, p_min_running_days integer, p_today date, p_tsquery tsquery, p_phrase text) from public;

-- The words of the lexicon that begin with p_beginning, at most p_limit of them; null when there are more.
create or replace function private.search_words_beginning(p_beginning text, p_limit int) returns text[]
language sql stable parallel safe
set search_path = ''
as $$
  select case when count(*) <= p_limit then coalesce(array_agg(x.word order by x.word), '{}') end
    from (select l.word from private.search_lexicon l
           where l.word >= (p_beginning collate "C")
           order by l.word limit p_limit + 1) x
   where pg_catalog.starts_with(x.word, p_beginning)
$$;
revoke all on function private.search_words_beginning(p_beginning text, p_limit integer) from public;

-- How deep a search's walk of its order went: a walk p_short ads deep goes on to p_long in the same statement when
-- the p_found matches it met would fill the p_need it was asked for within p_walk_on more ads at that rate.
create or replace function private.search_walk_depth(p_short int, p_long int, p_walk_on int, p_found bigint, p_need int)
returns int
language sql immutable parallel safe
set search_path = ''
as $$
  select case when p_found * (p_walk_on + p_short) >= p_need::bigint * p_short then p_long else p_short end
$$;
revoke all on function private.search_walk_depth(p_short integer, p_long integer, p_walk_on integer, p_found bigint, p_need integer) from public;

-- The API's list_ads: the page, made again once with no statement kept should one it counted on be gone.
create or replace function public.list_ads(
  p_board text default 'library',
  p_brand_id uuid default null,
  p_category_id uuid default null,
  p_type_id uuid default null,
  p_tag_ids uuid[] default null,
  p_since timestamptz default null,
  p_search text default null,
  p_cursor text default null,
  p_platforms text[] default null,
  p_format text default null,
  p_offer text default null,
  p_hook_id uuid default null,
  p_min_running_days int default null,
  p_still_running boolean default null,
  p_sort text default 'newest',
  p_colour text default null
) returns json
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  return private.list_ads_page(p_board, p_brand_id, p_category_id, p_type_id, p_tag_ids, p_since, p_search, p_cursor, p_platforms, p_format, p_offer,
      p_hook_id, p_min_running_days, p_still_running, p_sort, p_colour);
exception when invalid_sql_statement_name then
  perform private.forget_kept_statements();
  return private.list_ads_page(p_board, p_brand_id, p_category_id, p_type_id, p_tag_ids, p_since, p_search, p_cursor, p_platforms, p_format, p_offer,
      p_hook_id, p_min_running_days, p_still_running, p_sort, p_colour);
end;
$$;
revoke all on function public.list_ads(p_board text, p_brand_id uuid, p_category_id uuid, p_type_id uuid, p_tag_ids uuid[], p_since timestamp with time zone, p_search text, p_cursor text, p_platforms text[], p_format text, p_offer text, p_hook_id uuid, p_min_running_days integer, p_still_running boolean, p_sort text, p_colour text) from public;

-- Many ads as one JSON array, in the given order, between p_before and p_after: each ad's clear state, a signed link
-- to its blurred preview when locked and to its display variants when clear (and to its video, for a video ad seen
-- clear), all signed for the current window, p_extra's keys, which must not be a card's, and then its card's keys.
-- A card is an object with an id, so its text is '{' followed by at least one key; signed links hold only
-- [A-Za-z0-9/_.?=-] (object names are checked to [A-Za-z0-9/_.-]), so they need no escaping in JSON. p_before and
-- p_after must make JSON of the array with them; the cast to json checks it.
create or replace function private.ads_json_text(p_ids uuid[], p_clear boolean[], p_extra jsonb[] default null,
                                                 p_before text default '', p_after text default '')
returns json
-- plpgsql keeps the query's plan for the session, and it is the generic one (docs/decisions/0043).
language plpgsql stable
security definer
set search_path = ''
set plan_cache_mode = force_generic_plan
as $$
declare
  v_key bytea := private.image_link_key();
  v_iat bigint := private.image_link_window_start(now());
  v_exp bigint := v_iat + 86400;
begin
  return (select string_agg(x.piece, x.delimiter order by x.ord)::json
    from (select 0::bigint as ord, coalesce(p_before, '') || '[' as piece, '' as delimiter
          union all
          select p.ord,
                 '{"is_clear": ' || coalesce(p.clear::text, 'null')
                   || ', "preview_url": ' || coalesce('"' || private.signed_image_link('ad-images', a.preview_path, t.preview, v_key) || '"', 'null')
                   || ', "display_480_url": ' || coalesce('"' || private.signed_image_link('ad-images', a.display_480_path, t.display_480, v_key) || '"', 'null')
                   || ', "display_960_url": ' || coalesce('"' || private.signed_image_link('ad-images', a.display_960_path, t.display_960, v_key) || '"', 'null')
                   || case when t.video is not null
                        then ', "video_url": "' || private.signed_image_link('ad-videos', a.video_path, t.video, v_key) || '"' else '' end
                   -- p_extra's keys without its braces.
                   || case when p.extra is null or p.extra = '{}'::jsonb then ''
                           else ', ' || substr(p.extra::text, 2, length(p.extra::text) - 2) end
                   || ', ' || right(a.card::text, -1),
                 -- The first ad found has no delimiter before it (an id asked for may have no ad).
                 case when p.ord = min(p.ord) over () then '' else ', ' end
            from unnest(p_ids, p_clear, coalesce(p_extra, array_fill(null::jsonb, array[coalesce(cardinality(p_ids), 0)])))
                   with ordinality as p (id, clear, extra, ord)
            join public.ads a on a.id = p.id
            -- Each token once: offset 0 keeps this subquery whole, where the planner would otherwise write each
            -- token's expression into both places signed_image_link uses it.
            cross join lateral (
              select case when not p.clear then private.image_link_token('ad-images', a.preview_path, v_iat, v_exp) end as preview,
                     case when p.clear then private.image_link_token('ad-images', a.display_480_path, v_iat, v_exp) end as display_480,
                     case when p.clear then private.image_link_token('ad-images', a.display_960_path, v_iat, v_exp) end as display_960,
                     case when p.clear and a.video_path is not null
                          then private.image_link_token('ad-videos', a.video_path, v_iat, v_exp) end as video
              offset 0) t
          union all
          select 9223372036854775807, ']' || coalesce(p_after, ''), '') x);
end;
$$;
revoke all on function private.ads_json_text(p_ids uuid[], p_clear boolean[], p_extra jsonb[], p_before text, p_after text) from public;

-- A list's answer, {"ads" : [...], "next_cursor" : ...}, written whole by ads_json_text. A signed cursor holds only
-- base64url letters and dots, so it needs no escaping. Plain SQL without settings, so the planner inlines it into
-- the caller's return and the answer is not copied once more.
create function private.ads_page_json(p_ids uuid[], p_clear boolean[], p_extra jsonb[], p_next_cursor text)
returns json
language sql stable
as $$
  select private.ads_json_text(p_ids, p_clear, p_extra,
    '{"ads" : ', ', "next_cursor" : ' || coalesce('"' || p_next_cursor || '"', 'null') || '}')
$$;
revoke all on function private.ads_page_json(p_ids uuid[], p_clear boolean[], p_extra jsonb[], p_next_cursor text) from public;

-- The words of an ad's place in the longest-running order, as no typed search can make them (decision 0040): a
-- running ad's key is its first sighting's day (days since 1970-01-01, ascending: the oldest has run longest), an
-- ended ad's is first_seen - last_seen (ascending: the longest run first); '~s' or '~e', the block's size as a power
-- of two (0, 3, 6, 9), '_', and the key shifted right by it: '~s9_39', '~e3_-5'. An undated ad has none.
create or replace function private.search_running_words(p_first_seen date, p_last_seen date, p_still_running boolean)
returns tsvector
language sql immutable parallel safe
set search_path = ''
as $$
  select pg_catalog.array_to_tsvector(coalesce(array(
    select s.stream || l.level || '_' || (s.key >> l.level)
      from (select case when p_still_running then '~s' else '~e' end as stream,
                   case when p_still_running then p_first_seen - date '1970-01-01' else p_first_seen - p_last_seen end as key
             where p_first_seen is not null and (p_still_running or p_last_seen is not null)) s
     cross join (values (0), (3), (6), (9)) as l (level)), '{}'))
$$;
revoke all on function private.search_running_words(p_first_seen date, p_last_seen date, p_still_running boolean) from public;

create function private.ad_search_vector(p_search_text text, p_created_at timestamptz, p_first_seen date,
                                         p_last_seen date, p_still_running boolean)
returns tsvector
language sql stable parallel safe
set search_path = ''
as $$
  select private.search_words(p_search_text) || private.search_period_words(p_created_at)
    || private.search_running_words(p_first_seen, p_last_seen, p_still_running)
$$;
revoke all on function private.ad_search_vector(p_search_text text, p_created_at timestamp with time zone, p_first_seen date, p_last_seen date, p_still_running boolean) from public;

-- A rare search's reads of the longest-running order a block at a time, its statement kept prepared.
create or replace function private.search_running_blocks(
  p_statement text,
  p_rest text,
  p_stream text,
  p_first int,
  p_after_id uuid,
  p_last int,
  p_need int,
  p_brand_id uuid, p_category_id uuid, p_type_id uuid, p_tags uuid[], p_since timestamptz,
  p_platforms text[], p_format text, p_offer text, p_hook_id uuid, p_min_running_days int, p_today date,
  p_tsquery tsquery, p_phrase text,
  out ids uuid[], out keys int[]
)
language plpgsql
set search_path = ''
as $$
declare
  c_cap constant int := 300;
  c_nil constant uuid := '00000000-0000-0000-0000-000000000000';
  v_key int := p_first;
  v_id uuid := coalesce(p_after_id, c_nil);
  v_level int := 9;
  -- Per level (0, 3, 6, 9 at 1..4; 12, the rest of the stream, at 5), the last key of a block of that level that
  -- held too many: not read again at that level until passed.
  v_crowded int[] := array[null, null, null, null, null]::int[];
  v_last int;
  v_count int;
  v_ids uuid[];
  v_keys int[];
  v_indexscan text := current_setting('enable_indexscan');
  v_indexonlyscan text := current_setting('enable_indexonlyscan');
  v_seqscan text := current_setting('enable_seqscan');
begin
  ids := '{}';
  keys := '{}';
  -- A block's matches are found in the search index and fetched alone: never by walking an ordered index.
  perform set_config('enable_indexscan', 'off', true), set_config('enable_indexonlyscan', 'off', true),
          set_config('enable_seqscan', 'off', true);
  while cardinality(ids) < p_need and v_key <= p_last loop
    while v_level > 0 and v_crowded[v_level / 3 + 1] >= v_key loop
      v_level := v_level - 3;
    end loop;
    v_last := case when v_level = 12 then p_last
                   else least(((v_key >> v_level) << v_level) + (1 << v_level) - 1, p_last) end;
    execute private.kept_statement(case when v_level = 12 then p_rest else p_statement end,
      'uuid, uuid, uuid, uuid[], timestamptz, timestamptz, uuid, text, text, text, text, text[], text, text, uuid, int, date, '
      || 'tsquery, text, tsquery, int, int, uuid, int',
      concat_ws(', ', quote_nullable(p_brand_id), quote_nullable(p_category_id), quote_nullable(p_type_id),
                quote_nullable(p_tags), quote_nullable(p_since), quote_nullable(null), quote_nullable(null),
                quote_nullable(null), quote_nullable(null), quote_nullable(null), quote_nullable(null),
                quote_nullable(p_platforms), quote_nullable(p_format), quote_nullable(p_offer),
                quote_nullable(p_hook_id), quote_nullable(p_min_running_days), quote_nullable(p_today),
                quote_nullable(p_tsquery), quote_nullable(p_phrase),
                quote_nullable(case when v_level < 12 then private.search_running_cover(p_stream, v_key, v_last, v_level) end),
                quote_nullable(v_key), quote_nullable(v_last), quote_nullable(v_id),
                quote_nullable(case when v_level > 0 then c_cap + 1 end)))
      into v_count, v_ids, v_keys;
    if v_count > c_cap and v_level > 0 then
      v_crowded[v_level / 3 + 1] := v_last;
      v_level := v_level - 3;
      continue;
    end if;
    ids := ids || v_ids[1:p_need - cardinality(ids)];
    keys := keys || v_keys[1:p_need - cardinality(keys)];
    v_key := v_last + 1;
    v_id := c_nil;
    if v_count * 8 <= c_cap and v_level < 12 then
      v_level := v_level + 3;
    elsif v_count * 2 > c_cap and v_level > 0 then
      v_level := v_level - 3;
    end if;
  end loop;
  perform set_config('enable_indexscan', v_indexscan, true), set_config('enable_indexonlyscan', v_indexonlyscan, true),
          set_config('enable_seqscan', v_seqscan, true);
end;
$$;
revoke all on function private.search_running_blocks(p_statement text, p_rest text, p_stream text, p_first integer, p_after_id uuid, p_last integer, p_need integer, p_brand_id uuid, p_category_id uuid, p_type_id uuid, p_tags uuid[], p_since timestamp with time zone, p_platforms text[], p_format text, p_offer text, p_hook_id uuid, p_min_running_days integer, p_today date, p_tsquery tsquery, p_phrase text, OUT ids uuid[], OUT keys integer[]) from public;

-- The words of the lexicon that hold p_part anywhere, at most p_limit of them; null when there are more.
create or replace function private.search_words_containing(p_part text, p_limit int) returns text[]
language plpgsql stable parallel safe
set search_path = ''
as $$
begin
  return (select case when count(*) <= p_limit then coalesce(array_agg(x.word order by x.word), '{}') end
            from (select l.word from private.search_lexicon l
                   where l.word like '%' || replace(replace(replace(p_part, '\', '\\'), '%', '\%'), '_', '\_') || '%'
                   limit p_limit + 1) x);
end;
$$;
revoke all on function private.search_words_containing(p_part text, p_limit integer) from public;

-- The words of every period of p_level ('day', 'month' or 'year', UTC) from the one holding p_from to the one holding
-- p_to, as one query that matches any of them.
create function private.search_periods_query(p_level text, p_from timestamptz, p_to timestamptz) returns tsquery
language sql stable parallel safe
set search_path = ''
as $$
  select pg_catalog.string_agg(pg_catalog.quote_literal(case p_level
           when 'day' then '~d' || pg_catalog.to_char(s.at, 'YYYYMMDD')
           when 'month' then '~m' || pg_catalog.to_char(s.at, 'YYYYMM')
           else '~y' || pg_catalog.to_char(s.at, 'YYYY') end), ' | ' order by s.at)::tsquery
    from pg_catalog.generate_series(pg_catalog.date_trunc(p_level, p_from at time zone 'UTC'),
                                    pg_catalog.date_trunc(p_level, p_to at time zone 'UTC'),
                                    ('1 ' || p_level)::interval) as s (at)
$$;
revoke all on function private.search_periods_query(p_level text, p_from timestamp with time zone, p_to timestamp with time zone) from public;

-- The condition on an ad's signature (alias a) that every ad matching a folded search meets, or null. Each run of
-- three or more ASCII letters of the search lies in one word of a matching ad, whether the ad matched by words or by
-- the text anywhere (decision 0048: the parser never splits a run of letters), so the ad's signature holds the bits
-- of one of the lexicon's words holding that run. A run held by more than p_words words adds no condition.
create or replace function private.search_signature_match(p_folded text, p_words int) returns text
language sql stable parallel safe
set search_path = ''
as $$
  select string_agg('(' || array_to_string(array(
           select format('(a.search_signature & %1$s::bit(256)) = %1$s::bit(256)', quote_literal(private.search_word_bits(w)::text))
             from unnest(c.words) w), ' or ') || ')', ' and ')
    from (select private.search_words_containing(m.run[1], 64) as words
            from regexp_matches(p_folded, '[a-z]{3,}', 'g') m (run) offset 0) c
   where cardinality(c.words) between 1 and p_words
$$;
revoke all on function private.search_signature_match(p_folded text, p_words integer) from public;

-- The masks of the one group of a search's signature bits (private.search_signature_match) with the fewest words:
-- an ad that matches the search holds both bits of one of them. Null when no group has 1 to p_words words.
create or replace function private.search_signature_masks(p_folded text, p_words int) returns bit(256)[]
language sql stable parallel safe
set search_path = ''
as $$
  select array(select private.search_word_bits(w) from unnest(c.words) w)
    from (select private.search_words_containing(m.run[1], 64) as words
            from regexp_matches(p_folded, '[a-z]{3,}', 'g') m (run) offset 0) c
   where cardinality(c.words) between 1 and p_words
   order by cardinality(c.words)
   limit 1
$$;
revoke all on function private.search_signature_masks(p_folded text, p_words integer) from public;

-- The newest 61 ads of a board (after the cursor) that ran at least p_min_running_days by p_today, pass the filters
-- and match the search (p_query as words, p_phrase as the text anywhere; both null for no search; p_masks the
-- signature bits one of which every match holds, at most 8, or null) but not p_not_query (null: nothing excluded;
-- the relevance order's second tier excludes the whole-word matches of its first). An ad that ran N days by today was first seen
-- on X = today - (N - 1) at the latest, unless it was last seen after today (UTC+14): one added k days after its first
-- sighting was added on X + k at the latest. The running ads are read in a stream per delay, which starts there:
-- every ad of a day-by-day stream below that start was first seen early enough. The ended ads are read in a stream
-- per bucket of days ran, only the buckets that reach N days. The few running ads first seen after X and last seen
-- after today come from an index of the dates. A stream is walked in its index, which holds the dates, the board and
-- the signature; the ads that pass are looked up for the rest. The streams are merged on the order's key, and each is
-- read only as far as the merge asks, passing at most p_walk ads (null: no bound). A stream's walk cut there says
-- nothing of its ads below the cut: when a stream holds more than p_walk ads above the page's last, the answer is
-- null, and the caller reads the page another way. The plan is kept for the session: the statement has the same
-- shape on every call.
create or replace function private.ads_running_at_least(p_board text, p_since timestamp with time zone, p_category_id uuid, p_type_id uuid, p_platforms text[], p_format text, p_offer text, p_hook_id uuid, p_colour text, p_min_running_days integer, p_still_running boolean, p_today date, p_after_at timestamp with time zone, p_after_id uuid, p_query tsquery, p_phrase text, p_not_query tsquery, p_masks bit[], p_walk integer) returns uuid[]
language plpgsql stable
set search_path = ''
set plan_cache_mode = force_generic_plan
set max_parallel_workers_per_gather = 0
as $$
declare
  -- X: the latest first sighting of an ad that ran the asked days by today (unless last seen after today).
  v_first_seen_by date := p_today - p_min_running_days + 1;
  -- The first instant after day X, in UTC.
  v_before timestamptz := ((v_first_seen_by + 1)::timestamp at time zone 'UTC');
  v_latest date := private.latest_today();
  v_since timestamptz := coalesce(p_since, '-infinity');
  v_running boolean := coalesce(p_still_running, false);
  -- The bucket of days ran that N days fall in: the ended ads' streams from there up can hold an ad run long enough.
  v_ended_from int := private.ad_ran_bucket(v_first_seen_by, p_today);
  v_after_at timestamptz := coalesce(p_after_at, 'infinity');
  v_after_id uuid := coalesce(p_after_id, 'ffffffff-ffff-ffff-ffff-ffffffffffff');
  -- No search: every ad matches.
  v_any boolean := p_query is null and p_phrase is null;
  -- Nothing to look up: the index decides.
  v_index_alone boolean := v_any and p_category_id is null and p_type_id is null and p_platforms is null and p_format is null
                           and p_offer is null and p_hook_id is null and p_colour is null;
  -- The signature masks, read from the array once: a variable is a parameter of the kept plan, which the conditions
  -- read as it is.
  v_mask1 bit(256) := p_masks[1];
  v_mask2 bit(256) := p_masks[2];
  v_mask3 bit(256) := p_masks[3];
  v_mask4 bit(256) := p_masks[4];
  v_mask5 bit(256) := p_masks[5];
  v_mask6 bit(256) := p_masks[6];
  v_mask7 bit(256) := p_masks[7];
  v_mask8 bit(256) := p_masks[8];
  v_ids uuid[];
  v_ats timestamptz[];
  -- The page's last ad (the 61st), below every ad when the page is not full.
  v_last_at timestamptz := '-infinity';
  v_last_id uuid := '00000000-0000-0000-0000-000000000000';
  v_cut boolean;
begin
  if cardinality(p_masks) > 8 then
    raise exception 'At most 8 signature masks' using errcode = '22023';
  end if;
  select coalesce(array_agg(s.id order by s.created_at desc, s.id desc), '{}'),
         coalesce(array_agg(s.created_at order by s.created_at desc, s.id desc), '{}')
    into v_ids, v_ats from (
    select s.id, s.created_at from (
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = -1 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '-24 hours', v_after_at), case when v_after_at <= v_before + interval '-24 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 0 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '0 hours', v_after_at), case when v_after_at <= v_before + interval '0 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 1 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '24 hours', v_after_at), case when v_after_at <= v_before + interval '24 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 2 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '48 hours', v_after_at), case when v_after_at <= v_before + interval '48 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 3 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '72 hours', v_after_at), case when v_after_at <= v_before + interval '72 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 4 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '96 hours', v_after_at), case when v_after_at <= v_before + interval '96 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 5 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '120 hours', v_after_at), case when v_after_at <= v_before + interval '120 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 6 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '144 hours', v_after_at), case when v_after_at <= v_before + interval '144 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 7 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '168 hours', v_after_at), case when v_after_at <= v_before + interval '168 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 8 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '192 hours', v_after_at), case when v_after_at <= v_before + interval '192 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 9 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '216 hours', v_after_at), case when v_after_at <= v_before + interval '216 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 10 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '240 hours', v_after_at), case when v_after_at <= v_before + interval '240 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 11 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '264 hours', v_after_at), case when v_after_at <= v_before + interval '264 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 12 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '288 hours', v_after_at), case when v_after_at <= v_before + interval '288 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 13 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '312 hours', v_after_at), case when v_after_at <= v_before + interval '312 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 14 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '336 hours', v_after_at), case when v_after_at <= v_before + interval '336 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 15 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '360 hours', v_after_at), case when v_after_at <= v_before + interval '360 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 16 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '384 hours', v_after_at), case when v_after_at <= v_before + interval '384 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 17 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '408 hours', v_after_at), case when v_after_at <= v_before + interval '408 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 18 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '432 hours', v_after_at), case when v_after_at <= v_before + interval '432 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 19 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '456 hours', v_after_at), case when v_after_at <= v_before + interval '456 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 20 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '480 hours', v_after_at), case when v_after_at <= v_before + interval '480 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 21 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '504 hours', v_after_at), case when v_after_at <= v_before + interval '504 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 22 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '528 hours', v_after_at), case when v_after_at <= v_before + interval '528 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 23 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '552 hours', v_after_at), case when v_after_at <= v_before + interval '552 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 24 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '576 hours', v_after_at), case when v_after_at <= v_before + interval '576 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 25 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '600 hours', v_after_at), case when v_after_at <= v_before + interval '600 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 26 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '624 hours', v_after_at), case when v_after_at <= v_before + interval '624 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 27 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '648 hours', v_after_at), case when v_after_at <= v_before + interval '648 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 28 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '672 hours', v_after_at), case when v_after_at <= v_before + interval '672 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 29 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '696 hours', v_after_at), case when v_after_at <= v_before + interval '696 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 30 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '720 hours', v_after_at), case when v_after_at <= v_before + interval '720 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 31 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '744 hours', v_after_at), case when v_after_at <= v_before + interval '744 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 32 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '1512 hours', v_after_at), case when v_after_at <= v_before + interval '1512 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 33 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '3048 hours', v_after_at), case when v_after_at <= v_before + interval '3048 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 34 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '6120 hours', v_after_at), case when v_after_at <= v_before + interval '6120 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 35 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '12264 hours', v_after_at), case when v_after_at <= v_before + interval '12264 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 36 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '24552 hours', v_after_at), case when v_after_at <= v_before + interval '24552 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 37 and w.created_at >= v_since and (w.created_at, w.id) < (v_after_at, v_after_id)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where not v_running and v_ended_from <= 0 and not w.still_running and w.first_seen is not null and w.last_seen is not null and private.ad_ran_bucket(w.first_seen, w.last_seen) = 0 and w.created_at >= v_since and (w.created_at, w.id) < (v_after_at, v_after_id)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.last_seen - w.first_seen + 1 >= p_min_running_days
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where not v_running and v_ended_from <= 1 and not w.still_running and w.first_seen is not null and w.last_seen is not null and private.ad_ran_bucket(w.first_seen, w.last_seen) = 1 and w.created_at >= v_since and (w.created_at, w.id) < (v_after_at, v_after_id)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.last_seen - w.first_seen + 1 >= p_min_running_days
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where not v_running and v_ended_from <= 2 and not w.still_running and w.first_seen is not null and w.last_seen is not null and private.ad_ran_bucket(w.first_seen, w.last_seen) = 2 and w.created_at >= v_since and (w.created_at, w.id) < (v_after_at, v_after_id)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.last_seen - w.first_seen + 1 >= p_min_running_days
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where not v_running and v_ended_from <= 3 and not w.still_running and w.first_seen is not null and w.last_seen is not null and private.ad_ran_bucket(w.first_seen, w.last_seen) = 3 and w.created_at >= v_since and (w.created_at, w.id) < (v_after_at, v_after_id)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.last_seen - w.first_seen + 1 >= p_min_running_days
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where not v_running and v_ended_from <= 4 and not w.still_running and w.first_seen is not null and w.last_seen is not null and private.ad_ran_bucket(w.first_seen, w.last_seen) = 4 and w.created_at >= v_since and (w.created_at, w.id) < (v_after_at, v_after_id)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.last_seen - w.first_seen + 1 >= p_min_running_days
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where not v_running and v_ended_from <= 5 and not w.still_running and w.first_seen is not null and w.last_seen is not null and private.ad_ran_bucket(w.first_seen, w.last_seen) = 5 and w.created_at >= v_since and (w.created_at, w.id) < (v_after_at, v_after_id)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.last_seen - w.first_seen + 1 >= p_min_running_days
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where not v_running and v_ended_from <= 6 and not w.still_running and w.first_seen is not null and w.last_seen is not null and private.ad_ran_bucket(w.first_seen, w.last_seen) = 6 and w.created_at >= v_since and (w.created_at, w.id) < (v_after_at, v_after_id)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.last_seen - w.first_seen + 1 >= p_min_running_days
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where not v_running and v_ended_from <= 7 and not w.still_running and w.first_seen is not null and w.last_seen is not null and private.ad_ran_bucket(w.first_seen, w.last_seen) = 7 and w.created_at >= v_since and (w.created_at, w.id) < (v_after_at, v_after_id)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.last_seen - w.first_seen + 1 >= p_min_running_days
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where not v_running and v_ended_from <= 8 and not w.still_running and w.first_seen is not null and w.last_seen is not null and private.ad_ran_bucket(w.first_seen, w.last_seen) = 8 and w.created_at >= v_since and (w.created_at, w.id) < (v_after_at, v_after_id)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.last_seen - w.first_seen + 1 >= p_min_running_days
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where not v_running and v_ended_from <= 9 and not w.still_running and w.first_seen is not null and w.last_seen is not null and private.ad_ran_bucket(w.first_seen, w.last_seen) = 9 and w.created_at >= v_since and (w.created_at, w.id) < (v_after_at, v_after_id)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.last_seen - w.first_seen + 1 >= p_min_running_days
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where not v_running and v_ended_from <= 10 and not w.still_running and w.first_seen is not null and w.last_seen is not null and private.ad_ran_bucket(w.first_seen, w.last_seen) = 10 and w.created_at >= v_since and (w.created_at, w.id) < (v_after_at, v_after_id)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.last_seen - w.first_seen + 1 >= p_min_running_days
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where not v_running and v_ended_from <= 11 and not w.still_running and w.first_seen is not null and w.last_seen is not null and private.ad_ran_bucket(w.first_seen, w.last_seen) = 11 and w.created_at >= v_since and (w.created_at, w.id) < (v_after_at, v_after_id)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.last_seen - w.first_seen + 1 >= p_min_running_days
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      -- Running, first seen after X, yet run long enough by a last sighting after today in UTC (decision 0031's
      -- UTC+14 rule): a few days of first sightings at most, read in the index of the dates. The fence keeps the
      -- order's index out, and whether the ad is running is checked above it: below it, the running ads' index by
      -- first sighting, which holds no last sighting, would read every running ad of those days from the table.
      (select e.id, e.created_at from (select a.id, a.created_at, a.still_running from public.ads a
        where a.first_seen > v_first_seen_by and a.first_seen <= v_latest - p_min_running_days + 1 and a.last_seen > p_today
          and case p_board when 'library' then not a.is_black_friday when 'black-friday' then a.is_black_friday else a.is_top_picks end
          and a.last_seen - a.first_seen + 1 >= p_min_running_days
          and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false)
        offset 0) e
        where e.still_running and e.created_at >= v_since and (e.created_at, e.id) < (v_after_at, v_after_id)
        order by e.created_at desc, e.id desc limit 61)
    ) s
    order by s.created_at desc, s.id desc
    limit 61
  ) s;
  -- A walk cut above the page's last ad may have missed an ad of the page: the caller reads the page another way.
  if p_walk is not null then
    if cardinality(v_ids) = 61 then
      v_last_at := v_ats[61];
      v_last_id := v_ids[61];
    end if;
    select (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = -1 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '-24 hours', v_after_at), case when v_after_at <= v_before + interval '-24 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 0 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '0 hours', v_after_at), case when v_after_at <= v_before + interval '0 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 1 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '24 hours', v_after_at), case when v_after_at <= v_before + interval '24 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 2 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '48 hours', v_after_at), case when v_after_at <= v_before + interval '48 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 3 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '72 hours', v_after_at), case when v_after_at <= v_before + interval '72 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 4 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '96 hours', v_after_at), case when v_after_at <= v_before + interval '96 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 5 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '120 hours', v_after_at), case when v_after_at <= v_before + interval '120 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 6 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '144 hours', v_after_at), case when v_after_at <= v_before + interval '144 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 7 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '168 hours', v_after_at), case when v_after_at <= v_before + interval '168 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 8 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '192 hours', v_after_at), case when v_after_at <= v_before + interval '192 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 9 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '216 hours', v_after_at), case when v_after_at <= v_before + interval '216 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 10 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '240 hours', v_after_at), case when v_after_at <= v_before + interval '240 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 11 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '264 hours', v_after_at), case when v_after_at <= v_before + interval '264 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 12 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '288 hours', v_after_at), case when v_after_at <= v_before + interval '288 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 13 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '312 hours', v_after_at), case when v_after_at <= v_before + interval '312 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 14 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '336 hours', v_after_at), case when v_after_at <= v_before + interval '336 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 15 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '360 hours', v_after_at), case when v_after_at <= v_before + interval '360 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 16 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '384 hours', v_after_at), case when v_after_at <= v_before + interval '384 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 17 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '408 hours', v_after_at), case when v_after_at <= v_before + interval '408 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 18 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '432 hours', v_after_at), case when v_after_at <= v_before + interval '432 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 19 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '456 hours', v_after_at), case when v_after_at <= v_before + interval '456 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 20 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '480 hours', v_after_at), case when v_after_at <= v_before + interval '480 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 21 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '504 hours', v_after_at), case when v_after_at <= v_before + interval '504 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 22 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '528 hours', v_after_at), case when v_after_at <= v_before + interval '528 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 23 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '552 hours', v_after_at), case when v_after_at <= v_before + interval '552 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 24 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '576 hours', v_after_at), case when v_after_at <= v_before + interval '576 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 25 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '600 hours', v_after_at), case when v_after_at <= v_before + interval '600 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 26 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '624 hours', v_after_at), case when v_after_at <= v_before + interval '624 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 27 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '648 hours', v_after_at), case when v_after_at <= v_before + interval '648 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 28 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '672 hours', v_after_at), case when v_after_at <= v_before + interval '672 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 29 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '696 hours', v_after_at), case when v_after_at <= v_before + interval '696 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 30 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '720 hours', v_after_at), case when v_after_at <= v_before + interval '720 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 31 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '744 hours', v_after_at), case when v_after_at <= v_before + interval '744 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 32 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '1512 hours', v_after_at), case when v_after_at <= v_before + interval '1512 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 33 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '3048 hours', v_after_at), case when v_after_at <= v_before + interval '3048 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 34 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '6120 hours', v_after_at), case when v_after_at <= v_before + interval '6120 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 35 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '12264 hours', v_after_at), case when v_after_at <= v_before + interval '12264 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 36 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '24552 hours', v_after_at), case when v_after_at <= v_before + interval '24552 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 37 and w.created_at >= v_since and (w.created_at, w.id) < (v_after_at, v_after_id)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where not v_running and v_ended_from <= 0 and not w.still_running and w.first_seen is not null and w.last_seen is not null and private.ad_ran_bucket(w.first_seen, w.last_seen) = 0 and w.created_at >= v_since and (w.created_at, w.id) < (v_after_at, v_after_id)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where not v_running and v_ended_from <= 1 and not w.still_running and w.first_seen is not null and w.last_seen is not null and private.ad_ran_bucket(w.first_seen, w.last_seen) = 1 and w.created_at >= v_since and (w.created_at, w.id) < (v_after_at, v_after_id)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where not v_running and v_ended_from <= 2 and not w.still_running and w.first_seen is not null and w.last_seen is not null and private.ad_ran_bucket(w.first_seen, w.last_seen) = 2 and w.created_at >= v_since and (w.created_at, w.id) < (v_after_at, v_after_id)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where not v_running and v_ended_from <= 3 and not w.still_running and w.first_seen is not null and w.last_seen is not null and private.ad_ran_bucket(w.first_seen, w.last_seen) = 3 and w.created_at >= v_since and (w.created_at, w.id) < (v_after_at, v_after_id)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where not v_running and v_ended_from <= 4 and not w.still_running and w.first_seen is not null and w.last_seen is not null and private.ad_ran_bucket(w.first_seen, w.last_seen) = 4 and w.created_at >= v_since and (w.created_at, w.id) < (v_after_at, v_after_id)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where not v_running and v_ended_from <= 5 and not w.still_running and w.first_seen is not null and w.last_seen is not null and private.ad_ran_bucket(w.first_seen, w.last_seen) = 5 and w.created_at >= v_since and (w.created_at, w.id) < (v_after_at, v_after_id)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where not v_running and v_ended_from <= 6 and not w.still_running and w.first_seen is not null and w.last_seen is not null and private.ad_ran_bucket(w.first_seen, w.last_seen) = 6 and w.created_at >= v_since and (w.created_at, w.id) < (v_after_at, v_after_id)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where not v_running and v_ended_from <= 7 and not w.still_running and w.first_seen is not null and w.last_seen is not null and private.ad_ran_bucket(w.first_seen, w.last_seen) = 7 and w.created_at >= v_since and (w.created_at, w.id) < (v_after_at, v_after_id)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where not v_running and v_ended_from <= 8 and not w.still_running and w.first_seen is not null and w.last_seen is not null and private.ad_ran_bucket(w.first_seen, w.last_seen) = 8 and w.created_at >= v_since and (w.created_at, w.id) < (v_after_at, v_after_id)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where not v_running and v_ended_from <= 9 and not w.still_running and w.first_seen is not null and w.last_seen is not null and private.ad_ran_bucket(w.first_seen, w.last_seen) = 9 and w.created_at >= v_since and (w.created_at, w.id) < (v_after_at, v_after_id)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where not v_running and v_ended_from <= 10 and not w.still_running and w.first_seen is not null and w.last_seen is not null and private.ad_ran_bucket(w.first_seen, w.last_seen) = 10 and w.created_at >= v_since and (w.created_at, w.id) < (v_after_at, v_after_id)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where not v_running and v_ended_from <= 11 and not w.still_running and w.first_seen is not null and w.last_seen is not null and private.ad_ran_bucket(w.first_seen, w.last_seen) = 11 and w.created_at >= v_since and (w.created_at, w.id) < (v_after_at, v_after_id)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c) into v_cut;
    if v_cut then
      return null;
    end if;
  end if;
  return v_ids;
end;
$$;
revoke all on function private.ads_running_at_least(p_board text, p_since timestamp with time zone, p_category_id uuid, p_type_id uuid, p_platforms text[], p_format text, p_offer text, p_hook_id uuid, p_colour text, p_min_running_days integer, p_still_running boolean, p_today date, p_after_at timestamp with time zone, p_after_id uuid, p_query tsquery, p_phrase text, p_not_query tsquery, p_masks bit[], p_walk integer) from public;

-- How long an ended ad ran (its last sighting minus its first, plus one), as the key of its stream: 0 under 7 days,
-- then 1 (7 to 13), 2 (14 to 29), 3 (30 to 44), 4 (45 to 59), 5 (60 to 89), 6 (90 to 119), 7 (120 to 179), 8 (180 to
-- 269), 9 (270 to 364), 10 (365 to 729), 11 (730 or more). Null without both sightings. Neither date changes with
-- today.
create function private.ad_ran_bucket(p_first_seen date, p_last_seen date) returns int
language sql immutable parallel safe
set search_path = ''
as $$
  select case when p_first_seen is null or p_last_seen is null then null
              else pg_catalog.width_bucket(p_last_seen - p_first_seen + 1, array[7, 14, 30, 45, 60, 90, 120, 180, 270, 365, 730]) end
$$;
revoke all on function private.ad_ran_bucket(p_first_seen date, p_last_seen date) from public;
grant execute on function private.ad_ran_bucket(p_first_seen date, p_last_seen date) to authenticated, service_role;

-- The words of the blocks of a stream ('~s' or '~e', as private.search_running_words writes them) that hold the keys
-- p_from to p_to (none when p_from > p_to), as one query: the blocks of the widest level, p_level (0, 3, 6 or 9) or
-- narrower, whose blocks together hold at most twice as many keys as asked (a one-day block holds one). Each word
-- costs the search index a lookup, and a wider block's matches outside the range are fetched from the table only to
-- be dropped: the range's own blocks of the next level down would hold fewer than half of them. For keys within one
-- block of p_level, as its caller asks, that is at most 13 words.
create function private.search_running_cover(p_stream text, p_from int, p_to int, p_level int) returns tsquery
language plpgsql immutable parallel safe
set search_path = ''
as $$
declare
  v_level int := p_level;
begin
  if p_stream not in ('~s', '~e') or p_level not in (0, 3, 6, 9) then
    raise exception 'Unknown block stream % or level %', p_stream, p_level using errcode = '22023';
  end if;
  if p_from > p_to then
    return null;
  end if;
  -- The keys the blocks of v_level hold from p_from's to p_to's: ((p_to >> v_level) - (p_from >> v_level) + 1) << v_level.
  while v_level > 0 and ((p_to >> v_level) - (p_from >> v_level) + 1)::bigint << v_level > 2 * (p_to::bigint - p_from + 1) loop
    v_level := v_level - 3;
  end loop;
  return (select string_agg(pg_catalog.quote_literal(p_stream || v_level || '_' || b), ' | ' order by b)
            from generate_series(p_from >> v_level, p_to >> v_level) b)::tsquery;
end;
$$;
revoke all on function private.search_running_cover(p_stream text, p_from integer, p_to integer, p_level integer) from public;

-- The command that runs a statement with its values, `execute obyect_<md5>(values)`, the statement prepared first
-- under that name (drawn from its parameters' types and its text) if this session has not kept it. A prepared
-- statement takes its values only as literals: p_values is their list, each written by quote_nullable.
create or replace function private.kept_statement(p_sql text, p_types text, p_values text)
returns text
language plpgsql
volatile
set search_path = ''
as $$
declare
  v_name text := 'obyect_' || md5(p_types || ';' || p_sql);
begin
  if strpos(coalesce(current_setting('obyect.kept_statements', true), ''), v_name) = 0 then
    perform private.keep_statement(v_name, p_sql, p_types);
  end if;
  return 'execute ' || v_name || '(' || p_values || ')';
end;
$$;
revoke all on function private.kept_statement(p_sql text, p_types text, p_values text) from public;

-- A statement of list_ads with list_ads' values ($1 to $21; $8 to $11 are unused).
create or replace function private.list_ads_statement(
  p_sql text,
  p1 uuid, p2 uuid, p3 uuid, p4 uuid[], p5 timestamptz, p6 timestamptz, p7 uuid,
  p8 text, p9 text, p10 text, p11 text, p12 text[], p13 text, p14 text, p15 uuid, p16 int, p17 date,
  p18 tsquery, p19 text, p20 int default null, p21 date default null
) returns text
language plpgsql
volatile
set search_path = ''
as $$
begin
  return private.kept_statement(p_sql,
    'uuid, uuid, uuid, uuid[], timestamptz, timestamptz, uuid, text, text, text, text, text[], text, text, uuid, int, date, tsquery, text, int, date',
    concat_ws(', ', quote_nullable(p1), quote_nullable(p2), quote_nullable(p3), quote_nullable(p4), quote_nullable(p5),
              quote_nullable(p6), quote_nullable(p7), quote_nullable(p8), quote_nullable(p9), quote_nullable(p10),
              quote_nullable(p11), quote_nullable(p12), quote_nullable(p13), quote_nullable(p14), quote_nullable(p15),
              quote_nullable(p16), quote_nullable(p17), quote_nullable(p18), quote_nullable(p19), quote_nullable(p20),
              quote_nullable(p21)));
end;
$$;
revoke all on function private.list_ads_statement(p_sql text, p1 uuid, p2 uuid, p3 uuid, p4 uuid[], p5 timestamp with time zone, p6 timestamp with time zone, p7 uuid, p8 text, p9 text, p10 text, p11 text, p12 text[], p13 text, p14 text, p15 uuid, p16 integer, p17 date, p18 tsquery, p19 text, p20 integer, p21 date) from public;

-- Prepares a statement under its name, unless the session holds it already (a transaction that rolled back forgets
-- the setting, not the statement), and lists it last in obyect.kept_statements. Past 64 the oldest are let go, and
-- so is any statement of ours the list does not name.
create or replace function private.keep_statement(p_name text, p_sql text, p_types text)
returns void
language plpgsql
volatile
set search_path = ''
as $$
declare
  c_kept constant int := 64;
  v_kept text[] := array_remove(coalesce(string_to_array(nullif(current_setting('obyect.kept_statements', true), ''), ' '), '{}'), p_name);
  v_held text[] := array(select s.name from pg_catalog.pg_prepared_statements s where s.name like 'obyect\_%');
  v_gone text;
begin
  if p_name !~ '^obyect_[0-9a-f]{32}$' then
    raise exception 'Not a kept statement''s name: %', p_name;
  end if;
  v_kept := v_kept[greatest(1, cardinality(v_kept) - c_kept + 2):];
  foreach v_gone in array v_held loop
    if v_gone <> p_name and not v_gone = any(v_kept) then
      execute format('deallocate %I', v_gone);
    end if;
  end loop;
  v_kept := array(select k from unnest(v_kept) with ordinality u(k, n) where k = any(v_held) order by n);
  if not p_name = any(v_held) then
    execute format('prepare %I(%s) as %s', p_name, p_types, p_sql);
  end if;
  perform set_config('obyect.kept_statements', array_to_string(v_kept || p_name, ' '), false);
end;
$$;
revoke all on function private.keep_statement(p_name text, p_sql text, p_types text) from public;

-- Lets go every statement list_ads kept in this session, and the list of them.
create or replace function private.forget_kept_statements()
returns void
language plpgsql
volatile
set search_path = ''
as $$
declare
  v_name text;
begin
  for v_name in select s.name from pg_catalog.pg_prepared_statements s where s.name like 'obyect\_%' loop
    execute format('deallocate %I', v_name);
  end loop;
  perform set_config('obyect.kept_statements', '', false);
end;
$$;
revoke all on function private.forget_kept_statements() from public;

create or replace function private.list_ads_page(
  p_board text default 'library',
  p_brand_id uuid default null,
  p_category_id uuid default null,
  p_type_id uuid default null,
  p_tag_ids uuid[] default null,
  p_since timestamptz default null,
  p_search text default null,
  p_cursor text default null,
  p_platforms text[] default null,
  p_format text default null,
  p_offer text default null,
  p_hook_id uuid default null,
  p_min_running_days int default null,
  p_still_running boolean default null,
  p_sort text default 'newest',
  p_colour text default null
) returns json
language plpgsql
volatile
set search_path = ''
set jit = off
as $$
declare
  c_page_size constant int := 60;
  v_uid uuid := (select auth.uid());
  v_search text := nullif(btrim(coalesce(p_search, '')), '');
  v_tags uuid[] := (select array_agg(distinct t order by t) from unnest(coalesce(p_tag_ids, '{}'::uuid[])) t where t is not null);
  v_platforms text[];
  v_running boolean := coalesce(p_still_running, false);
  v_sort text := coalesce(p_sort, 'newest');
  v_valid_access boolean := public.has_valid_access();
  v_today date := (now() at time zone 'UTC')::date;
  v_query_key text;
  v_cursor jsonb;
  v_after_at timestamptz;
  v_after_id uuid;
  v_after_days int;
  v_after_seen date;
  v_after_tier int;
  v_folded text;
  v_tsquery tsquery;
  v_phrase text;
  v_word_match text;
  v_phrase_match text;
  v_board text;
  v_facts text;
  -- The facts' filters that an ad's age tells nothing of (not its dates nor when it was added).
  v_ageless_facts text;
  v_conditions text;
  v_sql text;
  v_ids uuid[];
  v_more uuid[];
  v_last uuid;
  v_page_ids uuid[];
  v_page_clear boolean[];
  v_next_cursor text;
  -- Tags intersected by merging their ranges while the commonest has at most this many times the rarest's ads.
  c_merge_ratio constant int := 10;
  v_rarest bigint;
  v_commonest bigint;
  v_merge boolean := false;
  v_tag int;
  v_hashjoin text := current_setting('enable_hashjoin');
  v_workers text := current_setting('max_parallel_workers_per_gather');
  -- How deep a search walks the order before it asks the search index. In the newest and relevance orders the walk
  -- is the query itself, cut at this depth (c_exact_walk for a search of whole words): a page found within it is the
  -- answer, and the rest of a page is read a period of additions at a time below the walk's last ad. In the two
  -- dated orders a probe
  -- of the board's newest ads counts the matches: a search found in fewer than 61 of them is read through the search
  -- index (a walk of the ordered index would pass over most of the board to fill a page).
  c_probe constant int := 3000;
  v_word_hits int := 0;
  v_part_hits int := 0;
  -- The relevance order's two tiers apart, with the running days (20261214000100): whether its whole-word matches
  -- and its matches by the text anywhere alone are rare.
  v_rare_words boolean := false;
  v_rare_parts boolean := false;
  v_rare boolean := false;
  v_indexscan text := current_setting('enable_indexscan');
  v_indexonlyscan text := current_setting('enable_indexonlyscan');
  v_seqscan text := current_setting('enable_seqscan');
  -- Conditions on ads a without the search; the search's match on the walked rows w.
  v_filters text;
  v_walk text;
  v_from text;
  -- A search that does not fill the page within c_probe ads reads the rest a period at a time
  -- (private.search_newest_by_periods): the walk's extent (%1$s the cursor), and one period's matches (%1$s the
  -- match, with $20 the period's word).
  v_walked text;
  v_periods text;
  v_word_period text;
  v_phrase_period text;
  -- A search's match on ads a: its words or its text anywhere; and the same within a period or block ($20).
  v_any_match text;
  v_any_period text;
  -- A search of one word of ASCII letters held by at most c_containing words of the lexicon: those words, which
  -- are its text anywhere (20261208000100).
  c_containing constant int := 64;
  v_containing text[];
  v_containing_query text;
  -- The same words as bits of the ads' search signatures (20261211000200): a walk of a dated order's streams checks
  -- them in the stream's index and reads from the table only the ads whose signature holds one of them. Past this
  -- many words a signature holds one of them too often to be worth the checks.
  c_signed_words constant int := 8;
  -- The recently-seen order has no blocks of days: a rare search there reads all its matches and orders them, a
  -- cost that grows with the matches in the whole library. With signature bits it walks unless the probe of the
  -- newest c_signed_probe ads finds it rare for the library's size: a walk passes about 61/p ads, reading every
  -- match costs about p times the library's ads, so at the newest ads' rate p = hits/probed it is rare when
  -- hits^2 * ads <= c_signed_balance * probed^2 (at 1,000,000 ads found in at most 4 of 1,000, at 100,000 in 12).
  c_signed_probe constant int := 1000;
  c_signed_balance constant int := 16;
  v_probed int;
  -- A search with filters in the recently-seen order: the board with the filters an ad's age tells nothing of, and
  -- how many of the probed ads match the search and pass them.
  v_probe_filters text;
  v_filtered_hits int;
  -- Its balance: a filtered walk reads the wide streams, whose entries cost more than the narrow ones'. For bench:db's
  -- searches with filters at 1,000,000 ads (decision 0054), q * p * ads / probed^2 was 44 or less wherever reading
  -- the matches was faster, and 76 or more wherever the walk was.
  c_filtered_balance constant int := 64;
  v_signed boolean := false;
  v_signature_match text;
  -- A search of the board alone, with signature bits: its walk of one stream, how many ads a stream's walk may
  -- pass, and whether a walk passed that many without filling the page.
  v_signable boolean := false;
  -- At most c_signed_walk ads a walk, or the setting obyect.signed_walk where it is set (1 or more: a smaller walk
  -- reads the page as a rare search's sooner, with the same answer).
  c_signed_walk constant int := greatest(1, coalesce(nullif(current_setting('obyect.signed_walk', true), '')::int, 30000));
  v_signed_stream text;
  v_signed_extent text;
  -- The columns of a filtered walk's stream that its filters read, after the stream's limit (20261212000100).
  v_signed_columns text := '';
  v_signed_cut boolean;
  v_bitmapscan text := current_setting('enable_bitmapscan');
  v_mergejoin text := current_setting('enable_mergejoin');
  -- The first stream of a dated order, read before the second is bounded by it.
  v_first text;
  -- A search that would walk more than this many ads beyond the first c_probe to fill its page, at the rate it was
  -- found in them, reads the rest a period at a time; a commoner one walks on. A search of whole words always reads
  -- periods after its walk: a period's matches cost what they hold, not what the word holds in the whole library.
  c_walk_on constant int := 1000;
  -- The words typed; when the lexicon knows every word the last one can be (at most c_beginnings), the search as
  -- whole words, which the periods are read with. Such a search walks only c_exact_walk ads before it reads periods.
  c_beginnings constant int := 32;
  c_exact_walk constant int := 300;
  v_words text[];
  v_beginnings text[];
  v_exact_query tsquery;
  v_period_query tsquery;
  v_walk_depth int := c_probe;
  v_walked_depth int;
  v_probe_depth int := c_probe;
  -- A rare search in the longest-running order: each stream's statement for one block, its first and last key,
  -- and what it found.
  v_epoch_today int;
  v_stream_sql text;
  v_block_match text;
  v_rest_match text;
  v_running_blocks text;
  v_running_rest text;
  v_ended_blocks text;
  v_ended_rest text;
  v_running_first int;
  v_running_last int;
  v_ended_first int;
  v_ended_last int;
  v_running_ids uuid[];
  v_running_keys int[];
  v_ended_ids uuid[];
  v_ended_keys int[];
  -- A search with the running-days filter in the newest order (20261213000100) walks the streams of
  -- private.ads_running_at_least, matching on the ads read there, unless it is rare. Its streams hold only the ads
  -- that ran long enough (the running ones below their start, the ended ones whose days ran reach the asked days,
  -- 20261216000100), so a walk passes about 1/q of their entries, q the share of the ads that match and pass the
  -- filters an ad's age says nothing of (of the board's newest c_signed_probe ads), whatever the asked days. Reading
  -- every match that passes those filters in the search index costs about q times the library's ads, each from the
  -- table, whatever the asked days too. Rare when q^2 * ads <= c_running_balance * probed^2 (decision 0058), or the
  -- setting obyect.running_balance where it is set (0 or more: 0 walks every search the probe finds, a large one
  -- reads every search's matches, with the same answer).
  c_running_balance constant int := greatest(0, coalesce(nullif(current_setting('obyect.running_balance', true), '')::int, 200));
  -- A walk passes at most c_running_walk ads of each of its streams, or the setting obyect.running_walk where it
  -- is set (1 or more): a search found among the newest ads but not among those that ran long enough (a brand new
  -- to the library, say) would otherwise walk every stream to its end. A walk cut short reads the page as a rare
  -- search's.
  c_running_walk constant int := greatest(1, coalesce(nullif(current_setting('obyect.running_walk', true), '')::int, 5000));
  v_running_days_search boolean;
  v_match_query tsquery;
  v_match_phrase text;
  -- The relevance order's second tier: the ads the text anywhere matches and the whole words do not (on ads a), and
  -- as the streams take it. For a search of one word that the lexicon gives the words holding it, those of them that
  -- do not begin with it (v_part_words; none: the tier is empty); otherwise the text anywhere.
  v_part_words text[];
  v_part_match text;
  v_part_query tsquery;
  v_part_phrase text;
  v_part_masks bit(256)[];
  -- A running-days search's page, or one tier's, read newest first through the search index (with the index and
  -- sequential scans off): the match beyond v_conditions (%1$s, ' and ...' or ''), the cursor (%2$s), how many (%3$s).
  v_index_read text;
begin
  if p_board is null or p_board not in ('library', 'black-friday', 'top-picks') then
    raise exception 'Unknown board %', p_board using errcode = 'P0001', detail = 'unknown_board';
  end if;
  if char_length(v_search) > 100 then
    raise exception 'Search text is too long (100 characters at most)' using errcode = 'P0001', detail = 'search_too_long';
  end if;
  if cardinality(v_tags) > 10 then
    raise exception 'Too many tags (10 at most)' using errcode = 'P0001', detail = 'too_many_tags';
  end if;
  if cardinality(p_platforms) > 7 or array_position(p_platforms, null) is not null
     or not coalesce(p_platforms, '{}') <@ array['meta', 'instagram', 'tiktok', 'youtube', 'pinterest', 'snapchat', 'google'] then
    raise exception 'Unknown platform' using errcode = 'P0001', detail = 'invalid_filter';
  end if;
  if p_format is not null and p_format not in ('single_image', 'carousel', 'video') then
    raise exception 'Unknown format %', p_format using errcode = 'P0001', detail = 'invalid_filter';
  end if;
  if p_offer is not null and p_offer not in ('discount', 'free_shipping', 'bundle', 'none') then
    raise exception 'Unknown offer %', p_offer using errcode = 'P0001', detail = 'invalid_filter';
  end if;
  if p_min_running_days is not null and p_min_running_days not between 1 and 3650 then
    raise exception 'Running days must be 1 to 3650' using errcode = 'P0001', detail = 'invalid_filter';
  end if;
  if p_colour is not null and not exists (select 1 from private.colour_palette s where s.name = p_colour) then
    raise exception 'Unknown colour %', p_colour using errcode = 'P0001', detail = 'invalid_filter';
  end if;
  if v_sort not in ('newest', 'longest_running', 'recently_seen', 'relevance') then
    raise exception 'Unknown order %', p_sort using errcode = 'P0001', detail = 'unknown_sort';
  end if;
  if p_board = 'black-friday' and v_uid is null then
    raise exception 'Sign in to open the Black Friday board' using errcode = '42501', detail = 'sign_in_required';
  end if;
  v_platforms := nullif(array(select distinct x from unnest(p_platforms) x order by x), '{}');
  if v_sort = 'relevance' and v_search is null then
    v_sort := 'newest';
  end if;

  -- Positional, nulls included, so no two different queries share a key.
  v_query_key := md5(jsonb_build_array(p_board, p_brand_id, p_category_id, p_type_id, v_tags,
    private.iso_utc(p_since), lower(v_search), v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_running,
    v_sort, p_colour)::text);

  if p_cursor is not null then
    v_cursor := private.read_cursor(p_cursor, v_query_key);
    v_today := coalesce((v_cursor ->> 'day')::date, v_today);
    v_after_at := (v_cursor ->> 't')::timestamptz;
    v_after_id := (v_cursor ->> 'i')::uuid;
    v_after_days := (v_cursor ->> 'd')::int;
    v_after_seen := (v_cursor ->> 's')::date;
    v_after_tier := (v_cursor ->> 'r')::int;
  end if;

  -- The search: every word as a word or a word's beginning (the last one), or the whole text anywhere.
  if v_search is not null then
    v_folded := private.search_fold(v_search);
    -- The words in the order typed: the last one is read as a word's beginning.
    v_words := array(select t.w from regexp_split_to_table(regexp_replace(v_folded, '[[:space:][:punct:]]+', ' ', 'g'), ' ')
                                     with ordinality t (w, n)
                      where t.w <> '' order by t.n);
    v_tsquery := (select string_agg(quote_literal(x.w) || case when x.n = cardinality(v_words) then ':*' else '' end, ' & ' order by x.n)
                    from unnest(v_words) with ordinality x (w, n))::tsquery;
    -- Whole words only where the text anywhere can be read through the index's trigrams too (three letters running).
    if v_tsquery is not null and v_folded ~ '[[:alnum:]]{3}' then
      v_beginnings := private.search_words_beginning(v_words[cardinality(v_words)], c_beginnings);
      if v_beginnings is not null then
        -- No word of the lexicon begins so: the typed word itself, which no ad holds, so nothing matches.
        v_exact_query := (select string_agg(x.q, ' & ')
                            from (select quote_literal(w) as q from unnest(v_words[1:cardinality(v_words) - 1]) w
                                  union all
                                  select '(' || coalesce(nullif(array_to_string(array(select quote_literal(b) from unnest(v_beginnings) b), ' | '), ''),
                                                         quote_literal(v_words[cardinality(v_words)])) || ')') x)::tsquery;
        v_walk_depth := c_exact_walk;
      end if;
    end if;
    v_period_query := coalesce(v_exact_query, v_tsquery);
    v_phrase := '%' || replace(replace(replace(v_folded, '\', '\\'), '%', '\%'), '_', '\_') || '%';
    v_word_match := case when v_tsquery is null then 'false' else 'a.search_vector @@ $18' end;
    v_phrase_match := 'a.search_text like $19';
    v_word_period := case when v_tsquery is null then 'false' else 'a.search_vector @@ ($18 && $20)' end;
    v_phrase_period := '(a.search_text like $19 and a.search_vector @@ $20)';
    v_any_match := '(' || v_word_match || ' or ' || v_phrase_match || ')';
    v_any_period := '(' || v_word_period || ' or ' || v_phrase_period || ')';
    -- One word of three or more ASCII letters lies in one run of letters of a search text, and so in one of its
    -- words: the text anywhere is the words of the lexicon that hold it, read through the search index's words
    -- instead of its trigrams. They hold every word that begins with it, so they are also the whole match. Written
    -- into the statements as a literal: lexicon words hold no punctuation, so no '.' for the walks' 'a.' -> 'w.'.
    if v_folded ~ '^[a-z]{3,}$' then
      v_containing := private.search_words_containing(v_folded, c_containing);
      if v_containing is not null then
        -- No word of the lexicon holds it: the word itself, which no ad holds, so nothing matches.
        v_containing_query := quote_literal(coalesce(
          nullif(array_to_string(array(select quote_literal(w) from unnest(v_containing) w), ' | '), ''),
          quote_literal(v_folded))) || '::tsquery';
        v_phrase_match := 'a.search_vector @@ ' || v_containing_query;
        v_phrase_period := 'a.search_vector @@ (' || v_containing_query || ' && $20)';
        v_any_match := v_phrase_match;
        v_any_period := v_phrase_period;
      end if;
    end if;
    -- In a dated order, the condition on an ad's signature that every match meets (private.search_signature_match).
    if v_tsquery is not null and (v_sort in ('longest_running', 'recently_seen')
                                  or (v_sort in ('newest', 'relevance') and p_min_running_days is not null)) then
      v_signature_match := private.search_signature_match(v_folded, c_signed_words);
    end if;
  end if;

  v_board := case p_board
    when 'library' then 'not a.is_black_friday'
    when 'black-friday' then 'a.is_black_friday'
    else 'a.is_top_picks' end;
  -- The facts' filters on ads a; $12..$17 are bound below. The running days as private.running_days counts them.
  v_ageless_facts := case when v_platforms is not null then ' and a.platforms && $12' else '' end
    || case when p_format is not null then ' and a.format = $13' else '' end
    || case when p_offer is not null then ' and a.offer = $14' else '' end
    || case when p_hook_id is not null then ' and a.hook_id = $15' else '' end
    -- A palette swatch's name, checked above, written into the statement.
    || case when p_colour is not null then ' and a.colour_swatches @> array[' || quote_literal(p_colour) || ']::text[]' else '' end;
  v_facts := v_ageless_facts
    || case when p_min_running_days is not null then
         ' and (case when a.still_running then greatest($17, coalesce(a.last_seen, a.first_seen)) else a.last_seen end)'
         || ' - a.first_seen + 1 >= $16'
         -- The same ads and maybe a few more, in the terms of the running and ended ads' indexes, for the planner to
         -- read them there when they are few: no sighting is after the latest day begun on Earth.
         || ' and ((a.still_running and a.first_seen <= ' || quote_literal(private.latest_today()) || '::date - $16 + 1)'
         || ' or (not a.still_running and a.last_seen is not null and (a.first_seen - a.last_seen) <= 1 - $16))' else '' end
    || case when v_running then ' and a.still_running' else '' end;
  -- Conditions on ads a; $1..$7 are bound below.
  v_filters := v_board
    || case when p_brand_id is not null then ' and a.brand_id = $1' else '' end
    || case when p_category_id is not null then ' and a.category_id = $2' else '' end
    || case when p_type_id is not null then ' and a.type_id = $3' else '' end
    || case when v_tags is not null then
         ' and not exists (select 1 from unnest($4::uuid[]) w(id) where not exists '
         || '(select 1 from public.ad_tags h where h.ad_id = a.id and h.tag_id = w.id))' else '' end
    || case when p_since is not null then ' and a.created_at >= $5' else '' end
    || v_facts;
  v_conditions := v_filters
    || case when v_search is not null and v_sort <> 'relevance' then ' and ' || v_any_match else '' end;
  -- A search with signature bits walks the dated orders with them (see below), with its filters too when the
  -- streams hold their columns: all but the brand's (which has streams of its own) and the tags'.
  v_signable := v_signature_match is not null and p_brand_id is null and v_tags is null;
  v_running_days_search := v_sort in ('newest', 'relevance') and p_min_running_days is not null and v_signable;
  if v_running_days_search and v_sort = 'relevance' then
    if v_containing is not null then
      v_part_words := array(select w from unnest(v_containing) w where not starts_with(w, v_folded));
      if cardinality(v_part_words) > 0 then
        v_part_query := array_to_string(array(select quote_literal(w) from unnest(v_part_words) w), ' | ')::tsquery;
        -- Written into the statements as a literal, as v_containing_query is.
        v_part_match := 'a.search_vector @@ ' || quote_literal(v_part_query::text) || '::tsquery'
          || ' and not coalesce(' || v_word_match || ', false)';
        v_part_masks := case when cardinality(v_part_words) <= c_signed_words
                             then array(select private.search_word_bits(w) from unnest(v_part_words) w)
                             else private.search_signature_masks(v_folded, c_signed_words) end;
      end if;
    else
      v_part_phrase := v_phrase;
      v_part_match := v_phrase_match || ' and not coalesce(' || v_word_match || ', false)';
      v_part_masks := private.search_signature_masks(v_folded, c_signed_words);
    end if;
  end if;
  v_probe_filters := v_board
    || case when p_category_id is not null then ' and a.category_id = $2' else '' end
    || case when p_type_id is not null then ' and a.type_id = $3' else '' end
    || v_ageless_facts;
  -- The first step of a search in the newest or relevance order: the order's walk, v_walk_depth ads deep, keeping
  -- the matches (%1$s, on w) after the cursor (%2$s) up to %3$s. When they fill the page they are the page; otherwise
  -- how many it found says how rare the search is. A search of whole words found often enough in its short walk to
  -- fill the page within c_walk_on more ads walks on to c_probe in the same statement (the second part runs only
  -- then), since walking costs less than reading periods for it; private.search_walk_depth says how deep it went.
  v_walk := 'select coalesce(array_agg(x.id order by x.created_at desc, x.id desc), ''{}'') from ('
    || 'with near as (select w.id, w.created_at from (select a.id, a.created_at, a.search_vector, a.search_text'
    || ' from public.ads a where ' || v_filters || '%2$s order by a.created_at desc, a.id desc limit ' || v_walk_depth || ') w'
    || ' where %1$s order by w.created_at desc, w.id desc limit %3$s) '
    || 'select near.id, near.created_at from near'
    || case when v_walk_depth < c_probe then
         ' union all (select w.id, w.created_at from (select a.id, a.created_at, a.search_vector, a.search_text'
         || ' from public.ads a where ' || v_filters || '%2$s order by a.created_at desc, a.id desc'
         || ' offset ' || v_walk_depth || ' limit ' || (c_probe - v_walk_depth) || ') w'
         || ' where %1$s and private.search_walk_depth(' || v_walk_depth || ', ' || c_probe || ', ' || c_walk_on
         || ', (select count(*) from near), %3$s) = ' || c_probe
         || ' order by w.created_at desc, w.id desc limit %3$s)'
       else '' end
    || ' order by 2 desc, 1 desc limit %3$s) x';
  -- The extent of a walk %2$s ads deep after the cursor (%1$s).
  v_walked := 'select count(*)::int, max(w.created_at), min(w.created_at), (array_agg(w.id order by w.created_at, w.id))[1]'
    || ' from (select a.id, a.created_at from public.ads a where ' || v_filters || '%1$s'
    || ' order by a.created_at desc, a.id desc limit %2$s) w';
  v_periods := 'select coalesce(array_agg(r.id order by r.created_at desc, r.id desc), ''{}'') from ('
    || 'select a.id, a.created_at from public.ads a where ' || v_filters || ' and %1$s and (a.created_at, a.id) < ($21, $22)'
    || ' order by a.created_at desc, a.id desc limit $23) r';

  v_index_read := 'select coalesce(array_agg(r.id order by r.created_at desc, r.id desc), ''{}'') from ('
    || 'select a.id, a.created_at from public.ads a where ' || v_conditions || '%1$s%2$s'
    || ' order by a.created_at desc, a.id desc limit %3$s) r';

  if v_search is not null and (v_sort in ('longest_running', 'recently_seen') or v_running_days_search) then
    -- A search of whole words in the longest-running order probes only the newest c_exact_walk ads: a rare one is
    -- read a block of running days at a time, which costs what the blocks hold, so the probe only has to tell a
    -- common word, which walks its order, from the rest.
    -- A search with signature bits in the recently-seen order probes the newest c_signed_probe ads.
    v_probe_depth := case when v_sort = 'longest_running' and v_exact_query is not null then c_exact_walk
                          when (v_sort = 'recently_seen' and v_signable) or v_running_days_search then c_signed_probe
                          else c_probe end;
    if v_sort = 'relevance' then
      -- The relevance order's tiers apart (it probes only with the running days): of the newest ads whose signature
      -- holds a word, those that match the whole words and pass the filters of v_probe_filters, and those that match
      -- the text anywhere alone and pass them.
      execute private.list_ads_statement('select count(*) filter (where (' || v_signature_match || ') and exists (select 1 from public.ads s'
        || ' where s.id = a.id and ' || replace(v_word_match || ' and ' || v_probe_filters, 'a.', 's.') || ' offset 0))::int, '
        || case when v_part_match is null then '0'
                else 'count(*) filter (where (' || v_signature_match || ') and exists (select 1 from public.ads s'
                     || ' where s.id = a.id and ' || replace(v_part_match || ' and ' || v_probe_filters, 'a.', 's.')
                     || ' offset 0))::int' end
        || ', count(*)::int from (select a.id, a.search_signature from public.ads a where ' || v_board
        || ' order by a.created_at desc, a.id desc limit ' || v_probe_depth || ') a',
          p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
              null, null, null, null, v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_tsquery, v_phrase) into v_word_hits, v_part_hits, v_probed;
    elsif v_signature_match is not null then
      -- With signature bits, the board's order index holds them: only the newest ads whose signature holds a word
      -- are read from the table, and every match is counted once (its words are the whole match).
      -- In the recently-seen order with filters, the ads that pass those of v_probe_filters are counted too.
      execute private.list_ads_statement('select count(*) filter (where (' || v_signature_match || ')'
        || ' and exists (select 1 from public.ads s where s.id = a.id and ' || replace(v_any_match, 'a.', 's.') || ' offset 0))::int,'
        || ' 0, count(*)::int, '
        || case when ((v_sort = 'recently_seen' and v_signable) or v_running_days_search) and v_probe_filters <> v_board then
             'count(*) filter (where (' || v_signature_match || ') and exists (select 1 from public.ads s where s.id = a.id and '
             || replace(v_any_match || ' and ' || v_probe_filters, 'a.', 's.') || ' offset 0))::int'
           else 'null::int' end
        || ' from (select a.id, a.search_signature from public.ads a where ' || v_board
        || ' order by a.created_at desc, a.id desc limit ' || v_probe_depth || ') a',
          p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
              null, null, null, null, v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_tsquery, v_phrase) into v_word_hits, v_part_hits, v_probed, v_filtered_hits;
    else
      execute private.list_ads_statement('select count(*) filter (where ' || v_word_match || '), count(*) filter (where ' || v_phrase_match
        || ' and not coalesce(' || v_word_match || ', false)) from (select a.search_vector, a.search_text from public.ads a where '
        || v_board || ' order by a.created_at desc, a.id desc limit ' || v_probe_depth || ') a',
          p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
              null, null, null, null, v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_tsquery, v_phrase) into v_word_hits, v_part_hits;
    end if;
    -- As often as in at most c_page_size of c_probe ads.
    v_rare := (v_word_hits + v_part_hits) * c_probe <= c_page_size * v_probe_depth;
    if v_running_days_search then
      v_rare := coalesce(v_filtered_hits, v_word_hits + v_part_hits)::float8 ^ 2 * (select c.total from private.ad_counts c)
                <= c_running_balance * greatest(v_probed, 1)::float8 ^ 2;
      -- The relevance order's tiers by the same rule, each on its own matches. A tier the probe did not find is read.
      if v_sort = 'relevance' then
        v_rare_words := v_word_hits::float8 ^ 2 * (select c.total from private.ad_counts c)
                        <= c_running_balance * greatest(v_probed, 1)::float8 ^ 2;
        v_rare_parts := v_part_hits::float8 ^ 2 * (select c.total from private.ad_counts c)
                        <= c_running_balance * greatest(v_probed, 1)::float8 ^ 2;
      end if;
    elsif v_sort = 'recently_seen' and v_signable then
      -- Its walk checks the signature in the index and costs little for each ad passed over, so it reads every match
      -- through the search index only when it is rare for the library's size (c_signed_balance above). With filters
      -- the walk passes about 61/q ads, q the share that matches and passes them, while reading the matches still
      -- costs about p times the library's ads: rare when q * p * ads <= c_filtered_balance. Only the filters of
      -- v_probe_filters count in q: few of the newest ads have run 60 days, say, so they tell nothing of how many
      -- ads such a filter passes; the walk's cap bounds a walk that such a filter makes long.
      v_rare := coalesce(v_filtered_hits, v_word_hits + v_part_hits)::bigint * (v_word_hits + v_part_hits)
                * (select c.total from private.ad_counts c)
                <= case when v_filtered_hits is null then c_signed_balance else c_filtered_balance end
                   * greatest(v_probed, 1)::bigint ^ 2;
    end if;
  end if;

  if v_sort = 'relevance' and v_running_days_search then
    -- Whole-word matches first, then the ads only the text anywhere matches; newest first within each. With the
    -- running days each tier walks the streams of private.ads_running_at_least, as the newest order does, unless the
    -- probe found it rare or the walk was cut within the page: then its matches that pass the filters are read
    -- through the search index and ordered.
    v_ids := '{}';
    if v_after_tier is distinct from 2 then
      if not v_rare_words then
        v_ids := private.ads_running_at_least(p_board, p_since, p_category_id, p_type_id, v_platforms, p_format, p_offer,
                                              p_hook_id, p_colour, p_min_running_days, v_running, v_today,
                                              case when v_after_tier = 1 then v_after_at end,
                                              case when v_after_tier = 1 then v_after_id end,
                                              v_tsquery, null, null, private.search_signature_masks(v_folded, c_signed_words),
                                              c_running_walk);
      end if;
      if v_rare_words or v_ids is null then
        perform set_config('enable_indexscan', 'off', true), set_config('enable_indexonlyscan', 'off', true), set_config('enable_seqscan', 'off', true);
        execute private.list_ads_statement(format(v_index_read, ' and ' || v_word_match, case when v_after_tier = 1 then ' and (a.created_at, a.id) < ($6, $7)' else '' end, 61),
            p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
                null, null, null, null, v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_tsquery, v_phrase) into v_ids;
        perform set_config('enable_indexscan', v_indexscan, true), set_config('enable_indexonlyscan', v_indexonlyscan, true), set_config('enable_seqscan', v_seqscan, true);
      end if;
    end if;
    if cardinality(v_ids) <= c_page_size and v_part_match is not null then
      if not v_rare_parts then
        v_more := private.ads_running_at_least(p_board, p_since, p_category_id, p_type_id, v_platforms, p_format, p_offer,
                                               p_hook_id, p_colour, p_min_running_days, v_running, v_today,
                                               case when v_after_tier = 2 then v_after_at end,
                                               case when v_after_tier = 2 then v_after_id end,
                                               v_part_query, v_part_phrase, v_tsquery, v_part_masks, c_running_walk);
      end if;
      if v_rare_parts or v_more is null then
        perform set_config('enable_indexscan', 'off', true), set_config('enable_indexonlyscan', 'off', true), set_config('enable_seqscan', 'off', true);
        execute private.list_ads_statement(format(v_index_read, ' and ' || v_part_match, case when v_after_tier = 2 then ' and (a.created_at, a.id) < ($6, $7)' else '' end,
                       61 - cardinality(v_ids)),
            p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
                null, null, null, null, v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_tsquery, v_phrase) into v_more;
        perform set_config('enable_indexscan', v_indexscan, true), set_config('enable_indexonlyscan', v_indexonlyscan, true), set_config('enable_seqscan', v_seqscan, true);
      end if;
      v_ids := v_ids || v_more[1:61 - cardinality(v_ids)];
    end if;

  elsif v_sort = 'relevance' then
    -- Whole-word matches first, then the ads only the text anywhere matches; newest first within each.
    if v_after_tier is distinct from 2 and v_tsquery is not null then
      execute private.list_ads_statement(format(v_walk, replace(v_word_match, 'a.', 'w.'),
                     case when v_after_tier = 1 then ' and (a.created_at, a.id) < ($6, $7)' else '' end, 61),
          p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
              null, null, null, null, v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_tsquery, v_phrase) into v_ids;
      if cardinality(v_ids) <= c_page_size
         and (v_exact_query is not null or (61 - cardinality(v_ids)) * c_probe > c_walk_on * greatest(cardinality(v_ids), 1)) then
        v_walked_depth := private.search_walk_depth(v_walk_depth, c_probe, c_walk_on, cardinality(v_ids), 61);
        v_ids := v_ids || private.search_newest_by_periods(
          format(v_walked, case when v_after_tier = 1 then ' and (a.created_at, a.id) < ($6, $7)' else '' end, v_walked_depth),
          format(v_periods, v_word_period), v_walked_depth, 61 - cardinality(v_ids), cardinality(v_ids),
          p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
          v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_period_query, v_phrase);
      elsif cardinality(v_ids) <= c_page_size then
        execute private.list_ads_statement('select coalesce(array_agg(r.id order by r.created_at desc, r.id desc), ''{}'') from ('
          || 'select a.id, a.created_at from public.ads a where ' || v_conditions || ' and ' || v_word_match
          || case when v_after_tier = 1 then ' and (a.created_at, a.id) < ($6, $7)' else '' end
          || ' order by a.created_at desc, a.id desc limit 61) r',
            p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
                null, null, null, null, v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_tsquery, v_phrase) into v_ids;
      end if;
    else
      v_ids := '{}';
    end if;
    if cardinality(v_ids) <= c_page_size then
      execute private.list_ads_statement(format(v_walk, replace(v_phrase_match || ' and not coalesce(' || v_word_match || ', false)', 'a.', 'w.'),
                     case when v_after_tier = 2 then ' and (a.created_at, a.id) < ($6, $7)' else '' end, 61 - cardinality(v_ids)),
          p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
              null, null, null, null, v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_tsquery, v_phrase) into v_more;
      if cardinality(v_ids) + cardinality(v_more) <= c_page_size
         and (v_exact_query is not null
              or (61 - cardinality(v_ids) - cardinality(v_more)) * c_probe > c_walk_on * greatest(cardinality(v_more), 1)) then
        v_walked_depth := private.search_walk_depth(v_walk_depth, c_probe, c_walk_on, cardinality(v_more), 61 - cardinality(v_ids));
        v_more := v_more || private.search_newest_by_periods(
          format(v_walked, case when v_after_tier = 2 then ' and (a.created_at, a.id) < ($6, $7)' else '' end, v_walked_depth),
          format(v_periods, v_phrase_period || ' and not coalesce(' || v_word_match || ', false)'), v_walked_depth,
          61 - cardinality(v_ids) - cardinality(v_more), cardinality(v_more),
          p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
          v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_period_query, v_phrase);
      elsif cardinality(v_ids) + cardinality(v_more) <= c_page_size then
        execute private.list_ads_statement('select coalesce(array_agg(r.id order by r.created_at desc, r.id desc), ''{}'') from ('
          || 'select a.id, a.created_at from public.ads a where ' || v_conditions || ' and ' || v_phrase_match
          || ' and not coalesce(' || v_word_match || ', false)'
          || case when v_after_tier = 2 then ' and (a.created_at, a.id) < ($6, $7)' else '' end
          || ' order by a.created_at desc, a.id desc limit ' || (61 - cardinality(v_ids)) || ') r',
            p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
                null, null, null, null, v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_tsquery, v_phrase) into v_more;
      end if;
      v_ids := v_ids || v_more;
    end if;

  elsif v_sort in ('longest_running', 'recently_seen') then
    -- Two ordered streams of dated ads merged on their key, then the undated ones by id (see the indexes above).
    -- Keys: longest running, the days ran (a running ad's to today) descending; recently seen, the last day seen
    -- (a running ad's is today) descending; ties by id.
    if v_rare and v_sort = 'longest_running' and (v_cursor is null or v_after_days is not null) then
      -- A rare search reads each stream a block of keys at a time through the search index
      -- (private.search_running_blocks, 20261206000100): the running ads by first sighting (days since 1970, x), the
      -- ended ones by first_seen - last_seen (x); a running ad has run v_epoch_today - x + 1 days, an ended one
      -- 1 - x. The stream whose first ad ran longer is read first; the other only as far as it can still reach the
      -- page.
      v_epoch_today := v_today - date '1970-01-01';
      -- A block's matches carry its word ($20); the rest of a stream's, read at once, need not.
      v_block_match := v_any_period;
      v_rest_match := v_any_match;
      -- The stream's condition (%2$s) is written so that it implies no partial index's predicate: the planner would
      -- otherwise read such an index whole (every running ad, say) to intersect it with the search's few matches.
      v_stream_sql := 'select count(*)::int, coalesce(array_agg(b.id order by b.x, b.id), ''{}''),'
        || ' coalesce(array_agg(b.x order by b.x, b.id), ''{}'') from (select a.id, %1$s as x from public.ads a where '
        || v_filters || ' and %2$s and %3$s'
        || ' and %1$s between $21 and $22 and (%1$s > $21 or a.id > $23) limit $24) b';
      v_running_blocks := format(v_stream_sql, '(a.first_seen - ''1970-01-01''::date)', 'coalesce(a.still_running, false)', v_block_match);
      v_running_rest := format(v_stream_sql, '(a.first_seen - ''1970-01-01''::date)', 'coalesce(a.still_running, false)', v_rest_match);
      v_ended_blocks := format(v_stream_sql, '((a.first_seen - a.last_seen) + 0)',
                               'not coalesce(a.still_running, true) and (a.last_seen + 0) is not null', v_block_match);
      v_ended_rest := format(v_stream_sql, '((a.first_seen - a.last_seen) + 0)',
                             'not coalesce(a.still_running, true) and (a.last_seen + 0) is not null', v_rest_match);
      if v_cursor is null then
        v_running_first := (select min(a.first_seen) from public.ads a where a.still_running) - date '1970-01-01';
        v_ended_first := (select min(a.first_seen - a.last_seen) from public.ads a
                           where not a.still_running and a.last_seen is not null);
      else
        v_running_first := v_epoch_today + 1 - v_after_days;
        v_ended_first := 1 - v_after_days;
      end if;
      v_running_last := (select max(a.first_seen) from public.ads a where a.still_running) - date '1970-01-01';
      v_ended_last := 0;
      if coalesce(v_epoch_today - v_running_first + 1, 0) >= coalesce(1 - v_ended_first, 0) then
        select r.ids, r.keys into v_running_ids, v_running_keys
          from private.search_running_blocks(v_running_blocks, v_running_rest,
                 '~s', v_running_first, v_after_id, v_running_last, 61,
                 p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_platforms, p_format, p_offer, p_hook_id,
                 p_min_running_days, v_today, v_period_query, v_phrase) r;
        if cardinality(v_running_keys) >= 61 then
          v_ended_last := least(v_ended_last, 1 - (v_epoch_today - v_running_keys[61] + 1));
        end if;
        select r.ids, r.keys into v_ended_ids, v_ended_keys
          from private.search_running_blocks(v_ended_blocks, v_ended_rest,
                 '~e', v_ended_first, v_after_id, v_ended_last, 61,
                 p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_platforms, p_format, p_offer, p_hook_id,
                 p_min_running_days, v_today, v_period_query, v_phrase) r;
      else
        select r.ids, r.keys into v_ended_ids, v_ended_keys
          from private.search_running_blocks(v_ended_blocks, v_ended_rest,
                 '~e', v_ended_first, v_after_id, v_ended_last, 61,
                 p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_platforms, p_format, p_offer, p_hook_id,
                 p_min_running_days, v_today, v_period_query, v_phrase) r;
        if cardinality(v_ended_keys) >= 61 then
          v_running_last := least(v_running_last, v_epoch_today + 1 - (1 - v_ended_keys[61]));
        end if;
        select r.ids, r.keys into v_running_ids, v_running_keys
          from private.search_running_blocks(v_running_blocks, v_running_rest,
                 '~s', v_running_first, v_after_id, v_running_last, 61,
                 p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_platforms, p_format, p_offer, p_hook_id,
                 p_min_running_days, v_today, v_period_query, v_phrase) r;
      end if;
      v_ids := (select coalesce(array_agg(u.id order by u.k desc, u.id), '{}')
                  from (select m.id, m.k
                          from (select s.id, v_epoch_today - s.x + 1 as k from unnest(v_running_ids, v_running_keys) s (id, x)
                                union all
                                select e.id, 1 - e.x from unnest(v_ended_ids, v_ended_keys) e (id, x)) m
                         order by m.k desc, m.id limit 61) u);
    elsif v_cursor is null or v_after_days is not null or v_after_seen is not null then
      -- A search of the board alone with signature bits, not rare, walks each stream in its index's order, checks the
      -- signature there, and looks up by id only the ads whose signature holds one of its words. The lookup's
      -- offset 0 keeps it a lookup: PostgreSQL 18 would otherwise see the ad joined with itself on its key and read
      -- both from one scan of the table. The running stream is read first; when it fills a page, the ended stream
      -- is read only as far as the running stream's 61st ad, since no ended ad below it can reach the page. Each
      -- walk passes at most c_signed_walk ads: a search found among the newest ads but rare in the whole library
      -- would otherwise walk the whole stream. When a walk passed that many without filling the page, the page is
      -- read as a rare search's is.
      v_signed := not v_rare and v_signable;
      if v_signed then
        -- One stream's walk (%1$s its key, %2$s its order before the id, %3$s its condition): its first 61 matches
        -- in order, and their keys. And how many ads the walk may pass: c_signed_walk when the stream holds so many.
        -- With filters, the stream's columns they read come with the signature, and the filters are checked after
        -- the walk's limit, which so counts the ads passed, not those kept: the walk reads the filters' streams
        -- (20261210000100, with the signature since 20261212000100) as the board's alone reads the narrow ones.
        if v_filters <> v_board then
          v_signed_columns := ', a.is_black_friday, a.is_top_picks, a.still_running, a.first_seen, a.last_seen, a.created_at,'
            || ' a.colour_swatches, a.platforms, a.format, a.offer, a.hook_id, a.category_id, a.type_id';
        end if;
        v_signed_stream := 'select coalesce(array_agg(q.id order by q.n), ''{}''), coalesce(array_agg(q.k order by q.n), ''{}'')'
          || ' from (select m.id, m.k, row_number() over () as n from (select a.id, a.k from (select a.id, %1$s as k,'
          || ' a.search_signature' || v_signed_columns || ' from public.ads a where ' || v_board || ' and %3$s order by %2$s, a.id'
          || ' limit ' || c_signed_walk || ') a where (' || v_signature_match || ')'
          || case when v_filters <> v_board then ' and ' || v_filters else '' end
          || ' and exists (select 1 from public.ads s where s.id = a.id and ' || replace(v_any_match, 'a.', 's.') || ' offset 0)'
          || ' limit 61) m) q';
        v_signed_extent := 'select count(*)::int from (select 1 from public.ads a where ' || v_board || ' and %1$s'
          || ' limit ' || c_signed_walk || ') x';
        perform set_config('enable_hashjoin', 'off', true), set_config('enable_mergejoin', 'off', true),
                set_config('enable_bitmapscan', 'off', true), set_config('max_parallel_workers_per_gather', '0', true);
        v_signed_cut := false;
        if v_sort = 'longest_running' then
          -- Keys: the days run, longest first.
          v_stream_sql := 'a.still_running' || case when v_cursor is not null then ' and (a.first_seen, a.id) > ($17 + 1 - $20, $7)' else '' end;
          execute private.list_ads_statement(format(v_signed_stream, '$17 - a.first_seen + 1', 'a.first_seen', v_stream_sql),
              p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
                  null, null, null, null, v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_period_query, v_phrase,
                  v_after_days, v_after_seen) into v_running_ids, v_running_keys;
          if cardinality(v_running_ids) < 61 then
            execute private.list_ads_statement(format(v_signed_extent, v_stream_sql),
                p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
                  null, null, null, null, v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_period_query, v_phrase,
                  v_after_days, v_after_seen) into v_walked_depth;
            v_signed_cut := v_walked_depth >= c_signed_walk;
          end if;
          v_stream_sql := 'not a.still_running and a.last_seen is not null'
            || case when v_cursor is not null then ' and ((a.first_seen - a.last_seen), a.id) > (1 - $20, $7)' else '' end
            || case when cardinality(v_running_ids) >= 61 then ' and (a.first_seen - a.last_seen) <= ' || (1 - v_running_keys[61]) else '' end;
          v_ended_ids := '{}';
          v_ended_keys := '{}';
          if not v_signed_cut then
            execute private.list_ads_statement(format(v_signed_stream, 'a.last_seen - a.first_seen + 1', '(a.first_seen - a.last_seen)', v_stream_sql),
                p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
                  null, null, null, null, v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_period_query, v_phrase,
                  v_after_days, v_after_seen) into v_ended_ids, v_ended_keys;
          end if;
          if cardinality(v_ended_ids) < 61 and not v_signed_cut then
            execute private.list_ads_statement(format(v_signed_extent, v_stream_sql),
                p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
                  null, null, null, null, v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_period_query, v_phrase,
                  v_after_days, v_after_seen) into v_walked_depth;
            v_signed_cut := v_walked_depth >= c_signed_walk;
          end if;
          v_ids := (select coalesce(array_agg(u.id order by u.k desc, u.id), '{}')
                      from (select m.id, m.k from (select * from unnest(v_running_ids, v_running_keys)
                                                   union all select * from unnest(v_ended_ids, v_ended_keys)) m (id, k)
                             order by m.k desc, m.id limit 61) u);
        else
          -- Keys: the days since last seen, a running ad's 0, most recent first. When the running ads fill a page,
          -- an ended ad can reach it only if it was last seen today, with an id before the running stream's 61st.
          v_running_ids := '{}';
          v_running_keys := '{}';
          if v_cursor is null or v_after_seen >= v_today then
            v_stream_sql := 'a.still_running' || case when v_after_seen = v_today then ' and a.id > $7' else '' end;
            execute private.list_ads_statement(format(v_signed_stream, '0', 'a.id', v_stream_sql),
                p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
                  null, null, null, null, v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_period_query, v_phrase,
                  v_after_days, v_after_seen) into v_running_ids, v_running_keys;
            if cardinality(v_running_ids) < 61 then
              execute private.list_ads_statement(format(v_signed_extent, v_stream_sql),
                  p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
                  null, null, null, null, v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_period_query, v_phrase,
                  v_after_days, v_after_seen) into v_walked_depth;
              v_signed_cut := v_walked_depth >= c_signed_walk;
            end if;
          end if;
          v_stream_sql := 'not a.still_running and a.last_seen is not null'
            || case when v_cursor is not null then ' and a.last_seen <= $21 and (a.last_seen < $21 or a.id > $7)' else '' end
            || case when cardinality(v_running_ids) >= 61 then ' and a.last_seen = $17 and a.id <= ' || quote_literal(v_running_ids[61]) || '::uuid' else '' end;
          v_ended_ids := '{}';
          v_ended_keys := '{}';
          if not v_signed_cut then
            execute private.list_ads_statement(format(v_signed_stream, '$17 - a.last_seen', 'a.last_seen desc', v_stream_sql),
                p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
                  null, null, null, null, v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_period_query, v_phrase,
                  v_after_days, v_after_seen) into v_ended_ids, v_ended_keys;
          end if;
          if cardinality(v_ended_ids) < 61 and not v_signed_cut then
            execute private.list_ads_statement(format(v_signed_extent, v_stream_sql),
                p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
                  null, null, null, null, v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_period_query, v_phrase,
                  v_after_days, v_after_seen) into v_walked_depth;
            v_signed_cut := v_walked_depth >= c_signed_walk;
          end if;
          v_ids := (select coalesce(array_agg(u.id order by u.k, u.id), '{}')
                      from (select m.id, m.k from (select * from unnest(v_running_ids, v_running_keys)
                                                   union all select * from unnest(v_ended_ids, v_ended_keys)) m (id, k)
                             order by m.k, m.id limit 61) u);
        end if;
        perform set_config('enable_hashjoin', v_hashjoin, true), set_config('enable_mergejoin', v_mergejoin, true),
                set_config('enable_bitmapscan', v_bitmapscan, true), set_config('max_parallel_workers_per_gather', v_workers, true);
        if v_signed_cut then
          v_signed := false;
          v_rare := true;
        end if;
      end if;
      if not v_signed then
        -- A rare search's matches are read once, through the search index (with whole words where the lexicon gives
        -- them), and both streams are ordered from them. The running ads' stream is read first (r); when it fills a
        -- page, the ended ads' stream is read only as far as the days or the day of r's 61st ad.
        v_from := case when v_rare then 'm a where true' else 'public.ads a where ' || v_conditions end;
        if v_sort = 'longest_running' then
          v_first := 'r as materialized (select a.id, $17 - a.first_seen + 1 as k from ' || v_from || ' and a.still_running'
            || case when v_cursor is not null then ' and (a.first_seen, a.id) > ($17 + 1 - $20, $7)' else '' end
            || ' order by a.first_seen, a.id limit 61)';
          v_sql := 'select s.id from ('
            || 'select r.id, r.k from r'
            || ' union all '
            || '(select a.id, a.last_seen - a.first_seen + 1 as k from ' || v_from
            || ' and not a.still_running and a.last_seen is not null'
            || case when v_cursor is not null then ' and ((a.first_seen - a.last_seen), a.id) > (1 - $20, $7)' else '' end
            || ' and (a.first_seen - a.last_seen) <= coalesce((select 1 - min(r.k) from r having count(*) >= 61), 2147483647)'
            || ' order by (a.first_seen - a.last_seen), a.id limit 61)'
            || ') s order by s.k desc, s.id limit 61';
        elsif v_cursor is null or v_after_seen >= v_today then
          v_first := 'r as materialized (select a.id, $17 as k from ' || v_from || ' and a.still_running'
            || case when v_after_seen = v_today then ' and a.id > $7' else '' end
            || ' order by a.id limit 61)';
          v_sql := 'select s.id from ('
            || 'select r.id, r.k from r'
            || ' union all '
            || '(select a.id, a.last_seen as k from ' || v_from
            || ' and not a.still_running and a.last_seen is not null'
            || case when v_cursor is not null then ' and a.last_seen <= $21 and (a.last_seen < $21 or a.id > $7)' else '' end
            || ' and a.last_seen >= coalesce((select min(r.k) from r having count(*) >= 61), ''-infinity''::date)'
            || ' order by a.last_seen desc, a.id limit 61)'
            || ') s order by s.k desc, s.id limit 61';
        else
          v_sql := 'select s.id from ('
            || '(select a.id, a.last_seen as k from ' || v_from
            || ' and not a.still_running and a.last_seen is not null'
            || ' and a.last_seen <= $21 and (a.last_seen < $21 or a.id > $7)'
            || ' order by a.last_seen desc, a.id limit 61)'
            || ') s order by s.k desc, s.id limit 61';
        end if;
        if v_rare then
          perform set_config('enable_indexscan', 'off', true), set_config('enable_indexonlyscan', 'off', true), set_config('enable_seqscan', 'off', true);
        end if;
        execute private.list_ads_statement('with ' || case when v_rare then 'm as materialized (select a.id, a.first_seen, a.last_seen, a.still_running'
                                      || ' from public.ads a where ' || v_conditions || '), ' else '' end
          || coalesce(v_first, 'r as (select null::uuid as id)') || ' '
          || 'select coalesce(array_agg(r.id order by r.n), ''{}'') from (select q.id, row_number() over () as n from ('
          || v_sql || ') q) r',
            p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
                null, null, null, null, v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_period_query, v_phrase,
                v_after_days, v_after_seen) into v_ids;
        perform set_config('enable_indexscan', v_indexscan, true), set_config('enable_indexonlyscan', v_indexonlyscan, true), set_config('enable_seqscan', v_seqscan, true);
      end if;
    else
      v_ids := '{}';
    end if;
    -- No undated ad runs any number of days.
    if cardinality(v_ids) <= c_page_size and p_min_running_days is null then
      if v_rare then
        perform set_config('enable_indexscan', 'off', true), set_config('enable_indexonlyscan', 'off', true), set_config('enable_seqscan', 'off', true);
      end if;
      execute private.list_ads_statement('select coalesce(array_agg(r.id order by r.id), ''{}'') from ('
        || 'select a.id from public.ads a where ' || v_conditions || ' and not a.still_running and a.last_seen is null'
        || case when v_cursor is not null and v_after_days is null and v_after_seen is null then ' and a.id > $7' else '' end
        || ' order by a.id limit ' || (61 - cardinality(v_ids)) || ') r',
          p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
              null, null, null, null, v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_period_query, v_phrase) into v_more;
      perform set_config('enable_indexscan', v_indexscan, true), set_config('enable_indexonlyscan', v_indexonlyscan, true), set_config('enable_seqscan', v_seqscan, true);
      v_ids := v_ids || v_more;
    end if;

  elsif p_min_running_days is not null and v_tags is null and v_search is null and p_brand_id is null
        and p_category_id is null and p_type_id is null and p_hook_id is null and p_colour is null then
    -- Newest first among ads that ran long enough: read per delay between first sighting and addition, each from
    -- where its ads can first qualify (20261130000600_running_days_newest).
    v_ids := private.ads_running_at_least(p_board, p_since, null, null, v_platforms, p_format, p_offer, null, null,
                                          p_min_running_days, v_running, v_today, v_after_at, v_after_id, null, null, null,
                                          null, null);

  elsif v_running_days_search then
    -- The same streams, keeping the ads that match the search and pass its filters: the newest ads that ran long
    -- enough are few among the newest ads, but a search found often enough is found among them (20261213000100).
    -- The match is v_any_match's: the lexicon's words that hold a one-word search, or its words and its text
    -- anywhere.
    if not v_rare then
      if v_containing is not null then
        -- The lexicon's words as the statements write them (v_containing_query), read as a value.
        execute 'select ' || v_containing_query into v_match_query;
      else
        v_match_query := v_tsquery;
        v_match_phrase := v_phrase;
      end if;
      v_ids := private.ads_running_at_least(p_board, p_since, p_category_id, p_type_id, v_platforms, p_format, p_offer,
                                            p_hook_id, p_colour, p_min_running_days, v_running, v_today, v_after_at,
                                            v_after_id, v_match_query, v_match_phrase, null,
                                            private.search_signature_masks(v_folded, c_signed_words), c_running_walk);
      v_rare := v_ids is null;
    end if;
    if v_rare then
      -- A rare one, or a walk cut short: its matches that pass the filters are read in the search index (which holds
      -- the filters an ad's age says nothing of) and ordered; no ordered index is walked.
      perform set_config('enable_indexscan', 'off', true), set_config('enable_indexonlyscan', 'off', true), set_config('enable_seqscan', 'off', true);
      execute private.list_ads_statement(format(v_index_read, '', case when v_cursor is not null then ' and (a.created_at, a.id) < ($6, $7)' else '' end, 61),
          p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
              null, null, null, null, v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_tsquery, v_phrase) into v_ids;
      perform set_config('enable_indexscan', v_indexscan, true), set_config('enable_indexonlyscan', v_indexonlyscan, true), set_config('enable_seqscan', v_seqscan, true);
    end if;

  else
    if v_tags is not null and p_brand_id is null and p_category_id is null and p_type_id is null and v_search is null then
      -- A tag filter alone walks the tags' ordered index ranges. The tags go rarest first (the key above keeps its
      -- own order), and how they are intersected depends on how their counts compare; see 20261124000200_tag_filters.
      select array_agg(w.id order by coalesce(c.ads, 0), w.id), min(coalesce(c.ads, 0)), max(coalesce(c.ads, 0))
        into v_tags, v_rarest, v_commonest
        from unnest(v_tags) w (id) left join private.tag_ad_counts c on c.tag_id = w.id;
      v_merge := cardinality(v_tags) > 1 and v_commonest <= c_merge_ratio * v_rarest;
      v_sql := 'select a.id, a.created_at from public.ad_tags t';
      if v_merge then
        -- Each other tag's range, walked in step with the first: one ordered merge per tag.
        for v_tag in 2 .. cardinality(v_tags) loop
          v_sql := v_sql || format(' join public.ad_tags t%1$s on t%1$s.tag_id = ($4::uuid[])[%1$s]'
            || ' and t%1$s.ad_created_at = t.ad_created_at and t%1$s.ad_id = t.ad_id', v_tag)
            || case when p_since is not null then format(' and t%1$s.ad_created_at >= $5', v_tag) else '' end
            || case when v_cursor is not null then format(' and (t%1$s.ad_created_at, t%1$s.ad_id) < ($6, $7)', v_tag) else '' end;
        end loop;
      end if;
      v_sql := v_sql || ' join public.ads a on a.id = t.ad_id where t.tag_id = ($4::uuid[])[1] and ' || v_board || v_facts
        || case when v_merge then ''
                else ' and not exists (select 1 from unnest(($4::uuid[])[2:]) w(id) where not exists '
                     || '(select 1 from public.ad_tags h where h.ad_id = t.ad_id and h.tag_id = w.id))' end
        || case when p_since is not null then ' and a.created_at >= $5 and t.ad_created_at >= $5' else '' end
        || case when v_cursor is not null then ' and (t.ad_created_at, t.ad_id) < ($6, $7)' else '' end
        || ' order by t.ad_created_at desc, t.ad_id desc limit 61';
    else
      v_sql := 'select a.id, a.created_at from public.ads a where ' || v_conditions
        || case when v_cursor is not null then ' and (a.created_at, a.id) < ($6, $7)' else '' end
        || ' order by a.created_at desc, a.id desc limit 61';
      if v_search is not null then
        execute private.list_ads_statement(format(v_walk, replace(v_any_match, 'a.', 'w.'),
                       case when v_cursor is not null then ' and (a.created_at, a.id) < ($6, $7)' else '' end, 61),
            p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
                null, null, null, null, v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_tsquery, v_phrase) into v_ids;
        v_rare := cardinality(v_ids) <= c_page_size
                  and (v_exact_query is not null or (61 - cardinality(v_ids)) * c_probe > c_walk_on * greatest(cardinality(v_ids), 1));
        if v_rare then
          v_walked_depth := private.search_walk_depth(v_walk_depth, c_probe, c_walk_on, cardinality(v_ids), 61);
          v_ids := v_ids || private.search_newest_by_periods(
            format(v_walked, case when v_cursor is not null then ' and (a.created_at, a.id) < ($6, $7)' else '' end, v_walked_depth),
            format(v_periods, v_any_period), v_walked_depth,
            61 - cardinality(v_ids), cardinality(v_ids),
            p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
            v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_period_query, v_phrase);
        end if;
      end if;
    end if;

    -- Unless the walk of a search filled the page, or it was rare and the periods after the walk did.
    if v_search is null or (not v_rare and cardinality(v_ids) <= c_page_size) then
      if v_merge then
        -- The planner cannot tell how many ads two tags share and would hash one whole range (parallel workers
        -- included) to find 61 rows: for this statement only, it merges the ordered ranges it is given.
        perform set_config('enable_hashjoin', 'off', true), set_config('max_parallel_workers_per_gather', '0', true);
      end if;
      execute private.list_ads_statement('select coalesce(array_agg(r.id order by r.created_at desc, r.id desc), ''{}'') from (' || v_sql || ') r',
          p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
              null, null, null, null, v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_tsquery, v_phrase) into v_ids;
      if v_merge then
        perform set_config('enable_hashjoin', v_hashjoin, true), set_config('max_parallel_workers_per_gather', v_workers, true);
      end if;
    end if;
  end if;

  -- The page in its order (clear ads first for a viewer without valid access; the cursor stays the last row
  -- of the page in the query's order, so no ad is skipped or repeated).
  with page as (
    select a.id, p.ord, private.ad_is_clear_for(a, v_uid is not null, v_valid_access) as clear
      from unnest(v_ids[1:c_page_size]) with ordinality as p (id, ord)
      join public.ads a on a.id = p.id
  )
  select array_agg(page.id order by not page.clear, page.ord), array_agg(page.clear order by not page.clear, page.ord)
    into v_page_ids, v_page_clear
    from page;

  if cardinality(v_ids) > c_page_size then
    v_last := v_ids[c_page_size];
    v_next_cursor := (
      select private.sign_cursor(jsonb_strip_nulls(jsonb_build_object(
               'q', v_query_key, 'day', v_today, 'i', a.id,
               't', case when v_sort in ('newest', 'relevance') then private.iso_utc(a.created_at) end,
               'd', case when v_sort = 'longest_running' then
                      case when a.still_running then v_today - a.first_seen + 1
                           when a.last_seen is not null then a.last_seen - a.first_seen + 1 end end,
               's', case when v_sort = 'recently_seen' then
                      case when a.still_running then v_today when a.last_seen is not null then a.last_seen end end,
               'r', case when v_sort = 'relevance' then
                      case when v_tsquery is not null and a.search_vector @@ v_tsquery then 1 else 2 end end)))
        from public.ads a where a.id = v_last);
  end if;
  return private.ads_page_json(v_page_ids, v_page_clear, null, v_next_cursor);
end;
$$;
revoke all on function private.list_ads_page(p_board text, p_brand_id uuid, p_category_id uuid, p_type_id uuid, p_tag_ids uuid[], p_since timestamp with time zone, p_search text, p_cursor text, p_platforms text[], p_format text, p_offer text, p_hook_id uuid, p_min_running_days integer, p_still_running boolean, p_sort text, p_colour text) from public;

-- The spec's flat fields, without any image path but the blurred preview.
create view public.ads_with_flags with (security_invoker = true) as
select a.id, a.brand_id, a.category_id, a.type_id, a.created_at, a.requires_subscription,
       a.is_black_friday, a.is_top_picks, a.width, a.height, a.thumbhash, a.preview_path,
       b.name as brand_name, b.logo_path as brand_logo_path, c.name as category_name, ty.name as type_name,
       coalesce(array(select g.name from public.ad_tags t join public.tags g on g.id = t.tag_id
                      where t.ad_id = a.id order by g.name), '{}') as tag_names
  from public.ads a
  join public.brands b on b.id = a.brand_id
  join public.categories c on c.id = a.category_id
  left join public.types ty on ty.id = a.type_id;

create index ads_running_lag_order on public.ads (private.ad_added_lag(created_at, first_seen), created_at desc, id desc)
  include (first_seen, last_seen, is_black_friday, is_top_picks, search_signature)
  where still_running and first_seen is not null;

create index ads_ended_ran_order on public.ads (private.ad_ran_bucket(first_seen, last_seen), created_at desc, id desc)
  include (first_seen, last_seen, is_black_friday, is_top_picks, search_signature)
  where not still_running and first_seen is not null and last_seen is not null;

create index search_lexicon_trigrams on private.search_lexicon using gin (word extensions.gin_trgm_ops);

create trigger ads_write_search before insert or update of brand_id, category_id, type_id, card, headline,
    primary_text, landing_url, image_text, created_at, first_seen, last_seen, still_running
  on public.ads for each row execute function private.ads_write_search();

revoke all on table public.ads_with_flags from anon, authenticated;
grant select on table public.ads_with_flags to anon, authenticated;

alter table private.search_lexicon enable row level security;

-- ==========================================================================================
-- supabase/schemas/70_boards.sql
-- ==========================================================================================

-- Favorites and the nested boards a user saves ads to: owner-only by RLS, capped in depth and size by triggers,
-- streamed to the owner's other tabs through Realtime (only the board rows; RLS decides who receives them).

-- Function bodies may name tables of later files: they are checked when called, not when created.
set check_function_bodies = false;

create table public.user_collections (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  name text not null,
  parent_id uuid references public.user_collections (id) on delete cascade,
  is_system boolean not null default false,
  slug text,
  created_at timestamp with time zone not null default now(),
  updated_at timestamp with time zone not null default now(),
  constraint user_collections_name_length check (char_length(name) <= 100),
  constraint user_collections_name_not_empty check (name <> ''),
  constraint user_collections_system_is_favorites check (
    (is_system and slug = 'favorites' and name = 'Favorites' and parent_id is null) or (not is_system and slug is null))
);

create table public.user_collection_items (
  collection_id uuid not null references public.user_collections (id) on delete cascade,
  ad_id uuid not null references public.ads (id) on delete cascade,
  saved_at timestamp with time zone not null default now(),
  constraint user_collection_items_pkey primary key (collection_id, ad_id)
);

-- The tree's rules, checked whatever role writes.
create or replace function private.user_collections_check_board() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_parent public.user_collections;
  v_cursor uuid;
begin
  if tg_op = 'INSERT' and new.is_system then
    -- The spec's fallback insert sends no slug; the system board is always Favorites.
    new.slug := coalesce(new.slug, 'favorites');
  end if;
  if tg_op = 'UPDATE' then
    if old.is_system and (new.name is distinct from old.name or new.parent_id is distinct from old.parent_id) then
      raise exception 'Favorites cannot be renamed or moved' using errcode = 'P0001', detail = 'favorites_protected';
    end if;
    if new.user_id is distinct from old.user_id or new.is_system is distinct from old.is_system
       or new.slug is distinct from old.slug then
      raise exception 'A board''s owner and kind cannot change' using errcode = 'P0001', detail = 'board_immutable';
    end if;
    if new.parent_id is not distinct from old.parent_id then
      return new;
    end if;
  end if;
  if new.parent_id is null then
    return new;
  end if;
  -- One lock per user's tree (same key in delete_board): concurrent moves cannot nest two boards in each other.
  perform pg_advisory_xact_lock(7272, hashtext('user_collections:' || new.user_id::text));
  select * into v_parent from public.user_collections where id = new.parent_id;
  if v_parent.id is null or v_parent.user_id <> new.user_id then
    raise exception 'Parent board not found' using errcode = 'PT404', detail = 'parent_board_not_found';
  end if;
  if v_parent.is_system then
    raise exception 'Boards cannot be put inside Favorites' using errcode = 'P0001', detail = 'favorites_not_a_parent';
  end if;
  if tg_op = 'UPDATE' then
    -- Read after the lock: a concurrent move has committed by now and is seen.
    v_cursor := new.parent_id;
    while v_cursor is not null loop
      if v_cursor = new.id then
        raise exception 'A board cannot be moved inside itself or one of its sub-boards'
          using errcode = 'P0001', detail = 'board_cycle';
      end if;
      select parent_id into v_cursor from public.user_collections where id = v_cursor;
    end loop;
  end if;
  return new;
end;
$$;

-- Security definer: the API roles cannot read auth.users, and every delete asks.
create or replace function private.user_collections_protect_favorites() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- Deleting the user (cascade) may remove Favorites; a user may not.
  if old.is_system and exists (select 1 from auth.users where id = old.user_id) then
    raise exception 'Favorites cannot be deleted' using errcode = 'P0001', detail = 'favorites_protected';
  end if;
  return old;
end;
$$;

-- The caller's Favorites board, created on first use.
create or replace function public.get_or_create_favorites_id() returns uuid
language plpgsql
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_id uuid;
begin
  if v_uid is null then
    raise exception 'Not authenticated' using errcode = '42501', detail = 'not_authenticated';
  end if;
  insert into public.user_collections (name, is_system, slug)
  values ('Favorites', true, 'favorites')
  on conflict (user_id) where is_system do nothing;
  select id into v_id from public.user_collections where user_id = v_uid and is_system;
  return v_id;
end;
$$;
revoke all on function public.get_or_create_favorites_id() from public;

create or replace function public.save_ad_boards(p_ad_id uuid, p_add uuid[] default '{}', p_remove uuid[] default '{}')
returns uuid[]
language plpgsql
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_add uuid[] := array(select distinct x from unnest(coalesce(p_add, '{}'::uuid[])) x where x is not null);
  v_remove uuid[] := array(select distinct x from unnest(coalesce(p_remove, '{}'::uuid[])) x where x is not null);
  v_owned int;
begin
  if v_uid is null then
    raise exception 'Not authenticated' using errcode = '42501', detail = 'not_authenticated';
  end if;
  if not exists (select 1 from public.ads where id = p_ad_id) then
    raise exception 'Ad not found' using errcode = 'PT404', detail = 'ad_not_found';
  end if;
  if v_add && v_remove then
    raise exception 'A board cannot be added and removed at once' using errcode = '22023', detail = 'board_add_remove_overlap';
  end if;
  if cardinality(v_add) + cardinality(v_remove) > 500 then
    raise exception 'Too many boards in one save' using errcode = '22023', detail = 'too_many_boards';
  end if;
  select count(*) into v_owned from public.user_collections
   where id = any (v_add || v_remove) and user_id = v_uid;
  if v_owned <> cardinality(v_add) + cardinality(v_remove) then
    raise exception 'Board not found' using errcode = 'PT404', detail = 'board_not_found';
  end if;
  if cardinality(v_add) > 0 then
    insert into public.user_collection_items (collection_id, ad_id)
    select x, p_ad_id from unnest(v_add) x
    on conflict do nothing;
  end if;
  if cardinality(v_remove) > 0 then
    delete from public.user_collection_items where ad_id = p_ad_id and collection_id = any (v_remove);
  end if;
  return array(
    select i.collection_id from public.user_collection_items i
      join public.user_collections c on c.id = i.collection_id
     where i.ad_id = p_ad_id and c.user_id = v_uid
     order by i.collection_id);
end;
$$;
revoke all on function public.save_ad_boards(p_ad_id uuid, p_add uuid[], p_remove uuid[]) from public;

-- Deletes one of the caller's boards with its saved ads, in one transaction. Its
-- sub-boards either move up to its parent (top level for a top-level board) or
-- are deleted with their ads, as the delete confirmation chose. Returns the ids
-- of the boards that are gone, so an open board page can leave.
create or replace function public.delete_board(p_id uuid, p_move_children_up boolean)
returns uuid[]
language plpgsql
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_board public.user_collections;
  v_deleted uuid[];
begin
  if v_uid is null then
    raise exception 'Not authenticated' using errcode = '42501', detail = 'not_authenticated';
  end if;
  if p_move_children_up is null then
    raise exception 'Say whether sub-boards move up or are deleted' using errcode = '22023', detail = 'move_children_up_required';
  end if;
  -- The tree lock first (same key as the board trigger): no sub-board can arrive under this board meanwhile.
  perform pg_advisory_xact_lock(7272, hashtext('user_collections:' || v_uid::text));
  select * into v_board from public.user_collections where id = p_id and user_id = v_uid for update;
  if v_board.id is null then
    raise exception 'Board not found' using errcode = 'PT404', detail = 'board_not_found';
  end if;
  if v_board.is_system then
    raise exception 'Favorites cannot be deleted' using errcode = 'P0001', detail = 'favorites_protected';
  end if;
  if p_move_children_up then
    update public.user_collections set parent_id = v_board.parent_id where parent_id = v_board.id;
  end if;
  with recursive doomed as (
    select id from public.user_collections where id = v_board.id
    union all
    select c.id from public.user_collections c join doomed d on c.parent_id = d.id
  )
  select array_agg(id order by id) into v_deleted from doomed;
  delete from public.user_collections where id = v_board.id;
  return v_deleted;
end;
$$;
revoke all on function public.delete_board(p_id uuid, p_move_children_up boolean) from public;

-- Boards per user and nesting depth, row by row, so that a bulk insert stops
-- at its first row over the cap: inserting a row costs far more than counting
-- it, and 100,000 rows took PGlite 28 s. The user's boards are counted once per
-- statement, after the tree lock (so the count holds until commit), and each
-- row the statement inserts adds one to that count.
create or replace function private.user_collections_forget_counts() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  perform set_config('obyect.board_counts', '{}', true);
  return null;
end;
$$;

create or replace function private.user_collections_check_caps() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  -- Constants here, not a shared function: one more call per row doubled a bulk insert's time on PGlite.
  v_max_boards constant int := 500;
  v_max_depth constant int := 5;
  v_counts jsonb;
  v_boards int;
  v_parent_depth int;
  v_height int;
  v_cursor uuid;
begin
  if tg_op = 'UPDATE' and new.parent_id is not distinct from old.parent_id then
    return new;
  end if;
  if tg_op = 'INSERT' and not new.is_system then
    v_counts := coalesce(nullif(current_setting('obyect.board_counts', true), ''), '{}')::jsonb;
    v_boards := (v_counts ->> new.user_id::text)::int;
    if v_boards is null then
      -- The tree lock of the board trigger and delete_board: a parallel insert counts after this one commits.
      perform pg_advisory_xact_lock(7272, hashtext('user_collections:' || new.user_id::text));
      select count(*) into v_boards
        from (select 1 from public.user_collections
               where user_id = new.user_id and not is_system
               limit v_max_boards) mine;
    end if;
    if v_boards >= v_max_boards then
      raise exception 'A user can have at most % boards', v_max_boards
        using errcode = 'OB001', detail = 'board_limit_reached';
    end if;
    perform set_config('obyect.board_counts', jsonb_set(v_counts, array[new.user_id::text], to_jsonb(v_boards + 1))::text, true);
  end if;
  if new.parent_id is null then
    return new;
  end if;
  -- The same lock before a walk: a parallel move that changes these levels is committed and seen.
  perform pg_advisory_xact_lock(7272, hashtext('user_collections:' || new.user_id::text));
  -- The parent's level (a top-level board is level 1); the walk stops once past the cap.
  v_parent_depth := 1;
  select parent_id into v_cursor from public.user_collections where id = new.parent_id;
  while v_cursor is not null and v_parent_depth < v_max_depth loop
    v_parent_depth := v_parent_depth + 1;
    select parent_id into v_cursor from public.user_collections where id = v_cursor;
  end loop;
  -- A moved board brings its sub-boards along: its subtree's height counts (1 for a board without sub-boards).
  v_height := 1;
  if tg_op = 'UPDATE' then
    with recursive subtree as (
      select c.id, 2 as level from public.user_collections c where c.parent_id = new.id
      union all
      select c.id, s.level + 1 from public.user_collections c join subtree s on c.parent_id = s.id
       where s.level <= v_max_depth
    )
    select coalesce(max(level), 1) into v_height from subtree;
  end if;
  if v_parent_depth + v_height > v_max_depth then
    raise exception 'Boards can be nested at most % levels deep', v_max_depth
      using errcode = 'OB002', detail = 'board_depth_limit_reached';
  end if;
  return new;
end;
$$;

-- Ads per board and favorites (the ads in the Favorites board), once per
-- statement over what it added: save_ad_boards adds one ad to up to 500 boards.
create or replace function private.user_collection_items_check_caps() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_max_ads constant int := 5000;
  v_max_favorites constant int := 10000;
  v_owner uuid;
  v_full record;
begin
  -- Each owner's tree lock, in one order so that two statements over the same owners cannot deadlock.
  for v_owner in
    select distinct c.user_id from public.user_collections c
     where c.id in (select collection_id from added)
     order by c.user_id
  loop
    perform pg_advisory_xact_lock(7272, hashtext('user_collections:' || v_owner::text));
  end loop;
  -- Read after the locks: what parallel transactions added has committed by now and is counted.
  select c.id, c.is_system into v_full
    from public.user_collections c
   where c.id in (select collection_id from added)
     and (select count(*) from (
            select 1 from public.user_collection_items i where i.collection_id = c.id
             limit greatest(v_max_ads, v_max_favorites) + 1) saved)
         > case when c.is_system then v_max_favorites else v_max_ads end
   limit 1;
  if not found then
    return null;
  end if;
  if v_full.is_system then
    raise exception 'A user can have at most % favorites', v_max_favorites
      using errcode = 'OB004', detail = 'favorites_limit_reached';
  end if;
  raise exception 'A board can hold at most % ads', v_max_ads
    using errcode = 'OB003', detail = 'board_ads_limit_reached';
end;
$$;

-- Saving to a board from several requests at once deadlocked. An insert into user_collection_items checks its foreign
-- key first, which holds a key-share lock on the board row; the caps trigger then waits for the owner's tree lock.
-- The save holding that tree lock went on to touch the board with FOR UPDATE, which waits for every key-share
-- holder: each waited for the other until PostgreSQL's deadlock check killed one, so under 32 parallel saves of one
-- user almost no save finished. Touching updated_at changes no key, so the board is locked FOR NO KEY UPDATE (the
-- lock the update itself takes), which key-share holders do not block: a save waits only for the save before it.
create or replace function private.user_collection_items_touch_boards() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- Boards in one order, so that two statements over the same boards cannot deadlock.
  perform 1 from public.user_collections c
    where c.id in (select collection_id from changed)
    order by c.id
    for no key update;
  update public.user_collections c set updated_at = now()
   where c.id in (select collection_id from changed);
  return null;
end;
$$;
revoke all on function private.user_collection_items_touch_boards() from public;

-- A page of 60 of the caller's board's ads, newest saved first, clear by the same rules as every list.
create or replace function public.list_collection_ads(p_collection_id uuid, p_cursor text default null) returns json
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  c_page_size constant int := 60;
  v_uid uuid := (select auth.uid());
  v_valid_access boolean := public.has_valid_access();
  v_query_key text := md5(jsonb_build_array('collection', p_collection_id)::text);
  v_cursor jsonb;
  v_after_at timestamptz;
  v_after_id uuid;
  v_page_ids uuid[];
  v_page_clear boolean[];
  v_page_saved jsonb[];
  v_count int;
  v_last_saved_at timestamptz;
  v_last_ad_id uuid;
begin
  if v_uid is null then
    raise exception 'Not authenticated' using errcode = '42501', detail = 'not_authenticated';
  end if;
  if not exists (select 1 from public.user_collections where id = p_collection_id and user_id = v_uid) then
    raise exception 'Board not found' using errcode = 'PT404', detail = 'board_not_found';
  end if;
  if p_cursor is not null then
    v_cursor := private.read_cursor(p_cursor, v_query_key);
    v_after_at := (v_cursor ->> 't')::timestamptz;
    v_after_id := (v_cursor ->> 'i')::uuid;
  end if;

  -- The page and the position of its last row in one statement, so the cursor matches what was shown.
  with page as (
    select i.saved_at, a, row_number() over (order by i.saved_at desc, i.ad_id desc) as ord
      from public.user_collection_items i
      join public.ads a on a.id = i.ad_id
     where i.collection_id = p_collection_id
       and (v_cursor is null or (i.saved_at, i.ad_id) < (v_after_at, v_after_id))
     order by i.saved_at desc, i.ad_id desc
     limit c_page_size + 1
  )
  select array_agg((page.a).id order by page.ord) filter (where page.ord <= c_page_size),
         array_agg(private.ad_is_clear_for(page.a, true, v_valid_access) order by page.ord)
           filter (where page.ord <= c_page_size),
         array_agg(jsonb_build_object('saved_at', private.iso_utc(page.saved_at)) order by page.ord)
           filter (where page.ord <= c_page_size),
         count(*),
         max(page.saved_at) filter (where page.ord = c_page_size),
         max((page.a).id::text) filter (where page.ord = c_page_size)
    into v_page_ids, v_page_clear, v_page_saved, v_count, v_last_saved_at, v_last_ad_id
    from page;

  return private.ads_page_json(v_page_ids, v_page_clear, v_page_saved,
    case when v_count > c_page_size
      then private.sign_cursor(jsonb_build_object('q', v_query_key, 't', private.iso_utc(v_last_saved_at), 'i', v_last_ad_id)) end);
end;
$$;
revoke all on function public.list_collection_ads(p_collection_id uuid, p_cursor text) from public;

-- A board's saved ads with the spec's flat fields; no ad image path but the blurred preview
-- (display paths come only from list_collection_ads, which decides clear or locked).
create view public.v_user_collection_ads with (security_invoker = true) as
select i.collection_id, i.ad_id, i.saved_at, a.brand_id, b.name as brand_name, b.logo_path as brand_logo_path,
       a.category_id, c.name as category_name, a.created_at, a.requires_subscription, a.is_black_friday,
       a.width, a.height, a.thumbhash, a.preview_path
  from public.user_collection_items i
  join public.ads a on a.id = i.ad_id
  join public.brands b on b.id = a.brand_id
  join public.categories c on c.id = a.category_id;

create index user_collections_user_parent on public.user_collections (user_id, parent_id);

create index user_collections_parent on public.user_collections (parent_id);

create unique index user_collections_one_favorites on public.user_collections (user_id) where is_system;

create index user_collection_items_ad on public.user_collection_items (ad_id);

create index user_collection_items_saved_order on public.user_collection_items (collection_id, saved_at desc, ad_id desc);

create trigger user_collections_normalize_name before insert or update of name on public.user_collections
  for each row execute function private.normalize_name();

create trigger user_collections_touch before update on public.user_collections
  for each row execute function private.touch_updated_at();

create trigger user_collections_check_board before insert or update on public.user_collections
  for each row execute function private.user_collections_check_board();

create trigger user_collections_protect_favorites before delete on public.user_collections
  for each row execute function private.user_collections_protect_favorites();

create trigger user_collections_forget_counts before insert on public.user_collections
  for each statement execute function private.user_collections_forget_counts();

-- Named to run after user_collections_check_board (triggers fire in name order): the parent is known to be the owner's.
create trigger user_collections_check_caps before insert or update of parent_id on public.user_collections
  for each row execute function private.user_collections_check_caps();

-- Transition tables take one event per trigger; ads are added by insert, and moved between boards only by an update.
create trigger user_collection_items_check_caps_insert after insert on public.user_collection_items
  referencing new table as added
  for each statement execute function private.user_collection_items_check_caps();

create trigger user_collection_items_check_caps_update after update on public.user_collection_items
  referencing new table as added
  for each statement execute function private.user_collection_items_check_caps();

-- Named to run after the caps (triggers fire in name order): a statement refused there touches nothing.
create trigger user_collection_items_touch_boards_insert after insert on public.user_collection_items
  referencing new table as changed
  for each statement execute function private.user_collection_items_touch_boards();

create trigger user_collection_items_touch_boards_delete after delete on public.user_collection_items
  referencing old table as changed
  for each statement execute function private.user_collection_items_touch_boards();

create trigger user_collection_items_touch_boards_update_old after update on public.user_collection_items
  referencing old table as changed
  for each statement execute function private.user_collection_items_touch_boards();

create trigger user_collection_items_touch_boards_update_new after update on public.user_collection_items
  referencing new table as changed
  for each statement execute function private.user_collection_items_touch_boards();

alter table public.user_collections enable row level security;
revoke all on table public.user_collections from authenticated, anon;
grant select, delete on table public.user_collections to authenticated;
grant insert (id, user_id, name, parent_id, is_system, slug), update (name, parent_id) on table public.user_collections to authenticated;

create policy "user_collections: owners read" on public.user_collections for select to authenticated
  using (user_id = (select auth.uid()));
create policy "user_collections: owners insert" on public.user_collections for insert to authenticated
  with check (user_id = (select auth.uid()));
create policy "user_collections: owners update" on public.user_collections for update to authenticated
  using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));
create policy "user_collections: owners delete" on public.user_collections for delete to authenticated
  using (user_id = (select auth.uid()));

alter table public.user_collection_items enable row level security;
revoke all on table public.user_collection_items from authenticated, anon;
grant select, delete on table public.user_collection_items to authenticated;
grant insert (collection_id, ad_id) on table public.user_collection_items to authenticated;

create policy "user_collection_items: owners read" on public.user_collection_items for select to authenticated
  using (exists (select 1 from public.user_collections c where c.id = collection_id and c.user_id = (select auth.uid())));
create policy "user_collection_items: owners insert" on public.user_collection_items for insert to authenticated
  with check (exists (select 1 from public.user_collections c where c.id = collection_id and c.user_id = (select auth.uid())));
create policy "user_collection_items: owners delete" on public.user_collection_items for delete to authenticated
  using (exists (select 1 from public.user_collections c where c.id = collection_id and c.user_id = (select auth.uid())));

revoke all on table public.v_user_collection_ads from authenticated, anon;
grant select on table public.v_user_collection_ads to authenticated;

-- Boards change live across tabs and devices: clients subscribe to
-- user_collections through Realtime, which delivers only the rows RLS lets
-- each subscriber select.
alter publication supabase_realtime add table public.user_collections;

-- ==========================================================================================
-- supabase/schemas/80_admin.sql
-- ==========================================================================================

-- The admin's tools: the ads table with its filters, bulk edits and deletes, the facts CSV export and import,
-- the Tag Ads utility, and the worklists and batched writes of image text and fingerprints. Each function starts
-- with private.require_admin().

-- Function bodies may name tables of later files: they are checked when called, not when created.
set check_function_bodies = false;

create or replace function public.admin_set_black_friday_access(p_user_id uuid, p_access boolean) returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not (select public.is_admin()) then
    raise exception 'This operation requires admin privileges.' using errcode = '42501', detail = 'admin_required';
  end if;
  update public.profiles set black_friday_access = p_access where user_id = p_user_id;
  if not found then
    raise exception 'Profile not found' using errcode = 'PT404', detail = 'profile_not_found';
  end if;
end;
$$;
revoke all on function public.admin_set_black_friday_access(p_user_id uuid, p_access boolean) from public, anon;

-- One page of the admin table (offset pagination, 50 a page by default) with
-- the total number of matching ads on every row. The date bounds are whole UTC
-- days, both included; a timestamp passed for them counts as its UTC day.
create or replace function public.get_ads_admin(
  p_limit integer default 50,
  p_offset integer default 0,
  p_search text default null,
  p_brand uuid default null,
  p_category uuid default null,
  p_type uuid default null,
  p_tag_ids uuid[] default null,
  p_date_from date default null,
  p_date_to date default null,
  p_sort text default 'newest'
) returns table (
  id uuid,
  brand_id uuid,
  brand_name text,
  brand_logo_path text,
  category_id uuid,
  category_name text,
  type_id uuid,
  type_name text,
  tag_ids uuid[],
  tag_names text[],
  created_at timestamptz,
  requires_subscription boolean,
  is_black_friday boolean,
  is_top_picks boolean,
  width integer,
  height integer,
  thumbhash text,
  preview_path text,
  display_480_path text,
  display_960_path text,
  original_path text,
  total_count bigint
)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_search text := nullif(btrim(coalesce(p_search, '')), '');
  v_tags uuid[] := (select array_agg(distinct t) from unnest(coalesce(p_tag_ids, '{}'::uuid[])) t where t is not null);
  v_pattern text;
  v_conditions text := 'true';
  v_filters text;
  v_order text;
  v_total bigint;
begin
  perform private.require_admin();
  if p_limit is null or p_limit < 1 or p_limit > 100 then
    raise exception 'Limit must be between 1 and 100' using errcode = 'P0001', detail = 'invalid_limit';
  end if;
  if p_offset is null or p_offset < 0 then
    raise exception 'Offset must not be negative' using errcode = 'P0001', detail = 'invalid_offset';
  end if;
  if p_sort is null or p_sort not in ('newest', 'oldest', 'brand_asc', 'brand_desc') then
    raise exception 'Unknown sort %', p_sort using errcode = 'P0001', detail = 'unknown_sort';
  end if;
  if p_date_from > p_date_to then
    raise exception 'The start date is after the end date' using errcode = 'P0001', detail = 'invalid_date_range';
  end if;
  if char_length(v_search) > 100 then
    raise exception 'Search text is too long (100 characters at most)' using errcode = 'P0001', detail = 'search_too_long';
  end if;

  if v_search is not null then
    v_pattern := '%' || replace(replace(replace(v_search, '\', '\\'), '%', '\%'), '_', '\_') || '%';
    v_conditions := v_conditions || ' and (a.brand_id = any (array(select x.id from public.brands x where x.name ilike $1))'
      || ' or a.category_id = any (array(select x.id from public.categories x where x.name ilike $1))'
      || ' or exists (select 1 from public.ad_tags h join public.tags x on x.id = h.tag_id'
      || ' where h.ad_id = a.id and x.name ilike $1))';
  end if;
  v_filters := 'true'
    || case when p_brand is not null then ' and a.brand_id = $2' else '' end
    || case when p_category is not null then ' and a.category_id = $3' else '' end
    || case when p_type is not null then ' and a.type_id = $4' else '' end
    || case when v_tags is not null then
         ' and not exists (select 1 from unnest($5::uuid[]) w(id) where not exists '
         || '(select 1 from public.ad_tags h where h.ad_id = a.id and h.tag_id = w.id))' else '' end
    || case when p_date_from is not null then ' and a.created_at >= ($6::date::timestamp at time zone ''UTC'')' else '' end
    || case when p_date_to is not null then ' and a.created_at < (($7::date + 1)::timestamp at time zone ''UTC'')' else '' end;
  v_conditions := v_conditions || ' and ' || v_filters;

  if v_search is null and v_filters = 'true' then
    select total into v_total from private.ad_counts;
  elsif v_search is not null then
    -- Count the matches from index ranges (brand, category, tag), not by testing every ad.
    execute 'select count(*) from ('
      || 'select a.id from public.ads a where a.brand_id = any (array(select id from public.brands where name ilike $1)) and ' || v_filters
      || ' union select a.id from public.ads a where a.category_id = any (array(select id from public.categories where name ilike $1)) and ' || v_filters
      || ' union select a.id from public.ad_tags t join public.ads a on a.id = t.ad_id'
      || ' where t.tag_id = any (array(select id from public.tags where name ilike $1)) and ' || v_filters
      || ') u' into v_total
      using v_pattern, p_brand, p_category, p_type, v_tags, p_date_from, p_date_to;
  else
    execute 'select count(*) from public.ads a where ' || v_conditions into v_total
      using v_pattern, p_brand, p_category, p_type, v_tags, p_date_from, p_date_to;
  end if;

  v_order := case p_sort
    when 'newest' then 'a.created_at desc, a.id desc'
    when 'oldest' then 'a.created_at asc, a.id asc'
    when 'brand_asc' then 'lower(b.name) asc, b.name asc, a.created_at desc, a.id desc'
    else 'lower(b.name) desc, b.name desc, a.created_at desc, a.id desc' end;

  return query execute
    'select a.id, a.brand_id, b.name, b.logo_path, a.category_id, c.name, a.type_id, ty.name,'
    || ' array(select h.tag_id from public.ad_tags h join public.tags g on g.id = h.tag_id where h.ad_id = a.id order by g.name),'
    || ' array(select g.name from public.ad_tags h join public.tags g on g.id = h.tag_id where h.ad_id = a.id order by g.name),'
    || ' a.created_at, a.requires_subscription, a.is_black_friday, a.is_top_picks, a.width, a.height, a.thumbhash,'
    || ' a.preview_path, a.display_480_path, a.display_960_path, a.original_path, $10::bigint'
    || case when p_sort in ('brand_asc', 'brand_desc') then
         -- No brand gives a page more than limit + offset rows: take at most that many per brand, newest first.
         ' from public.brands b cross join lateral (select a.* from public.ads a where a.brand_id = b.id and ' || v_conditions
         || ' order by a.created_at desc, a.id desc limit $8 + $9) a join public.categories c on c.id = a.category_id'
         || ' left join public.types ty on ty.id = a.type_id'
       else
         ' from public.ads a join public.brands b on b.id = a.brand_id join public.categories c on c.id = a.category_id'
         || ' left join public.types ty on ty.id = a.type_id'
         || ' where ' || v_conditions
       end
    || ' order by ' || v_order || ' limit $8 offset $9'
    using v_pattern, p_brand, p_category, p_type, v_tags, p_date_from, p_date_to, p_limit, p_offset, v_total;
end;
$$;
revoke all on function public.get_ads_admin(p_limit integer, p_offset integer, p_search text, p_brand uuid, p_category uuid, p_type uuid, p_tag_ids uuid[], p_date_from date, p_date_to date, p_sort text) from public, anon, service_role;

-- Bulk delete in one transaction; each id gets its result, in the order given. The ads' images are
-- queued for removal from storage (storage_deletions) by the delete trigger.
create or replace function public.admin_delete_ads(p_ids uuid[])
returns table (id uuid, ok boolean, error text)
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_ids uuid[] := array(select u.x from unnest(coalesce(p_ids, '{}'::uuid[])) with ordinality u (x, n)
                         where u.x is not null group by u.x order by min(u.n));
  v_deleted uuid[];
begin
  perform private.require_admin();
  if cardinality(v_ids) = 0 then
    raise exception 'No ads selected' using errcode = 'P0001', detail = 'no_ads_selected';
  end if;
  if cardinality(v_ids) > 1000 then
    raise exception 'Too many ads in one delete (1000 at most)' using errcode = 'P0001', detail = 'too_many_ads';
  end if;
  -- Lock the ads in id order, so two bulk deletes never deadlock.
  perform 1 from public.ads a where a.id = any (v_ids) order by a.id for update;
  with gone as (delete from public.ads a where a.id = any (v_ids) returning a.id)
  select coalesce(array_agg(gone.id), '{}') into v_deleted from gone;
  return query
    select u.x, u.x = any (v_deleted), case when u.x = any (v_deleted) then null else 'not_found' end
      from unnest(v_ids) with ordinality u (x, n) order by u.n;
end;
$$;
revoke all on function public.admin_delete_ads(p_ids uuid[]) from public, anon, service_role;

-- Gives the ads uploaded on one UTC day the Black Friday tag where they lack it.
create or replace function private.tag_ads_of_day(p_day date) returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_tag uuid := (select id from public.tags where system_key = 'black_friday');
  v_count integer;
begin
  insert into public.ad_tags (ad_id, tag_id)
  select a.id, v_tag from public.ads a
   where a.created_at >= (p_day::timestamp at time zone 'UTC')
     and a.created_at < ((p_day + 1)::timestamp at time zone 'UTC')
  on conflict do nothing;
  get diagnostics v_count = row_count;
  return v_count;
end;
$$;

-- The 'Tag Ads' utility (admins) and the daily job (service role). The day
-- defaults to yesterday in UTC.
create or replace function public.tag_ads_of_day(p_day date default null) returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_day date := coalesce(p_day, ((now() at time zone 'UTC')::date - 1));
  v_count integer;
begin
  if coalesce(auth.role(), '') <> 'service_role' then
    perform private.require_admin();
  end if;
  v_count := private.tag_ads_of_day(v_day);
  return jsonb_build_object('tagged', v_count, 'day', v_day,
    'message', format('Tagged %s ad(s) uploaded on %s with Black Friday.', v_count, to_char(v_day, 'YYYY-MM-DD')));
end;
$$;
revoke all on function public.tag_ads_of_day(p_day date) from public, anon;

-- For the admin table: whether each ad is in the free sample, and links to its display variants.
create or replace function public.admin_ad_images(p_ids uuid[]) returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_key bytea := private.image_link_key();
  v_iat bigint := private.image_link_window_start(now());
begin
  perform private.require_admin();
  if cardinality(p_ids) > 200 then
    raise exception 'Too many ads (200 at most)' using errcode = 'P0001', detail = 'too_many_ads';
  end if;
  return (select coalesce(jsonb_agg(jsonb_build_object(
      'id', a.id,
      'free_sample', a.free_sample,
      'display_480_url', private.signed_object_url('ad-images', a.display_480_path, v_iat, v_iat + 86400, v_key),
      'display_960_url', private.signed_object_url('ad-images', a.display_960_path, v_iat, v_iat + 86400, v_key))
      order by a.id), '[]'::jsonb)
    from public.ads a where a.id = any (p_ids));
end;
$$;
revoke all on function public.admin_ad_images(p_ids uuid[]) from public, anon;

create or replace function public.admin_update_ads(
  p_ids uuid[],
  p_brand_id uuid default null,
  p_category_id uuid default null,
  p_type_mode text default 'no_change',
  p_type_id uuid default null,
  p_add_tag_ids uuid[] default '{}',
  p_remove_tag_ids uuid[] default '{}',
  p_facts jsonb default null
) returns table (id uuid, ok boolean, error text)
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_ids uuid[] := array(select u.x from unnest(coalesce(p_ids, '{}'::uuid[])) with ordinality u (x, n)
                         where u.x is not null group by u.x order by min(u.n));
  v_add uuid[] := array(select distinct x from unnest(coalesce(p_add_tag_ids, '{}'::uuid[])) x where x is not null);
  v_remove uuid[] := array(select distinct x from unnest(coalesce(p_remove_tag_ids, '{}'::uuid[])) x where x is not null);
  v_facts jsonb := coalesce(p_facts, '{}'::jsonb);
  v_text_facts constant text[] := array['placement', 'format', 'landing_url', 'primary_text', 'headline', 'call_to_action',
                                        'offer', 'language', 'country'];
  v_known constant text[] := array['platforms', 'placement', 'format', 'first_seen', 'last_seen', 'still_running', 'landing_url',
                                   'primary_text', 'headline', 'call_to_action', 'offer', 'hook_id', 'language', 'country'];
  v_key text;
  v_platforms text[];
  v_first_seen date;
  v_last_seen date;
  v_hook_id uuid;
  v_found uuid[];
  v_constraint text;
begin
  perform private.require_admin();
  if cardinality(v_ids) = 0 then
    raise exception 'No ads selected' using errcode = 'P0001', detail = 'no_ads_selected';
  end if;
  if cardinality(v_ids) > 1000 then
    raise exception 'Too many ads in one edit (1000 at most)' using errcode = 'P0001', detail = 'too_many_ads';
  end if;
  if p_type_mode is null or p_type_mode not in ('no_change', 'set', 'clear') then
    raise exception 'Unknown type mode %', p_type_mode using errcode = 'P0001', detail = 'unknown_type_mode';
  end if;
  if p_type_mode = 'set' and p_type_id is null then
    raise exception 'A type to set is required' using errcode = 'P0001', detail = 'type_required';
  end if;
  if p_brand_id is not null and not exists (select 1 from public.brands where brands.id = p_brand_id) then
    raise exception 'Brand not found' using errcode = 'PT404', detail = 'brand_not_found';
  end if;
  if p_category_id is not null and not exists (select 1 from public.categories where categories.id = p_category_id) then
    raise exception 'Category not found' using errcode = 'PT404', detail = 'category_not_found';
  end if;
  if p_type_mode = 'set' and not exists (select 1 from public.types where types.id = p_type_id) then
    raise exception 'Type not found' using errcode = 'PT404', detail = 'type_not_found';
  end if;
  if v_add && v_remove then
    raise exception 'A tag cannot be added and removed at once' using errcode = 'P0001', detail = 'tag_add_remove_overlap';
  end if;
  if (select count(*) from public.tags where tags.id = any (v_add || v_remove)) <> cardinality(v_add) + cardinality(v_remove) then
    raise exception 'Tag not found' using errcode = 'PT404', detail = 'tag_not_found';
  end if;

  -- The facts' shapes; their rules are the table's checks, reported below.
  if jsonb_typeof(v_facts) <> 'object' then
    raise exception 'The facts must be an object' using errcode = 'P0001', detail = 'invalid_facts';
  end if;
  for v_key in select jsonb_object_keys(v_facts) loop
    if not v_key = any (v_known) then
      raise exception 'Unknown fact "%"', v_key using errcode = 'P0001', detail = 'invalid_facts';
    end if;
    if v_key = any (v_text_facts) and jsonb_typeof(v_facts -> v_key) not in ('string', 'null') then
      raise exception 'The fact "%" must be text', v_key using errcode = 'P0001', detail = 'invalid_facts';
    end if;
  end loop;
  if v_facts ? 'platforms' and jsonb_typeof(v_facts -> 'platforms') <> 'null' then
    if jsonb_typeof(v_facts -> 'platforms') <> 'array'
       or exists (select 1 from jsonb_array_elements(v_facts -> 'platforms') e where jsonb_typeof(e) <> 'string') then
      raise exception 'Platforms must be a list of names' using errcode = 'P0001', detail = 'invalid_facts';
    end if;
    v_platforms := array(select jsonb_array_elements_text(v_facts -> 'platforms'));
  end if;
  if v_facts ? 'still_running' and jsonb_typeof(v_facts -> 'still_running') <> 'boolean' then
    raise exception 'Still running must be true or false' using errcode = 'P0001', detail = 'invalid_facts';
  end if;
  foreach v_key in array array['first_seen', 'last_seen'] loop
    if v_facts ? v_key and jsonb_typeof(v_facts -> v_key) <> 'null' then
      if jsonb_typeof(v_facts -> v_key) <> 'string' or (v_facts ->> v_key) !~ '^\d{4}-\d{2}-\d{2}$' then
        raise exception 'The fact "%" must be a date (YYYY-MM-DD)', v_key using errcode = 'P0001', detail = 'invalid_facts';
      end if;
      begin
        if v_key = 'first_seen' then v_first_seen := (v_facts ->> v_key)::date; else v_last_seen := (v_facts ->> v_key)::date; end if;
      exception when invalid_datetime_format or datetime_field_overflow then
        raise exception 'The fact "%" is not a real date', v_key using errcode = 'P0001', detail = 'invalid_facts';
      end;
    end if;
  end loop;
  if v_facts ? 'hook_id' and jsonb_typeof(v_facts -> 'hook_id') <> 'null' then
    if jsonb_typeof(v_facts -> 'hook_id') <> 'string'
       or (v_facts ->> 'hook_id') !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
      raise exception 'Hook not found' using errcode = 'PT404', detail = 'hook_not_found';
    end if;
    v_hook_id := (v_facts ->> 'hook_id')::uuid;
    if not exists (select 1 from public.hooks h where h.id = v_hook_id) then
      raise exception 'Hook not found' using errcode = 'PT404', detail = 'hook_not_found';
    end if;
  end if;

  -- Lock the ads in id order, so two bulk edits never deadlock.
  v_found := array(select a.id from public.ads a where a.id = any (v_ids) order by a.id for update);

  if p_brand_id is not null or p_category_id is not null or p_type_mode <> 'no_change' then
    update public.ads a
       set brand_id = coalesce(p_brand_id, a.brand_id),
           category_id = coalesce(p_category_id, a.category_id),
           type_id = case p_type_mode when 'set' then p_type_id when 'clear' then null else a.type_id end
     where a.id = any (v_found);
  end if;
  if v_facts <> '{}'::jsonb then
    begin
      update public.ads a
         set platforms = case when v_facts ? 'platforms' then v_platforms else a.platforms end,
             placement = case when v_facts ? 'placement' then v_facts ->> 'placement' else a.placement end,
             format = case when v_facts ? 'format' then v_facts ->> 'format' else a.format end,
             first_seen = case when v_facts ? 'first_seen' then v_first_seen else a.first_seen end,
             last_seen = case when v_facts ? 'last_seen' then v_last_seen else a.last_seen end,
             still_running = case when v_facts ? 'still_running' then (v_facts ->> 'still_running')::boolean else a.still_running end,
             landing_url = case when v_facts ? 'landing_url' then v_facts ->> 'landing_url' else a.landing_url end,
             primary_text = case when v_facts ? 'primary_text' then v_facts ->> 'primary_text' else a.primary_text end,
             headline = case when v_facts ? 'headline' then v_facts ->> 'headline' else a.headline end,
             call_to_action = case when v_facts ? 'call_to_action' then v_facts ->> 'call_to_action' else a.call_to_action end,
             offer = case when v_facts ? 'offer' then v_facts ->> 'offer' else a.offer end,
             hook_id = case when v_facts ? 'hook_id' then v_hook_id else a.hook_id end,
             language = case when v_facts ? 'language' then v_facts ->> 'language' else a.language end,
             country = case when v_facts ? 'country' then v_facts ->> 'country' else a.country end
       where a.id = any (v_found);
    exception when check_violation then
      get stacked diagnostics v_constraint = constraint_name;
      raise exception '%', private.ad_fact_error(v_constraint) using errcode = 'P0001', detail = 'invalid_facts', hint = v_constraint;
    end;
  end if;
  insert into public.ad_tags (ad_id, tag_id)
  select f, g from unnest(v_found) f cross join unnest(v_add) g
  on conflict do nothing;
  delete from public.ad_tags h where h.ad_id = any (v_found) and h.tag_id = any (v_remove);

  return query
    select u.x, u.x = any (v_found), case when u.x = any (v_found) then null else 'not_found' end
      from unnest(v_ids) with ordinality u (x, n) order by u.n;
end;
$$;
revoke all on function public.admin_update_ads(p_ids uuid[], p_brand_id uuid, p_category_id uuid, p_type_mode text, p_type_id uuid, p_add_tag_ids uuid[], p_remove_tag_ids uuid[], p_facts jsonb) from public, anon, service_role;

-- Stores the text read from several ads' images in one call: p_texts is a JSON array of {"id": uuid, "text": string},
-- 100 at most. All or nothing: an unknown ad or a refused text fails the call and changes no row. Returns how many
-- ads were written.
create function public.admin_set_image_texts(p_texts jsonb) returns int
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_count int;
  v_written int;
begin
  perform private.require_admin();
  if p_texts is null or jsonb_typeof(p_texts) <> 'array' then
    raise exception 'A list of image texts is required' using errcode = 'P0001', detail = 'invalid_image_texts';
  end if;
  v_count := jsonb_array_length(p_texts);
  if v_count = 0 then
    return 0;
  end if;
  if v_count > 100 then
    raise exception 'Too many image texts in one call (100 at most)' using errcode = 'P0001', detail = 'too_many_image_texts';
  end if;
  if exists (
    select 1 from jsonb_array_elements(p_texts) e
     where jsonb_typeof(e) <> 'object'
        or jsonb_typeof(e -> 'id') is distinct from 'string'
        or jsonb_typeof(e -> 'text') is distinct from 'string'
        or (e ->> 'id') !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
        or char_length(e ->> 'text') > 5000
  ) then
    raise exception 'Each image text needs an ad id and a text of at most 5000 characters'
      using errcode = 'P0001', detail = 'invalid_image_texts';
  end if;
  if (select count(distinct (e ->> 'id')::uuid) from jsonb_array_elements(p_texts) e) <> v_count then
    raise exception 'An ad appears twice in one call' using errcode = 'P0001', detail = 'invalid_image_texts';
  end if;

  update public.ads a
     set image_text = btrim(e ->> 'text')
    from jsonb_array_elements(p_texts) e
   where a.id = (e ->> 'id')::uuid;
  get diagnostics v_written = row_count;
  if v_written <> v_count then
    raise exception 'Ad not found' using errcode = 'PT404', detail = 'not_found';
  end if;
  return v_written;
end;
$$;
revoke all on function public.admin_set_image_texts(p_texts jsonb) from public, anon;

-- The facts of up to 1000 ads, with each hook's name: the table's page, an
-- export and an import's preview ask it for the ads they hold. Ids that name
-- no ad are left out.
create or replace function public.admin_ad_facts(p_ids uuid[])
returns table (
  id uuid,
  platforms text[],
  placement text,
  format text,
  first_seen date,
  last_seen date,
  still_running boolean,
  landing_url text,
  primary_text text,
  headline text,
  call_to_action text,
  offer text,
  hook_id uuid,
  hook_name text,
  language text,
  country text
)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.require_admin();
  if cardinality(coalesce(p_ids, '{}'::uuid[])) > 1000 then
    raise exception 'Too many ads at once (1000 at most)' using errcode = 'P0001', detail = 'too_many_ads';
  end if;
  return query
    select a.id, a.platforms, a.placement, a.format, a.first_seen, a.last_seen, a.still_running, a.landing_url,
           a.primary_text, a.headline, a.call_to_action, a.offer, a.hook_id, h.name, a.language, a.country
      from public.ads a left join public.hooks h on h.id = a.hook_id
     where a.id = any (p_ids)
     order by a.id;
end;
$$;
revoke all on function public.admin_ad_facts(p_ids uuid[]) from public, anon, service_role;

-- An import of 1000 valid rows written one ad at a time (a statement and a
-- savepoint each) took seconds; as one statement it takes a fraction of that.
-- admin_import_ad_facts writes every row in one update when every row is
-- well formed, names existing ads once each, and passes the table's checks.
-- Only when that fails does it go through the rows one by one, to name each
-- refused row, and then writes nothing (docs/decisions/0033).
create or replace function public.admin_import_ad_facts(p_rows jsonb)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_row jsonb;
  v_index integer;
  v_id uuid;
  v_seen uuid[] := '{}';
  v_errors jsonb := '[]'::jsonb;
  v_ok boolean;
  v_detail text;
  v_hint text;
  v_updated integer := 0;
  v_ids uuid[];
  v_text_facts constant text[] := array['placement', 'format', 'landing_url', 'primary_text', 'headline', 'call_to_action',
                                        'offer', 'language', 'country'];
  v_known constant text[] := array['platforms', 'placement', 'format', 'first_seen', 'last_seen', 'still_running', 'landing_url',
                                   'primary_text', 'headline', 'call_to_action', 'offer', 'hook_id', 'language', 'country'];
begin
  perform private.require_admin();
  if p_rows is null or jsonb_typeof(p_rows) <> 'array' then
    raise exception 'The rows must be a list' using errcode = 'P0001', detail = 'invalid_rows';
  end if;
  if jsonb_array_length(p_rows) = 0 then
    raise exception 'No rows to import' using errcode = 'P0001', detail = 'no_rows';
  end if;
  if jsonb_array_length(p_rows) > 1000 then
    raise exception 'Too many rows in one import (1000 at most)' using errcode = 'P0001', detail = 'too_many_rows';
  end if;

  -- Every row well formed, each naming a distinct existing ad: one update for all.
  if not exists (
       select 1 from jsonb_array_elements(p_rows) e
        where not (
          jsonb_typeof(e) = 'object'
          and jsonb_typeof(e -> 'id') = 'string'
          and (e ->> 'id') ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
          and jsonb_typeof(e -> 'facts') = 'object'
          and not exists (select 1 from jsonb_object_keys(e) k where k not in ('id', 'facts'))
          and not exists (
            select 1 from jsonb_each(e -> 'facts') kv
             where kv.key <> all (v_known)
                or (kv.key = any (v_text_facts) and jsonb_typeof(kv.value) not in ('string', 'null'))
                or (kv.key = 'platforms' and jsonb_typeof(kv.value) <> 'null'
                    and (jsonb_typeof(kv.value) <> 'array'
                         or exists (select 1 from jsonb_array_elements(kv.value) x where jsonb_typeof(x) <> 'string')))
                or (kv.key = 'still_running' and jsonb_typeof(kv.value) <> 'boolean')
                or (kv.key in ('first_seen', 'last_seen') and jsonb_typeof(kv.value) <> 'null'
                    and (jsonb_typeof(kv.value) <> 'string' or (kv.value #>> '{}') !~ '^\d{4}-\d{2}-\d{2}$'))
                or (kv.key = 'hook_id' and jsonb_typeof(kv.value) <> 'null'
                    and (jsonb_typeof(kv.value) <> 'string'
                         or (kv.value #>> '{}') !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'))
          )
        )
     ) then
    v_ids := array(select (e ->> 'id')::uuid from jsonb_array_elements(p_rows) e);
    if cardinality(v_ids) = (select count(distinct x) from unnest(v_ids) x)
       and cardinality(v_ids) = (select count(*) from public.ads a where a.id = any (v_ids)) then
      begin
        -- Lock the ads in id order, as admin_update_ads does, so edits never deadlock.
        perform 1 from public.ads a where a.id = any (v_ids) order by a.id for update;
        update public.ads a
           set platforms = case when r.f ? 'platforms' then
                             case when jsonb_typeof(r.f -> 'platforms') = 'null' then null
                                  else array(select jsonb_array_elements_text(r.f -> 'platforms')) end
                           else a.platforms end,
               placement = case when r.f ? 'placement' then r.f ->> 'placement' else a.placement end,
               format = case when r.f ? 'format' then r.f ->> 'format' else a.format end,
               first_seen = case when r.f ? 'first_seen' then (r.f ->> 'first_seen')::date else a.first_seen end,
               last_seen = case when r.f ? 'last_seen' then (r.f ->> 'last_seen')::date else a.last_seen end,
               still_running = case when r.f ? 'still_running' then (r.f ->> 'still_running')::boolean else a.still_running end,
               landing_url = case when r.f ? 'landing_url' then r.f ->> 'landing_url' else a.landing_url end,
               primary_text = case when r.f ? 'primary_text' then r.f ->> 'primary_text' else a.primary_text end,
               headline = case when r.f ? 'headline' then r.f ->> 'headline' else a.headline end,
               call_to_action = case when r.f ? 'call_to_action' then r.f ->> 'call_to_action' else a.call_to_action end,
               offer = case when r.f ? 'offer' then r.f ->> 'offer' else a.offer end,
               hook_id = case when r.f ? 'hook_id' then (r.f ->> 'hook_id')::uuid else a.hook_id end,
               language = case when r.f ? 'language' then r.f ->> 'language' else a.language end,
               country = case when r.f ? 'country' then r.f ->> 'country' else a.country end
          from (select (e ->> 'id')::uuid as id, e -> 'facts' as f from jsonb_array_elements(p_rows) e) r
         where a.id = r.id and r.f <> '{}'::jsonb;
        return jsonb_build_object('updated', cardinality(v_ids), 'errors', '[]'::jsonb);
      exception when others then
        -- A row broke a rule (a check, a date that does not exist, a deleted hook): find which, row by row.
        null;
      end;
    end if;
  end if;

  begin
    for v_row, v_index in select e.value, (e.ordinality - 1)::integer from jsonb_array_elements(p_rows) with ordinality e loop
      v_id := null;
      if jsonb_typeof(v_row) <> 'object' or jsonb_typeof(v_row -> 'id') is distinct from 'string'
         or (v_row ->> 'id') !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
        v_errors := v_errors || jsonb_build_object('index', v_index, 'code', 'invalid_id', 'rule', null);
        continue;
      end if;
      v_id := (v_row ->> 'id')::uuid;
      if v_id = any (v_seen) then
        v_errors := v_errors || jsonb_build_object('index', v_index, 'code', 'duplicate_id', 'rule', null);
        continue;
      end if;
      v_seen := v_seen || v_id;
      if jsonb_typeof(v_row -> 'facts') is distinct from 'object'
         or exists (select 1 from jsonb_object_keys(v_row) k where k not in ('id', 'facts')) then
        v_errors := v_errors || jsonb_build_object('index', v_index, 'code', 'invalid_facts', 'rule', null);
        continue;
      end if;
      begin
        select u.ok into v_ok from public.admin_update_ads(p_ids => array[v_id], p_facts => v_row -> 'facts') u;
        if not v_ok then
          v_errors := v_errors || jsonb_build_object('index', v_index, 'code', 'not_found', 'rule', null);
        else
          v_updated := v_updated + 1;
        end if;
      exception when others then
        get stacked diagnostics v_detail = pg_exception_detail, v_hint = pg_exception_hint;
        v_errors := v_errors || jsonb_build_object('index', v_index, 'code', coalesce(nullif(v_detail, ''), 'invalid_facts'),
                                                   'rule', nullif(v_hint, ''));
      end;
    end loop;
    if jsonb_array_length(v_errors) > 0 then
      -- Undo every row written above; the handler keeps the answer.
      raise exception 'The import was refused' using errcode = 'PX422';
    end if;
  exception when sqlstate 'PX422' then
    v_updated := 0;
  end;
  return jsonb_build_object('updated', v_updated, 'errors', v_errors);
end;
$$;
revoke all on function public.admin_import_ad_facts(p_rows jsonb) from public, anon, service_role;

-- The admin's backfill of image texts: the ads whose image_text is null (not read yet, or not readable at upload),
-- newest first, a page at a time, each with a link to its 960 display image, which the admin's browser reads.
-- Keyset pages: p_after_created_at and p_after_id are the last ad of the previous page (both null for the first).
-- p_limit is 1 to 100. Returns {"ads": [{"id", "created_at", "display_960_url"}], "remaining": n, "next": {...} | null};
-- remaining counts every unread ad, the ones before the cursor included.
create function public.admin_ads_without_image_text(
  p_after_created_at timestamptz default null,
  p_after_id uuid default null,
  p_limit int default 50
) returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_key bytea;
  v_iat bigint := private.image_link_window_start(now());
  v_rows jsonb;
  v_count int;
  v_last jsonb;
begin
  perform private.require_admin();
  if p_limit is null or p_limit < 1 or p_limit > 100 then
    raise exception 'A page holds 1 to 100 ads' using errcode = 'P0001', detail = 'invalid_limit';
  end if;
  if (p_after_created_at is null) <> (p_after_id is null) then
    raise exception 'A page starts after an ad''s time and id, or at the start' using errcode = 'P0001', detail = 'invalid_cursor';
  end if;
  v_key := private.image_link_key();

  select coalesce(jsonb_agg(jsonb_build_object(
           'id', page.id,
           'created_at', page.created_at,
           'display_960_url', private.signed_object_url('ad-images', page.display_960_path, v_iat, v_iat + 86400, v_key))
           order by page.created_at desc, page.id desc), '[]'::jsonb),
         count(*)
    into v_rows, v_count
    from (
      select a.id, a.created_at, a.display_960_path
        from public.ads a
       where a.image_text is null
         and (p_after_created_at is null or (a.created_at, a.id) < (p_after_created_at, p_after_id))
       order by a.created_at desc, a.id desc
       limit p_limit
    ) page;

  v_last := case when v_count = p_limit then v_rows -> (v_count - 1) end;
  return jsonb_build_object(
    'ads', v_rows,
    'remaining', (select count(*) from public.ads a where a.image_text is null),
    'next', case when v_last is null then null
                 else jsonb_build_object('created_at', v_last -> 'created_at', 'id', v_last -> 'id') end);
end;
$$;
revoke all on function public.admin_ads_without_image_text(p_after_created_at timestamp with time zone, p_after_id uuid, p_limit integer) from public, anon;

create function public.admin_ads_without_fingerprint(
  p_after_created_at timestamptz default null,
  p_after_id uuid default null,
  p_limit int default 50
) returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_key bytea;
  v_iat bigint := private.image_link_window_start(now());
  v_rows jsonb;
  v_count int;
  v_last jsonb;
begin
  perform private.require_admin();
  if p_limit is null or p_limit < 1 or p_limit > 100 then
    raise exception 'A page holds 1 to 100 ads' using errcode = 'P0001', detail = 'invalid_limit';
  end if;
  if (p_after_created_at is null) <> (p_after_id is null) then
    raise exception 'A page starts after an ad''s time and id, or at the start' using errcode = 'P0001', detail = 'invalid_cursor';
  end if;
  v_key := private.image_link_key();

  select coalesce(jsonb_agg(jsonb_build_object(
           'id', page.id,
           'created_at', page.created_at,
           'display_960_url', private.signed_object_url('ad-images', page.display_960_path, v_iat, v_iat + 86400, v_key))
           order by page.created_at desc, page.id desc), '[]'::jsonb),
         count(*)
    into v_rows, v_count
    from (
      select a.id, a.created_at, a.display_960_path
        from public.ads a
       where a.visual_hash is null
         and (p_after_created_at is null or (a.created_at, a.id) < (p_after_created_at, p_after_id))
       order by a.created_at desc, a.id desc
       limit p_limit
    ) page;

  v_last := case when v_count = p_limit then v_rows -> (v_count - 1) end;
  return jsonb_build_object(
    'ads', v_rows,
    'remaining', (select count(*) from public.ads a where a.visual_hash is null),
    'next', case when v_last is null then null
                 else jsonb_build_object('created_at', v_last -> 'created_at', 'id', v_last -> 'id') end);
end;
$$;
revoke all on function public.admin_ads_without_fingerprint(p_after_created_at timestamp with time zone, p_after_id uuid, p_limit integer) from public, anon;

-- Stores up to 100 fingerprints, each {id, hash (a bigint's signed decimal), histogram (16 shares), colours (1 to 5
-- {hex, share})}, in one statement: any invalid element, repeated ad or missing ad changes nothing. The shares and
-- colours are checked once more by the ads' constraints and ads_visual_fingerprint, which derives the rest.
create function public.admin_set_fingerprints(p_fingerprints jsonb) returns int
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_count int;
  v_written int;
begin
  perform private.require_admin();
  if p_fingerprints is null or jsonb_typeof(p_fingerprints) <> 'array' then
    raise exception 'A list of fingerprints is required' using errcode = 'P0001', detail = 'invalid_fingerprints';
  end if;
  v_count := jsonb_array_length(p_fingerprints);
  if v_count = 0 then
    return 0;
  end if;
  if v_count > 100 then
    raise exception 'Too many fingerprints in one call (100 at most)' using errcode = 'P0001', detail = 'too_many_fingerprints';
  end if;
  -- Each check runs only once the ones it needs have passed (CASE keeps the order; OR does not promise one), so a
  -- malformed element gets this error rather than a failed cast.
  if exists (
    select 1 from jsonb_array_elements(p_fingerprints) e
     where case
             when jsonb_typeof(e) <> 'object' then true
             when jsonb_typeof(e -> 'id') is distinct from 'string'
                  or (e ->> 'id') !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then true
             when jsonb_typeof(e -> 'hash') is distinct from 'string' or (e ->> 'hash') !~ '^-?[0-9]{1,19}$' then true
             when (e ->> 'hash')::numeric not between -9223372036854775808 and 9223372036854775807 then true
             when jsonb_typeof(e -> 'histogram') is distinct from 'array' then true
             when jsonb_array_length(e -> 'histogram') <> 16 then true
             when exists (select 1 from jsonb_array_elements(e -> 'histogram') x where jsonb_typeof(x) <> 'number') then true
             else jsonb_typeof(e -> 'colours') is distinct from 'array'
           end
  ) then
    raise exception 'Each fingerprint needs an ad id, a 64-bit hash, 16 histogram shares and its dominant colours'
      using errcode = 'P0001', detail = 'invalid_fingerprints';
  end if;
  if (select count(distinct (e ->> 'id')::uuid) from jsonb_array_elements(p_fingerprints) e) <> v_count then
    raise exception 'An ad appears twice in one call' using errcode = 'P0001', detail = 'invalid_fingerprints';
  end if;

  update public.ads a
     set visual_hash = (e ->> 'hash')::bigint,
         colour_histogram = array(select x::text::real from jsonb_array_elements(e -> 'histogram') with ordinality h (x, n) order by n),
         dominant_colours = e -> 'colours'
    from jsonb_array_elements(p_fingerprints) e
   where a.id = (e ->> 'id')::uuid;
  get diagnostics v_written = row_count;
  if v_written <> v_count then
    raise exception 'Ad not found' using errcode = 'PT404', detail = 'not_found';
  end if;
  return v_written;
end;
$$;
revoke all on function public.admin_set_fingerprints(p_fingerprints jsonb) from public, anon;

-- ==========================================================================================
-- supabase/schemas/85_storage.sql
-- ==========================================================================================

-- Storage: the buckets, the policies that let only admins write and list them, the checks that a row's file has been
-- uploaded, and the queue of files whose rows are gone (storage_deletions), which the stack empties. A row never
-- points at a missing file and a file no row points at is removed.

-- Function bodies may name tables of later files: they are checked when called, not when created.
set check_function_bodies = false;

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types) values
  ('ad-originals', 'ad-originals', false, 20971520, array['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif']),
  ('ad-images', 'ad-images', false, 5242880, array['image/webp']),
  ('ad-videos', 'ad-videos', false, 52428800, array['video/mp4', 'video/webm']),
  ('brand-logos', 'brand-logos', true, 2097152, array['image/png', 'image/jpeg', 'image/webp']),
  ('banners', 'banners', true, 10485760, array['image/jpeg', 'image/png', 'image/webp'])
on conflict (id) do update
  set public = excluded.public, file_size_limit = excluded.file_size_limit, allowed_mime_types = excluded.allowed_mime_types;

-- Objects whose row is gone, removed from storage by the storage worker.
create table public.storage_deletions (
  id bigint primary key generated always as identity,
  bucket_id text not null,
  name text not null,
  queued_at timestamp with time zone not null default now()
);

-- No ad row may point at an image that is not in storage. An AFTER trigger, so
-- a malformed path is reported by its check constraint first.
create or replace function private.ads_require_objects() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_missing text;
begin
  select p.name into v_missing
    from (values ('ad-originals', new.original_path), ('ad-images', new.display_480_path),
                 ('ad-images', new.display_960_path), ('ad-images', new.preview_path)) as p (bucket_id, name)
   where not exists (select 1 from storage.objects o where o.bucket_id = p.bucket_id and o.name = p.name)
   limit 1;
  if v_missing is not null then
    raise exception 'Image % has not been uploaded', v_missing using errcode = 'P0001', detail = 'image_missing';
  end if;
  -- An object in use again must not be removed by the storage worker.
  delete from public.storage_deletions d
   where (d.bucket_id = 'ad-originals' and d.name = new.original_path)
      or (d.bucket_id = 'ad-images' and d.name in (new.display_480_path, new.display_960_path, new.preview_path));
  return null;
end;
$$;

-- Deleted ads, and the old objects of an ad whose image was replaced.
create or replace function private.ads_queue_object_deletion() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.storage_deletions (bucket_id, name)
  select p.bucket_id, p.name
    from (values ('ad-originals', old.original_path, new.original_path),
                 ('ad-images', old.display_480_path, new.display_480_path),
                 ('ad-images', old.display_960_path, new.display_960_path),
                 ('ad-images', old.preview_path, new.preview_path)) as p (bucket_id, name, replaced_by)
   where tg_op = 'DELETE' or p.name is distinct from p.replaced_by;
  return null;
end;
$$;

-- A brand's logo and a page's banner point at an uploaded object; a replaced
-- or removed one is queued for removal from storage unless another row still
-- uses it. AFTER triggers, so a malformed path is reported by its check first.
create or replace function private.require_object(p_bucket text, p_name text) returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if p_name is not null and not exists (select 1 from storage.objects o where o.bucket_id = p_bucket and o.name = p_name) then
    raise exception 'Image % has not been uploaded', p_name using errcode = 'P0001', detail = 'image_missing';
  end if;
end;
$$;

create or replace function private.brands_logo_objects() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op in ('INSERT', 'UPDATE') and new.logo_path is not null then
    perform private.require_object('brand-logos', new.logo_path);
    delete from public.storage_deletions where bucket_id = 'brand-logos' and name = new.logo_path;
  end if;
  if tg_op in ('UPDATE', 'DELETE') and old.logo_path is not null
     and (tg_op = 'DELETE' or old.logo_path is distinct from new.logo_path)
     and not exists (select 1 from public.brands b where b.logo_path = old.logo_path) then
    insert into public.storage_deletions (bucket_id, name) values ('brand-logos', old.logo_path);
  end if;
  return null;
end;
$$;

create or replace function private.page_banners_objects() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op in ('INSERT', 'UPDATE') then
    perform private.require_object('banners', new.image_path);
    delete from public.storage_deletions where bucket_id = 'banners' and name = new.image_path;
  end if;
  if tg_op in ('UPDATE', 'DELETE') and (tg_op = 'DELETE' or old.image_path is distinct from new.image_path)
     and not exists (select 1 from public.page_banners p where p.image_path = old.image_path) then
    insert into public.storage_deletions (bucket_id, name) values ('banners', old.image_path);
  end if;
  return null;
end;
$$;

-- An ad's stored files, for the admin's session to remove them at once when it deletes the ad.
create or replace function private.ad_object_paths(p_ad public.ads) returns jsonb
language sql immutable parallel safe
set search_path = ''
as $$
  select jsonb_build_object('original_path', p_ad.original_path, 'display_480_path', p_ad.display_480_path,
                            'display_960_path', p_ad.display_960_path, 'preview_path', p_ad.preview_path)
$$;
revoke all on function private.ad_object_paths(p_ad public.ads) from public;

-- No ad points at a video that is not stored; a video in use again leaves the removal queue. AFTER, so a malformed
-- path is reported by its check first.
create or replace function private.ads_require_video() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.video_path is not null then
    if not exists (select 1 from storage.objects o where o.bucket_id = 'ad-videos' and o.name = new.video_path) then
      raise exception 'Video % has not been uploaded', new.video_path using errcode = 'P0001', detail = 'video_missing';
    end if;
    delete from public.storage_deletions d where d.bucket_id = 'ad-videos' and d.name = new.video_path;
  end if;
  return null;
end;
$$;
revoke all on function private.ads_require_video() from public;

-- A deleted ad's video, and a replaced or removed one, are queued for removal from storage.
create or replace function private.ads_queue_video_deletion() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if old.video_path is not null and (tg_op = 'DELETE' or old.video_path is distinct from new.video_path) then
    insert into public.storage_deletions (bucket_id, name) values ('ad-videos', old.video_path);
  end if;
  return null;
end;
$$;
revoke all on function private.ads_queue_video_deletion() from public;

create index storage_deletions_object on public.storage_deletions (bucket_id, name);

create trigger ads_require_objects after insert or update of original_path, display_480_path, display_960_path, preview_path
  on public.ads for each row execute function private.ads_require_objects();

create trigger ads_queue_object_deletion after delete or update of original_path, display_480_path, display_960_path, preview_path
  on public.ads for each row execute function private.ads_queue_object_deletion();

create trigger brands_logo_objects after insert or update of logo_path or delete on public.brands
  for each row execute function private.brands_logo_objects();

create trigger page_banners_objects after insert or update of image_path or delete on public.page_banners
  for each row execute function private.page_banners_objects();

create trigger ads_require_video after insert or update of video_path on public.ads
  for each row execute function private.ads_require_video();

create trigger ads_queue_video_deletion after delete or update of video_path on public.ads
  for each row execute function private.ads_queue_video_deletion();

alter table public.storage_deletions enable row level security;
revoke all on table public.storage_deletions from anon, authenticated;

create policy "obyect: admins read the image buckets" on storage.objects for select to authenticated
  using (bucket_id in ('ad-originals', 'ad-images', 'brand-logos', 'banners') and (select public.is_admin()));

create policy "obyect: admins upload to the image buckets" on storage.objects for insert to authenticated
  with check (bucket_id in ('ad-originals', 'ad-images', 'brand-logos', 'banners') and (select public.is_admin()));

create policy "obyect: admins update in the image buckets" on storage.objects for update to authenticated
  using (bucket_id in ('ad-originals', 'ad-images', 'brand-logos', 'banners') and (select public.is_admin()))
  with check (bucket_id in ('ad-originals', 'ad-images', 'brand-logos', 'banners') and (select public.is_admin()));

create policy "obyect: admins delete from the image buckets" on storage.objects for delete to authenticated
  using (bucket_id in ('ad-originals', 'ad-images', 'brand-logos', 'banners') and (select public.is_admin()));

-- Only admins read, list, write and delete there; everyone else reaches a video through a signed link only.
create policy "obyect: admins read ad videos" on storage.objects for select to authenticated
  using (bucket_id = 'ad-videos' and (select public.is_admin()));

create policy "obyect: admins upload ad videos" on storage.objects for insert to authenticated
  with check (bucket_id = 'ad-videos' and (select public.is_admin()));

create policy "obyect: admins update ad videos" on storage.objects for update to authenticated
  using (bucket_id = 'ad-videos' and (select public.is_admin()))
  with check (bucket_id = 'ad-videos' and (select public.is_admin()));

create policy "obyect: admins delete ad videos" on storage.objects for delete to authenticated
  using (bucket_id = 'ad-videos' and (select public.is_admin()));

-- ==========================================================================================
-- supabase/schemas/90_jobs.sql
-- ==========================================================================================

-- Jobs: the daily Tag Ads run for the day before, scheduled with pg_cron where the database has it (hosted Supabase);
-- elsewhere the local stack runs the same function from its own timer.

-- Function bodies may name tables of later files: they are checked when called, not when created.
set check_function_bodies = false;

-- The daily job: yesterday's uploads (UTC) get the Black Friday tag where they lack it.
create or replace function private.tag_yesterdays_ads() returns integer
language sql
volatile
security definer
set search_path = ''
as $$
  select private.tag_ads_of_day((now() at time zone 'UTC')::date - 1)
$$;
revoke all on function private.tag_yesterdays_ads() from public;

-- Schedules the job with pg_cron when it can, and says what it did.
create or replace function private.schedule_daily_tagging() returns text
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  if not exists (select 1 from pg_catalog.pg_available_extensions where name = 'pg_cron') then
    return 'pg_cron is not available';
  end if;
  begin
    create extension if not exists pg_cron with schema pg_catalog;
  exception when others then
    -- Installed but not preloaded (shared_preload_libraries), or not permitted.
    return 'pg_cron could not be enabled: ' || sqlerrm;
  end;
  -- By name, so running this again replaces the job instead of adding a second one.
  execute 'select cron.schedule($1, $2, $3)'
    using 'obyect-tag-yesterdays-ads', '5 0 * * *', 'select private.tag_yesterdays_ads()';
  return 'scheduled';
end;
$$;
revoke all on function private.schedule_daily_tagging() from public;

select private.schedule_daily_tagging();
