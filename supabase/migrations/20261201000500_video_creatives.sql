-- Video creatives. An ad may carry a video (MP4 or WebM) besides its images:
-- the images are then its poster frame (original, display variants, blurred
-- preview and thumbhash, made as for any image), the video lives in the
-- private bucket ad-videos and the ad's format is 'video'. A video reaches a
-- browser only as a signed link that expires, handed out with the display
-- links to callers who see the ad clear; a locked video ad shows its blurred
-- poster and nothing playable. See docs/decisions/0039.

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types) values
  ('ad-videos', 'ad-videos', false, 52428800, array['video/mp4', 'video/webm'])
on conflict (id) do update
  set public = excluded.public, file_size_limit = excluded.file_size_limit, allowed_mime_types = excluded.allowed_mime_types;

-- Only admins read, list, write and delete there; everyone else reaches a video through a signed link only.
create policy "obyect: admins read ad videos" on storage.objects for select to authenticated
  using (bucket_id = 'ad-videos' and (select public.is_admin()));
create policy "obyect: admins upload ad videos" on storage.objects for insert to authenticated
  with check (bucket_id = 'ad-videos' and (select public.is_admin()));
create policy "obyect: admins update ad videos" on storage.objects for update to authenticated
  using (bucket_id = 'ad-videos' and (select public.is_admin()))
  with check (bucket_id = 'ad-videos' and (select public.is_admin()));
create policy "obyect: admins delete ad videos" on storage.objects for delete to authenticated
  using (bucket_id = 'ad-videos' and (select public.is_admin()));

-- The video's object name in ad-videos and its length in milliseconds: both or neither. Half a second to ten
-- minutes; an ad with a video is of format 'video' (an ad of format 'video' may still be kept as its poster only,
-- as the facts describe the ad as it ran).
alter table public.ads
  add column video_path text unique,
  add column video_duration_ms integer,
  add constraint ads_video_path_format check (
    video_path is null or (video_path ~ '^[A-Za-z0-9][A-Za-z0-9/_-]*\.(mp4|webm)$' and char_length(video_path) <= 200)),
  add constraint ads_video_duration_bounds check (video_duration_ms is null or video_duration_ms between 500 and 600000),
  add constraint ads_video_path_and_duration check ((video_path is null) = (video_duration_ms is null)),
  add constraint ads_video_is_format_video check (video_path is null or format is not distinct from 'video');

-- The admin writes them (RLS: "ads: admins insert/update"); the path is never selectable, as the image paths.
grant insert (video_path, video_duration_ms), update (video_path, video_duration_ms) on table public.ads to authenticated;

-- No ad points at a video that is not stored; a video in use again leaves the removal queue. AFTER, so a malformed
-- path is reported by its check first.
create or replace function private.ads_require_video() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.video_path is not null then
    if not exists (select 1 from storage.objects o where o.bucket_id = 'ad-videos' and o.name = new.video_path) then
      raise exception 'Video % has not been uploaded', new.video_path using errcode = 'P0001', detail = 'video_missing';
    end if;
    delete from public.storage_deletions d where d.bucket_id = 'ad-videos' and d.name = new.video_path;
  end if;
  return null;
end;
$$;
revoke execute on function private.ads_require_video() from public;
create trigger ads_require_video after insert or update of video_path on public.ads
  for each row execute function private.ads_require_video();

-- A deleted ad's video, and a replaced or removed one, are queued for removal from storage.
create or replace function private.ads_queue_video_deletion() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if old.video_path is not null and (tg_op = 'DELETE' or old.video_path is distinct from new.video_path) then
    insert into public.storage_deletions (bucket_id, name) values ('ad-videos', old.video_path);
  end if;
  return null;
end;
$$;
revoke execute on function private.ads_queue_video_deletion() from public;
create trigger ads_queue_video_deletion after delete or update of video_path on public.ads
  for each row execute function private.ads_queue_video_deletion();

-- The card of 20261129000200_card_facts.sql, plus the video's length for a video ad (the grid's duration badge,
-- shown locked or clear: it is a fact, not the creative). Cards of ads without a video are unchanged, so no
-- existing card needs rewriting.
create or replace function private.ad_card(p_ad public.ads) returns jsonb
language sql stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'id', p_ad.id,
    'brand_id', p_ad.brand_id,
    'brand_name', (select b.name from public.brands b where b.id = p_ad.brand_id),
    'brand_logo_path', (select b.logo_path from public.brands b where b.id = p_ad.brand_id),
    'category_id', p_ad.category_id,
    'category_name', (select c.name from public.categories c where c.id = p_ad.category_id),
    'type_id', p_ad.type_id,
    'type_name', (select ty.name from public.types ty where ty.id = p_ad.type_id),
    -- An explicit collation, so the order is the same whatever the database's locale.
    'tag_names', coalesce((select jsonb_agg(g.name order by lower(g.name) collate "C", g.name collate "C")
                             from public.ad_tags t join public.tags g on g.id = t.tag_id
                            where t.ad_id = p_ad.id), '[]'::jsonb),
    'created_at', private.iso_utc(p_ad.created_at),
    'requires_subscription', p_ad.requires_subscription,
    'is_black_friday', p_ad.is_black_friday,
    'is_top_picks', p_ad.is_top_picks,
    'width', p_ad.width,
    'height', p_ad.height,
    'thumbhash', p_ad.thumbhash,
    'preview_path', p_ad.preview_path,
    'platforms', to_jsonb(p_ad.platforms),
    'first_seen', p_ad.first_seen,
    'last_seen', p_ad.last_seen,
    'still_running', p_ad.still_running)
    || case when p_ad.video_duration_ms is not null
         then jsonb_build_object('video_duration_ms', p_ad.video_duration_ms) else '{}'::jsonb end
$$;
revoke execute on function private.ad_card(public.ads) from public;

drop trigger ads_write_card on public.ads;
create trigger ads_write_card before insert or update of brand_id, category_id, type_id, created_at,
    requires_subscription, is_black_friday, is_top_picks, width, height, thumbhash, preview_path,
    platforms, first_seen, last_seen, still_running, video_duration_ms
  on public.ads for each row execute function private.ads_write_card();

-- ad_json of 20261125000100_image_links.sql, plus a signed link to the video, in the display links' window, for a
-- caller who sees a video ad clear. A locked ad's answer has its blurred preview only, as before.
create or replace function private.ad_json(p_ad public.ads, p_clear boolean, p_key bytea, p_iat bigint, p_exp bigint)
returns jsonb
language sql stable
as $$
  select p_ad.card || jsonb_build_object(
    'is_clear', p_clear,
    'preview_url', case when not p_clear then private.signed_object_url('ad-images', p_ad.preview_path, p_iat, p_exp, p_key) end,
    'display_480_url', case when p_clear then private.signed_object_url('ad-images', p_ad.display_480_path, p_iat, p_exp, p_key) end,
    'display_960_url', case when p_clear then private.signed_object_url('ad-images', p_ad.display_960_path, p_iat, p_exp, p_key) end)
    || case when p_clear and p_ad.video_path is not null
         then jsonb_build_object('video_url', private.signed_object_url('ad-videos', p_ad.video_path, p_iat, p_exp, p_key))
         else '{}'::jsonb end
$$;
revoke execute on function private.ad_json(public.ads, boolean, bytea, bigint, bigint) from public;

-- get_ad_original_download of 20261125000100_image_links.sql: for a video ad the download is its video (the
-- original image is only its poster frame), under the same rules and for the same 5 minutes.
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
revoke execute on function public.get_ad_original_download(uuid) from public, anon, authenticated;
-- Anonymous callers too, so they get the named error rather than a bare permission error.
grant execute on function public.get_ad_original_download(uuid) to anon, authenticated;

-- ad_fact_error of 20261129000100_ad_facts.sql, plus the rule a fact edit can break on a video ad: its format stays 'video'.
create or replace function private.ad_fact_error(p_constraint text) returns text
language sql immutable
set search_path = ''
as $$
  select case p_constraint
    when 'ads_platforms_known' then 'Platforms must be some of meta, instagram, tiktok, youtube, pinterest, snapchat, google'
    when 'ads_platforms_distinct' then 'A platform is listed twice'
    when 'ads_placement_known' then 'Placement must be feed, story, square, portrait or landscape'
    when 'ads_format_known' then 'Format must be single_image, carousel or video'
    when 'ads_seen_order' then 'First seen must not be after last seen'
    when 'ads_last_seen_needs_first_seen' then 'A last seen date needs a first seen date'
    when 'ads_still_running_needs_first_seen' then 'A running ad needs a first seen date'
    when 'ads_seen_not_in_future' then 'Seen dates cannot be in the future'
    when 'ads_landing_url_format' then 'The landing page must be an http or https address'
    when 'ads_landing_url_length' then 'The landing page address is longer than 2048 characters'
    when 'ads_primary_text_length' then 'The primary text must be 1 to 5000 characters'
    when 'ads_headline_length' then 'The headline must be 1 to 300 characters'
    when 'ads_call_to_action_known' then 'Unknown call to action'
    when 'ads_offer_known' then 'Offer must be discount, free_shipping, bundle or none'
    when 'ads_language_iso_639_1' then 'Language must be two lowercase letters (ISO 639-1)'
    when 'ads_country_iso_3166_1' then 'Country must be two uppercase letters (ISO 3166-1)'
    when 'ads_video_is_format_video' then 'An ad with a video must keep the format video'
    else 'The facts are not valid'
  end
$$;
revoke execute on function private.ad_fact_error(text) from public;
