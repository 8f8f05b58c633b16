-- What is done with a creative's pixels: visual fingerprints (a perceptual hash, a colour histogram, dominant colours
-- and the swatches of the filter bar's palette), near-duplicate detection, similar ads, and the signed links through
-- which a caller who may see an ad gets its images, video and original.

-- Function bodies may name tables of later files: they are checked when called, not when created.
set check_function_bodies = false;

-- The filter bar's palette (src/lib/colour-swatches.ts): each swatch's name, its sRGB colour and that colour in CIELAB.
create table private.colour_palette (
  name text primary key,
  hex text not null unique,
  l double precision not null,
  a double precision not null,
  b double precision not null,
  constraint colour_palette_hex_check check ((hex ~ '^#[0-9a-f]{6}$'::text))
);

-- The start (epoch seconds) of the 12-hour window p_at falls in.
create or replace function private.image_link_window_start(p_at timestamptz) returns bigint
language sql immutable
set search_path = ''
as $$
  select (floor(extract(epoch from p_at) / 43200) * 43200)::bigint
$$;
revoke all on function private.image_link_window_start(p_at timestamp with time zone) from public;

-- plpgsql, which keeps its statement's plan for the session: an SQL function with settings is planned again at every
-- call (docs/decisions/0047).
create or replace function private.image_link_key() returns bytea
language plpgsql stable
security definer
set search_path = ''
as $$
begin
  return (select s.hmac_pads from private.settings s where s.key = 'image_link_secret');
end;
$$;
revoke all on function private.image_link_key() from public;

-- A subscriber's download of an ad's original, signed for 5 minutes; for a video ad the download is its video (the
-- original image is only its poster frame), under the same rules.
create or replace function public.get_ad_original_download(p_id uuid) returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_ad public.ads;
  v_brand text;
  v_now bigint := floor(extract(epoch from now()))::bigint;
begin
  if not public.has_valid_access() then
    raise exception 'An active subscription is required' using errcode = '42501', detail = 'subscription_required';
  end if;
  select * into v_ad from public.ads where id = p_id;
  if v_ad.id is null then
    raise exception 'Ad not found' using errcode = 'PT404', detail = 'ad_not_found';
  end if;
  select b.name into v_brand from public.brands b where b.id = v_ad.brand_id;
  return jsonb_build_object(
    'url', case when v_ad.video_path is not null
             then private.signed_object_url('ad-videos', v_ad.video_path, v_now, v_now + 300, private.image_link_key())
             else private.signed_object_url('ad-originals', v_ad.original_path, v_now, v_now + 300, private.image_link_key()) end,
    'file_name', coalesce(nullif(trim(both '-' from regexp_replace(lower(v_brand), '[^a-z0-9]+', '-', 'g')), ''), 'ad')
      || '-' || left(v_ad.id::text, 8) || coalesce(substring(coalesce(v_ad.video_path, v_ad.original_path) from '\.[A-Za-z0-9]+$'), ''),
    'expires_at', private.iso_utc(to_timestamp(v_now + 300)));
end;
$$;
revoke all on function public.get_ad_original_download(p_id uuid) from public;

create function private.signed_object_url(p_bucket text, p_name text, p_iat bigint, p_exp bigint, p_key_pads bytea)
returns text
language sql stable
as $$
  select 'object/sign/' || p_bucket || '/' || p_name || '?token=eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.'
    || replace(replace(replace(replace(encode(convert_to('{"url":"' || p_bucket || '/' || p_name || '","iat":' || p_iat
         || ',"exp":' || p_exp || '}', 'UTF8'), 'base64'), E'\n', ''), '+', '-'), '/', '_'), '=', '')
    || '.'
    || rtrim(replace(replace(encode(sha256(substring(p_key_pads from 65 for 64) || sha256(substring(p_key_pads from 1 for 64)
         || convert_to('eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.'
         || replace(replace(replace(replace(encode(convert_to('{"url":"' || p_bucket || '/' || p_name || '","iat":' || p_iat
              || ',"exp":' || p_exp || '}', 'UTF8'), 'base64'), E'\n', ''), '+', '-'), '/', '_'), '=', ''), 'UTF8'))),
         'base64'), '+', '-'), '/', '_'), '=')
$$;
revoke all on function private.signed_object_url(p_bucket text, p_name text, p_iat bigint, p_exp bigint, p_key_pads bytea) from public;

-- '#rrggbb' in CIELAB (D65, 2°): sRGB decoded, to XYZ, to L*a*b*.
create or replace function private.hex_to_lab(p_hex text, out l double precision, out a double precision, out b double precision)
language plpgsql immutable strict parallel safe
set search_path = ''
as $$
declare
  v_lin double precision[] := array[]::double precision[];
  v_c double precision;
  v_x double precision;
  v_y double precision;
  v_z double precision;
  v_f double precision[];
  v_t double precision;
begin
  if p_hex !~ '^#[0-9a-f]{6}$' then
    raise exception 'A colour is written #rrggbb' using errcode = '22023';
  end if;
  for i in 0 .. 2 loop
    v_c := ('x' || substr(p_hex, 2 + 2 * i, 2))::bit(8)::int / 255.0;
    v_lin := v_lin || case when v_c <= 0.04045 then v_c / 12.92 else ((v_c + 0.055) / 1.055) ^ 2.4 end;
  end loop;
  v_x := (0.4124564 * v_lin[1] + 0.3575761 * v_lin[2] + 0.1804375 * v_lin[3]) / 0.95047;
  v_y := (0.2126729 * v_lin[1] + 0.7151522 * v_lin[2] + 0.0721750 * v_lin[3]);
  v_z := (0.0193339 * v_lin[1] + 0.1191920 * v_lin[2] + 0.9503041 * v_lin[3]) / 1.08883;
  foreach v_t in array array[v_x, v_y, v_z] loop
    v_f := v_f || case when v_t > 216.0 / 24389 then cbrt(v_t) else (24389.0 / 27 * v_t + 16) / 116 end;
  end loop;
  l := 116 * v_f[2] - 16;
  a := 500 * (v_f[1] - v_f[2]);
  b := 200 * (v_f[2] - v_f[3]);
end;
$$;
revoke all on function private.hex_to_lab(p_hex text, OUT l double precision, OUT a double precision, OUT b double precision) from public;

-- The swatches an ad matches: each dominant colour that covers at least 10% of the image matches its nearest swatch,
-- and any other swatch at most 10 units (CIELAB distance) farther than the nearest, so a colour between two swatches
-- is found under both.
create or replace function private.colour_swatches(p_colours jsonb) returns text[]
language sql stable parallel safe
set search_path = ''
as $$
  select coalesce(array_agg(distinct d.name order by d.name), '{}')
    from (select s.name, s.distance, min(s.distance) over (partition by c.ord) as nearest
            from jsonb_array_elements(p_colours) with ordinality c (colour, ord)
           cross join lateral private.hex_to_lab(c.colour ->> 'hex') lab
           cross join lateral (select p.name, sqrt((p.l - lab.l) ^ 2 + (p.a - lab.a) ^ 2 + (p.b - lab.b) ^ 2) as distance
                                 from private.colour_palette p) s
           where (c.colour ->> 'share')::double precision >= 0.1) d
   where d.distance <= d.nearest + 10
$$;
revoke all on function private.colour_swatches(p_colours jsonb) from public;

-- An image's colour as a point: the mean of its dominant colours in CIELAB weighted by their shares, and how far
-- they lie from that mean on average (a flat image 0, a colourful one more), each over 100.
create or replace function private.colour_point(p_colours jsonb) returns extensions.cube
language sql stable parallel safe
set search_path = ''
as $$
  with c as (select (e ->> 'share')::double precision as w, lab.l, lab.a, lab.b
               from jsonb_array_elements(p_colours) e cross join lateral private.hex_to_lab(e ->> 'hex') lab),
       m as (select sum(c.w * c.l) / nullif(sum(c.w), 0) as l, sum(c.w * c.a) / nullif(sum(c.w), 0) as a,
                    sum(c.w * c.b) / nullif(sum(c.w), 0) as b, nullif(sum(c.w), 0) as total from c)
  select extensions.cube(array[m.l / 100, m.a / 100, m.b / 100,
                               (select sum(c.w * sqrt((c.l - m.l) ^ 2 + (c.a - m.a) ^ 2 + (c.b - m.b) ^ 2)) from c) / m.total / 100])
    from m where m.total is not null
$$;
revoke all on function private.colour_point(p_colours jsonb) from public;

-- How many of 64 bits two hashes differ in.
create or replace function private.hash_distance(p_a bigint, p_b bigint) returns int
language sql immutable strict parallel safe
set search_path = ''
as $$
  select bit_count((p_a # p_b)::bit(64))::int
$$;
revoke all on function private.hash_distance(p_a bigint, p_b bigint) from public;

-- The four 16-bit quarters of a hash, each with its value and the 16 values one bit away: two hashes at most 7 bits
-- apart share a quarter at most one bit apart (7 differing bits over 4 quarters leave one quarter with at most 1), so
-- looking up these 68 values in the quarters' indexes finds every near-duplicate.
create or replace function private.hash_quarter_probes(p_hash bigint)
returns table (q0 int[], q1 int[], q2 int[], q3 int[])
language sql immutable strict parallel safe
set search_path = ''
as $$
  select array_agg(((p_hash >> 48) & 65535)::int # f), array_agg(((p_hash >> 32) & 65535)::int # f),
         array_agg(((p_hash >> 16) & 65535)::int # f), array_agg((p_hash & 65535)::int # f)
    from (select 0 as f union all select 1 << g from generate_series(0, 15) g) flips
$$;
revoke all on function private.hash_quarter_probes(p_hash bigint) from public;

-- A hash's four quarters as one set of keys, each quarter's value shifted into its own range (the n-th quarter's
-- values are n * 65536 and up), for the one index that finds hashes sharing a quarter (ads_visual_hash). The API
-- roles that write an ad compute it for the index, so they may execute it; the schema stays closed to them.
create function private.hash_quarter_keys(p_hash bigint) returns integer[]
language sql immutable strict parallel safe
set search_path = ''
as $$
  select array[((p_hash >> 48) & 65535)::int, 65536 + ((p_hash >> 32) & 65535)::int,
               131072 + ((p_hash >> 16) & 65535)::int, 196608 + (p_hash & 65535)::int]
$$;
revoke all on function private.hash_quarter_keys(p_hash bigint) from public;
grant execute on function private.hash_quarter_keys(p_hash bigint) to authenticated, service_role;

-- The ads whose image nearly duplicates a fingerprint's: a hash at most 7 bits away and a colour histogram at most 0.3
-- away (Euclidean; two images of one layout in different colours share a hash, not their colours).
create or replace function private.ads_near_hash(p_hash bigint, p_vector extensions.cube) returns table(id uuid, distance integer, created_at timestamp with time zone)
language plpgsql stable strict parallel safe
set search_path = ''
set max_parallel_workers_per_gather = 0
set jit = off
as $$
declare
  v_probes record;
begin
  select * into v_probes from private.hash_quarter_probes(p_hash);
  return query
    select a.id, private.hash_distance(a.visual_hash, p_hash), a.created_at
      from public.ads a
     where a.visual_hash is not null
       and private.hash_quarter_keys(a.visual_hash) operator(pg_catalog.&&)
           (v_probes.q0 || array(select 65536 + q from unnest(v_probes.q1) q)
            || array(select 131072 + q from unnest(v_probes.q2) q) || array(select 196608 + q from unnest(v_probes.q3) q))
       and private.hash_distance(a.visual_hash, p_hash) <= 7
       and extensions.cube_distance(a.visual_vector, p_vector) <= 0.3;
end;
$$;
revoke all on function private.ads_near_hash(p_hash bigint, p_vector extensions.cube) from public;

-- Checks a written fingerprint and derives what is searched by. An ad is a near-duplicate of the earliest ad added
-- before it whose image nearly duplicates its own (private.ads_near_hash).
create or replace function private.ads_visual_fingerprint() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_sum double precision;
begin
  if new.visual_hash is null then
    new.visual_vector := null;
    new.colour_point := null;
    new.colour_swatches := null;
    new.near_duplicate_of := null;
    return new;
  end if;
  v_sum := (select sum(x) from unnest(new.colour_histogram) x);
  if v_sum not between 0.999 and 1.001 then
    raise exception 'A colour histogram''s shares must add up to 1' using errcode = '23514', detail = 'invalid_fingerprint';
  end if;
  if exists (select 1 from jsonb_array_elements(new.dominant_colours) c
              where jsonb_typeof(c) <> 'object' or (select count(*) from jsonb_object_keys(c)) <> 2
                 or jsonb_typeof(c -> 'hex') is distinct from 'string' or (c ->> 'hex') !~ '^#[0-9a-f]{6}$'
                 or jsonb_typeof(c -> 'share') is distinct from 'number'
                 or (c ->> 'share')::numeric not between 0 and 1) then
    raise exception 'A dominant colour is a #rrggbb hex and a share from 0 to 1' using errcode = '23514', detail = 'invalid_fingerprint';
  end if;
  new.visual_vector := extensions.cube(new.colour_histogram::double precision[]);
  new.colour_point := private.colour_point(new.dominant_colours);
  new.colour_swatches := private.colour_swatches(new.dominant_colours);
  new.near_duplicate_of := (select n.id from private.ads_near_hash(new.visual_hash, new.visual_vector) n
                             where n.id <> new.id and (n.created_at, n.id) < (new.created_at, new.id)
                             order by n.created_at, n.id limit 1);
  return new;
end;
$$;
revoke all on function private.ads_visual_fingerprint() from public;

-- When an ad comes, changes image or date, the ads pointing at it and the ads near it look again. One update whose
-- condition joined the two with OR would read the whole table for every ad written (an index answers neither side of
-- such an OR); so two updates, each through its own index: the ads pointing at it
-- (ads_near_duplicate_of), then, when it has a fingerprint, the ads near it (the hash quarter indexes), leaving out
-- those the first update already made look again.
create or replace function private.ads_near_duplicates_look_again() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'DELETE' then
    update public.ads a set near_duplicate_of = null where a.near_duplicate_of = old.id;
    return old;
  end if;
  if tg_op = 'UPDATE' and old.visual_hash is not distinct from new.visual_hash
     and old.colour_histogram is not distinct from new.colour_histogram and old.created_at = new.created_at then
    return new;
  end if;
  if tg_op = 'UPDATE' then
    update public.ads a set near_duplicate_of = null where a.near_duplicate_of = new.id and a.id <> new.id;
  end if;
  if new.visual_hash is not null then
    update public.ads a set near_duplicate_of = null
     where a.id in (select n.id from private.ads_near_hash(new.visual_hash, new.visual_vector) n)
       and a.id <> new.id
       and a.near_duplicate_of is distinct from new.id;
  end if;
  return new;
end;
$$;
revoke all on function private.ads_near_duplicates_look_again() from public;

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
revoke all on function public.admin_near_duplicates(p_hash bigint, p_histogram real[]) from public, anon;

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
revoke all on function public.admin_near_duplicate_groups(p_page integer) from public, anon;

-- The token a Storage signed URL carries for one object, before its signature: the HS256 header and the payload
-- {"url","iat","exp"}, base64url. Plain SQL without settings, so the planner inlines it.
create function private.image_link_token(p_bucket text, p_name text, p_iat bigint, p_exp bigint) returns text
language sql stable
as $$
  select 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.'
    || replace(replace(replace(replace(encode(convert_to('{"url":"' || p_bucket || '/' || p_name || '","iat":' || p_iat
         || ',"exp":' || p_exp || '}', 'UTF8'), 'base64'), E'\n', ''), '+', '-'), '/', '_'), '=', '')
$$;
revoke all on function private.image_link_token(p_bucket text, p_name text, p_iat bigint, p_exp bigint) from public;

-- The signed URL (relative to /storage/v1/) for one object and the token image_link_token wrote for it, signed with
-- the pads of private.image_link_key(): the same text as private.signed_object_url's. The token should be a column
-- or a variable: an expression passed here would be written twice when the planner inlines this.
create function private.signed_image_link(p_bucket text, p_name text, p_token text, p_key_pads bytea) returns text
language sql stable
as $$
  select 'object/sign/' || p_bucket || '/' || p_name || '?token=' || p_token || '.'
    || rtrim(replace(replace(encode(sha256(substring(p_key_pads from 65 for 64)
         || sha256(substring(p_key_pads from 1 for 64) || convert_to(p_token, 'UTF8'))), 'base64'), '+', '-'), '/', '_'), '=')
$$;
revoke all on function private.signed_image_link(p_bucket text, p_name text, p_token text, p_key_pads bytea) from public;

-- Hashes sharing a quarter with a probe (private.ads_near_hash).
create index ads_visual_hash on public.ads using gin (private.hash_quarter_keys(visual_hash)) where visual_hash is not null;

-- Nearest colour points ("more like this"; each board's ads are the nearest that pass its condition).
create index ads_colour_point on public.ads using gist (colour_point) where colour_point is not null;

create trigger ads_visual_fingerprint
  before insert or update of visual_hash, colour_histogram, dominant_colours, visual_vector, colour_point, colour_swatches,
                             near_duplicate_of, created_at
  on public.ads for each row execute function private.ads_visual_fingerprint();

create trigger ads_near_duplicates_look_again after insert or update of visual_hash, colour_histogram, created_at or delete
  on public.ads for each row execute function private.ads_near_duplicates_look_again();



insert into private.colour_palette (name, hex, l, a, b)
select p.name, p.hex, lab.l, lab.a, lab.b
  from (values ('red', '#d7263d'), ('orange', '#f08a24'), ('yellow', '#f4d03f'), ('green', '#3a9d5d'),
               ('blue', '#2e6fd8'), ('purple', '#7d4cdb'), ('pink', '#ee7fb4'), ('brown', '#8a5a34'),
               ('beige', '#e6d3b3'), ('black', '#141414'), ('grey', '#8e8e8e'), ('white', '#f7f7f5')) p (name, hex)
 cross join lateral private.hex_to_lab(p.hex) lab;
