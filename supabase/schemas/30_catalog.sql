-- The catalogue an ad is filed under: brands, categories, types, hooks and tags, and the banners of the pages.
-- Everyone reads them; only admins write. Names are normalised before their checks, a brand or category in use
-- cannot be deleted, and the two system tags (Black Friday, Top Picks) cannot be renamed or removed.

-- Function bodies may name tables of later files: they are checked when called, not when created.
set check_function_bodies = false;

create table public.brands (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  logo_path text,
  created_at timestamp with time zone not null default now(),
  constraint brands_logo_path_format check (logo_path is null or (logo_path ~ '^[A-Za-z0-9][A-Za-z0-9/_.-]*$' and logo_path !~ '\.\.')),
  constraint brands_name_length check (char_length(name) <= 80),
  constraint brands_name_not_empty check (name <> '')
);

create table public.categories (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  created_at timestamp with time zone not null default now(),
  constraint categories_name_length check (char_length(name) <= 80),
  constraint categories_name_not_empty check (name <> '')
);

-- system_key marks the tags that put an ad on a themed board.
create table public.tags (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  system_key text unique,
  created_at timestamp with time zone not null default now(),
  constraint tags_name_length check (char_length(name) <= 80),
  constraint tags_name_not_empty check (name <> ''),
  constraint tags_system_key_known check (system_key is null or system_key in ('black_friday', 'top_picks'))
);

create table public.types (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  created_at timestamp with time zone not null default now(),
  constraint types_name_length check (char_length(name) <= 80),
  constraint types_name_not_empty check (name <> '')
);

-- One banner image per themed page, in the public banners bucket.
create table public.page_banners (
  page text primary key,
  image_path text not null,
  updated_at timestamp with time zone not null default now(),
  constraint page_banners_image_path_format check (image_path ~ '^[A-Za-z0-9][A-Za-z0-9/_.-]*$' and image_path !~ '\.\.'),
  constraint page_banners_page_known check (page in ('library', 'black-friday', 'top-picks'))
);

-- Hooks (angles): a short curated list the admin manages, like categories.
create table public.hooks (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  created_at timestamp with time zone not null default now(),
  constraint hooks_name_length check (char_length(name) <= 80),
  constraint hooks_name_not_empty check (name <> '')
);

-- The themed boards' tags cannot be deleted or lose their meaning.
create or replace function private.protect_system_tags() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op = 'DELETE' and old.system_key is not null then
    raise exception 'The tag "%" drives a themed board and cannot be deleted', old.name
      using errcode = 'P0001', detail = 'system_tag_protected';
  end if;
  if tg_op = 'UPDATE' and new.system_key is distinct from old.system_key then
    raise exception 'A tag''s board role cannot be changed'
      using errcode = 'P0001', detail = 'system_tag_protected';
  end if;
  return case when tg_op = 'DELETE' then old else new end;
end;
$$;

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

create unique index brands_name_unique on public.brands (lower(name));

create index brands_name_trgm on public.brands using gin (name extensions.gin_trgm_ops);

create unique index categories_name_unique on public.categories (lower(name));

create index categories_name_trgm on public.categories using gin (name extensions.gin_trgm_ops);

create unique index tags_name_unique on public.tags (lower(name));

create index tags_name_trgm on public.tags using gin (name extensions.gin_trgm_ops);

create unique index types_name_unique on public.types (lower(name));

create unique index hooks_name_unique on public.hooks (lower(name));

create index hooks_name_trgm on public.hooks using gin (name extensions.gin_trgm_ops);

create trigger brands_normalize_name before insert or update of name on public.brands
  for each row execute function private.normalize_name();

create trigger categories_normalize_name before insert or update of name on public.categories
  for each row execute function private.normalize_name();

create trigger tags_normalize_name before insert or update of name on public.tags
  for each row execute function private.normalize_name();

create trigger types_normalize_name before insert or update of name on public.types
  for each row execute function private.normalize_name();

create trigger tags_protect_system before update or delete on public.tags
  for each row execute function private.protect_system_tags();

create trigger brands_refuse_delete_in_use before delete on public.brands
  for each row execute function private.refuse_delete_in_use();

create trigger categories_refuse_delete_in_use before delete on public.categories
  for each row execute function private.refuse_delete_in_use();

create trigger page_banners_touch before update on public.page_banners
  for each row execute function private.touch_updated_at();

create trigger tags_bump_list_ads_version after insert or update or delete or truncate on public.tags
  for each statement execute function private.bump_anonymous_answer_version('list_ads');

create trigger brands_bump_list_ads_version after insert or update or delete or truncate on public.brands
  for each statement execute function private.bump_anonymous_answer_version('list_ads');

create trigger categories_bump_list_ads_version after insert or update or delete or truncate on public.categories
  for each statement execute function private.bump_anonymous_answer_version('list_ads');

create trigger types_bump_list_ads_version after insert or update or delete or truncate on public.types
  for each statement execute function private.bump_anonymous_answer_version('list_ads');

create trigger hooks_normalize_name before insert or update of name on public.hooks
  for each row execute function private.normalize_name();

alter table public.brands enable row level security;
revoke all on table public.brands from anon, authenticated;
grant select on table public.brands to anon;
grant select, delete on table public.brands to authenticated;
grant insert (name, logo_path), update (name, logo_path) on table public.brands to authenticated;

create policy "brands: everyone reads" on public.brands for select to anon, authenticated using (true);
create policy "brands: admins insert" on public.brands for insert to authenticated with check ((select public.is_admin()));
create policy "brands: admins update" on public.brands for update to authenticated using ((select public.is_admin())) with check ((select public.is_admin()));
create policy "brands: admins delete" on public.brands for delete to authenticated using ((select public.is_admin()));

alter table public.categories enable row level security;
revoke all on table public.categories from anon, authenticated;
grant select on table public.categories to anon;
grant select, delete on table public.categories to authenticated;
grant insert (name), update (name) on table public.categories to authenticated;

create policy "categories: everyone reads" on public.categories for select to anon, authenticated using (true);
create policy "categories: admins insert" on public.categories for insert to authenticated with check ((select public.is_admin()));
create policy "categories: admins update" on public.categories for update to authenticated using ((select public.is_admin())) with check ((select public.is_admin()));
create policy "categories: admins delete" on public.categories for delete to authenticated using ((select public.is_admin()));

alter table public.tags enable row level security;
revoke all on table public.tags from anon, authenticated;
grant select on table public.tags to anon;
grant select, delete on table public.tags to authenticated;
grant insert (name), update (name) on table public.tags to authenticated;

create policy "tags: everyone reads" on public.tags for select to anon, authenticated using (true);
create policy "tags: admins insert" on public.tags for insert to authenticated with check ((select public.is_admin()));
create policy "tags: admins update" on public.tags for update to authenticated using ((select public.is_admin())) with check ((select public.is_admin()));
create policy "tags: admins delete" on public.tags for delete to authenticated using ((select public.is_admin()));

alter table public.types enable row level security;
revoke all on table public.types from anon, authenticated;
grant select on table public.types to anon;
grant select, delete on table public.types to authenticated;
grant insert (name), update (name) on table public.types to authenticated;

create policy "types: everyone reads" on public.types for select to anon, authenticated using (true);
create policy "types: admins insert" on public.types for insert to authenticated with check ((select public.is_admin()));
create policy "types: admins update" on public.types for update to authenticated using ((select public.is_admin())) with check ((select public.is_admin()));
create policy "types: admins delete" on public.types for delete to authenticated using ((select public.is_admin()));

alter table public.page_banners enable row level security;
revoke all on table public.page_banners from anon, authenticated;
grant select on table public.page_banners to anon;
grant select, delete on table public.page_banners to authenticated;
grant insert (page, image_path), update (image_path) on table public.page_banners to authenticated;

create policy "page_banners: everyone reads" on public.page_banners for select to anon, authenticated using (true);
create policy "page_banners: admins insert" on public.page_banners for insert to authenticated with check ((select public.is_admin()));
create policy "page_banners: admins update" on public.page_banners for update to authenticated
  using ((select public.is_admin())) with check ((select public.is_admin()));
create policy "page_banners: admins delete" on public.page_banners for delete to authenticated using ((select public.is_admin()));

alter table public.hooks enable row level security;
revoke all on table public.hooks from anon, authenticated;
grant select on table public.hooks to anon;
grant select, delete on table public.hooks to authenticated;
grant insert (name), update (name) on table public.hooks to authenticated;

create policy "hooks: everyone reads" on public.hooks for select to anon, authenticated using (true);
create policy "hooks: admins insert" on public.hooks for insert to authenticated with check ((select public.is_admin()));
create policy "hooks: admins update" on public.hooks for update to authenticated using ((select public.is_admin())) with check ((select public.is_admin()));
create policy "hooks: admins delete" on public.hooks for delete to authenticated using ((select public.is_admin()));

insert into public.tags (name, system_key) values ('Black Friday', 'black_friday'), ('Top Picks', 'top_picks');
