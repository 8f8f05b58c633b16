-- Several values at once for brand, category, type and hook (any of them), language and country filters, and the
-- first page's total (counted up to 10,000, else the planner's estimate): the listing query's type gains the fields,
-- list_ads a condition each. The languages and countries of the ads are counted for the filters' options.
-- The result is declared in supabase/schemas too; tests/sql/schema-drift.test.ts checks that both agree.

drop function public.list_ads(p_query jsonb);
drop function private.read_ads_query(p_query jsonb);
drop type private.ads_query;

-- A listing query as list_ads reads it from its jsonb argument: one field per filter, the cursor and the order.
-- Brands, categories, types and hooks take several values (any of them); tags all of theirs.
create type private.ads_query as (
  board text,
  brand_ids uuid[],
  category_ids uuid[],
  type_ids uuid[],
  tag_ids uuid[],
  since timestamp with time zone,
  search text,
  cursor text,
  platforms text[],
  format text,
  offer text,
  hook_ids uuid[],
  language text,
  country text,
  min_running_days integer,
  still_running boolean,
  sort text,
  colour text
);

-- A list of ids as one set: each once, in order, without nulls; null when empty.
create or replace function private.id_set(p_ids uuid[]) returns uuid[]
language sql immutable parallel safe
set search_path = ''
as $$
  select nullif(array(select distinct i from unnest(p_ids) i where i is not null order by i), '{}')
$$;
revoke all on function private.id_set(p_ids uuid[]) from public;

-- The condition "the ad's column is one of the query's field": an equality for one value, which an index reads in
-- its order; = any for several.
create or replace function private.ads_one_of(p_column text, p_field text, p_values uuid[]) returns text
language sql immutable parallel safe
set search_path = ''
as $$
  select case when cardinality(p_values) = 1 then format('a.%I = ($1).%I[1]', p_column, p_field)
              when p_values is not null then format('a.%I = any (($1).%I)', p_column, p_field) end
$$;
revoke all on function private.ads_one_of(p_column text, p_field text, p_values uuid[]) from public;

-- p_query as a checked query: every field known and of its type, every value allowed, and the same query written
-- the same way (no empty search or lists, tags and platforms as sorted sets, relevance only with a search).
create or replace function private.read_ads_query(p_query jsonb) returns private.ads_query
language plpgsql stable
set search_path = ''
as $$
declare
  v_query jsonb := coalesce(p_query, '{}');
  v_field text;
  v_json_type text;
  q private.ads_query;
begin
  if jsonb_typeof(v_query) <> 'object' then
    raise exception 'The query must be an object' using errcode = 'P0001', detail = 'invalid_filter';
  end if;
  -- Each field by the JSON type its column takes (a list, a number, true or false, else a string), then by its value.
  for v_field, v_json_type in
    select k, case t.typcategory when 'A' then 'array' when 'N' then 'number' when 'B' then 'boolean' when 'S' then 'string'
                   when 'U' then 'string' when 'D' then 'string' end
      from jsonb_object_keys(v_query) k
      left join pg_catalog.pg_attribute c on c.attrelid = 'private.ads_query'::regclass and c.attname = k and c.attnum > 0
      left join pg_catalog.pg_type t on t.oid = c.atttypid
  loop
    if v_json_type is null then
      raise exception 'Unknown filter %', v_field using errcode = 'P0001', detail = 'invalid_filter';
    end if;
    begin
      if jsonb_typeof(v_query -> v_field) not in ('null', v_json_type) then
        raise exception using errcode = '22023';
      end if;
      perform jsonb_populate_record(null::private.ads_query, jsonb_build_object(v_field, v_query -> v_field));
    exception when others then
      raise exception 'The filter % does not have a value of its type', v_field using errcode = 'P0001', detail = 'invalid_filter';
    end;
  end loop;
  q := jsonb_populate_record(null::private.ads_query, v_query);

  q.board := coalesce(q.board, 'library');
  if q.board not in ('library', 'black-friday', 'top-picks') then
    raise exception 'Unknown board %', q.board using errcode = 'P0001', detail = 'unknown_board';
  end if;
  q.search := nullif(btrim(q.search), '');
  if char_length(q.search) > 100 then
    raise exception 'Search text is too long (100 characters at most)' using errcode = 'P0001', detail = 'search_too_long';
  end if;
  q.tag_ids := private.id_set(q.tag_ids);
  if cardinality(q.tag_ids) > 10 then
    raise exception 'Too many tags (10 at most)' using errcode = 'P0001', detail = 'too_many_tags';
  end if;
  q.brand_ids := private.id_set(q.brand_ids);
  q.category_ids := private.id_set(q.category_ids);
  q.type_ids := private.id_set(q.type_ids);
  q.hook_ids := private.id_set(q.hook_ids);
  if greatest(cardinality(q.brand_ids), cardinality(q.category_ids), cardinality(q.type_ids), cardinality(q.hook_ids)) > 10 then
    raise exception 'Too many values in one filter (10 at most)' using errcode = 'P0001', detail = 'invalid_filter';
  end if;
  if q.language !~ '^[a-z]{2}$' then
    raise exception 'A language is two lowercase letters (ISO 639-1)' using errcode = 'P0001', detail = 'invalid_filter';
  end if;
  if q.country !~ '^[A-Z]{2}$' then
    raise exception 'A country is two capital letters (ISO 3166-1)' using errcode = 'P0001', detail = 'invalid_filter';
  end if;
  if cardinality(q.platforms) > 7 or array_position(q.platforms, null) is not null
     or not coalesce(q.platforms, '{}') <@ array['meta', 'instagram', 'tiktok', 'youtube', 'pinterest', 'snapchat', 'google'] then
    raise exception 'Unknown platform' using errcode = 'P0001', detail = 'invalid_filter';
  end if;
  q.platforms := nullif(array(select distinct p from unnest(q.platforms) p order by p), '{}');
  if q.format not in ('single_image', 'carousel', 'video') then
    raise exception 'Unknown format %', q.format using errcode = 'P0001', detail = 'invalid_filter';
  end if;
  if q.offer not in ('discount', 'free_shipping', 'bundle', 'none') then
    raise exception 'Unknown offer %', q.offer using errcode = 'P0001', detail = 'invalid_filter';
  end if;
  if q.min_running_days not between 1 and 3650 then
    raise exception 'Running days must be 1 to 3650' using errcode = 'P0001', detail = 'invalid_filter';
  end if;
  if q.colour is not null and not exists (select 1 from private.colour_palette s where s.name = q.colour) then
    raise exception 'Unknown colour %', q.colour using errcode = 'P0001', detail = 'invalid_filter';
  end if;
  q.still_running := nullif(q.still_running, false);
  q.sort := coalesce(q.sort, 'newest');
  if q.sort not in ('newest', 'longest_running', 'recently_seen', 'relevance') then
    raise exception 'Unknown order %', q.sort using errcode = 'P0001', detail = 'unknown_sort';
  end if;
  if q.sort = 'relevance' and q.search is null then
    q.sort := 'newest';
  end if;
  return q;
end;
$$;
revoke all on function private.read_ads_query(p_query jsonb) from public;

-- The planner's plan of reading every ad a listing's conditions pass: its top node, with the rows it expects and
-- their cost. Volatile because PostgreSQL runs EXPLAIN only there; it reads no row, so the stable list_ads may call it.
create or replace function private.ads_plan(p_where text, p_query private.ads_query, p_words tsquery, p_anywhere text)
returns json
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_plan json;
begin
  execute 'explain (format json) select from public.ads a where ' || p_where into v_plan using p_query, p_words, p_anywhere;
  return v_plan -> 0 -> 'Plan';
end;
$$;
revoke all on function private.ads_plan(p_where text, p_query private.ads_query, p_words tsquery, p_anywhere text) from public;

-- One page (60 ads) of a listing query: every ad that passes each filter (one condition each), in the query's order,
-- after the cursor's ad. The page puts the ads the caller sees clear first, each part in the query's order; the
-- cursor is the page's last ad in the query's order, so no ad is skipped or repeated.
--
-- The orders and their keyset keys: newest, (created_at, id) descending; longest running, running_days_key
-- descending then id; recently seen, last_seen_key descending then id (the two keys are stored on the ad, counted to
-- the day: private.ads_count_days); relevance, the ads whose words match first, then those the text anywhere
-- matches, newest first within each (the tier is in the cursor).
create or replace function public.list_ads(p_query jsonb default '{}'::jsonb) returns json
language plpgsql
stable
security definer
set search_path = ''
set jit = off
as $$
declare
  c_page_size constant int := 60;
  -- The first page's total is counted when the planner expects at most this many ads, at most this cost to read
  -- them (about what a page of a selective filter costs, some 20 ms at 1,000,000 ads); else it is the estimate.
  c_counted_at_most constant int := 10000;
  c_count_cost_at_most constant int := 10000;
  q private.ads_query := private.read_ads_query(p_query);
  v_signed_in boolean := (select auth.uid()) is not null;
  v_valid_access boolean := public.has_valid_access();
  -- The query without its cursor: a cursor fits only the query it was made for.
  v_query_key text := md5((to_jsonb(q) - 'cursor' - 'since' || jsonb_build_object('since', private.iso_utc(q.since)))::text);
  v_after jsonb;
  v_folded text := private.search_fold(q.search);
  -- A search matches an ad whose words hold its words (the last one as a word's beginning) or whose text holds it.
  v_typed text[];
  v_words tsquery;
  v_anywhere text;
  v_match text;
  v_filters text;
  v_sql text;
  v_ids uuid[];
  v_page_ids uuid[];
  v_page_clear boolean[];
  v_next_cursor text;
  v_total bigint;
  v_total_is_estimate boolean := false;
  v_plan json;
begin
  if q.board = 'black-friday' and not v_signed_in then
    raise exception 'Sign in to open the Black Friday board' using errcode = '42501', detail = 'sign_in_required';
  end if;
  if q.cursor is not null then
    v_after := private.read_cursor(q.cursor, v_query_key);
  end if;
  if q.search is not null then
    v_typed := array(select w.word from regexp_split_to_table(regexp_replace(v_folded, '[[:space:][:punct:]]+', ' ', 'g'), ' ')
                                        with ordinality w (word, n)
                      where w.word <> '' order by w.n);
    v_words := (select string_agg(quote_literal(w.word) || case when w.n = cardinality(v_typed) then ':*' else '' end, ' & ' order by w.n)
                  from unnest(v_typed) with ordinality w (word, n))::tsquery;
    v_anywhere := '%' || replace(replace(replace(v_folded, '\', '\\'), '%', '\%'), '_', '\_') || '%';
    v_match := case when v_words is null then 'a.search_text like $3'
                    else '(a.search_vector @@ $2 or a.search_text like $3)' end;
  end if;

  -- One condition per filter; $1 is the query, $2 the search's words, $3 its text anywhere.
  v_filters := array_to_string(array[
    case q.board when 'library' then 'not a.is_black_friday' when 'black-friday' then 'a.is_black_friday'
                 else 'a.is_top_picks' end,
    private.ads_one_of('brand_id', 'brand_ids', q.brand_ids),
    private.ads_one_of('category_id', 'category_ids', q.category_ids),
    private.ads_one_of('type_id', 'type_ids', q.type_ids),
    (select string_agg(format('exists (select 1 from public.ad_tags t where t.ad_id = a.id and t.tag_id = ($1).tag_ids[%s])', n), ' and ')
       from generate_series(1, cardinality(q.tag_ids)) n),
    case when q.since is not null then 'a.created_at >= ($1).since' end,
    case when q.platforms is not null then 'a.platforms && ($1).platforms' end,
    case when q.format is not null then 'a.format = ($1).format' end,
    case when q.offer is not null then 'a.offer = ($1).offer' end,
    private.ads_one_of('hook_id', 'hook_ids', q.hook_ids),
    case when q.language is not null then 'a.language = ($1).language' end,
    case when q.country is not null then 'a.country = ($1).country' end,
    case when q.colour is not null then 'a.colour_swatches @> array[($1).colour]' end,
    case when q.min_running_days is not null then 'a.running_days_key >= ($1).min_running_days' end,
    case when q.still_running then 'a.still_running' end
  ], ' and ');

  -- One keyset order per sort: 61 ads after the cursor's ($4 its key, $5 its id), the 61st telling a page follows.
  v_sql := case q.sort
    when 'newest' then
      'select a.id from public.ads a where ' || v_filters || coalesce(' and ' || v_match, '')
      || case when v_after is not null then ' and (a.created_at, a.id) < ($4::timestamptz, $5)' else '' end
      || ' order by a.created_at desc, a.id desc limit 61'
    when 'longest_running' then
      'select a.id from public.ads a where ' || v_filters || coalesce(' and ' || v_match, '')
      || case when v_after is not null then ' and a.running_days_key <= $4::int and (a.running_days_key < $4::int or a.id > $5)' else '' end
      || ' order by a.running_days_key desc, a.id limit 61'
    when 'recently_seen' then
      'select a.id from public.ads a where ' || v_filters || coalesce(' and ' || v_match, '')
      || case when v_after is not null then ' and a.last_seen_key <= $4::date and (a.last_seen_key < $4::date or a.id > $5)' else '' end
      || ' order by a.last_seen_key desc, a.id limit 61'
    else
      -- Relevance: each tier newest first; the second is read only when the first leaves room on the page.
      'with words as materialized (select a.id, a.created_at from public.ads a where ' || v_filters
      || ' and a.search_vector @@ $2'
      || case when v_words is null or v_after ->> 'r' = '2' then ' and false'
              when v_after is not null then ' and (a.created_at, a.id) < ($4::timestamptz, $5)' else '' end
      || ' order by a.created_at desc, a.id desc limit 61) '
      || 'select r.id from ('
      || 'select w.id, 1 as tier, w.created_at from words w'
      || ' union all '
      || '(select a.id, 2 as tier, a.created_at from public.ads a where ' || v_filters
      || ' and a.search_text like $3 and not coalesce(a.search_vector @@ $2, false)'
      || case when v_after ->> 'r' = '2' then ' and (a.created_at, a.id) < ($4::timestamptz, $5)' else '' end
      || ' and (select count(*) from words) < 61'
      || ' order by a.created_at desc, a.id desc limit 61)'
      || ') r order by r.tier, r.created_at desc, r.id desc limit 61'
  end;
  execute 'select array(' || v_sql || ')' into v_ids
    using q, v_words, v_anywhere, v_after ->> 'k', (v_after ->> 'i')::uuid;

  -- The page, its clear ads first; the ads it holds and its cursor do not depend on who asks.
  select array_agg(p.id order by not p.clear, p.n), array_agg(p.clear order by not p.clear, p.n)
    into v_page_ids, v_page_clear
    from (select a.id, l.n, private.ad_is_clear_for(a, v_signed_in, v_valid_access) as clear
            from unnest(v_ids[1:c_page_size]) with ordinality l (id, n)
            join public.ads a on a.id = l.id) p;
  if cardinality(v_ids) > c_page_size then
    v_next_cursor := (
      select private.sign_cursor(jsonb_strip_nulls(jsonb_build_object(
               'q', v_query_key, 'i', a.id,
               'k', case q.sort when 'longest_running' then a.running_days_key::text
                                when 'recently_seen' then a.last_seen_key::text
                                else private.iso_utc(a.created_at) end,
               'r', case when q.sort = 'relevance' then
                      case when coalesce(a.search_vector @@ v_words, false) then 1 else 2 end end)))
        from public.ads a where a.id = v_ids[c_page_size]);
  end if;

  -- The first page says how many ads the query finds: a short page its own length; else a count that stops past
  -- c_counted_at_most, made only when the planner expects no more ads than that and a cheap read of them (a count
  -- must not cost more than the page); otherwise the planner's estimate.
  if q.cursor is null then
    v_total := coalesce(cardinality(v_ids), 0);
    if v_total > c_page_size then
      v_plan := private.ads_plan(v_filters || coalesce(' and ' || v_match, ''), q, v_words, v_anywhere);
      v_total := greatest(round((v_plan ->> 'Plan Rows')::numeric), c_page_size + 1);
      v_total_is_estimate := true;
      if v_total <= c_counted_at_most and (v_plan ->> 'Total Cost')::numeric <= c_count_cost_at_most then
        execute 'select count(*) from (select from public.ads a where ' || v_filters || coalesce(' and ' || v_match, '')
                || ' limit ' || (c_counted_at_most + 1) || ') x'
          into v_total using q, v_words, v_anywhere;
        v_total_is_estimate := v_total > c_counted_at_most;
      end if;
    end if;
  end if;
  return private.ads_json_text(v_page_ids, v_page_clear, null, '{"ads" : ',
    ', "next_cursor" : ' || coalesce('"' || v_next_cursor || '"', 'null')
    || coalesce(', "total" : ' || v_total || ', "total_is_estimate" : ' || v_total_is_estimate, '') || '}');
end;
$$;
revoke all on function public.list_ads(p_query jsonb) from public;

-- How many ads are in each language and for each country (the options of the library's language and country
-- filters), kept by the ads' count triggers.
create table private.ad_locale_counts (
  kind text not null,
  code text not null,
  ads bigint not null,
  constraint ad_locale_counts_pkey primary key (kind, code),
  constraint ad_locale_counts_kind_known check (kind in ('language', 'country')),
  constraint ad_locale_counts_not_negative check (ads >= 0)
);


alter table private.ad_locale_counts enable row level security;
revoke all on table private.ad_locale_counts from public, anon, authenticated;

insert into private.ad_locale_counts (kind, code, ads)
select l.kind, l.code, count(*)
  from public.ads a cross join lateral (values ('language', a.language), ('country', a.country)) l (kind, code)
 where l.code is not null
 group by l.kind, l.code;

create or replace function private.ads_count_inserted() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update private.ad_counts set total = total + (select count(*) from inserted) where singleton;
  insert into private.ad_locale_counts as c (kind, code, ads)
  select l.kind, l.code, count(*)
    from inserted i cross join lateral (values ('language', i.language), ('country', i.country)) l (kind, code)
   where l.code is not null
   group by l.kind, l.code
      on conflict (kind, code) do update set ads = c.ads + excluded.ads;
  return null;
end;
$$;

create or replace function private.ads_count_deleted() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update private.ad_counts set total = total - (select count(*) from deleted) where singleton;
  update private.ad_locale_counts c set ads = c.ads - d.ads
    from (select l.kind, l.code, count(*) as ads
            from deleted d cross join lateral (values ('language', d.language), ('country', d.country)) l (kind, code)
           where l.code is not null
           group by l.kind, l.code) d
   where c.kind = d.kind and c.code = d.code;
  return null;
end;
$$;

-- An ad's language or country changed: the old one counts one ad less, the new one one more.
create or replace function private.ads_count_locale_changed() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update private.ad_locale_counts c set ads = c.ads - 1
    from (values ('language', old.language, new.language), ('country', old.country, new.country)) l (kind, was, now)
   where c.kind = l.kind and c.code = l.was and l.was is distinct from l.now;
  insert into private.ad_locale_counts as c (kind, code, ads)
  select l.kind, l.now, 1
    from (values ('language', old.language, new.language), ('country', old.country, new.country)) l (kind, was, now)
   where l.now is not null and l.was is distinct from l.now
      on conflict (kind, code) do update set ads = c.ads + 1;
  return null;
end;
$$;
revoke all on function private.ads_count_locale_changed() from public;

-- The languages and the countries of the ads, each with its number of ads, most ads first: the options of the
-- library's language and country filters.
create or replace function public.list_ad_locales() returns json
language sql stable
security definer
set search_path = ''
as $$
  select json_build_object(
    'languages', coalesce((select json_agg(json_build_object('code', c.code, 'ads', c.ads) order by c.ads desc, c.code)
                             from private.ad_locale_counts c where c.kind = 'language' and c.ads > 0), '[]'),
    'countries', coalesce((select json_agg(json_build_object('code', c.code, 'ads', c.ads) order by c.ads desc, c.code)
                             from private.ad_locale_counts c where c.kind = 'country' and c.ads > 0), '[]'))
$$;
revoke all on function public.list_ad_locales() from public;

create or replace function private.ads_count_truncated() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update private.ad_counts set total = 0 where singleton;
  delete from private.ad_locale_counts where ads >= 0;
  return null;
end;
$$;

create trigger ads_count_locale_changed after update of language, country on public.ads
  for each row when (old.language is distinct from new.language or old.country is distinct from new.country)
  execute function private.ads_count_locale_changed();
