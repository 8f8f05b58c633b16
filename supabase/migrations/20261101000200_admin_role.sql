-- Admin is a server-side role: a row here, written only by the database owner
-- (a command or a migration), never by an API role.
create table public.admin_users (
  user_id uuid primary key references auth.users (id) on delete cascade,
  granted_at timestamptz not null default now()
);
alter table public.admin_users enable row level security;
revoke all on table public.admin_users from anon, authenticated, service_role;
grant select on table public.admin_users to authenticated, service_role;

create policy "admin_users: a user sees their own grant"
  on public.admin_users for select to authenticated
  using (user_id = (select auth.uid()));

create or replace function public.is_admin() returns boolean
language sql stable
security definer
set search_path = ''
as $$
  select exists (select 1 from public.admin_users where user_id = (select auth.uid()))
$$;
revoke execute on function public.is_admin() from public, anon, authenticated;
grant execute on function public.is_admin() to anon, authenticated, service_role;

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
