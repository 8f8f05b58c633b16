-- "More like this" puts the ad's own category first and lets the look order it: the category weighs 0.40, more than
-- the tags, type, hook and format together, the look 0.38 (docs/decisions/0075). Its category's look-alikes are
-- candidates wherever they stand in time: the 40 of its category and board nearest in colour among the library's
-- 1,000 nearest (one walk of ads_colour_point, bounded), and the 30 newest of its category are taken from its board.
-- The result is declared in supabase/schemas too; tests/sql/schema-drift.test.ts checks that both agree.

-- How alike two ads are, 0 to 1: the mix docs/decisions/0075 documents. The category weighs more than the tags, type,
-- hook and format together, so an ad's own category comes first and the look orders it; another category's ad passes
-- one of its own only with a far closer look. Look: the colour histograms' distance (0 to √2 between two
-- distributions) and the hashes' differing bits (32 is what unrelated images differ by).
create or replace function private.ad_likeness(p_a public.ads, p_b public.ads, p_shared_tags int, p_tags_a int, p_tags_b int)
returns double precision
language sql immutable parallel safe
set search_path = ''
as $$
  select 0.40 * (p_a.category_id = p_b.category_id)::int
       + 0.38 * coalesce(0.6 * (1 - least(1, extensions.cube_distance(p_a.visual_vector, p_b.visual_vector) / sqrt(2)))
                         + 0.4 * greatest(0, 1 - private.hash_distance(p_a.visual_hash, p_b.visual_hash) / 32.0), 0)
       + 0.10 * case when p_tags_a + p_tags_b - p_shared_tags > 0
                     then p_shared_tags::double precision / (p_tags_a + p_tags_b - p_shared_tags) else 0 end
       + 0.05 * coalesce((p_a.type_id = p_b.type_id)::int, 0)
       + 0.04 * coalesce((p_a.hook_id = p_b.hook_id)::int, 0)
       + 0.03 * coalesce((p_a.format = p_b.format)::int, 0)
$$;
revoke all on function private.ad_likeness(p_a public.ads, p_b public.ads, p_shared_tags integer, p_tags_a integer, p_tags_b integer) from public;

-- Up to 12 ads most like one ad, from its own board (the Black Friday board's for signed-in callers only), each
-- locked or clear for the caller exactly as in the grid, most alike first. The candidates: the 100 nearest in colour
-- (ads.colour_point), the 40 of its category and board nearest in colour among the library's 1,000 nearest (so the
-- walk stops within 1,000 index entries however rare the category), the 30 newest ads of each of its ordinary tags,
-- the 30 newest of its category and board and the 30 newest of its hook; each is then scored by private.ad_likeness.
create or replace function public.similar_ads(p_id uuid) returns jsonb
language plpgsql
stable
security definer
set search_path = ''
set max_parallel_workers_per_gather = 0
as $$
declare
  v_ad public.ads;
  v_uid uuid := (select auth.uid());
  v_valid_access boolean;
  v_tags uuid[];
  v_ids uuid[];
  v_clear boolean[];
begin
  select * into v_ad from public.ads where id = p_id;
  if v_ad.id is null then
    raise exception 'Ad not found' using errcode = 'PT404', detail = 'ad_not_found';
  end if;
  if v_ad.is_black_friday and v_uid is null then
    return '[]'::jsonb;
  end if;
  v_valid_access := public.has_valid_access();
  v_tags := array(select t.tag_id from public.ad_tags t join public.tags g on g.id = t.tag_id
                   where t.ad_id = v_ad.id and g.system_key is null);

  with candidates as (
    (select a.id from public.ads a
      where v_ad.colour_point is not null and a.colour_point is not null and not a.is_black_friday
        and not v_ad.is_black_friday
      order by a.colour_point operator(extensions.<->) v_ad.colour_point limit 101)
    union
    (select a.id from public.ads a
      where v_ad.colour_point is not null and a.colour_point is not null and a.is_black_friday
        and v_ad.is_black_friday
      order by a.colour_point operator(extensions.<->) v_ad.colour_point limit 101)
    union
    (select n.id from (select a.id, a.category_id, a.is_black_friday,
                              a.colour_point operator(extensions.<->) v_ad.colour_point as distance
                         from public.ads a
                        where v_ad.colour_point is not null and a.colour_point is not null
                        order by a.colour_point operator(extensions.<->) v_ad.colour_point limit 1000) n
      where n.category_id = v_ad.category_id and n.is_black_friday = v_ad.is_black_friday
      order by n.distance limit 40)
    union
    select t.ad_id from unnest(v_tags) m (tag_id)
     cross join lateral (select h.ad_id from public.ad_tags h where h.tag_id = m.tag_id
                          order by h.ad_created_at desc, h.ad_id desc limit 30) t
    union
    (select a.id from public.ads a where a.category_id = v_ad.category_id and a.is_black_friday = v_ad.is_black_friday
      order by a.created_at desc, a.id desc limit 30)
    union
    (select a.id from public.ads a where v_ad.hook_id is not null and a.hook_id = v_ad.hook_id
      order by a.created_at desc, a.id desc limit 30)
  ), scored as (
    select a.id, a.created_at, private.ad_is_clear_for(a, v_uid is not null, v_valid_access) as clear,
           private.ad_likeness(v_ad, a,
             (select count(*) from public.ad_tags h where h.ad_id = a.id and h.tag_id = any (v_tags))::int,
             cardinality(v_tags),
             (select count(*) from public.ad_tags h join public.tags g on g.id = h.tag_id
               where h.ad_id = a.id and g.system_key is null)::int) as likeness
      from candidates c join public.ads a on a.id = c.id
     where a.id <> v_ad.id and a.is_black_friday = v_ad.is_black_friday
     order by likeness desc, a.created_at desc, a.id desc
     limit 12
  )
  select array_agg(s.id order by s.likeness desc, s.created_at desc, s.id desc),
         array_agg(s.clear order by s.likeness desc, s.created_at desc, s.id desc)
    into v_ids, v_clear
    from scored s;
  return private.ads_json(coalesce(v_ids, '{}'), coalesce(v_clear, '{}'));
end;
$$;
revoke all on function public.similar_ads(p_id uuid) from public;
