-- The dated orders' streams carry the columns the library's filters read, so a filter in those orders is checked in
-- the stream's index, without reading the ad.
--
-- The longest-running and recently-seen orders merge streams of ads, each an index in its order
-- (20261130000200): running ads by first sighting or by id, ended ads by days ran or by last sighting, undated ads
-- by id. A filter in those orders walks the streams and keeps the ads that pass. The walk's index held only its
-- keys, so every ad walked was read from the table to be checked: for a colour found on 1.7% of the ads (purple), about
-- 4,000 ads a stream, each on its own page of the table, 11 ms p50 at 1,000,000 ads (bench:db's "colour purple +
-- longest running"). Each stream now includes the board, colour, platform, format, offer, hook, category, type, date
-- and running columns, so the planner reads such a walk as an index-only scan and checks the filter there. A brand
-- has streams of its own (20261208000300); a search reads the ad's words, which no btree holds.
--
-- A combination that few ads pass, such as a rare colour with a rare platform (purple on Snapchat, 0.07% of the ads),
-- still walks far in the streams. The platforms get a GIN index like the colours' (ads_colour_swatches), so the
-- planner can intersect the two and order the few ads found instead. See docs/decisions/0050.
drop index public.ads_running_since;
drop index public.ads_ran_for;
drop index public.ads_running;
drop index public.ads_last_seen;
drop index public.ads_undated;

create index ads_running_since on public.ads (first_seen, id)
  include (still_running, last_seen, created_at, is_black_friday, is_top_picks, colour_swatches, platforms, format, offer,
           hook_id, category_id, type_id)
  where still_running;
create index ads_ran_for on public.ads ((first_seen - last_seen), id)
  include (still_running, first_seen, last_seen, created_at, is_black_friday, is_top_picks, colour_swatches, platforms,
           format, offer, hook_id, category_id, type_id)
  where not still_running and last_seen is not null;
create index ads_running on public.ads (id)
  include (still_running, first_seen, last_seen, created_at, is_black_friday, is_top_picks, colour_swatches, platforms,
           format, offer, hook_id, category_id, type_id)
  where still_running;
create index ads_last_seen on public.ads (last_seen desc, id)
  include (still_running, first_seen, created_at, is_black_friday, is_top_picks, colour_swatches, platforms, format,
           offer, hook_id, category_id, type_id)
  where not still_running and last_seen is not null;
create index ads_undated on public.ads (id)
  include (still_running, first_seen, last_seen, created_at, is_black_friday, is_top_picks, colour_swatches, platforms,
           format, offer, hook_id, category_id, type_id)
  where not still_running and last_seen is null;

create index ads_platforms on public.ads using gin (platforms);
