-- `npm run admin -- grant` refuses an account whose email is not confirmed: sign-up keeps the first registrant's
-- password, so an unconfirmed account with the future admin's address may be someone else's. As in
-- supabase/schemas/10_accounts.sql.

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
