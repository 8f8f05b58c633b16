-- The library's listing: list_ads (boards, filters, search, running days, four orders, keyset cursors signed with
-- HMAC, the paywall decided per ad), the ad page (get_ad, get_ad_neighbours), the words the search reads (search text,
-- vector, lexicon and signatures) and the indexes its reads walk.

-- Function bodies may name tables of later files: they are checked when called, not when created.
set check_function_bodies = false;

-- Every word some ad's search document holds (never a period word). A word stays after its last ad goes: it then
-- only adds a word no ad has to a search.
create table private.search_lexicon (
  word text collate "C" primary key,
  constraint search_lexicon_word_not_empty check (word <> '')
);

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
  -- Each side as its own statement, so each lookup walks that side's ordered partial index.
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

-- As before, reading the card as json.
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
  new.search_vector := private.ad_search_vector(new.search_text, new.created_at, new.first_seen, new.last_seen,
                                                new.still_running);
  if tg_op = 'INSERT' or new.search_vector is distinct from old.search_vector then
    insert into private.search_lexicon (word)
      select w from unnest(pg_catalog.tsvector_to_array(new.search_vector)) w
       where left(w, 1) <> '~'
      on conflict do nothing;
  end if;
  return new;
end;
$$;
revoke all on function private.ads_write_search() from public;

-- How many days after its first sighting an ad was added (UTC days), the key of its stream: -1 for an ad first
-- seen after it was added, 0 to 31 day by day, then 32 (32 to 63 days), 33 (64 to 127), 34 (128 to 255), 35 (256 to
-- 511), 36 (512 to 1023) and 37 (1024 or more). Null without a first sighting. Both dates never change with today.
create or replace function private.ad_added_lag(p_created_at timestamptz, p_first_seen date) returns int
language sql immutable parallel safe
set search_path = ''
as $$
  select case when p_first_seen is null then null
              when (p_created_at at time zone 'UTC')::date - p_first_seen < 32
                then greatest((p_created_at at time zone 'UTC')::date - p_first_seen, -1)
              else 31 + pg_catalog.width_bucket((p_created_at at time zone 'UTC')::date - p_first_seen,
                                                array[32, 64, 128, 256, 512, 1024]) end
$$;
revoke all on function private.ad_added_lag(p_created_at timestamp with time zone, p_first_seen date) from public;
grant execute on function private.ad_added_lag(p_created_at timestamp with time zone, p_first_seen date) to authenticated, service_role;

-- The words of the day, month and year an ad was added, UTC: '~d20261127', '~m202611', '~y2026'. A typed search is
-- split at spaces and punctuation before it becomes words (list_ads, private.search_words), so none of its words
-- starts with '~' and no search finds an ad by its date.
create or replace function private.search_period_words(p_created_at timestamptz) returns tsvector
language sql stable parallel safe
set search_path = ''
as $$
  select pg_catalog.array_to_tsvector(array[
    '~d' || pg_catalog.to_char(p_created_at at time zone 'UTC', 'YYYYMMDD'),
    '~m' || pg_catalog.to_char(p_created_at at time zone 'UTC', 'YYYYMM'),
    '~y' || pg_catalog.to_char(p_created_at at time zone 'UTC', 'YYYY')])
$$;
revoke all on function private.search_period_words(p_created_at timestamp with time zone) from public;

-- A rare search's reads of the newest ads a period at a time, each read's statement kept prepared.
create or replace function private.search_newest_by_periods(
  p_walked text,
  p_statement text,
  p_depth int,
  p_need int,
  p_hits int,
  p_brand_id uuid, p_category_id uuid, p_type_id uuid, p_tags uuid[], p_since timestamptz,
  p_after_at timestamptz, p_after_id uuid,
  p_platforms text[], p_format text, p_offer text, p_hook_id uuid, p_min_running_days int, p_today date,
  p_tsquery tsquery, p_phrase text
) returns uuid[]
language plpgsql
set search_path = ''
as $$
declare
  -- A read expects at most c_fetch matches, and the page's rest with a quarter more when it needs fewer. Day words
  -- span at most c_days days, month words c_months months, year words c_years years.
  c_fetch constant int := 200;
  c_margin constant double precision := 1.25;
  c_days constant int := 31;
  c_months constant int := 24;
  c_years constant int := 64;
  c_short_reads constant int := 40;
  c_nil constant uuid := '00000000-0000-0000-0000-000000000000';
  v_walked int;
  v_first_at timestamptz;
  v_at timestamptz;
  v_id uuid;
  v_in timestamptz;
  v_oldest timestamptz := (select min(a.created_at) from public.ads a);
  v_found uuid[] := '{}';
  v_page uuid[];
  v_hits bigint := p_hits;
  v_seconds double precision;
  v_rate double precision;
  v_span double precision;
  v_from timestamptz;
  v_level text;
  v_start timestamptz;
  v_reads int := 0;
  v_indexscan text := current_setting('enable_indexscan');
  v_indexonlyscan text := current_setting('enable_indexonlyscan');
  v_seqscan text := current_setting('enable_seqscan');
begin
  execute private.list_ads_statement(p_walked, p_brand_id, p_category_id, p_type_id, p_tags, p_since, p_after_at, p_after_id,
                                     null, null, null, null, p_platforms, p_format, p_offer, p_hook_id, p_min_running_days, p_today,
                                     p_tsquery, p_phrase)
    into v_walked, v_first_at, v_at, v_id;
  if v_walked < p_depth or p_need <= 0 then
    return v_found;
  end if;
  v_seconds := greatest(extract(epoch from v_first_at - v_at), 1);
  -- A period's matches are found in the search index and fetched alone: never by walking an ordered index.
  perform set_config('enable_indexscan', 'off', true), set_config('enable_indexonlyscan', 'off', true),
          set_config('enable_seqscan', 'off', true);
  while cardinality(v_found) < p_need and v_at >= v_oldest loop
    -- The instant the read ends at: the position's own, or just below a period read before.
    v_in := v_at - case when v_id = c_nil then interval '1 microsecond' else interval '0' end;
    v_rate := greatest(v_hits, 1) / v_seconds;
    -- How far back the read reaches: the time the page's rest takes at the rate measured, at most c_fetch matches'.
    v_span := least((p_need - cardinality(v_found)) * c_margin, c_fetch) / v_rate;
    v_from := least(case when v_reads >= c_short_reads or v_span >= extract(epoch from v_in - v_oldest) then v_oldest
                         else v_in - make_interval(secs => v_span) end, v_in);
    v_level := case
      when (v_in at time zone 'UTC')::date - (v_from at time zone 'UTC')::date < c_days then 'day'
      when (extract(year from v_in at time zone 'UTC') - extract(year from v_from at time zone 'UTC')) * 12
           + extract(month from v_in at time zone 'UTC') - extract(month from v_from at time zone 'UTC') < c_months then 'month'
      else 'year' end;
    if v_level = 'year' then
      v_from := greatest(v_from, date_trunc('year', v_in, 'UTC') - make_interval(years => c_years - 1));
    end if;
    v_start := date_trunc(v_level, v_from, 'UTC');
    execute private.kept_statement(p_statement,
      'uuid, uuid, uuid, uuid[], timestamptz, timestamptz, uuid, text, text, text, text, text[], text, text, uuid, int, date, '
      || 'tsquery, text, tsquery, timestamptz, uuid, int',
      concat_ws(', ', quote_nullable(p_brand_id), quote_nullable(p_category_id), quote_nullable(p_type_id),
                quote_nullable(p_tags), quote_nullable(p_since), quote_nullable(p_after_at),
                quote_nullable(p_after_id), quote_nullable(null), quote_nullable(null), quote_nullable(null),
                quote_nullable(null), quote_nullable(p_platforms), quote_nullable(p_format), quote_nullable(p_offer),
                quote_nullable(p_hook_id), quote_nullable(p_min_running_days), quote_nullable(p_today),
                quote_nullable(p_tsquery), quote_nullable(p_phrase),
                quote_nullable(private.search_periods_query(v_level, v_start, v_in)), quote_nullable(v_at),
                quote_nullable(v_id), quote_nullable(p_need - cardinality(v_found))))
      into v_page;
    v_found := v_found || v_page;
    v_hits := v_hits + cardinality(v_page);
    v_seconds := v_seconds + greatest(extract(epoch from v_at - v_start), 1);
    -- Below the read: (t, id) < (its start, the least id) is t < its start.
    v_at := v_start;
    v_id := c_nil;
    v_reads := v_reads + 1;
  end loop;
  perform set_config('enable_indexscan', v_indexscan, true), set_config('enable_indexonlyscan', v_indexonlyscan, true),
          set_config('enable_seqscan', v_seqscan, true);
  return v_found;
end;
$$;
revoke all on function private.search_newest_by_periods(p_walked text, p_statement text, p_depth integer, p_need integer, p_hits integer, p_brand_id uuid, p_category_id uuid, p_type_id uuid, p_tags uuid[], p_since timestamp with time zone, p_after_at timestamp with time zone, p_after_id uuid, p_platforms text[], p_format text, p_offer text, p_hook_id uuid, p_min_running_days integer, p_today date, p_tsquery tsquery, p_phrase text) from public;

-- The words of the lexicon that begin with p_beginning, at most p_limit of them; null when there are more.
create or replace function private.search_words_beginning(p_beginning text, p_limit int) returns text[]
language sql stable parallel safe
set search_path = ''
as $$
  select case when count(*) <= p_limit then coalesce(array_agg(x.word order by x.word), '{}') end
    from (select l.word from private.search_lexicon l
           where l.word >= (p_beginning collate "C")
           order by l.word limit p_limit + 1) x
   where pg_catalog.starts_with(x.word, p_beginning)
$$;
revoke all on function private.search_words_beginning(p_beginning text, p_limit integer) from public;

-- How deep a search's walk of its order went: a walk p_short ads deep goes on to p_long in the same statement when
-- the p_found matches it met would fill the p_need it was asked for within p_walk_on more ads at that rate.
create or replace function private.search_walk_depth(p_short int, p_long int, p_walk_on int, p_found bigint, p_need int)
returns int
language sql immutable parallel safe
set search_path = ''
as $$
  select case when p_found * (p_walk_on + p_short) >= p_need::bigint * p_short then p_long else p_short end
$$;
revoke all on function private.search_walk_depth(p_short integer, p_long integer, p_walk_on integer, p_found bigint, p_need integer) from public;

-- The API's list_ads: the page, made again once with no statement kept should one it counted on be gone.
create or replace function public.list_ads(
  p_board text default 'library',
  p_brand_id uuid default null,
  p_category_id uuid default null,
  p_type_id uuid default null,
  p_tag_ids uuid[] default null,
  p_since timestamptz default null,
  p_search text default null,
  p_cursor text default null,
  p_platforms text[] default null,
  p_format text default null,
  p_offer text default null,
  p_hook_id uuid default null,
  p_min_running_days int default null,
  p_still_running boolean default null,
  p_sort text default 'newest',
  p_colour text default null
) returns json
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  return private.list_ads_page(p_board, p_brand_id, p_category_id, p_type_id, p_tag_ids, p_since, p_search, p_cursor, p_platforms, p_format, p_offer,
      p_hook_id, p_min_running_days, p_still_running, p_sort, p_colour);
exception when invalid_sql_statement_name then
  perform private.forget_kept_statements();
  return private.list_ads_page(p_board, p_brand_id, p_category_id, p_type_id, p_tag_ids, p_since, p_search, p_cursor, p_platforms, p_format, p_offer,
      p_hook_id, p_min_running_days, p_still_running, p_sort, p_colour);
end;
$$;
revoke all on function public.list_ads(p_board text, p_brand_id uuid, p_category_id uuid, p_type_id uuid, p_tag_ids uuid[], p_since timestamp with time zone, p_search text, p_cursor text, p_platforms text[], p_format text, p_offer text, p_hook_id uuid, p_min_running_days integer, p_still_running boolean, p_sort text, p_colour text) from public;

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

-- The words of an ad's place in the longest-running order, as no typed search can make them (decision 0040): a
-- running ad's key is its first sighting's day (days since 1970-01-01, ascending: the oldest has run longest), an
-- ended ad's is first_seen - last_seen (ascending: the longest run first); '~s' or '~e', the block's size as a power
-- of two (0, 3, 6, 9), '_', and the key shifted right by it: '~s9_39', '~e3_-5'. An undated ad has none.
create or replace function private.search_running_words(p_first_seen date, p_last_seen date, p_still_running boolean)
returns tsvector
language sql immutable parallel safe
set search_path = ''
as $$
  select pg_catalog.array_to_tsvector(coalesce(array(
    select s.stream || l.level || '_' || (s.key >> l.level)
      from (select case when p_still_running then '~s' else '~e' end as stream,
                   case when p_still_running then p_first_seen - date '1970-01-01' else p_first_seen - p_last_seen end as key
             where p_first_seen is not null and (p_still_running or p_last_seen is not null)) s
     cross join (values (0), (3), (6), (9)) as l (level)), '{}'))
$$;
revoke all on function private.search_running_words(p_first_seen date, p_last_seen date, p_still_running boolean) from public;

create function private.ad_search_vector(p_search_text text, p_created_at timestamptz, p_first_seen date,
                                         p_last_seen date, p_still_running boolean)
returns tsvector
language sql stable parallel safe
set search_path = ''
as $$
  select private.search_words(p_search_text) || private.search_period_words(p_created_at)
    || private.search_running_words(p_first_seen, p_last_seen, p_still_running)
$$;
revoke all on function private.ad_search_vector(p_search_text text, p_created_at timestamp with time zone, p_first_seen date, p_last_seen date, p_still_running boolean) from public;

-- A rare search's reads of the longest-running order a block at a time, its statement kept prepared.
create or replace function private.search_running_blocks(
  p_statement text,
  p_rest text,
  p_stream text,
  p_first int,
  p_after_id uuid,
  p_last int,
  p_need int,
  p_brand_id uuid, p_category_id uuid, p_type_id uuid, p_tags uuid[], p_since timestamptz,
  p_platforms text[], p_format text, p_offer text, p_hook_id uuid, p_min_running_days int, p_today date,
  p_tsquery tsquery, p_phrase text,
  out ids uuid[], out keys int[]
)
language plpgsql
set search_path = ''
as $$
declare
  c_cap constant int := 300;
  c_nil constant uuid := '00000000-0000-0000-0000-000000000000';
  v_key int := p_first;
  v_id uuid := coalesce(p_after_id, c_nil);
  v_level int := 9;
  -- Per level (0, 3, 6, 9 at 1..4; 12, the rest of the stream, at 5), the last key of a block of that level that
  -- held too many: not read again at that level until passed.
  v_crowded int[] := array[null, null, null, null, null]::int[];
  v_last int;
  v_count int;
  v_ids uuid[];
  v_keys int[];
  v_indexscan text := current_setting('enable_indexscan');
  v_indexonlyscan text := current_setting('enable_indexonlyscan');
  v_seqscan text := current_setting('enable_seqscan');
begin
  ids := '{}';
  keys := '{}';
  -- A block's matches are found in the search index and fetched alone: never by walking an ordered index.
  perform set_config('enable_indexscan', 'off', true), set_config('enable_indexonlyscan', 'off', true),
          set_config('enable_seqscan', 'off', true);
  while cardinality(ids) < p_need and v_key <= p_last loop
    while v_level > 0 and v_crowded[v_level / 3 + 1] >= v_key loop
      v_level := v_level - 3;
    end loop;
    v_last := case when v_level = 12 then p_last
                   else least(((v_key >> v_level) << v_level) + (1 << v_level) - 1, p_last) end;
    execute private.kept_statement(case when v_level = 12 then p_rest else p_statement end,
      'uuid, uuid, uuid, uuid[], timestamptz, timestamptz, uuid, text, text, text, text, text[], text, text, uuid, int, date, '
      || 'tsquery, text, tsquery, int, int, uuid, int',
      concat_ws(', ', quote_nullable(p_brand_id), quote_nullable(p_category_id), quote_nullable(p_type_id),
                quote_nullable(p_tags), quote_nullable(p_since), quote_nullable(null), quote_nullable(null),
                quote_nullable(null), quote_nullable(null), quote_nullable(null), quote_nullable(null),
                quote_nullable(p_platforms), quote_nullable(p_format), quote_nullable(p_offer),
                quote_nullable(p_hook_id), quote_nullable(p_min_running_days), quote_nullable(p_today),
                quote_nullable(p_tsquery), quote_nullable(p_phrase),
                quote_nullable(case when v_level < 12 then private.search_running_cover(p_stream, v_key, v_last, v_level) end),
                quote_nullable(v_key), quote_nullable(v_last), quote_nullable(v_id),
                quote_nullable(case when v_level > 0 then c_cap + 1 end)))
      into v_count, v_ids, v_keys;
    if v_count > c_cap and v_level > 0 then
      v_crowded[v_level / 3 + 1] := v_last;
      v_level := v_level - 3;
      continue;
    end if;
    ids := ids || v_ids[1:p_need - cardinality(ids)];
    keys := keys || v_keys[1:p_need - cardinality(keys)];
    v_key := v_last + 1;
    v_id := c_nil;
    if v_count * 8 <= c_cap and v_level < 12 then
      v_level := v_level + 3;
    elsif v_count * 2 > c_cap and v_level > 0 then
      v_level := v_level - 3;
    end if;
  end loop;
  perform set_config('enable_indexscan', v_indexscan, true), set_config('enable_indexonlyscan', v_indexonlyscan, true),
          set_config('enable_seqscan', v_seqscan, true);
end;
$$;
revoke all on function private.search_running_blocks(p_statement text, p_rest text, p_stream text, p_first integer, p_after_id uuid, p_last integer, p_need integer, p_brand_id uuid, p_category_id uuid, p_type_id uuid, p_tags uuid[], p_since timestamp with time zone, p_platforms text[], p_format text, p_offer text, p_hook_id uuid, p_min_running_days integer, p_today date, p_tsquery tsquery, p_phrase text, OUT ids uuid[], OUT keys integer[]) from public;

-- The words of the lexicon that hold p_part anywhere, at most p_limit of them; null when there are more.
create or replace function private.search_words_containing(p_part text, p_limit int) returns text[]
language plpgsql stable parallel safe
set search_path = ''
as $$
begin
  return (select case when count(*) <= p_limit then coalesce(array_agg(x.word order by x.word), '{}') end
            from (select l.word from private.search_lexicon l
                   where l.word like '%' || replace(replace(replace(p_part, '\', '\\'), '%', '\%'), '_', '\_') || '%'
                   limit p_limit + 1) x);
end;
$$;
revoke all on function private.search_words_containing(p_part text, p_limit integer) from public;

-- The words of every period of p_level ('day', 'month' or 'year', UTC) from the one holding p_from to the one holding
-- p_to, as one query that matches any of them.
create function private.search_periods_query(p_level text, p_from timestamptz, p_to timestamptz) returns tsquery
language sql stable parallel safe
set search_path = ''
as $$
  select pg_catalog.string_agg(pg_catalog.quote_literal(case p_level
           when 'day' then '~d' || pg_catalog.to_char(s.at, 'YYYYMMDD')
           when 'month' then '~m' || pg_catalog.to_char(s.at, 'YYYYMM')
           else '~y' || pg_catalog.to_char(s.at, 'YYYY') end), ' | ' order by s.at)::tsquery
    from pg_catalog.generate_series(pg_catalog.date_trunc(p_level, p_from at time zone 'UTC'),
                                    pg_catalog.date_trunc(p_level, p_to at time zone 'UTC'),
                                    ('1 ' || p_level)::interval) as s (at)
$$;
revoke all on function private.search_periods_query(p_level text, p_from timestamp with time zone, p_to timestamp with time zone) from public;

-- The condition on an ad's signature (alias a) that every ad matching a folded search meets, or null. Each run of
-- three or more ASCII letters of the search lies in one word of a matching ad, whether the ad matched by words or by
-- the text anywhere (decision 0048: the parser never splits a run of letters), so the ad's signature holds the bits
-- of one of the lexicon's words holding that run. A run held by more than p_words words adds no condition.
create or replace function private.search_signature_match(p_folded text, p_words int) returns text
language sql stable parallel safe
set search_path = ''
as $$
  select string_agg('(' || array_to_string(array(
           select format('(a.search_signature & %1$s::bit(256)) = %1$s::bit(256)', quote_literal(private.search_word_bits(w)::text))
             from unnest(c.words) w), ' or ') || ')', ' and ')
    from (select private.search_words_containing(m.run[1], 64) as words
            from regexp_matches(p_folded, '[a-z]{3,}', 'g') m (run) offset 0) c
   where cardinality(c.words) between 1 and p_words
$$;
revoke all on function private.search_signature_match(p_folded text, p_words integer) from public;

-- The masks of the one group of a search's signature bits (private.search_signature_match) with the fewest words:
-- an ad that matches the search holds both bits of one of them. Null when no group has 1 to p_words words.
create or replace function private.search_signature_masks(p_folded text, p_words int) returns bit(256)[]
language sql stable parallel safe
set search_path = ''
as $$
  select array(select private.search_word_bits(w) from unnest(c.words) w)
    from (select private.search_words_containing(m.run[1], 64) as words
            from regexp_matches(p_folded, '[a-z]{3,}', 'g') m (run) offset 0) c
   where cardinality(c.words) between 1 and p_words
   order by cardinality(c.words)
   limit 1
$$;
revoke all on function private.search_signature_masks(p_folded text, p_words integer) from public;

-- The newest 61 ads of a board (after the cursor) that ran at least p_min_running_days by p_today, pass the filters
-- and match the search (p_query as words, p_phrase as the text anywhere; both null for no search; p_masks the
-- signature bits one of which every match holds, at most 8, or null) but not p_not_query (null: nothing excluded;
-- the relevance order's second tier excludes the whole-word matches of its first). An ad that ran N days by today was first seen
-- on X = today - (N - 1) at the latest, unless it was last seen after today (UTC+14): one added k days after its first
-- sighting was added on X + k at the latest. The running ads are read in a stream per delay, which starts there:
-- every ad of a day-by-day stream below that start was first seen early enough. The ended ads are read in a stream
-- per bucket of days ran, only the buckets that reach N days. The few running ads first seen after X and last seen
-- after today come from an index of the dates. A stream is walked in its index, which holds the dates, the board and
-- the signature; the ads that pass are looked up for the rest. The streams are merged on the order's key, and each is
-- read only as far as the merge asks, passing at most p_walk ads (null: no bound). A stream's walk cut there says
-- nothing of its ads below the cut: when a stream holds more than p_walk ads above the page's last, the answer is
-- null, and the caller reads the page another way. The plan is kept for the session: the statement has the same
-- shape on every call.
create or replace function private.ads_running_at_least(p_board text, p_since timestamp with time zone, p_category_id uuid, p_type_id uuid, p_platforms text[], p_format text, p_offer text, p_hook_id uuid, p_colour text, p_min_running_days integer, p_still_running boolean, p_today date, p_after_at timestamp with time zone, p_after_id uuid, p_query tsquery, p_phrase text, p_not_query tsquery, p_masks bit[], p_walk integer) returns uuid[]
language plpgsql stable
set search_path = ''
set plan_cache_mode = force_generic_plan
set max_parallel_workers_per_gather = 0
as $$
declare
  -- X: the latest first sighting of an ad that ran the asked days by today (unless last seen after today).
  v_first_seen_by date := p_today - p_min_running_days + 1;
  -- The first instant after day X, in UTC.
  v_before timestamptz := ((v_first_seen_by + 1)::timestamp at time zone 'UTC');
  v_latest date := private.latest_today();
  v_since timestamptz := coalesce(p_since, '-infinity');
  v_running boolean := coalesce(p_still_running, false);
  -- The bucket of days ran that N days fall in: the ended ads' streams from there up can hold an ad run long enough.
  v_ended_from int := private.ad_ran_bucket(v_first_seen_by, p_today);
  v_after_at timestamptz := coalesce(p_after_at, 'infinity');
  v_after_id uuid := coalesce(p_after_id, 'ffffffff-ffff-ffff-ffff-ffffffffffff');
  -- No search: every ad matches.
  v_any boolean := p_query is null and p_phrase is null;
  -- Nothing to look up: the index decides.
  v_index_alone boolean := v_any and p_category_id is null and p_type_id is null and p_platforms is null and p_format is null
                           and p_offer is null and p_hook_id is null and p_colour is null;
  -- The signature masks, read from the array once: a variable is a parameter of the kept plan, which the conditions
  -- read as it is.
  v_mask1 bit(256) := p_masks[1];
  v_mask2 bit(256) := p_masks[2];
  v_mask3 bit(256) := p_masks[3];
  v_mask4 bit(256) := p_masks[4];
  v_mask5 bit(256) := p_masks[5];
  v_mask6 bit(256) := p_masks[6];
  v_mask7 bit(256) := p_masks[7];
  v_mask8 bit(256) := p_masks[8];
  v_ids uuid[];
  v_ats timestamptz[];
  -- The page's last ad (the 61st), below every ad when the page is not full.
  v_last_at timestamptz := '-infinity';
  v_last_id uuid := '00000000-0000-0000-0000-000000000000';
  v_cut boolean;
begin
  if cardinality(p_masks) > 8 then
    raise exception 'At most 8 signature masks' using errcode = '22023';
  end if;
  select coalesce(array_agg(s.id order by s.created_at desc, s.id desc), '{}'),
         coalesce(array_agg(s.created_at order by s.created_at desc, s.id desc), '{}')
    into v_ids, v_ats from (
    select s.id, s.created_at from (
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = -1 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '-24 hours', v_after_at), case when v_after_at <= v_before + interval '-24 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 0 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '0 hours', v_after_at), case when v_after_at <= v_before + interval '0 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 1 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '24 hours', v_after_at), case when v_after_at <= v_before + interval '24 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 2 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '48 hours', v_after_at), case when v_after_at <= v_before + interval '48 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 3 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '72 hours', v_after_at), case when v_after_at <= v_before + interval '72 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 4 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '96 hours', v_after_at), case when v_after_at <= v_before + interval '96 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 5 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '120 hours', v_after_at), case when v_after_at <= v_before + interval '120 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 6 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '144 hours', v_after_at), case when v_after_at <= v_before + interval '144 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 7 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '168 hours', v_after_at), case when v_after_at <= v_before + interval '168 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 8 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '192 hours', v_after_at), case when v_after_at <= v_before + interval '192 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 9 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '216 hours', v_after_at), case when v_after_at <= v_before + interval '216 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 10 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '240 hours', v_after_at), case when v_after_at <= v_before + interval '240 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 11 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '264 hours', v_after_at), case when v_after_at <= v_before + interval '264 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 12 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '288 hours', v_after_at), case when v_after_at <= v_before + interval '288 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 13 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '312 hours', v_after_at), case when v_after_at <= v_before + interval '312 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 14 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '336 hours', v_after_at), case when v_after_at <= v_before + interval '336 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 15 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '360 hours', v_after_at), case when v_after_at <= v_before + interval '360 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 16 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '384 hours', v_after_at), case when v_after_at <= v_before + interval '384 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 17 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '408 hours', v_after_at), case when v_after_at <= v_before + interval '408 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 18 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '432 hours', v_after_at), case when v_after_at <= v_before + interval '432 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 19 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '456 hours', v_after_at), case when v_after_at <= v_before + interval '456 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 20 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '480 hours', v_after_at), case when v_after_at <= v_before + interval '480 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 21 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '504 hours', v_after_at), case when v_after_at <= v_before + interval '504 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 22 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '528 hours', v_after_at), case when v_after_at <= v_before + interval '528 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 23 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '552 hours', v_after_at), case when v_after_at <= v_before + interval '552 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 24 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '576 hours', v_after_at), case when v_after_at <= v_before + interval '576 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 25 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '600 hours', v_after_at), case when v_after_at <= v_before + interval '600 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 26 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '624 hours', v_after_at), case when v_after_at <= v_before + interval '624 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 27 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '648 hours', v_after_at), case when v_after_at <= v_before + interval '648 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 28 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '672 hours', v_after_at), case when v_after_at <= v_before + interval '672 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 29 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '696 hours', v_after_at), case when v_after_at <= v_before + interval '696 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 30 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '720 hours', v_after_at), case when v_after_at <= v_before + interval '720 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 31 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '744 hours', v_after_at), case when v_after_at <= v_before + interval '744 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 32 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '1512 hours', v_after_at), case when v_after_at <= v_before + interval '1512 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 33 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '3048 hours', v_after_at), case when v_after_at <= v_before + interval '3048 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 34 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '6120 hours', v_after_at), case when v_after_at <= v_before + interval '6120 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 35 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '12264 hours', v_after_at), case when v_after_at <= v_before + interval '12264 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 36 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '24552 hours', v_after_at), case when v_after_at <= v_before + interval '24552 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 37 and w.created_at >= v_since and (w.created_at, w.id) < (v_after_at, v_after_id)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where not v_running and v_ended_from <= 0 and not w.still_running and w.first_seen is not null and w.last_seen is not null and private.ad_ran_bucket(w.first_seen, w.last_seen) = 0 and w.created_at >= v_since and (w.created_at, w.id) < (v_after_at, v_after_id)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.last_seen - w.first_seen + 1 >= p_min_running_days
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where not v_running and v_ended_from <= 1 and not w.still_running and w.first_seen is not null and w.last_seen is not null and private.ad_ran_bucket(w.first_seen, w.last_seen) = 1 and w.created_at >= v_since and (w.created_at, w.id) < (v_after_at, v_after_id)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.last_seen - w.first_seen + 1 >= p_min_running_days
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where not v_running and v_ended_from <= 2 and not w.still_running and w.first_seen is not null and w.last_seen is not null and private.ad_ran_bucket(w.first_seen, w.last_seen) = 2 and w.created_at >= v_since and (w.created_at, w.id) < (v_after_at, v_after_id)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.last_seen - w.first_seen + 1 >= p_min_running_days
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where not v_running and v_ended_from <= 3 and not w.still_running and w.first_seen is not null and w.last_seen is not null and private.ad_ran_bucket(w.first_seen, w.last_seen) = 3 and w.created_at >= v_since and (w.created_at, w.id) < (v_after_at, v_after_id)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.last_seen - w.first_seen + 1 >= p_min_running_days
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where not v_running and v_ended_from <= 4 and not w.still_running and w.first_seen is not null and w.last_seen is not null and private.ad_ran_bucket(w.first_seen, w.last_seen) = 4 and w.created_at >= v_since and (w.created_at, w.id) < (v_after_at, v_after_id)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.last_seen - w.first_seen + 1 >= p_min_running_days
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where not v_running and v_ended_from <= 5 and not w.still_running and w.first_seen is not null and w.last_seen is not null and private.ad_ran_bucket(w.first_seen, w.last_seen) = 5 and w.created_at >= v_since and (w.created_at, w.id) < (v_after_at, v_after_id)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.last_seen - w.first_seen + 1 >= p_min_running_days
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where not v_running and v_ended_from <= 6 and not w.still_running and w.first_seen is not null and w.last_seen is not null and private.ad_ran_bucket(w.first_seen, w.last_seen) = 6 and w.created_at >= v_since and (w.created_at, w.id) < (v_after_at, v_after_id)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.last_seen - w.first_seen + 1 >= p_min_running_days
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where not v_running and v_ended_from <= 7 and not w.still_running and w.first_seen is not null and w.last_seen is not null and private.ad_ran_bucket(w.first_seen, w.last_seen) = 7 and w.created_at >= v_since and (w.created_at, w.id) < (v_after_at, v_after_id)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.last_seen - w.first_seen + 1 >= p_min_running_days
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where not v_running and v_ended_from <= 8 and not w.still_running and w.first_seen is not null and w.last_seen is not null and private.ad_ran_bucket(w.first_seen, w.last_seen) = 8 and w.created_at >= v_since and (w.created_at, w.id) < (v_after_at, v_after_id)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.last_seen - w.first_seen + 1 >= p_min_running_days
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where not v_running and v_ended_from <= 9 and not w.still_running and w.first_seen is not null and w.last_seen is not null and private.ad_ran_bucket(w.first_seen, w.last_seen) = 9 and w.created_at >= v_since and (w.created_at, w.id) < (v_after_at, v_after_id)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.last_seen - w.first_seen + 1 >= p_min_running_days
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where not v_running and v_ended_from <= 10 and not w.still_running and w.first_seen is not null and w.last_seen is not null and private.ad_ran_bucket(w.first_seen, w.last_seen) = 10 and w.created_at >= v_since and (w.created_at, w.id) < (v_after_at, v_after_id)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.last_seen - w.first_seen + 1 >= p_min_running_days
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where not v_running and v_ended_from <= 11 and not w.still_running and w.first_seen is not null and w.last_seen is not null and private.ad_ran_bucket(w.first_seen, w.last_seen) = 11 and w.created_at >= v_since and (w.created_at, w.id) < (v_after_at, v_after_id)
                order by w.created_at desc, w.id desc limit p_walk) w
        where true
          and w.last_seen - w.first_seen + 1 >= p_min_running_days
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false) offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all
      -- Running, first seen after X, yet run long enough by a last sighting after today in UTC (decision 0031's
      -- UTC+14 rule): a few days of first sightings at most, read in the index of the dates. The fence keeps the
      -- order's index out, and whether the ad is running is checked above it: below it, the running ads' index by
      -- first sighting, which holds no last sighting, would read every running ad of those days from the table.
      (select e.id, e.created_at from (select a.id, a.created_at, a.still_running from public.ads a
        where a.first_seen > v_first_seen_by and a.first_seen <= v_latest - p_min_running_days + 1 and a.last_seen > p_today
          and case p_board when 'library' then not a.is_black_friday when 'black-friday' then a.is_black_friday else a.is_top_picks end
          and a.last_seen - a.first_seen + 1 >= p_min_running_days
          and (p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false)
        offset 0) e
        where e.still_running and e.created_at >= v_since and (e.created_at, e.id) < (v_after_at, v_after_id)
        order by e.created_at desc, e.id desc limit 61)
    ) s
    order by s.created_at desc, s.id desc
    limit 61
  ) s;
  -- A walk cut above the page's last ad may have missed an ad of the page: the caller reads the page another way.
  if p_walk is not null then
    if cardinality(v_ids) = 61 then
      v_last_at := v_ats[61];
      v_last_id := v_ids[61];
    end if;
    select (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = -1 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '-24 hours', v_after_at), case when v_after_at <= v_before + interval '-24 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 0 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '0 hours', v_after_at), case when v_after_at <= v_before + interval '0 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 1 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '24 hours', v_after_at), case when v_after_at <= v_before + interval '24 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 2 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '48 hours', v_after_at), case when v_after_at <= v_before + interval '48 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 3 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '72 hours', v_after_at), case when v_after_at <= v_before + interval '72 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 4 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '96 hours', v_after_at), case when v_after_at <= v_before + interval '96 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 5 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '120 hours', v_after_at), case when v_after_at <= v_before + interval '120 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 6 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '144 hours', v_after_at), case when v_after_at <= v_before + interval '144 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 7 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '168 hours', v_after_at), case when v_after_at <= v_before + interval '168 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 8 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '192 hours', v_after_at), case when v_after_at <= v_before + interval '192 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 9 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '216 hours', v_after_at), case when v_after_at <= v_before + interval '216 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 10 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '240 hours', v_after_at), case when v_after_at <= v_before + interval '240 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 11 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '264 hours', v_after_at), case when v_after_at <= v_before + interval '264 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 12 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '288 hours', v_after_at), case when v_after_at <= v_before + interval '288 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 13 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '312 hours', v_after_at), case when v_after_at <= v_before + interval '312 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 14 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '336 hours', v_after_at), case when v_after_at <= v_before + interval '336 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 15 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '360 hours', v_after_at), case when v_after_at <= v_before + interval '360 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 16 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '384 hours', v_after_at), case when v_after_at <= v_before + interval '384 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 17 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '408 hours', v_after_at), case when v_after_at <= v_before + interval '408 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 18 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '432 hours', v_after_at), case when v_after_at <= v_before + interval '432 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 19 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '456 hours', v_after_at), case when v_after_at <= v_before + interval '456 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 20 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '480 hours', v_after_at), case when v_after_at <= v_before + interval '480 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 21 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '504 hours', v_after_at), case when v_after_at <= v_before + interval '504 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 22 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '528 hours', v_after_at), case when v_after_at <= v_before + interval '528 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 23 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '552 hours', v_after_at), case when v_after_at <= v_before + interval '552 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 24 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '576 hours', v_after_at), case when v_after_at <= v_before + interval '576 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 25 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '600 hours', v_after_at), case when v_after_at <= v_before + interval '600 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 26 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '624 hours', v_after_at), case when v_after_at <= v_before + interval '624 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 27 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '648 hours', v_after_at), case when v_after_at <= v_before + interval '648 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 28 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '672 hours', v_after_at), case when v_after_at <= v_before + interval '672 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 29 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '696 hours', v_after_at), case when v_after_at <= v_before + interval '696 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 30 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '720 hours', v_after_at), case when v_after_at <= v_before + interval '720 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 31 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '744 hours', v_after_at), case when v_after_at <= v_before + interval '744 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 32 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '1512 hours', v_after_at), case when v_after_at <= v_before + interval '1512 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 33 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '3048 hours', v_after_at), case when v_after_at <= v_before + interval '3048 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 34 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '6120 hours', v_after_at), case when v_after_at <= v_before + interval '6120 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 35 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '12264 hours', v_after_at), case when v_after_at <= v_before + interval '12264 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 36 and w.created_at >= v_since and (w.created_at, w.id) < (least(v_before + interval '24552 hours', v_after_at), case when v_after_at <= v_before + interval '24552 hours' then v_after_id else 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid end)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where true and w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = 37 and w.created_at >= v_since and (w.created_at, w.id) < (v_after_at, v_after_id)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where not v_running and v_ended_from <= 0 and not w.still_running and w.first_seen is not null and w.last_seen is not null and private.ad_ran_bucket(w.first_seen, w.last_seen) = 0 and w.created_at >= v_since and (w.created_at, w.id) < (v_after_at, v_after_id)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where not v_running and v_ended_from <= 1 and not w.still_running and w.first_seen is not null and w.last_seen is not null and private.ad_ran_bucket(w.first_seen, w.last_seen) = 1 and w.created_at >= v_since and (w.created_at, w.id) < (v_after_at, v_after_id)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where not v_running and v_ended_from <= 2 and not w.still_running and w.first_seen is not null and w.last_seen is not null and private.ad_ran_bucket(w.first_seen, w.last_seen) = 2 and w.created_at >= v_since and (w.created_at, w.id) < (v_after_at, v_after_id)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where not v_running and v_ended_from <= 3 and not w.still_running and w.first_seen is not null and w.last_seen is not null and private.ad_ran_bucket(w.first_seen, w.last_seen) = 3 and w.created_at >= v_since and (w.created_at, w.id) < (v_after_at, v_after_id)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where not v_running and v_ended_from <= 4 and not w.still_running and w.first_seen is not null and w.last_seen is not null and private.ad_ran_bucket(w.first_seen, w.last_seen) = 4 and w.created_at >= v_since and (w.created_at, w.id) < (v_after_at, v_after_id)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where not v_running and v_ended_from <= 5 and not w.still_running and w.first_seen is not null and w.last_seen is not null and private.ad_ran_bucket(w.first_seen, w.last_seen) = 5 and w.created_at >= v_since and (w.created_at, w.id) < (v_after_at, v_after_id)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where not v_running and v_ended_from <= 6 and not w.still_running and w.first_seen is not null and w.last_seen is not null and private.ad_ran_bucket(w.first_seen, w.last_seen) = 6 and w.created_at >= v_since and (w.created_at, w.id) < (v_after_at, v_after_id)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where not v_running and v_ended_from <= 7 and not w.still_running and w.first_seen is not null and w.last_seen is not null and private.ad_ran_bucket(w.first_seen, w.last_seen) = 7 and w.created_at >= v_since and (w.created_at, w.id) < (v_after_at, v_after_id)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where not v_running and v_ended_from <= 8 and not w.still_running and w.first_seen is not null and w.last_seen is not null and private.ad_ran_bucket(w.first_seen, w.last_seen) = 8 and w.created_at >= v_since and (w.created_at, w.id) < (v_after_at, v_after_id)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where not v_running and v_ended_from <= 9 and not w.still_running and w.first_seen is not null and w.last_seen is not null and private.ad_ran_bucket(w.first_seen, w.last_seen) = 9 and w.created_at >= v_since and (w.created_at, w.id) < (v_after_at, v_after_id)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where not v_running and v_ended_from <= 10 and not w.still_running and w.first_seen is not null and w.last_seen is not null and private.ad_ran_bucket(w.first_seen, w.last_seen) = 10 and w.created_at >= v_since and (w.created_at, w.id) < (v_after_at, v_after_id)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)
      or (select count(*) > p_walk from (select 1 from public.ads w where not v_running and v_ended_from <= 11 and not w.still_running and w.first_seen is not null and w.last_seen is not null and private.ad_ran_bucket(w.first_seen, w.last_seen) = 11 and w.created_at >= v_since and (w.created_at, w.id) < (v_after_at, v_after_id)
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c) into v_cut;
    if v_cut then
      return null;
    end if;
  end if;
  return v_ids;
end;
$$;
revoke all on function private.ads_running_at_least(p_board text, p_since timestamp with time zone, p_category_id uuid, p_type_id uuid, p_platforms text[], p_format text, p_offer text, p_hook_id uuid, p_colour text, p_min_running_days integer, p_still_running boolean, p_today date, p_after_at timestamp with time zone, p_after_id uuid, p_query tsquery, p_phrase text, p_not_query tsquery, p_masks bit[], p_walk integer) from public;

-- How long an ended ad ran (its last sighting minus its first, plus one), as the key of its stream: 0 under 7 days,
-- then 1 (7 to 13), 2 (14 to 29), 3 (30 to 44), 4 (45 to 59), 5 (60 to 89), 6 (90 to 119), 7 (120 to 179), 8 (180 to
-- 269), 9 (270 to 364), 10 (365 to 729), 11 (730 or more). Null without both sightings. Neither date changes with
-- today.
create function private.ad_ran_bucket(p_first_seen date, p_last_seen date) returns int
language sql immutable parallel safe
set search_path = ''
as $$
  select case when p_first_seen is null or p_last_seen is null then null
              else pg_catalog.width_bucket(p_last_seen - p_first_seen + 1, array[7, 14, 30, 45, 60, 90, 120, 180, 270, 365, 730]) end
$$;
revoke all on function private.ad_ran_bucket(p_first_seen date, p_last_seen date) from public;
grant execute on function private.ad_ran_bucket(p_first_seen date, p_last_seen date) to authenticated, service_role;

-- The words of the blocks of a stream ('~s' or '~e', as private.search_running_words writes them) that hold the keys
-- p_from to p_to (none when p_from > p_to), as one query: the blocks of the widest level, p_level (0, 3, 6 or 9) or
-- narrower, whose blocks together hold at most twice as many keys as asked (a one-day block holds one). Each word
-- costs the search index a lookup, and a wider block's matches outside the range are fetched from the table only to
-- be dropped: the range's own blocks of the next level down would hold fewer than half of them. For keys within one
-- block of p_level, as its caller asks, that is at most 13 words.
create function private.search_running_cover(p_stream text, p_from int, p_to int, p_level int) returns tsquery
language plpgsql immutable parallel safe
set search_path = ''
as $$
declare
  v_level int := p_level;
begin
  if p_stream not in ('~s', '~e') or p_level not in (0, 3, 6, 9) then
    raise exception 'Unknown block stream % or level %', p_stream, p_level using errcode = '22023';
  end if;
  if p_from > p_to then
    return null;
  end if;
  -- The keys the blocks of v_level hold from p_from's to p_to's: ((p_to >> v_level) - (p_from >> v_level) + 1) << v_level.
  while v_level > 0 and ((p_to >> v_level) - (p_from >> v_level) + 1)::bigint << v_level > 2 * (p_to::bigint - p_from + 1) loop
    v_level := v_level - 3;
  end loop;
  return (select string_agg(pg_catalog.quote_literal(p_stream || v_level || '_' || b), ' | ' order by b)
            from generate_series(p_from >> v_level, p_to >> v_level) b)::tsquery;
end;
$$;
revoke all on function private.search_running_cover(p_stream text, p_from integer, p_to integer, p_level integer) from public;

-- The command that runs a statement with its values, `execute obyect_<md5>(values)`, the statement prepared first
-- under that name (drawn from its parameters' types and its text) if this session has not kept it. A prepared
-- statement takes its values only as literals: p_values is their list, each written by quote_nullable.
create or replace function private.kept_statement(p_sql text, p_types text, p_values text)
returns text
language plpgsql
volatile
set search_path = ''
as $$
declare
  v_name text := 'obyect_' || md5(p_types || ';' || p_sql);
begin
  if strpos(coalesce(current_setting('obyect.kept_statements', true), ''), v_name) = 0 then
    perform private.keep_statement(v_name, p_sql, p_types);
  end if;
  return 'execute ' || v_name || '(' || p_values || ')';
end;
$$;
revoke all on function private.kept_statement(p_sql text, p_types text, p_values text) from public;

-- A statement of list_ads with list_ads' values ($1 to $21; $8 to $11 are unused).
create or replace function private.list_ads_statement(
  p_sql text,
  p1 uuid, p2 uuid, p3 uuid, p4 uuid[], p5 timestamptz, p6 timestamptz, p7 uuid,
  p8 text, p9 text, p10 text, p11 text, p12 text[], p13 text, p14 text, p15 uuid, p16 int, p17 date,
  p18 tsquery, p19 text, p20 int default null, p21 date default null
) returns text
language plpgsql
volatile
set search_path = ''
as $$
begin
  return private.kept_statement(p_sql,
    'uuid, uuid, uuid, uuid[], timestamptz, timestamptz, uuid, text, text, text, text, text[], text, text, uuid, int, date, tsquery, text, int, date',
    concat_ws(', ', quote_nullable(p1), quote_nullable(p2), quote_nullable(p3), quote_nullable(p4), quote_nullable(p5),
              quote_nullable(p6), quote_nullable(p7), quote_nullable(p8), quote_nullable(p9), quote_nullable(p10),
              quote_nullable(p11), quote_nullable(p12), quote_nullable(p13), quote_nullable(p14), quote_nullable(p15),
              quote_nullable(p16), quote_nullable(p17), quote_nullable(p18), quote_nullable(p19), quote_nullable(p20),
              quote_nullable(p21)));
end;
$$;
revoke all on function private.list_ads_statement(p_sql text, p1 uuid, p2 uuid, p3 uuid, p4 uuid[], p5 timestamp with time zone, p6 timestamp with time zone, p7 uuid, p8 text, p9 text, p10 text, p11 text, p12 text[], p13 text, p14 text, p15 uuid, p16 integer, p17 date, p18 tsquery, p19 text, p20 integer, p21 date) from public;

-- Prepares a statement under its name, unless the session holds it already (a transaction that rolled back forgets
-- the setting, not the statement), and lists it last in obyect.kept_statements. Past 64 the oldest are let go, and
-- so is any statement of ours the list does not name.
create or replace function private.keep_statement(p_name text, p_sql text, p_types text)
returns void
language plpgsql
volatile
set search_path = ''
as $$
declare
  c_kept constant int := 64;
  v_kept text[] := array_remove(coalesce(string_to_array(nullif(current_setting('obyect.kept_statements', true), ''), ' '), '{}'), p_name);
  v_held text[] := array(select s.name from pg_catalog.pg_prepared_statements s where s.name like 'obyect\_%');
  v_gone text;
begin
  if p_name !~ '^obyect_[0-9a-f]{32}$' then
    raise exception 'Not a kept statement''s name: %', p_name;
  end if;
  v_kept := v_kept[greatest(1, cardinality(v_kept) - c_kept + 2):];
  foreach v_gone in array v_held loop
    if v_gone <> p_name and not v_gone = any(v_kept) then
      execute format('deallocate %I', v_gone);
    end if;
  end loop;
  v_kept := array(select k from unnest(v_kept) with ordinality u(k, n) where k = any(v_held) order by n);
  if not p_name = any(v_held) then
    execute format('prepare %I(%s) as %s', p_name, p_types, p_sql);
  end if;
  perform set_config('obyect.kept_statements', array_to_string(v_kept || p_name, ' '), false);
end;
$$;
revoke all on function private.keep_statement(p_name text, p_sql text, p_types text) from public;

-- Lets go every statement list_ads kept in this session, and the list of them.
create or replace function private.forget_kept_statements()
returns void
language plpgsql
volatile
set search_path = ''
as $$
declare
  v_name text;
begin
  for v_name in select s.name from pg_catalog.pg_prepared_statements s where s.name like 'obyect\_%' loop
    execute format('deallocate %I', v_name);
  end loop;
  perform set_config('obyect.kept_statements', '', false);
end;
$$;
revoke all on function private.forget_kept_statements() from public;

create or replace function private.list_ads_page(
  p_board text default 'library',
  p_brand_id uuid default null,
  p_category_id uuid default null,
  p_type_id uuid default null,
  p_tag_ids uuid[] default null,
  p_since timestamptz default null,
  p_search text default null,
  p_cursor text default null,
  p_platforms text[] default null,
  p_format text default null,
  p_offer text default null,
  p_hook_id uuid default null,
  p_min_running_days int default null,
  p_still_running boolean default null,
  p_sort text default 'newest',
  p_colour text default null
) returns json
language plpgsql
volatile
set search_path = ''
set jit = off
as $$
declare
  c_page_size constant int := 60;
  v_uid uuid := (select auth.uid());
  v_search text := nullif(btrim(coalesce(p_search, '')), '');
  v_tags uuid[] := (select array_agg(distinct t order by t) from unnest(coalesce(p_tag_ids, '{}'::uuid[])) t where t is not null);
  v_platforms text[];
  v_running boolean := coalesce(p_still_running, false);
  v_sort text := coalesce(p_sort, 'newest');
  v_valid_access boolean := public.has_valid_access();
  v_today date := (now() at time zone 'UTC')::date;
  v_query_key text;
  v_cursor jsonb;
  v_after_at timestamptz;
  v_after_id uuid;
  v_after_days int;
  v_after_seen date;
  v_after_tier int;
  v_folded text;
  v_tsquery tsquery;
  v_phrase text;
  v_word_match text;
  v_phrase_match text;
  v_board text;
  v_facts text;
  -- The facts' filters that an ad's age tells nothing of (not its dates nor when it was added).
  v_ageless_facts text;
  v_conditions text;
  v_sql text;
  v_ids uuid[];
  v_more uuid[];
  v_last uuid;
  v_page_ids uuid[];
  v_page_clear boolean[];
  v_next_cursor text;
  -- Tags intersected by merging their ranges while the commonest has at most this many times the rarest's ads.
  c_merge_ratio constant int := 10;
  v_rarest bigint;
  v_commonest bigint;
  v_merge boolean := false;
  v_tag int;
  v_hashjoin text := current_setting('enable_hashjoin');
  v_workers text := current_setting('max_parallel_workers_per_gather');
  -- How deep a search walks the order before it asks the search index. In the newest and relevance orders the walk
  -- is the query itself, cut at this depth (c_exact_walk for a search of whole words): a page found within it is the
  -- answer, and the rest of a page is read a period of additions at a time below the walk's last ad. In the two
  -- dated orders a probe
  -- of the board's newest ads counts the matches: a search found in fewer than 61 of them is read through the search
  -- index (a walk of the ordered index would pass over most of the board to fill a page).
  c_probe constant int := 3000;
  v_word_hits int := 0;
  v_part_hits int := 0;
  -- The relevance order's two tiers apart, with the running days (20261214000100): whether its whole-word matches
  -- and its matches by the text anywhere alone are rare.
  v_rare_words boolean := false;
  v_rare_parts boolean := false;
  v_rare boolean := false;
  v_indexscan text := current_setting('enable_indexscan');
  v_indexonlyscan text := current_setting('enable_indexonlyscan');
  v_seqscan text := current_setting('enable_seqscan');
  -- Conditions on ads a without the search; the search's match on the walked rows w.
  v_filters text;
  v_walk text;
  v_from text;
  -- A search that does not fill the page within c_probe ads reads the rest a period at a time
  -- (private.search_newest_by_periods): the walk's extent (%1$s the cursor), and one period's matches (%1$s the
  -- match, with $20 the period's word).
  v_walked text;
  v_periods text;
  v_word_period text;
  v_phrase_period text;
  -- A search's match on ads a: its words or its text anywhere; and the same within a period or block ($20).
  v_any_match text;
  v_any_period text;
  -- A search of one word of ASCII letters held by at most c_containing words of the lexicon: those words, which
  -- are its text anywhere (20261208000100).
  c_containing constant int := 64;
  v_containing text[];
  v_containing_query text;
  -- The same words as bits of the ads' search signatures (20261211000200): a walk of a dated order's streams checks
  -- them in the stream's index and reads from the table only the ads whose signature holds one of them. Past this
  -- many words a signature holds one of them too often to be worth the checks.
  c_signed_words constant int := 8;
  -- The recently-seen order has no blocks of days: a rare search there reads all its matches and orders them, a
  -- cost that grows with the matches in the whole library. With signature bits it walks unless the probe of the
  -- newest c_signed_probe ads finds it rare for the library's size: a walk passes about 61/p ads, reading every
  -- match costs about p times the library's ads, so at the newest ads' rate p = hits/probed it is rare when
  -- hits^2 * ads <= c_signed_balance * probed^2 (at 1,000,000 ads found in at most 4 of 1,000, at 100,000 in 12).
  c_signed_probe constant int := 1000;
  c_signed_balance constant int := 16;
  v_probed int;
  -- A search with filters in the recently-seen order: the board with the filters an ad's age tells nothing of, and
  -- how many of the probed ads match the search and pass them.
  v_probe_filters text;
  v_filtered_hits int;
  -- Its balance: a filtered walk reads the wide streams, whose entries cost more than the narrow ones'. For bench:db's
  -- searches with filters at 1,000,000 ads (decision 0054), q * p * ads / probed^2 was 44 or less wherever reading
  -- the matches was faster, and 76 or more wherever the walk was.
  c_filtered_balance constant int := 64;
  v_signed boolean := false;
  v_signature_match text;
  -- A search of the board alone, with signature bits: its walk of one stream, how many ads a stream's walk may
  -- pass, and whether a walk passed that many without filling the page.
  v_signable boolean := false;
  -- At most c_signed_walk ads a walk, or the setting obyect.signed_walk where it is set (1 or more: a smaller walk
  -- reads the page as a rare search's sooner, with the same answer).
  c_signed_walk constant int := greatest(1, coalesce(nullif(current_setting('obyect.signed_walk', true), '')::int, 30000));
  v_signed_stream text;
  v_signed_extent text;
  -- The columns of a filtered walk's stream that its filters read, after the stream's limit (20261212000100).
  v_signed_columns text := '';
  v_signed_cut boolean;
  v_bitmapscan text := current_setting('enable_bitmapscan');
  v_mergejoin text := current_setting('enable_mergejoin');
  -- The first stream of a dated order, read before the second is bounded by it.
  v_first text;
  -- A search that would walk more than this many ads beyond the first c_probe to fill its page, at the rate it was
  -- found in them, reads the rest a period at a time; a commoner one walks on. A search of whole words always reads
  -- periods after its walk: a period's matches cost what they hold, not what the word holds in the whole library.
  c_walk_on constant int := 1000;
  -- The words typed; when the lexicon knows every word the last one can be (at most c_beginnings), the search as
  -- whole words, which the periods are read with. Such a search walks only c_exact_walk ads before it reads periods.
  c_beginnings constant int := 32;
  c_exact_walk constant int := 300;
  v_words text[];
  v_beginnings text[];
  v_exact_query tsquery;
  v_period_query tsquery;
  v_walk_depth int := c_probe;
  v_walked_depth int;
  v_probe_depth int := c_probe;
  -- A rare search in the longest-running order: each stream's statement for one block, its first and last key,
  -- and what it found.
  v_epoch_today int;
  v_stream_sql text;
  v_block_match text;
  v_rest_match text;
  v_running_blocks text;
  v_running_rest text;
  v_ended_blocks text;
  v_ended_rest text;
  v_running_first int;
  v_running_last int;
  v_ended_first int;
  v_ended_last int;
  v_running_ids uuid[];
  v_running_keys int[];
  v_ended_ids uuid[];
  v_ended_keys int[];
  -- A search with the running-days filter in the newest order (20261213000100) walks the streams of
  -- private.ads_running_at_least, matching on the ads read there, unless it is rare. Its streams hold only the ads
  -- that ran long enough (the running ones below their start, the ended ones whose days ran reach the asked days,
  -- 20261216000100), so a walk passes about 1/q of their entries, q the share of the ads that match and pass the
  -- filters an ad's age says nothing of (of the board's newest c_signed_probe ads), whatever the asked days. Reading
  -- every match that passes those filters in the search index costs about q times the library's ads, each from the
  -- table, whatever the asked days too. Rare when q^2 * ads <= c_running_balance * probed^2 (decision 0058), or the
  -- setting obyect.running_balance where it is set (0 or more: 0 walks every search the probe finds, a large one
  -- reads every search's matches, with the same answer).
  c_running_balance constant int := greatest(0, coalesce(nullif(current_setting('obyect.running_balance', true), '')::int, 200));
  -- A walk passes at most c_running_walk ads of each of its streams, or the setting obyect.running_walk where it
  -- is set (1 or more): a search found among the newest ads but not among those that ran long enough (a brand new
  -- to the library, say) would otherwise walk every stream to its end. A walk cut short reads the page as a rare
  -- search's.
  c_running_walk constant int := greatest(1, coalesce(nullif(current_setting('obyect.running_walk', true), '')::int, 5000));
  v_running_days_search boolean;
  v_match_query tsquery;
  v_match_phrase text;
  -- The relevance order's second tier: the ads the text anywhere matches and the whole words do not (on ads a), and
  -- as the streams take it. For a search of one word that the lexicon gives the words holding it, those of them that
  -- do not begin with it (v_part_words; none: the tier is empty); otherwise the text anywhere.
  v_part_words text[];
  v_part_match text;
  v_part_query tsquery;
  v_part_phrase text;
  v_part_masks bit(256)[];
  -- A running-days search's page, or one tier's, read newest first through the search index (with the index and
  -- sequential scans off): the match beyond v_conditions (%1$s, ' and ...' or ''), the cursor (%2$s), how many (%3$s).
  v_index_read text;
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
  if cardinality(p_platforms) > 7 or array_position(p_platforms, null) is not null
     or not coalesce(p_platforms, '{}') <@ array['meta', 'instagram', 'tiktok', 'youtube', 'pinterest', 'snapchat', 'google'] then
    raise exception 'Unknown platform' using errcode = 'P0001', detail = 'invalid_filter';
  end if;
  if p_format is not null and p_format not in ('single_image', 'carousel', 'video') then
    raise exception 'Unknown format %', p_format using errcode = 'P0001', detail = 'invalid_filter';
  end if;
  if p_offer is not null and p_offer not in ('discount', 'free_shipping', 'bundle', 'none') then
    raise exception 'Unknown offer %', p_offer using errcode = 'P0001', detail = 'invalid_filter';
  end if;
  if p_min_running_days is not null and p_min_running_days not between 1 and 3650 then
    raise exception 'Running days must be 1 to 3650' using errcode = 'P0001', detail = 'invalid_filter';
  end if;
  if p_colour is not null and not exists (select 1 from private.colour_palette s where s.name = p_colour) then
    raise exception 'Unknown colour %', p_colour using errcode = 'P0001', detail = 'invalid_filter';
  end if;
  if v_sort not in ('newest', 'longest_running', 'recently_seen', 'relevance') then
    raise exception 'Unknown order %', p_sort using errcode = 'P0001', detail = 'unknown_sort';
  end if;
  if p_board = 'black-friday' and v_uid is null then
    raise exception 'Sign in to open the Black Friday board' using errcode = '42501', detail = 'sign_in_required';
  end if;
  v_platforms := nullif(array(select distinct x from unnest(p_platforms) x order by x), '{}');
  if v_sort = 'relevance' and v_search is null then
    v_sort := 'newest';
  end if;

  -- Positional, nulls included, so no two different queries share a key.
  v_query_key := md5(jsonb_build_array(p_board, p_brand_id, p_category_id, p_type_id, v_tags,
    private.iso_utc(p_since), lower(v_search), v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_running,
    v_sort, p_colour)::text);

  if p_cursor is not null then
    v_cursor := private.read_cursor(p_cursor, v_query_key);
    v_today := coalesce((v_cursor ->> 'day')::date, v_today);
    v_after_at := (v_cursor ->> 't')::timestamptz;
    v_after_id := (v_cursor ->> 'i')::uuid;
    v_after_days := (v_cursor ->> 'd')::int;
    v_after_seen := (v_cursor ->> 's')::date;
    v_after_tier := (v_cursor ->> 'r')::int;
  end if;

  -- The search: every word as a word or a word's beginning (the last one), or the whole text anywhere.
  if v_search is not null then
    v_folded := private.search_fold(v_search);
    -- The words in the order typed: the last one is read as a word's beginning.
    v_words := array(select t.w from regexp_split_to_table(regexp_replace(v_folded, '[[:space:][:punct:]]+', ' ', 'g'), ' ')
                                     with ordinality t (w, n)
                      where t.w <> '' order by t.n);
    v_tsquery := (select string_agg(quote_literal(x.w) || case when x.n = cardinality(v_words) then ':*' else '' end, ' & ' order by x.n)
                    from unnest(v_words) with ordinality x (w, n))::tsquery;
    -- Whole words only where the text anywhere can be read through the index's trigrams too (three letters running).
    if v_tsquery is not null and v_folded ~ '[[:alnum:]]{3}' then
      v_beginnings := private.search_words_beginning(v_words[cardinality(v_words)], c_beginnings);
      if v_beginnings is not null then
        -- No word of the lexicon begins so: the typed word itself, which no ad holds, so nothing matches.
        v_exact_query := (select string_agg(x.q, ' & ')
                            from (select quote_literal(w) as q from unnest(v_words[1:cardinality(v_words) - 1]) w
                                  union all
                                  select '(' || coalesce(nullif(array_to_string(array(select quote_literal(b) from unnest(v_beginnings) b), ' | '), ''),
                                                         quote_literal(v_words[cardinality(v_words)])) || ')') x)::tsquery;
        v_walk_depth := c_exact_walk;
      end if;
    end if;
    v_period_query := coalesce(v_exact_query, v_tsquery);
    v_phrase := '%' || replace(replace(replace(v_folded, '\', '\\'), '%', '\%'), '_', '\_') || '%';
    v_word_match := case when v_tsquery is null then 'false' else 'a.search_vector @@ $18' end;
    v_phrase_match := 'a.search_text like $19';
    v_word_period := case when v_tsquery is null then 'false' else 'a.search_vector @@ ($18 && $20)' end;
    v_phrase_period := '(a.search_text like $19 and a.search_vector @@ $20)';
    v_any_match := '(' || v_word_match || ' or ' || v_phrase_match || ')';
    v_any_period := '(' || v_word_period || ' or ' || v_phrase_period || ')';
    -- One word of three or more ASCII letters lies in one run of letters of a search text, and so in one of its
    -- words: the text anywhere is the words of the lexicon that hold it, read through the search index's words
    -- instead of its trigrams. They hold every word that begins with it, so they are also the whole match. Written
    -- into the statements as a literal: lexicon words hold no punctuation, so no '.' for the walks' 'a.' -> 'w.'.
    if v_folded ~ '^[a-z]{3,}$' then
      v_containing := private.search_words_containing(v_folded, c_containing);
      if v_containing is not null then
        -- No word of the lexicon holds it: the word itself, which no ad holds, so nothing matches.
        v_containing_query := quote_literal(coalesce(
          nullif(array_to_string(array(select quote_literal(w) from unnest(v_containing) w), ' | '), ''),
          quote_literal(v_folded))) || '::tsquery';
        v_phrase_match := 'a.search_vector @@ ' || v_containing_query;
        v_phrase_period := 'a.search_vector @@ (' || v_containing_query || ' && $20)';
        v_any_match := v_phrase_match;
        v_any_period := v_phrase_period;
      end if;
    end if;
    -- In a dated order, the condition on an ad's signature that every match meets (private.search_signature_match).
    if v_tsquery is not null and (v_sort in ('longest_running', 'recently_seen')
                                  or (v_sort in ('newest', 'relevance') and p_min_running_days is not null)) then
      v_signature_match := private.search_signature_match(v_folded, c_signed_words);
    end if;
  end if;

  v_board := case p_board
    when 'library' then 'not a.is_black_friday'
    when 'black-friday' then 'a.is_black_friday'
    else 'a.is_top_picks' end;
  -- The facts' filters on ads a; $12..$17 are bound below. The running days as private.running_days counts them.
  v_ageless_facts := case when v_platforms is not null then ' and a.platforms && $12' else '' end
    || case when p_format is not null then ' and a.format = $13' else '' end
    || case when p_offer is not null then ' and a.offer = $14' else '' end
    || case when p_hook_id is not null then ' and a.hook_id = $15' else '' end
    -- A palette swatch's name, checked above, written into the statement.
    || case when p_colour is not null then ' and a.colour_swatches @> array[' || quote_literal(p_colour) || ']::text[]' else '' end;
  v_facts := v_ageless_facts
    || case when p_min_running_days is not null then
         ' and (case when a.still_running then greatest($17, coalesce(a.last_seen, a.first_seen)) else a.last_seen end)'
         || ' - a.first_seen + 1 >= $16'
         -- The same ads and maybe a few more, in the terms of the running and ended ads' indexes, for the planner to
         -- read them there when they are few: no sighting is after the latest day begun on Earth.
         || ' and ((a.still_running and a.first_seen <= ' || quote_literal(private.latest_today()) || '::date - $16 + 1)'
         || ' or (not a.still_running and a.last_seen is not null and (a.first_seen - a.last_seen) <= 1 - $16))' else '' end
    || case when v_running then ' and a.still_running' else '' end;
  -- Conditions on ads a; $1..$7 are bound below.
  v_filters := v_board
    || case when p_brand_id is not null then ' and a.brand_id = $1' else '' end
    || case when p_category_id is not null then ' and a.category_id = $2' else '' end
    || case when p_type_id is not null then ' and a.type_id = $3' else '' end
    || case when v_tags is not null then
         ' and not exists (select 1 from unnest($4::uuid[]) w(id) where not exists '
         || '(select 1 from public.ad_tags h where h.ad_id = a.id and h.tag_id = w.id))' else '' end
    || case when p_since is not null then ' and a.created_at >= $5' else '' end
    || v_facts;
  v_conditions := v_filters
    || case when v_search is not null and v_sort <> 'relevance' then ' and ' || v_any_match else '' end;
  -- A search with signature bits walks the dated orders with them (see below), with its filters too when the
  -- streams hold their columns: all but the brand's (which has streams of its own) and the tags'.
  v_signable := v_signature_match is not null and p_brand_id is null and v_tags is null;
  v_running_days_search := v_sort in ('newest', 'relevance') and p_min_running_days is not null and v_signable;
  if v_running_days_search and v_sort = 'relevance' then
    if v_containing is not null then
      v_part_words := array(select w from unnest(v_containing) w where not starts_with(w, v_folded));
      if cardinality(v_part_words) > 0 then
        v_part_query := array_to_string(array(select quote_literal(w) from unnest(v_part_words) w), ' | ')::tsquery;
        -- Written into the statements as a literal, as v_containing_query is.
        v_part_match := 'a.search_vector @@ ' || quote_literal(v_part_query::text) || '::tsquery'
          || ' and not coalesce(' || v_word_match || ', false)';
        v_part_masks := case when cardinality(v_part_words) <= c_signed_words
                             then array(select private.search_word_bits(w) from unnest(v_part_words) w)
                             else private.search_signature_masks(v_folded, c_signed_words) end;
      end if;
    else
      v_part_phrase := v_phrase;
      v_part_match := v_phrase_match || ' and not coalesce(' || v_word_match || ', false)';
      v_part_masks := private.search_signature_masks(v_folded, c_signed_words);
    end if;
  end if;
  v_probe_filters := v_board
    || case when p_category_id is not null then ' and a.category_id = $2' else '' end
    || case when p_type_id is not null then ' and a.type_id = $3' else '' end
    || v_ageless_facts;
  -- The first step of a search in the newest or relevance order: the order's walk, v_walk_depth ads deep, keeping
  -- the matches (%1$s, on w) after the cursor (%2$s) up to %3$s. When they fill the page they are the page; otherwise
  -- how many it found says how rare the search is. A search of whole words found often enough in its short walk to
  -- fill the page within c_walk_on more ads walks on to c_probe in the same statement (the second part runs only
  -- then), since walking costs less than reading periods for it; private.search_walk_depth says how deep it went.
  v_walk := 'select coalesce(array_agg(x.id order by x.created_at desc, x.id desc), ''{}'') from ('
    || 'with near as (select w.id, w.created_at from (select a.id, a.created_at, a.search_vector, a.search_text'
    || ' from public.ads a where ' || v_filters || '%2$s order by a.created_at desc, a.id desc limit ' || v_walk_depth || ') w'
    || ' where %1$s order by w.created_at desc, w.id desc limit %3$s) '
    || 'select near.id, near.created_at from near'
    || case when v_walk_depth < c_probe then
         ' union all (select w.id, w.created_at from (select a.id, a.created_at, a.search_vector, a.search_text'
         || ' from public.ads a where ' || v_filters || '%2$s order by a.created_at desc, a.id desc'
         || ' offset ' || v_walk_depth || ' limit ' || (c_probe - v_walk_depth) || ') w'
         || ' where %1$s and private.search_walk_depth(' || v_walk_depth || ', ' || c_probe || ', ' || c_walk_on
         || ', (select count(*) from near), %3$s) = ' || c_probe
         || ' order by w.created_at desc, w.id desc limit %3$s)'
       else '' end
    || ' order by 2 desc, 1 desc limit %3$s) x';
  -- The extent of a walk %2$s ads deep after the cursor (%1$s).
  v_walked := 'select count(*)::int, max(w.created_at), min(w.created_at), (array_agg(w.id order by w.created_at, w.id))[1]'
    || ' from (select a.id, a.created_at from public.ads a where ' || v_filters || '%1$s'
    || ' order by a.created_at desc, a.id desc limit %2$s) w';
  v_periods := 'select coalesce(array_agg(r.id order by r.created_at desc, r.id desc), ''{}'') from ('
    || 'select a.id, a.created_at from public.ads a where ' || v_filters || ' and %1$s and (a.created_at, a.id) < ($21, $22)'
    || ' order by a.created_at desc, a.id desc limit $23) r';

  v_index_read := 'select coalesce(array_agg(r.id order by r.created_at desc, r.id desc), ''{}'') from ('
    || 'select a.id, a.created_at from public.ads a where ' || v_conditions || '%1$s%2$s'
    || ' order by a.created_at desc, a.id desc limit %3$s) r';

  if v_search is not null and (v_sort in ('longest_running', 'recently_seen') or v_running_days_search) then
    -- A search of whole words in the longest-running order probes only the newest c_exact_walk ads: a rare one is
    -- read a block of running days at a time, which costs what the blocks hold, so the probe only has to tell a
    -- common word, which walks its order, from the rest.
    -- A search with signature bits in the recently-seen order probes the newest c_signed_probe ads.
    v_probe_depth := case when v_sort = 'longest_running' and v_exact_query is not null then c_exact_walk
                          when (v_sort = 'recently_seen' and v_signable) or v_running_days_search then c_signed_probe
                          else c_probe end;
    if v_sort = 'relevance' then
      -- The relevance order's tiers apart (it probes only with the running days): of the newest ads whose signature
      -- holds a word, those that match the whole words and pass the filters of v_probe_filters, and those that match
      -- the text anywhere alone and pass them.
      execute private.list_ads_statement('select count(*) filter (where (' || v_signature_match || ') and exists (select 1 from public.ads s'
        || ' where s.id = a.id and ' || replace(v_word_match || ' and ' || v_probe_filters, 'a.', 's.') || ' offset 0))::int, '
        || case when v_part_match is null then '0'
                else 'count(*) filter (where (' || v_signature_match || ') and exists (select 1 from public.ads s'
                     || ' where s.id = a.id and ' || replace(v_part_match || ' and ' || v_probe_filters, 'a.', 's.')
                     || ' offset 0))::int' end
        || ', count(*)::int from (select a.id, a.search_signature from public.ads a where ' || v_board
        || ' order by a.created_at desc, a.id desc limit ' || v_probe_depth || ') a',
          p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
              null, null, null, null, v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_tsquery, v_phrase) into v_word_hits, v_part_hits, v_probed;
    elsif v_signature_match is not null then
      -- With signature bits, the board's order index holds them: only the newest ads whose signature holds a word
      -- are read from the table, and every match is counted once (its words are the whole match).
      -- In the recently-seen order with filters, the ads that pass those of v_probe_filters are counted too.
      execute private.list_ads_statement('select count(*) filter (where (' || v_signature_match || ')'
        || ' and exists (select 1 from public.ads s where s.id = a.id and ' || replace(v_any_match, 'a.', 's.') || ' offset 0))::int,'
        || ' 0, count(*)::int, '
        || case when ((v_sort = 'recently_seen' and v_signable) or v_running_days_search) and v_probe_filters <> v_board then
             'count(*) filter (where (' || v_signature_match || ') and exists (select 1 from public.ads s where s.id = a.id and '
             || replace(v_any_match || ' and ' || v_probe_filters, 'a.', 's.') || ' offset 0))::int'
           else 'null::int' end
        || ' from (select a.id, a.search_signature from public.ads a where ' || v_board
        || ' order by a.created_at desc, a.id desc limit ' || v_probe_depth || ') a',
          p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
              null, null, null, null, v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_tsquery, v_phrase) into v_word_hits, v_part_hits, v_probed, v_filtered_hits;
    else
      execute private.list_ads_statement('select count(*) filter (where ' || v_word_match || '), count(*) filter (where ' || v_phrase_match
        || ' and not coalesce(' || v_word_match || ', false)) from (select a.search_vector, a.search_text from public.ads a where '
        || v_board || ' order by a.created_at desc, a.id desc limit ' || v_probe_depth || ') a',
          p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
              null, null, null, null, v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_tsquery, v_phrase) into v_word_hits, v_part_hits;
    end if;
    -- As often as in at most c_page_size of c_probe ads.
    v_rare := (v_word_hits + v_part_hits) * c_probe <= c_page_size * v_probe_depth;
    if v_running_days_search then
      v_rare := coalesce(v_filtered_hits, v_word_hits + v_part_hits)::float8 ^ 2 * (select c.total from private.ad_counts c)
                <= c_running_balance * greatest(v_probed, 1)::float8 ^ 2;
      -- The relevance order's tiers by the same rule, each on its own matches. A tier the probe did not find is read.
      if v_sort = 'relevance' then
        v_rare_words := v_word_hits::float8 ^ 2 * (select c.total from private.ad_counts c)
                        <= c_running_balance * greatest(v_probed, 1)::float8 ^ 2;
        v_rare_parts := v_part_hits::float8 ^ 2 * (select c.total from private.ad_counts c)
                        <= c_running_balance * greatest(v_probed, 1)::float8 ^ 2;
      end if;
    elsif v_sort = 'recently_seen' and v_signable then
      -- Its walk checks the signature in the index and costs little for each ad passed over, so it reads every match
      -- through the search index only when it is rare for the library's size (c_signed_balance above). With filters
      -- the walk passes about 61/q ads, q the share that matches and passes them, while reading the matches still
      -- costs about p times the library's ads: rare when q * p * ads <= c_filtered_balance. Only the filters of
      -- v_probe_filters count in q: few of the newest ads have run 60 days, say, so they tell nothing of how many
      -- ads such a filter passes; the walk's cap bounds a walk that such a filter makes long.
      v_rare := coalesce(v_filtered_hits, v_word_hits + v_part_hits)::bigint * (v_word_hits + v_part_hits)
                * (select c.total from private.ad_counts c)
                <= case when v_filtered_hits is null then c_signed_balance else c_filtered_balance end
                   * greatest(v_probed, 1)::bigint ^ 2;
    end if;
  end if;

  if v_sort = 'relevance' and v_running_days_search then
    -- Whole-word matches first, then the ads only the text anywhere matches; newest first within each. With the
    -- running days each tier walks the streams of private.ads_running_at_least, as the newest order does, unless the
    -- probe found it rare or the walk was cut within the page: then its matches that pass the filters are read
    -- through the search index and ordered.
    v_ids := '{}';
    if v_after_tier is distinct from 2 then
      if not v_rare_words then
        v_ids := private.ads_running_at_least(p_board, p_since, p_category_id, p_type_id, v_platforms, p_format, p_offer,
                                              p_hook_id, p_colour, p_min_running_days, v_running, v_today,
                                              case when v_after_tier = 1 then v_after_at end,
                                              case when v_after_tier = 1 then v_after_id end,
                                              v_tsquery, null, null, private.search_signature_masks(v_folded, c_signed_words),
                                              c_running_walk);
      end if;
      if v_rare_words or v_ids is null then
        perform set_config('enable_indexscan', 'off', true), set_config('enable_indexonlyscan', 'off', true), set_config('enable_seqscan', 'off', true);
        execute private.list_ads_statement(format(v_index_read, ' and ' || v_word_match, case when v_after_tier = 1 then ' and (a.created_at, a.id) < ($6, $7)' else '' end, 61),
            p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
                null, null, null, null, v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_tsquery, v_phrase) into v_ids;
        perform set_config('enable_indexscan', v_indexscan, true), set_config('enable_indexonlyscan', v_indexonlyscan, true), set_config('enable_seqscan', v_seqscan, true);
      end if;
    end if;
    if cardinality(v_ids) <= c_page_size and v_part_match is not null then
      if not v_rare_parts then
        v_more := private.ads_running_at_least(p_board, p_since, p_category_id, p_type_id, v_platforms, p_format, p_offer,
                                               p_hook_id, p_colour, p_min_running_days, v_running, v_today,
                                               case when v_after_tier = 2 then v_after_at end,
                                               case when v_after_tier = 2 then v_after_id end,
                                               v_part_query, v_part_phrase, v_tsquery, v_part_masks, c_running_walk);
      end if;
      if v_rare_parts or v_more is null then
        perform set_config('enable_indexscan', 'off', true), set_config('enable_indexonlyscan', 'off', true), set_config('enable_seqscan', 'off', true);
        execute private.list_ads_statement(format(v_index_read, ' and ' || v_part_match, case when v_after_tier = 2 then ' and (a.created_at, a.id) < ($6, $7)' else '' end,
                       61 - cardinality(v_ids)),
            p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
                null, null, null, null, v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_tsquery, v_phrase) into v_more;
        perform set_config('enable_indexscan', v_indexscan, true), set_config('enable_indexonlyscan', v_indexonlyscan, true), set_config('enable_seqscan', v_seqscan, true);
      end if;
      v_ids := v_ids || v_more[1:61 - cardinality(v_ids)];
    end if;

  elsif v_sort = 'relevance' then
    -- Whole-word matches first, then the ads only the text anywhere matches; newest first within each.
    if v_after_tier is distinct from 2 and v_tsquery is not null then
      execute private.list_ads_statement(format(v_walk, replace(v_word_match, 'a.', 'w.'),
                     case when v_after_tier = 1 then ' and (a.created_at, a.id) < ($6, $7)' else '' end, 61),
          p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
              null, null, null, null, v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_tsquery, v_phrase) into v_ids;
      if cardinality(v_ids) <= c_page_size
         and (v_exact_query is not null or (61 - cardinality(v_ids)) * c_probe > c_walk_on * greatest(cardinality(v_ids), 1)) then
        v_walked_depth := private.search_walk_depth(v_walk_depth, c_probe, c_walk_on, cardinality(v_ids), 61);
        v_ids := v_ids || private.search_newest_by_periods(
          format(v_walked, case when v_after_tier = 1 then ' and (a.created_at, a.id) < ($6, $7)' else '' end, v_walked_depth),
          format(v_periods, v_word_period), v_walked_depth, 61 - cardinality(v_ids), cardinality(v_ids),
          p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
          v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_period_query, v_phrase);
      elsif cardinality(v_ids) <= c_page_size then
        execute private.list_ads_statement('select coalesce(array_agg(r.id order by r.created_at desc, r.id desc), ''{}'') from ('
          || 'select a.id, a.created_at from public.ads a where ' || v_conditions || ' and ' || v_word_match
          || case when v_after_tier = 1 then ' and (a.created_at, a.id) < ($6, $7)' else '' end
          || ' order by a.created_at desc, a.id desc limit 61) r',
            p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
                null, null, null, null, v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_tsquery, v_phrase) into v_ids;
      end if;
    else
      v_ids := '{}';
    end if;
    if cardinality(v_ids) <= c_page_size then
      execute private.list_ads_statement(format(v_walk, replace(v_phrase_match || ' and not coalesce(' || v_word_match || ', false)', 'a.', 'w.'),
                     case when v_after_tier = 2 then ' and (a.created_at, a.id) < ($6, $7)' else '' end, 61 - cardinality(v_ids)),
          p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
              null, null, null, null, v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_tsquery, v_phrase) into v_more;
      if cardinality(v_ids) + cardinality(v_more) <= c_page_size
         and (v_exact_query is not null
              or (61 - cardinality(v_ids) - cardinality(v_more)) * c_probe > c_walk_on * greatest(cardinality(v_more), 1)) then
        v_walked_depth := private.search_walk_depth(v_walk_depth, c_probe, c_walk_on, cardinality(v_more), 61 - cardinality(v_ids));
        v_more := v_more || private.search_newest_by_periods(
          format(v_walked, case when v_after_tier = 2 then ' and (a.created_at, a.id) < ($6, $7)' else '' end, v_walked_depth),
          format(v_periods, v_phrase_period || ' and not coalesce(' || v_word_match || ', false)'), v_walked_depth,
          61 - cardinality(v_ids) - cardinality(v_more), cardinality(v_more),
          p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
          v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_period_query, v_phrase);
      elsif cardinality(v_ids) + cardinality(v_more) <= c_page_size then
        execute private.list_ads_statement('select coalesce(array_agg(r.id order by r.created_at desc, r.id desc), ''{}'') from ('
          || 'select a.id, a.created_at from public.ads a where ' || v_conditions || ' and ' || v_phrase_match
          || ' and not coalesce(' || v_word_match || ', false)'
          || case when v_after_tier = 2 then ' and (a.created_at, a.id) < ($6, $7)' else '' end
          || ' order by a.created_at desc, a.id desc limit ' || (61 - cardinality(v_ids)) || ') r',
            p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
                null, null, null, null, v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_tsquery, v_phrase) into v_more;
      end if;
      v_ids := v_ids || v_more;
    end if;

  elsif v_sort in ('longest_running', 'recently_seen') then
    -- Two ordered streams of dated ads merged on their key, then the undated ones by id (see the indexes above).
    -- Keys: longest running, the days ran (a running ad's to today) descending; recently seen, the last day seen
    -- (a running ad's is today) descending; ties by id.
    if v_rare and v_sort = 'longest_running' and (v_cursor is null or v_after_days is not null) then
      -- A rare search reads each stream a block of keys at a time through the search index
      -- (private.search_running_blocks, 20261206000100): the running ads by first sighting (days since 1970, x), the
      -- ended ones by first_seen - last_seen (x); a running ad has run v_epoch_today - x + 1 days, an ended one
      -- 1 - x. The stream whose first ad ran longer is read first; the other only as far as it can still reach the
      -- page.
      v_epoch_today := v_today - date '1970-01-01';
      -- A block's matches carry its word ($20); the rest of a stream's, read at once, need not.
      v_block_match := v_any_period;
      v_rest_match := v_any_match;
      -- The stream's condition (%2$s) is written so that it implies no partial index's predicate: the planner would
      -- otherwise read such an index whole (every running ad, say) to intersect it with the search's few matches.
      v_stream_sql := 'select count(*)::int, coalesce(array_agg(b.id order by b.x, b.id), ''{}''),'
        || ' coalesce(array_agg(b.x order by b.x, b.id), ''{}'') from (select a.id, %1$s as x from public.ads a where '
        || v_filters || ' and %2$s and %3$s'
        || ' and %1$s between $21 and $22 and (%1$s > $21 or a.id > $23) limit $24) b';
      v_running_blocks := format(v_stream_sql, '(a.first_seen - ''1970-01-01''::date)', 'coalesce(a.still_running, false)', v_block_match);
      v_running_rest := format(v_stream_sql, '(a.first_seen - ''1970-01-01''::date)', 'coalesce(a.still_running, false)', v_rest_match);
      v_ended_blocks := format(v_stream_sql, '((a.first_seen - a.last_seen) + 0)',
                               'not coalesce(a.still_running, true) and (a.last_seen + 0) is not null', v_block_match);
      v_ended_rest := format(v_stream_sql, '((a.first_seen - a.last_seen) + 0)',
                             'not coalesce(a.still_running, true) and (a.last_seen + 0) is not null', v_rest_match);
      if v_cursor is null then
        v_running_first := (select min(a.first_seen) from public.ads a where a.still_running) - date '1970-01-01';
        v_ended_first := (select min(a.first_seen - a.last_seen) from public.ads a
                           where not a.still_running and a.last_seen is not null);
      else
        v_running_first := v_epoch_today + 1 - v_after_days;
        v_ended_first := 1 - v_after_days;
      end if;
      v_running_last := (select max(a.first_seen) from public.ads a where a.still_running) - date '1970-01-01';
      v_ended_last := 0;
      if coalesce(v_epoch_today - v_running_first + 1, 0) >= coalesce(1 - v_ended_first, 0) then
        select r.ids, r.keys into v_running_ids, v_running_keys
          from private.search_running_blocks(v_running_blocks, v_running_rest,
                 '~s', v_running_first, v_after_id, v_running_last, 61,
                 p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_platforms, p_format, p_offer, p_hook_id,
                 p_min_running_days, v_today, v_period_query, v_phrase) r;
        if cardinality(v_running_keys) >= 61 then
          v_ended_last := least(v_ended_last, 1 - (v_epoch_today - v_running_keys[61] + 1));
        end if;
        select r.ids, r.keys into v_ended_ids, v_ended_keys
          from private.search_running_blocks(v_ended_blocks, v_ended_rest,
                 '~e', v_ended_first, v_after_id, v_ended_last, 61,
                 p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_platforms, p_format, p_offer, p_hook_id,
                 p_min_running_days, v_today, v_period_query, v_phrase) r;
      else
        select r.ids, r.keys into v_ended_ids, v_ended_keys
          from private.search_running_blocks(v_ended_blocks, v_ended_rest,
                 '~e', v_ended_first, v_after_id, v_ended_last, 61,
                 p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_platforms, p_format, p_offer, p_hook_id,
                 p_min_running_days, v_today, v_period_query, v_phrase) r;
        if cardinality(v_ended_keys) >= 61 then
          v_running_last := least(v_running_last, v_epoch_today + 1 - (1 - v_ended_keys[61]));
        end if;
        select r.ids, r.keys into v_running_ids, v_running_keys
          from private.search_running_blocks(v_running_blocks, v_running_rest,
                 '~s', v_running_first, v_after_id, v_running_last, 61,
                 p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_platforms, p_format, p_offer, p_hook_id,
                 p_min_running_days, v_today, v_period_query, v_phrase) r;
      end if;
      v_ids := (select coalesce(array_agg(u.id order by u.k desc, u.id), '{}')
                  from (select m.id, m.k
                          from (select s.id, v_epoch_today - s.x + 1 as k from unnest(v_running_ids, v_running_keys) s (id, x)
                                union all
                                select e.id, 1 - e.x from unnest(v_ended_ids, v_ended_keys) e (id, x)) m
                         order by m.k desc, m.id limit 61) u);
    elsif v_cursor is null or v_after_days is not null or v_after_seen is not null then
      -- A search of the board alone with signature bits, not rare, walks each stream in its index's order, checks the
      -- signature there, and looks up by id only the ads whose signature holds one of its words. The lookup's
      -- offset 0 keeps it a lookup: PostgreSQL 18 would otherwise see the ad joined with itself on its key and read
      -- both from one scan of the table. The running stream is read first; when it fills a page, the ended stream
      -- is read only as far as the running stream's 61st ad, since no ended ad below it can reach the page. Each
      -- walk passes at most c_signed_walk ads: a search found among the newest ads but rare in the whole library
      -- would otherwise walk the whole stream. When a walk passed that many without filling the page, the page is
      -- read as a rare search's is.
      v_signed := not v_rare and v_signable;
      if v_signed then
        -- One stream's walk (%1$s its key, %2$s its order before the id, %3$s its condition): its first 61 matches
        -- in order, and their keys. And how many ads the walk may pass: c_signed_walk when the stream holds so many.
        -- With filters, the stream's columns they read come with the signature, and the filters are checked after
        -- the walk's limit, which so counts the ads passed, not those kept: the walk reads the filters' streams
        -- (20261210000100, with the signature since 20261212000100) as the board's alone reads the narrow ones.
        if v_filters <> v_board then
          v_signed_columns := ', a.is_black_friday, a.is_top_picks, a.still_running, a.first_seen, a.last_seen, a.created_at,'
            || ' a.colour_swatches, a.platforms, a.format, a.offer, a.hook_id, a.category_id, a.type_id';
        end if;
        v_signed_stream := 'select coalesce(array_agg(q.id order by q.n), ''{}''), coalesce(array_agg(q.k order by q.n), ''{}'')'
          || ' from (select m.id, m.k, row_number() over () as n from (select a.id, a.k from (select a.id, %1$s as k,'
          || ' a.search_signature' || v_signed_columns || ' from public.ads a where ' || v_board || ' and %3$s order by %2$s, a.id'
          || ' limit ' || c_signed_walk || ') a where (' || v_signature_match || ')'
          || case when v_filters <> v_board then ' and ' || v_filters else '' end
          || ' and exists (select 1 from public.ads s where s.id = a.id and ' || replace(v_any_match, 'a.', 's.') || ' offset 0)'
          || ' limit 61) m) q';
        v_signed_extent := 'select count(*)::int from (select 1 from public.ads a where ' || v_board || ' and %1$s'
          || ' limit ' || c_signed_walk || ') x';
        perform set_config('enable_hashjoin', 'off', true), set_config('enable_mergejoin', 'off', true),
                set_config('enable_bitmapscan', 'off', true), set_config('max_parallel_workers_per_gather', '0', true);
        v_signed_cut := false;
        if v_sort = 'longest_running' then
          -- Keys: the days run, longest first.
          v_stream_sql := 'a.still_running' || case when v_cursor is not null then ' and (a.first_seen, a.id) > ($17 + 1 - $20, $7)' else '' end;
          execute private.list_ads_statement(format(v_signed_stream, '$17 - a.first_seen + 1', 'a.first_seen', v_stream_sql),
              p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
                  null, null, null, null, v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_period_query, v_phrase,
                  v_after_days, v_after_seen) into v_running_ids, v_running_keys;
          if cardinality(v_running_ids) < 61 then
            execute private.list_ads_statement(format(v_signed_extent, v_stream_sql),
                p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
                  null, null, null, null, v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_period_query, v_phrase,
                  v_after_days, v_after_seen) into v_walked_depth;
            v_signed_cut := v_walked_depth >= c_signed_walk;
          end if;
          v_stream_sql := 'not a.still_running and a.last_seen is not null'
            || case when v_cursor is not null then ' and ((a.first_seen - a.last_seen), a.id) > (1 - $20, $7)' else '' end
            || case when cardinality(v_running_ids) >= 61 then ' and (a.first_seen - a.last_seen) <= ' || (1 - v_running_keys[61]) else '' end;
          v_ended_ids := '{}';
          v_ended_keys := '{}';
          if not v_signed_cut then
            execute private.list_ads_statement(format(v_signed_stream, 'a.last_seen - a.first_seen + 1', '(a.first_seen - a.last_seen)', v_stream_sql),
                p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
                  null, null, null, null, v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_period_query, v_phrase,
                  v_after_days, v_after_seen) into v_ended_ids, v_ended_keys;
          end if;
          if cardinality(v_ended_ids) < 61 and not v_signed_cut then
            execute private.list_ads_statement(format(v_signed_extent, v_stream_sql),
                p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
                  null, null, null, null, v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_period_query, v_phrase,
                  v_after_days, v_after_seen) into v_walked_depth;
            v_signed_cut := v_walked_depth >= c_signed_walk;
          end if;
          v_ids := (select coalesce(array_agg(u.id order by u.k desc, u.id), '{}')
                      from (select m.id, m.k from (select * from unnest(v_running_ids, v_running_keys)
                                                   union all select * from unnest(v_ended_ids, v_ended_keys)) m (id, k)
                             order by m.k desc, m.id limit 61) u);
        else
          -- Keys: the days since last seen, a running ad's 0, most recent first. When the running ads fill a page,
          -- an ended ad can reach it only if it was last seen today, with an id before the running stream's 61st.
          v_running_ids := '{}';
          v_running_keys := '{}';
          if v_cursor is null or v_after_seen >= v_today then
            v_stream_sql := 'a.still_running' || case when v_after_seen = v_today then ' and a.id > $7' else '' end;
            execute private.list_ads_statement(format(v_signed_stream, '0', 'a.id', v_stream_sql),
                p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
                  null, null, null, null, v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_period_query, v_phrase,
                  v_after_days, v_after_seen) into v_running_ids, v_running_keys;
            if cardinality(v_running_ids) < 61 then
              execute private.list_ads_statement(format(v_signed_extent, v_stream_sql),
                  p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
                  null, null, null, null, v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_period_query, v_phrase,
                  v_after_days, v_after_seen) into v_walked_depth;
              v_signed_cut := v_walked_depth >= c_signed_walk;
            end if;
          end if;
          v_stream_sql := 'not a.still_running and a.last_seen is not null'
            || case when v_cursor is not null then ' and a.last_seen <= $21 and (a.last_seen < $21 or a.id > $7)' else '' end
            || case when cardinality(v_running_ids) >= 61 then ' and a.last_seen = $17 and a.id <= ' || quote_literal(v_running_ids[61]) || '::uuid' else '' end;
          v_ended_ids := '{}';
          v_ended_keys := '{}';
          if not v_signed_cut then
            execute private.list_ads_statement(format(v_signed_stream, '$17 - a.last_seen', 'a.last_seen desc', v_stream_sql),
                p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
                  null, null, null, null, v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_period_query, v_phrase,
                  v_after_days, v_after_seen) into v_ended_ids, v_ended_keys;
          end if;
          if cardinality(v_ended_ids) < 61 and not v_signed_cut then
            execute private.list_ads_statement(format(v_signed_extent, v_stream_sql),
                p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
                  null, null, null, null, v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_period_query, v_phrase,
                  v_after_days, v_after_seen) into v_walked_depth;
            v_signed_cut := v_walked_depth >= c_signed_walk;
          end if;
          v_ids := (select coalesce(array_agg(u.id order by u.k, u.id), '{}')
                      from (select m.id, m.k from (select * from unnest(v_running_ids, v_running_keys)
                                                   union all select * from unnest(v_ended_ids, v_ended_keys)) m (id, k)
                             order by m.k, m.id limit 61) u);
        end if;
        perform set_config('enable_hashjoin', v_hashjoin, true), set_config('enable_mergejoin', v_mergejoin, true),
                set_config('enable_bitmapscan', v_bitmapscan, true), set_config('max_parallel_workers_per_gather', v_workers, true);
        if v_signed_cut then
          v_signed := false;
          v_rare := true;
        end if;
      end if;
      if not v_signed then
        -- A rare search's matches are read once, through the search index (with whole words where the lexicon gives
        -- them), and both streams are ordered from them. The running ads' stream is read first (r); when it fills a
        -- page, the ended ads' stream is read only as far as the days or the day of r's 61st ad.
        v_from := case when v_rare then 'm a where true' else 'public.ads a where ' || v_conditions end;
        if v_sort = 'longest_running' then
          v_first := 'r as materialized (select a.id, $17 - a.first_seen + 1 as k from ' || v_from || ' and a.still_running'
            || case when v_cursor is not null then ' and (a.first_seen, a.id) > ($17 + 1 - $20, $7)' else '' end
            || ' order by a.first_seen, a.id limit 61)';
          v_sql := 'select s.id from ('
            || 'select r.id, r.k from r'
            || ' union all '
            || '(select a.id, a.last_seen - a.first_seen + 1 as k from ' || v_from
            || ' and not a.still_running and a.last_seen is not null'
            || case when v_cursor is not null then ' and ((a.first_seen - a.last_seen), a.id) > (1 - $20, $7)' else '' end
            || ' and (a.first_seen - a.last_seen) <= coalesce((select 1 - min(r.k) from r having count(*) >= 61), 2147483647)'
            || ' order by (a.first_seen - a.last_seen), a.id limit 61)'
            || ') s order by s.k desc, s.id limit 61';
        elsif v_cursor is null or v_after_seen >= v_today then
          v_first := 'r as materialized (select a.id, $17 as k from ' || v_from || ' and a.still_running'
            || case when v_after_seen = v_today then ' and a.id > $7' else '' end
            || ' order by a.id limit 61)';
          v_sql := 'select s.id from ('
            || 'select r.id, r.k from r'
            || ' union all '
            || '(select a.id, a.last_seen as k from ' || v_from
            || ' and not a.still_running and a.last_seen is not null'
            || case when v_cursor is not null then ' and a.last_seen <= $21 and (a.last_seen < $21 or a.id > $7)' else '' end
            || ' and a.last_seen >= coalesce((select min(r.k) from r having count(*) >= 61), ''-infinity''::date)'
            || ' order by a.last_seen desc, a.id limit 61)'
            || ') s order by s.k desc, s.id limit 61';
        else
          v_sql := 'select s.id from ('
            || '(select a.id, a.last_seen as k from ' || v_from
            || ' and not a.still_running and a.last_seen is not null'
            || ' and a.last_seen <= $21 and (a.last_seen < $21 or a.id > $7)'
            || ' order by a.last_seen desc, a.id limit 61)'
            || ') s order by s.k desc, s.id limit 61';
        end if;
        if v_rare then
          perform set_config('enable_indexscan', 'off', true), set_config('enable_indexonlyscan', 'off', true), set_config('enable_seqscan', 'off', true);
        end if;
        execute private.list_ads_statement('with ' || case when v_rare then 'm as materialized (select a.id, a.first_seen, a.last_seen, a.still_running'
                                      || ' from public.ads a where ' || v_conditions || '), ' else '' end
          || coalesce(v_first, 'r as (select null::uuid as id)') || ' '
          || 'select coalesce(array_agg(r.id order by r.n), ''{}'') from (select q.id, row_number() over () as n from ('
          || v_sql || ') q) r',
            p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
                null, null, null, null, v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_period_query, v_phrase,
                v_after_days, v_after_seen) into v_ids;
        perform set_config('enable_indexscan', v_indexscan, true), set_config('enable_indexonlyscan', v_indexonlyscan, true), set_config('enable_seqscan', v_seqscan, true);
      end if;
    else
      v_ids := '{}';
    end if;
    -- No undated ad runs any number of days.
    if cardinality(v_ids) <= c_page_size and p_min_running_days is null then
      if v_rare then
        perform set_config('enable_indexscan', 'off', true), set_config('enable_indexonlyscan', 'off', true), set_config('enable_seqscan', 'off', true);
      end if;
      execute private.list_ads_statement('select coalesce(array_agg(r.id order by r.id), ''{}'') from ('
        || 'select a.id from public.ads a where ' || v_conditions || ' and not a.still_running and a.last_seen is null'
        || case when v_cursor is not null and v_after_days is null and v_after_seen is null then ' and a.id > $7' else '' end
        || ' order by a.id limit ' || (61 - cardinality(v_ids)) || ') r',
          p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
              null, null, null, null, v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_period_query, v_phrase) into v_more;
      perform set_config('enable_indexscan', v_indexscan, true), set_config('enable_indexonlyscan', v_indexonlyscan, true), set_config('enable_seqscan', v_seqscan, true);
      v_ids := v_ids || v_more;
    end if;

  elsif p_min_running_days is not null and v_tags is null and v_search is null and p_brand_id is null
        and p_category_id is null and p_type_id is null and p_hook_id is null and p_colour is null then
    -- Newest first among ads that ran long enough: read per delay between first sighting and addition, each from
    -- where its ads can first qualify (20261130000600_running_days_newest).
    v_ids := private.ads_running_at_least(p_board, p_since, null, null, v_platforms, p_format, p_offer, null, null,
                                          p_min_running_days, v_running, v_today, v_after_at, v_after_id, null, null, null,
                                          null, null);

  elsif v_running_days_search then
    -- The same streams, keeping the ads that match the search and pass its filters: the newest ads that ran long
    -- enough are few among the newest ads, but a search found often enough is found among them (20261213000100).
    -- The match is v_any_match's: the lexicon's words that hold a one-word search, or its words and its text
    -- anywhere.
    if not v_rare then
      if v_containing is not null then
        -- The lexicon's words as the statements write them (v_containing_query), read as a value.
        execute 'select ' || v_containing_query into v_match_query;
      else
        v_match_query := v_tsquery;
        v_match_phrase := v_phrase;
      end if;
      v_ids := private.ads_running_at_least(p_board, p_since, p_category_id, p_type_id, v_platforms, p_format, p_offer,
                                            p_hook_id, p_colour, p_min_running_days, v_running, v_today, v_after_at,
                                            v_after_id, v_match_query, v_match_phrase, null,
                                            private.search_signature_masks(v_folded, c_signed_words), c_running_walk);
      v_rare := v_ids is null;
    end if;
    if v_rare then
      -- A rare one, or a walk cut short: its matches that pass the filters are read in the search index (which holds
      -- the filters an ad's age says nothing of) and ordered; no ordered index is walked.
      perform set_config('enable_indexscan', 'off', true), set_config('enable_indexonlyscan', 'off', true), set_config('enable_seqscan', 'off', true);
      execute private.list_ads_statement(format(v_index_read, '', case when v_cursor is not null then ' and (a.created_at, a.id) < ($6, $7)' else '' end, 61),
          p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
              null, null, null, null, v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_tsquery, v_phrase) into v_ids;
      perform set_config('enable_indexscan', v_indexscan, true), set_config('enable_indexonlyscan', v_indexonlyscan, true), set_config('enable_seqscan', v_seqscan, true);
    end if;

  else
    if v_tags is not null and p_brand_id is null and p_category_id is null and p_type_id is null and v_search is null then
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
      v_sql := v_sql || ' join public.ads a on a.id = t.ad_id where t.tag_id = ($4::uuid[])[1] and ' || v_board || v_facts
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
      if v_search is not null then
        execute private.list_ads_statement(format(v_walk, replace(v_any_match, 'a.', 'w.'),
                       case when v_cursor is not null then ' and (a.created_at, a.id) < ($6, $7)' else '' end, 61),
            p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
                null, null, null, null, v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_tsquery, v_phrase) into v_ids;
        v_rare := cardinality(v_ids) <= c_page_size
                  and (v_exact_query is not null or (61 - cardinality(v_ids)) * c_probe > c_walk_on * greatest(cardinality(v_ids), 1));
        if v_rare then
          v_walked_depth := private.search_walk_depth(v_walk_depth, c_probe, c_walk_on, cardinality(v_ids), 61);
          v_ids := v_ids || private.search_newest_by_periods(
            format(v_walked, case when v_cursor is not null then ' and (a.created_at, a.id) < ($6, $7)' else '' end, v_walked_depth),
            format(v_periods, v_any_period), v_walked_depth,
            61 - cardinality(v_ids), cardinality(v_ids),
            p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
            v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_period_query, v_phrase);
        end if;
      end if;
    end if;

    -- Unless the walk of a search filled the page, or it was rare and the periods after the walk did.
    if v_search is null or (not v_rare and cardinality(v_ids) <= c_page_size) then
      if v_merge then
        -- The planner cannot tell how many ads two tags share and would hash one whole range (parallel workers
        -- included) to find 61 rows: for this statement only, it merges the ordered ranges it is given.
        perform set_config('enable_hashjoin', 'off', true), set_config('max_parallel_workers_per_gather', '0', true);
      end if;
      execute private.list_ads_statement('select coalesce(array_agg(r.id order by r.created_at desc, r.id desc), ''{}'') from (' || v_sql || ') r',
          p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
              null, null, null, null, v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_tsquery, v_phrase) into v_ids;
      if v_merge then
        perform set_config('enable_hashjoin', v_hashjoin, true), set_config('max_parallel_workers_per_gather', v_workers, true);
      end if;
    end if;
  end if;

  -- The page in its order (clear ads first for a viewer without valid access; the cursor stays the last row
  -- of the page in the query's order, so no ad is skipped or repeated).
  with page as (
    select a.id, p.ord, private.ad_is_clear_for(a, v_uid is not null, v_valid_access) as clear
      from unnest(v_ids[1:c_page_size]) with ordinality as p (id, ord)
      join public.ads a on a.id = p.id
  )
  select array_agg(page.id order by not page.clear, page.ord), array_agg(page.clear order by not page.clear, page.ord)
    into v_page_ids, v_page_clear
    from page;

  if cardinality(v_ids) > c_page_size then
    v_last := v_ids[c_page_size];
    v_next_cursor := (
      select private.sign_cursor(jsonb_strip_nulls(jsonb_build_object(
               'q', v_query_key, 'day', v_today, 'i', a.id,
               't', case when v_sort in ('newest', 'relevance') then private.iso_utc(a.created_at) end,
               'd', case when v_sort = 'longest_running' then
                      case when a.still_running then v_today - a.first_seen + 1
                           when a.last_seen is not null then a.last_seen - a.first_seen + 1 end end,
               's', case when v_sort = 'recently_seen' then
                      case when a.still_running then v_today when a.last_seen is not null then a.last_seen end end,
               'r', case when v_sort = 'relevance' then
                      case when v_tsquery is not null and a.search_vector @@ v_tsquery then 1 else 2 end end)))
        from public.ads a where a.id = v_last);
  end if;
  return private.ads_page_json(v_page_ids, v_page_clear, null, v_next_cursor);
end;
$$;
revoke all on function private.list_ads_page(p_board text, p_brand_id uuid, p_category_id uuid, p_type_id uuid, p_tag_ids uuid[], p_since timestamp with time zone, p_search text, p_cursor text, p_platforms text[], p_format text, p_offer text, p_hook_id uuid, p_min_running_days integer, p_still_running boolean, p_sort text, p_colour text) from public;

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

create index ads_running_lag_order on public.ads (private.ad_added_lag(created_at, first_seen), created_at desc, id desc)
  include (first_seen, last_seen, is_black_friday, is_top_picks, search_signature)
  where still_running and first_seen is not null;

create index ads_ended_ran_order on public.ads (private.ad_ran_bucket(first_seen, last_seen), created_at desc, id desc)
  include (first_seen, last_seen, is_black_friday, is_top_picks, search_signature)
  where not still_running and first_seen is not null and last_seen is not null;

create index search_lexicon_trigrams on private.search_lexicon using gin (word extensions.gin_trgm_ops);

create trigger ads_write_search before insert or update of brand_id, category_id, type_id, card, headline,
    primary_text, landing_url, image_text, created_at, first_seen, last_seen, still_running
  on public.ads for each row execute function private.ads_write_search();

revoke all on table public.ads_with_flags from anon, authenticated;
grant select on table public.ads_with_flags to anon, authenticated;

alter table private.search_lexicon enable row level security;
