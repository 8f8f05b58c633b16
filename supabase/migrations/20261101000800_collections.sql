-- Personal boards: a tree per user (parent in the same user's tree, no
-- cycles), one system Favorites board per user, and the ads saved in them.
-- Clients create, rename and move boards with plain table writes (the rules
-- are triggers), save an ad with save_ad_boards and delete a board with
-- delete_board.

create table public.user_collections (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  name text not null,
  parent_id uuid references public.user_collections (id) on delete cascade,
  is_system boolean not null default false,
  slug text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint user_collections_name_not_empty check (name <> ''),
  constraint user_collections_name_length check (char_length(name) <= 100),
  constraint user_collections_system_is_favorites check (
    (is_system and slug = 'favorites' and name = 'Favorites' and parent_id is null) or (not is_system and slug is null))
);
create index user_collections_user_parent on public.user_collections (user_id, parent_id);
create index user_collections_parent on public.user_collections (parent_id);
create unique index user_collections_one_favorites on public.user_collections (user_id) where is_system;

create trigger user_collections_normalize_name before insert or update of name on public.user_collections
  for each row execute function private.normalize_name();
create trigger user_collections_touch before update on public.user_collections
  for each row execute function private.touch_updated_at();

-- The tree's rules, checked whatever role writes.
create or replace function private.user_collections_check_board() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_parent public.user_collections;
  v_cursor uuid;
begin
  if tg_op = 'INSERT' and new.is_system then
    -- The spec's fallback insert sends no slug; the system board is always Favorites.
    new.slug := coalesce(new.slug, 'favorites');
  end if;
  if tg_op = 'UPDATE' then
    if old.is_system and (new.name is distinct from old.name or new.parent_id is distinct from old.parent_id) then
      raise exception 'Favorites cannot be renamed or moved' using errcode = 'P0001', detail = 'favorites_protected';
    end if;
    if new.user_id is distinct from old.user_id or new.is_system is distinct from old.is_system
       or new.slug is distinct from old.slug then
      raise exception 'A board''s owner and kind cannot change' using errcode = 'P0001', detail = 'board_immutable';
    end if;
    if new.parent_id is not distinct from old.parent_id then
      return new;
    end if;
  end if;
  if new.parent_id is null then
    return new;
  end if;
  -- One lock per user's tree (same key in delete_board): concurrent moves cannot nest two boards in each other.
  perform pg_advisory_xact_lock(7272, hashtext('user_collections:' || new.user_id::text));
  select * into v_parent from public.user_collections where id = new.parent_id;
  if v_parent.id is null or v_parent.user_id <> new.user_id then
    raise exception 'Parent board not found' using errcode = 'PT404', detail = 'parent_board_not_found';
  end if;
  if v_parent.is_system then
    raise exception 'Boards cannot be put inside Favorites' using errcode = 'P0001', detail = 'favorites_not_a_parent';
  end if;
  if tg_op = 'UPDATE' then
    -- Read after the lock: a concurrent move has committed by now and is seen.
    v_cursor := new.parent_id;
    while v_cursor is not null loop
      if v_cursor = new.id then
        raise exception 'A board cannot be moved inside itself or one of its sub-boards'
          using errcode = 'P0001', detail = 'board_cycle';
      end if;
      select parent_id into v_cursor from public.user_collections where id = v_cursor;
    end loop;
  end if;
  return new;
end;
$$;
create trigger user_collections_check_board before insert or update on public.user_collections
  for each row execute function private.user_collections_check_board();

-- Security definer: the API roles cannot read auth.users, and every delete asks.
create or replace function private.user_collections_protect_favorites() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- Deleting the user (cascade) may remove Favorites; a user may not.
  if old.is_system and exists (select 1 from auth.users where id = old.user_id) then
    raise exception 'Favorites cannot be deleted' using errcode = 'P0001', detail = 'favorites_protected';
  end if;
  return old;
end;
$$;
create trigger user_collections_protect_favorites before delete on public.user_collections
  for each row execute function private.user_collections_protect_favorites();

create table public.user_collection_items (
  collection_id uuid not null references public.user_collections (id) on delete cascade,
  ad_id uuid not null references public.ads (id) on delete cascade,
  saved_at timestamptz not null default now(),
  primary key (collection_id, ad_id)
);
create index user_collection_items_ad on public.user_collection_items (ad_id);
create index user_collection_items_saved_order on public.user_collection_items (collection_id, saved_at desc, ad_id desc);

alter table public.user_collections enable row level security;
alter table public.user_collection_items enable row level security;

revoke all on table public.user_collections, public.user_collection_items from anon, authenticated;
grant select, delete on table public.user_collections to authenticated;
-- user_id is insertable because the spec's insert sends it; the policy holds it to the caller.
grant insert (id, user_id, name, parent_id, is_system, slug), update (name, parent_id) on table public.user_collections to authenticated;
grant select, delete on table public.user_collection_items to authenticated;
grant insert (collection_id, ad_id) on table public.user_collection_items to authenticated;

create policy "user_collections: owners read" on public.user_collections for select to authenticated
  using (user_id = (select auth.uid()));
create policy "user_collections: owners insert" on public.user_collections for insert to authenticated
  with check (user_id = (select auth.uid()));
create policy "user_collections: owners update" on public.user_collections for update to authenticated
  using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));
create policy "user_collections: owners delete" on public.user_collections for delete to authenticated
  using (user_id = (select auth.uid()));

create policy "user_collection_items: owners read" on public.user_collection_items for select to authenticated
  using (exists (select 1 from public.user_collections c where c.id = collection_id and c.user_id = (select auth.uid())));
create policy "user_collection_items: owners insert" on public.user_collection_items for insert to authenticated
  with check (exists (select 1 from public.user_collections c where c.id = collection_id and c.user_id = (select auth.uid())));
create policy "user_collection_items: owners delete" on public.user_collection_items for delete to authenticated
  using (exists (select 1 from public.user_collections c where c.id = collection_id and c.user_id = (select auth.uid())));

-- The caller's Favorites board, created on first use.
create or replace function public.get_or_create_favorites_id() returns uuid
language plpgsql
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_id uuid;
begin
  if v_uid is null then
    raise exception 'Not authenticated' using errcode = '42501', detail = 'not_authenticated';
  end if;
  insert into public.user_collections (name, is_system, slug)
  values ('Favorites', true, 'favorites')
  on conflict (user_id) where is_system do nothing;
  select id into v_id from public.user_collections where user_id = v_uid and is_system;
  return v_id;
end;
$$;
revoke execute on function public.get_or_create_favorites_id() from public, anon, authenticated;
-- anon too, so that a signed-out caller gets the named not_authenticated error.
grant execute on function public.get_or_create_favorites_id() to anon, authenticated;

-- Adds and removes one ad's board memberships in one call: all or nothing.
-- Returns the ids of the caller's boards that hold the ad afterwards.
create or replace function public.save_ad_boards(p_ad_id uuid, p_add uuid[] default '{}', p_remove uuid[] default '{}')
returns uuid[]
language plpgsql
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_add uuid[] := array(select distinct x from unnest(coalesce(p_add, '{}'::uuid[])) x where x is not null);
  v_remove uuid[] := array(select distinct x from unnest(coalesce(p_remove, '{}'::uuid[])) x where x is not null);
  v_owned int;
begin
  if v_uid is null then
    raise exception 'Not authenticated' using errcode = '42501', detail = 'not_authenticated';
  end if;
  if not exists (select 1 from public.ads where id = p_ad_id) then
    raise exception 'Ad not found' using errcode = 'PT404', detail = 'ad_not_found';
  end if;
  if v_add && v_remove then
    raise exception 'A board cannot be added and removed at once' using errcode = '22023', detail = 'board_add_remove_overlap';
  end if;
  if cardinality(v_add) + cardinality(v_remove) > 500 then
    raise exception 'Too many boards in one save' using errcode = '22023', detail = 'too_many_boards';
  end if;
  select count(*) into v_owned from public.user_collections
   where id = any (v_add || v_remove) and user_id = v_uid;
  if v_owned <> cardinality(v_add) + cardinality(v_remove) then
    raise exception 'Board not found' using errcode = 'PT404', detail = 'board_not_found';
  end if;
  insert into public.user_collection_items (collection_id, ad_id)
  select x, p_ad_id from unnest(v_add) x
  on conflict do nothing;
  delete from public.user_collection_items where ad_id = p_ad_id and collection_id = any (v_remove);
  return array(
    select i.collection_id from public.user_collection_items i
      join public.user_collections c on c.id = i.collection_id
     where i.ad_id = p_ad_id and c.user_id = v_uid
     order by i.collection_id);
end;
$$;
revoke execute on function public.save_ad_boards(uuid, uuid[], uuid[]) from public, anon, authenticated;
-- anon too, so that a signed-out caller gets the named not_authenticated error.
grant execute on function public.save_ad_boards(uuid, uuid[], uuid[]) to anon, authenticated;

-- Deletes one of the caller's boards with its saved ads, in one transaction. Its
-- sub-boards either move up to its parent (top level for a top-level board) or
-- are deleted with their ads, as the delete confirmation chose. Returns the ids
-- of the boards that are gone, so an open board page can leave.
create or replace function public.delete_board(p_id uuid, p_move_children_up boolean)
returns uuid[]
language plpgsql
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_board public.user_collections;
  v_deleted uuid[];
begin
  if v_uid is null then
    raise exception 'Not authenticated' using errcode = '42501', detail = 'not_authenticated';
  end if;
  if p_move_children_up is null then
    raise exception 'Say whether sub-boards move up or are deleted' using errcode = '22023', detail = 'move_children_up_required';
  end if;
  -- The tree lock first (same key as the board trigger): no sub-board can arrive under this board meanwhile.
  perform pg_advisory_xact_lock(7272, hashtext('user_collections:' || v_uid::text));
  select * into v_board from public.user_collections where id = p_id and user_id = v_uid for update;
  if v_board.id is null then
    raise exception 'Board not found' using errcode = 'PT404', detail = 'board_not_found';
  end if;
  if v_board.is_system then
    raise exception 'Favorites cannot be deleted' using errcode = 'P0001', detail = 'favorites_protected';
  end if;
  if p_move_children_up then
    update public.user_collections set parent_id = v_board.parent_id where parent_id = v_board.id;
  end if;
  with recursive doomed as (
    select id from public.user_collections where id = v_board.id
    union all
    select c.id from public.user_collections c join doomed d on c.parent_id = d.id
  )
  select array_agg(id order by id) into v_deleted from doomed;
  delete from public.user_collections where id = v_board.id;
  return v_deleted;
end;
$$;
revoke execute on function public.delete_board(uuid, boolean) from public, anon, authenticated;
grant execute on function public.delete_board(uuid, boolean) to anon, authenticated;

-- A board's saved ads with the spec's flat fields; no ad image path but the blurred preview
-- (display paths come only from list_collection_ads, which decides clear or locked).
create view public.v_user_collection_ads with (security_invoker = true) as
select i.collection_id, i.ad_id, i.saved_at, a.brand_id, b.name as brand_name, b.logo_path as brand_logo_path,
       a.category_id, c.name as category_name, a.created_at, a.requires_subscription, a.is_black_friday,
       a.width, a.height, a.thumbhash, a.preview_path
  from public.user_collection_items i
  join public.ads a on a.id = i.ad_id
  join public.brands b on b.id = a.brand_id
  join public.categories c on c.id = a.category_id;
revoke all on table public.v_user_collection_ads from anon, authenticated;
grant select on table public.v_user_collection_ads to authenticated;
