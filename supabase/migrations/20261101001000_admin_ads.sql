-- The admin's ad management: the table's query, bulk edit, bulk delete and
-- the day-tagging utility. Every function checks the server-side admin role.

create or replace function private.require_admin() returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not public.is_admin() then
    raise exception 'This operation requires admin privileges.' using errcode = '42501', detail = 'admin_required';
  end if;
end;
$$;

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
revoke execute on function public.get_ads_admin(integer, integer, text, uuid, uuid, uuid, uuid[], date, date, text)
  from public, anon, authenticated, service_role;
grant execute on function public.get_ads_admin(integer, integer, text, uuid, uuid, uuid, uuid[], date, date, text)
  to authenticated;

-- Bulk edit: brand and category are set when given (null: no change); the type
-- is left ('no_change'), set ('set') or cleared ('clear'); tags are added and
-- removed. Unknown brand, category, type or tag fails the whole call; each ad
-- id gets its own result, in the order given, unknown ids `not_found`.
create or replace function public.admin_update_ads(
  p_ids uuid[],
  p_brand_id uuid default null,
  p_category_id uuid default null,
  p_type_mode text default 'no_change',
  p_type_id uuid default null,
  p_add_tag_ids uuid[] default '{}',
  p_remove_tag_ids uuid[] default '{}'
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
  v_found uuid[];
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

  -- Lock the ads in id order, so two bulk edits never deadlock.
  v_found := array(select a.id from public.ads a where a.id = any (v_ids) order by a.id for update);

  if p_brand_id is not null or p_category_id is not null or p_type_mode <> 'no_change' then
    update public.ads a
       set brand_id = coalesce(p_brand_id, a.brand_id),
           category_id = coalesce(p_category_id, a.category_id),
           type_id = case p_type_mode when 'set' then p_type_id when 'clear' then null else a.type_id end
     where a.id = any (v_found);
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
revoke execute on function public.admin_update_ads(uuid[], uuid, uuid, text, uuid, uuid[], uuid[]) from public, anon, authenticated, service_role;
grant execute on function public.admin_update_ads(uuid[], uuid, uuid, text, uuid, uuid[], uuid[]) to authenticated;

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
revoke execute on function public.admin_delete_ads(uuid[]) from public, anon, authenticated, service_role;
grant execute on function public.admin_delete_ads(uuid[]) to authenticated;

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
revoke execute on function public.tag_ads_of_day(date) from public, anon, authenticated;
grant execute on function public.tag_ads_of_day(date) to authenticated, service_role;
