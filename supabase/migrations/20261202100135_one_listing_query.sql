-- The listing is one plain query: list_ads takes the whole query as one jsonb and builds one statement from one
-- condition per filter and one keyset order per sort, which PostgreSQL plans (docs/decisions/0067). The planner's
-- strategies go with their functions, settings, the search lexicon, the search signatures, the period and running
-- words in the search vectors; 47 of the 56 indexes on public.ads give way to 11 (20 in all, 6 of them the
-- listing's); the dated orders read two keys kept on each ad.
-- The result is declared in supabase/schemas too; tests/sql/schema-drift.test.ts checks that both agree.

drop trigger ads_write_search on public.ads;

drop index public.ads_brand_order;
drop index public.ads_category_order;
drop index public.ads_type_order;
drop index public.ads_created_order;
drop index public.ads_hook_order;
drop index public.ads_seen_dates;
drop index public.ads_brand_running_since;
drop index public.ads_brand_ran_for;
drop index public.ads_brand_running;
drop index public.ads_brand_last_seen;
drop index public.ads_brand_undated;
drop index public.ads_undated;
drop index public.ads_library_order;
drop index public.ads_black_friday_order;
drop index public.ads_top_picks_order;
drop index public.ads_signed_running_since;
drop index public.ads_signed_ran_for;
drop index public.ads_signed_running;
drop index public.ads_signed_last_seen;
drop index public.ads_running_since;
drop index public.ads_ran_for;
drop index public.ads_running;
drop index public.ads_last_seen;
drop index public.ads_search;
drop index public.ads_running_lag_order;
drop index public.ads_ended_ran_order;
drop index public.ads_colour_beige_order;
drop index public.ads_colour_black_order;
drop index public.ads_colour_blue_order;
drop index public.ads_colour_brown_order;
drop index public.ads_colour_green_order;
drop index public.ads_colour_grey_order;
drop index public.ads_colour_orange_order;
drop index public.ads_colour_pink_order;
drop index public.ads_colour_purple_order;
drop index public.ads_colour_red_order;
drop index public.ads_colour_white_order;
drop index public.ads_colour_yellow_order;

alter table public.ads drop column search_signature;

drop function public.list_ads(p_board text, p_brand_id uuid, p_category_id uuid, p_type_id uuid, p_tag_ids uuid[], p_since timestamp with time zone, p_search text, p_cursor text, p_platforms text[], p_format text, p_offer text, p_hook_id uuid, p_min_running_days integer, p_still_running boolean, p_sort text, p_colour text);
drop function private.search_period_words(p_created_at timestamp with time zone);
drop function private.search_newest_by_periods(p_walked text, p_statement text, p_depth integer, p_need integer, p_hits integer, p_brand_id uuid, p_category_id uuid, p_type_id uuid, p_tags uuid[], p_since timestamp with time zone, p_after_at timestamp with time zone, p_after_id uuid, p_platforms text[], p_format text, p_offer text, p_hook_id uuid, p_min_running_days integer, p_today date, p_tsquery tsquery, p_phrase text);
drop function private.search_words_beginning(p_beginning text, p_limit integer);
drop function private.search_walk_depth(p_short integer, p_long integer, p_walk_on integer, p_found bigint, p_need integer);
drop function private.list_ads_page(p_board text, p_brand_id uuid, p_category_id uuid, p_type_id uuid, p_tag_ids uuid[], p_since timestamp with time zone, p_search text, p_cursor text, p_platforms text[], p_format text, p_offer text, p_hook_id uuid, p_min_running_days integer, p_still_running boolean, p_sort text, p_colour text);
drop function private.search_running_words(p_first_seen date, p_last_seen date, p_still_running boolean);
drop function private.ad_search_vector(p_search_text text, p_created_at timestamp with time zone, p_first_seen date, p_last_seen date, p_still_running boolean);
drop function private.search_running_blocks(p_statement text, p_rest text, p_stream text, p_first integer, p_after_id uuid, p_last integer, p_need integer, p_brand_id uuid, p_category_id uuid, p_type_id uuid, p_tags uuid[], p_since timestamp with time zone, p_platforms text[], p_format text, p_offer text, p_hook_id uuid, p_min_running_days integer, p_today date, p_tsquery tsquery, p_phrase text, OUT ids uuid[], OUT keys integer[]);
drop function private.search_words_containing(p_part text, p_limit integer);
drop function private.search_periods_query(p_level text, p_from timestamp with time zone, p_to timestamp with time zone);
drop function private.search_signature_match(p_folded text, p_words integer);
drop function private.search_signature_masks(p_folded text, p_words integer);
drop function private.ads_running_at_least(p_board text, p_since timestamp with time zone, p_category_id uuid, p_type_id uuid, p_platforms text[], p_format text, p_offer text, p_hook_id uuid, p_colour text, p_min_running_days integer, p_still_running boolean, p_today date, p_after_at timestamp with time zone, p_after_id uuid, p_query tsquery, p_phrase text, p_not_query tsquery, p_masks bit[], p_walk integer);
drop function private.ad_ran_bucket(p_first_seen date, p_last_seen date);
drop function private.search_running_cover(p_stream text, p_from integer, p_to integer, p_level integer);
drop function private.kept_statement(p_sql text, p_types text, p_values text);
drop function private.list_ads_statement(p_sql text, p1 uuid, p2 uuid, p3 uuid, p4 uuid[], p5 timestamp with time zone, p6 timestamp with time zone, p7 uuid, p8 text, p9 text, p10 text, p11 text, p12 text[], p13 text, p14 text, p15 uuid, p16 integer, p17 date, p18 tsquery, p19 text, p20 integer, p21 date);
drop function private.keep_statement(p_name text, p_sql text, p_types text);
drop function private.forget_kept_statements();
drop function private.ad_added_lag(p_created_at timestamp with time zone, p_first_seen date);
drop function private.search_word_bits(p_word text);
drop function private.search_signature(p_vector tsvector);

drop table private.search_lexicon;

alter table public.ads
  add column running_days_key integer not null default 0,
  add column last_seen_key date not null default '-infinity'::date;

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
  -- Each side as its own statement: a walk of the newest-first index from the ad, for one ad.
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
revoke all on function public.get_ad_neighbours(p_id uuid) from public, service_role;

create or replace function private.ads_write_search() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  new.search_text := private.ad_search_text(new);
  new.search_vector := private.search_words(new.search_text);
  return new;
end;
$$;
revoke all on function private.ads_write_search() from public;

-- A listing query as list_ads reads it from its jsonb argument: one field per filter, the cursor and the order.
create type private.ads_query as (
  board text,
  brand_id uuid,
  category_id uuid,
  type_id uuid,
  tag_ids uuid[],
  since timestamp with time zone,
  search text,
  cursor text,
  platforms text[],
  format text,
  offer text,
  hook_id uuid,
  min_running_days integer,
  still_running boolean,
  sort text,
  colour text
);

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
  q.tag_ids := nullif(array(select distinct t from unnest(q.tag_ids) t where t is not null order by t), '{}');
  if cardinality(q.tag_ids) > 10 then
    raise exception 'Too many tags (10 at most)' using errcode = 'P0001', detail = 'too_many_tags';
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
    case when q.brand_id is not null then 'a.brand_id = ($1).brand_id' end,
    case when q.category_id is not null then 'a.category_id = ($1).category_id' end,
    case when q.type_id is not null then 'a.type_id = ($1).type_id' end,
    (select string_agg(format('exists (select 1 from public.ad_tags t where t.ad_id = a.id and t.tag_id = ($1).tag_ids[%s])', n), ' and ')
       from generate_series(1, cardinality(q.tag_ids)) n),
    case when q.since is not null then 'a.created_at >= ($1).since' end,
    case when q.platforms is not null then 'a.platforms && ($1).platforms' end,
    case when q.format is not null then 'a.format = ($1).format' end,
    case when q.offer is not null then 'a.offer = ($1).offer' end,
    case when q.hook_id is not null then 'a.hook_id = ($1).hook_id' end,
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
  return private.ads_page_json(v_page_ids, v_page_clear, null, v_next_cursor);
end;
$$;
revoke all on function public.list_ads(p_query jsonb) from public;

-- The keys of the two dated orders, counted to today (UTC) as the cards count running days: the days an ad ran (0
-- without dates, so undated ads come last) and the last day it was seen (a running ad is seen today; undated,
-- -infinity). Written whenever an ad is written; private.count_running_days moves the running ads' keys on each day.
create or replace function private.ads_count_days() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  new.running_days_key := coalesce(private.running_days(new.first_seen, new.last_seen, new.still_running), 0);
  new.last_seen_key := case when new.still_running then greatest((now() at time zone 'UTC')::date, new.last_seen)
                            else coalesce(new.last_seen, '-infinity') end;
  return new;
end;
$$;
revoke all on function private.ads_count_days() from public;

-- The daily job's count: each running ad whose keys were counted before today is counted again (the trigger
-- above writes the keys); how many were.
create or replace function private.count_running_days() returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_counted integer;
begin
  update public.ads a set last_seen_key = (now() at time zone 'UTC')::date
   where a.still_running and a.last_seen_key < (now() at time zone 'UTC')::date;
  get diagnostics v_counted = row_count;
  return v_counted;
end;
$$;
revoke all on function private.count_running_days() from public;

-- The search vectors without the period and running words; the dated orders' keys, counted to today.
update public.ads a
   set search_vector = private.search_words(a.search_text),
       running_days_key = coalesce(private.running_days(a.first_seen, a.last_seen, a.still_running), 0),
       last_seen_key = case when a.still_running then greatest((now() at time zone 'UTC')::date, a.last_seen)
                            else coalesce(a.last_seen, '-infinity') end
 where a.first_seen is not null or a.search_vector <> private.search_words(a.search_text);

-- The indexes the listing reads (each answers a bench:db case; see bench/README): one per order, one per common
-- filter's newest-first walk, and the search's words and trigrams.
create index ads_newest on public.ads (created_at desc, id desc);

create index ads_longest_running on public.ads (running_days_key desc, id);

create index ads_recently_seen on public.ads (last_seen_key desc, id);

create index ads_brand_newest on public.ads (brand_id, created_at desc, id desc);

create index ads_category_newest on public.ads (category_id, created_at desc, id desc);

create index ads_search on public.ads using gin (search_vector, search_text extensions.gin_trgm_ops);

create trigger ads_write_search before insert or update of brand_id, category_id, type_id, card, headline,
    primary_text, landing_url, image_text
  on public.ads for each row execute function private.ads_write_search();

create trigger ads_count_days before insert or update on public.ads
  for each row execute function private.ads_count_days();

-- Schedules the daily jobs with pg_cron when it can, and says what it did.
create or replace function private.schedule_daily_tagging() returns text
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  if not exists (select 1 from pg_catalog.pg_available_extensions where name = 'pg_cron') then
    return 'pg_cron is not available';
  end if;
  begin
    create extension if not exists pg_cron with schema pg_catalog;
  exception when others then
    -- Installed but not preloaded (shared_preload_libraries), or not permitted.
    return 'pg_cron could not be enabled: ' || sqlerrm;
  end;
  -- By name, so running this again replaces the job instead of adding a second one.
  execute 'select cron.schedule($1, $2, $3)'
    using 'obyect-count-running-days', '0 0 * * *', 'select private.count_running_days()';
  execute 'select cron.schedule($1, $2, $3)'
    using 'obyect-tag-yesterdays-ads', '5 0 * * *', 'select private.tag_yesterdays_ads()';
  return 'scheduled';
end;
$$;
revoke all on function private.schedule_daily_tagging() from public;

select private.schedule_daily_tagging();

-- "More like this" and the near-duplicate lookup read one index each where they read two and four.
drop index public.ads_hook;
drop index public.ads_free_sample_latest;
drop index public.ads_free_sample_waiting;
drop index public.ads_visual_hash_q0;
drop index public.ads_visual_hash_q1;
drop index public.ads_visual_hash_q2;
drop index public.ads_visual_hash_q3;
drop index public.ads_colour_point_library;
drop index public.ads_colour_point_black_friday;

-- A hash's four quarters as one set of keys, each quarter's value shifted into its own range (the n-th quarter's
-- values are n * 65536 and up), for the one index that finds hashes sharing a quarter (ads_visual_hash). The API
-- roles that write an ad compute it for the index, so they may execute it; the schema stays closed to them.
create function private.hash_quarter_keys(p_hash bigint) returns integer[]
language sql immutable strict parallel safe
set search_path = ''
as $$
  select array[((p_hash >> 48) & 65535)::int, 65536 + ((p_hash >> 32) & 65535)::int,
               131072 + ((p_hash >> 16) & 65535)::int, 196608 + (p_hash & 65535)::int]
$$;
revoke all on function private.hash_quarter_keys(p_hash bigint) from public;
grant execute on function private.hash_quarter_keys(p_hash bigint) to authenticated, service_role;

create or replace function private.ads_near_hash(p_hash bigint, p_vector extensions.cube) returns table(id uuid, distance integer, created_at timestamp with time zone)
language plpgsql stable strict parallel safe
set search_path = ''
set max_parallel_workers_per_gather = 0
set jit = off
as $$
declare
  v_probes record;
begin
  select * into v_probes from private.hash_quarter_probes(p_hash);
  return query
    select a.id, private.hash_distance(a.visual_hash, p_hash), a.created_at
      from public.ads a
     where a.visual_hash is not null
       and private.hash_quarter_keys(a.visual_hash) operator(pg_catalog.&&)
           (v_probes.q0 || array(select 65536 + q from unnest(v_probes.q1) q)
            || array(select 131072 + q from unnest(v_probes.q2) q) || array(select 196608 + q from unnest(v_probes.q3) q))
       and private.hash_distance(a.visual_hash, p_hash) <= 7
       and extensions.cube_distance(a.visual_vector, p_vector) <= 0.3;
end;
$$;
revoke all on function private.ads_near_hash(p_hash bigint, p_vector extensions.cube) from public;

-- A hook's ads, newest first: the 30 that "more like this" reads, and a hook's deletion clearing it from its ads.
create index ads_hook_newest on public.ads (hook_id, created_at desc, id desc);

-- Hashes sharing a quarter with a probe (private.ads_near_hash).
create index ads_visual_hash on public.ads using gin (private.hash_quarter_keys(visual_hash)) where visual_hash is not null;

-- Nearest colour points ("more like this"; each board's ads are the nearest that pass its condition).
create index ads_colour_point on public.ads using gist (colour_point) where colour_point is not null;

-- The sample's members by when they joined (the latest leave first) and the ads that left it by when they joined
-- (the earliest come back first): one index read from either end.
create index ads_free_sample_since on public.ads (free_sample, free_sample_since, id);

-- A type's deletion clears it from its ads through this index.
create index ads_type on public.ads (type_id);
