-- Ad images reach a browser only through links that stop working.
--
-- The ad-images bucket (display variants and blurred previews) becomes
-- private: its objects stay where they are, so nothing moves, no row points at
-- a missing file and no file loses its row. Lists and the detail page hand out
-- Storage signed URLs instead of paths: an HS256 token over
-- {"url": "<bucket>/<name>", "iat", "exp"}, the format Storage verifies at
-- /storage/v1/object/sign/<bucket>/<name>?token=..., signed here with the
-- image-link secret (private.settings 'image_link_secret'; the local stack
-- writes its JWT secret there, a hosted project its legacy JWT secret, see
-- docs/decisions/0020).
--
-- Links are cut per window of 12 hours: every link handed out during a
-- window has the window's start as iat and the window's start plus 24 hours
-- as exp. So every viewer of an ad gets the same URL during a window (the
-- browser's and a CDN's caches keep working), a link works for 12 to 24
-- hours after it was handed out, and a viewer whose access ends is handed no
-- new link while the old ones die with their window.
--
-- Originals are downloaded only through get_ad_original_download, which checks
-- access and signs for 5 minutes; only admins list or sign in the originals
-- bucket.

update storage.buckets set public = false where id = 'ad-images';

insert into private.settings (key, value) values ('image_link_secret', encode(extensions.gen_random_bytes(32), 'hex'))
on conflict (key) do nothing;

-- Subscribers no longer sign originals through Storage (a 10-year link was one request away).
drop policy "obyect: entitled users read originals" on storage.objects;

-- The start (epoch seconds) of the 12-hour window p_at falls in.
create or replace function private.image_link_window_start(p_at timestamptz) returns bigint
language sql immutable
set search_path = ''
as $$
  select (floor(extract(epoch from p_at) / 43200) * 43200)::bigint
$$;
revoke execute on function private.image_link_window_start(timestamptz) from public;

-- A Storage signed URL (relative to /storage/v1/) for one object, valid from
-- p_iat to p_exp (epoch seconds). Object names are checked by the tables to
-- [A-Za-z0-9/_.-], so they need no escaping in the URL or the JSON payload.
-- Plain SQL without settings, so the planner inlines it into the lists'
-- queries: a function call per link cost five times the signing itself.
-- (replace, not translate: translate cost more than the HMAC.)
create or replace function private.signed_object_url(p_bucket text, p_name text, p_iat bigint, p_exp bigint, p_key bytea)
returns text
language sql stable
as $$
  select 'object/sign/' || p_bucket || '/' || p_name || '?token=eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.'
    || replace(replace(replace(replace(encode(convert_to('{"url":"' || p_bucket || '/' || p_name || '","iat":' || p_iat
         || ',"exp":' || p_exp || '}', 'UTF8'), 'base64'), E'\n', ''), '+', '-'), '/', '_'), '=', '')
    || '.'
    || rtrim(replace(replace(encode(extensions.hmac(convert_to('eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.'
         || replace(replace(replace(replace(encode(convert_to('{"url":"' || p_bucket || '/' || p_name || '","iat":' || p_iat
              || ',"exp":' || p_exp || '}', 'UTF8'), 'base64'), E'\n', ''), '+', '-'), '/', '_'), '=', ''), 'UTF8'),
         p_key, 'sha256'), 'base64'), '+', '-'), '/', '_'), '=')
$$;
revoke execute on function private.signed_object_url(text, text, bigint, bigint, bytea) from public;

create or replace function private.image_link_key() returns bytea
language sql stable
security definer
set search_path = ''
as $$
  select convert_to(s.value, 'UTF8') from private.settings s where s.key = 'image_link_secret'
$$;
revoke execute on function private.image_link_key() from public;

-- One ad as the lists and the detail page return it: its card, whether it is
-- clear, signed links to its display variants when clear and to its blurred
-- preview when locked. Inlined into ads_json like the card.
drop function private.ad_json(public.ads, boolean);
create or replace function private.ad_json(p_ad public.ads, p_clear boolean, p_key bytea, p_iat bigint, p_exp bigint)
returns jsonb
language sql stable
as $$
  select p_ad.card || jsonb_build_object(
    'is_clear', p_clear,
    'preview_url', case when not p_clear then private.signed_object_url('ad-images', p_ad.preview_path, p_iat, p_exp, p_key) end,
    'display_480_url', case when p_clear then private.signed_object_url('ad-images', p_ad.display_480_path, p_iat, p_exp, p_key) end,
    'display_960_url', case when p_clear then private.signed_object_url('ad-images', p_ad.display_960_path, p_iat, p_exp, p_key) end)
$$;
revoke execute on function private.ad_json(public.ads, boolean, bytea, bigint, bigint) from public;

-- Many ads at once, in the given order, as ad_json gives each, with the
-- links of the current window. p_extra adds keys per ad.
create or replace function private.ads_json(p_ids uuid[], p_clear boolean[], p_extra jsonb[] default null)
returns jsonb
-- plpgsql keeps the query's plan for the session; a SQL function is planned again on every call.
language plpgsql stable
security definer
set search_path = ''
as $$
declare
  v_key bytea := private.image_link_key();
  v_iat bigint := private.image_link_window_start(now());
begin
  return (select coalesce(jsonb_agg(private.ad_json(a, p.clear, v_key, v_iat, v_iat + 86400) || coalesce(p.extra, '{}'::jsonb)
                                    order by p.ord), '[]'::jsonb)
  from unnest(p_ids, p_clear, coalesce(p_extra, array_fill(null::jsonb, array[coalesce(cardinality(p_ids), 0)])))
         with ordinality as p (id, clear, extra, ord)
  join public.ads a on a.id = p.id);
end;
$$;

-- A link to download an ad's original, valid for 5 minutes, for a caller with
-- valid access; its file name is the brand's and the ad's.
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
    'url', private.signed_object_url('ad-originals', v_ad.original_path, v_now, v_now + 300, private.image_link_key()),
    'file_name', coalesce(nullif(trim(both '-' from regexp_replace(lower(v_brand), '[^a-z0-9]+', '-', 'g')), ''), 'ad')
      || '-' || left(v_ad.id::text, 8) || coalesce(substring(v_ad.original_path from '\.[A-Za-z0-9]+$'), ''),
    'expires_at', private.iso_utc(to_timestamp(v_now + 300)));
end;
$$;
revoke execute on function public.get_ad_original_download(uuid) from public, anon, authenticated;
-- Anonymous callers too, so they get the named error rather than a bare permission error.
grant execute on function public.get_ad_original_download(uuid) to anon, authenticated;
