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
  v_confirmed boolean;
begin
  if nullif(btrim(p_email), '') is null then
    raise exception 'An email is required' using errcode = '22023', detail = 'email_required';
  end if;
  -- A missing flag must not silently revoke.
  if p_grant is null then
    raise exception 'Say whether to grant or revoke admin' using errcode = '22023', detail = 'grant_required';
  end if;
  select id, email_confirmed_at is not null into v_user_id, v_confirmed from auth.users where lower(email) = lower(btrim(p_email));
  if v_user_id is null then
    raise exception 'No user with email %', p_email using errcode = 'PT404', detail = 'user_not_found';
  end if;
  -- Sign-up keeps the first registrant's password, as GoTrue does: until the address is confirmed, the account may
  -- belong to someone who signed up with it before its owner.
  if p_grant and not v_confirmed then
    raise exception 'The account % has not confirmed its email address, so it may not be its owner''s: confirm it with the link of the confirmation email, then grant again', p_email
      using errcode = '22023', detail = 'email_not_confirmed';
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
