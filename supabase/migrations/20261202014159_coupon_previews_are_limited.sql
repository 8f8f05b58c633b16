-- preview-coupon is limited per user and per client address (10 and 30 in 10 minutes): unbounded, anyone could
-- guess codes, each guess a Stripe call. As in supabase/schemas/20_billing_and_entitlement.sql.

-- Coupon previews (the preview-coupon function), counted per user and per client address: each is a Stripe call in
-- production, and unbounded they let anyone guess codes (25 guesses in 0.4 s found one). Rows older than the window
-- are removed as new ones come.
create table private.coupon_previews (
  id bigint generated always as identity primary key,
  user_id uuid not null,
  address text not null,
  at timestamp with time zone not null default now(),
  constraint coupon_previews_address_length check (char_length(address) between 1 and 100)
);
create index coupon_previews_user_at on private.coupon_previews (user_id, at);
create index coupon_previews_address_at on private.coupon_previews (address, at);
alter table private.coupon_previews enable row level security;
revoke all on table private.coupon_previews from public, anon, authenticated;

-- One coupon preview for the user from the address: counted and answered null while the user has had fewer than 10
-- and the address fewer than 30 in the last 10 minutes; else the seconds until the oldest of them leaves the window.
-- Serialised per user and per address, so parallel guesses cannot all pass the count.
create or replace function public.take_coupon_preview(p_user_id uuid, p_address text) returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_window constant interval := interval '10 minutes';
  v_address text := left(coalesce(nullif(btrim(p_address), ''), 'unknown'), 100);
  v_oldest timestamptz;
begin
  if p_user_id is null then
    raise exception 'A user is required' using errcode = '22023', detail = 'user_required';
  end if;
  perform pg_advisory_xact_lock(hashtextextended('coupon_previews:user:' || p_user_id::text, 0));
  perform pg_advisory_xact_lock(hashtextextended('coupon_previews:address:' || v_address, 0));
  delete from private.coupon_previews where at < now() - v_window;
  select min(c.at) into v_oldest
    from (select p.at from private.coupon_previews p where p.user_id = p_user_id order by p.at desc limit 10) c
   having count(*) >= 10;
  if v_oldest is null then
    select min(c.at) into v_oldest
      from (select p.at from private.coupon_previews p where p.address = v_address order by p.at desc limit 30) c
     having count(*) >= 30;
  end if;
  if v_oldest is not null then
    return greatest(1, ceil(extract(epoch from (v_oldest + v_window - now())))::int);
  end if;
  insert into private.coupon_previews (user_id, address) values (p_user_id, v_address);
  return null;
end;
$$;
revoke all on function public.take_coupon_preview(p_user_id uuid, p_address text) from public, anon, authenticated;
