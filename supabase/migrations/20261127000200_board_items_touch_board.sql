-- Saving an ad to a board (Favorites among them) or removing it reaches the
-- owner's other tabs and devices: each statement on a board's items moves the
-- board's updated_at once, and Realtime delivers that user_collections update,
-- already in the publication, to the owner alone (RLS decides). One event per
-- board per statement, not one per saved row: deleting a board of 5,000 ads or
-- an ad saved by thousands of users stays within Realtime's limits, and
-- user_collection_items itself (whose deletes hosted Realtime cannot check
-- against RLS) stays out of the publication.
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
    for update;
  update public.user_collections c set updated_at = now()
   where c.id in (select collection_id from changed);
  return null;
end;
$$;
revoke execute on function private.user_collection_items_touch_boards() from public;

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
