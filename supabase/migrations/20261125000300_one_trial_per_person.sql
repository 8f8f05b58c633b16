-- The 7-day trial is given once: never to an account, a Stripe customer or a
-- card (Stripe's payment-method fingerprint) that had a trial or a
-- subscription. Who had one is kept here, apart from the subscriptions table,
-- so that the rule survives deleted subscription rows and new accounts. Written
-- only by the stripe-webhook function (service role); a user reads their own rows.

create table public.subscription_holders (
  -- 'account': holder is the user id; 'customer': the Stripe customer id; 'card': the card's fingerprint.
  kind text not null,
  holder text not null,
  -- The user whose subscription first used the holder; kept (as null) when the account is deleted.
  user_id uuid references auth.users (id) on delete set null,
  first_subscription_id text not null,
  first_seen_at timestamptz not null default now(),
  primary key (kind, holder),
  constraint subscription_holders_kind_known check (kind in ('account', 'customer', 'card')),
  constraint subscription_holders_holder_given check (holder <> '' and first_subscription_id <> '')
);
create index subscription_holders_user_id on public.subscription_holders (user_id);

alter table public.subscription_holders enable row level security;

revoke all on table public.subscription_holders from anon, authenticated;
grant select on table public.subscription_holders to authenticated;
grant all on table public.subscription_holders to service_role;

create policy "subscription_holders: a user reads their own" on public.subscription_holders for select to authenticated
  using (user_id = (select auth.uid()));

-- Accounts and customers that had a subscription before this rule existed.
insert into public.subscription_holders (kind, holder, user_id, first_subscription_id, first_seen_at)
select distinct on (h.kind, h.holder) h.kind, h.holder, h.user_id, h.stripe_subscription_id, h.created_at
  from public.subscriptions s
  cross join lateral (values
    ('account', s.user_id::text, s.user_id, s.stripe_subscription_id, s.created_at),
    ('customer', s.stripe_customer_id, s.user_id, s.stripe_subscription_id, s.created_at)
  ) as h (kind, holder, user_id, stripe_subscription_id, created_at)
 where s.status not in ('incomplete', 'incomplete_expired')
 order by h.kind, h.holder, h.created_at
on conflict do nothing;

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
revoke execute on function public.trial_available() from public, anon, authenticated;
grant execute on function public.trial_available() to authenticated, service_role;

-- Any user's eligibility, for create-checkout (service role), which decides whether to ask Stripe for trial days.
create function public.trial_available_for(p_user_id uuid, p_stripe_customer_id text) returns boolean
language sql stable
security definer
set search_path = ''
as $$
  select private.trial_available(p_user_id, p_stripe_customer_id)
$$;
revoke execute on function public.trial_available_for(uuid, text) from public, anon, authenticated;
grant execute on function public.trial_available_for(uuid, text) to service_role;

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
revoke execute on function public.record_subscription_holders(uuid, text, text, text) from public, anon, authenticated;
grant execute on function public.record_subscription_holders(uuid, text, text, text) to service_role;
