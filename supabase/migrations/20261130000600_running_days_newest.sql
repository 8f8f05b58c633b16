-- The running-days filter in the newest order reads only ads that can have run long enough. A newest-first walk of
-- the board passed over every recent ad (most still running and first seen lately) before it found one that had
-- run the asked days: 80,000 ads for 60 days at 1,000,000 ads. See docs/decisions/0036.

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
revoke execute on function private.ad_added_lag(timestamptz, date) from public;

create index ads_added_lag_order on public.ads (private.ad_added_lag(created_at, first_seen), created_at desc, id desc)
  where first_seen is not null;

-- Ads by first and last sighting, for the few first seen after X that ran long enough by a later last sighting.
create index ads_seen_dates on public.ads (first_seen, last_seen) where first_seen is not null;

-- The newest 61 ads of a board (after the cursor) that ran at least p_min_running_days by p_today, with the facts'
-- filters that have no index of their own. An ad that ran N days by today was first seen on X = today - (N - 1) at
-- the latest, unless it was last seen after today (UTC+14): one added k days after its first sighting was added on
-- X + k at the latest. Each stream of one delay starts there, and every ad of a day-by-day stream below that start
-- was first seen early enough; the few last seen after today come from an index of the dates. The streams are merged
-- on the order's key. The plan is kept for the session: the statement has the same shape on every call.
create or replace function private.ads_running_at_least(
  p_board text,
  p_since timestamptz,
  p_platforms text[],
  p_format text,
  p_offer text,
  p_min_running_days int,
  p_still_running boolean,
  p_today date,
  p_after_at timestamptz,
  p_after_id uuid
) returns uuid[]
language plpgsql
stable
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
  v_after_at timestamptz := coalesce(p_after_at, 'infinity');
  v_after_id uuid := coalesce(p_after_id, 'ffffffff-ffff-ffff-ffff-ffffffffffff');
  v_ids uuid[];
begin
  select coalesce(array_agg(s.id order by s.created_at desc, s.id desc), '{}') into v_ids from (
    select s.id, s.created_at from (
      (select a.id, a.created_at from public.ads a
        where private.ad_added_lag(a.created_at, a.first_seen) = -1 and a.created_at < v_before + interval '-24 hours'
          and a.first_seen <= v_first_seen_by and case p_board when 'library' then not a.is_black_friday when 'black-friday' then a.is_black_friday else a.is_top_picks end
           and a.created_at >= v_since and (a.created_at, a.id) < (v_after_at, v_after_id)
           and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
           and (p_offer is null or a.offer = p_offer) and (not v_running or a.still_running)
           and (case when a.still_running then greatest(p_today, coalesce(a.last_seen, a.first_seen)) else a.last_seen end)
               - a.first_seen + 1 >= p_min_running_days
        order by a.created_at desc, a.id desc limit 61)
      union all
      (select a.id, a.created_at from public.ads a
        where private.ad_added_lag(a.created_at, a.first_seen) = 0 and a.created_at < v_before
          and a.first_seen <= v_first_seen_by and case p_board when 'library' then not a.is_black_friday when 'black-friday' then a.is_black_friday else a.is_top_picks end
           and a.created_at >= v_since and (a.created_at, a.id) < (v_after_at, v_after_id)
           and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
           and (p_offer is null or a.offer = p_offer) and (not v_running or a.still_running)
           and (case when a.still_running then greatest(p_today, coalesce(a.last_seen, a.first_seen)) else a.last_seen end)
               - a.first_seen + 1 >= p_min_running_days
        order by a.created_at desc, a.id desc limit 61)
      union all
      (select a.id, a.created_at from public.ads a
        where private.ad_added_lag(a.created_at, a.first_seen) = 1 and a.created_at < v_before + interval '24 hours'
          and a.first_seen <= v_first_seen_by and case p_board when 'library' then not a.is_black_friday when 'black-friday' then a.is_black_friday else a.is_top_picks end
           and a.created_at >= v_since and (a.created_at, a.id) < (v_after_at, v_after_id)
           and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
           and (p_offer is null or a.offer = p_offer) and (not v_running or a.still_running)
           and (case when a.still_running then greatest(p_today, coalesce(a.last_seen, a.first_seen)) else a.last_seen end)
               - a.first_seen + 1 >= p_min_running_days
        order by a.created_at desc, a.id desc limit 61)
      union all
      (select a.id, a.created_at from public.ads a
        where private.ad_added_lag(a.created_at, a.first_seen) = 2 and a.created_at < v_before + interval '48 hours'
          and a.first_seen <= v_first_seen_by and case p_board when 'library' then not a.is_black_friday when 'black-friday' then a.is_black_friday else a.is_top_picks end
           and a.created_at >= v_since and (a.created_at, a.id) < (v_after_at, v_after_id)
           and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
           and (p_offer is null or a.offer = p_offer) and (not v_running or a.still_running)
           and (case when a.still_running then greatest(p_today, coalesce(a.last_seen, a.first_seen)) else a.last_seen end)
               - a.first_seen + 1 >= p_min_running_days
        order by a.created_at desc, a.id desc limit 61)
      union all
      (select a.id, a.created_at from public.ads a
        where private.ad_added_lag(a.created_at, a.first_seen) = 3 and a.created_at < v_before + interval '72 hours'
          and a.first_seen <= v_first_seen_by and case p_board when 'library' then not a.is_black_friday when 'black-friday' then a.is_black_friday else a.is_top_picks end
           and a.created_at >= v_since and (a.created_at, a.id) < (v_after_at, v_after_id)
           and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
           and (p_offer is null or a.offer = p_offer) and (not v_running or a.still_running)
           and (case when a.still_running then greatest(p_today, coalesce(a.last_seen, a.first_seen)) else a.last_seen end)
               - a.first_seen + 1 >= p_min_running_days
        order by a.created_at desc, a.id desc limit 61)
      union all
      (select a.id, a.created_at from public.ads a
        where private.ad_added_lag(a.created_at, a.first_seen) = 4 and a.created_at < v_before + interval '96 hours'
          and a.first_seen <= v_first_seen_by and case p_board when 'library' then not a.is_black_friday when 'black-friday' then a.is_black_friday else a.is_top_picks end
           and a.created_at >= v_since and (a.created_at, a.id) < (v_after_at, v_after_id)
           and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
           and (p_offer is null or a.offer = p_offer) and (not v_running or a.still_running)
           and (case when a.still_running then greatest(p_today, coalesce(a.last_seen, a.first_seen)) else a.last_seen end)
               - a.first_seen + 1 >= p_min_running_days
        order by a.created_at desc, a.id desc limit 61)
      union all
      (select a.id, a.created_at from public.ads a
        where private.ad_added_lag(a.created_at, a.first_seen) = 5 and a.created_at < v_before + interval '120 hours'
          and a.first_seen <= v_first_seen_by and case p_board when 'library' then not a.is_black_friday when 'black-friday' then a.is_black_friday else a.is_top_picks end
           and a.created_at >= v_since and (a.created_at, a.id) < (v_after_at, v_after_id)
           and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
           and (p_offer is null or a.offer = p_offer) and (not v_running or a.still_running)
           and (case when a.still_running then greatest(p_today, coalesce(a.last_seen, a.first_seen)) else a.last_seen end)
               - a.first_seen + 1 >= p_min_running_days
        order by a.created_at desc, a.id desc limit 61)
      union all
      (select a.id, a.created_at from public.ads a
        where private.ad_added_lag(a.created_at, a.first_seen) = 6 and a.created_at < v_before + interval '144 hours'
          and a.first_seen <= v_first_seen_by and case p_board when 'library' then not a.is_black_friday when 'black-friday' then a.is_black_friday else a.is_top_picks end
           and a.created_at >= v_since and (a.created_at, a.id) < (v_after_at, v_after_id)
           and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
           and (p_offer is null or a.offer = p_offer) and (not v_running or a.still_running)
           and (case when a.still_running then greatest(p_today, coalesce(a.last_seen, a.first_seen)) else a.last_seen end)
               - a.first_seen + 1 >= p_min_running_days
        order by a.created_at desc, a.id desc limit 61)
      union all
      (select a.id, a.created_at from public.ads a
        where private.ad_added_lag(a.created_at, a.first_seen) = 7 and a.created_at < v_before + interval '168 hours'
          and a.first_seen <= v_first_seen_by and case p_board when 'library' then not a.is_black_friday when 'black-friday' then a.is_black_friday else a.is_top_picks end
           and a.created_at >= v_since and (a.created_at, a.id) < (v_after_at, v_after_id)
           and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
           and (p_offer is null or a.offer = p_offer) and (not v_running or a.still_running)
           and (case when a.still_running then greatest(p_today, coalesce(a.last_seen, a.first_seen)) else a.last_seen end)
               - a.first_seen + 1 >= p_min_running_days
        order by a.created_at desc, a.id desc limit 61)
      union all
      (select a.id, a.created_at from public.ads a
        where private.ad_added_lag(a.created_at, a.first_seen) = 8 and a.created_at < v_before + interval '192 hours'
          and a.first_seen <= v_first_seen_by and case p_board when 'library' then not a.is_black_friday when 'black-friday' then a.is_black_friday else a.is_top_picks end
           and a.created_at >= v_since and (a.created_at, a.id) < (v_after_at, v_after_id)
           and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
           and (p_offer is null or a.offer = p_offer) and (not v_running or a.still_running)
           and (case when a.still_running then greatest(p_today, coalesce(a.last_seen, a.first_seen)) else a.last_seen end)
               - a.first_seen + 1 >= p_min_running_days
        order by a.created_at desc, a.id desc limit 61)
      union all
      (select a.id, a.created_at from public.ads a
        where private.ad_added_lag(a.created_at, a.first_seen) = 9 and a.created_at < v_before + interval '216 hours'
          and a.first_seen <= v_first_seen_by and case p_board when 'library' then not a.is_black_friday when 'black-friday' then a.is_black_friday else a.is_top_picks end
           and a.created_at >= v_since and (a.created_at, a.id) < (v_after_at, v_after_id)
           and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
           and (p_offer is null or a.offer = p_offer) and (not v_running or a.still_running)
           and (case when a.still_running then greatest(p_today, coalesce(a.last_seen, a.first_seen)) else a.last_seen end)
               - a.first_seen + 1 >= p_min_running_days
        order by a.created_at desc, a.id desc limit 61)
      union all
      (select a.id, a.created_at from public.ads a
        where private.ad_added_lag(a.created_at, a.first_seen) = 10 and a.created_at < v_before + interval '240 hours'
          and a.first_seen <= v_first_seen_by and case p_board when 'library' then not a.is_black_friday when 'black-friday' then a.is_black_friday else a.is_top_picks end
           and a.created_at >= v_since and (a.created_at, a.id) < (v_after_at, v_after_id)
           and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
           and (p_offer is null or a.offer = p_offer) and (not v_running or a.still_running)
           and (case when a.still_running then greatest(p_today, coalesce(a.last_seen, a.first_seen)) else a.last_seen end)
               - a.first_seen + 1 >= p_min_running_days
        order by a.created_at desc, a.id desc limit 61)
      union all
      (select a.id, a.created_at from public.ads a
        where private.ad_added_lag(a.created_at, a.first_seen) = 11 and a.created_at < v_before + interval '264 hours'
          and a.first_seen <= v_first_seen_by and case p_board when 'library' then not a.is_black_friday when 'black-friday' then a.is_black_friday else a.is_top_picks end
           and a.created_at >= v_since and (a.created_at, a.id) < (v_after_at, v_after_id)
           and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
           and (p_offer is null or a.offer = p_offer) and (not v_running or a.still_running)
           and (case when a.still_running then greatest(p_today, coalesce(a.last_seen, a.first_seen)) else a.last_seen end)
               - a.first_seen + 1 >= p_min_running_days
        order by a.created_at desc, a.id desc limit 61)
      union all
      (select a.id, a.created_at from public.ads a
        where private.ad_added_lag(a.created_at, a.first_seen) = 12 and a.created_at < v_before + interval '288 hours'
          and a.first_seen <= v_first_seen_by and case p_board when 'library' then not a.is_black_friday when 'black-friday' then a.is_black_friday else a.is_top_picks end
           and a.created_at >= v_since and (a.created_at, a.id) < (v_after_at, v_after_id)
           and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
           and (p_offer is null or a.offer = p_offer) and (not v_running or a.still_running)
           and (case when a.still_running then greatest(p_today, coalesce(a.last_seen, a.first_seen)) else a.last_seen end)
               - a.first_seen + 1 >= p_min_running_days
        order by a.created_at desc, a.id desc limit 61)
      union all
      (select a.id, a.created_at from public.ads a
        where private.ad_added_lag(a.created_at, a.first_seen) = 13 and a.created_at < v_before + interval '312 hours'
          and a.first_seen <= v_first_seen_by and case p_board when 'library' then not a.is_black_friday when 'black-friday' then a.is_black_friday else a.is_top_picks end
           and a.created_at >= v_since and (a.created_at, a.id) < (v_after_at, v_after_id)
           and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
           and (p_offer is null or a.offer = p_offer) and (not v_running or a.still_running)
           and (case when a.still_running then greatest(p_today, coalesce(a.last_seen, a.first_seen)) else a.last_seen end)
               - a.first_seen + 1 >= p_min_running_days
        order by a.created_at desc, a.id desc limit 61)
      union all
      (select a.id, a.created_at from public.ads a
        where private.ad_added_lag(a.created_at, a.first_seen) = 14 and a.created_at < v_before + interval '336 hours'
          and a.first_seen <= v_first_seen_by and case p_board when 'library' then not a.is_black_friday when 'black-friday' then a.is_black_friday else a.is_top_picks end
           and a.created_at >= v_since and (a.created_at, a.id) < (v_after_at, v_after_id)
           and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
           and (p_offer is null or a.offer = p_offer) and (not v_running or a.still_running)
           and (case when a.still_running then greatest(p_today, coalesce(a.last_seen, a.first_seen)) else a.last_seen end)
               - a.first_seen + 1 >= p_min_running_days
        order by a.created_at desc, a.id desc limit 61)
      union all
      (select a.id, a.created_at from public.ads a
        where private.ad_added_lag(a.created_at, a.first_seen) = 15 and a.created_at < v_before + interval '360 hours'
          and a.first_seen <= v_first_seen_by and case p_board when 'library' then not a.is_black_friday when 'black-friday' then a.is_black_friday else a.is_top_picks end
           and a.created_at >= v_since and (a.created_at, a.id) < (v_after_at, v_after_id)
           and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
           and (p_offer is null or a.offer = p_offer) and (not v_running or a.still_running)
           and (case when a.still_running then greatest(p_today, coalesce(a.last_seen, a.first_seen)) else a.last_seen end)
               - a.first_seen + 1 >= p_min_running_days
        order by a.created_at desc, a.id desc limit 61)
      union all
      (select a.id, a.created_at from public.ads a
        where private.ad_added_lag(a.created_at, a.first_seen) = 16 and a.created_at < v_before + interval '384 hours'
          and a.first_seen <= v_first_seen_by and case p_board when 'library' then not a.is_black_friday when 'black-friday' then a.is_black_friday else a.is_top_picks end
           and a.created_at >= v_since and (a.created_at, a.id) < (v_after_at, v_after_id)
           and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
           and (p_offer is null or a.offer = p_offer) and (not v_running or a.still_running)
           and (case when a.still_running then greatest(p_today, coalesce(a.last_seen, a.first_seen)) else a.last_seen end)
               - a.first_seen + 1 >= p_min_running_days
        order by a.created_at desc, a.id desc limit 61)
      union all
      (select a.id, a.created_at from public.ads a
        where private.ad_added_lag(a.created_at, a.first_seen) = 17 and a.created_at < v_before + interval '408 hours'
          and a.first_seen <= v_first_seen_by and case p_board when 'library' then not a.is_black_friday when 'black-friday' then a.is_black_friday else a.is_top_picks end
           and a.created_at >= v_since and (a.created_at, a.id) < (v_after_at, v_after_id)
           and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
           and (p_offer is null or a.offer = p_offer) and (not v_running or a.still_running)
           and (case when a.still_running then greatest(p_today, coalesce(a.last_seen, a.first_seen)) else a.last_seen end)
               - a.first_seen + 1 >= p_min_running_days
        order by a.created_at desc, a.id desc limit 61)
      union all
      (select a.id, a.created_at from public.ads a
        where private.ad_added_lag(a.created_at, a.first_seen) = 18 and a.created_at < v_before + interval '432 hours'
          and a.first_seen <= v_first_seen_by and case p_board when 'library' then not a.is_black_friday when 'black-friday' then a.is_black_friday else a.is_top_picks end
           and a.created_at >= v_since and (a.created_at, a.id) < (v_after_at, v_after_id)
           and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
           and (p_offer is null or a.offer = p_offer) and (not v_running or a.still_running)
           and (case when a.still_running then greatest(p_today, coalesce(a.last_seen, a.first_seen)) else a.last_seen end)
               - a.first_seen + 1 >= p_min_running_days
        order by a.created_at desc, a.id desc limit 61)
      union all
      (select a.id, a.created_at from public.ads a
        where private.ad_added_lag(a.created_at, a.first_seen) = 19 and a.created_at < v_before + interval '456 hours'
          and a.first_seen <= v_first_seen_by and case p_board when 'library' then not a.is_black_friday when 'black-friday' then a.is_black_friday else a.is_top_picks end
           and a.created_at >= v_since and (a.created_at, a.id) < (v_after_at, v_after_id)
           and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
           and (p_offer is null or a.offer = p_offer) and (not v_running or a.still_running)
           and (case when a.still_running then greatest(p_today, coalesce(a.last_seen, a.first_seen)) else a.last_seen end)
               - a.first_seen + 1 >= p_min_running_days
        order by a.created_at desc, a.id desc limit 61)
      union all
      (select a.id, a.created_at from public.ads a
        where private.ad_added_lag(a.created_at, a.first_seen) = 20 and a.created_at < v_before + interval '480 hours'
          and a.first_seen <= v_first_seen_by and case p_board when 'library' then not a.is_black_friday when 'black-friday' then a.is_black_friday else a.is_top_picks end
           and a.created_at >= v_since and (a.created_at, a.id) < (v_after_at, v_after_id)
           and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
           and (p_offer is null or a.offer = p_offer) and (not v_running or a.still_running)
           and (case when a.still_running then greatest(p_today, coalesce(a.last_seen, a.first_seen)) else a.last_seen end)
               - a.first_seen + 1 >= p_min_running_days
        order by a.created_at desc, a.id desc limit 61)
      union all
      (select a.id, a.created_at from public.ads a
        where private.ad_added_lag(a.created_at, a.first_seen) = 21 and a.created_at < v_before + interval '504 hours'
          and a.first_seen <= v_first_seen_by and case p_board when 'library' then not a.is_black_friday when 'black-friday' then a.is_black_friday else a.is_top_picks end
           and a.created_at >= v_since and (a.created_at, a.id) < (v_after_at, v_after_id)
           and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
           and (p_offer is null or a.offer = p_offer) and (not v_running or a.still_running)
           and (case when a.still_running then greatest(p_today, coalesce(a.last_seen, a.first_seen)) else a.last_seen end)
               - a.first_seen + 1 >= p_min_running_days
        order by a.created_at desc, a.id desc limit 61)
      union all
      (select a.id, a.created_at from public.ads a
        where private.ad_added_lag(a.created_at, a.first_seen) = 22 and a.created_at < v_before + interval '528 hours'
          and a.first_seen <= v_first_seen_by and case p_board when 'library' then not a.is_black_friday when 'black-friday' then a.is_black_friday else a.is_top_picks end
           and a.created_at >= v_since and (a.created_at, a.id) < (v_after_at, v_after_id)
           and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
           and (p_offer is null or a.offer = p_offer) and (not v_running or a.still_running)
           and (case when a.still_running then greatest(p_today, coalesce(a.last_seen, a.first_seen)) else a.last_seen end)
               - a.first_seen + 1 >= p_min_running_days
        order by a.created_at desc, a.id desc limit 61)
      union all
      (select a.id, a.created_at from public.ads a
        where private.ad_added_lag(a.created_at, a.first_seen) = 23 and a.created_at < v_before + interval '552 hours'
          and a.first_seen <= v_first_seen_by and case p_board when 'library' then not a.is_black_friday when 'black-friday' then a.is_black_friday else a.is_top_picks end
           and a.created_at >= v_since and (a.created_at, a.id) < (v_after_at, v_after_id)
           and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
           and (p_offer is null or a.offer = p_offer) and (not v_running or a.still_running)
           and (case when a.still_running then greatest(p_today, coalesce(a.last_seen, a.first_seen)) else a.last_seen end)
               - a.first_seen + 1 >= p_min_running_days
        order by a.created_at desc, a.id desc limit 61)
      union all
      (select a.id, a.created_at from public.ads a
        where private.ad_added_lag(a.created_at, a.first_seen) = 24 and a.created_at < v_before + interval '576 hours'
          and a.first_seen <= v_first_seen_by and case p_board when 'library' then not a.is_black_friday when 'black-friday' then a.is_black_friday else a.is_top_picks end
           and a.created_at >= v_since and (a.created_at, a.id) < (v_after_at, v_after_id)
           and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
           and (p_offer is null or a.offer = p_offer) and (not v_running or a.still_running)
           and (case when a.still_running then greatest(p_today, coalesce(a.last_seen, a.first_seen)) else a.last_seen end)
               - a.first_seen + 1 >= p_min_running_days
        order by a.created_at desc, a.id desc limit 61)
      union all
      (select a.id, a.created_at from public.ads a
        where private.ad_added_lag(a.created_at, a.first_seen) = 25 and a.created_at < v_before + interval '600 hours'
          and a.first_seen <= v_first_seen_by and case p_board when 'library' then not a.is_black_friday when 'black-friday' then a.is_black_friday else a.is_top_picks end
           and a.created_at >= v_since and (a.created_at, a.id) < (v_after_at, v_after_id)
           and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
           and (p_offer is null or a.offer = p_offer) and (not v_running or a.still_running)
           and (case when a.still_running then greatest(p_today, coalesce(a.last_seen, a.first_seen)) else a.last_seen end)
               - a.first_seen + 1 >= p_min_running_days
        order by a.created_at desc, a.id desc limit 61)
      union all
      (select a.id, a.created_at from public.ads a
        where private.ad_added_lag(a.created_at, a.first_seen) = 26 and a.created_at < v_before + interval '624 hours'
          and a.first_seen <= v_first_seen_by and case p_board when 'library' then not a.is_black_friday when 'black-friday' then a.is_black_friday else a.is_top_picks end
           and a.created_at >= v_since and (a.created_at, a.id) < (v_after_at, v_after_id)
           and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
           and (p_offer is null or a.offer = p_offer) and (not v_running or a.still_running)
           and (case when a.still_running then greatest(p_today, coalesce(a.last_seen, a.first_seen)) else a.last_seen end)
               - a.first_seen + 1 >= p_min_running_days
        order by a.created_at desc, a.id desc limit 61)
      union all
      (select a.id, a.created_at from public.ads a
        where private.ad_added_lag(a.created_at, a.first_seen) = 27 and a.created_at < v_before + interval '648 hours'
          and a.first_seen <= v_first_seen_by and case p_board when 'library' then not a.is_black_friday when 'black-friday' then a.is_black_friday else a.is_top_picks end
           and a.created_at >= v_since and (a.created_at, a.id) < (v_after_at, v_after_id)
           and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
           and (p_offer is null or a.offer = p_offer) and (not v_running or a.still_running)
           and (case when a.still_running then greatest(p_today, coalesce(a.last_seen, a.first_seen)) else a.last_seen end)
               - a.first_seen + 1 >= p_min_running_days
        order by a.created_at desc, a.id desc limit 61)
      union all
      (select a.id, a.created_at from public.ads a
        where private.ad_added_lag(a.created_at, a.first_seen) = 28 and a.created_at < v_before + interval '672 hours'
          and a.first_seen <= v_first_seen_by and case p_board when 'library' then not a.is_black_friday when 'black-friday' then a.is_black_friday else a.is_top_picks end
           and a.created_at >= v_since and (a.created_at, a.id) < (v_after_at, v_after_id)
           and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
           and (p_offer is null or a.offer = p_offer) and (not v_running or a.still_running)
           and (case when a.still_running then greatest(p_today, coalesce(a.last_seen, a.first_seen)) else a.last_seen end)
               - a.first_seen + 1 >= p_min_running_days
        order by a.created_at desc, a.id desc limit 61)
      union all
      (select a.id, a.created_at from public.ads a
        where private.ad_added_lag(a.created_at, a.first_seen) = 29 and a.created_at < v_before + interval '696 hours'
          and a.first_seen <= v_first_seen_by and case p_board when 'library' then not a.is_black_friday when 'black-friday' then a.is_black_friday else a.is_top_picks end
           and a.created_at >= v_since and (a.created_at, a.id) < (v_after_at, v_after_id)
           and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
           and (p_offer is null or a.offer = p_offer) and (not v_running or a.still_running)
           and (case when a.still_running then greatest(p_today, coalesce(a.last_seen, a.first_seen)) else a.last_seen end)
               - a.first_seen + 1 >= p_min_running_days
        order by a.created_at desc, a.id desc limit 61)
      union all
      (select a.id, a.created_at from public.ads a
        where private.ad_added_lag(a.created_at, a.first_seen) = 30 and a.created_at < v_before + interval '720 hours'
          and a.first_seen <= v_first_seen_by and case p_board when 'library' then not a.is_black_friday when 'black-friday' then a.is_black_friday else a.is_top_picks end
           and a.created_at >= v_since and (a.created_at, a.id) < (v_after_at, v_after_id)
           and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
           and (p_offer is null or a.offer = p_offer) and (not v_running or a.still_running)
           and (case when a.still_running then greatest(p_today, coalesce(a.last_seen, a.first_seen)) else a.last_seen end)
               - a.first_seen + 1 >= p_min_running_days
        order by a.created_at desc, a.id desc limit 61)
      union all
      (select a.id, a.created_at from public.ads a
        where private.ad_added_lag(a.created_at, a.first_seen) = 31 and a.created_at < v_before + interval '744 hours'
          and a.first_seen <= v_first_seen_by and case p_board when 'library' then not a.is_black_friday when 'black-friday' then a.is_black_friday else a.is_top_picks end
           and a.created_at >= v_since and (a.created_at, a.id) < (v_after_at, v_after_id)
           and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
           and (p_offer is null or a.offer = p_offer) and (not v_running or a.still_running)
           and (case when a.still_running then greatest(p_today, coalesce(a.last_seen, a.first_seen)) else a.last_seen end)
               - a.first_seen + 1 >= p_min_running_days
        order by a.created_at desc, a.id desc limit 61)
      union all
      (select a.id, a.created_at from public.ads a
        where private.ad_added_lag(a.created_at, a.first_seen) = 32 and a.created_at < v_before + interval '1512 hours'
          and a.first_seen <= v_first_seen_by and case p_board when 'library' then not a.is_black_friday when 'black-friday' then a.is_black_friday else a.is_top_picks end
           and a.created_at >= v_since and (a.created_at, a.id) < (v_after_at, v_after_id)
           and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
           and (p_offer is null or a.offer = p_offer) and (not v_running or a.still_running)
           and (case when a.still_running then greatest(p_today, coalesce(a.last_seen, a.first_seen)) else a.last_seen end)
               - a.first_seen + 1 >= p_min_running_days
        order by a.created_at desc, a.id desc limit 61)
      union all
      (select a.id, a.created_at from public.ads a
        where private.ad_added_lag(a.created_at, a.first_seen) = 33 and a.created_at < v_before + interval '3048 hours'
          and a.first_seen <= v_first_seen_by and case p_board when 'library' then not a.is_black_friday when 'black-friday' then a.is_black_friday else a.is_top_picks end
           and a.created_at >= v_since and (a.created_at, a.id) < (v_after_at, v_after_id)
           and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
           and (p_offer is null or a.offer = p_offer) and (not v_running or a.still_running)
           and (case when a.still_running then greatest(p_today, coalesce(a.last_seen, a.first_seen)) else a.last_seen end)
               - a.first_seen + 1 >= p_min_running_days
        order by a.created_at desc, a.id desc limit 61)
      union all
      (select a.id, a.created_at from public.ads a
        where private.ad_added_lag(a.created_at, a.first_seen) = 34 and a.created_at < v_before + interval '6120 hours'
          and a.first_seen <= v_first_seen_by and case p_board when 'library' then not a.is_black_friday when 'black-friday' then a.is_black_friday else a.is_top_picks end
           and a.created_at >= v_since and (a.created_at, a.id) < (v_after_at, v_after_id)
           and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
           and (p_offer is null or a.offer = p_offer) and (not v_running or a.still_running)
           and (case when a.still_running then greatest(p_today, coalesce(a.last_seen, a.first_seen)) else a.last_seen end)
               - a.first_seen + 1 >= p_min_running_days
        order by a.created_at desc, a.id desc limit 61)
      union all
      (select a.id, a.created_at from public.ads a
        where private.ad_added_lag(a.created_at, a.first_seen) = 35 and a.created_at < v_before + interval '12264 hours'
          and a.first_seen <= v_first_seen_by and case p_board when 'library' then not a.is_black_friday when 'black-friday' then a.is_black_friday else a.is_top_picks end
           and a.created_at >= v_since and (a.created_at, a.id) < (v_after_at, v_after_id)
           and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
           and (p_offer is null or a.offer = p_offer) and (not v_running or a.still_running)
           and (case when a.still_running then greatest(p_today, coalesce(a.last_seen, a.first_seen)) else a.last_seen end)
               - a.first_seen + 1 >= p_min_running_days
        order by a.created_at desc, a.id desc limit 61)
      union all
      (select a.id, a.created_at from public.ads a
        where private.ad_added_lag(a.created_at, a.first_seen) = 36 and a.created_at < v_before + interval '24552 hours'
          and a.first_seen <= v_first_seen_by and case p_board when 'library' then not a.is_black_friday when 'black-friday' then a.is_black_friday else a.is_top_picks end
           and a.created_at >= v_since and (a.created_at, a.id) < (v_after_at, v_after_id)
           and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
           and (p_offer is null or a.offer = p_offer) and (not v_running or a.still_running)
           and (case when a.still_running then greatest(p_today, coalesce(a.last_seen, a.first_seen)) else a.last_seen end)
               - a.first_seen + 1 >= p_min_running_days
        order by a.created_at desc, a.id desc limit 61)
      union all
      (select a.id, a.created_at from public.ads a
        where private.ad_added_lag(a.created_at, a.first_seen) = 37
          and a.first_seen <= v_first_seen_by and case p_board when 'library' then not a.is_black_friday when 'black-friday' then a.is_black_friday else a.is_top_picks end
           and a.created_at >= v_since and (a.created_at, a.id) < (v_after_at, v_after_id)
           and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
           and (p_offer is null or a.offer = p_offer) and (not v_running or a.still_running)
           and (case when a.still_running then greatest(p_today, coalesce(a.last_seen, a.first_seen)) else a.last_seen end)
               - a.first_seen + 1 >= p_min_running_days
        order by a.created_at desc, a.id desc limit 61)
      union all
      -- First seen after X, yet run long enough by a last sighting after today in UTC (decision 0031's UTC+14 rule;
      -- or after the cursor's day): a few days of first sightings at most. The fence keeps the order's index out.
      (select e.id, e.created_at from (select a.id, a.created_at from public.ads a
        where a.first_seen > v_first_seen_by and a.first_seen <= v_latest - p_min_running_days + 1 and a.last_seen > p_today
          and case p_board when 'library' then not a.is_black_friday when 'black-friday' then a.is_black_friday else a.is_top_picks end
           and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
           and (p_offer is null or a.offer = p_offer) and (not v_running or a.still_running)
           and (case when a.still_running then greatest(p_today, coalesce(a.last_seen, a.first_seen)) else a.last_seen end)
               - a.first_seen + 1 >= p_min_running_days
        offset 0) e
        where e.created_at >= v_since and (e.created_at, e.id) < (v_after_at, v_after_id)
        order by e.created_at desc, e.id desc limit 61)
    ) s
    order by s.created_at desc, s.id desc
    limit 61
  ) s;
  return v_ids;
end;
$$;
revoke execute on function private.ads_running_at_least(text, timestamptz, text[], text, text, int, boolean, date, timestamptz, uuid)
  from public;

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

  elsif p_min_running_days is not null and v_tags is null and v_search is null and p_brand_id is null
        and p_category_id is null and p_type_id is null and p_hook_id is null then
    -- Newest first among ads that ran long enough: read per delay between first sighting and addition, each from
    -- where its ads can first qualify (20261130000600_running_days_newest).
    v_ids := private.ads_running_at_least(p_board, p_since, v_platforms, p_format, p_offer, p_min_running_days, v_running,
                                          v_today, v_after_at, v_after_id);

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

