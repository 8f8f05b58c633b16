-- The admin's backfill of image texts: the ads whose image_text is null (not read yet, or not readable at upload),
-- newest first, a page at a time, each with a link to its 960 display image, which the admin's browser reads.
-- Keyset pages: p_after_created_at and p_after_id are the last ad of the previous page (both null for the first).
-- p_limit is 1 to 100. Returns {"ads": [{"id", "created_at", "display_960_url"}], "remaining": n, "next": {...} | null};
-- remaining counts every unread ad, the ones before the cursor included.
create function public.admin_ads_without_image_text(
  p_after_created_at timestamptz default null,
  p_after_id uuid default null,
  p_limit int default 50
) returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_key bytea;
  v_iat bigint := private.image_link_window_start(now());
  v_rows jsonb;
  v_count int;
  v_last jsonb;
begin
  perform private.require_admin();
  if p_limit is null or p_limit < 1 or p_limit > 100 then
    raise exception 'A page holds 1 to 100 ads' using errcode = 'P0001', detail = 'invalid_limit';
  end if;
  if (p_after_created_at is null) <> (p_after_id is null) then
    raise exception 'A page starts after an ad''s time and id, or at the start' using errcode = 'P0001', detail = 'invalid_cursor';
  end if;
  v_key := private.image_link_key();

  select coalesce(jsonb_agg(jsonb_build_object(
           'id', page.id,
           'created_at', page.created_at,
           'display_960_url', private.signed_object_url('ad-images', page.display_960_path, v_iat, v_iat + 86400, v_key))
           order by page.created_at desc, page.id desc), '[]'::jsonb),
         count(*)
    into v_rows, v_count
    from (
      select a.id, a.created_at, a.display_960_path
        from public.ads a
       where a.image_text is null
         and (p_after_created_at is null or (a.created_at, a.id) < (p_after_created_at, p_after_id))
       order by a.created_at desc, a.id desc
       limit p_limit
    ) page;

  v_last := case when v_count = p_limit then v_rows -> (v_count - 1) end;
  return jsonb_build_object(
    'ads', v_rows,
    'remaining', (select count(*) from public.ads a where a.image_text is null),
    'next', case when v_last is null then null
                 else jsonb_build_object('created_at', v_last -> 'created_at', 'id', v_last -> 'id') end);
end;
$$;

revoke all on function public.admin_ads_without_image_text(timestamptz, uuid, int) from public, anon;
grant execute on function public.admin_ads_without_image_text(timestamptz, uuid, int) to authenticated;
