-- Storage: the buckets, the policies that let only admins write and list them, the checks that a row's file has been
-- uploaded, and the queue of files whose rows are gone (storage_deletions), which the stack empties. A row never
-- points at a missing file and a file no row points at is removed.

-- Function bodies may name tables of later files: they are checked when called, not when created.
set check_function_bodies = false;

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types) values
  ('ad-originals', 'ad-originals', false, 20971520, array['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif']),
  ('ad-images', 'ad-images', false, 5242880, array['image/webp']),
  ('ad-videos', 'ad-videos', false, 52428800, array['video/mp4', 'video/webm']),
  ('brand-logos', 'brand-logos', true, 2097152, array['image/png', 'image/jpeg', 'image/webp']),
  ('banners', 'banners', true, 10485760, array['image/jpeg', 'image/png', 'image/webp'])
on conflict (id) do update
  set public = excluded.public, file_size_limit = excluded.file_size_limit, allowed_mime_types = excluded.allowed_mime_types;

-- Objects whose row is gone, removed from storage by the storage worker.
create table public.storage_deletions (
  id bigint primary key generated always as identity,
  bucket_id text not null,
  name text not null,
  queued_at timestamp with time zone not null default now()
);

-- No ad row may point at an image that is not in storage. An AFTER trigger, so
-- a malformed path is reported by its check constraint first.
create or replace function private.ads_require_objects() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_missing text;
begin
  select p.name into v_missing
    from (values ('ad-originals', new.original_path), ('ad-images', new.display_480_path),
                 ('ad-images', new.display_960_path), ('ad-images', new.preview_path)) as p (bucket_id, name)
   where not exists (select 1 from storage.objects o where o.bucket_id = p.bucket_id and o.name = p.name)
   limit 1;
  if v_missing is not null then
    raise exception 'Image % has not been uploaded', v_missing using errcode = 'P0001', detail = 'image_missing';
  end if;
  -- An object in use again must not be removed by the storage worker.
  delete from public.storage_deletions d
   where (d.bucket_id = 'ad-originals' and d.name = new.original_path)
      or (d.bucket_id = 'ad-images' and d.name in (new.display_480_path, new.display_960_path, new.preview_path));
  return null;
end;
$$;

-- Deleted ads, and the old objects of an ad whose image was replaced.
create or replace function private.ads_queue_object_deletion() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.storage_deletions (bucket_id, name)
  select p.bucket_id, p.name
    from (values ('ad-originals', old.original_path, new.original_path),
                 ('ad-images', old.display_480_path, new.display_480_path),
                 ('ad-images', old.display_960_path, new.display_960_path),
                 ('ad-images', old.preview_path, new.preview_path)) as p (bucket_id, name, replaced_by)
   where tg_op = 'DELETE' or p.name is distinct from p.replaced_by;
  return null;
end;
$$;

-- A brand's logo and a page's banner point at an uploaded object; a replaced
-- or removed one is queued for removal from storage unless another row still
-- uses it. AFTER triggers, so a malformed path is reported by its check first.
create or replace function private.require_object(p_bucket text, p_name text) returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if p_name is not null and not exists (select 1 from storage.objects o where o.bucket_id = p_bucket and o.name = p_name) then
    raise exception 'Image % has not been uploaded', p_name using errcode = 'P0001', detail = 'image_missing';
  end if;
end;
$$;

create or replace function private.brands_logo_objects() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op in ('INSERT', 'UPDATE') and new.logo_path is not null then
    perform private.require_object('brand-logos', new.logo_path);
    delete from public.storage_deletions where bucket_id = 'brand-logos' and name = new.logo_path;
  end if;
  if tg_op in ('UPDATE', 'DELETE') and old.logo_path is not null
     and (tg_op = 'DELETE' or old.logo_path is distinct from new.logo_path)
     and not exists (select 1 from public.brands b where b.logo_path = old.logo_path) then
    insert into public.storage_deletions (bucket_id, name) values ('brand-logos', old.logo_path);
  end if;
  return null;
end;
$$;

create or replace function private.page_banners_objects() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op in ('INSERT', 'UPDATE') then
    perform private.require_object('banners', new.image_path);
    delete from public.storage_deletions where bucket_id = 'banners' and name = new.image_path;
  end if;
  if tg_op in ('UPDATE', 'DELETE') and (tg_op = 'DELETE' or old.image_path is distinct from new.image_path)
     and not exists (select 1 from public.page_banners p where p.image_path = old.image_path) then
    insert into public.storage_deletions (bucket_id, name) values ('banners', old.image_path);
  end if;
  return null;
end;
$$;

-- An ad's stored files, for the admin's session to remove them at once when it deletes the ad.
create or replace function private.ad_object_paths(p_ad public.ads) returns jsonb
language sql immutable parallel safe
set search_path = ''
as $$
  select jsonb_build_object('original_path', p_ad.original_path, 'display_480_path', p_ad.display_480_path,
                            'display_960_path', p_ad.display_960_path, 'preview_path', p_ad.preview_path)
$$;
revoke all on function private.ad_object_paths(p_ad public.ads) from public;

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
revoke all on function private.ads_require_video() from public;

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
revoke all on function private.ads_queue_video_deletion() from public;

create index storage_deletions_object on public.storage_deletions (bucket_id, name);

create trigger ads_require_objects after insert or update of original_path, display_480_path, display_960_path, preview_path
  on public.ads for each row execute function private.ads_require_objects();

create trigger ads_queue_object_deletion after delete or update of original_path, display_480_path, display_960_path, preview_path
  on public.ads for each row execute function private.ads_queue_object_deletion();

create trigger brands_logo_objects after insert or update of logo_path or delete on public.brands
  for each row execute function private.brands_logo_objects();

create trigger page_banners_objects after insert or update of image_path or delete on public.page_banners
  for each row execute function private.page_banners_objects();

create trigger ads_require_video after insert or update of video_path on public.ads
  for each row execute function private.ads_require_video();

create trigger ads_queue_video_deletion after delete or update of video_path on public.ads
  for each row execute function private.ads_queue_video_deletion();

alter table public.storage_deletions enable row level security;
revoke all on table public.storage_deletions from anon, authenticated;

create policy "obyect: admins read the image buckets" on storage.objects for select to authenticated
  using (bucket_id in ('ad-originals', 'ad-images', 'brand-logos', 'banners') and (select public.is_admin()));

create policy "obyect: admins upload to the image buckets" on storage.objects for insert to authenticated
  with check (bucket_id in ('ad-originals', 'ad-images', 'brand-logos', 'banners') and (select public.is_admin()));

create policy "obyect: admins update in the image buckets" on storage.objects for update to authenticated
  using (bucket_id in ('ad-originals', 'ad-images', 'brand-logos', 'banners') and (select public.is_admin()))
  with check (bucket_id in ('ad-originals', 'ad-images', 'brand-logos', 'banners') and (select public.is_admin()));

create policy "obyect: admins delete from the image buckets" on storage.objects for delete to authenticated
  using (bucket_id in ('ad-originals', 'ad-images', 'brand-logos', 'banners') and (select public.is_admin()));

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
