-- A rare search reads as many days of additions at once as its page needs.
--
-- Below its walk, a rare search in the newest and relevance orders reads the search index a period at a time
-- (20261202000100): a day, a month or a year, the largest in which it expects at most 200 matches. A word in one ad in
-- 200 of a library that adds 1,400 ads a day expects 7 a day and 200 in a month: at 1,000,000 ads it read four single
-- days, then the rest of the month, 190 matches for the page's last 20. The search index reads every ad of a read's
-- days, or the word's, whichever are fewer (about 0.15 us each), and each read's statement is planned (about 0.15 ms).
--
-- Now a read spans, back from where the last one stopped, the time in which the search is expected to be found as
-- often as the page still needs, and a quarter more, at most 200 matches: several days as the day words joined by
-- OR, several months as month words past 31 days, several years past 24 months. The rate is the one the walk and the
-- reads before measured, as before. Every read still covers the instants from its first period's start up to where
-- the last read stopped, so the answers are the same. See docs/decisions/0049.

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
revoke execute on function private.search_periods_query(text, timestamptz, timestamptz) from public;

-- The one period's word it replaces, which nothing else reads.
drop function private.search_period_query(text, timestamptz);

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
  execute p_walked into v_walked, v_first_at, v_at, v_id
    using p_brand_id, p_category_id, p_type_id, p_tags, p_since, p_after_at, p_after_id,
          null, null, null, null, p_platforms, p_format, p_offer, p_hook_id, p_min_running_days, p_today, p_tsquery, p_phrase;
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
    execute p_statement into v_page
      using p_brand_id, p_category_id, p_type_id, p_tags, p_since, p_after_at, p_after_id,
            null, null, null, null, p_platforms, p_format, p_offer, p_hook_id, p_min_running_days, p_today, p_tsquery,
            p_phrase, private.search_periods_query(v_level, v_start, v_in), v_at, v_id, p_need - cardinality(v_found);
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
