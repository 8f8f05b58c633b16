-- When an ad comes, changes image or date, the ads pointing at it and the ads near it look again
-- (20261201000100_visual_fingerprints.sql). That was one update whose condition joined the two with OR: an index
-- answers neither side of such an OR, so every ad written read the whole table (a sequential scan, planned alike for
-- an ad without a fingerprint). Two updates now, each through its own index: the ads pointing at it
-- (ads_near_duplicate_of), then, when it has a fingerprint, the ads near it (the hash quarter indexes), leaving out
-- those the first update already made look again.
create or replace function private.ads_near_duplicates_look_again() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'DELETE' then
    update public.ads a set near_duplicate_of = null where a.near_duplicate_of = old.id;
    return old;
  end if;
  if tg_op = 'UPDATE' and old.visual_hash is not distinct from new.visual_hash
     and old.colour_histogram is not distinct from new.colour_histogram and old.created_at = new.created_at then
    return new;
  end if;
  if tg_op = 'UPDATE' then
    update public.ads a set near_duplicate_of = null where a.near_duplicate_of = new.id and a.id <> new.id;
  end if;
  if new.visual_hash is not null then
    update public.ads a set near_duplicate_of = null
     where a.id in (select n.id from private.ads_near_hash(new.visual_hash, new.visual_vector) n)
       and a.id <> new.id
       and a.near_duplicate_of is distinct from new.id;
  end if;
  return new;
end;
$$;

revoke execute on function private.ads_near_duplicates_look_again() from public;
