-- The admin's ad table shows and edits each ad's facts, and exports and
-- imports them as CSV (docs/decisions/0033).

-- The facts of up to 1000 ads, with each hook's name: the table's page, an
-- export and an import's preview ask it for the ads they hold. Ids that name
-- no ad are left out.
create or replace function public.admin_ad_facts(p_ids uuid[])
returns table (
  id uuid,
  platforms text[],
  placement text,
  format text,
  first_seen date,
  last_seen date,
  still_running boolean,
  landing_url text,
  primary_text text,
  headline text,
  call_to_action text,
  offer text,
  hook_id uuid,
  hook_name text,
  language text,
  country text
)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.require_admin();
  if cardinality(coalesce(p_ids, '{}'::uuid[])) > 1000 then
    raise exception 'Too many ads at once (1000 at most)' using errcode = 'P0001', detail = 'too_many_ads';
  end if;
  return query
    select a.id, a.platforms, a.placement, a.format, a.first_seen, a.last_seen, a.still_running, a.landing_url,
           a.primary_text, a.headline, a.call_to_action, a.offer, a.hook_id, h.name, a.language, a.country
      from public.ads a left join public.hooks h on h.id = a.hook_id
     where a.id = any (p_ids)
     order by a.id;
end;
$$;
revoke execute on function public.admin_ad_facts(uuid[]) from public, anon, authenticated, service_role;
grant execute on function public.admin_ad_facts(uuid[]) to authenticated;

-- An imported file's changes, all or nothing: p_rows is an array of at most
-- 1000 objects {"id": ad, "facts": {...}}, each facts object read as
-- admin_update_ads' p_facts (a key given sets the fact, null clears it, an
-- absent key keeps it). Every row is checked again here, each in its own
-- savepoint; when any row is refused nothing is written and the answer lists
-- every refused row: its index in p_rows (from 0), its code and, for a broken
-- rule, the rule's constraint. Answers {"updated": n, "errors": [...]}.
create or replace function public.admin_import_ad_facts(p_rows jsonb)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_row jsonb;
  v_index integer;
  v_id uuid;
  v_seen uuid[] := '{}';
  v_errors jsonb := '[]'::jsonb;
  v_ok boolean;
  v_detail text;
  v_hint text;
  v_updated integer := 0;
begin
  perform private.require_admin();
  if p_rows is null or jsonb_typeof(p_rows) <> 'array' then
    raise exception 'The rows must be a list' using errcode = 'P0001', detail = 'invalid_rows';
  end if;
  if jsonb_array_length(p_rows) = 0 then
    raise exception 'No rows to import' using errcode = 'P0001', detail = 'no_rows';
  end if;
  if jsonb_array_length(p_rows) > 1000 then
    raise exception 'Too many rows in one import (1000 at most)' using errcode = 'P0001', detail = 'too_many_rows';
  end if;

  begin
    for v_row, v_index in select e.value, (e.ordinality - 1)::integer from jsonb_array_elements(p_rows) with ordinality e loop
      v_id := null;
      if jsonb_typeof(v_row) <> 'object' or jsonb_typeof(v_row -> 'id') is distinct from 'string'
         or (v_row ->> 'id') !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
        v_errors := v_errors || jsonb_build_object('index', v_index, 'code', 'invalid_id', 'rule', null);
        continue;
      end if;
      v_id := (v_row ->> 'id')::uuid;
      if v_id = any (v_seen) then
        v_errors := v_errors || jsonb_build_object('index', v_index, 'code', 'duplicate_id', 'rule', null);
        continue;
      end if;
      v_seen := v_seen || v_id;
      if jsonb_typeof(v_row -> 'facts') is distinct from 'object'
         or exists (select 1 from jsonb_object_keys(v_row) k where k not in ('id', 'facts')) then
        v_errors := v_errors || jsonb_build_object('index', v_index, 'code', 'invalid_facts', 'rule', null);
        continue;
      end if;
      begin
        select u.ok into v_ok from public.admin_update_ads(p_ids => array[v_id], p_facts => v_row -> 'facts') u;
        if not v_ok then
          v_errors := v_errors || jsonb_build_object('index', v_index, 'code', 'not_found', 'rule', null);
        else
          v_updated := v_updated + 1;
        end if;
      exception when others then
        get stacked diagnostics v_detail = pg_exception_detail, v_hint = pg_exception_hint;
        v_errors := v_errors || jsonb_build_object('index', v_index, 'code', coalesce(nullif(v_detail, ''), 'invalid_facts'),
                                                   'rule', nullif(v_hint, ''));
      end;
    end loop;
    if jsonb_array_length(v_errors) > 0 then
      -- Undo every row written above; the handler keeps the answer.
      raise exception 'The import was refused' using errcode = 'PX422';
    end if;
  exception when sqlstate 'PX422' then
    v_updated := 0;
  end;
  return jsonb_build_object('updated', v_updated, 'errors', v_errors);
end;
$$;
revoke execute on function public.admin_import_ad_facts(jsonb) from public, anon, authenticated, service_role;
grant execute on function public.admin_import_ad_facts(jsonb) to authenticated;
