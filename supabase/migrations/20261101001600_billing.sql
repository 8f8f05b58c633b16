-- The billing functions' writes, each one statement so that it is atomic:
-- the stripe-webhook function records an event and applies the subscription
-- state it read from Stripe together, and the checkout links a user to their
-- Stripe customer once. Only the service role (the functions) may call them.

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
revoke execute on function public.apply_stripe_event(text, text, bigint, jsonb) from public, anon, authenticated;
grant execute on function public.apply_stripe_event(text, text, bigint, jsonb) to service_role;

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
revoke execute on function public.link_billing_customer(uuid, text) from public, anon, authenticated;
grant execute on function public.link_billing_customer(uuid, text) to service_role;
