-- The library filters by the ads' facts (platforms, format, offer, hook, running days, still running), orders by
-- newest, longest running, recently seen or relevance, and its search reads the ad's own words as well as its
-- names: headline, primary text, landing page host and the text in the image. See docs/decisions/0032.

create extension if not exists unaccent with schema extensions;

-- Text as the search compares it: lower case, accents removed.
create or replace function private.search_fold(p_text text) returns text
language sql stable parallel safe
set search_path = ''
as $$
  select lower(extensions.unaccent('extensions.unaccent'::regdictionary, coalesce(p_text, '')))
$$;
revoke execute on function private.search_fold(text) from public;

-- The host of a landing page address, lower case and without "www.", or null.
create or replace function private.landing_host(p_url text) returns text
language sql immutable parallel safe
set search_path = ''
as $$
  select nullif(regexp_replace(lower(substring(p_url from '^[A-Za-z]+://([^/:?#]+)')), '^www\.', ''), '')
$$;
revoke execute on function private.landing_host(text) from public;

-- Everything the search reads of one ad, folded: the names its card shows (brand, category, type, tags: the card is
-- rewritten whenever one of them changes) and its own words. One line per source, so no match spans two.
create or replace function private.ad_search_text(p_ad public.ads) returns text
language sql stable
set search_path = ''
as $$
  select private.search_fold(concat_ws(e'\n',
    p_ad.card ->> 'brand_name', p_ad.card ->> 'category_name', p_ad.card ->> 'type_name',
    (select string_agg(n.name, e'\n') from jsonb_array_elements_text(p_ad.card -> 'tag_names') n (name)),
    p_ad.headline, p_ad.primary_text, private.landing_host(p_ad.landing_url), p_ad.image_text))
$$;
revoke execute on function private.ad_search_text(public.ads) from public;

-- The words of a folded text, split at spaces and punctuation, as both the document and a search are read.
create or replace function private.search_words(p_folded text) returns tsvector
language sql immutable parallel safe
set search_path = ''
as $$
  select pg_catalog.to_tsvector('pg_catalog.simple'::regconfig, regexp_replace(p_folded, '[[:space:][:punct:]]+', ' ', 'g'))
$$;
revoke execute on function private.search_words(text) from public;

alter table public.ads
  add column search_text text not null default '',
  add column search_vector tsvector not null default ''::tsvector;
-- No API role is granted the columns: the search reads them inside list_ads.

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
revoke execute on function private.ads_write_search() from public;

-- Runs after ads_write_card (BEFORE row triggers run in name order), so it reads the card just written. A renamed
-- brand, category, type or tag, and a tag added or removed, rewrite the cards (20261124000100_ad_cards): an
-- update of card, which runs this too.
create trigger ads_write_search before insert or update of brand_id, category_id, type_id, card, headline,
    primary_text, landing_url, image_text
  on public.ads for each row execute function private.ads_write_search();

update public.ads a set search_text = private.ad_search_text(a);
update public.ads a set search_vector = private.search_words(a.search_text);

-- The one search index: whole words (and word beginnings) through the tsvector, any part of the text through the
-- trigrams.
create index ads_search on public.ads using gin (search_vector, search_text extensions.gin_trgm_ops);

-- The orders' streams (decision 0032). Longest running: running ads by first seen (their days grow together every
-- day, so this order holds whatever today is) and ended ads by days ran; recently seen: running ads (seen today) by
-- id and ended ads by last seen; ads without the dates last, by id.
create index ads_running_since on public.ads (first_seen, id) where still_running;
create index ads_ran_for on public.ads ((first_seen - last_seen), id) where not still_running and last_seen is not null;
create index ads_running on public.ads (id) where still_running;
create index ads_last_seen on public.ads (last_seen desc, id) where not still_running and last_seen is not null;
create index ads_undated on public.ads (id) where not still_running and last_seen is null;
-- A hook's ads newest first (the hook filter is a short list, like categories).
create index ads_hook_order on public.ads (hook_id, created_at desc, id desc) where hook_id is not null;

drop function public.list_ads(text, uuid, uuid, uuid, uuid[], timestamptz, text, text);

-- A page of 60 ads of one board in the asked order, with filters and search. The cursor comes from the previous
-- page's next_cursor and only fits the same query; it carries the day the first page was read, so running days are
-- counted to the same today on every page. For a viewer without valid access the page's clear ads come first.
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
  p_sort text default 'newest'
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
  v_conditions text;
  v_sql text;
  v_ids uuid[];
  v_more uuid[];
  v_last uuid;
  v_ads jsonb;
  -- Tags intersected by merging their ranges while the commonest has at most this many times the rarest's ads.
  c_merge_ratio constant int := 10;
  v_rarest bigint;
  v_commonest bigint;
  v_merge boolean := false;
  v_tag int;
  v_hashjoin text := current_setting('enable_hashjoin');
  v_workers text := current_setting('max_parallel_workers_per_gather');
  -- How common the search is among the board's newest ads: a search found in fewer than 61 of them is read through
  -- the search index (a walk of the ordered index would pass over most of the board to fill a page).
  c_probe constant int := 3000;
  v_word_hits int := 0;
  v_part_hits int := 0;
  v_rare_words boolean := false;
  v_rare_parts boolean := false;
  v_rare boolean := false;
  v_indexscan text := current_setting('enable_indexscan');
  v_indexonlyscan text := current_setting('enable_indexonlyscan');
  v_seqscan text := current_setting('enable_seqscan');
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
    v_sort)::text);

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
    v_tsquery := (select string_agg(quote_literal(x.w) || case when x.n = x.last then ':*' else '' end, ' & ' order by x.n)
                    from (select t.w, t.n, max(t.n) over () as last
                            from regexp_split_to_table(regexp_replace(v_folded, '[[:space:][:punct:]]+', ' ', 'g'), ' ')
                                 with ordinality t (w, n)
                           where t.w <> '') x)::tsquery;
    v_phrase := '%' || replace(replace(replace(v_folded, '\', '\\'), '%', '\%'), '_', '\_') || '%';
    v_word_match := case when v_tsquery is null then 'false' else 'a.search_vector @@ $18' end;
    v_phrase_match := 'a.search_text like $19';
  end if;

  v_board := case p_board
    when 'library' then 'not a.is_black_friday'
    when 'black-friday' then 'a.is_black_friday'
    else 'a.is_top_picks' end;
  -- The facts' filters on ads a; $12..$17 are bound below. The running days as private.running_days counts them.
  v_facts := case when v_platforms is not null then ' and a.platforms && $12' else '' end
    || case when p_format is not null then ' and a.format = $13' else '' end
    || case when p_offer is not null then ' and a.offer = $14' else '' end
    || case when p_hook_id is not null then ' and a.hook_id = $15' else '' end
    || case when p_min_running_days is not null then
         ' and (case when a.still_running then greatest($17, coalesce(a.last_seen, a.first_seen)) else a.last_seen end)'
         || ' - a.first_seen + 1 >= $16'
         -- The same ads and maybe a few more, in the terms of the running and ended ads' indexes, for the planner to
         -- read them there when they are few: no sighting is after the latest day begun on Earth.
         || ' and ((a.still_running and a.first_seen <= ' || quote_literal(private.latest_today()) || '::date - $16 + 1)'
         || ' or (not a.still_running and a.last_seen is not null and (a.first_seen - a.last_seen) <= 1 - $16))' else '' end
    || case when v_running then ' and a.still_running' else '' end;
  -- Conditions on ads a; $1..$7 are bound below.
  v_conditions := v_board
    || case when p_brand_id is not null then ' and a.brand_id = $1' else '' end
    || case when p_category_id is not null then ' and a.category_id = $2' else '' end
    || case when p_type_id is not null then ' and a.type_id = $3' else '' end
    || case when v_tags is not null then
         ' and not exists (select 1 from unnest($4::uuid[]) w(id) where not exists '
         || '(select 1 from public.ad_tags h where h.ad_id = a.id and h.tag_id = w.id))' else '' end
    || case when p_since is not null then ' and a.created_at >= $5' else '' end
    || v_facts
    || case when v_search is not null and v_sort <> 'relevance' then ' and (' || v_word_match || ' or ' || v_phrase_match || ')' else '' end;

  if v_search is not null then
    execute 'select count(*) filter (where ' || v_word_match || '), count(*) filter (where ' || v_phrase_match
      || ' and not coalesce(' || v_word_match || ', false)) from (select a.search_vector, a.search_text from public.ads a where '
      || v_board || ' order by a.created_at desc, a.id desc limit ' || c_probe || ') a'
      into v_word_hits, v_part_hits
      using p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
            null, null, null, null, v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_tsquery, v_phrase;
    v_rare_words := v_word_hits <= c_page_size;
    v_rare_parts := v_part_hits <= c_page_size;
    v_rare := v_word_hits + v_part_hits <= c_page_size;
  end if;

  if v_sort = 'relevance' then
    -- Whole-word matches first, then the ads only the text anywhere matches; newest first within each.
    if v_after_tier is distinct from 2 then
      if v_rare_words then
        perform set_config('enable_indexscan', 'off', true), set_config('enable_indexonlyscan', 'off', true), set_config('enable_seqscan', 'off', true);
      end if;
      execute 'select coalesce(array_agg(r.id order by r.created_at desc, r.id desc), ''{}'') from ('
        || 'select a.id, a.created_at from public.ads a where ' || v_conditions || ' and ' || v_word_match
        || case when v_after_tier = 1 then ' and (a.created_at, a.id) < ($6, $7)' else '' end
        || ' order by a.created_at desc, a.id desc limit 61) r'
        into v_ids
        using p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
              null, null, null, null, v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_tsquery, v_phrase;
      perform set_config('enable_indexscan', v_indexscan, true), set_config('enable_indexonlyscan', v_indexonlyscan, true), set_config('enable_seqscan', v_seqscan, true);
    else
      v_ids := '{}';
    end if;
    if cardinality(v_ids) <= c_page_size then
      if v_rare_parts then
        perform set_config('enable_indexscan', 'off', true), set_config('enable_indexonlyscan', 'off', true), set_config('enable_seqscan', 'off', true);
      end if;
      execute 'select coalesce(array_agg(r.id order by r.created_at desc, r.id desc), ''{}'') from ('
        || 'select a.id, a.created_at from public.ads a where ' || v_conditions || ' and ' || v_phrase_match
        || ' and not coalesce(' || v_word_match || ', false)'
        || case when v_after_tier = 2 then ' and (a.created_at, a.id) < ($6, $7)' else '' end
        || ' order by a.created_at desc, a.id desc limit ' || (61 - cardinality(v_ids)) || ') r'
        into v_more
        using p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
              null, null, null, null, v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_tsquery, v_phrase;
      perform set_config('enable_indexscan', v_indexscan, true), set_config('enable_indexonlyscan', v_indexonlyscan, true), set_config('enable_seqscan', v_seqscan, true);
      v_ids := v_ids || v_more;
    end if;

  elsif v_sort in ('longest_running', 'recently_seen') then
    -- Two ordered streams of dated ads merged on their key, then the undated ones by id (see the indexes above).
    -- Keys: longest running, the days ran (a running ad's to today) descending; recently seen, the last day seen
    -- (a running ad's is today) descending; ties by id.
    if v_cursor is null or v_after_days is not null or v_after_seen is not null then
      if v_sort = 'longest_running' then
        v_sql := 'select s.id from ('
          || '(select a.id, $17 - a.first_seen + 1 as k from public.ads a where ' || v_conditions || ' and a.still_running'
          || case when v_cursor is not null then ' and (a.first_seen, a.id) > ($17 + 1 - $20, $7)' else '' end
          || ' order by a.first_seen, a.id limit 61)'
          || ' union all '
          || '(select a.id, a.last_seen - a.first_seen + 1 as k from public.ads a where ' || v_conditions
          || ' and not a.still_running and a.last_seen is not null'
          || case when v_cursor is not null then ' and ((a.first_seen - a.last_seen), a.id) > (1 - $20, $7)' else '' end
          || ' order by (a.first_seen - a.last_seen), a.id limit 61)'
          || ') s order by s.k desc, s.id limit 61';
      else
        v_sql := 'select s.id from ('
          || case when v_cursor is null or v_after_seen >= v_today then
               '(select a.id, $17 as k from public.ads a where ' || v_conditions || ' and a.still_running'
               || case when v_after_seen = v_today then ' and a.id > $7' else '' end
               || ' order by a.id limit 61) union all '
             else '' end
          || '(select a.id, a.last_seen as k from public.ads a where ' || v_conditions
          || ' and not a.still_running and a.last_seen is not null'
          || case when v_cursor is not null then ' and a.last_seen <= $21 and (a.last_seen < $21 or a.id > $7)' else '' end
          || ' order by a.last_seen desc, a.id limit 61)'
          || ') s order by s.k desc, s.id limit 61';
      end if;
      if v_rare then
        perform set_config('enable_indexscan', 'off', true), set_config('enable_indexonlyscan', 'off', true), set_config('enable_seqscan', 'off', true);
      end if;
      execute 'select coalesce(array_agg(r.id order by r.n), ''{}'') from (select q.id, row_number() over () as n from ('
        || v_sql || ') q) r'
        into v_ids
        using p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
              null, null, null, null, v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_tsquery, v_phrase,
              v_after_days, v_after_seen;
      perform set_config('enable_indexscan', v_indexscan, true), set_config('enable_indexonlyscan', v_indexonlyscan, true), set_config('enable_seqscan', v_seqscan, true);
    else
      v_ids := '{}';
    end if;
    -- No undated ad runs any number of days.
    if cardinality(v_ids) <= c_page_size and p_min_running_days is null then
      if v_rare then
        perform set_config('enable_indexscan', 'off', true), set_config('enable_indexonlyscan', 'off', true), set_config('enable_seqscan', 'off', true);
      end if;
      execute 'select coalesce(array_agg(r.id order by r.id), ''{}'') from ('
        || 'select a.id from public.ads a where ' || v_conditions || ' and not a.still_running and a.last_seen is null'
        || case when v_cursor is not null and v_after_days is null and v_after_seen is null then ' and a.id > $7' else '' end
        || ' order by a.id limit ' || (61 - cardinality(v_ids)) || ') r'
        into v_more
        using p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
              null, null, null, null, v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_tsquery, v_phrase;
      perform set_config('enable_indexscan', v_indexscan, true), set_config('enable_indexonlyscan', v_indexonlyscan, true), set_config('enable_seqscan', v_seqscan, true);
      v_ids := v_ids || v_more;
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
    end if;

    if v_rare then
      perform set_config('enable_indexscan', 'off', true), set_config('enable_indexonlyscan', 'off', true), set_config('enable_seqscan', 'off', true);
    end if;
    if v_merge then
      -- The planner cannot tell how many ads two tags share and would hash one whole range (parallel workers
      -- included) to find 61 rows: for this statement only, it merges the ordered ranges it is given.
      perform set_config('enable_hashjoin', 'off', true), set_config('max_parallel_workers_per_gather', '0', true);
    end if;
    execute 'select coalesce(array_agg(r.id order by r.created_at desc, r.id desc), ''{}'') from (' || v_sql || ') r'
      into v_ids
      using p_brand_id, p_category_id, p_type_id, v_tags, p_since, v_after_at, v_after_id,
            null, null, null, null, v_platforms, p_format, p_offer, p_hook_id, p_min_running_days, v_today, v_tsquery, v_phrase;
    if v_merge then
      perform set_config('enable_hashjoin', v_hashjoin, true), set_config('max_parallel_workers_per_gather', v_workers, true);
    end if;
    perform set_config('enable_indexscan', v_indexscan, true), set_config('enable_indexonlyscan', v_indexonlyscan, true), set_config('enable_seqscan', v_seqscan, true);
  end if;

  -- The page in its order (clear ads first for a viewer without valid access; the cursor stays the last row
  -- of the page in the query's order, so no ad is skipped or repeated).
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
    v_last := v_ids[c_page_size];
    return jsonb_build_object('ads', v_ads, 'next_cursor', (
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
        from public.ads a where a.id = v_last));
  end if;
  return jsonb_build_object('ads', v_ads, 'next_cursor', null);
end;
$$;

revoke execute on function public.list_ads(text, uuid, uuid, uuid, uuid[], timestamptz, text, text, text[], text, text, uuid, int, boolean, text)
  from public, anon, authenticated;
grant execute on function public.list_ads(text, uuid, uuid, uuid, uuid[], timestamptz, text, text, text[], text, text, uuid, int, boolean, text)
  to anon, authenticated, service_role;

-- One ad for its detail page, as before, with the words in its image among the facts when the caller sees it
-- clear: they are part of the creative, which the paywall keeps for those with access (null when locked).
create or replace function public.get_ad(p_id uuid) returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select private.ads_json(array[a.id], array[c.clear],
                          array[jsonb_build_object('facts', private.ad_facts(a)
                                  || jsonb_build_object('image_text', case when c.clear then a.image_text end))]) -> 0
    from public.ads a
   cross join lateral (select private.ad_is_clear_for(a, (select auth.uid()) is not null, public.has_valid_access()) as clear) c
   where a.id = p_id
$$;
revoke execute on function public.get_ad(uuid) from public, anon, authenticated;
grant execute on function public.get_ad(uuid) to anon, authenticated, service_role;
