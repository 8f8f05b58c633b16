-- "More like this" for an ad's detail page, and the admin's near-duplicate lookups (docs/decisions/0038).

-- How alike two ads are, 0 to 1: the mix docs/decisions/0038 documents. Visual: the colour histograms' distance
-- (0 to √2 between two distributions) and the hashes' differing bits (32 is what unrelated images differ by).
create or replace function private.ad_likeness(p_a public.ads, p_b public.ads, p_shared_tags int, p_tags_a int, p_tags_b int)
returns double precision
language sql immutable parallel safe
set search_path = ''
as $$
  select 0.40 * coalesce(0.6 * (1 - least(1, extensions.cube_distance(p_a.visual_vector, p_b.visual_vector) / sqrt(2)))
                         + 0.4 * greatest(0, 1 - private.hash_distance(p_a.visual_hash, p_b.visual_hash) / 32.0), 0)
       + 0.25 * case when p_tags_a + p_tags_b - p_shared_tags > 0
                     then p_shared_tags::double precision / (p_tags_a + p_tags_b - p_shared_tags) else 0 end
       + 0.12 * (p_a.category_id = p_b.category_id)::int
       + 0.08 * coalesce((p_a.hook_id = p_b.hook_id)::int, 0)
       + 0.08 * coalesce((p_a.type_id = p_b.type_id)::int, 0)
       + 0.07 * coalesce((p_a.format = p_b.format)::int, 0)
$$;
revoke execute on function private.ad_likeness(public.ads, public.ads, int, int, int) from public;

-- Up to 12 ads most like one ad, from its own board (the Black Friday board's for signed-in callers only), each
-- locked or clear for the caller exactly as in the grid, most alike first. The candidates: the 100 nearest in colour
-- (ads.colour_point), the 30 newest ads of each of its ordinary tags, and the 30 newest of its category and of its
-- hook; each is then scored by private.ad_likeness.
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
    select t.ad_id from unnest(v_tags) m (tag_id)
     cross join lateral (select h.ad_id from public.ad_tags h where h.tag_id = m.tag_id
                          order by h.ad_created_at desc, h.ad_id desc limit 30) t
    union
    (select a.id from public.ads a where a.category_id = v_ad.category_id order by a.created_at desc, a.id desc limit 30)
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
revoke execute on function public.similar_ads(uuid) from public, anon, authenticated;
grant execute on function public.similar_ads(uuid) to anon, authenticated, service_role;

-- For the admin's upload: the ads whose image nearly duplicates a fingerprint's (private.ads_near_hash), nearest hash
-- first, at most 5, each as the grid shows it to an admin, with its hash distance.
create or replace function public.admin_near_duplicates(p_hash bigint, p_histogram real[]) returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_ids uuid[];
  v_extra jsonb[];
begin
  perform private.require_admin();
  if p_hash is null or p_histogram is null or cardinality(p_histogram) <> 16 or array_ndims(p_histogram) <> 1
     or array_position(p_histogram, null) is not null then
    raise exception 'A fingerprint hash and its 16-bin histogram are required' using errcode = 'P0001', detail = 'invalid_fingerprint';
  end if;
  select array_agg(n.id order by n.distance, n.created_at, n.id),
         array_agg(jsonb_build_object('distance', n.distance) order by n.distance, n.created_at, n.id)
    into v_ids, v_extra
    from (select * from private.ads_near_hash(p_hash, extensions.cube(p_histogram::double precision[]))
           order by distance, created_at, id limit 5) n;
  return private.ads_json(coalesce(v_ids, '{}'), array_fill(true, array[coalesce(cardinality(v_ids), 0)]), v_extra);
end;
$$;
revoke execute on function public.admin_near_duplicates(bigint, real[]) from public, anon, authenticated;
grant execute on function public.admin_near_duplicates(bigint, real[]) to authenticated;

-- An ad's stored files, for the admin's session to remove them at once when it deletes the ad.
create or replace function private.ad_object_paths(p_ad public.ads) returns jsonb
language sql immutable parallel safe
set search_path = ''
as $$
  select jsonb_build_object('original_path', p_ad.original_path, 'display_480_path', p_ad.display_480_path,
                            'display_960_path', p_ad.display_960_path, 'preview_path', p_ad.preview_path)
$$;
revoke execute on function private.ad_object_paths(public.ads) from public;

-- For the admin's table: near-duplicate groups, each the earliest ad and the later ads that are near-duplicates of
-- it, the groups with the newest duplicate first, 20 groups a page (p_page from 0).
create or replace function public.admin_near_duplicate_groups(p_page int default 0) returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_groups jsonb;
  v_total int;
begin
  perform private.require_admin();
  if p_page is null or p_page not between 0 and 10000 then
    raise exception 'Page must be 0 to 10000' using errcode = 'P0001', detail = 'invalid_page';
  end if;
  select count(distinct near_duplicate_of) into v_total from public.ads where near_duplicate_of is not null;
  select coalesce(jsonb_agg(jsonb_build_object(
           'original', private.ads_json(array[o.id], array[true], array[private.ad_object_paths(o)]) -> 0,
           'duplicates', (select private.ads_json(array_agg(d.id order by d.created_at, d.id),
                                                  array_agg(true order by d.created_at, d.id),
                                                  array_agg(private.ad_object_paths(d)
                                                            || jsonb_build_object('distance', private.hash_distance(d.visual_hash, o.visual_hash))
                                                            order by d.created_at, d.id))
                            from public.ads d
                           where d.near_duplicate_of = o.id))
           order by g.latest desc, g.original), '[]'::jsonb)
    into v_groups
    from (select a.near_duplicate_of as original, max(a.created_at) as latest
            from public.ads a where a.near_duplicate_of is not null
           group by a.near_duplicate_of
           order by max(a.created_at) desc, a.near_duplicate_of
           limit 20 offset p_page * 20) g
    join public.ads o on o.id = g.original;
  return jsonb_build_object('groups', v_groups, 'total', v_total);
end;
$$;
revoke execute on function public.admin_near_duplicate_groups(int) from public, anon, authenticated;
grant execute on function public.admin_near_duplicate_groups(int) to authenticated;
