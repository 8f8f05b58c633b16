-- Ads and their tags. Every ad has its original (private bucket ad-originals),
-- two WebP display variants under an unguessable per-ad folder and a blurred
-- preview under a separate unguessable name (public bucket ad-images), plus its
-- size and thumbhash so a grid lays out before any image loads.
--
-- The image path columns are not selectable by API roles: lists and the detail
-- page get paths only through functions that decide whether the caller may
-- see the ad clear (see the listing migration).

create table public.ads (
  id uuid primary key default gen_random_uuid(),
  brand_id uuid not null references public.brands (id) on delete restrict,
  category_id uuid not null references public.categories (id) on delete restrict,
  type_id uuid references public.types (id) on delete set null,
  created_at timestamptz not null default now(),
  requires_subscription boolean not null default true,
  -- Maintained from the themed boards' tags (ad_tags triggers), never written directly.
  is_black_friday boolean not null default false,
  is_top_picks boolean not null default false,
  original_path text not null unique,
  display_480_path text not null unique,
  display_960_path text not null unique,
  preview_path text not null unique,
  width integer not null,
  height integer not null,
  thumbhash text not null,
  constraint ads_size_positive check (width between 1 and 20000 and height between 1 and 20000),
  constraint ads_thumbhash_base64 check (thumbhash ~ '^[A-Za-z0-9+/]{8,64}={0,2}$'),
  constraint ads_paths_format check (
    original_path ~ '^[A-Za-z0-9][A-Za-z0-9/_.-]*$' and original_path !~ '\.\.'
    and display_480_path ~ '^[A-Za-z0-9][A-Za-z0-9/_.-]*$' and display_480_path !~ '\.\.'
    and display_960_path ~ '^[A-Za-z0-9][A-Za-z0-9/_.-]*$' and display_960_path !~ '\.\.'
    and preview_path ~ '^[A-Za-z0-9][A-Za-z0-9/_.-]*$' and preview_path !~ '\.\.')
);

-- Keyset listing indexes: one per board and one per filter the UI offers.
create index ads_library_order on public.ads (created_at desc, id desc) where not is_black_friday;
create index ads_black_friday_order on public.ads (created_at desc, id desc) where is_black_friday;
create index ads_top_picks_order on public.ads (created_at desc, id desc) where is_top_picks;
create index ads_brand_order on public.ads (brand_id, created_at desc, id desc);
create index ads_category_order on public.ads (category_id, created_at desc, id desc);
create index ads_type_order on public.ads (type_id, created_at desc, id desc);
-- Admin table: newest/oldest across all boards.
create index ads_created_order on public.ads (created_at desc, id desc);

create table public.ad_tags (
  ad_id uuid not null references public.ads (id) on delete cascade,
  tag_id uuid not null references public.tags (id) on delete cascade,
  -- A copy of the ad's created_at, so a tag filter is one ordered index range.
  ad_created_at timestamptz not null,
  primary key (ad_id, tag_id)
);
create index ad_tags_tag_order on public.ad_tags (tag_id, ad_created_at desc, ad_id desc);

create or replace function private.ad_tags_copy_created_at() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  select a.created_at into new.ad_created_at from public.ads a where a.id = new.ad_id;
  if new.ad_created_at is null then
    raise exception 'Ad not found' using errcode = 'PT404', detail = 'ad_not_found';
  end if;
  return new;
end;
$$;
create trigger ad_tags_copy_created_at before insert or update on public.ad_tags
  for each row execute function private.ad_tags_copy_created_at();

create or replace function private.ads_sync_tag_copies() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.ad_tags set ad_created_at = new.created_at where ad_id = new.id;
  return null;
end;
$$;
create trigger ads_sync_tag_copies after update of created_at on public.ads
  for each row when (old.created_at is distinct from new.created_at)
  execute function private.ads_sync_tag_copies();

-- The themed boards follow their tags: an ad is on the Black Friday board or
-- in Top Picks exactly when it carries that board's tag.
create or replace function private.ad_has_system_tag(p_ad_id uuid, p_key text) returns boolean
language sql stable
security definer
set search_path = ''
as $$
  select exists (select 1 from public.ad_tags t join public.tags g on g.id = t.tag_id
                  where t.ad_id = p_ad_id and g.system_key = p_key)
$$;

-- Whoever writes the flags (the owner included), they end up equal to the tags.
create or replace function private.ads_board_flags_follow_tags() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    new.is_black_friday := false;
    new.is_top_picks := false;
  else
    new.is_black_friday := private.ad_has_system_tag(new.id, 'black_friday');
    new.is_top_picks := private.ad_has_system_tag(new.id, 'top_picks');
  end if;
  return new;
end;
$$;
create trigger ads_board_flags_follow_tags before insert or update of is_black_friday, is_top_picks on public.ads
  for each row execute function private.ads_board_flags_follow_tags();

-- Once per statement, and only for the ads whose system tags changed, so bulk
-- edits of ordinary tags never touch the ads.
create or replace function private.ad_tags_sync_board_flags() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.ads a
     set is_black_friday = private.ad_has_system_tag(a.id, 'black_friday'),
         is_top_picks = private.ad_has_system_tag(a.id, 'top_picks')
   where a.id in (select c.ad_id from changed c join public.tags g on g.id = c.tag_id where g.system_key is not null);
  return null;
end;
$$;
create trigger ad_tags_inserted_sync_board_flags after insert on public.ad_tags
  referencing new table as changed for each statement execute function private.ad_tags_sync_board_flags();
create trigger ad_tags_deleted_sync_board_flags after delete on public.ad_tags
  referencing old table as changed for each statement execute function private.ad_tags_sync_board_flags();
-- An update can move a row off one ad and onto another: both are resynced.
create trigger ad_tags_updated_sync_board_flags_old after update on public.ad_tags
  referencing old table as changed for each statement execute function private.ad_tags_sync_board_flags();
create trigger ad_tags_updated_sync_board_flags_new after update on public.ad_tags
  referencing new table as changed for each statement execute function private.ad_tags_sync_board_flags();

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
create trigger ads_require_objects after insert or update of original_path, display_480_path, display_960_path, preview_path
  on public.ads for each row execute function private.ads_require_objects();

-- Objects whose row is gone, removed from storage by the storage worker.
create table public.storage_deletions (
  id bigint generated always as identity primary key,
  bucket_id text not null,
  name text not null,
  queued_at timestamptz not null default now()
);
alter table public.storage_deletions enable row level security;
revoke all on table public.storage_deletions from anon, authenticated;
grant all on table public.storage_deletions to service_role;
create index storage_deletions_object on public.storage_deletions (bucket_id, name);

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
create trigger ads_queue_object_deletion after delete or update of original_path, display_480_path, display_960_path, preview_path
  on public.ads for each row execute function private.ads_queue_object_deletion();

-- A brand or category still used by ads cannot go: the admin is told so by name
-- (the foreign keys restrict as well, for a delete racing an insert).
create or replace function private.refuse_delete_in_use() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_count bigint;
begin
  if tg_table_name = 'brands' then
    select count(*) into v_count from public.ads where brand_id = old.id;
  else
    select count(*) into v_count from public.ads where category_id = old.id;
  end if;
  if v_count > 0 then
    raise exception '"%" is still used by % ad(s); move or delete them first', old.name, v_count
      using errcode = 'P0001', detail = case tg_table_name when 'brands' then 'brand_in_use' else 'category_in_use' end;
  end if;
  return old;
end;
$$;
create trigger brands_refuse_delete_in_use before delete on public.brands
  for each row execute function private.refuse_delete_in_use();
create trigger categories_refuse_delete_in_use before delete on public.categories
  for each row execute function private.refuse_delete_in_use();

-- An exact total for the admin table without counting a million rows.
create table private.ad_counts (
  singleton boolean primary key default true check (singleton),
  total bigint not null
);
insert into private.ad_counts (total) values (0);

create or replace function private.ads_count_inserted() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update private.ad_counts set total = total + (select count(*) from inserted);
  return null;
end;
$$;
create or replace function private.ads_count_deleted() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update private.ad_counts set total = total - (select count(*) from deleted);
  return null;
end;
$$;
create trigger ads_count_inserted after insert on public.ads
  referencing new table as inserted for each statement execute function private.ads_count_inserted();
create trigger ads_count_deleted after delete on public.ads
  referencing old table as deleted for each statement execute function private.ads_count_deleted();
create or replace function private.ads_count_truncated() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update private.ad_counts set total = 0;
  return null;
end;
$$;
create trigger ads_count_truncated after truncate on public.ads
  for each statement execute function private.ads_count_truncated();

alter table public.ads enable row level security;
alter table public.ad_tags enable row level security;

revoke all on table public.ads, public.ad_tags from anon, authenticated;
grant select (id, brand_id, category_id, type_id, created_at, requires_subscription, is_black_friday, is_top_picks,
              width, height, thumbhash, preview_path)
  on table public.ads to anon, authenticated;
grant insert (id, brand_id, category_id, type_id, created_at, requires_subscription, original_path, display_480_path,
              display_960_path, preview_path, width, height, thumbhash),
      update (brand_id, category_id, type_id, requires_subscription),
      delete
  on table public.ads to authenticated;
grant select on table public.ad_tags to anon, authenticated;
grant insert (ad_id, tag_id), delete on table public.ad_tags to authenticated;

create policy "ads: everyone reads the catalogue fields" on public.ads for select to anon, authenticated using (true);
create policy "ads: admins insert" on public.ads for insert to authenticated with check ((select public.is_admin()));
create policy "ads: admins update" on public.ads for update to authenticated
  using ((select public.is_admin())) with check ((select public.is_admin()));
create policy "ads: admins delete" on public.ads for delete to authenticated using ((select public.is_admin()));

create policy "ad_tags: everyone reads" on public.ad_tags for select to anon, authenticated using (true);
create policy "ad_tags: admins insert" on public.ad_tags for insert to authenticated with check ((select public.is_admin()));
create policy "ad_tags: admins delete" on public.ad_tags for delete to authenticated using ((select public.is_admin()));

-- The spec's flat fields, without any image path but the blurred preview.
create view public.ads_with_flags with (security_invoker = true) as
select a.id, a.brand_id, a.category_id, a.type_id, a.created_at, a.requires_subscription,
       a.is_black_friday, a.is_top_picks, a.width, a.height, a.thumbhash, a.preview_path,
       b.name as brand_name, b.logo_path as brand_logo_path, c.name as category_name, ty.name as type_name,
       coalesce(array(select g.name from public.ad_tags t join public.tags g on g.id = t.tag_id
                      where t.ad_id = a.id order by g.name), '{}') as tag_names
  from public.ads a
  join public.brands b on b.id = a.brand_id
  join public.categories c on c.id = a.category_id
  left join public.types ty on ty.id = a.type_id;
revoke all on table public.ads_with_flags from anon, authenticated;
grant select on table public.ads_with_flags to anon, authenticated;
