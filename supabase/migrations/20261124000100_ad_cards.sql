-- Each ad's card: what every list and the detail page return for it apart
-- from whether the caller sees it clear (its brand, category and type with
-- their names, its tag names in order, its size, thumbhash and preview).
-- Building those 60 objects from five tables on every page took longer than
-- the rest of a listing call together; the card is now written when the ad,
-- its tags or a name it shows changes, and a listing reads it with the row.
-- The display paths are not in the card: they are added per caller, only
-- when the ad is clear.

-- The card of one ad row as it is now (its tags as they are in ad_tags).
create or replace function private.ad_card(p_ad public.ads) returns jsonb
language sql stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'id', p_ad.id,
    'brand_id', p_ad.brand_id,
    'brand_name', (select b.name from public.brands b where b.id = p_ad.brand_id),
    'brand_logo_path', (select b.logo_path from public.brands b where b.id = p_ad.brand_id),
    'category_id', p_ad.category_id,
    'category_name', (select c.name from public.categories c where c.id = p_ad.category_id),
    'type_id', p_ad.type_id,
    'type_name', (select ty.name from public.types ty where ty.id = p_ad.type_id),
    -- An explicit collation, so the order is the same whatever the database's locale.
    'tag_names', coalesce((select jsonb_agg(g.name order by lower(g.name) collate "C", g.name collate "C")
                             from public.ad_tags t join public.tags g on g.id = t.tag_id
                            where t.ad_id = p_ad.id), '[]'::jsonb),
    'created_at', private.iso_utc(p_ad.created_at),
    'requires_subscription', p_ad.requires_subscription,
    'is_black_friday', p_ad.is_black_friday,
    'is_top_picks', p_ad.is_top_picks,
    'width', p_ad.width,
    'height', p_ad.height,
    'thumbhash', p_ad.thumbhash,
    'preview_path', p_ad.preview_path)
$$;
revoke execute on function private.ad_card(public.ads) from public;

alter table public.ads add column card jsonb;
update public.ads a set card = private.ad_card(a);
alter table public.ads alter column card set not null;
-- No API role is granted the column: the card is read through the listing
-- functions, like the display paths.

-- Written on every insert and on every update of a column the card shows.
-- BEFORE row triggers run in name order: this one sorts after
-- ads_board_flags_follow_tags, so the card sees the flags it settled.
create or replace function private.ads_write_card() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  new.card := private.ad_card(new);
  return new;
end;
$$;
revoke execute on function private.ads_write_card() from public;
create trigger ads_write_card before insert or update of brand_id, category_id, type_id, created_at,
    requires_subscription, is_black_friday, is_top_picks, width, height, thumbhash, preview_path
  on public.ads for each row execute function private.ads_write_card();

-- Cards of the ads whose tags were added or removed, once per statement. An
-- update that keeps every (ad, tag) pair (the copy of created_at following
-- its ad) changes no card.
create or replace function private.ad_tags_write_cards() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    update public.ads a set card = private.ad_card(a) where a.id in (select n.ad_id from new_rows n);
  elsif tg_op = 'DELETE' then
    update public.ads a set card = private.ad_card(a) where a.id in (select o.ad_id from old_rows o);
  else
    update public.ads a set card = private.ad_card(a)
     where a.id in (select d.ad_id
                      from ((select n.ad_id, n.tag_id from new_rows n except select o.ad_id, o.tag_id from old_rows o)
                            union
                            (select o.ad_id, o.tag_id from old_rows o except select n.ad_id, n.tag_id from new_rows n)) d);
  end if;
  return null;
end;
$$;
revoke execute on function private.ad_tags_write_cards() from public;
create trigger ad_tags_inserted_write_cards after insert on public.ad_tags
  referencing new table as new_rows for each statement execute function private.ad_tags_write_cards();
create trigger ad_tags_deleted_write_cards after delete on public.ad_tags
  referencing old table as old_rows for each statement execute function private.ad_tags_write_cards();
create trigger ad_tags_updated_write_cards after update on public.ad_tags
  referencing old table as old_rows new table as new_rows for each statement execute function private.ad_tags_write_cards();

-- A renamed brand, category, type or tag (or a brand's new logo) rewrites the
-- cards that show it. Deleting one needs nothing here: brands and categories
-- in use cannot be deleted, a deleted type sets the ads' type_id to null (an
-- update of the ad) and a deleted tag deletes its ad_tags rows.
create or replace function private.catalog_write_cards() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_table_name = 'brands' then
    update public.ads a set card = private.ad_card(a) where a.brand_id = new.id;
  elsif tg_table_name = 'categories' then
    update public.ads a set card = private.ad_card(a) where a.category_id = new.id;
  elsif tg_table_name = 'types' then
    update public.ads a set card = private.ad_card(a) where a.type_id = new.id;
  elsif tg_table_name = 'tags' then
    update public.ads a set card = private.ad_card(a) where a.id in (select t.ad_id from public.ad_tags t where t.tag_id = new.id);
  end if;
  return null;
end;
$$;
revoke execute on function private.catalog_write_cards() from public;
create trigger brands_write_cards after update of name, logo_path on public.brands
  for each row when (old.name is distinct from new.name or old.logo_path is distinct from new.logo_path)
  execute function private.catalog_write_cards();
create trigger categories_write_cards after update of name on public.categories
  for each row when (old.name is distinct from new.name) execute function private.catalog_write_cards();
create trigger types_write_cards after update of name on public.types
  for each row when (old.name is distinct from new.name) execute function private.catalog_write_cards();
create trigger tags_write_cards after update of name on public.tags
  for each row when (old.name is distinct from new.name) execute function private.catalog_write_cards();

-- One ad as the lists and the detail page return it: its card, whether it is
-- clear, and its display paths only when clear. Plain SQL with no settings and
-- no table of its own to read, so the planner inlines it into the query of
-- ads_json: one definition, and no function call per ad.
create or replace function private.ad_json(p_ad public.ads, p_clear boolean) returns jsonb
language sql stable
as $$
  select p_ad.card || jsonb_build_object(
    'is_clear', p_clear,
    'display_480_path', case when p_clear then p_ad.display_480_path end,
    'display_960_path', case when p_clear then p_ad.display_960_path end)
$$;

-- Many ads at once, in the given order, as ad_json gives each. p_extra adds keys per ad.
create or replace function private.ads_json(p_ids uuid[], p_clear boolean[], p_extra jsonb[] default null)
returns jsonb
-- plpgsql keeps the query's plan for the session; a SQL function is planned again on every call.
language plpgsql stable
security definer
set search_path = ''
as $$
begin
  return (select coalesce(jsonb_agg(private.ad_json(a, p.clear) || coalesce(p.extra, '{}'::jsonb) order by p.ord), '[]'::jsonb)
  from unnest(p_ids, p_clear, coalesce(p_extra, array_fill(null::jsonb, array[coalesce(cardinality(p_ids), 0)])))
         with ordinality as p (id, clear, extra, ord)
  join public.ads a on a.id = p.id);
end;
$$;
