-- A search of one word is found by its text alone: an ad whose words begin with the word holds it in its text, so
-- the words added nothing to the condition but their estimate, PostgreSQL's floor for a word it has no statistics
-- for, which made a mistyped word walk the newest index through every ad (bench:db "search no ad matches", newest
-- first, p95 at 1,000,000 ads: 2,132 -> 1.7 ms; docs/decisions/0071). The relevance order still ranks by the words.
-- Where the rum extension exists, the words get a rum index of their own and the GIN index keeps the trigrams; the
-- type's index goes (its readers rewrite every ad of the type), so public.ads keeps 20 indexes. The text's estimate
-- is read from a sample of 1,000 texts.
-- The result is declared in supabase/schemas too; tests/sql/schema-drift.test.ts checks that both agree.

do $$
begin
  if exists (select 1 from pg_catalog.pg_available_extensions where name = 'rum') then
    create extension if not exists rum with schema extensions;
  end if;
end
$$;

do $$
begin
  if exists (select 1 from pg_catalog.pg_extension where extname = 'rum') then
    drop index public.ads_search;
    create index ads_search on public.ads using gin (search_text extensions.gin_trgm_ops);
    create index ads_search_words on public.ads using rum (search_vector extensions.rum_tsvector_ops);
  end if;
end
$$;

drop index public.ads_type;

alter table public.ads alter column search_text set statistics 1000;

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
