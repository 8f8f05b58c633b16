-- The running-days walk reads the running ads and the ended ones in streams of their own.
--
-- private.ads_running_at_least merged 39 streams of one index, ads_added_lag_order, one per delay between an ad's
-- first sighting and its addition, each from where its ads can first have run the asked days. Below that start every
-- running ad of a day-by-day stream had run long enough, but most ended ads had not: an ad that ended ran about five
-- weeks in bench:db, so at 365 days 88% of the entries a stream passed were ended ads that ran too short, read only
-- to be dropped. 'lumen' at 365 days passed 57,590 entries at 1,000,000 ads for a page of 61.
--
-- - The running ads keep the 39 delay streams, in an index of their own (ads_running_lag_order, running ads only):
--   below its start, every entry of a day-by-day stream ran long enough.
-- - The ended ads, whose days ran never change, are read in streams by how long they ran (private.ad_ran_bucket:
--   under 7 days, 7 to 13, 14 to 29, 30 to 44, 45 to 59, 60 to 89, 90 to 119, 120 to 179, 180 to 269, 270 to 364,
--   365 to 729, 730 or more; the library's choices 7, 30, 60, 90, 180 and 365 each start a stream), newest first, in
--   ads_ended_ran_order. Only the streams that can hold an ad run the asked days are read: every ad of those above
--   the asked days' own stream ran long enough, and that stream checks each of its ads in the index.
-- - The ads first seen after X that ran long enough by a sighting after today (UTC+14) are read, as before, from the
--   index of the dates; only the running ones now, since the ended ones are in their streams.
-- - Each stream still passes at most p_walk ads, and a stream holding more than that above the page's last makes the
--   answer null (decision 0057); a stream that is not read counts nothing.
--
-- The answers are the same. See docs/decisions/0058.

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
revoke execute on function private.ad_ran_bucket(date, date) from public;
-- An index of ads calls it on every insert and every change of the dates, as the role writing the row (the admin
-- through the API), as private.ad_added_lag (20261130000800).
grant execute on function private.ad_ran_bucket(date, date) to authenticated, service_role;

drop index public.ads_added_lag_order;
create index ads_running_lag_order on public.ads (private.ad_added_lag(created_at, first_seen), created_at desc, id desc)
  include (first_seen, last_seen, is_black_friday, is_top_picks, search_signature)
  where still_running and first_seen is not null;
create index ads_ended_ran_order on public.ads (private.ad_ran_bucket(first_seen, last_seen), created_at desc, id desc)
  include (first_seen, last_seen, is_black_friday, is_top_picks, search_signature)
  where not still_running and first_seen is not null and last_seen is not null;

do $block$
declare
  v_streams text := '';
  -- The walks' cut checks, one a stream.
  v_cuts text := '';
  v_bound text;
  -- A stream's own condition, checked before anything is read (a one-time filter of the kept plan): an ended stream
  -- is read only when ads that ended can pass and it can hold one that ran long enough.
  v_gate text;
  v_in_index text;
  v_delay int;
  -- The upper bound, in days, of each delay's bucket (private.ad_added_lag): -1 to 31 day by day, then 63, 127,
  -- 255, 511 and 1023; bucket 37 (1024 days or more) has no start.
  v_days int;
  v_ran int;
  -- The last bucket of private.ad_ran_bucket, that of the longest runs.
  v_longest_ran constant int := private.ad_ran_bucket(date '2000-01-01', date '2100-01-01');
  -- What every stream's index holds, on the stream's ads w: the board and the signature.
  -- The masks past the last are null: false, not null, when none holds, so that the lookup is not made.
  v_board_and_masks constant text := $f$
          and case p_board when 'library' then not w.is_black_friday when 'black-friday' then w.is_black_friday else w.is_top_picks end
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
  -- The running ads' streams, one a delay, then the ended ads', one a bucket of days ran.
  for v_stream in 1 .. 39 + v_longest_ran + 1 loop
    if v_stream <= 39 then
      v_delay := v_stream - 2;
      v_days := case when v_delay <= 31 then v_delay else (2 ^ (v_delay - 26))::int - 1 end;
      -- Where the stream starts: the cursor, or the end of the stream's last day, whichever comes first, as one
      -- bound of the index's order (given apart, the scan started at the cursor and stepped over every ad above the
      -- day). An ad added at the very instant the day ends passes the bound and fails its first sighting. The
      -- conditions imply the index's predicate: without that, the index could not serve them.
      v_bound := format('w.still_running and w.first_seen is not null and private.ad_added_lag(w.created_at, w.first_seen) = %s'
                        ' and w.created_at >= v_since and (w.created_at, w.id) < %s',
        v_delay,
        case when v_delay < 37 then format('(least(v_before + interval %1$L, v_after_at), case when v_after_at <= v_before + interval %1$L'
                                           ' then v_after_id else ''ffffffff-ffff-ffff-ffff-ffffffffffff''::uuid end)', v_days * 24 || ' hours')
             else '(v_after_at, v_after_id)' end);
      v_gate := 'true';
      -- A running ad first seen by X has run the asked days by today (its days count to today at least).
      v_in_index := $f$
          and w.first_seen <= v_first_seen_by$f$ || v_board_and_masks;
    else
      v_ran := v_stream - 40;
      -- An ended ad's days never change: the stream is every ad of the bucket, from the cursor.
      v_bound := format('not w.still_running and w.first_seen is not null and w.last_seen is not null'
                        ' and private.ad_ran_bucket(w.first_seen, w.last_seen) = %s'
                        ' and w.created_at >= v_since and (w.created_at, w.id) < (v_after_at, v_after_id)', v_ran);
      v_gate := format('not v_running and v_ended_from <= %s', v_ran);
      v_in_index := $f$
          and w.last_seen - w.first_seen + 1 >= p_min_running_days$f$ || v_board_and_masks;
    end if;
    -- The walk passes at most p_walk ads of the stream (the limit before the conditions).
    v_streams := v_streams || format($s$
      (select w.id, w.created_at
         from (select w.id, w.created_at, w.first_seen, w.last_seen, w.is_black_friday, w.is_top_picks, w.search_signature
                 from public.ads w where %s and %s
                order by w.created_at desc, w.id desc limit p_walk) w
        where true%s
          and (v_index_alone or exists (select 1 from public.ads a where a.id = w.id and %s offset 0))
        order by w.created_at desc, w.id desc limit 61)
      union all$s$,
      v_gate, v_bound, v_in_index, v_in_table);
    -- Whether the stream holds more than p_walk ads above the page's last: then its walk stopped short of the page's
    -- end, and its ads below the cut were never seen. Counted in the index alone, as far as p_walk + 1; a stream
    -- that is not read counts none.
    v_cuts := v_cuts || case when v_cuts = '' then '' else $s$
      or $s$ end || format($s$(select count(*) > p_walk from (select 1 from public.ads w where %s and %s
          and (w.created_at, w.id) > (v_last_at, v_last_id) order by w.created_at desc, w.id desc limit p_walk + 1) c)$s$,
      v_gate, v_bound);
  end loop;

  execute format($fn$
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
    select s.id, s.created_at from (%s
      -- Running, first seen after X, yet run long enough by a last sighting after today in UTC (decision 0031's
      -- UTC+14 rule): a few days of first sightings at most, read in the index of the dates. The fence keeps the
      -- order's index out, and whether the ad is running is checked above it: below it, the running ads' index by
      -- first sighting, which holds no last sighting, would read every running ad of those days from the table.
      (select e.id, e.created_at from (select a.id, a.created_at, a.still_running from public.ads a
        where a.first_seen > v_first_seen_by and a.first_seen <= v_latest - p_min_running_days + 1 and a.last_seen > p_today
          and case p_board when 'library' then not a.is_black_friday when 'black-friday' then a.is_black_friday else a.is_top_picks end
          and a.last_seen - a.first_seen + 1 >= p_min_running_days
          and %s
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
