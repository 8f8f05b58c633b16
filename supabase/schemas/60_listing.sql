-- The library's listing: list_ads (one query as jsonb: boards, filters, search, running days, four orders, keyset
-- cursors signed with HMAC, the paywall decided per ad), the ad page (get_ad, get_ad_neighbours), the words the search
-- reads (search text and vector), the keys of the dated orders and the indexes the listing reads.

-- Function bodies may name tables of later files: they are checked when called, not when created.
set check_function_bodies = false;

-- The same cursor as before: the payload, '.', and the first 18 bytes of its HMAC-SHA-256, both base64url. Written
-- out in plpgsql, where each SQL helper (base64url_encode, hmac_sha256_with_pads) was a function with settings,
-- planned again at every call.
create or replace function private.sign_cursor(p_payload jsonb) returns text
language plpgsql stable
security definer
set search_path = ''
as $$
declare
  v_text bytea := convert_to(p_payload::text, 'UTF8');
  v_pads bytea := (select s.hmac_pads from private.settings s where s.key = 'cursor_secret');
begin
  return translate(encode(v_text, 'base64'), E'+/=\n', '-_') || '.'
    || translate(encode(substring(sha256(substring(v_pads from 65 for 64) || sha256(substring(v_pads from 1 for 64) || v_text))
                                  from 1 for 18), 'base64'), E'+/=\n', '-_');
end;
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

-- The same as jsonb, for the answers that are built on as jsonb (one ad, similar ads, near duplicates).
create or replace function private.ads_json(p_ids uuid[], p_clear boolean[], p_extra jsonb[] default null)
returns jsonb
language plpgsql stable
security definer
set search_path = ''
as $$
begin
  return private.ads_json_text(p_ids, p_clear, p_extra)::jsonb;
end;
$$;

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
revoke all on function public.get_ad(p_id uuid) from public;

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

-- The class of the user the verified claims name (null: not signed in). Called by the stack's API login with
-- the user id from a JWT it has verified, never through the API.
create or replace function private.answer_class_of(p_user_id uuid) returns text
language sql stable
security definer
set search_path = ''
as $$
  select case
    when p_user_id is null then 'anon'
    when private.user_has_valid_access(p_user_id) then 'access'
    else 'member'
  end
$$;
revoke all on function private.answer_class_of(p_user_id uuid) from public;

-- Text as the search compares it: lower case, accents removed.
create or replace function private.search_fold(p_text text) returns text
language sql stable parallel safe
set search_path = ''
as $$
  select lower(extensions.unaccent('extensions.unaccent'::regdictionary, coalesce(p_text, '')))
$$;
revoke all on function private.search_fold(p_text text) from public;

-- Everything the search reads of an ad, folded: its brand, category, type and tag names (from its card), headline,
-- primary text, landing page host and the words in its image, one per line.
create or replace function private.ad_search_text(p_ad public.ads) returns text
language sql stable
set search_path = ''
as $$
  select private.search_fold(concat_ws(e'\n',
    p_ad.card ->> 'brand_name', p_ad.card ->> 'category_name', p_ad.card ->> 'type_name',
    (select string_agg(n.name, e'\n') from json_array_elements_text(p_ad.card -> 'tag_names') n (name)),
    p_ad.headline, p_ad.primary_text, private.landing_host(p_ad.landing_url), p_ad.image_text))
$$;
revoke all on function private.ad_search_text(p_ad public.ads) from public;

-- The words of a folded text, split at spaces and punctuation, as both the document and a search are read.
create or replace function private.search_words(p_folded text) returns tsvector
language sql immutable parallel safe
set search_path = ''
as $$
  select pg_catalog.to_tsvector('pg_catalog.simple'::regconfig, regexp_replace(p_folded, '[[:space:][:punct:]]+', ' ', 'g'))
$$;
revoke all on function private.search_words(p_folded text) from public;

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


-- Many ads as one JSON array, in the given order, between p_before and p_after: each ad's clear state, a signed link
-- to its blurred preview when locked and to its display variants when clear (and to its video, for a video ad seen
-- clear), all signed for the current window, p_extra's keys, which must not be a card's, and then its card's keys.
-- A card is an object with an id, so its text is '{' followed by at least one key; signed links hold only
-- [A-Za-z0-9/_.?=-] (object names are checked to [A-Za-z0-9/_.-]), so they need no escaping in JSON. p_before and
-- p_after must make JSON of the array with them; the cast to json checks it.
create or replace function private.ads_json_text(p_ids uuid[], p_clear boolean[], p_extra jsonb[] default null,
                                                 p_before text default '', p_after text default '')
returns json
-- plpgsql keeps the query's plan for the session, and it is the generic one (docs/decisions/0043).
language plpgsql stable
security definer
set search_path = ''
set plan_cache_mode = force_generic_plan
as $$
declare
  v_key bytea := private.image_link_key();
  v_iat bigint := private.image_link_window_start(now());
  v_exp bigint := v_iat + 86400;
begin
  return (select string_agg(x.piece, x.delimiter order by x.ord)::json
    from (select 0::bigint as ord, coalesce(p_before, '') || '[' as piece, '' as delimiter
          union all
          select p.ord,
                 '{"is_clear": ' || coalesce(p.clear::text, 'null')
                   || ', "preview_url": ' || coalesce('"' || private.signed_image_link('ad-images', a.preview_path, t.preview, v_key) || '"', 'null')
                   || ', "display_480_url": ' || coalesce('"' || private.signed_image_link('ad-images', a.display_480_path, t.display_480, v_key) || '"', 'null')
                   || ', "display_960_url": ' || coalesce('"' || private.signed_image_link('ad-images', a.display_960_path, t.display_960, v_key) || '"', 'null')
                   || case when t.video is not null
                        then ', "video_url": "' || private.signed_image_link('ad-videos', a.video_path, t.video, v_key) || '"' else '' end
                   -- p_extra's keys without its braces.
                   || case when p.extra is null or p.extra = '{}'::jsonb then ''
                           else ', ' || substr(p.extra::text, 2, length(p.extra::text) - 2) end
                   || ', ' || right(a.card::text, -1),
                 -- The first ad found has no delimiter before it (an id asked for may have no ad).
                 case when p.ord = min(p.ord) over () then '' else ', ' end
            from unnest(p_ids, p_clear, coalesce(p_extra, array_fill(null::jsonb, array[coalesce(cardinality(p_ids), 0)])))
                   with ordinality as p (id, clear, extra, ord)
            join public.ads a on a.id = p.id
            -- Each token once: offset 0 keeps this subquery whole, where the planner would otherwise write each
            -- token's expression into both places signed_image_link uses it.
            cross join lateral (
              select case when not p.clear then private.image_link_token('ad-images', a.preview_path, v_iat, v_exp) end as preview,
                     case when p.clear then private.image_link_token('ad-images', a.display_480_path, v_iat, v_exp) end as display_480,
                     case when p.clear then private.image_link_token('ad-images', a.display_960_path, v_iat, v_exp) end as display_960,
                     case when p.clear and a.video_path is not null
                          then private.image_link_token('ad-videos', a.video_path, v_iat, v_exp) end as video
              offset 0) t
          union all
          select 9223372036854775807, ']' || coalesce(p_after, ''), '') x);
end;
$$;
revoke all on function private.ads_json_text(p_ids uuid[], p_clear boolean[], p_extra jsonb[], p_before text, p_after text) from public;

-- A list's answer, {"ads" : [...], "next_cursor" : ...}, written whole by ads_json_text. A signed cursor holds only
-- base64url letters and dots, so it needs no escaping. Plain SQL without settings, so the planner inlines it into
-- the caller's return and the answer is not copied once more.
create function private.ads_page_json(p_ids uuid[], p_clear boolean[], p_extra jsonb[], p_next_cursor text)
returns json
language sql stable
as $$
  select private.ads_json_text(p_ids, p_clear, p_extra,
    '{"ads" : ', ', "next_cursor" : ' || coalesce('"' || p_next_cursor || '"', 'null') || '}')
$$;
revoke all on function private.ads_page_json(p_ids uuid[], p_clear boolean[], p_extra jsonb[], p_next_cursor text) from public;

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
create or replace function private.ads_plan(p_from text, p_where text, p_query private.ads_query, p_words tsquery,
                                            p_anywhere text)
returns json
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_plan json;
begin
  execute 'explain (format json) select from ' || p_from || ' where ' || p_where into v_plan using p_query, p_words, p_anywhere;
  return v_plan -> 0 -> 'Plan';
end;
$$;
revoke all on function private.ads_plan(p_from text, p_where text, p_query private.ads_query, p_words tsquery, p_anywhere text)
  from public;

-- One page (60 ads) of a listing query: every ad that passes each filter (one condition each), in the query's order,
-- after the cursor's ad. The page puts the ads the caller sees clear first, each part in the query's order; the
-- cursor is the page's last ad in the query's order, so no ad is skipped or repeated.
--
-- The orders and their keyset keys: newest, (created_at, id) descending; longest running, running_days_key
-- descending then id; recently seen, last_seen_key descending then id (the two keys are stored on the ad, counted to
-- the day: private.ads_count_days); relevance, the ads whose words match first, then those the text anywhere
-- matches, newest first within each (the tier is in the cursor).
--
-- With tags, the ads are read from the first tag's rows of ad_tags (ad_id and tag_id are its key, so one row an ad),
-- and newest first is the order of those rows' copy of the ad's time (ad_created_at, the same value, kept by
-- ad_tags' triggers): ad_tags_tag_order holds a tag's ads in that order, so a page walks one tag's ads and checks
-- the others, where a walk of all ads checked every ad for every tag (bench:db "two tags" p50 at 1,000,000 ads: 60.9
-- -> 7.7 ms).
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
  -- One word typed alone is in the text of every ad with a word that begins with it, so its text is the whole
  -- condition (the words still rank the relevance order's first tier).
  v_typed text[];
  v_one_word boolean;
  v_words tsquery;
  v_anywhere text;
  v_match text;
  v_filters text;
  v_from text := 'public.ads a';
  v_newest text := 'a.created_at desc, a.id desc';
  v_newest_key text := '(a.created_at, a.id)';
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
    v_one_word := v_typed = array[v_folded];
    v_match := case when v_words is null or v_one_word then 'a.search_text like $3'
                    else '(a.search_vector @@ $2 or a.search_text like $3)' end;
  end if;

  if q.tag_ids is not null then
    v_from := 'public.ad_tags t join public.ads a on a.id = t.ad_id';
    v_newest := 't.ad_created_at desc, t.ad_id desc';
    v_newest_key := '(t.ad_created_at, t.ad_id)';
  end if;

  -- One condition per filter; $1 is the query, $2 the search's words, $3 its text anywhere.
  v_filters := array_to_string(array[
    case q.board when 'library' then 'not a.is_black_friday' when 'black-friday' then 'a.is_black_friday'
                 else 'a.is_top_picks' end,
    private.ads_one_of('brand_id', 'brand_ids', q.brand_ids),
    private.ads_one_of('category_id', 'category_ids', q.category_ids),
    private.ads_one_of('type_id', 'type_ids', q.type_ids),
    case when q.tag_ids is not null then 't.tag_id = ($1).tag_ids[1]' end,
    (select string_agg(format('exists (select 1 from public.ad_tags o where o.ad_id = a.id and o.tag_id = ($1).tag_ids[%s])', n), ' and ')
       from generate_series(2, cardinality(q.tag_ids)) n),
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
      'select a.id from ' || v_from || ' where ' || v_filters || coalesce(' and ' || v_match, '')
      || case when v_after is not null then ' and ' || v_newest_key || ' < ($4::timestamptz, $5)' else '' end
      || ' order by ' || v_newest || ' limit 61'
    when 'longest_running' then
      'select a.id from ' || v_from || ' where ' || v_filters || coalesce(' and ' || v_match, '')
      || case when v_after is not null then ' and a.running_days_key <= $4::int and (a.running_days_key < $4::int or a.id > $5)' else '' end
      || ' order by a.running_days_key desc, a.id limit 61'
    when 'recently_seen' then
      'select a.id from ' || v_from || ' where ' || v_filters || coalesce(' and ' || v_match, '')
      || case when v_after is not null then ' and a.last_seen_key <= $4::date and (a.last_seen_key < $4::date or a.id > $5)' else '' end
      || ' order by a.last_seen_key desc, a.id limit 61'
    else
      -- Relevance: each tier newest first; the second is read only when the first leaves room on the page.
      'with words as materialized (select a.id, a.created_at from ' || v_from || ' where ' || v_filters
      || ' and a.search_vector @@ $2'
      || case when v_words is null or v_after ->> 'r' = '2' then ' and false'
              when v_after is not null then ' and ' || v_newest_key || ' < ($4::timestamptz, $5)' else '' end
      || ' order by ' || v_newest || ' limit 61) '
      || 'select r.id from ('
      || 'select w.id, 1 as tier, w.created_at from words w'
      || ' union all '
      || '(select a.id, 2 as tier, a.created_at from ' || v_from || ' where ' || v_filters
      || ' and a.search_text like $3 and not coalesce(a.search_vector @@ $2, false)'
      || case when v_after ->> 'r' = '2' then ' and ' || v_newest_key || ' < ($4::timestamptz, $5)' else '' end
      || ' and (select count(*) from words) < 61'
      || ' order by ' || v_newest || ' limit 61)'
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
      v_plan := private.ads_plan(v_from, v_filters || coalesce(' and ' || v_match, ''), q, v_words, v_anywhere);
      v_total := greatest(round((v_plan ->> 'Plan Rows')::numeric), c_page_size + 1);
      v_total_is_estimate := true;
      if v_total <= c_counted_at_most and (v_plan ->> 'Total Cost')::numeric <= c_count_cost_at_most then
        execute 'select count(*) from (select from ' || v_from || ' where ' || v_filters || coalesce(' and ' || v_match, '')
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

-- The spec's flat fields, without any image path but the blurred preview.
create view public.ads_with_flags with (security_invoker = true) as
select a.id, a.brand_id, a.category_id, a.type_id, a.created_at, a.requires_subscription,
       a.is_black_friday, a.is_top_picks, a.width, a.height, a.thumbhash, a.preview_path,
       b.name as brand_name, b.logo_path as brand_logo_path, c.name as category_name, ty.name as type_name,
       coalesce(array(select g.name from public.ad_tags t join public.tags g on g.id = t.tag_id
                      where t.ad_id = a.id order by g.name), '{}') as tag_names
  from public.ads a
  join public.brands b on b.id = a.brand_id
  join public.categories c on c.id = a.category_id
  left join public.types ty on ty.id = a.type_id;

-- The indexes the listing reads (each answers a bench:db case; see bench/README): one per order, one per common
-- filter's newest-first walk, and the search's words and trigrams.
-- The running days ride in the newest index as a key column after the order's own, so "running at least N days,
-- newest first" checks them in the index and fetches only the ads that ran long enough: the newest weeks of ads
-- have not (bench:db p50 at 1,000,000 ads: "running >= 60 days" 61.3 -> 3.5 ms, with "sale" 68.1 -> 4.8 ms, with
-- purple 82.8 -> 8.1 ms).
create index ads_newest on public.ads (created_at desc, id desc, running_days_key);

create index ads_longest_running on public.ads (running_days_key desc, id);

create index ads_recently_seen on public.ads (last_seen_key desc, id);

create index ads_brand_newest on public.ads (brand_id, created_at desc, id desc);

create index ads_category_newest on public.ads (category_id, created_at desc, id desc);

-- A one-word search is planned by PostgreSQL's estimate of its text anywhere, read from a sample of the texts: 1,000
-- of them rather than 100, so a word in 0.5% of the ads is not estimated at none or at 1% (bench:db at 1,000,000
-- ads, docs/decisions/0071). ANALYZE of public.ads reads more rows for it.
alter table public.ads alter column search_text set statistics 1000;

-- The search's text anywhere by its trigrams, and its words. Where rum exists the words have a rum index of their
-- own: PostgreSQL prices a read of it by the ads it finds, so a word it has no statistics for (a typo, a part of a
-- word) is read from the index, where the GIN index's price sent the relevance order's first tier walking the
-- newest ads through the whole library (bench:db at 1,000,000 ads, docs/decisions/0071). Elsewhere (PGlite) the
-- words are the GIN index's first column.
do $$
begin
  if exists (select 1 from pg_catalog.pg_extension where extname = 'rum') then
    create index ads_search on public.ads using gin (search_text extensions.gin_trgm_ops);
    create index ads_search_words on public.ads using rum (search_vector extensions.rum_tsvector_ops);
  else
    create index ads_search on public.ads using gin (search_vector, search_text extensions.gin_trgm_ops);
  end if;
end
$$;

create trigger ads_write_search before insert or update of brand_id, category_id, type_id, card, headline,
    primary_text, landing_url, image_text
  on public.ads for each row execute function private.ads_write_search();

create trigger ads_count_days before insert or update on public.ads
  for each row execute function private.ads_count_days();

revoke all on table public.ads_with_flags from anon, authenticated;
grant select on table public.ads_with_flags to anon, authenticated;
