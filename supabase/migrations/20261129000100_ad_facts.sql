-- The facts a marketer judges an ad by: where it ran, in what shape, for how
-- long, what it said, where it sent people, its hook, language and country.
-- All optional. The detail page (get_ad) returns them for clear and locked ads
-- alike: they are the teaser, the creative is the product. Cards and lists do
-- not carry them yet. See docs/decisions/0031.

-- Hooks (angles): a short curated list the admin manages, like categories.
create table public.hooks (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  created_at timestamptz not null default now(),
  constraint hooks_name_not_empty check (name <> ''),
  constraint hooks_name_length check (char_length(name) <= 80)
);
create unique index hooks_name_unique on public.hooks (lower(name));
create index hooks_name_trgm on public.hooks using gin (name extensions.gin_trgm_ops);

create trigger hooks_normalize_name before insert or update of name on public.hooks
  for each row execute function private.normalize_name();

alter table public.hooks enable row level security;

revoke all on table public.hooks from anon, authenticated;
grant select on table public.hooks to anon, authenticated;
grant insert (name), update (name), delete on table public.hooks to authenticated;

create policy "hooks: everyone reads" on public.hooks for select to anon, authenticated using (true);
create policy "hooks: admins insert" on public.hooks for insert to authenticated with check ((select public.is_admin()));
create policy "hooks: admins update" on public.hooks for update to authenticated using ((select public.is_admin())) with check ((select public.is_admin()));
create policy "hooks: admins delete" on public.hooks for delete to authenticated using ((select public.is_admin()));

-- The two helpers the checks call keep PUBLIC's execute right: a check runs
-- as whoever writes the row (an admin through rest/v1 included).

-- True when an array holds a value twice (nulls are refused separately).
create or replace function private.has_duplicates(p_values text[]) returns boolean
language sql immutable parallel safe
set search_path = ''
as $$
  select (select count(v) from unnest(p_values) v) <> (select count(distinct v) from unnest(p_values) v)
$$;

-- The last calendar day that has begun somewhere on Earth (UTC+14): a date
-- after it is in the future for everyone.
create or replace function private.latest_today() returns date
language sql stable parallel safe
set search_path = ''
as $$
  select ((now() at time zone 'UTC') + interval '14 hours')::date
$$;

alter table public.ads
  add column platforms text[],
  add column placement text,
  add column format text,
  add column first_seen date,
  add column last_seen date,
  add column still_running boolean not null default false,
  add column landing_url text,
  add column primary_text text,
  add column headline text,
  add column call_to_action text,
  add column offer text,
  add column hook_id uuid references public.hooks (id) on delete set null,
  add column language text,
  add column country text,
  add constraint ads_platforms_known check (
    platforms is null or (cardinality(platforms) >= 1 and array_position(platforms, null) is null
      and platforms <@ array['meta', 'instagram', 'tiktok', 'youtube', 'pinterest', 'snapchat', 'google']::text[])),
  add constraint ads_platforms_distinct check (platforms is null or not private.has_duplicates(platforms)),
  add constraint ads_placement_known check (placement is null or placement in ('feed', 'story', 'square', 'portrait', 'landscape')),
  add constraint ads_format_known check (format is null or format in ('single_image', 'carousel', 'video')),
  add constraint ads_seen_order check (first_seen is null or last_seen is null or first_seen <= last_seen),
  add constraint ads_last_seen_needs_first_seen check (last_seen is null or first_seen is not null),
  add constraint ads_still_running_needs_first_seen check (not still_running or first_seen is not null),
  add constraint ads_seen_not_in_future check (
    (first_seen is null or first_seen <= private.latest_today()) and (last_seen is null or last_seen <= private.latest_today())),
  add constraint ads_landing_url_format check (
    landing_url is null or (landing_url ~* '^https?://[a-z0-9]([a-z0-9.-]*[a-z0-9])?(:[0-9]{1,5})?([/?#][^[:space:][:cntrl:]]*)?$')),
  add constraint ads_landing_url_length check (landing_url is null or char_length(landing_url) <= 2048),
  add constraint ads_primary_text_length check (primary_text is null or (btrim(primary_text) <> '' and char_length(primary_text) <= 5000)),
  add constraint ads_headline_length check (headline is null or (btrim(headline) <> '' and char_length(headline) <= 300)),
  add constraint ads_call_to_action_known check (call_to_action is null or call_to_action in (
    'shop_now', 'learn_more', 'sign_up', 'get_offer', 'order_now', 'subscribe', 'download', 'book_now', 'contact_us', 'watch_more')),
  add constraint ads_offer_known check (offer is null or offer in ('discount', 'free_shipping', 'bundle', 'none')),
  add constraint ads_language_iso_639_1 check (language is null or language ~ '^[a-z]{2}$'),
  add constraint ads_country_iso_3166_1 check (country is null or country ~ '^[A-Z]{2}$');

-- A hook's deletion clears it from its ads through this index.
create index ads_hook on public.ads (hook_id);

-- Admins write the facts (RLS: "ads: admins insert/update"); they are read through get_ad.
grant insert (platforms, placement, format, first_seen, last_seen, still_running, landing_url, primary_text, headline,
              call_to_action, offer, hook_id, language, country),
      update (platforms, placement, format, first_seen, last_seen, still_running, landing_url, primary_text, headline,
              call_to_action, offer, hook_id, language, country)
  on table public.ads to authenticated;

-- An image's placement from its size when none is given: 9:16-like (at least
-- 1.6 times as tall as wide) a story, taller than 11:10 portrait, wider than
-- 11:10 landscape, square in between. 'feed' is only ever set explicitly.
create or replace function private.placement_for_size(p_width integer, p_height integer) returns text
language sql immutable parallel safe
set search_path = ''
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

-- Days an ad ran, both ends counted: from first_seen to last_seen, or to today
-- (UTC) while it is still running. Null when the dates do not say.
create or replace function private.running_days(p_first_seen date, p_last_seen date, p_still_running boolean) returns integer
language sql stable parallel safe
set search_path = ''
as $$
  select case
    when p_first_seen is null then null
    when p_still_running then greatest((now() at time zone 'UTC')::date, coalesce(p_last_seen, p_first_seen)) - p_first_seen + 1
    when p_last_seen is null then null
    else p_last_seen - p_first_seen + 1
  end
$$;
revoke execute on function private.running_days(date, date, boolean) from public;

-- The facts of one ad as the detail page shows them.
create or replace function private.ad_facts(p_ad public.ads) returns jsonb
language sql stable
security definer
set search_path = ''
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

-- One ad for its detail page, or null when there is no such ad: as before,
-- plus its facts (clear or locked: the image links alone follow the paywall).
create or replace function public.get_ad(p_id uuid) returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select private.ads_json(array[a.id], array[private.ad_is_clear_for(a, (select auth.uid()) is not null, public.has_valid_access())],
                          array[jsonb_build_object('facts', private.ad_facts(a))]) -> 0
    from public.ads a
   where a.id = p_id
$$;
revoke execute on function public.get_ad(uuid) from public, anon, authenticated;
grant execute on function public.get_ad(uuid) to anon, authenticated, service_role;

-- A fact's check constraint, as the admin reads it.
create or replace function private.ad_fact_error(p_constraint text) returns text
language sql immutable
set search_path = ''
as $$
  select case p_constraint
    when 'ads_platforms_known' then 'Platforms must be some of meta, instagram, tiktok, youtube, pinterest, snapchat, google'
    when 'ads_platforms_distinct' then 'A platform is listed twice'
    when 'ads_placement_known' then 'Placement must be feed, story, square, portrait or landscape'
    when 'ads_format_known' then 'Format must be single_image, carousel or video'
    when 'ads_seen_order' then 'First seen must not be after last seen'
    when 'ads_last_seen_needs_first_seen' then 'A last seen date needs a first seen date'
    when 'ads_still_running_needs_first_seen' then 'A running ad needs a first seen date'
    when 'ads_seen_not_in_future' then 'Seen dates cannot be in the future'
    when 'ads_landing_url_format' then 'The landing page must be an http or https address'
    when 'ads_landing_url_length' then 'The landing page address is longer than 2048 characters'
    when 'ads_primary_text_length' then 'The primary text must be 1 to 5000 characters'
    when 'ads_headline_length' then 'The headline must be 1 to 300 characters'
    when 'ads_call_to_action_known' then 'Unknown call to action'
    when 'ads_offer_known' then 'Offer must be discount, free_shipping, bundle or none'
    when 'ads_language_iso_639_1' then 'Language must be two lowercase letters (ISO 639-1)'
    when 'ads_country_iso_3166_1' then 'Country must be two uppercase letters (ISO 3166-1)'
    else 'The facts are not valid'
  end
$$;
revoke execute on function private.ad_fact_error(text) from public;

-- Bulk edit, now with facts: p_facts is an object whose keys are the facts to
-- change (a null value clears one, an absent key leaves it). Everything is
-- checked before anything is written, and a fact that breaks a rule fails the
-- whole call with detail 'invalid_facts' and the rule's sentence.
drop function public.admin_update_ads(uuid[], uuid, uuid, text, uuid, uuid[], uuid[]);
create or replace function public.admin_update_ads(
  p_ids uuid[],
  p_brand_id uuid default null,
  p_category_id uuid default null,
  p_type_mode text default 'no_change',
  p_type_id uuid default null,
  p_add_tag_ids uuid[] default '{}',
  p_remove_tag_ids uuid[] default '{}',
  p_facts jsonb default null
) returns table (id uuid, ok boolean, error text)
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_ids uuid[] := array(select u.x from unnest(coalesce(p_ids, '{}'::uuid[])) with ordinality u (x, n)
                         where u.x is not null group by u.x order by min(u.n));
  v_add uuid[] := array(select distinct x from unnest(coalesce(p_add_tag_ids, '{}'::uuid[])) x where x is not null);
  v_remove uuid[] := array(select distinct x from unnest(coalesce(p_remove_tag_ids, '{}'::uuid[])) x where x is not null);
  v_facts jsonb := coalesce(p_facts, '{}'::jsonb);
  v_text_facts constant text[] := array['placement', 'format', 'landing_url', 'primary_text', 'headline', 'call_to_action',
                                        'offer', 'language', 'country'];
  v_known constant text[] := array['platforms', 'placement', 'format', 'first_seen', 'last_seen', 'still_running', 'landing_url',
                                   'primary_text', 'headline', 'call_to_action', 'offer', 'hook_id', 'language', 'country'];
  v_key text;
  v_platforms text[];
  v_first_seen date;
  v_last_seen date;
  v_hook_id uuid;
  v_found uuid[];
  v_constraint text;
begin
  perform private.require_admin();
  if cardinality(v_ids) = 0 then
    raise exception 'No ads selected' using errcode = 'P0001', detail = 'no_ads_selected';
  end if;
  if cardinality(v_ids) > 1000 then
    raise exception 'Too many ads in one edit (1000 at most)' using errcode = 'P0001', detail = 'too_many_ads';
  end if;
  if p_type_mode is null or p_type_mode not in ('no_change', 'set', 'clear') then
    raise exception 'Unknown type mode %', p_type_mode using errcode = 'P0001', detail = 'unknown_type_mode';
  end if;
  if p_type_mode = 'set' and p_type_id is null then
    raise exception 'A type to set is required' using errcode = 'P0001', detail = 'type_required';
  end if;
  if p_brand_id is not null and not exists (select 1 from public.brands where brands.id = p_brand_id) then
    raise exception 'Brand not found' using errcode = 'PT404', detail = 'brand_not_found';
  end if;
  if p_category_id is not null and not exists (select 1 from public.categories where categories.id = p_category_id) then
    raise exception 'Category not found' using errcode = 'PT404', detail = 'category_not_found';
  end if;
  if p_type_mode = 'set' and not exists (select 1 from public.types where types.id = p_type_id) then
    raise exception 'Type not found' using errcode = 'PT404', detail = 'type_not_found';
  end if;
  if v_add && v_remove then
    raise exception 'A tag cannot be added and removed at once' using errcode = 'P0001', detail = 'tag_add_remove_overlap';
  end if;
  if (select count(*) from public.tags where tags.id = any (v_add || v_remove)) <> cardinality(v_add) + cardinality(v_remove) then
    raise exception 'Tag not found' using errcode = 'PT404', detail = 'tag_not_found';
  end if;

  -- The facts' shapes; their rules are the table's checks, reported below.
  if jsonb_typeof(v_facts) <> 'object' then
    raise exception 'The facts must be an object' using errcode = 'P0001', detail = 'invalid_facts';
  end if;
  for v_key in select jsonb_object_keys(v_facts) loop
    if not v_key = any (v_known) then
      raise exception 'Unknown fact "%"', v_key using errcode = 'P0001', detail = 'invalid_facts';
    end if;
    if v_key = any (v_text_facts) and jsonb_typeof(v_facts -> v_key) not in ('string', 'null') then
      raise exception 'The fact "%" must be text', v_key using errcode = 'P0001', detail = 'invalid_facts';
    end if;
  end loop;
  if v_facts ? 'platforms' and jsonb_typeof(v_facts -> 'platforms') <> 'null' then
    if jsonb_typeof(v_facts -> 'platforms') <> 'array'
       or exists (select 1 from jsonb_array_elements(v_facts -> 'platforms') e where jsonb_typeof(e) <> 'string') then
      raise exception 'Platforms must be a list of names' using errcode = 'P0001', detail = 'invalid_facts';
    end if;
    v_platforms := array(select jsonb_array_elements_text(v_facts -> 'platforms'));
  end if;
  if v_facts ? 'still_running' and jsonb_typeof(v_facts -> 'still_running') <> 'boolean' then
    raise exception 'Still running must be true or false' using errcode = 'P0001', detail = 'invalid_facts';
  end if;
  foreach v_key in array array['first_seen', 'last_seen'] loop
    if v_facts ? v_key and jsonb_typeof(v_facts -> v_key) <> 'null' then
      if jsonb_typeof(v_facts -> v_key) <> 'string' or (v_facts ->> v_key) !~ '^\d{4}-\d{2}-\d{2}$' then
        raise exception 'The fact "%" must be a date (YYYY-MM-DD)', v_key using errcode = 'P0001', detail = 'invalid_facts';
      end if;
      begin
        if v_key = 'first_seen' then v_first_seen := (v_facts ->> v_key)::date; else v_last_seen := (v_facts ->> v_key)::date; end if;
      exception when invalid_datetime_format or datetime_field_overflow then
        raise exception 'The fact "%" is not a real date', v_key using errcode = 'P0001', detail = 'invalid_facts';
      end;
    end if;
  end loop;
  if v_facts ? 'hook_id' and jsonb_typeof(v_facts -> 'hook_id') <> 'null' then
    if jsonb_typeof(v_facts -> 'hook_id') <> 'string'
       or (v_facts ->> 'hook_id') !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
      raise exception 'Hook not found' using errcode = 'PT404', detail = 'hook_not_found';
    end if;
    v_hook_id := (v_facts ->> 'hook_id')::uuid;
    if not exists (select 1 from public.hooks h where h.id = v_hook_id) then
      raise exception 'Hook not found' using errcode = 'PT404', detail = 'hook_not_found';
    end if;
  end if;

  -- Lock the ads in id order, so two bulk edits never deadlock.
  v_found := array(select a.id from public.ads a where a.id = any (v_ids) order by a.id for update);

  if p_brand_id is not null or p_category_id is not null or p_type_mode <> 'no_change' then
    update public.ads a
       set brand_id = coalesce(p_brand_id, a.brand_id),
           category_id = coalesce(p_category_id, a.category_id),
           type_id = case p_type_mode when 'set' then p_type_id when 'clear' then null else a.type_id end
     where a.id = any (v_found);
  end if;
  if v_facts <> '{}'::jsonb then
    begin
      update public.ads a
         set platforms = case when v_facts ? 'platforms' then v_platforms else a.platforms end,
             placement = case when v_facts ? 'placement' then v_facts ->> 'placement' else a.placement end,
             format = case when v_facts ? 'format' then v_facts ->> 'format' else a.format end,
             first_seen = case when v_facts ? 'first_seen' then v_first_seen else a.first_seen end,
             last_seen = case when v_facts ? 'last_seen' then v_last_seen else a.last_seen end,
             still_running = case when v_facts ? 'still_running' then (v_facts ->> 'still_running')::boolean else a.still_running end,
             landing_url = case when v_facts ? 'landing_url' then v_facts ->> 'landing_url' else a.landing_url end,
             primary_text = case when v_facts ? 'primary_text' then v_facts ->> 'primary_text' else a.primary_text end,
             headline = case when v_facts ? 'headline' then v_facts ->> 'headline' else a.headline end,
             call_to_action = case when v_facts ? 'call_to_action' then v_facts ->> 'call_to_action' else a.call_to_action end,
             offer = case when v_facts ? 'offer' then v_facts ->> 'offer' else a.offer end,
             hook_id = case when v_facts ? 'hook_id' then v_hook_id else a.hook_id end,
             language = case when v_facts ? 'language' then v_facts ->> 'language' else a.language end,
             country = case when v_facts ? 'country' then v_facts ->> 'country' else a.country end
       where a.id = any (v_found);
    exception when check_violation then
      get stacked diagnostics v_constraint = constraint_name;
      raise exception '%', private.ad_fact_error(v_constraint) using errcode = 'P0001', detail = 'invalid_facts', hint = v_constraint;
    end;
  end if;
  insert into public.ad_tags (ad_id, tag_id)
  select f, g from unnest(v_found) f cross join unnest(v_add) g
  on conflict do nothing;
  delete from public.ad_tags h where h.ad_id = any (v_found) and h.tag_id = any (v_remove);

  return query
    select u.x, u.x = any (v_found), case when u.x = any (v_found) then null else 'not_found' end
      from unnest(v_ids) with ordinality u (x, n) order by u.n;
end;
$$;
revoke execute on function public.admin_update_ads(uuid[], uuid, uuid, text, uuid, uuid[], uuid[], jsonb) from public, anon, authenticated, service_role;
grant execute on function public.admin_update_ads(uuid[], uuid, uuid, text, uuid, uuid[], uuid[], jsonb) to authenticated;
