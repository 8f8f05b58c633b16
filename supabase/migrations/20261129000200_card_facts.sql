-- Every card carries the facts a card shows: the platforms an ad ran on, the
-- days it was first and last seen, and whether it is still running. The
-- running days are not stored: they change every day for a running ad, and
-- the SPA counts them from these dates with the detail's rule. Locked ads'
-- cards carry them too: the facts are the teaser, and none of them links to an
-- image (the display paths are still added per caller, only when clear).

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
    'preview_path', p_ad.preview_path,
    'platforms', to_jsonb(p_ad.platforms),
    'first_seen', p_ad.first_seen,
    'last_seen', p_ad.last_seen,
    'still_running', p_ad.still_running)
$$;
revoke execute on function private.ad_card(public.ads) from public;

-- The same trigger function, now also on an update of a fact the card shows.
drop trigger ads_write_card on public.ads;
create trigger ads_write_card before insert or update of brand_id, category_id, type_id, created_at,
    requires_subscription, is_black_friday, is_top_picks, width, height, thumbhash, preview_path,
    platforms, first_seen, last_seen, still_running
  on public.ads for each row execute function private.ads_write_card();

-- Every existing card, written again with its facts.
update public.ads a set card = private.ad_card(a);
