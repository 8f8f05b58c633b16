-- Every ad image's visual fingerprint (src/lib/media/visual-fingerprint.ts): a 64-bit perceptual hash, a 16-bin
-- colour histogram and at most 5 dominant colours, written by the admin's upload (or the local tools) and checked
-- here. From them the database keeps what it searches by: the histogram as a point of the cube extension, the
-- image's mean colour and spread as a 4-D point (a GiST index finds the nearest; 16 dimensions are too many for one),
-- the palette's swatches the dominant colours match, and the earliest ad each one is a near-duplicate of. See
-- docs/decisions/0038.

create extension if not exists cube with schema extensions;

alter table public.ads
  add column visual_hash bigint,
  add column colour_histogram real[],
  add column dominant_colours jsonb,
  -- Derived by ads_visual_fingerprint; never written directly.
  add column visual_vector extensions.cube,
  add column colour_point extensions.cube,
  add column colour_swatches text[],
  add column near_duplicate_of uuid,
  add constraint ads_fingerprint_whole check (
    (visual_hash is null) = (colour_histogram is null) and (visual_hash is null) = (dominant_colours is null)),
  add constraint ads_colour_histogram_shape check (
    colour_histogram is null
    or (array_ndims(colour_histogram) = 1 and cardinality(colour_histogram) = 16
        and 0 <= all (colour_histogram) and 1 >= all (colour_histogram))),
  add constraint ads_dominant_colours_shape check (
    dominant_colours is null or (jsonb_typeof(dominant_colours) = 'array' and jsonb_array_length(dominant_colours) between 1 and 5));

grant insert (visual_hash, colour_histogram, dominant_colours), update (visual_hash, colour_histogram, dominant_colours)
  on table public.ads to authenticated;

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

-- The filter bar's palette (src/lib/colour-swatches.ts): each swatch's name, its sRGB colour and that colour in CIELAB.
create table private.colour_palette (
  name text primary key,
  hex text not null unique check (hex ~ '^#[0-9a-f]{6}$'),
  l double precision not null,
  a double precision not null,
  b double precision not null
);
insert into private.colour_palette (name, hex, l, a, b)
select p.name, p.hex, lab.l, lab.a, lab.b
  from (values ('red', '#d7263d'), ('orange', '#f08a24'), ('yellow', '#f4d03f'), ('green', '#3a9d5d'),
               ('blue', '#2e6fd8'), ('purple', '#7d4cdb'), ('pink', '#ee7fb4'), ('brown', '#8a5a34'),
               ('beige', '#e6d3b3'), ('black', '#141414'), ('grey', '#8e8e8e'), ('white', '#f7f7f5')) p (name, hex)
 cross join lateral private.hex_to_lab(p.hex) lab;

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

-- How many of 64 bits two hashes differ in.
create or replace function private.hash_distance(p_a bigint, p_b bigint) returns int
language sql immutable strict parallel safe
set search_path = ''
as $$
  select bit_count((p_a # p_b)::bit(64))::int
$$;

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

create index ads_visual_hash_q0 on public.ads ((((visual_hash >> 48) & 65535)::int)) where visual_hash is not null;
create index ads_visual_hash_q1 on public.ads ((((visual_hash >> 32) & 65535)::int)) where visual_hash is not null;
create index ads_visual_hash_q2 on public.ads ((((visual_hash >> 16) & 65535)::int)) where visual_hash is not null;
create index ads_visual_hash_q3 on public.ads (((visual_hash & 65535)::int)) where visual_hash is not null;
-- Nearest colour points per board.
create index ads_colour_point_library on public.ads using gist (colour_point) where not is_black_friday;
create index ads_colour_point_black_friday on public.ads using gist (colour_point) where is_black_friday;
create index ads_colour_swatches on public.ads using gin (colour_swatches);
create index ads_near_duplicate_of on public.ads (near_duplicate_of) where near_duplicate_of is not null;

-- The ads whose image nearly duplicates a fingerprint's: a hash at most 7 bits away and a colour histogram at most 0.3
-- away (Euclidean; two images of one layout in different colours share a hash, not their colours).
create or replace function private.ads_near_hash(p_hash bigint, p_vector extensions.cube)
returns table (id uuid, distance int, created_at timestamptz)
-- plpgsql: the 68 probe values are bound as arrays, so each quarter's index is read for them. The planner cannot
-- tell how few rows they find (no statistics for the quarters), and would start parallel workers for a handful.
language plpgsql stable strict parallel safe
set search_path = ''
set max_parallel_workers_per_gather = 0
as $$
declare
  v_probes record;
begin
  select * into v_probes from private.hash_quarter_probes(p_hash);
  return query
    select a.id, private.hash_distance(a.visual_hash, p_hash), a.created_at
      from public.ads a
     where a.visual_hash is not null
       and (((a.visual_hash >> 48) & 65535)::int = any (v_probes.q0) or ((a.visual_hash >> 32) & 65535)::int = any (v_probes.q1)
            or ((a.visual_hash >> 16) & 65535)::int = any (v_probes.q2) or (a.visual_hash & 65535)::int = any (v_probes.q3))
       and private.hash_distance(a.visual_hash, p_hash) <= 7
       and extensions.cube_distance(a.visual_vector, p_vector) <= 0.3;
end;
$$;

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
create trigger ads_visual_fingerprint
  before insert or update of visual_hash, colour_histogram, dominant_colours, visual_vector, colour_point, colour_swatches,
                             near_duplicate_of, created_at
  on public.ads for each row execute function private.ads_visual_fingerprint();

-- When an ad's fingerprint or date changes or the ad goes, the ads that pointed at it and the ads near it look again
-- (writing their near_duplicate_of makes ads_visual_fingerprint work it out).
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
  update public.ads a set near_duplicate_of = null
   where a.id <> new.id
     and (a.near_duplicate_of = new.id
          or (new.visual_hash is not null and a.id in (select n.id from private.ads_near_hash(new.visual_hash, new.visual_vector) n)));
  return new;
end;
$$;
create trigger ads_near_duplicates_look_again after insert or update of visual_hash, colour_histogram, created_at or delete
  on public.ads for each row execute function private.ads_near_duplicates_look_again();

revoke execute on function private.hex_to_lab(text), private.colour_swatches(jsonb), private.colour_point(jsonb),
  private.hash_distance(bigint, bigint), private.hash_quarter_probes(bigint), private.ads_near_hash(bigint, extensions.cube),
  private.ads_visual_fingerprint(), private.ads_near_duplicates_look_again() from public;
