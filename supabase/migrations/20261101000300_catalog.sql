-- Brands, categories, tags and types: readable by everyone, written by admins.
-- Names are trimmed, non-empty and unique regardless of case.

create table public.brands (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  logo_path text,
  created_at timestamptz not null default now(),
  constraint brands_name_not_empty check (name <> ''),
  constraint brands_name_length check (char_length(name) <= 80),
  constraint brands_logo_path_format check (logo_path is null or (logo_path ~ '^[A-Za-z0-9][A-Za-z0-9/_.-]*$' and logo_path !~ '\.\.'))
);
create unique index brands_name_unique on public.brands (lower(name));
create index brands_name_trgm on public.brands using gin (name extensions.gin_trgm_ops);

create table public.categories (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  created_at timestamptz not null default now(),
  constraint categories_name_not_empty check (name <> ''),
  constraint categories_name_length check (char_length(name) <= 80)
);
create unique index categories_name_unique on public.categories (lower(name));
create index categories_name_trgm on public.categories using gin (name extensions.gin_trgm_ops);

-- system_key marks the tags that put an ad on a themed board.
create table public.tags (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  system_key text unique,
  created_at timestamptz not null default now(),
  constraint tags_name_not_empty check (name <> ''),
  constraint tags_name_length check (char_length(name) <= 80),
  constraint tags_system_key_known check (system_key is null or system_key in ('black_friday', 'top_picks'))
);
create unique index tags_name_unique on public.tags (lower(name));
create index tags_name_trgm on public.tags using gin (name extensions.gin_trgm_ops);

create table public.types (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  created_at timestamptz not null default now(),
  constraint types_name_not_empty check (name <> ''),
  constraint types_name_length check (char_length(name) <= 80)
);
create unique index types_name_unique on public.types (lower(name));

create trigger brands_normalize_name before insert or update of name on public.brands
  for each row execute function private.normalize_name();
create trigger categories_normalize_name before insert or update of name on public.categories
  for each row execute function private.normalize_name();
create trigger tags_normalize_name before insert or update of name on public.tags
  for each row execute function private.normalize_name();
create trigger types_normalize_name before insert or update of name on public.types
  for each row execute function private.normalize_name();

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
create trigger tags_protect_system before update or delete on public.tags
  for each row execute function private.protect_system_tags();

insert into public.tags (name, system_key) values ('Black Friday', 'black_friday'), ('Top Picks', 'top_picks');

alter table public.brands enable row level security;
alter table public.categories enable row level security;
alter table public.tags enable row level security;
alter table public.types enable row level security;

revoke all on table public.brands, public.categories, public.tags, public.types from anon, authenticated;
grant select on table public.brands, public.categories, public.tags, public.types to anon, authenticated;
grant insert (name), update (name), delete on table public.categories, public.tags, public.types to authenticated;
grant insert (name, logo_path), update (name, logo_path), delete on table public.brands to authenticated;

create policy "brands: everyone reads" on public.brands for select to anon, authenticated using (true);
create policy "brands: admins insert" on public.brands for insert to authenticated with check ((select public.is_admin()));
create policy "brands: admins update" on public.brands for update to authenticated using ((select public.is_admin())) with check ((select public.is_admin()));
create policy "brands: admins delete" on public.brands for delete to authenticated using ((select public.is_admin()));

create policy "categories: everyone reads" on public.categories for select to anon, authenticated using (true);
create policy "categories: admins insert" on public.categories for insert to authenticated with check ((select public.is_admin()));
create policy "categories: admins update" on public.categories for update to authenticated using ((select public.is_admin())) with check ((select public.is_admin()));
create policy "categories: admins delete" on public.categories for delete to authenticated using ((select public.is_admin()));

create policy "tags: everyone reads" on public.tags for select to anon, authenticated using (true);
create policy "tags: admins insert" on public.tags for insert to authenticated with check ((select public.is_admin()));
create policy "tags: admins update" on public.tags for update to authenticated using ((select public.is_admin())) with check ((select public.is_admin()));
create policy "tags: admins delete" on public.tags for delete to authenticated using ((select public.is_admin()));

create policy "types: everyone reads" on public.types for select to anon, authenticated using (true);
create policy "types: admins insert" on public.types for insert to authenticated with check ((select public.is_admin()));
create policy "types: admins update" on public.types for update to authenticated using ((select public.is_admin())) with check ((select public.is_admin()));
create policy "types: admins delete" on public.types for delete to authenticated using ((select public.is_admin()));
