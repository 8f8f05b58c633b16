-- Which callers may share one answer of a listing function. list_ads (the only function listed in
-- private.anonymous_answer_versions) depends on its caller only through private.ad_is_clear_for's two facts:
-- whether the caller is signed in, and whether they have valid access. So every caller of one class gets the
-- same answer to the same call, and the local stack's rest/v1 keeps answers per class (docs/decisions/0028):
--   'anon'    not signed in
--   'member'  signed in, without valid access (a free account, a lapsed subscriber)
--   'access'  signed in with valid access (a subscriber, a trial, an admin)
-- Valid access has one definition: has_valid_access() now reads it from here for the caller.

create or replace function private.user_has_valid_access(p_user_id uuid) returns boolean
language sql stable
security definer
set search_path = ''
as $$
  select p_user_id is not null
    and (exists (select 1 from public.admin_users a where a.user_id = p_user_id)
         or private.user_has_subscription_access(p_user_id))
$$;
revoke execute on function private.user_has_valid_access(uuid) from public;

create or replace function public.has_valid_access() returns boolean
language sql stable
security definer
set search_path = ''
as $$
  select private.user_has_valid_access((select auth.uid()))
$$;
revoke execute on function public.has_valid_access() from public, anon, authenticated;
grant execute on function public.has_valid_access() to anon, authenticated, service_role;

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
revoke execute on function private.answer_class_of(uuid) from public;
