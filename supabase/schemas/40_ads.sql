-- The ads and their facts. One row per creative: its catalogue links, its image variants, the facts of the ad
-- (platforms, placement, format, running dates, copy, offer, hook, language, country, the text in the image) with their
-- checks, the card every list shows (kept in `card` by triggers when the ad or its catalogue changes), the tags with
-- the themed boards' flags that follow them, exact counts for the admin table, and the free sample that non-subscribers
-- see clear. The image columns are not readable by API roles: paths reach a caller only through functions that
-- decide whether the caller may see the ad clear (60_listing).

-- Function bodies may name tables of later files: they are checked when called, not when created.
set check_function_bodies = false;

create table public.ads (
  id uuid primary key default gen_random_uuid(),
  brand_id uuid not null references public.brands (id) on delete restrict,
  category_id uuid not null references public.categories (id) on delete restrict,
  type_id uuid references public.types (id) on delete set null,
  created_at timestamp with time zone not null default now(),
  requires_subscription boolean not null default true,
  -- Maintained from the themed boards' tags (ad_tags triggers), never written directly.
  is_black_friday boolean not null default false,
  is_top_picks boolean not null default false,
  original_path text not null unique,
  display_480_path text not null unique,
  display_960_path text not null unique,
  preview_path text not null unique,
  width integer not null,
  height integer not null,
  thumbhash text not null,
  card json not null,
  free_sample boolean not null default false,
  -- When the ad joined the sample; kept when it leaves while premium (it comes back first).
  free_sample_since timestamp with time zone,
  platforms text[],
  placement text,
  format text,
  first_seen date,
  last_seen date,
  still_running boolean not null default false,
  landing_url text,
  primary_text text,
  headline text,
  call_to_action text,
  offer text,
  hook_id uuid references public.hooks (id) on delete set null,
  language text,
  country text,
  image_text text,
  search_text text not null default ''::text,
  search_vector tsvector not null default ''::tsvector,
  visual_hash bigint,
  colour_histogram real[],
  dominant_colours jsonb,
  -- Derived by ads_visual_fingerprint; never written directly.
  visual_vector extensions.cube,
  colour_point extensions.cube,
  colour_swatches text[],
  near_duplicate_of uuid,
  video_path text unique,
  video_duration_ms integer,
  -- The keys of the longest-running and recently-seen orders, written by ads_count_days (60_listing).
  running_days_key integer not null default 0,
  last_seen_key date not null default '-infinity'::date,
  constraint ads_call_to_action_known check (call_to_action is null or call_to_action in (
    'shop_now', 'learn_more', 'sign_up', 'get_offer', 'order_now', 'subscribe', 'download', 'book_now', 'contact_us', 'watch_more')),
  constraint ads_colour_histogram_shape check (
    colour_histogram is null
    or (array_ndims(colour_histogram) = 1 and cardinality(colour_histogram) = 16
        and 0 <= all (colour_histogram) and 1 >= all (colour_histogram))),
  constraint ads_country_iso_3166_1 check (country is null or country ~ '^[A-Z]{2}$'),
  constraint ads_dominant_colours_shape check (
    dominant_colours is null or (jsonb_typeof(dominant_colours) = 'array' and jsonb_array_length(dominant_colours) between 1 and 5)),
  constraint ads_fingerprint_whole check (
    (visual_hash is null) = (colour_histogram is null) and (visual_hash is null) = (dominant_colours is null)),
  constraint ads_format_known check (format is null or format in ('single_image', 'carousel', 'video')),
  constraint ads_headline_length check (headline is null or (btrim(headline) <> '' and char_length(headline) <= 300)),
  constraint ads_image_text_length check (char_length(image_text) <= 5000),
  constraint ads_landing_url_format check (
    landing_url is null or (landing_url ~* '^https?://[a-z0-9]([a-z0-9.-]*[a-z0-9])?(:[0-9]{1,5})?([/?#][^[:space:][:cntrl:]]*)?$')),
  constraint ads_landing_url_length check (landing_url is null or char_length(landing_url) <= 2048),
  constraint ads_language_iso_639_1 check (language is null or language ~ '^[a-z]{2}$'),
  constraint ads_last_seen_needs_first_seen check (last_seen is null or first_seen is not null),
  constraint ads_offer_known check (offer is null or offer in ('discount', 'free_shipping', 'bundle', 'none')),
  constraint ads_paths_format check (
    original_path ~ '^[A-Za-z0-9][A-Za-z0-9/_.-]*$' and original_path !~ '\.\.'
    and display_480_path ~ '^[A-Za-z0-9][A-Za-z0-9/_.-]*$' and display_480_path !~ '\.\.'
    and display_960_path ~ '^[A-Za-z0-9][A-Za-z0-9/_.-]*$' and display_960_path !~ '\.\.'
    and preview_path ~ '^[A-Za-z0-9][A-Za-z0-9/_.-]*$' and preview_path !~ '\.\.'),
  constraint ads_placement_known check (placement is null or placement in ('feed', 'story', 'square', 'portrait', 'landscape')),
  constraint ads_platforms_distinct check (platforms is null or not private.has_duplicates(platforms)),
  constraint ads_platforms_known check (
    platforms is null or (cardinality(platforms) >= 1 and array_position(platforms, null) is null
      and platforms <@ array['meta', 'instagram', 'tiktok', 'youtube', 'pinterest', 'snapchat', 'google']::text[])),
  constraint ads_primary_text_length check (primary_text is null or (btrim(primary_text) <> '' and char_length(primary_text) <= 5000)),
  constraint ads_seen_not_in_future check (
    (first_seen is null or first_seen <= private.latest_today()) and (last_seen is null or last_seen <= private.latest_today())),
  constraint ads_seen_order check (first_seen is null or last_seen is null or first_seen <= last_seen),
  constraint ads_size_positive check (width between 1 and 20000 and height between 1 and 20000),
  constraint ads_still_running_needs_first_seen check (not still_running or first_seen is not null),
  constraint ads_thumbhash_base64 check (thumbhash ~ '^[A-Za-z0-9+/]{8,64}={0,2}$'),
  constraint ads_video_duration_bounds check (video_duration_ms is null or video_duration_ms between 500 and 600000),
  constraint ads_video_is_format_video check (video_path is null or format is not distinct from 'video'),
  constraint ads_video_path_and_duration check ((video_path is null) = (video_duration_ms is null)),
  constraint ads_video_path_format check (
    video_path is null or (video_path ~ '^[A-Za-z0-9][A-Za-z0-9/_-]*\.(mp4|webm)$' and char_length(video_path) <= 200))
) with (toast_tuple_target=4096);

create table public.ad_tags (
  ad_id uuid not null references public.ads (id) on delete cascade,
  tag_id uuid not null references public.tags (id) on delete cascade,
  -- A copy of the ad's created_at, so a tag filter is one ordered index range.
  ad_created_at timestamp with time zone not null,
  constraint ad_tags_pkey primary key (ad_id, tag_id)
);

-- An exact total for the admin table without counting a million rows.
create table private.ad_counts (
  singleton boolean primary key default true,
  total bigint not null,
  constraint ad_counts_singleton_check check (singleton)
);

-- How many ads carry each tag, kept by a statement trigger on ad_tags.
create table private.tag_ad_counts (
  tag_id uuid primary key references public.tags (id) on delete cascade,
  ads bigint not null,
  constraint tag_ad_counts_not_negative check (ads >= 0)
);

-- How many ads are in each language and for each country (the options of the library's language and country
-- filters), kept by the ads' count triggers.
create table private.ad_locale_counts (
  kind text not null,
  code text not null,
  ads bigint not null,
  constraint ad_locale_counts_pkey primary key (kind, code),
  constraint ad_locale_counts_kind_known check (kind in ('language', 'country')),
  constraint ad_locale_counts_not_negative check (ads >= 0)
);

create table private.free_sample_counts (
  singleton boolean primary key default true,
  premium bigint not null,
  members bigint not null,
  constraint free_sample_counts_not_negative check (premium >= 0 and members >= 0),
  constraint free_sample_counts_singleton_check check (singleton)
);

create or replace function private.ad_tags_copy_created_at() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  select a.created_at into new.ad_created_at from public.ads a where a.id = new.ad_id;
  if new.ad_created_at is null then
    raise exception 'Ad not found' using errcode = 'PT404', detail = 'ad_not_found';
  end if;
  return new;
end;
$$;

create or replace function private.ads_sync_tag_copies() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.ad_tags set ad_created_at = new.created_at where ad_id = new.id;
  return null;
end;
$$;

-- The themed boards follow their tags: an ad is on the Black Friday board or
-- in Top Picks exactly when it carries that board's tag.
create or replace function private.ad_has_system_tag(p_ad_id uuid, p_key text) returns boolean
language sql stable
security definer
set search_path = ''
as $$
  select exists (select 1 from public.ad_tags t join public.tags g on g.id = t.tag_id
                  where t.ad_id = p_ad_id and g.system_key = p_key)
$$;

-- Whoever writes the flags (the owner included), they end up equal to the tags.
create or replace function private.ads_board_flags_follow_tags() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    new.is_black_friday := false;
    new.is_top_picks := false;
  else
    new.is_black_friday := private.ad_has_system_tag(new.id, 'black_friday');
    new.is_top_picks := private.ad_has_system_tag(new.id, 'top_picks');
  end if;
  return new;
end;
$$;

-- Once per statement, and only for the ads whose system tags changed, so bulk
-- edits of ordinary tags never touch the ads.
create or replace function private.ad_tags_sync_board_flags() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.ads a
     set is_black_friday = private.ad_has_system_tag(a.id, 'black_friday'),
         is_top_picks = private.ad_has_system_tag(a.id, 'top_picks')
   where a.id in (select c.ad_id from changed c join public.tags g on g.id = c.tag_id where g.system_key is not null);
  return null;
end;
$$;

create or replace function private.ads_count_inserted() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update private.ad_counts set total = total + (select count(*) from inserted) where singleton;
  insert into private.ad_locale_counts as c (kind, code, ads)
  select l.kind, l.code, count(*)
    from inserted i cross join lateral (values ('language', i.language), ('country', i.country)) l (kind, code)
   where l.code is not null
   group by l.kind, l.code
      on conflict (kind, code) do update set ads = c.ads + excluded.ads;
  return null;
end;
$$;

create or replace function private.ads_count_deleted() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update private.ad_counts set total = total - (select count(*) from deleted) where singleton;
  update private.ad_locale_counts c set ads = c.ads - d.ads
    from (select l.kind, l.code, count(*) as ads
            from deleted d cross join lateral (values ('language', d.language), ('country', d.country)) l (kind, code)
           where l.code is not null
           group by l.kind, l.code) d
   where c.kind = d.kind and c.code = d.code;
  return null;
end;
$$;

-- An ad's language or country changed: the old one counts one ad less, the new one one more.
create or replace function private.ads_count_locale_changed() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update private.ad_locale_counts c set ads = c.ads - 1
    from (values ('language', old.language, new.language), ('country', old.country, new.country)) l (kind, was, now)
   where c.kind = l.kind and c.code = l.was and l.was is distinct from l.now;
  insert into private.ad_locale_counts as c (kind, code, ads)
  select l.kind, l.now, 1
    from (values ('language', old.language, new.language), ('country', old.country, new.country)) l (kind, was, now)
   where l.now is not null and l.was is distinct from l.now
      on conflict (kind, code) do update set ads = c.ads + 1;
  return null;
end;
$$;
revoke all on function private.ads_count_locale_changed() from public;

-- The languages and the countries of the ads, each with its number of ads, most ads first: the options of the
-- library's language and country filters.
create or replace function public.list_ad_locales() returns json
language sql stable
security definer
set search_path = ''
as $$
  select json_build_object(
    'languages', coalesce((select json_agg(json_build_object('code', c.code, 'ads', c.ads) order by c.ads desc, c.code)
                             from private.ad_locale_counts c where c.kind = 'language' and c.ads > 0), '[]'),
    'countries', coalesce((select json_agg(json_build_object('code', c.code, 'ads', c.ads) order by c.ads desc, c.code)
                             from private.ad_locale_counts c where c.kind = 'country' and c.ads > 0), '[]'))
$$;
revoke all on function public.list_ad_locales() from public;

create or replace function private.ads_count_truncated() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update private.ad_counts set total = 0 where singleton;
  delete from private.ad_locale_counts where ads >= 0;
  return null;
end;
$$;

-- The card every list shows: the catalogue names, the facts every card shows and, for a video ad, its length (the
-- grid's duration badge, shown locked or clear: it is a fact, not the creative).
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
    || case when p_ad.video_duration_ms is not null
         then jsonb_build_object('video_duration_ms', p_ad.video_duration_ms) else '{}'::jsonb end
$$;
revoke all on function private.ad_card(p_ad public.ads) from public;

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
revoke all on function private.ads_write_card() from public;

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
revoke all on function private.ad_tags_write_cards() from public;

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
revoke all on function private.catalog_write_cards() from public;

create or replace function private.ad_tags_count() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op in ('INSERT', 'UPDATE') then
    insert into private.tag_ad_counts as c (tag_id, ads)
    select n.tag_id, count(*) from new_rows n group by n.tag_id
        on conflict (tag_id) do update set ads = c.ads + excluded.ads;
  end if;
  if tg_op in ('DELETE', 'UPDATE') then
    -- A deleted tag's row is already gone with it.
    update private.tag_ad_counts c set ads = c.ads - o.ads
      from (select o.tag_id, count(*) as ads from old_rows o group by o.tag_id) o
     where c.tag_id = o.tag_id;
  end if;
  return null;
end;
$$;
revoke all on function private.ad_tags_count() from public;

-- Whoever inserts an ad (the owner included), it starts outside the sample; the statement trigger decides.
create or replace function private.ads_free_sample_starts_out() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  new.free_sample := false;
  new.free_sample_since := null;
  return new;
end;
$$;
revoke all on function private.ads_free_sample_starts_out() from public;

-- Members beyond the cap leave, the latest to join first.
create or replace function private.free_sample_trim() returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_premium bigint;
  v_members bigint;
  v_left bigint;
begin
  select premium, members into v_premium, v_members from private.free_sample_counts for update;
  if v_members <= ceil(v_premium / 10.0) then
    return;
  end if;
  update public.ads a set free_sample = false
   where a.id in (select m.id from public.ads m where m.free_sample
                   order by m.free_sample_since desc, m.id desc limit (v_members - ceil(v_premium / 10.0))::bigint);
  get diagnostics v_left = row_count;
  update private.free_sample_counts set members = members - v_left where singleton;
end;
$$;
revoke all on function private.free_sample_trim() from public;

-- Fills the sample up to the cap: ads that left it come back first, then the
-- newly published premium ads p_published (in publish order) that take the
-- premium count past a multiple of ten, then the others of them.
create or replace function private.free_sample_fill(p_published uuid[]) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_premium bigint;
  v_members bigint;
  v_need bigint;
  v_before bigint;
  v_joined bigint;
begin
  select premium, members into v_premium, v_members from private.free_sample_counts for update;
  v_need := ceil(v_premium / 10.0)::bigint - v_members;
  if v_need <= 0 then
    return;
  end if;
  update public.ads a set free_sample = true
   where a.id in (select w.id from public.ads w
                   where not w.free_sample and w.free_sample_since is not null and w.requires_subscription
                   order by w.free_sample_since, w.id limit v_need);
  get diagnostics v_joined = row_count;
  v_need := v_need - v_joined;
  if v_need > 0 and cardinality(p_published) > 0 then
    v_before := v_premium - cardinality(p_published);
    -- A microsecond apart in publish order, so "the latest to join" is well defined within one statement too.
    update public.ads a set free_sample = true, free_sample_since = now() + c.ord * interval '1 microsecond'
      from (select p.id, p.ord from unnest(p_published) with ordinality as p (id, ord)
             order by (v_before + p.ord - 1) % 10 <> 0, p.ord limit v_need) c
     where a.id = c.id;
    get diagnostics v_need = row_count;
    v_joined := v_joined + v_need;
  end if;
  update private.free_sample_counts set members = members + v_joined where singleton;
end;
$$;
revoke all on function private.free_sample_fill(p_published uuid[]) from public;

create or replace function private.ads_free_sample_published() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_published uuid[] := array(select n.id from new_rows n where n.requires_subscription order by n.created_at, n.id);
begin
  if cardinality(v_published) = 0 then
    return null;
  end if;
  update private.free_sample_counts set premium = premium + cardinality(v_published) where singleton;
  perform private.free_sample_fill(v_published);
  return null;
end;
$$;
revoke all on function private.ads_free_sample_published() from public;

create or replace function private.ads_free_sample_deleted() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update private.free_sample_counts
     set premium = premium - (select count(*) from old_rows o where o.requires_subscription),
         members = members - (select count(*) from old_rows o where o.free_sample)
   where singleton;
  perform private.free_sample_trim();
  return null;
end;
$$;
revoke all on function private.ads_free_sample_deleted() from public;

-- An ad made free leaves the sample for good; an ad made premium is published to it. Per row: transition
-- tables cannot go with a column list, and a statement trigger on every update of ads would run for each
-- card rewrite.
create or replace function private.ads_free_sample_premium_changed() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_member boolean;
begin
  if new.requires_subscription then
    update private.free_sample_counts set premium = premium + 1 where singleton;
    perform private.free_sample_fill(array[new.id]);
  else
    -- The row as it is now, not as the statement found it: an earlier row's trim may have taken it out already.
    select a.free_sample into v_member from public.ads a where a.id = new.id;
    update public.ads set free_sample = false, free_sample_since = null where id = new.id;
    update private.free_sample_counts set premium = premium - 1, members = members - (case when v_member then 1 else 0 end)
     where singleton;
    perform private.free_sample_trim();
  end if;
  return null;
end;
$$;
revoke all on function private.ads_free_sample_premium_changed() from public;

create or replace function private.ads_free_sample_truncated() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update private.free_sample_counts set premium = 0, members = 0 where singleton;
  return null;
end;
$$;
revoke all on function private.ads_free_sample_truncated() from public;

-- The sample chosen anew over the whole library in publish order, and the
-- counts recomputed: for tools that write ads with triggers off (the benchmark
-- seed).
create or replace function private.free_sample_rebuild() returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.ads set free_sample = false, free_sample_since = null where free_sample or free_sample_since is not null;
  update public.ads a set free_sample = true, free_sample_since = a.created_at
    from (select p.id, row_number() over (order by p.created_at, p.id) as n
            from public.ads p where p.requires_subscription) p
   where a.id = p.id and (p.n - 1) % 10 = 0;
  update private.free_sample_counts
     set premium = (select count(*) from public.ads where requires_subscription),
         members = (select count(*) from public.ads where free_sample)
   where singleton;
end;
$$;
revoke all on function private.free_sample_rebuild() from public;

-- Rules (a) to (d) for one ad and one caller. Inlined into the lists' queries.
create or replace function private.ad_is_clear_for(p_ad public.ads, p_signed_in boolean, p_valid_access boolean)
returns boolean
language sql stable
as $$
  select p_valid_access or not p_ad.requires_subscription or p_ad.free_sample or (p_signed_in and p_ad.is_black_friday)
$$;
revoke all on function private.ad_is_clear_for(p_ad public.ads, p_signed_in boolean, p_valid_access boolean) from public;

create or replace function private.placement_for_size(p_width integer, p_height integer) returns text
language sql immutable parallel safe
as $$
  select case
    when p_width is null or p_height is null or p_width <= 0 or p_height <= 0 then null
    when 10 * p_height::bigint >= 16 * p_width::bigint then 'story'
    when 10 * p_height::bigint > 11 * p_width::bigint then 'portrait'
    when 10 * p_width::bigint > 11 * p_height::bigint then 'landscape'
    else 'square'
  end
$$;
revoke all on function private.placement_for_size(p_width integer, p_height integer) from public;

create or replace function private.running_days(p_first_seen date, p_last_seen date, p_still_running boolean) returns integer
language sql stable parallel safe
as $$
  select case
    when p_first_seen is null then null
    when p_still_running then greatest((now() at time zone 'UTC')::date, coalesce(p_last_seen, p_first_seen)) - p_first_seen + 1
    when p_last_seen is null then null
    else p_last_seen - p_first_seen + 1
  end
$$;
revoke all on function private.running_days(p_first_seen date, p_last_seen date, p_still_running boolean) from public;

create or replace function private.ad_facts(p_ad public.ads) returns jsonb
language sql stable
as $$
  select jsonb_build_object(
    'platforms', to_jsonb(p_ad.platforms),
    'placement', coalesce(p_ad.placement, private.placement_for_size(p_ad.width, p_ad.height)),
    'placement_derived', p_ad.placement is null,
    'format', p_ad.format,
    'first_seen', p_ad.first_seen,
    'last_seen', p_ad.last_seen,
    'still_running', p_ad.still_running,
    'running_days', private.running_days(p_ad.first_seen, p_ad.last_seen, p_ad.still_running),
    'landing_url', p_ad.landing_url,
    'primary_text', p_ad.primary_text,
    'headline', p_ad.headline,
    'call_to_action', p_ad.call_to_action,
    'offer', p_ad.offer,
    'hook_id', p_ad.hook_id,
    'hook_name', (select h.name from public.hooks h where h.id = p_ad.hook_id),
    'language', p_ad.language,
    'country', p_ad.country)
$$;
revoke all on function private.ad_facts(p_ad public.ads) from public;

-- The sentence for each fact check an edit can break, and the rule for a video ad: its format stays 'video'.
create or replace function private.ad_fact_error(p_constraint text) returns text
language sql immutable
set search_path = ''
as $$
  select case p_constraint
    when 'ads_platforms_known' then 'Platforms must be some of meta, instagram, tiktok, youtube, pinterest, snapchat, google'
    when 'ads_platforms_distinct' then 'A platform is listed twice'
    when 'ads_placement_known' then 'Placement must be feed, story, square, portrait or landscape'
    when 'ads_format_known' then 'Format must be single_image, carousel or video'
    when 'ads_seen_order' then 'First seen must not be after last seen'
    when 'ads_last_seen_needs_first_seen' then 'A last seen date needs a first seen date'
    when 'ads_still_running_needs_first_seen' then 'A running ad needs a first seen date'
    when 'ads_seen_not_in_future' then 'Seen dates cannot be in the future'
    when 'ads_landing_url_format' then 'The landing page must be an http or https address'
    when 'ads_landing_url_length' then 'The landing page address is longer than 2048 characters'
    when 'ads_primary_text_length' then 'The primary text must be 1 to 5000 characters'
    when 'ads_headline_length' then 'The headline must be 1 to 300 characters'
    when 'ads_call_to_action_known' then 'Unknown call to action'
    when 'ads_offer_known' then 'Offer must be discount, free_shipping, bundle or none'
    when 'ads_language_iso_639_1' then 'Language must be two lowercase letters (ISO 639-1)'
    when 'ads_country_iso_3166_1' then 'Country must be two uppercase letters (ISO 3166-1)'
    when 'ads_video_is_format_video' then 'An ad with a video must keep the format video'
    else 'The facts are not valid'
  end
$$;
revoke all on function private.ad_fact_error(p_constraint text) from public;

-- The host of a landing page address, lower case and without "www.", or null.
create or replace function private.landing_host(p_url text) returns text
language sql immutable parallel safe
set search_path = ''
as $$
  select nullif(regexp_replace(lower(substring(p_url from '^[A-Za-z]+://([^/:?#]+)')), '^www\.', ''), '')
$$;
revoke all on function private.landing_host(p_url text) from public;

-- The sample's members by when they joined (the latest leave first) and the ads that left it by when they joined
-- (the earliest come back first): one index read from either end.
create index ads_free_sample_since on public.ads (free_sample, free_sample_since, id);

-- A hook's ads, newest first: the 30 that "more like this" reads, and a hook's deletion clearing it from its ads.
create index ads_hook_newest on public.ads (hook_id, created_at desc, id desc);

-- The backfill's worklist walks the ads not read yet, newest first.
create index ads_image_text_unread on public.ads (created_at desc, id desc) where image_text is null;

create index ads_near_duplicate_of on public.ads (near_duplicate_of) where near_duplicate_of is not null;

create index ads_fingerprint_missing on public.ads (created_at desc, id desc) where visual_hash is null;

create index ad_tags_tag_order on public.ad_tags (tag_id, ad_created_at desc, ad_id desc);

create trigger ad_tags_copy_created_at before insert or update on public.ad_tags
  for each row execute function private.ad_tags_copy_created_at();

create trigger ads_sync_tag_copies after update of created_at on public.ads
  for each row when (old.created_at is distinct from new.created_at)
  execute function private.ads_sync_tag_copies();

create trigger ads_board_flags_follow_tags before insert or update of is_black_friday, is_top_picks on public.ads
  for each row execute function private.ads_board_flags_follow_tags();

create trigger ad_tags_inserted_sync_board_flags after insert on public.ad_tags
  referencing new table as changed for each statement execute function private.ad_tags_sync_board_flags();

create trigger ad_tags_deleted_sync_board_flags after delete on public.ad_tags
  referencing old table as changed for each statement execute function private.ad_tags_sync_board_flags();

-- An update can move a row off one ad and onto another: both are resynced.
create trigger ad_tags_updated_sync_board_flags_old after update on public.ad_tags
  referencing old table as changed for each statement execute function private.ad_tags_sync_board_flags();

create trigger ad_tags_updated_sync_board_flags_new after update on public.ad_tags
  referencing new table as changed for each statement execute function private.ad_tags_sync_board_flags();

create trigger ads_count_inserted after insert on public.ads
  referencing new table as inserted for each statement execute function private.ads_count_inserted();

create trigger ads_count_deleted after delete on public.ads
  referencing old table as deleted for each statement execute function private.ads_count_deleted();

create trigger ads_count_truncated after truncate on public.ads
  for each statement execute function private.ads_count_truncated();

create trigger ads_count_locale_changed after update of language, country on public.ads
  for each row when (old.language is distinct from new.language or old.country is distinct from new.country)
  execute function private.ads_count_locale_changed();

create trigger ads_bump_list_ads_version after insert or update or delete or truncate on public.ads
  for each statement execute function private.bump_anonymous_answer_version('list_ads');

create trigger ad_tags_bump_list_ads_version after insert or update or delete or truncate on public.ad_tags
  for each statement execute function private.bump_anonymous_answer_version('list_ads');

create trigger ad_tags_inserted_write_cards after insert on public.ad_tags
  referencing new table as new_rows for each statement execute function private.ad_tags_write_cards();

create trigger ad_tags_deleted_write_cards after delete on public.ad_tags
  referencing old table as old_rows for each statement execute function private.ad_tags_write_cards();

create trigger ad_tags_updated_write_cards after update on public.ad_tags
  referencing old table as old_rows new table as new_rows for each statement execute function private.ad_tags_write_cards();

create trigger brands_write_cards after update of name, logo_path on public.brands
  for each row when (old.name is distinct from new.name or old.logo_path is distinct from new.logo_path)
  execute function private.catalog_write_cards();

create trigger categories_write_cards after update of name on public.categories
  for each row when (old.name is distinct from new.name) execute function private.catalog_write_cards();

create trigger types_write_cards after update of name on public.types
  for each row when (old.name is distinct from new.name) execute function private.catalog_write_cards();

create trigger tags_write_cards after update of name on public.tags
  for each row when (old.name is distinct from new.name) execute function private.catalog_write_cards();

create trigger ad_tags_inserted_count after insert on public.ad_tags
  referencing new table as new_rows for each statement execute function private.ad_tags_count();

create trigger ad_tags_deleted_count after delete on public.ad_tags
  referencing old table as old_rows for each statement execute function private.ad_tags_count();

create trigger ad_tags_updated_count after update on public.ad_tags
  referencing old table as old_rows new table as new_rows for each statement execute function private.ad_tags_count();

create trigger ads_free_sample_starts_out before insert on public.ads
  for each row execute function private.ads_free_sample_starts_out();

create trigger ads_free_sample_published after insert on public.ads
  referencing new table as new_rows for each statement execute function private.ads_free_sample_published();

create trigger ads_free_sample_deleted after delete on public.ads
  referencing old table as old_rows for each statement execute function private.ads_free_sample_deleted();

create trigger ads_free_sample_premium_changed after update of requires_subscription on public.ads
  for each row when (old.requires_subscription is distinct from new.requires_subscription)
  execute function private.ads_free_sample_premium_changed();

create trigger ads_free_sample_truncated after truncate on public.ads
  for each statement execute function private.ads_free_sample_truncated();

create trigger ads_write_card before insert or update of brand_id, category_id, type_id, created_at,
    requires_subscription, is_black_friday, is_top_picks, width, height, thumbhash, preview_path,
    platforms, first_seen, last_seen, still_running, video_duration_ms
  on public.ads for each row execute function private.ads_write_card();

alter table public.ads enable row level security;
revoke all on table public.ads from authenticated, anon;
grant delete on table public.ads to authenticated;
grant select (id, brand_id, category_id, type_id, created_at, requires_subscription, is_black_friday, is_top_picks, preview_path, width, height, thumbhash, free_sample) on table public.ads to anon;
grant insert (id, brand_id, category_id, type_id, created_at, requires_subscription, original_path, display_480_path, display_960_path, preview_path, width, height, thumbhash, platforms, placement, format, first_seen, last_seen, still_running, landing_url, primary_text, headline, call_to_action, offer, hook_id, language, country, image_text, visual_hash, colour_histogram, dominant_colours, video_path, video_duration_ms), select (id, brand_id, category_id, type_id, created_at, requires_subscription, is_black_friday, is_top_picks, preview_path, width, height, thumbhash, free_sample), update (brand_id, category_id, type_id, requires_subscription, platforms, placement, format, first_seen, last_seen, still_running, landing_url, primary_text, headline, call_to_action, offer, hook_id, language, country, image_text, visual_hash, colour_histogram, dominant_colours, video_path, video_duration_ms) on table public.ads to authenticated;

create policy "ads: everyone reads the catalogue fields" on public.ads for select to anon, authenticated using (true);
create policy "ads: admins insert" on public.ads for insert to authenticated with check ((select public.is_admin()));
create policy "ads: admins update" on public.ads for update to authenticated
  using ((select public.is_admin())) with check ((select public.is_admin()));
create policy "ads: admins delete" on public.ads for delete to authenticated using ((select public.is_admin()));

alter table public.ad_tags enable row level security;
revoke all on table public.ad_tags from anon, authenticated;
grant select on table public.ad_tags to anon;
grant select, delete on table public.ad_tags to authenticated;
grant insert (ad_id, tag_id) on table public.ad_tags to authenticated;

create policy "ad_tags: everyone reads" on public.ad_tags for select to anon, authenticated using (true);
create policy "ad_tags: admins insert" on public.ad_tags for insert to authenticated with check ((select public.is_admin()));
create policy "ad_tags: admins delete" on public.ad_tags for delete to authenticated using ((select public.is_admin()));



alter table private.tag_ad_counts enable row level security;
revoke all on table private.tag_ad_counts from public, anon, authenticated;

alter table private.ad_locale_counts enable row level security;
revoke all on table private.ad_locale_counts from public, anon, authenticated;

alter table private.free_sample_counts enable row level security;
revoke all on table private.free_sample_counts from public, anon, authenticated;

insert into private.ad_counts (total) values (0);

insert into private.free_sample_counts (premium, members) values (0, 0);
