-- One fixed free sample instead of per-account unlocks.
--
-- An ad is clear for a viewer when (a) the viewer has valid access, (b) the
-- ad does not require a subscription, (c) the ad is in the free sample, or
-- (d) the viewer is signed in and the ad is on the Black Friday board.
-- Nothing a viewer does adds to what they see clear: ad_unlocks goes.
--
-- The free sample is at most ceil(10%) of the published premium ads, chosen
-- when an ad is published: the premium ad that takes the premium count past a
-- multiple of ten joins it (the 1st, 11th, 21st... in publish order), so
-- members are spread evenly through the library and about one ad in ten of any
-- page is in it. When deletions leave more members than the cap allows, the
-- latest to join leave; when the cap grows again, ads that left come back
-- before any new ad joins. So the set of ads ever in the sample grows only as
-- the library does. For a non-paying viewer each page of a list puts its clear
-- ads first, so a page reads as the spec's "first 10% clear" (see
-- docs/decisions/0021).

alter table public.ads add column free_sample boolean not null default false;
-- When the ad joined the sample; kept when it leaves while premium (it comes back first).
alter table public.ads add column free_sample_since timestamptz;
create index ads_free_sample_latest on public.ads (free_sample_since desc, id desc) where free_sample;
create index ads_free_sample_waiting on public.ads (free_sample_since, id)
  where not free_sample and free_sample_since is not null;
-- Everyone may know which ads are in the sample: they are the ads shown clear to everyone.
grant select (free_sample) on table public.ads to anon, authenticated;

create table private.free_sample_counts (
  singleton boolean primary key default true check (singleton),
  premium bigint not null,
  members bigint not null,
  constraint free_sample_counts_not_negative check (premium >= 0 and members >= 0)
);
alter table private.free_sample_counts enable row level security;
revoke all on table private.free_sample_counts from public, anon, authenticated;
insert into private.free_sample_counts (premium, members) values (0, 0);

-- Whoever inserts an ad (the owner included), it starts outside the sample; the statement trigger decides.
create or replace function private.ads_free_sample_starts_out() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  new.free_sample := false;
  new.free_sample_since := null;
  return new;
end;
$$;
revoke execute on function private.ads_free_sample_starts_out() from public;
create trigger ads_free_sample_starts_out before insert on public.ads
  for each row execute function private.ads_free_sample_starts_out();

-- Members beyond the cap leave, the latest to join first.
create or replace function private.free_sample_trim() returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_premium bigint;
  v_members bigint;
  v_left bigint;
begin
  select premium, members into v_premium, v_members from private.free_sample_counts for update;
  if v_members <= ceil(v_premium / 10.0) then
    return;
  end if;
  update public.ads a set free_sample = false
   where a.id in (select m.id from public.ads m where m.free_sample
                   order by m.free_sample_since desc, m.id desc limit (v_members - ceil(v_premium / 10.0))::bigint);
  get diagnostics v_left = row_count;
  update private.free_sample_counts set members = members - v_left;
end;
$$;
revoke execute on function private.free_sample_trim() from public;

-- Fills the sample up to the cap: ads that left it come back first, then the
-- newly published premium ads p_published (in publish order) that take the
-- premium count past a multiple of ten, then the others of them.
create or replace function private.free_sample_fill(p_published uuid[]) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_premium bigint;
  v_members bigint;
  v_need bigint;
  v_before bigint;
  v_joined bigint;
begin
  select premium, members into v_premium, v_members from private.free_sample_counts for update;
  v_need := ceil(v_premium / 10.0)::bigint - v_members;
  if v_need <= 0 then
    return;
  end if;
  update public.ads a set free_sample = true
   where a.id in (select w.id from public.ads w
                   where not w.free_sample and w.free_sample_since is not null and w.requires_subscription
                   order by w.free_sample_since, w.id limit v_need);
  get diagnostics v_joined = row_count;
  v_need := v_need - v_joined;
  if v_need > 0 and cardinality(p_published) > 0 then
    v_before := v_premium - cardinality(p_published);
    -- A microsecond apart in publish order, so "the latest to join" is well defined within one statement too.
    update public.ads a set free_sample = true, free_sample_since = now() + c.ord * interval '1 microsecond'
      from (select p.id, p.ord from unnest(p_published) with ordinality as p (id, ord)
             order by (v_before + p.ord - 1) % 10 <> 0, p.ord limit v_need) c
     where a.id = c.id;
    get diagnostics v_need = row_count;
    v_joined := v_joined + v_need;
  end if;
  update private.free_sample_counts set members = members + v_joined;
end;
$$;
revoke execute on function private.free_sample_fill(uuid[]) from public;

create or replace function private.ads_free_sample_published() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_published uuid[] := array(select n.id from new_rows n where n.requires_subscription order by n.created_at, n.id);
begin
  if cardinality(v_published) = 0 then
    return null;
  end if;
  update private.free_sample_counts set premium = premium + cardinality(v_published);
  perform private.free_sample_fill(v_published);
  return null;
end;
$$;
revoke execute on function private.ads_free_sample_published() from public;
create trigger ads_free_sample_published after insert on public.ads
  referencing new table as new_rows for each statement execute function private.ads_free_sample_published();

create or replace function private.ads_free_sample_deleted() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update private.free_sample_counts
     set premium = premium - (select count(*) from old_rows o where o.requires_subscription),
         members = members - (select count(*) from old_rows o where o.free_sample);
  perform private.free_sample_trim();
  return null;
end;
$$;
revoke execute on function private.ads_free_sample_deleted() from public;
create trigger ads_free_sample_deleted after delete on public.ads
  referencing old table as old_rows for each statement execute function private.ads_free_sample_deleted();

-- An ad made free leaves the sample for good; an ad made premium is published to it. Per row: transition
-- tables cannot go with a column list, and a statement trigger on every update of ads would run for each
-- card rewrite.
create or replace function private.ads_free_sample_premium_changed() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_member boolean;
begin
  if new.requires_subscription then
    update private.free_sample_counts set premium = premium + 1;
    perform private.free_sample_fill(array[new.id]);
  else
    -- The row as it is now, not as the statement found it: an earlier row's trim may have taken it out already.
    select a.free_sample into v_member from public.ads a where a.id = new.id;
    update public.ads set free_sample = false, free_sample_since = null where id = new.id;
    update private.free_sample_counts set premium = premium - 1, members = members - (case when v_member then 1 else 0 end);
    perform private.free_sample_trim();
  end if;
  return null;
end;
$$;
revoke execute on function private.ads_free_sample_premium_changed() from public;
create trigger ads_free_sample_premium_changed after update of requires_subscription on public.ads
  for each row when (old.requires_subscription is distinct from new.requires_subscription)
  execute function private.ads_free_sample_premium_changed();

create or replace function private.ads_free_sample_truncated() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update private.free_sample_counts set premium = 0, members = 0;
  return null;
end;
$$;
revoke execute on function private.ads_free_sample_truncated() from public;
create trigger ads_free_sample_truncated after truncate on public.ads
  for each statement execute function private.ads_free_sample_truncated();

-- The sample chosen anew over the whole library in publish order, and the
-- counts recomputed: for this migration, and for tools that write ads with
-- triggers off (the benchmark seed).
create or replace function private.free_sample_rebuild() returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.ads set free_sample = false, free_sample_since = null where free_sample or free_sample_since is not null;
  update public.ads a set free_sample = true, free_sample_since = a.created_at
    from (select p.id, row_number() over (order by p.created_at, p.id) as n
            from public.ads p where p.requires_subscription) p
   where a.id = p.id and (p.n - 1) % 10 = 0;
  update private.free_sample_counts
     set premium = (select count(*) from public.ads where requires_subscription),
         members = (select count(*) from public.ads where free_sample);
end;
$$;
revoke execute on function private.free_sample_rebuild() from public;
select private.free_sample_rebuild();

-- Per-account unlocks are gone: nothing a viewer does adds to what they see clear.
drop table public.ad_unlocks;
drop function private.ad_is_clear_for(public.ads, uuid, boolean, boolean);
drop function private.black_friday_access(uuid);

-- Rules (a) to (d) for one ad and one caller. Inlined into the lists' queries.
create or replace function private.ad_is_clear_for(p_ad public.ads, p_signed_in boolean, p_valid_access boolean)
returns boolean
language sql stable
as $$
  select p_valid_access or not p_ad.requires_subscription or p_ad.free_sample or (p_signed_in and p_ad.is_black_friday)
$$;
revoke execute on function private.ad_is_clear_for(public.ads, boolean, boolean) from public;

-- A page of 60 ads of one board, newest first, with filters and search. The
-- cursor comes from the previous page's next_cursor and only fits the same
-- query. For a viewer without valid access the page's clear ads come first.
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
          v_brand_ids, v_category_ids, v_tag_match_ids;

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

-- One ad for its detail page, or null when there is no such ad.
create or replace function public.get_ad(p_id uuid) returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select private.ads_json(array[a.id], array[private.ad_is_clear_for(a, (select auth.uid()) is not null, public.has_valid_access())]) -> 0
    from public.ads a
   where a.id = p_id
$$;
revoke execute on function public.get_ad(uuid) from public, anon, authenticated;
grant execute on function public.get_ad(uuid) to anon, authenticated, service_role;

-- A page of 60 of the caller's board's ads, newest saved first, clear by the same rules as every list.
create or replace function public.list_collection_ads(p_collection_id uuid, p_cursor text default null) returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  c_page_size constant int := 60;
  v_uid uuid := (select auth.uid());
  v_valid_access boolean := public.has_valid_access();
  v_query_key text := md5(jsonb_build_array('collection', p_collection_id)::text);
  v_cursor jsonb;
  v_after_at timestamptz;
  v_after_id uuid;
  v_rows jsonb;
  v_count int;
  v_last_saved_at timestamptz;
  v_last_ad_id uuid;
begin
  if v_uid is null then
    raise exception 'Not authenticated' using errcode = '42501', detail = 'not_authenticated';
  end if;
  if not exists (select 1 from public.user_collections where id = p_collection_id and user_id = v_uid) then
    raise exception 'Board not found' using errcode = 'PT404', detail = 'board_not_found';
  end if;
  if p_cursor is not null then
    v_cursor := private.read_cursor(p_cursor, v_query_key);
    v_after_at := (v_cursor ->> 't')::timestamptz;
    v_after_id := (v_cursor ->> 'i')::uuid;
  end if;

  -- The page and the position of its last row in one statement, so the cursor matches what was shown.
  with page as (
    select i.saved_at, a, row_number() over (order by i.saved_at desc, i.ad_id desc) as ord
      from public.user_collection_items i
      join public.ads a on a.id = i.ad_id
     where i.collection_id = p_collection_id
       and (v_cursor is null or (i.saved_at, i.ad_id) < (v_after_at, v_after_id))
     order by i.saved_at desc, i.ad_id desc
     limit c_page_size + 1
  )
  select private.ads_json(
           array_agg((page.a).id order by page.ord) filter (where page.ord <= c_page_size),
           array_agg(private.ad_is_clear_for(page.a, true, v_valid_access) order by page.ord)
             filter (where page.ord <= c_page_size),
           array_agg(jsonb_build_object('saved_at', private.iso_utc(page.saved_at)) order by page.ord)
             filter (where page.ord <= c_page_size)),
         count(*),
         max(page.saved_at) filter (where page.ord = c_page_size),
         max((page.a).id::text) filter (where page.ord = c_page_size)
    into v_rows, v_count, v_last_saved_at, v_last_ad_id
    from page;

  if v_count > c_page_size then
    return jsonb_build_object('ads', v_rows, 'next_cursor',
      private.sign_cursor(jsonb_build_object('q', v_query_key, 't', private.iso_utc(v_last_saved_at), 'i', v_last_ad_id)));
  end if;
  return jsonb_build_object('ads', v_rows, 'next_cursor', null);
end;
$$;
revoke execute on function public.list_collection_ads(uuid, text) from public, anon, authenticated;
-- Anonymous callers too, so they get the named error rather than a bare permission error.
grant execute on function public.list_collection_ads(uuid, text) to anon, authenticated;

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
revoke execute on function public.admin_ad_images(uuid[]) from public, anon, authenticated;
grant execute on function public.admin_ad_images(uuid[]) to authenticated;
