-- Listing ads: the library, the Black Friday board, Top Picks, one ad, a
-- board's ads and ad-detail navigation. Every path to an image goes through
-- these functions, which decide for each ad whether the caller sees it clear:
--   (a) the caller has valid access (on Black Friday ads the profile flag counts too),
--   (b) the ad does not require a subscription,
--   (c) in a board listing with no search and no filter, the ad is among the
--       first ceil(10%) rows of its page (pages start where the server says:
--       the cursor is signed and bound to the query),
--   (d) the signed-in caller was served the ad clear by (c) before.
-- A locked ad comes back with its blurred preview only.

create table private.settings (
  key text primary key,
  value text not null
);
insert into private.settings (key, value) values ('cursor_secret', encode(extensions.gen_random_bytes(32), 'hex'));

-- Ads served clear to a signed-in user through the teaser, so their boards and
-- the ad's page keep showing them clear.
create table public.ad_unlocks (
  user_id uuid not null references auth.users (id) on delete cascade,
  ad_id uuid not null references public.ads (id) on delete cascade,
  unlocked_at timestamptz not null default now(),
  primary key (user_id, ad_id)
);
create index ad_unlocks_ad on public.ad_unlocks (ad_id);
alter table public.ad_unlocks enable row level security;
revoke all on table public.ad_unlocks from anon, authenticated;
grant select on table public.ad_unlocks to authenticated;
create policy "ad_unlocks: a user reads their own" on public.ad_unlocks for select to authenticated
  using (user_id = (select auth.uid()));

create or replace function private.iso_utc(p_at timestamptz) returns text
language sql immutable
set search_path = ''
as $$
  select to_char(p_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
$$;

create or replace function private.base64url_encode(p_data bytea) returns text
language sql immutable
set search_path = ''
as $$
  select translate(encode(p_data, 'base64'), E'+/=\n', '-_')
$$;

create or replace function private.base64url_decode(p_text text) returns bytea
language sql immutable
set search_path = ''
as $$
  select decode(rpad(translate(p_text, '-_', '+/'), ((char_length(p_text) + 3) / 4) * 4, '='), 'base64')
$$;

create or replace function private.sign_cursor(p_payload jsonb) returns text
language sql stable
security definer
set search_path = ''
as $$
  select private.base64url_encode(convert_to(p_payload::text, 'UTF8')) || '.' ||
         private.base64url_encode(substring(extensions.hmac(convert_to(p_payload::text, 'UTF8'),
           convert_to((select value from private.settings where key = 'cursor_secret'), 'UTF8'), 'sha256') from 1 for 18))
$$;

-- The payload of a cursor this database signed for the same query, or an error.
create or replace function private.read_cursor(p_cursor text, p_query_key text) returns jsonb
language plpgsql stable
security definer
set search_path = ''
as $$
declare
  v_payload jsonb;
begin
  -- Length first: a huge string is refused before any decoding work.
  if char_length(p_cursor) between 1 and 1000 then
    begin
      v_payload := convert_from(private.base64url_decode(split_part(p_cursor, '.', 1)), 'UTF8')::jsonb;
    exception when others then
      v_payload := null;
    end;
  end if;
  if v_payload is null or jsonb_typeof(v_payload) <> 'object' or private.sign_cursor(v_payload) <> p_cursor
     or v_payload ->> 'q' is distinct from p_query_key then
    raise exception 'Invalid cursor' using errcode = '22023', detail = 'invalid_cursor';
  end if;
  return v_payload;
end;
$$;

-- One ad as the lists and the detail page return it. Display paths only when clear.
create or replace function private.ad_json(p_ad public.ads, p_clear boolean) returns jsonb
language sql stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'id', p_ad.id,
    'brand_id', p_ad.brand_id,
    'brand_name', b.name,
    'brand_logo_path', b.logo_path,
    'category_id', p_ad.category_id,
    'category_name', c.name,
    'type_id', p_ad.type_id,
    'type_name', (select ty.name from public.types ty where ty.id = p_ad.type_id),
    -- An explicit collation, so the order is the same whatever the database's locale.
    'tag_names', to_jsonb(array(select g.name from public.ad_tags t join public.tags g on g.id = t.tag_id
                                where t.ad_id = p_ad.id order by lower(g.name) collate "C", g.name collate "C")),
    'created_at', private.iso_utc(p_ad.created_at),
    'requires_subscription', p_ad.requires_subscription,
    'is_black_friday', p_ad.is_black_friday,
    'is_top_picks', p_ad.is_top_picks,
    'width', p_ad.width,
    'height', p_ad.height,
    'thumbhash', p_ad.thumbhash,
    'preview_path', p_ad.preview_path,
    'is_clear', p_clear,
    'display_480_path', case when p_clear then p_ad.display_480_path end,
    'display_960_path', case when p_clear then p_ad.display_960_path end)
  from public.brands b, public.categories c
  where b.id = p_ad.brand_id and c.id = p_ad.category_id
$$;

-- Many ads at once, in the given order, as ad_json gives each: one set-based
-- query instead of a function call per row. p_extra adds keys per ad.
create or replace function private.ads_json(p_ids uuid[], p_clear boolean[], p_extra jsonb[] default null)
returns jsonb
-- plpgsql keeps the query's plan for the session; a SQL function is planned again on every call.
language plpgsql stable
security definer
set search_path = ''
as $$
begin
  return (select coalesce(jsonb_agg(
    jsonb_build_object(
      'id', a.id,
      'brand_id', a.brand_id,
      'brand_name', b.name,
      'brand_logo_path', b.logo_path,
      'category_id', a.category_id,
      'category_name', c.name,
      'type_id', a.type_id,
      'type_name', ty.name,
      'tag_names', coalesce(tg.names, '[]'::jsonb),
      'created_at', to_char(a.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
      'requires_subscription', a.requires_subscription,
      'is_black_friday', a.is_black_friday,
      'is_top_picks', a.is_top_picks,
      'width', a.width,
      'height', a.height,
      'thumbhash', a.thumbhash,
      'preview_path', a.preview_path,
      'is_clear', p.clear,
      'display_480_path', case when p.clear then a.display_480_path end,
      'display_960_path', case when p.clear then a.display_960_path end)
    || coalesce(p.extra, '{}'::jsonb)
    order by p.ord), '[]'::jsonb)
  from unnest(p_ids, p_clear, coalesce(p_extra, array_fill(null::jsonb, array[coalesce(cardinality(p_ids), 0)])))
         with ordinality as p (id, clear, extra, ord)
  join public.ads a on a.id = p.id
  join public.brands b on b.id = a.brand_id
  join public.categories c on c.id = a.category_id
  left join public.types ty on ty.id = a.type_id
  left join lateral (
    -- An explicit collation, so the order is the same whatever the database's locale.
    select jsonb_agg(g.name order by lower(g.name) collate "C", g.name collate "C") as names
      from public.ad_tags t join public.tags g on g.id = t.tag_id
     where t.ad_id = a.id) tg on true);
end;
$$;

-- Rules (a), (b) and (d) for one ad and one caller.
create or replace function private.ad_is_clear_for(p_ad public.ads, p_uid uuid, p_valid_access boolean, p_black_friday_access boolean)
returns boolean
language sql stable
security definer
set search_path = ''
as $$
  select p_valid_access
      or (p_ad.is_black_friday and p_black_friday_access)
      or not p_ad.requires_subscription
      or (p_uid is not null and exists (select 1 from public.ad_unlocks u where u.user_id = p_uid and u.ad_id = p_ad.id))
$$;

create or replace function private.black_friday_access(p_uid uuid) returns boolean
language sql stable
security definer
set search_path = ''
as $$
  select p_uid is not null and coalesce((select black_friday_access from public.profiles where user_id = p_uid), false)
$$;

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
    -- A broad search (one letter) matches most of the board: walk the board's ordered index.
    v_sql := 'select a.id, a.created_at from public.ads a where ' || v_conditions
      || ' and (a.brand_id = any ($8::uuid[]) or a.category_id = any ($9::uuid[])'
      || ' or exists (select 1 from public.ad_tags h where h.ad_id = a.id and h.tag_id = any ($10::uuid[])))'
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
    -- A tag filter alone walks the first tag's ordered index; the other tags are probed by the walked row.
    v_sql := 'select a.id, a.created_at from public.ad_tags t join public.ads a on a.id = t.ad_id where t.tag_id = ($4::uuid[])[1] and '
      || v_board
      || ' and not exists (select 1 from unnest(($4::uuid[])[2:]) w(id) where not exists '
      || '(select 1 from public.ad_tags h where h.ad_id = t.ad_id and h.tag_id = w.id))'
      || case when p_since is not null then ' and a.created_at >= $5' else '' end
      || case when p_since is not null then ' and t.ad_created_at >= $5' else '' end
      || case when v_cursor is not null then ' and (t.ad_created_at, t.ad_id) < ($6, $7)' else '' end
      || ' order by t.ad_created_at desc, t.ad_id desc limit 61';
  else
    v_sql := 'select a.id, a.created_at from public.ads a where ' || v_conditions
      || case when v_cursor is not null then ' and (a.created_at, a.id) < ($6, $7)' else '' end
      || ' order by a.created_at desc, a.id desc limit 61';
  end if;

  -- Ids and times in one statement: the cursor is signed with the time of the row shown.
  execute 'select coalesce(array_agg(r.id order by r.created_at desc, r.id desc), ''{}''),'
    || ' coalesce(array_agg(r.created_at order by r.created_at desc, r.id desc), ''{}'') from (' || v_sql || ') r'
    into v_ids, v_times
    using p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
          v_brand_ids, v_category_ids, v_tag_match_ids;

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

-- One ad for its detail page, or null when there is no such ad.
create or replace function public.get_ad(p_id uuid) returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select private.ad_json(a, private.ad_is_clear_for(a, (select auth.uid()), public.has_valid_access(),
                                                   private.black_friday_access((select auth.uid()))))
    from public.ads a
   where a.id = p_id
$$;
revoke execute on function public.get_ad(uuid) from public, anon, authenticated;
grant execute on function public.get_ad(uuid) to anon, authenticated, service_role;

-- The ads before and after one ad, newest first, wrapping; within the ad's own
-- side of the library (Black Friday or not). For callers with valid access only.
create or replace function public.get_ad_neighbours(p_id uuid) returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_ad public.ads;
  v_side text;
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
  -- The side as literal SQL, so each lookup walks that side's ordered partial index.
  v_side := case when v_ad.is_black_friday then 'a.is_black_friday' else 'not a.is_black_friday' end;
  execute format(
    'select coalesce('
    || '(select a.id from public.ads a where %1$s and (a.created_at, a.id) > ($1, $2) order by a.created_at, a.id limit 1),'
    || '(select a.id from public.ads a where %1$s order by a.created_at, a.id limit 1)),'
    || ' coalesce('
    || '(select a.id from public.ads a where %1$s and (a.created_at, a.id) < ($1, $2) order by a.created_at desc, a.id desc limit 1),'
    || '(select a.id from public.ads a where %1$s order by a.created_at desc, a.id desc limit 1))', v_side)
    into v_previous, v_next
    using v_ad.created_at, v_ad.id;
  return jsonb_build_object('previous_id', v_previous, 'next_id', v_next);
end;
$$;
revoke execute on function public.get_ad_neighbours(uuid) from public, anon, authenticated, service_role;
-- Anonymous callers too, so they get the named error rather than a bare permission error.
grant execute on function public.get_ad_neighbours(uuid) to anon, authenticated;

-- A page of 60 of the caller's board's ads, newest saved first, clear by rules (a), (b) and (d).
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
  v_bf_access boolean := private.black_friday_access((select auth.uid()));
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
           array_agg(private.ad_is_clear_for(page.a, v_uid, v_valid_access, v_bf_access) order by page.ord)
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
