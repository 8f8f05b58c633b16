-- The admin's tools: the ads table with its filters, bulk edits and deletes, the facts CSV export and import,
-- the Tag Ads utility, and the worklists and batched writes of image text and fingerprints. Each function starts
-- with private.require_admin().

-- Function bodies may name tables of later files: they are checked when called, not when created.
set check_function_bodies = false;

create or replace function public.admin_set_black_friday_access(p_user_id uuid, p_access boolean) returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not (select public.is_admin()) then
    raise exception 'This operation requires admin privileges.' using errcode = '42501', detail = 'admin_required';
  end if;
  update public.profiles set black_friday_access = p_access where user_id = p_user_id;
  if not found then
    raise exception 'Profile not found' using errcode = 'PT404', detail = 'profile_not_found';
  end if;
end;
$$;
revoke all on function public.admin_set_black_friday_access(p_user_id uuid, p_access boolean) from public, anon;

-- One page of the admin table (offset pagination, 50 a page by default) with
-- the total number of matching ads on every row. The date bounds are whole UTC
-- days, both included; a timestamp passed for them counts as its UTC day.
create or replace function public.get_ads_admin(
  p_limit integer default 50,
  p_offset integer default 0,
  p_search text default null,
  p_brand uuid default null,
  p_category uuid default null,
  p_type uuid default null,
  p_tag_ids uuid[] default null,
  p_date_from date default null,
  p_date_to date default null,
  p_sort text default 'newest'
) returns table (
  id uuid,
  brand_id uuid,
  brand_name text,
  brand_logo_path text,
  category_id uuid,
  category_name text,
  type_id uuid,
  type_name text,
  tag_ids uuid[],
  tag_names text[],
  created_at timestamptz,
  requires_subscription boolean,
  is_black_friday boolean,
  is_top_picks boolean,
  width integer,
  height integer,
  thumbhash text,
  preview_path text,
  display_480_path text,
  display_960_path text,
  original_path text,
  total_count bigint
)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_search text := nullif(btrim(coalesce(p_search, '')), '');
  v_tags uuid[] := (select array_agg(distinct t) from unnest(coalesce(p_tag_ids, '{}'::uuid[])) t where t is not null);
  v_pattern text;
  v_conditions text := 'true';
  v_filters text;
  v_order text;
  v_total bigint;
begin
  perform private.require_admin();
  if p_limit is null or p_limit < 1 or p_limit > 100 then
    raise exception 'Limit must be between 1 and 100' using errcode = 'P0001', detail = 'invalid_limit';
  end if;
  if p_offset is null or p_offset < 0 then
    raise exception 'Offset must not be negative' using errcode = 'P0001', detail = 'invalid_offset';
  end if;
  if p_sort is null or p_sort not in ('newest', 'oldest', 'brand_asc', 'brand_desc') then
    raise exception 'Unknown sort %', p_sort using errcode = 'P0001', detail = 'unknown_sort';
  end if;
  if p_date_from > p_date_to then
    raise exception 'The start date is after the end date' using errcode = 'P0001', detail = 'invalid_date_range';
  end if;
  if char_length(v_search) > 100 then
    raise exception 'Search text is too long (100 characters at most)' using errcode = 'P0001', detail = 'search_too_long';
  end if;

  if v_search is not null then
    v_pattern := '%' || replace(replace(replace(v_search, '\', '\\'), '%', '\%'), '_', '\_') || '%';
    v_conditions := v_conditions || ' and (a.brand_id = any (array(select x.id from public.brands x where x.name ilike $1))'
      || ' or a.category_id = any (array(select x.id from public.categories x where x.name ilike $1))'
      || ' or exists (select 1 from public.ad_tags h join public.tags x on x.id = h.tag_id'
      || ' where h.ad_id = a.id and x.name ilike $1))';
  end if;
  v_filters := 'true'
    || case when p_brand is not null then ' and a.brand_id = $2' else '' end
    || case when p_category is not null then ' and a.category_id = $3' else '' end
    || case when p_type is not null then ' and a.type_id = $4' else '' end
    || case when v_tags is not null then
         ' and not exists (select 1 from unnest($5::uuid[]) w(id) where not exists '
         || '(select 1 from public.ad_tags h where h.ad_id = a.id and h.tag_id = w.id))' else '' end
    || case when p_date_from is not null then ' and a.created_at >= ($6::date::timestamp at time zone ''UTC'')' else '' end
    || case when p_date_to is not null then ' and a.created_at < (($7::date + 1)::timestamp at time zone ''UTC'')' else '' end;
  v_conditions := v_conditions || ' and ' || v_filters;

  if v_search is null and v_filters = 'true' then
    select total into v_total from private.ad_counts;
  elsif v_search is not null then
    -- Count the matches from index ranges (brand, category, tag), not by testing every ad.
    execute 'select count(*) from ('
      || 'select a.id from public.ads a where a.brand_id = any (array(select id from public.brands where name ilike $1)) and ' || v_filters
      || ' union select a.id from public.ads a where a.category_id = any (array(select id from public.categories where name ilike $1)) and ' || v_filters
      || ' union select a.id from public.ad_tags t join public.ads a on a.id = t.ad_id'
      || ' where t.tag_id = any (array(select id from public.tags where name ilike $1)) and ' || v_filters
      || ') u' into v_total
      using v_pattern, p_brand, p_category, p_type, v_tags, p_date_from, p_date_to;
  else
    execute 'select count(*) from public.ads a where ' || v_conditions into v_total
      using v_pattern, p_brand, p_category, p_type, v_tags, p_date_from, p_date_to;
  end if;

  v_order := case p_sort
    when 'newest' then 'a.created_at desc, a.id desc'
    when 'oldest' then 'a.created_at asc, a.id asc'
    when 'brand_asc' then 'lower(b.name) asc, b.name asc, a.created_at desc, a.id desc'
    else 'lower(b.name) desc, b.name desc, a.created_at desc, a.id desc' end;

  return query execute
    'select a.id, a.brand_id, b.name, b.logo_path, a.category_id, c.name, a.type_id, ty.name,'
    || ' array(select h.tag_id from public.ad_tags h join public.tags g on g.id = h.tag_id where h.ad_id = a.id order by g.name),'
    || ' array(select g.name from public.ad_tags h join public.tags g on g.id = h.tag_id where h.ad_id = a.id order by g.name),'
    || ' a.created_at, a.requires_subscription, a.is_black_friday, a.is_top_picks, a.width, a.height, a.thumbhash,'
    || ' a.preview_path, a.display_480_path, a.display_960_path, a.original_path, $10::bigint'
    || case when p_sort in ('brand_asc', 'brand_desc') then
         -- No brand gives a page more than limit + offset rows: take at most that many per brand, newest first.
         ' from public.brands b cross join lateral (select a.* from public.ads a where a.brand_id = b.id and ' || v_conditions
         || ' order by a.created_at desc, a.id desc limit $8 + $9) a join public.categories c on c.id = a.category_id'
         || ' left join public.types ty on ty.id = a.type_id'
       else
         ' from public.ads a join public.brands b on b.id = a.brand_id join public.categories c on c.id = a.category_id'
         || ' left join public.types ty on ty.id = a.type_id'
         || ' where ' || v_conditions
       end
    || ' order by ' || v_order || ' limit $8 offset $9'
    using v_pattern, p_brand, p_category, p_type, v_tags, p_date_from, p_date_to, p_limit, p_offset, v_total;
end;
$$;
revoke all on function public.get_ads_admin(p_limit integer, p_offset integer, p_search text, p_brand uuid, p_category uuid, p_type uuid, p_tag_ids uuid[], p_date_from date, p_date_to date, p_sort text) from public, anon, service_role;

-- Bulk delete in one transaction; each id gets its result, in the order given. The ads' images are
-- queued for removal from storage (storage_deletions) by the delete trigger.
create or replace function public.admin_delete_ads(p_ids uuid[])
returns table (id uuid, ok boolean, error text)
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_ids uuid[] := array(select u.x from unnest(coalesce(p_ids, '{}'::uuid[])) with ordinality u (x, n)
                         where u.x is not null group by u.x order by min(u.n));
  v_deleted uuid[];
begin
  perform private.require_admin();
  if cardinality(v_ids) = 0 then
    raise exception 'No ads selected' using errcode = 'P0001', detail = 'no_ads_selected';
  end if;
  if cardinality(v_ids) > 1000 then
    raise exception 'Too many ads in one delete (1000 at most)' using errcode = 'P0001', detail = 'too_many_ads';
  end if;
  -- Lock the ads in id order, so two bulk deletes never deadlock.
  perform 1 from public.ads a where a.id = any (v_ids) order by a.id for update;
  with gone as (delete from public.ads a where a.id = any (v_ids) returning a.id)
  select coalesce(array_agg(gone.id), '{}') into v_deleted from gone;
  return query
    select u.x, u.x = any (v_deleted), case when u.x = any (v_deleted) then null else 'not_found' end
      from unnest(v_ids) with ordinality u (x, n) order by u.n;
end;
$$;
revoke all on function public.admin_delete_ads(p_ids uuid[]) from public, anon, service_role;

-- Gives the ads uploaded on one UTC day the Black Friday tag where they lack it.
create or replace function private.tag_ads_of_day(p_day date) returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_tag uuid := (select id from public.tags where system_key = 'black_friday');
  v_count integer;
begin
  insert into public.ad_tags (ad_id, tag_id)
  select a.id, v_tag from public.ads a
   where a.created_at >= (p_day::timestamp at time zone 'UTC')
     and a.created_at < ((p_day + 1)::timestamp at time zone 'UTC')
  on conflict do nothing;
  get diagnostics v_count = row_count;
  return v_count;
end;
$$;

-- The 'Tag Ads' utility (admins) and the daily job (service role). The day
-- defaults to yesterday in UTC.
create or replace function public.tag_ads_of_day(p_day date default null) returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_day date := coalesce(p_day, ((now() at time zone 'UTC')::date - 1));
  v_count integer;
begin
  if coalesce(auth.role(), '') <> 'service_role' then
    perform private.require_admin();
  end if;
  v_count := private.tag_ads_of_day(v_day);
  return jsonb_build_object('tagged', v_count, 'day', v_day,
    'message', format('Tagged %s ad(s) uploaded on %s with Black Friday.', v_count, to_char(v_day, 'YYYY-MM-DD')));
end;
$$;
revoke all on function public.tag_ads_of_day(p_day date) from public, anon;

-- For the admin table: whether each ad is in the free sample, and links to its display variants.
create or replace function public.admin_ad_images(p_ids uuid[]) returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_key bytea := private.image_link_key();
  v_iat bigint := private.image_link_window_start(now());
begin
  perform private.require_admin();
  if cardinality(p_ids) > 200 then
    raise exception 'Too many ads (200 at most)' using errcode = 'P0001', detail = 'too_many_ads';
  end if;
  return (select coalesce(jsonb_agg(jsonb_build_object(
      'id', a.id,
      'free_sample', a.free_sample,
      'display_480_url', private.signed_object_url('ad-images', a.display_480_path, v_iat, v_iat + 86400, v_key),
      'display_960_url', private.signed_object_url('ad-images', a.display_960_path, v_iat, v_iat + 86400, v_key))
      order by a.id), '[]'::jsonb)
    from public.ads a where a.id = any (p_ids));
end;
$$;
revoke all on function public.admin_ad_images(p_ids uuid[]) from public, anon;

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
revoke all on function public.admin_update_ads(p_ids uuid[], p_brand_id uuid, p_category_id uuid, p_type_mode text, p_type_id uuid, p_add_tag_ids uuid[], p_remove_tag_ids uuid[], p_facts jsonb) from public, anon, service_role;

-- Stores the text read from several ads' images in one call: p_texts is a JSON array of {"id": uuid, "text": string},
-- 100 at most. All or nothing: an unknown ad or a refused text fails the call and changes no row. Returns how many
-- ads were written.
create function public.admin_set_image_texts(p_texts jsonb) returns int
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_count int;
  v_written int;
begin
  perform private.require_admin();
  if p_texts is null or jsonb_typeof(p_texts) <> 'array' then
    raise exception 'A list of image texts is required' using errcode = 'P0001', detail = 'invalid_image_texts';
  end if;
  v_count := jsonb_array_length(p_texts);
  if v_count = 0 then
    return 0;
  end if;
  if v_count > 100 then
    raise exception 'Too many image texts in one call (100 at most)' using errcode = 'P0001', detail = 'too_many_image_texts';
  end if;
  if exists (
    select 1 from jsonb_array_elements(p_texts) e
     where jsonb_typeof(e) <> 'object'
        or jsonb_typeof(e -> 'id') is distinct from 'string'
        or jsonb_typeof(e -> 'text') is distinct from 'string'
        or (e ->> 'id') !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
        or char_length(e ->> 'text') > 5000
  ) then
    raise exception 'Each image text needs an ad id and a text of at most 5000 characters'
      using errcode = 'P0001', detail = 'invalid_image_texts';
  end if;
  if (select count(distinct (e ->> 'id')::uuid) from jsonb_array_elements(p_texts) e) <> v_count then
    raise exception 'An ad appears twice in one call' using errcode = 'P0001', detail = 'invalid_image_texts';
  end if;

  update public.ads a
     set image_text = btrim(e ->> 'text')
    from jsonb_array_elements(p_texts) e
   where a.id = (e ->> 'id')::uuid;
  get diagnostics v_written = row_count;
  if v_written <> v_count then
    raise exception 'Ad not found' using errcode = 'PT404', detail = 'not_found';
  end if;
  return v_written;
end;
$$;
revoke all on function public.admin_set_image_texts(p_texts jsonb) from public, anon;

-- The facts of up to 1000 ads, with each hook's name: the table's page, an
-- export and an import's preview ask it for the ads they hold. Ids that name
-- no ad are left out.
create or replace function public.admin_ad_facts(p_ids uuid[])
returns table (
  id uuid,
  platforms text[],
  placement text,
  format text,
  first_seen date,
  last_seen date,
  still_running boolean,
  landing_url text,
  primary_text text,
  headline text,
  call_to_action text,
  offer text,
  hook_id uuid,
  hook_name text,
  language text,
  country text
)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.require_admin();
  if cardinality(coalesce(p_ids, '{}'::uuid[])) > 1000 then
    raise exception 'Too many ads at once (1000 at most)' using errcode = 'P0001', detail = 'too_many_ads';
  end if;
  return query
    select a.id, a.platforms, a.placement, a.format, a.first_seen, a.last_seen, a.still_running, a.landing_url,
           a.primary_text, a.headline, a.call_to_action, a.offer, a.hook_id, h.name, a.language, a.country
      from public.ads a left join public.hooks h on h.id = a.hook_id
     where a.id = any (p_ids)
     order by a.id;
end;
$$;
revoke all on function public.admin_ad_facts(p_ids uuid[]) from public, anon, service_role;

-- An import of 1000 valid rows written one ad at a time (a statement and a
-- savepoint each) took seconds; as one statement it takes a fraction of that.
-- admin_import_ad_facts writes every row in one update when every row is
-- well formed, names existing ads once each, and passes the table's checks.
-- Only when that fails does it go through the rows one by one, to name each
-- refused row, and then writes nothing (docs/decisions/0033).
create or replace function public.admin_import_ad_facts(p_rows jsonb)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_row jsonb;
  v_index integer;
  v_id uuid;
  v_seen uuid[] := '{}';
  v_errors jsonb := '[]'::jsonb;
  v_ok boolean;
  v_detail text;
  v_hint text;
  v_updated integer := 0;
  v_ids uuid[];
  v_text_facts constant text[] := array['placement', 'format', 'landing_url', 'primary_text', 'headline', 'call_to_action',
                                        'offer', 'language', 'country'];
  v_known constant text[] := array['platforms', 'placement', 'format', 'first_seen', 'last_seen', 'still_running', 'landing_url',
                                   'primary_text', 'headline', 'call_to_action', 'offer', 'hook_id', 'language', 'country'];
begin
  perform private.require_admin();
  if p_rows is null or jsonb_typeof(p_rows) <> 'array' then
    raise exception 'The rows must be a list' using errcode = 'P0001', detail = 'invalid_rows';
  end if;
  if jsonb_array_length(p_rows) = 0 then
    raise exception 'No rows to import' using errcode = 'P0001', detail = 'no_rows';
  end if;
  if jsonb_array_length(p_rows) > 1000 then
    raise exception 'Too many rows in one import (1000 at most)' using errcode = 'P0001', detail = 'too_many_rows';
  end if;

  -- Every row well formed, each naming a distinct existing ad: one update for all.
  if not exists (
       select 1 from jsonb_array_elements(p_rows) e
        where not (
          jsonb_typeof(e) = 'object'
          and jsonb_typeof(e -> 'id') = 'string'
          and (e ->> 'id') ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
          and jsonb_typeof(e -> 'facts') = 'object'
          and not exists (select 1 from jsonb_object_keys(e) k where k not in ('id', 'facts'))
          and not exists (
            select 1 from jsonb_each(e -> 'facts') kv
             where kv.key <> all (v_known)
                or (kv.key = any (v_text_facts) and jsonb_typeof(kv.value) not in ('string', 'null'))
                or (kv.key = 'platforms' and jsonb_typeof(kv.value) <> 'null'
                    and (jsonb_typeof(kv.value) <> 'array'
                         or exists (select 1 from jsonb_array_elements(kv.value) x where jsonb_typeof(x) <> 'string')))
                or (kv.key = 'still_running' and jsonb_typeof(kv.value) <> 'boolean')
                or (kv.key in ('first_seen', 'last_seen') and jsonb_typeof(kv.value) <> 'null'
                    and (jsonb_typeof(kv.value) <> 'string' or (kv.value #>> '{}') !~ '^\d{4}-\d{2}-\d{2}$'))
                or (kv.key = 'hook_id' and jsonb_typeof(kv.value) <> 'null'
                    and (jsonb_typeof(kv.value) <> 'string'
                         or (kv.value #>> '{}') !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'))
          )
        )
     ) then
    v_ids := array(select (e ->> 'id')::uuid from jsonb_array_elements(p_rows) e);
    if cardinality(v_ids) = (select count(distinct x) from unnest(v_ids) x)
       and cardinality(v_ids) = (select count(*) from public.ads a where a.id = any (v_ids)) then
      begin
        -- Lock the ads in id order, as admin_update_ads does, so edits never deadlock.
        perform 1 from public.ads a where a.id = any (v_ids) order by a.id for update;
        update public.ads a
           set platforms = case when r.f ? 'platforms' then
                             case when jsonb_typeof(r.f -> 'platforms') = 'null' then null
                                  else array(select jsonb_array_elements_text(r.f -> 'platforms')) end
                           else a.platforms end,
               placement = case when r.f ? 'placement' then r.f ->> 'placement' else a.placement end,
               format = case when r.f ? 'format' then r.f ->> 'format' else a.format end,
               first_seen = case when r.f ? 'first_seen' then (r.f ->> 'first_seen')::date else a.first_seen end,
               last_seen = case when r.f ? 'last_seen' then (r.f ->> 'last_seen')::date else a.last_seen end,
               still_running = case when r.f ? 'still_running' then (r.f ->> 'still_running')::boolean else a.still_running end,
               landing_url = case when r.f ? 'landing_url' then r.f ->> 'landing_url' else a.landing_url end,
               primary_text = case when r.f ? 'primary_text' then r.f ->> 'primary_text' else a.primary_text end,
               headline = case when r.f ? 'headline' then r.f ->> 'headline' else a.headline end,
               call_to_action = case when r.f ? 'call_to_action' then r.f ->> 'call_to_action' else a.call_to_action end,
               offer = case when r.f ? 'offer' then r.f ->> 'offer' else a.offer end,
               hook_id = case when r.f ? 'hook_id' then (r.f ->> 'hook_id')::uuid else a.hook_id end,
               language = case when r.f ? 'language' then r.f ->> 'language' else a.language end,
               country = case when r.f ? 'country' then r.f ->> 'country' else a.country end
          from (select (e ->> 'id')::uuid as id, e -> 'facts' as f from jsonb_array_elements(p_rows) e) r
         where a.id = r.id and r.f <> '{}'::jsonb;
        return jsonb_build_object('updated', cardinality(v_ids), 'errors', '[]'::jsonb);
      exception when others then
        -- A row broke a rule (a check, a date that does not exist, a deleted hook): find which, row by row.
        null;
      end;
    end if;
  end if;

  begin
    for v_row, v_index in select e.value, (e.ordinality - 1)::integer from jsonb_array_elements(p_rows) with ordinality e loop
      v_id := null;
      if jsonb_typeof(v_row) <> 'object' or jsonb_typeof(v_row -> 'id') is distinct from 'string'
         or (v_row ->> 'id') !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
        v_errors := v_errors || jsonb_build_object('index', v_index, 'code', 'invalid_id', 'rule', null);
        continue;
      end if;
      v_id := (v_row ->> 'id')::uuid;
      if v_id = any (v_seen) then
        v_errors := v_errors || jsonb_build_object('index', v_index, 'code', 'duplicate_id', 'rule', null);
        continue;
      end if;
      v_seen := v_seen || v_id;
      if jsonb_typeof(v_row -> 'facts') is distinct from 'object'
         or exists (select 1 from jsonb_object_keys(v_row) k where k not in ('id', 'facts')) then
        v_errors := v_errors || jsonb_build_object('index', v_index, 'code', 'invalid_facts', 'rule', null);
        continue;
      end if;
      begin
        select u.ok into v_ok from public.admin_update_ads(p_ids => array[v_id], p_facts => v_row -> 'facts') u;
        if not v_ok then
          v_errors := v_errors || jsonb_build_object('index', v_index, 'code', 'not_found', 'rule', null);
        else
          v_updated := v_updated + 1;
        end if;
      exception when others then
        get stacked diagnostics v_detail = pg_exception_detail, v_hint = pg_exception_hint;
        v_errors := v_errors || jsonb_build_object('index', v_index, 'code', coalesce(nullif(v_detail, ''), 'invalid_facts'),
                                                   'rule', nullif(v_hint, ''));
      end;
    end loop;
    if jsonb_array_length(v_errors) > 0 then
      -- Undo every row written above; the handler keeps the answer.
      raise exception 'The import was refused' using errcode = 'PX422';
    end if;
  exception when sqlstate 'PX422' then
    v_updated := 0;
  end;
  return jsonb_build_object('updated', v_updated, 'errors', v_errors);
end;
$$;
revoke all on function public.admin_import_ad_facts(p_rows jsonb) from public, anon, service_role;

-- The admin's backfill of image texts: the ads whose image_text is null (not read yet, or not readable at upload),
-- newest first, a page at a time, each with a link to its 960 display image, which the admin's browser reads.
-- Keyset pages: p_after_created_at and p_after_id are the last ad of the previous page (both null for the first).
-- p_limit is 1 to 100. Returns {"ads": [{"id", "created_at", "display_960_url"}], "remaining": n, "next": {...} | null};
-- remaining counts every unread ad, the ones before the cursor included.
create function public.admin_ads_without_image_text(
  p_after_created_at timestamptz default null,
  p_after_id uuid default null,
  p_limit int default 50
) returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_key bytea;
  v_iat bigint := private.image_link_window_start(now());
  v_rows jsonb;
  v_count int;
  v_last jsonb;
begin
  perform private.require_admin();
  if p_limit is null or p_limit < 1 or p_limit > 100 then
    raise exception 'A page holds 1 to 100 ads' using errcode = 'P0001', detail = 'invalid_limit';
  end if;
  if (p_after_created_at is null) <> (p_after_id is null) then
    raise exception 'A page starts after an ad''s time and id, or at the start' using errcode = 'P0001', detail = 'invalid_cursor';
  end if;
  v_key := private.image_link_key();

  select coalesce(jsonb_agg(jsonb_build_object(
           'id', page.id,
           'created_at', page.created_at,
           'display_960_url', private.signed_object_url('ad-images', page.display_960_path, v_iat, v_iat + 86400, v_key))
           order by page.created_at desc, page.id desc), '[]'::jsonb),
         count(*)
    into v_rows, v_count
    from (
      select a.id, a.created_at, a.display_960_path
        from public.ads a
       where a.image_text is null
         and (p_after_created_at is null or (a.created_at, a.id) < (p_after_created_at, p_after_id))
       order by a.created_at desc, a.id desc
       limit p_limit
    ) page;

  v_last := case when v_count = p_limit then v_rows -> (v_count - 1) end;
  return jsonb_build_object(
    'ads', v_rows,
    'remaining', (select count(*) from public.ads a where a.image_text is null),
    'next', case when v_last is null then null
                 else jsonb_build_object('created_at', v_last -> 'created_at', 'id', v_last -> 'id') end);
end;
$$;
revoke all on function public.admin_ads_without_image_text(p_after_created_at timestamp with time zone, p_after_id uuid, p_limit integer) from public, anon;

create function public.admin_ads_without_fingerprint(
  p_after_created_at timestamptz default null,
  p_after_id uuid default null,
  p_limit int default 50
) returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_key bytea;
  v_iat bigint := private.image_link_window_start(now());
  v_rows jsonb;
  v_count int;
  v_last jsonb;
begin
  perform private.require_admin();
  if p_limit is null or p_limit < 1 or p_limit > 100 then
    raise exception 'A page holds 1 to 100 ads' using errcode = 'P0001', detail = 'invalid_limit';
  end if;
  if (p_after_created_at is null) <> (p_after_id is null) then
    raise exception 'A page starts after an ad''s time and id, or at the start' using errcode = 'P0001', detail = 'invalid_cursor';
  end if;
  v_key := private.image_link_key();

  select coalesce(jsonb_agg(jsonb_build_object(
           'id', page.id,
           'created_at', page.created_at,
           'display_960_url', private.signed_object_url('ad-images', page.display_960_path, v_iat, v_iat + 86400, v_key))
           order by page.created_at desc, page.id desc), '[]'::jsonb),
         count(*)
    into v_rows, v_count
    from (
      select a.id, a.created_at, a.display_960_path
        from public.ads a
       where a.visual_hash is null
         and (p_after_created_at is null or (a.created_at, a.id) < (p_after_created_at, p_after_id))
       order by a.created_at desc, a.id desc
       limit p_limit
    ) page;

  v_last := case when v_count = p_limit then v_rows -> (v_count - 1) end;
  return jsonb_build_object(
    'ads', v_rows,
    'remaining', (select count(*) from public.ads a where a.visual_hash is null),
    'next', case when v_last is null then null
                 else jsonb_build_object('created_at', v_last -> 'created_at', 'id', v_last -> 'id') end);
end;
$$;
revoke all on function public.admin_ads_without_fingerprint(p_after_created_at timestamp with time zone, p_after_id uuid, p_limit integer) from public, anon;

-- Stores up to 100 fingerprints, each {id, hash (a bigint's signed decimal), histogram (16 shares), colours (1 to 5
-- {hex, share})}, in one statement: any invalid element, repeated ad or missing ad changes nothing. The shares and
-- colours are checked once more by the ads' constraints and ads_visual_fingerprint, which derives the rest.
create function public.admin_set_fingerprints(p_fingerprints jsonb) returns int
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_count int;
  v_written int;
begin
  perform private.require_admin();
  if p_fingerprints is null or jsonb_typeof(p_fingerprints) <> 'array' then
    raise exception 'A list of fingerprints is required' using errcode = 'P0001', detail = 'invalid_fingerprints';
  end if;
  v_count := jsonb_array_length(p_fingerprints);
  if v_count = 0 then
    return 0;
  end if;
  if v_count > 100 then
    raise exception 'Too many fingerprints in one call (100 at most)' using errcode = 'P0001', detail = 'too_many_fingerprints';
  end if;
  -- Each check runs only once the ones it needs have passed (CASE keeps the order; OR does not promise one), so a
  -- malformed element gets this error rather than a failed cast.
  if exists (
    select 1 from jsonb_array_elements(p_fingerprints) e
     where case
             when jsonb_typeof(e) <> 'object' then true
             when jsonb_typeof(e -> 'id') is distinct from 'string'
                  or (e ->> 'id') !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then true
             when jsonb_typeof(e -> 'hash') is distinct from 'string' or (e ->> 'hash') !~ '^-?[0-9]{1,19}$' then true
             when (e ->> 'hash')::numeric not between -9223372036854775808 and 9223372036854775807 then true
             when jsonb_typeof(e -> 'histogram') is distinct from 'array' then true
             when jsonb_array_length(e -> 'histogram') <> 16 then true
             when exists (select 1 from jsonb_array_elements(e -> 'histogram') x where jsonb_typeof(x) <> 'number') then true
             else jsonb_typeof(e -> 'colours') is distinct from 'array'
           end
  ) then
    raise exception 'Each fingerprint needs an ad id, a 64-bit hash, 16 histogram shares and its dominant colours'
      using errcode = 'P0001', detail = 'invalid_fingerprints';
  end if;
  if (select count(distinct (e ->> 'id')::uuid) from jsonb_array_elements(p_fingerprints) e) <> v_count then
    raise exception 'An ad appears twice in one call' using errcode = 'P0001', detail = 'invalid_fingerprints';
  end if;

  update public.ads a
     set visual_hash = (e ->> 'hash')::bigint,
         colour_histogram = array(select x::text::real from jsonb_array_elements(e -> 'histogram') with ordinality h (x, n) order by n),
         dominant_colours = e -> 'colours'
    from jsonb_array_elements(p_fingerprints) e
   where a.id = (e ->> 'id')::uuid;
  get diagnostics v_written = row_count;
  if v_written <> v_count then
    raise exception 'Ad not found' using errcode = 'PT404', detail = 'not_found';
  end if;
  return v_written;
end;
$$;
revoke all on function public.admin_set_fingerprints(p_fingerprints jsonb) from public, anon;
