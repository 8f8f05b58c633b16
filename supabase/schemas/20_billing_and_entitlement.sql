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
