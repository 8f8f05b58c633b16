-- The running-days walk counts its ads without a window, and checks the search's signature masks held in variables.
--
-- private.ads_running_at_least walks each delay stream in its index, and passes at most p_walk ads of a stream: the
-- bound that keeps a search the probe misjudged from walking a whole stream. It numbered the stream's ads with
-- row_number() to mark the p_walk-th as the cut, and took the masks from their array on every entry. At 1,000,000 ads
-- a search found in few of the ads that ran long walks tens of thousands of entries ('lumen' at 365 days: 57,590 of
-- 21 streams), and the window cost more than the rest of the walk: 40,000 entries of one stream took 7 to 10 ms read
-- in the index with a limit, 10 to 12 ms with the walk's conditions, and 35 to 46 ms numbered by row_number() (which
-- stores every row it numbers). The masks cost sixteen array subscripts an entry, each copying a mask out of the
-- array, since the statement's plan is generic and the array a parameter: eight masks on 300,000 signatures took 190
-- to 262 ms by subscript and 95 to 97 ms from variables, the scan alone 40 to 50.
--
-- - Each stream's walk is a plain limit of p_walk ads. Whether one was cut is counted after the page is found: a
--   stream holding more than p_walk ads above the page's last ad (every ad, when the page is not full) stopped
--   short of the page's end, and the answer is null, as when the cut ad came out within the page before. The count
--   reads the index alone, as far as p_walk + 1, and stops at the first stream cut.
-- - The masks are eight variables, set once a call from the array; a null mask makes its test null without a call,
--   as before.
--
-- The answers are the same. The function is 20261214000100's but for that. See docs/decisions/0057.

do $block$
declare
  v_streams text := '';
  -- The walks' cut checks, one a stream.
  v_cuts text := '';
  v_bound text;
  v_delay int;
  -- The upper bound, in days, of each delay's bucket (private.ad_added_lag): -1 to 31 day by day, then 63, 127,
  -- 255, 511 and 1023; bucket 37 (1024 days or more) has no start.
  v_days int;
  -- What the index holds, on the stream's ads w.
  v_in_index constant text := $f$
          and w.first_seen <= v_first_seen_by
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
          and (not v_running or w.still_running)
          and (case when w.still_running then greatest(p_today, coalesce(w.last_seen, w.first_seen)) else w.last_seen end)
              - w.first_seen + 1 >= p_min_running_days
          -- The masks past the last are null: false, not null, when none holds, so that the lookup is not made.
          and (p_masks is null
               or coalesce((w.search_signature & v_mask1) = v_mask1 or (w.search_signature & v_mask2) = v_mask2
                           or (w.search_signature & v_mask3) = v_mask3 or (w.search_signature & v_mask4) = v_mask4
                           or (w.search_signature & v_mask5) = v_mask5 or (w.search_signature & v_mask6) = v_mask6
                           or (w.search_signature & v_mask7) = v_mask7 or (w.search_signature & v_mask8) = v_mask8, false))$f$;
  v_in_table constant text := $f$(p_category_id is null or a.category_id = p_category_id) and (p_type_id is null or a.type_id = p_type_id)
            and (p_platforms is null or a.platforms && p_platforms) and (p_format is null or a.format = p_format)
            and (p_offer is null or a.offer = p_offer) and (p_hook_id is null or a.hook_id = p_hook_id)
            and (p_colour is null or a.colour_swatches @> array[p_colour])
            and (v_any or coalesce(a.search_vector @@ p_query, false) or coalesce(a.search_text like p_phrase, false))
            and not coalesce(a.search_vector @@ p_not_query, false)$f$;
begin
  for v_delay in -1 .. 37 loop
    v_days := case when v_delay <= 31 then v_delay else (2 ^ (v_delay - 26))::int - 1 end;
    -- Where the stream starts: the cursor, or the end of the stream's last day, whichever comes first, as one bound
    -- of the index's order (given apart, the scan started at the cursor and stepped over every ad above the day). An
    -- ad added at the very instant the day ends passes the bound and fails its first sighting.
    v_bound := format('w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = %s and w.created_at >= v_since'
                      ' and (w.created_at, w.id) < %s',
      v_delay,
      case when v_delay < 37 then format('(least(v_before + interval %1$L, v_after_at), case when v_after_at <= v_before + interval %1$L'
                                         ' then v_after_id else ''ffffffff-ffff-ffff-ffff-ffffffffffff''::uuid end)', v_days * 24 || ' hours')
           else '(v_after_at, v_after_id)' end);
    -- The walk passes at most p_walk ads of the stream (the limit before the conditions). Its own conditions imply
    -- the index's predicate (a first sighting): without that, the index could not serve it, and the newest-first
    -- index with the delay as a filter walked the whole table for each stream.
    v_streams := v_streams || format($s$
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.still_running, w.is_black_friday, w.is_top_picks,
                      w.search_signature
                 from public.ads w where %s
                order by w.created_at desc, w.id desc limit p_walk) w
        where true%s
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and %s offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all$s$,
      v_bound, v_in_index, v_in_table);
    -- Whether the stream holds more than p_walk ads above the page's last: then its walk stopped short of the page's
    -- end, and its ads below the cut were never seen. Counted in the index alone, as far as p_walk + 1.
    v_cuts := v_cuts || case when v_cuts = '' then '' else $s$
      or $s$ end || format($s$(select count(*) > p_walk from (select 1 from public.ads w where %s
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)$s$,
      v_bound);
  end loop;

  execute format($fn$
-- The newest 61 ads of a board (after the cursor) that ran at least p_min_running_days by p_today, pass the filters
-- and match the search (p_query as words, p_phrase as the text anywhere; both null for no search; p_masks the
-- signature bits one of which every match holds, at most 8, or null) but not p_not_query (null: nothing excluded;
-- the relevance order's second tier excludes the whole-word matches of its first). An ad that ran N days by today was first seen
-- on X = today - (N - 1) at the latest, unless it was last seen after today (UTC+14): one added k days after its first
-- sighting was added on X + k at the latest. Each stream of one delay starts there, and every ad of a day-by-day
-- stream below that start was first seen early enough; the few last seen after today come from an index of the
-- dates. A stream is walked in its index, which holds the dates, the board and the signature; the ads that pass are
-- looked up for the rest. The streams are merged on the order's key, and each is read only as far as the merge
-- asks, passing at most p_walk ads (null: no bound). A stream's walk cut there says nothing of its ads below the
-- cut: when a stream holds more than p_walk ads above the page's last, the answer is null, and the caller reads the
-- page another way. The plan is kept for the session: the statement has the same shape on every call.
create or replace function private.ads_running_at_least(
  p_board text,
  p_since timestamptz,
  p_category_id uuid,
  p_type_id uuid,
  p_platforms text[],
  p_format text,
  p_offer text,
  p_hook_id uuid,
  p_colour text,
  p_min_running_days int,
  p_still_running boolean,
  p_today date,
  p_after_at timestamptz,
  p_after_id uuid,
  p_query tsquery,
  p_phrase text,
  p_not_query tsquery,
  p_masks bit(256)[],
  p_walk int
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
    select s.id, s.created_at from (%s
      -- First seen after X, yet run long enough by a last sighting after today in UTC (decision 0031's UTC+14 rule;
      -- or after the cursor's day): a few days of first sightings at most. The fence keeps the order's index out.
      (select e.id, e.created_at from (select a.id, a.created_at from public.ads a
        where a.first_seen > v_first_seen_by and a.first_seen <= v_latest - p_min_running_days + 1 and a.last_seen > p_today
          and case p_board when 'library' then not a.is_black_friday when 'black-friday' then a.is_black_friday else a.is_top_picks end
          and (not v_running or a.still_running)
          and (case when a.still_running then greatest(p_today, coalesce(a.last_seen, a.first_seen)) else a.last_seen end)
              - a.first_seen + 1 >= p_min_running_days
          and %s
        offset 0) e
        where e.created_at >= v_since and (e.created_at, e.id) < (v_after_at, v_after_id)
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
    select %s into v_cut;
    if v_cut then
      return null;
    end if;
  end if;
  return v_ids;
end;
$$;
$fn$, v_streams, v_in_table, v_cuts);
end;
$block$;
revoke execute on function private.ads_running_at_least(text, timestamptz, uuid, uuid, text[], text, text, uuid, text, int,
                                                       boolean, date, timestamptz, uuid, tsquery, text, tsquery, bit(256)[],
                                                       int)
  from public;
