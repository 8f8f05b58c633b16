-- The words printed in an ad's image, read by OCR in the admin's browser when the ad is uploaded, or later by
-- the admin's backfill. Plain text, at most 5000 characters; null means not read yet, '' read and found none.
alter table public.ads
  add column image_text text,
  add constraint ads_image_text_length check (char_length(image_text) <= 5000);

-- Admins write it with the row at upload (RLS: "ads: admins insert/update"). It is read through get_ad.
grant insert (image_text), update (image_text) on table public.ads to authenticated;

-- The backfill's worklist walks the ads not read yet, newest first.
create index ads_image_text_unread on public.ads (created_at desc, id desc) where image_text is null;

-- Stores the text read from several ads' images in one call: p_texts is a JSON array of {"id": uuid, "text": string},
-- 100 at most. All or nothing: an unknown ad or a refused text fails the call and changes no row. Returns how many
-- ads were written.
create function public.admin_set_image_texts(p_texts jsonb) returns int
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_count int;
  v_written int;
begin
  perform private.require_admin();
  if p_texts is null or jsonb_typeof(p_texts) <> 'array' then
    raise exception 'A list of image texts is required' using errcode = 'P0001', detail = 'invalid_image_texts';
  end if;
  v_count := jsonb_array_length(p_texts);
  if v_count = 0 then
    return 0;
  end if;
  if v_count > 100 then
    raise exception 'Too many image texts in one call (100 at most)' using errcode = 'P0001', detail = 'too_many_image_texts';
  end if;
  if exists (
    select 1 from jsonb_array_elements(p_texts) e
     where jsonb_typeof(e) <> 'object'
        or jsonb_typeof(e -> 'id') is distinct from 'string'
        or jsonb_typeof(e -> 'text') is distinct from 'string'
        or (e ->> 'id') !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
        or char_length(e ->> 'text') > 5000
  ) then
    raise exception 'Each image text needs an ad id and a text of at most 5000 characters'
      using errcode = 'P0001', detail = 'invalid_image_texts';
  end if;
  if (select count(distinct (e ->> 'id')::uuid) from jsonb_array_elements(p_texts) e) <> v_count then
    raise exception 'An ad appears twice in one call' using errcode = 'P0001', detail = 'invalid_image_texts';
  end if;

  update public.ads a
     set image_text = btrim(e ->> 'text')
    from jsonb_array_elements(p_texts) e
   where a.id = (e ->> 'id')::uuid;
  get diagnostics v_written = row_count;
  if v_written <> v_count then
    raise exception 'Ad not found' using errcode = 'PT404', detail = 'not_found';
  end if;
  return v_written;
end;
$$;

revoke all on function public.admin_set_image_texts(jsonb) from public, anon;
grant execute on function public.admin_set_image_texts(jsonb) to authenticated;
