-- Tag filters on a large library. An ad carries a few of many tags, so two
-- tags share a small part of each one's ads. list_ads intersects them in one
-- of two ways, chosen by the tags' ad counts (kept in private.tag_ad_counts):
--   - when the tags are about as common as each other, it walks their ordered
--     index ranges side by side (a merge), reading each range once;
--   - when one tag is much rarer, it walks the rarest tag's range and looks
--     each ad up in the others' (a probe per ad and tag), so a rare tag never
--     makes it read all of a common tag's range.
-- A probe costs about ten times reading the next entry of a range (measured
-- on 1,000,000 ads: 3.5 us against 0.3 us), hence c_merge_ratio.
-- The same walk-and-look-up is kept for a broad search (see list_ads).

-- How many ads carry each tag, kept by a statement trigger on ad_tags.
create table private.tag_ad_counts (
  tag_id uuid primary key references public.tags (id) on delete cascade,
  ads bigint not null,
  constraint tag_ad_counts_not_negative check (ads >= 0)
);
alter table private.tag_ad_counts enable row level security;
revoke all on table private.tag_ad_counts from public, anon, authenticated;
insert into private.tag_ad_counts (tag_id, ads) select t.tag_id, count(*) from public.ad_tags t group by t.tag_id;

create or replace function private.ad_tags_count() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op in ('INSERT', 'UPDATE') then
    insert into private.tag_ad_counts as c (tag_id, ads)
    select n.tag_id, count(*) from new_rows n group by n.tag_id
        on conflict (tag_id) do update set ads = c.ads + excluded.ads;
  end if;
  if tg_op in ('DELETE', 'UPDATE') then
    -- A deleted tag's row is already gone with it.
    update private.tag_ad_counts c set ads = c.ads - o.ads
      from (select o.tag_id, count(*) as ads from old_rows o group by o.tag_id) o
     where c.tag_id = o.tag_id;
  end if;
  return null;
end;
$$;
revoke execute on function private.ad_tags_count() from public;
create trigger ad_tags_inserted_count after insert on public.ad_tags
  referencing new table as new_rows for each statement execute function private.ad_tags_count();
create trigger ad_tags_deleted_count after delete on public.ad_tags
  referencing old table as old_rows for each statement execute function private.ad_tags_count();
create trigger ad_tags_updated_count after update on public.ad_tags
  referencing old table as old_rows new table as new_rows for each statement execute function private.ad_tags_count();

-- A page of 60 ads of one board, newest first, with filters and search. The
-- cursor comes from the previous page's next_cursor and only fits the same query.
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
  v_bf_access boolean := private.black_friday_access((select auth.uid()));
  v_full_access boolean;
  v_filtered boolean;
  v_query_key text;
  v_cursor jsonb;
  v_after_at timestamptz;
  v_after_id uuid;
  v_pattern text;
  v_brand_ids uuid[];
  v_category_ids uuid[];
  v_tag_match_ids uuid[];
  v_board text;
  v_conditions text;
  v_sql text;
  v_ids uuid[];
  v_times timestamptz[];
  v_count int;
  v_teaser int;
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

  v_full_access := v_valid_access or (p_board = 'black-friday' and v_bf_access);
  v_filtered := p_brand_id is not null or p_category_id is not null or p_type_id is not null
    or v_tags is not null or p_since is not null or v_search is not null;
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
    -- The library never shows Black Friday ads, so the Black Friday tag cannot match there.
    v_tag_match_ids := array(select id from public.tags where name ilike v_pattern
                               and (p_board <> 'library' or system_key is distinct from 'black_friday'));
  end if;

  if v_search is not null and cardinality(v_brand_ids) + cardinality(v_category_ids) + cardinality(v_tag_match_ids) > 8 then
    -- A broad search (one letter) matches most of the board: walk the board's ordered index and look up each
    -- walked ad's tags. "offset 0" keeps that a lookup per ad: without it, wherever the matching tags' rows fit
    -- in memory (100,000 ads), the planner first hashed all of them, 30 ms before the first row.
    v_sql := 'select a.id, a.created_at from public.ads a where ' || v_conditions
      || ' and (a.brand_id = any ($8::uuid[]) or a.category_id = any ($9::uuid[])'
      || ' or exists (select 1 from public.ad_tags h where h.ad_id = a.id and h.tag_id = any ($10::uuid[]) offset 0))'
      || case when v_cursor is not null then ' and (a.created_at, a.id) < ($6, $7)' else '' end
      || ' order by a.created_at desc, a.id desc limit 61';
  elsif v_search is not null then
    -- One ordered index range per matching brand, category and tag, merged.
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
      || 'select x.id, x.created_at from unnest($10::uuid[]) d(id) cross join lateral ('
      || 'select a.id, a.created_at from public.ad_tags t join public.ads a on a.id = t.ad_id where t.tag_id = d.id and '
      || v_conditions
      || case when p_since is not null then ' and t.ad_created_at >= $5' else '' end
      || case when v_cursor is not null then ' and (t.ad_created_at, t.ad_id) < ($6, $7)' else '' end
      || ' order by t.ad_created_at desc, t.ad_id desc limit 61) x'
      || ') u order by u.created_at desc, u.id desc limit 61';
  elsif v_tags is not null and p_brand_id is null and p_category_id is null and p_type_id is null then
    -- A tag filter alone walks the tags' ordered index ranges. The tags go rarest first (the key above keeps its
    -- own order), and how they are intersected depends on how their counts compare; see the header of this file.
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
          v_brand_ids, v_category_ids, v_tag_match_ids;

  if v_merge then
    perform set_config('enable_hashjoin', v_hashjoin, true), set_config('max_parallel_workers_per_gather', v_workers, true);
  end if;

  v_count := least(cardinality(v_ids), c_page_size);
  v_teaser := ceil(v_count / 10.0)::int;

  with page as (
    select a.id, p.ord,
           (not v_filtered and p.ord <= v_teaser and a.requires_subscription and not v_full_access) as teaser,
           -- Rules (a), (b) and (d), as private.ad_is_clear_for decides them for one ad.
           (v_full_access or (a.is_black_friday and v_bf_access) or not a.requires_subscription
             or (v_uid is not null and exists (select 1 from public.ad_unlocks u where u.user_id = v_uid and u.ad_id = a.id)))
             as cleared
      from unnest(v_ids[1:c_page_size]) with ordinality as p (id, ord)
      join public.ads a on a.id = p.id
  ), recorded as (
    insert into public.ad_unlocks (user_id, ad_id)
    select v_uid, page.id from page where page.teaser and v_uid is not null
    on conflict do nothing
  )
  select private.ads_json(array_agg(page.id order by page.ord), array_agg(page.teaser or page.cleared order by page.ord))
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

