-- A brand's ads in the longest-running and recently-seen orders are read from streams of their own.
--
-- Those orders merge streams of ads (20261130000200): running ads by first sighting or by id, ended ads by days ran or
-- by last sighting, and the undated ads by id. With a brand filter each stream was walked whole-library and filtered:
-- for a brand with 2% of the library, about 3,000 ads read to find a page of 61, 7 to 10 ms at 1,000,000 ads
-- (bench:db's "longest running + brand"). A brand is the narrowest common filter, and the more brands a library has,
-- the longer that walk. Each stream now also has a brand-first index, which the same statements read in order:
-- the brand's own ads, 61 of them. See docs/decisions/0048.
create index ads_brand_running_since on public.ads (brand_id, first_seen, id) where still_running;
create index ads_brand_ran_for on public.ads (brand_id, (first_seen - last_seen), id) where not still_running and last_seen is not null;
create index ads_brand_running on public.ads (brand_id, id) where still_running;
create index ads_brand_last_seen on public.ads (brand_id, last_seen desc, id) where not still_running and last_seen is not null;
create index ads_brand_undated on public.ads (brand_id, id) where not still_running and last_seen is null;
