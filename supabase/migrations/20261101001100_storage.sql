-- Buckets and their policies. Originals are private and readable by entitled
-- users (through signed URLs); display variants, logos and banners are public
-- files under unguessable or harmless names. Only admins write; only admins
-- list. A public bucket's files are served without these policies, so what
-- protects a locked ad's display variant is that its path is never handed out.

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types) values
  ('ad-originals', 'ad-originals', false, 20971520, array['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif']),
  ('ad-images', 'ad-images', true, 5242880, array['image/webp']),
  ('brand-logos', 'brand-logos', true, 2097152, array['image/png', 'image/jpeg', 'image/webp']),
  ('banners', 'banners', true, 10485760, array['image/jpeg', 'image/png', 'image/webp'])
on conflict (id) do update
  set public = excluded.public, file_size_limit = excluded.file_size_limit, allowed_mime_types = excluded.allowed_mime_types;

create policy "obyect: admins read the image buckets" on storage.objects for select to authenticated
  using (bucket_id in ('ad-originals', 'ad-images', 'brand-logos', 'banners') and (select public.is_admin()));
create policy "obyect: admins upload to the image buckets" on storage.objects for insert to authenticated
  with check (bucket_id in ('ad-originals', 'ad-images', 'brand-logos', 'banners') and (select public.is_admin()));
create policy "obyect: admins update in the image buckets" on storage.objects for update to authenticated
  using (bucket_id in ('ad-originals', 'ad-images', 'brand-logos', 'banners') and (select public.is_admin()))
  with check (bucket_id in ('ad-originals', 'ad-images', 'brand-logos', 'banners') and (select public.is_admin()));
create policy "obyect: admins delete from the image buckets" on storage.objects for delete to authenticated
  using (bucket_id in ('ad-originals', 'ad-images', 'brand-logos', 'banners') and (select public.is_admin()));
create policy "obyect: entitled users read originals" on storage.objects for select to authenticated
  using (bucket_id = 'ad-originals' and (select public.has_valid_access()));

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
create trigger brands_logo_objects after insert or update of logo_path or delete on public.brands
  for each row execute function private.brands_logo_objects();

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
create trigger page_banners_objects after insert or update of image_path or delete on public.page_banners
  for each row execute function private.page_banners_objects();
