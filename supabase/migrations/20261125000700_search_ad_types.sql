-- The library search matches the names of ad types too ("ugc", "testimonial", "static"), as it matches brand,
-- category and tag names: every name a card or its filters show finds its ads. A matching type walks its own
-- ordered index range (ads_type_order), merged with the others'. Otherwise list_ads is unchanged.
create or replace function public.list_ads(
  p_board text default 'library',
  p_brand_id uuid default null,
  p_category_id uuid default null,
  p_type_id uuid default null,
  p_tag_ids uuid[] default null,
  p_since timestamptz default null,
  p_search text default null,
  p_cursor text default null
) returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  c_page_size constant int := 60;
  v_uid uuid := (select auth.uid());
  v_search text := nullif(btrim(coalesce(p_search, '')), '');
  v_tags uuid[] := (select array_agg(distinct t order by t) from unnest(coalesce(p_tag_ids, '{}'::uuid[])) t where t is not null);
  v_valid_access boolean := public.has_valid_access();
  v_query_key text;
  v_cursor jsonb;
  v_after_at timestamptz;
  v_after_id uuid;
  v_pattern text;
  v_brand_ids uuid[];
  v_category_ids uuid[];
  v_tag_match_ids uuid[];
  v_type_ids uuid[];
  v_board text;
  v_conditions text;
  v_sql text;
  v_ids uuid[];
  v_times timestamptz[];
  v_ads jsonb;
  -- Tags intersected by merging their ranges while the commonest has at most this many times the rarest's ads.
  c_merge_ratio constant int := 10;
  v_rarest bigint;
  v_commonest bigint;
  v_merge boolean := false;
  v_tag int;
  v_hashjoin text := current_setting('enable_hashjoin');
  v_workers text := current_setting('max_parallel_workers_per_gather');
begin
  if p_board is null or p_board not in ('library', 'black-friday', 'top-picks') then
    raise exception 'Unknown board %', p_board using errcode = 'P0001', detail = 'unknown_board';
  end if;
  if char_length(v_search) > 100 then
    raise exception 'Search text is too long (100 characters at most)' using errcode = 'P0001', detail = 'search_too_long';
  end if;
  if cardinality(v_tags) > 10 then
    raise exception 'Too many tags (10 at most)' using errcode = 'P0001', detail = 'too_many_tags';
  end if;
  if p_board = 'black-friday' and v_uid is null then
    raise exception 'Sign in to open the Black Friday board' using errcode = '42501', detail = 'sign_in_required';
  end if;

  -- Positional, nulls included, so no two different queries share a key.
  v_query_key := md5(jsonb_build_array(p_board, p_brand_id, p_category_id, p_type_id, v_tags,
    private.iso_utc(p_since), lower(v_search))::text);

  if p_cursor is not null then
    v_cursor := private.read_cursor(p_cursor, v_query_key);
    v_after_at := (v_cursor ->> 't')::timestamptz;
    v_after_id := (v_cursor ->> 'i')::uuid;
  end if;

  v_board := case p_board
    when 'library' then 'not a.is_black_friday'
    when 'black-friday' then 'a.is_black_friday'
    else 'a.is_top_picks' end;
  -- Conditions on ads a; $1..$7 are bound below.
  v_conditions := v_board
    || case when p_brand_id is not null then ' and a.brand_id = $1' else '' end
    || case when p_category_id is not null then ' and a.category_id = $2' else '' end
    || case when p_type_id is not null then ' and a.type_id = $3' else '' end
    || case when v_tags is not null then
         ' and not exists (select 1 from unnest($4::uuid[]) w(id) where not exists '
         || '(select 1 from public.ad_tags h where h.ad_id = a.id and h.tag_id = w.id))' else '' end
    || case when p_since is not null then ' and a.created_at >= $5' else '' end;

  if v_search is not null then
    v_pattern := '%' || replace(replace(replace(v_search, '\', '\\'), '%', '\%'), '_', '\_') || '%';
    v_brand_ids := array(select id from public.brands where name ilike v_pattern);
    v_category_ids := array(select id from public.categories where name ilike v_pattern);
    v_type_ids := array(select id from public.types where name ilike v_pattern);
    -- The library never shows Black Friday ads, so the Black Friday tag cannot match there.
    v_tag_match_ids := array(select id from public.tags where name ilike v_pattern
                               and (p_board <> 'library' or system_key is distinct from 'black_friday'));
  end if;

  if v_search is not null and cardinality(v_brand_ids) + cardinality(v_category_ids) + cardinality(v_type_ids) + cardinality(v_tag_match_ids) > 8 then
    -- A broad search (one letter) matches most of the board: walk the board's ordered index and look up each
    -- walked ad's tags. "offset 0" keeps that a lookup per ad: without it, wherever the matching tags' rows fit
    -- in memory (100,000 ads), the planner first hashed all of them, 30 ms before the first row.
    v_sql := 'select a.id, a.created_at from public.ads a where ' || v_conditions
      || ' and (a.brand_id = any ($8::uuid[]) or a.category_id = any ($9::uuid[]) or a.type_id = any ($11::uuid[])'
      || ' or exists (select 1 from public.ad_tags h where h.ad_id = a.id and h.tag_id = any ($10::uuid[]) offset 0))'
      || case when v_cursor is not null then ' and (a.created_at, a.id) < ($6, $7)' else '' end
      || ' order by a.created_at desc, a.id desc limit 61';
  elsif v_search is not null then
    -- One ordered index range per matching brand, category, type and tag, merged.
    v_sql := 'select u.id, u.created_at from ('
      || 'select x.id, x.created_at from unnest($8::uuid[]) d(id) cross join lateral ('
      || 'select a.id, a.created_at from public.ads a where a.brand_id = d.id and ' || v_conditions
      || case when v_cursor is not null then ' and (a.created_at, a.id) < ($6, $7)' else '' end
      || ' order by a.created_at desc, a.id desc limit 61) x'
      || ' union '
      || 'select x.id, x.created_at from unnest($9::uuid[]) d(id) cross join lateral ('
      || 'select a.id, a.created_at from public.ads a where a.category_id = d.id and ' || v_conditions
      || case when v_cursor is not null then ' and (a.created_at, a.id) < ($6, $7)' else '' end
      || ' order by a.created_at desc, a.id desc limit 61) x'
      || ' union '
      || 'select x.id, x.created_at from unnest($11::uuid[]) d(id) cross join lateral ('
      || 'select a.id, a.created_at from public.ads a where a.type_id = d.id and ' || v_conditions
      || case when v_cursor is not null then ' and (a.created_at, a.id) < ($6, $7)' else '' end
      || ' order by a.created_at desc, a.id desc limit 61) x'
      || ' union '
      || 'select x.id, x.created_at from unnest($10::uuid[]) d(id) cross join lateral ('
      || 'select a.id, a.created_at from public.ad_tags t join public.ads a on a.id = t.ad_id where t.tag_id = d.id and '
      || v_conditions
      || case when p_since is not null then ' and t.ad_created_at >= $5' else '' end
      || case when v_cursor is not null then ' and (t.ad_created_at, t.ad_id) < ($6, $7)' else '' end
      || ' order by t.ad_created_at desc, t.ad_id desc limit 61) x'
      || ') u order by u.created_at desc, u.id desc limit 61';
  elsif v_tags is not null and p_brand_id is null and p_category_id is null and p_type_id is null then
    -- A tag filter alone walks the tags' ordered index ranges. The tags go rarest first (the key above keeps its
    -- own order), and how they are intersected depends on how their counts compare; see 20261124000200_tag_filters.
    select array_agg(w.id order by coalesce(c.ads, 0), w.id), min(coalesce(c.ads, 0)), max(coalesce(c.ads, 0))
      into v_tags, v_rarest, v_commonest
      from unnest(v_tags) w (id) left join private.tag_ad_counts c on c.tag_id = w.id;
    v_merge := cardinality(v_tags) > 1 and v_commonest <= c_merge_ratio * v_rarest;
    v_sql := 'select a.id, a.created_at from public.ad_tags t';
    if v_merge then
      -- Each other tag's range, walked in step with the first: one ordered merge per tag.
      for v_tag in 2 .. cardinality(v_tags) loop
        v_sql := v_sql || format(' join public.ad_tags t%1$s on t%1$s.tag_id = ($4::uuid[])[%1$s]'
          || ' and t%1$s.ad_created_at = t.ad_created_at and t%1$s.ad_id = t.ad_id', v_tag)
          || case when p_since is not null then format(' and t%1$s.ad_created_at >= $5', v_tag) else '' end
          || case when v_cursor is not null then format(' and (t%1$s.ad_created_at, t%1$s.ad_id) < ($6, $7)', v_tag) else '' end;
      end loop;
    end if;
    v_sql := v_sql || ' join public.ads a on a.id = t.ad_id where t.tag_id = ($4::uuid[])[1] and ' || v_board
      || case when v_merge then ''
              else ' and not exists (select 1 from unnest(($4::uuid[])[2:]) w(id) where not exists '
                   || '(select 1 from public.ad_tags h where h.ad_id = t.ad_id and h.tag_id = w.id))' end
      || case when p_since is not null then ' and a.created_at >= $5 and t.ad_created_at >= $5' else '' end
      || case when v_cursor is not null then ' and (t.ad_created_at, t.ad_id) < ($6, $7)' else '' end
      || ' order by t.ad_created_at desc, t.ad_id desc limit 61';
  else
    v_sql := 'select a.id, a.created_at from public.ads a where ' || v_conditions
      || case when v_cursor is not null then ' and (a.created_at, a.id) < ($6, $7)' else '' end
      || ' order by a.created_at desc, a.id desc limit 61';
  end if;

  if v_merge then
    -- The planner cannot tell how many ads two tags share and would hash one whole range (parallel workers
    -- included) to find 61 rows: for this statement only, it merges the ordered ranges it is given.
    perform set_config('enable_hashjoin', 'off', true), set_config('max_parallel_workers_per_gather', '0', true);
  end if;
  -- Ids and times in one statement: the cursor is signed with the time of the row shown.
  execute 'select coalesce(array_agg(r.id order by r.created_at desc, r.id desc), ''{}''),'
    || ' coalesce(array_agg(r.created_at order by r.created_at desc, r.id desc), ''{}'') from (' || v_sql || ') r'
    into v_ids, v_times
    using p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
          v_brand_ids, v_category_ids, v_tag_match_ids, v_type_ids;

  if v_merge then
    perform set_config('enable_hashjoin', v_hashjoin, true), set_config('max_parallel_workers_per_gather', v_workers, true);
  end if;

  -- The page in its order (clear ads first for a viewer without valid access; the cursor stays the last row
  -- of the page in time order, so no ad is skipped or repeated).
  with page as (
    select a.id, p.ord, private.ad_is_clear_for(a, v_uid is not null, v_valid_access) as clear
      from unnest(v_ids[1:c_page_size]) with ordinality as p (id, ord)
      join public.ads a on a.id = p.id
  )
  select private.ads_json(array_agg(page.id order by not page.clear, page.ord),
                          array_agg(page.clear order by not page.clear, page.ord))
    into v_ads
    from page;

  if cardinality(v_ids) > c_page_size then
    return jsonb_build_object('ads', v_ads, 'next_cursor',
      private.sign_cursor(jsonb_build_object('q', v_query_key, 't', private.iso_utc(v_times[c_page_size]), 'i', v_ids[c_page_size])));
  end if;
  return jsonb_build_object('ads', v_ads, 'next_cursor', null);
end;
$$;

revoke execute on function public.list_ads(text, uuid, uuid, uuid, uuid[], timestamptz, text, text) from public, anon, authenticated;
grant execute on function public.list_ads(text, uuid, uuid, uuid, uuid[], timestamptz, text, text) to anon, authenticated, service_role;
