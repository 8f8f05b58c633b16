-- The admin's fingerprint backfill (/admin, "Fingerprint images"): ads stored before fingerprints existed, or whose
-- image could not be fingerprinted at upload, have no visual_hash, so they match no colour, are left out of the look
-- in "More like this" and are never found as near-duplicates. The admin's browser walks them newest first
-- (admin_ads_without_fingerprint, a keyset page with a signed link to each 960 display image), fingerprints each image
-- with the upload's algorithm (src/lib/media/fingerprint-image.ts) and stores the fingerprints in batches
-- (admin_set_fingerprints, all or nothing). See docs/decisions/0038.

create index ads_fingerprint_missing on public.ads (created_at desc, id desc) where visual_hash is null;

create function public.admin_ads_without_fingerprint(
  p_after_created_at timestamptz default null,
  p_after_id uuid default null,
  p_limit int default 50
) returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_key bytea;
  v_iat bigint := private.image_link_window_start(now());
  v_rows jsonb;
  v_count int;
  v_last jsonb;
begin
  perform private.require_admin();
  if p_limit is null or p_limit < 1 or p_limit > 100 then
    raise exception 'A page holds 1 to 100 ads' using errcode = 'P0001', detail = 'invalid_limit';
  end if;
  if (p_after_created_at is null) <> (p_after_id is null) then
    raise exception 'A page starts after an ad''s time and id, or at the start' using errcode = 'P0001', detail = 'invalid_cursor';
  end if;
  v_key := private.image_link_key();

  select coalesce(jsonb_agg(jsonb_build_object(
           'id', page.id,
           'created_at', page.created_at,
           'display_960_url', private.signed_object_url('ad-images', page.display_960_path, v_iat, v_iat + 86400, v_key))
           order by page.created_at desc, page.id desc), '[]'::jsonb),
         count(*)
    into v_rows, v_count
    from (
      select a.id, a.created_at, a.display_960_path
        from public.ads a
       where a.visual_hash is null
         and (p_after_created_at is null or (a.created_at, a.id) < (p_after_created_at, p_after_id))
       order by a.created_at desc, a.id desc
       limit p_limit
    ) page;

  v_last := case when v_count = p_limit then v_rows -> (v_count - 1) end;
  return jsonb_build_object(
    'ads', v_rows,
    'remaining', (select count(*) from public.ads a where a.visual_hash is null),
    'next', case when v_last is null then null
                 else jsonb_build_object('created_at', v_last -> 'created_at', 'id', v_last -> 'id') end);
end;
$$;

revoke all on function public.admin_ads_without_fingerprint(timestamptz, uuid, int) from public, anon;
grant execute on function public.admin_ads_without_fingerprint(timestamptz, uuid, int) to authenticated;

-- Stores up to 100 fingerprints, each {id, hash (a bigint's signed decimal), histogram (16 shares), colours (1 to 5
-- {hex, share})}, in one statement: any invalid element, repeated ad or missing ad changes nothing. The shares and
-- colours are checked once more by the ads' constraints and ads_visual_fingerprint, which derives the rest.
create function public.admin_set_fingerprints(p_fingerprints jsonb) returns int
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_count int;
  v_written int;
begin
  perform private.require_admin();
  if p_fingerprints is null or jsonb_typeof(p_fingerprints) <> 'array' then
    raise exception 'A list of fingerprints is required' using errcode = 'P0001', detail = 'invalid_fingerprints';
  end if;
  v_count := jsonb_array_length(p_fingerprints);
  if v_count = 0 then
    return 0;
  end if;
  if v_count > 100 then
    raise exception 'Too many fingerprints in one call (100 at most)' using errcode = 'P0001', detail = 'too_many_fingerprints';
  end if;
  -- Each check runs only once the ones it needs have passed (CASE keeps the order; OR does not promise one), so a
  -- malformed element gets this error rather than a failed cast.
  if exists (
    select 1 from jsonb_array_elements(p_fingerprints) e
     where case
             when jsonb_typeof(e) <> 'object' then true
             when jsonb_typeof(e -> 'id') is distinct from 'string'
                  or (e ->> 'id') !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then true
             when jsonb_typeof(e -> 'hash') is distinct from 'string' or (e ->> 'hash') !~ '^-?[0-9]{1,19}$' then true
             when (e ->> 'hash')::numeric not between -9223372036854775808 and 9223372036854775807 then true
             when jsonb_typeof(e -> 'histogram') is distinct from 'array' then true
             when jsonb_array_length(e -> 'histogram') <> 16 then true
             when exists (select 1 from jsonb_array_elements(e -> 'histogram') x where jsonb_typeof(x) <> 'number') then true
             else jsonb_typeof(e -> 'colours') is distinct from 'array'
           end
  ) then
    raise exception 'Each fingerprint needs an ad id, a 64-bit hash, 16 histogram shares and its dominant colours'
      using errcode = 'P0001', detail = 'invalid_fingerprints';
  end if;
  if (select count(distinct (e ->> 'id')::uuid) from jsonb_array_elements(p_fingerprints) e) <> v_count then
    raise exception 'An ad appears twice in one call' using errcode = 'P0001', detail = 'invalid_fingerprints';
  end if;

  update public.ads a
     set visual_hash = (e ->> 'hash')::bigint,
         colour_histogram = array(select x::text::real from jsonb_array_elements(e -> 'histogram') with ordinality h (x, n) order by n),
         dominant_colours = e -> 'colours'
    from jsonb_array_elements(p_fingerprints) e
   where a.id = (e ->> 'id')::uuid;
  get diagnostics v_written = row_count;
  if v_written <> v_count then
    raise exception 'Ad not found' using errcode = 'PT404', detail = 'not_found';
  end if;
  return v_written;
end;
$$;

revoke all on function public.admin_set_fingerprints(jsonb) from public, anon;
grant execute on function public.admin_set_fingerprints(jsonb) to authenticated;
