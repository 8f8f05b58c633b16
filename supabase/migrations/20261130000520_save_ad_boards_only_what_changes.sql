-- save_ad_boards runs the insert only when there are boards to add and the delete only when there are boards to
-- remove. Each of them fires the statement triggers on the board items (the caps, with the owner's tree lock, and
-- the board touch) even when it writes no row: a save to one board ran both, and so paid for the triggers twice.
-- What a save does is unchanged.

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
revoke execute on function public.save_ad_boards(uuid, uuid[], uuid[]) from public, anon, authenticated;
-- anon too, so that a signed-out caller gets the named not_authenticated error.
grant execute on function public.save_ad_boards(uuid, uuid[], uuid[]) to anon, authenticated;
