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
revoke execute on function private.user_collection_items_touch_boards() from public;
