-- A page of ads costs less to write: each card is kept as its JSON text, an ad's links come before its card's keys,
-- and each link's token is written once (docs/decisions/0047).
--
-- Counted with callgrind (bench/sql-instructions.sh), writing a page of 60 clear ads spent about a seventh of its
-- instructions writing each stored jsonb card out as text again (jsonb_out), a ninth in left(card, -1), which counts
-- the characters of the whole card twice to find the one before its last, and more in writing each link's token twice
-- (once to show and once to sign), which the planner does not share.
--
-- - public.ads.card becomes json: the text jsonb wrote (the cast writes it once, here), kept as it is, so a page
--   reads it without writing it out again. private.ad_card still builds it as jsonb and the same triggers write it;
--   private.ad_search_text, the one function that reads into it, reads it as json.
-- - private.ads_json_text writes each ad as '{', its clear state, its links and the extra keys, and then the card's
--   text after its opening brace: right(card, -1) steps over one character, where left(card, -1) counted them all.
--   The answers hold the same keys and values as before; an ad's keys now begin with is_clear and its links.
-- - A link's token is written once, in a subquery of its own, and signed by private.signed_image_link: the same
--   link, character for character, as private.signed_object_url's.
-- - An ad's row stays whole in the table up to 4,096 bytes, so its card is read with it.

-- The token a Storage signed URL carries for one object, before its signature: the HS256 header and the payload
-- {"url","iat","exp"}, base64url. Plain SQL without settings, so the planner inlines it.
create function private.image_link_token(p_bucket text, p_name text, p_iat bigint, p_exp bigint) returns text
language sql stable
as $$
  select 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.'
    || replace(replace(replace(replace(encode(convert_to('{"url":"' || p_bucket || '/' || p_name || '","iat":' || p_iat
         || ',"exp":' || p_exp || '}', 'UTF8'), 'base64'), E'\n', ''), '+', '-'), '/', '_'), '=', '')
$$;
revoke execute on function private.image_link_token(text, text, bigint, bigint) from public;

-- The signed URL (relative to /storage/v1/) for one object and the token image_link_token wrote for it, signed with
-- the pads of private.image_link_key(): the same text as private.signed_object_url's. The token should be a column
-- or a variable: an expression passed here would be written twice when the planner inlines this.
create function private.signed_image_link(p_bucket text, p_name text, p_token text, p_key_pads bytea) returns text
language sql stable
as $$
  select 'object/sign/' || p_bucket || '/' || p_name || '?token=' || p_token || '.'
    || rtrim(replace(replace(encode(sha256(substring(p_key_pads from 65 for 64)
         || sha256(substring(p_key_pads from 1 for 64) || convert_to(p_token, 'UTF8'))), 'base64'), '+', '-'), '/', '_'), '=')
$$;
revoke execute on function private.signed_image_link(text, text, text, bytea) from public;

-- The search trigger names the column, so it is made again around the change; the same trigger as
-- 20261206000100_running_blocks'.
drop trigger ads_write_search on public.ads;
-- A row of up to 4,096 bytes is kept whole in the table: an ad's row is about 2,400 (2,700 at most in the bench's
-- 100,000 ads), and the card, its largest value, was moved out to the TOAST table, so every card of a page cost a
-- lookup in the TOAST index and a second read. The rewrite below writes every row again under this setting.
alter table public.ads set (toast_tuple_target = 4096);
alter table public.ads alter column card type json using card::json;
create trigger ads_write_search before insert or update of brand_id, category_id, type_id, card, headline,
    primary_text, landing_url, image_text, created_at, first_seen, last_seen, still_running
  on public.ads for each row execute function private.ads_write_search();

-- As before, reading the card as json.
create or replace function private.ad_search_text(p_ad public.ads) returns text
language sql stable
set search_path = ''
as $$
  select private.search_fold(concat_ws(e'\n',
    p_ad.card ->> 'brand_name', p_ad.card ->> 'category_name', p_ad.card ->> 'type_name',
    (select string_agg(n.name, e'\n') from json_array_elements_text(p_ad.card -> 'tag_names') n (name)),
    p_ad.headline, p_ad.primary_text, private.landing_host(p_ad.landing_url), p_ad.image_text))
$$;
revoke execute on function private.ad_search_text(public.ads) from public;

-- Many ads as one JSON array, in the given order, between p_before and p_after: each ad's clear state, a signed link
-- to its blurred preview when locked and to its display variants when clear (and to its video, for a video ad seen
-- clear), all signed for the current window, p_extra's keys, which must not be a card's, and then its card's keys.
-- A card is an object with an id, so its text is '{' followed by at least one key; signed links hold only
-- [A-Za-z0-9/_.?=-] (object names are checked to [A-Za-z0-9/_.-]), so they need no escaping in JSON. p_before and
-- p_after must make JSON of the array with them; the cast to json checks it.
create or replace function private.ads_json_text(p_ids uuid[], p_clear boolean[], p_extra jsonb[] default null,
                                                 p_before text default '', p_after text default '')
returns json
-- plpgsql keeps the query's plan for the session, and it is the generic one (docs/decisions/0043).
language plpgsql stable
security definer
set search_path = ''
set plan_cache_mode = force_generic_plan
as $$
declare
  v_key bytea := private.image_link_key();
  v_iat bigint := private.image_link_window_start(now());
  v_exp bigint := v_iat + 86400;
begin
  return (select string_agg(x.piece, x.delimiter order by x.ord)::json
    from (select 0::bigint as ord, coalesce(p_before, '') || '[' as piece, '' as delimiter
          union all
          select p.ord,
                 '{"is_clear": ' || coalesce(p.clear::text, 'null')
                   || ', "preview_url": ' || coalesce('"' || private.signed_image_link('ad-images', a.preview_path, t.preview, v_key) || '"', 'null')
                   || ', "display_480_url": ' || coalesce('"' || private.signed_image_link('ad-images', a.display_480_path, t.display_480, v_key) || '"', 'null')
                   || ', "display_960_url": ' || coalesce('"' || private.signed_image_link('ad-images', a.display_960_path, t.display_960, v_key) || '"', 'null')
                   || case when t.video is not null
                        then ', "video_url": "' || private.signed_image_link('ad-videos', a.video_path, t.video, v_key) || '"' else '' end
                   -- p_extra's keys without its braces.
                   || case when p.extra is null or p.extra = '{}'::jsonb then ''
                           else ', ' || substr(p.extra::text, 2, length(p.extra::text) - 2) end
                   || ', ' || right(a.card::text, -1),
                 -- The first ad found has no delimiter before it (an id asked for may have no ad).
                 case when p.ord = min(p.ord) over () then '' else ', ' end
            from unnest(p_ids, p_clear, coalesce(p_extra, array_fill(null::jsonb, array[coalesce(cardinality(p_ids), 0)])))
                   with ordinality as p (id, clear, extra, ord)
            join public.ads a on a.id = p.id
            -- Each token once: offset 0 keeps this subquery whole, where the planner would otherwise write each
            -- token's expression into both places signed_image_link uses it.
            cross join lateral (
              select case when not p.clear then private.image_link_token('ad-images', a.preview_path, v_iat, v_exp) end as preview,
                     case when p.clear then private.image_link_token('ad-images', a.display_480_path, v_iat, v_exp) end as display_480,
                     case when p.clear then private.image_link_token('ad-images', a.display_960_path, v_iat, v_exp) end as display_960,
                     case when p.clear and a.video_path is not null
                          then private.image_link_token('ad-videos', a.video_path, v_iat, v_exp) end as video
              offset 0) t
          union all
          select 9223372036854775807, ']' || coalesce(p_after, ''), '') x);
end;
$$;
revoke execute on function private.ads_json_text(uuid[], boolean[], jsonb[], text, text) from public;
