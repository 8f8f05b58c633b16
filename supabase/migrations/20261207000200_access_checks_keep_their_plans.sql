-- The access checks keep their plans for the session.
--
-- public.has_valid_access, private.user_has_valid_access and private.user_has_subscription_access were SQL functions
-- with settings (security definer, search_path), which PostgreSQL never inlines and plans again in every statement
-- that calls them: each signed-in list, ad page and policy check planned all three, one inside the other. As plpgsql
-- functions each keeps its statement's plan for the session. The same checks as before, read in the same snapshot
-- (a stable plpgsql function sees the caller's); their owners and grants stay, as create or replace keeps them
-- (docs/decisions/0047).

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

create or replace function public.has_valid_access() returns boolean
language plpgsql stable
security definer
set search_path = ''
as $$
begin
  return private.user_has_valid_access((select auth.uid()));
end;
$$;
