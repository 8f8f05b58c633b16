-- The ad page's functions keep their plans. get_ad was one SQL function with settings, and so was each helper it
-- called for the facts (ad_facts, placement_for_size, running_days): PostgreSQL plans such a function again on
-- every call, and the planning cost more than the reading. Measured on PostgreSQL with 100,000 ads (200 calls of
-- get_ad over different ads as a subscriber, pg_stat_user_functions): 1.90 ms a call, of which ad_facts 0.50 ms and
-- has_valid_access, called twice, 0.38 ms.
--
-- The facts' helpers become plain SQL expressions without settings, which the planner inlines into the query that
-- calls them (they read no table but hooks, which everyone may read; every caller is a security-definer function
-- with its own empty search_path). get_ad becomes plpgsql, whose statements keep their plans for the session, and
-- reads the caller's access once. get_ad_neighbours walks its board's side with two fixed statements instead of
-- one built and planned per call. What each function answers is unchanged.

create or replace function private.placement_for_size(p_width integer, p_height integer) returns text
language sql immutable parallel safe
as $$
  select case
    when p_width is null or p_height is null or p_width <= 0 or p_height <= 0 then null
    when 10 * p_height::bigint >= 16 * p_width::bigint then 'story'
    when 10 * p_height::bigint > 11 * p_width::bigint then 'portrait'
    when 10 * p_width::bigint > 11 * p_height::bigint then 'landscape'
    else 'square'
  end
$$;
revoke execute on function private.placement_for_size(integer, integer) from public;

create or replace function private.running_days(p_first_seen date, p_last_seen date, p_still_running boolean) returns integer
language sql stable parallel safe
as $$
  select case
    when p_first_seen is null then null
    when p_still_running then greatest((now() at time zone 'UTC')::date, coalesce(p_last_seen, p_first_seen)) - p_first_seen + 1
    when p_last_seen is null then null
    else p_last_seen - p_first_seen + 1
  end
$$;
revoke execute on function private.running_days(date, date, boolean) from public;

create or replace function private.ad_facts(p_ad public.ads) returns jsonb
language sql stable
as $$
  select jsonb_build_object(
    'platforms', to_jsonb(p_ad.platforms),
    'placement', coalesce(p_ad.placement, private.placement_for_size(p_ad.width, p_ad.height)),
    'placement_derived', p_ad.placement is null,
    'format', p_ad.format,
    'first_seen', p_ad.first_seen,
    'last_seen', p_ad.last_seen,
    'still_running', p_ad.still_running,
    'running_days', private.running_days(p_ad.first_seen, p_ad.last_seen, p_ad.still_running),
    'landing_url', p_ad.landing_url,
    'primary_text', p_ad.primary_text,
    'headline', p_ad.headline,
    'call_to_action', p_ad.call_to_action,
    'offer', p_ad.offer,
    'hook_id', p_ad.hook_id,
    'hook_name', (select h.name from public.hooks h where h.id = p_ad.hook_id),
    'language', p_ad.language,
    'country', p_ad.country)
$$;
revoke execute on function private.ad_facts(public.ads) from public;

-- One ad for its detail page, or null when there is no such ad; the words in its image only for a caller who sees
-- it clear (they are part of the creative).
create or replace function public.get_ad(p_id uuid) returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_ad public.ads;
  v_clear boolean;
begin
  select * into v_ad from public.ads where id = p_id;
  if not found then
    return null;
  end if;
  v_clear := private.ad_is_clear_for(v_ad, (select auth.uid()) is not null, public.has_valid_access());
  return private.ads_json(array[v_ad.id], array[v_clear],
           array[jsonb_build_object('facts', private.ad_facts(v_ad)
                   || jsonb_build_object('image_text', case when v_clear then v_ad.image_text end))]) -> 0;
end;
$$;
revoke execute on function public.get_ad(uuid) from public, anon, authenticated;
grant execute on function public.get_ad(uuid) to anon, authenticated, service_role;

-- The ads before and after one ad on its board (library or Black Friday), newest first, wrapping around at the
-- ends; subscribers only.
create or replace function public.get_ad_neighbours(p_id uuid) returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_ad public.ads;
  v_previous uuid;
  v_next uuid;
begin
  if not public.has_valid_access() then
    raise exception 'An active subscription is required' using errcode = '42501', detail = 'subscription_required';
  end if;
  select * into v_ad from public.ads where id = p_id;
  if v_ad.id is null then
    raise exception 'Ad not found' using errcode = 'PT404', detail = 'ad_not_found';
  end if;
  -- Each side as its own statement, so each lookup walks that side's ordered partial index.
  if v_ad.is_black_friday then
    select coalesce(
             (select a.id from public.ads a where a.is_black_friday and (a.created_at, a.id) > (v_ad.created_at, v_ad.id)
               order by a.created_at, a.id limit 1),
             (select a.id from public.ads a where a.is_black_friday order by a.created_at, a.id limit 1)),
           coalesce(
             (select a.id from public.ads a where a.is_black_friday and (a.created_at, a.id) < (v_ad.created_at, v_ad.id)
               order by a.created_at desc, a.id desc limit 1),
             (select a.id from public.ads a where a.is_black_friday order by a.created_at desc, a.id desc limit 1))
      into v_previous, v_next;
  else
    select coalesce(
             (select a.id from public.ads a where not a.is_black_friday and (a.created_at, a.id) > (v_ad.created_at, v_ad.id)
               order by a.created_at, a.id limit 1),
             (select a.id from public.ads a where not a.is_black_friday order by a.created_at, a.id limit 1)),
           coalesce(
             (select a.id from public.ads a where not a.is_black_friday and (a.created_at, a.id) < (v_ad.created_at, v_ad.id)
               order by a.created_at desc, a.id desc limit 1),
             (select a.id from public.ads a where not a.is_black_friday order by a.created_at desc, a.id desc limit 1))
      into v_previous, v_next;
  end if;
  return jsonb_build_object('previous_id', v_previous, 'next_id', v_next);
end;
$$;
revoke execute on function public.get_ad_neighbours(uuid) from public, anon, authenticated, service_role;
grant execute on function public.get_ad_neighbours(uuid) to anon, authenticated;
