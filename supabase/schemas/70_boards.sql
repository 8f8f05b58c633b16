-- Favorites and the nested boards a user saves ads to: owner-only by RLS, capped in depth and size by triggers,
-- streamed to the owner's other tabs through Realtime (only the board rows; RLS decides who receives them).

-- Function bodies may name tables of later files: they are checked when called, not when created.
set check_function_bodies = false;

create table public.user_collections (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  name text not null,
  parent_id uuid references public.user_collections (id) on delete cascade,
  is_system boolean not null default false,
  slug text,
  created_at timestamp with time zone not null default now(),
  updated_at timestamp with time zone not null default now(),
  constraint user_collections_name_length check (char_length(name) <= 100),
  constraint user_collections_name_not_empty check (name <> ''),
  constraint user_collections_system_is_favorites check (
    (is_system and slug = 'favorites' and name = 'Favorites' and parent_id is null) or (not is_system and slug is null))
);

create table public.user_collection_items (
  collection_id uuid not null references public.user_collections (id) on delete cascade,
  ad_id uuid not null references public.ads (id) on delete cascade,
  saved_at timestamp with time zone not null default now(),
  constraint user_collection_items_pkey primary key (collection_id, ad_id)
);

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
revoke all on function public.get_or_create_favorites_id() from public;

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
  if cardinality(v_add) > 0 then
    insert into public.user_collection_items (collection_id, ad_id)
    select x, p_ad_id from unnest(v_add) x
    on conflict do nothing;
  end if;
  if cardinality(v_remove) > 0 then
    delete from public.user_collection_items where ad_id = p_ad_id and collection_id = any (v_remove);
  end if;
  return array(
    select i.collection_id from public.user_collection_items i
      join public.user_collections c on c.id = i.collection_id
     where i.ad_id = p_ad_id and c.user_id = v_uid
     order by i.collection_id);
end;
$$;
revoke all on function public.save_ad_boards(p_ad_id uuid, p_add uuid[], p_remove uuid[]) from public;

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
revoke all on function public.delete_board(p_id uuid, p_move_children_up boolean) from public;

-- Boards per user and nesting depth, row by row, so that a bulk insert stops
-- at its first row over the cap: inserting a row costs far more than counting
-- it, and 100,000 rows took PGlite 28 s. The user's boards are counted once per
-- statement, after the tree lock (so the count holds until commit), and each
-- row the statement inserts adds one to that count.
create or replace function private.user_collections_forget_counts() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  perform set_config('obyect.board_counts', '{}', true);
  return null;
end;
$$;

create or replace function private.user_collections_check_caps() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  -- Constants here, not a shared function: one more call per row doubled a bulk insert's time on PGlite.
  v_max_boards constant int := 500;
  v_max_depth constant int := 5;
  v_counts jsonb;
  v_boards int;
  v_parent_depth int;
  v_height int;
  v_cursor uuid;
begin
  if tg_op = 'UPDATE' and new.parent_id is not distinct from old.parent_id then
    return new;
  end if;
  if tg_op = 'INSERT' and not new.is_system then
    v_counts := coalesce(nullif(current_setting('obyect.board_counts', true), ''), '{}')::jsonb;
    v_boards := (v_counts ->> new.user_id::text)::int;
    if v_boards is null then
      -- The tree lock of the board trigger and delete_board: a parallel insert counts after this one commits.
      perform pg_advisory_xact_lock(7272, hashtext('user_collections:' || new.user_id::text));
      select count(*) into v_boards
        from (select 1 from public.user_collections
               where user_id = new.user_id and not is_system
               limit v_max_boards) mine;
    end if;
    if v_boards >= v_max_boards then
      raise exception 'A user can have at most % boards', v_max_boards
        using errcode = 'OB001', detail = 'board_limit_reached';
    end if;
    perform set_config('obyect.board_counts', jsonb_set(v_counts, array[new.user_id::text], to_jsonb(v_boards + 1))::text, true);
  end if;
  if new.parent_id is null then
    return new;
  end if;
  -- The same lock before a walk: a parallel move that changes these levels is committed and seen.
  perform pg_advisory_xact_lock(7272, hashtext('user_collections:' || new.user_id::text));
  -- The parent's level (a top-level board is level 1); the walk stops once past the cap.
  v_parent_depth := 1;
  select parent_id into v_cursor from public.user_collections where id = new.parent_id;
  while v_cursor is not null and v_parent_depth < v_max_depth loop
    v_parent_depth := v_parent_depth + 1;
    select parent_id into v_cursor from public.user_collections where id = v_cursor;
  end loop;
  -- A moved board brings its sub-boards along: its subtree's height counts (1 for a board without sub-boards).
  v_height := 1;
  if tg_op = 'UPDATE' then
    with recursive subtree as (
      select c.id, 2 as level from public.user_collections c where c.parent_id = new.id
      union all
      select c.id, s.level + 1 from public.user_collections c join subtree s on c.parent_id = s.id
       where s.level <= v_max_depth
    )
    select coalesce(max(level), 1) into v_height from subtree;
  end if;
  if v_parent_depth + v_height > v_max_depth then
    raise exception 'Boards can be nested at most % levels deep', v_max_depth
      using errcode = 'OB002', detail = 'board_depth_limit_reached';
  end if;
  return new;
end;
$$;

-- Ads per board and favorites (the ads in the Favorites board), once per
-- statement over what it added: save_ad_boards adds one ad to up to 500 boards.
create or replace function private.user_collection_items_check_caps() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_max_ads constant int := 5000;
  v_max_favorites constant int := 10000;
  v_owner uuid;
  v_full record;
begin
  -- Each owner's tree lock, in one order so that two statements over the same owners cannot deadlock.
  for v_owner in
    select distinct c.user_id from public.user_collections c
     where c.id in (select collection_id from added)
     order by c.user_id
  loop
    perform pg_advisory_xact_lock(7272, hashtext('user_collections:' || v_owner::text));
  end loop;
  -- Read after the locks: what parallel transactions added has committed by now and is counted.
  select c.id, c.is_system into v_full
    from public.user_collections c
   where c.id in (select collection_id from added)
     and (select count(*) from (
            select 1 from public.user_collection_items i where i.collection_id = c.id
             limit greatest(v_max_ads, v_max_favorites) + 1) saved)
         > case when c.is_system then v_max_favorites else v_max_ads end
   limit 1;
  if not found then
    return null;
  end if;
  if v_full.is_system then
    raise exception 'A user can have at most % favorites', v_max_favorites
      using errcode = 'OB004', detail = 'favorites_limit_reached';
  end if;
  raise exception 'A board can hold at most % ads', v_max_ads
    using errcode = 'OB003', detail = 'board_ads_limit_reached';
end;
$$;

-- Saving to a board from several requests at once deadlocked. An insert into user_collection_items checks its foreign
-- key first, which holds a key-share lock on the board row; the caps trigger then waits for the owner's tree lock.
-- The save holding that tree lock went on to touch the board with FOR UPDATE, which waits for every key-share
-- holder: each waited for the other until PostgreSQL's deadlock check killed one, so under 32 parallel saves of one
-- user almost no save finished. Touching updated_at changes no key, so the board is locked FOR NO KEY UPDATE (the
-- lock the update itself takes), which key-share holders do not block: a save waits only for the save before it.
create or replace function private.user_collection_items_touch_boards() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- Boards in one order, so that two statements over the same boards cannot deadlock.
  perform 1 from public.user_collections c
    where c.id in (select collection_id from changed)
    order by c.id
    for no key update;
  update public.user_collections c set updated_at = now()
   where c.id in (select collection_id from changed);
  return null;
end;
$$;
revoke all on function private.user_collection_items_touch_boards() from public;

-- A page of 60 of the caller's board's ads, newest saved first, clear by the same rules as every list.
create or replace function public.list_collection_ads(p_collection_id uuid, p_cursor text default null) returns json
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  c_page_size constant int := 60;
  v_uid uuid := (select auth.uid());
  v_valid_access boolean := public.has_valid_access();
  v_query_key text := md5(jsonb_build_array('collection', p_collection_id)::text);
  v_cursor jsonb;
  v_after_at timestamptz;
  v_after_id uuid;
  v_page_ids uuid[];
  v_page_clear boolean[];
  v_page_saved jsonb[];
  v_count int;
  v_last_saved_at timestamptz;
  v_last_ad_id uuid;
begin
  if v_uid is null then
    raise exception 'Not authenticated' using errcode = '42501', detail = 'not_authenticated';
  end if;
  if not exists (select 1 from public.user_collections where id = p_collection_id and user_id = v_uid) then
    raise exception 'Board not found' using errcode = 'PT404', detail = 'board_not_found';
  end if;
  if p_cursor is not null then
    v_cursor := private.read_cursor(p_cursor, v_query_key);
    v_after_at := (v_cursor ->> 't')::timestamptz;
    v_after_id := (v_cursor ->> 'i')::uuid;
  end if;

  -- The page and the position of its last row in one statement, so the cursor matches what was shown.
  with page as (
    select i.saved_at, a, row_number() over (order by i.saved_at desc, i.ad_id desc) as ord
      from public.user_collection_items i
      join public.ads a on a.id = i.ad_id
     where i.collection_id = p_collection_id
       and (v_cursor is null or (i.saved_at, i.ad_id) < (v_after_at, v_after_id))
     order by i.saved_at desc, i.ad_id desc
     limit c_page_size + 1
  )
  select array_agg((page.a).id order by page.ord) filter (where page.ord <= c_page_size),
         array_agg(private.ad_is_clear_for(page.a, true, v_valid_access) order by page.ord)
           filter (where page.ord <= c_page_size),
         array_agg(jsonb_build_object('saved_at', private.iso_utc(page.saved_at)) order by page.ord)
           filter (where page.ord <= c_page_size),
         count(*),
         max(page.saved_at) filter (where page.ord = c_page_size),
         max((page.a).id::text) filter (where page.ord = c_page_size)
    into v_page_ids, v_page_clear, v_page_saved, v_count, v_last_saved_at, v_last_ad_id
    from page;

  return private.ads_page_json(v_page_ids, v_page_clear, v_page_saved,
    case when v_count > c_page_size
      then private.sign_cursor(jsonb_build_object('q', v_query_key, 't', private.iso_utc(v_last_saved_at), 'i', v_last_ad_id)) end);
end;
$$;
revoke all on function public.list_collection_ads(p_collection_id uuid, p_cursor text) from public;

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

create index user_collections_user_parent on public.user_collections (user_id, parent_id);

create index user_collections_parent on public.user_collections (parent_id);

create unique index user_collections_one_favorites on public.user_collections (user_id) where is_system;

create index user_collection_items_ad on public.user_collection_items (ad_id);

create index user_collection_items_saved_order on public.user_collection_items (collection_id, saved_at desc, ad_id desc);

create trigger user_collections_normalize_name before insert or update of name on public.user_collections
  for each row execute function private.normalize_name();

create trigger user_collections_touch before update on public.user_collections
  for each row execute function private.touch_updated_at();

create trigger user_collections_check_board before insert or update on public.user_collections
  for each row execute function private.user_collections_check_board();

create trigger user_collections_protect_favorites before delete on public.user_collections
  for each row execute function private.user_collections_protect_favorites();

create trigger user_collections_forget_counts before insert on public.user_collections
  for each statement execute function private.user_collections_forget_counts();

-- Named to run after user_collections_check_board (triggers fire in name order): the parent is known to be the owner's.
create trigger user_collections_check_caps before insert or update of parent_id on public.user_collections
  for each row execute function private.user_collections_check_caps();

-- Transition tables take one event per trigger; ads are added by insert, and moved between boards only by an update.
create trigger user_collection_items_check_caps_insert after insert on public.user_collection_items
  referencing new table as added
  for each statement execute function private.user_collection_items_check_caps();

create trigger user_collection_items_check_caps_update after update on public.user_collection_items
  referencing new table as added
  for each statement execute function private.user_collection_items_check_caps();

-- Named to run after the caps (triggers fire in name order): a statement refused there touches nothing.
create trigger user_collection_items_touch_boards_insert after insert on public.user_collection_items
  referencing new table as changed
  for each statement execute function private.user_collection_items_touch_boards();

create trigger user_collection_items_touch_boards_delete after delete on public.user_collection_items
  referencing old table as changed
  for each statement execute function private.user_collection_items_touch_boards();

create trigger user_collection_items_touch_boards_update_old after update on public.user_collection_items
  referencing old table as changed
  for each statement execute function private.user_collection_items_touch_boards();

create trigger user_collection_items_touch_boards_update_new after update on public.user_collection_items
  referencing new table as changed
  for each statement execute function private.user_collection_items_touch_boards();

alter table public.user_collections enable row level security;
revoke all on table public.user_collections from authenticated, anon;
grant select, delete on table public.user_collections to authenticated;
grant insert (id, user_id, name, parent_id, is_system, slug), update (name, parent_id) on table public.user_collections to authenticated;

create policy "user_collections: owners read" on public.user_collections for select to authenticated
  using (user_id = (select auth.uid()));
create policy "user_collections: owners insert" on public.user_collections for insert to authenticated
  with check (user_id = (select auth.uid()));
create policy "user_collections: owners update" on public.user_collections for update to authenticated
  using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));
create policy "user_collections: owners delete" on public.user_collections for delete to authenticated
  using (user_id = (select auth.uid()));

alter table public.user_collection_items enable row level security;
revoke all on table public.user_collection_items from authenticated, anon;
grant select, delete on table public.user_collection_items to authenticated;
grant insert (collection_id, ad_id) on table public.user_collection_items to authenticated;

create policy "user_collection_items: owners read" on public.user_collection_items for select to authenticated
  using (exists (select 1 from public.user_collections c where c.id = collection_id and c.user_id = (select auth.uid())));
create policy "user_collection_items: owners insert" on public.user_collection_items for insert to authenticated
  with check (exists (select 1 from public.user_collections c where c.id = collection_id and c.user_id = (select auth.uid())));
create policy "user_collection_items: owners delete" on public.user_collection_items for delete to authenticated
  using (exists (select 1 from public.user_collections c where c.id = collection_id and c.user_id = (select auth.uid())));

revoke all on table public.v_user_collection_ads from authenticated, anon;
grant select on table public.v_user_collection_ads to authenticated;

-- Boards change live across tabs and devices: clients subscribe to
-- user_collections through Realtime, which delivers only the rows RLS lets
-- each subscriber select.
alter publication supabase_realtime add table public.user_collections;
