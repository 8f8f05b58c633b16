-- One profile per auth user, created by trigger. Users read their own; the
-- name follows the sign-up and account metadata; black_friday_access is set by
-- admins only, through admin_set_black_friday_access.

create table public.profiles (
  user_id uuid primary key references auth.users (id) on delete cascade,
  full_name text,
  avatar_url text,
  black_friday_access boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create trigger profiles_touch before update on public.profiles
  for each row execute function private.touch_updated_at();

alter table public.profiles enable row level security;
revoke all on table public.profiles from anon, authenticated;
grant select on table public.profiles to authenticated;
grant all on table public.profiles to service_role;

create policy "profiles: a user reads their own" on public.profiles for select to authenticated
  using (user_id = (select auth.uid()));
create policy "profiles: admins read all" on public.profiles for select to authenticated
  using ((select public.is_admin()));

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

-- Users who signed up before this migration get their profile too.
insert into public.profiles (user_id, full_name, avatar_url)
select u.id, private.full_name_from_metadata(u.raw_user_meta_data), private.avatar_from_metadata(u.raw_user_meta_data)
  from auth.users u
on conflict (user_id) do nothing;

create trigger on_auth_user_created after insert on auth.users
  for each row execute function private.create_profile_for_new_user();
create trigger on_auth_user_metadata_updated after update of raw_user_meta_data on auth.users
  for each row when (old.raw_user_meta_data is distinct from new.raw_user_meta_data)
  execute function private.sync_profile_from_metadata();

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
revoke execute on function public.admin_set_black_friday_access(uuid, boolean) from public, anon, authenticated;
-- Admins only: the service role and the owner write profiles directly.
grant execute on function public.admin_set_black_friday_access(uuid, boolean) to authenticated;
