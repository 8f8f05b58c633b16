-- Billing state mirrored from Stripe. Written only by the stripe-webhook and
-- billing functions (service role, which bypasses row-level security); a user
-- may read their own rows and nothing else.

create table public.billing_customers (
  user_id uuid primary key references auth.users (id) on delete cascade,
  stripe_customer_id text not null unique,
  created_at timestamptz not null default now()
);

create table public.subscriptions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  stripe_customer_id text not null,
  stripe_subscription_id text not null unique,
  status text not null,
  tier text not null,
  price_id text not null,
  current_period_end timestamptz,
  cancel_at_period_end boolean not null default false,
  trial_end timestamptz,
  -- Stripe's event.created of the last applied event: an older event never overwrites a newer one.
  stripe_event_created bigint not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint subscriptions_status_known check (status in (
    'trialing', 'active', 'past_due', 'canceled', 'unpaid', 'incomplete', 'incomplete_expired', 'paused')),
  constraint subscriptions_tier_known check (tier in ('monthly', 'annual'))
);
create index subscriptions_user_id on public.subscriptions (user_id);
create trigger subscriptions_touch before update on public.subscriptions
  for each row execute function private.touch_updated_at();

create table public.processed_webhook_events (
  event_id text primary key,
  type text not null,
  processed_at timestamptz not null default now()
);

alter table public.billing_customers enable row level security;
alter table public.subscriptions enable row level security;
alter table public.processed_webhook_events enable row level security;

revoke all on table public.billing_customers, public.subscriptions, public.processed_webhook_events from anon, authenticated;
grant select on table public.subscriptions to authenticated;
grant all on table public.billing_customers, public.subscriptions, public.processed_webhook_events to service_role;

create policy "subscriptions: a user reads their own" on public.subscriptions for select to authenticated
  using (user_id = (select auth.uid()));

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
language sql stable
set search_path = ''
as $$
  select exists (
    select 1 from public.subscriptions s
    where s.user_id = p_user_id
      and private.subscription_grants_access(s.status, s.current_period_end, s.cancel_at_period_end, s.trial_end, now())
  )
$$;

-- Valid access: a subscriber, a trial, a subscription cancelled but still in
-- its period, or an admin.
create or replace function public.has_valid_access() returns boolean
language sql stable
security definer
set search_path = ''
as $$
  select (select auth.uid()) is not null
    and ((select public.is_admin()) or private.user_has_subscription_access((select auth.uid())))
$$;
revoke execute on function public.has_valid_access() from public, anon, authenticated;
grant execute on function public.has_valid_access() to anon, authenticated, service_role;
