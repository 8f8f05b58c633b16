-- Caps on what one user can store in boards (decision record 0022): 500 boards
-- besides Favorites, 5 levels of nesting, 5,000 ads a board, 10,000 favorites.
-- Board names keep their check constraint (user_collections_name_length, 100
-- characters). Each cap is counted per statement, after the owner's tree lock,
-- so neither one bulk insert nor two parallel transactions can pass it. Every
-- role is held, the service role too: the rows are a user's, and the caps
-- protect the service. Each cap has a SQLSTATE of its own (class OB, ours) and
-- a stable code in detail.

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
create trigger user_collections_forget_counts before insert on public.user_collections
  for each statement execute function private.user_collections_forget_counts();

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
-- Named to run after user_collections_check_board (triggers fire in name order): the parent is known to be the owner's.
create trigger user_collections_check_caps before insert or update of parent_id on public.user_collections
  for each row execute function private.user_collections_check_caps();

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
-- Transition tables take one event per trigger; ads are added by insert, and moved between boards only by an update.
create trigger user_collection_items_check_caps_insert after insert on public.user_collection_items
  referencing new table as added
  for each statement execute function private.user_collection_items_check_caps();
create trigger user_collection_items_check_caps_update after update on public.user_collection_items
  referencing new table as added
  for each statement execute function private.user_collection_items_check_caps();
