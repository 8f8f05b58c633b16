-- An import of 1000 valid rows written one ad at a time (a statement and a
-- savepoint each) took seconds; as one statement it takes a fraction of that.
-- admin_import_ad_facts now writes every row in one update when every row is
-- well formed, names existing ads once each, and passes the table's checks.
-- Only when that fails does it go through the rows one by one, to name each
-- refused row, and then writes nothing (docs/decisions/0033).
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
  v_ids uuid[];
  v_text_facts constant text[] := array['placement', 'format', 'landing_url', 'primary_text', 'headline', 'call_to_action',
                                        'offer', 'language', 'country'];
  v_known constant text[] := array['platforms', 'placement', 'format', 'first_seen', 'last_seen', 'still_running', 'landing_url',
                                   'primary_text', 'headline', 'call_to_action', 'offer', 'hook_id', 'language', 'country'];
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

  -- Every row well formed, each naming a distinct existing ad: one update for all.
  if not exists (
       select 1 from jsonb_array_elements(p_rows) e
        where not (
          jsonb_typeof(e) = 'object'
          and jsonb_typeof(e -> 'id') = 'string'
          and (e ->> 'id') ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
          and jsonb_typeof(e -> 'facts') = 'object'
          and not exists (select 1 from jsonb_object_keys(e) k where k not in ('id', 'facts'))
          and not exists (
            select 1 from jsonb_each(e -> 'facts') kv
             where kv.key <> all (v_known)
                or (kv.key = any (v_text_facts) and jsonb_typeof(kv.value) not in ('string', 'null'))
                or (kv.key = 'platforms' and jsonb_typeof(kv.value) <> 'null'
                    and (jsonb_typeof(kv.value) <> 'array'
                         or exists (select 1 from jsonb_array_elements(kv.value) x where jsonb_typeof(x) <> 'string')))
                or (kv.key = 'still_running' and jsonb_typeof(kv.value) <> 'boolean')
                or (kv.key in ('first_seen', 'last_seen') and jsonb_typeof(kv.value) <> 'null'
                    and (jsonb_typeof(kv.value) <> 'string' or (kv.value #>> '{}') !~ '^\d{4}-\d{2}-\d{2}$'))
                or (kv.key = 'hook_id' and jsonb_typeof(kv.value) <> 'null'
                    and (jsonb_typeof(kv.value) <> 'string'
                         or (kv.value #>> '{}') !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'))
          )
        )
     ) then
    v_ids := array(select (e ->> 'id')::uuid from jsonb_array_elements(p_rows) e);
    if cardinality(v_ids) = (select count(distinct x) from unnest(v_ids) x)
       and cardinality(v_ids) = (select count(*) from public.ads a where a.id = any (v_ids)) then
      begin
        -- Lock the ads in id order, as admin_update_ads does, so edits never deadlock.
        perform 1 from public.ads a where a.id = any (v_ids) order by a.id for update;
        update public.ads a
           set platforms = case when r.f ? 'platforms' then
                             case when jsonb_typeof(r.f -> 'platforms') = 'null' then null
                                  else array(select jsonb_array_elements_text(r.f -> 'platforms')) end
                           else a.platforms end,
               placement = case when r.f ? 'placement' then r.f ->> 'placement' else a.placement end,
               format = case when r.f ? 'format' then r.f ->> 'format' else a.format end,
               first_seen = case when r.f ? 'first_seen' then (r.f ->> 'first_seen')::date else a.first_seen end,
               last_seen = case when r.f ? 'last_seen' then (r.f ->> 'last_seen')::date else a.last_seen end,
               still_running = case when r.f ? 'still_running' then (r.f ->> 'still_running')::boolean else a.still_running end,
               landing_url = case when r.f ? 'landing_url' then r.f ->> 'landing_url' else a.landing_url end,
               primary_text = case when r.f ? 'primary_text' then r.f ->> 'primary_text' else a.primary_text end,
               headline = case when r.f ? 'headline' then r.f ->> 'headline' else a.headline end,
               call_to_action = case when r.f ? 'call_to_action' then r.f ->> 'call_to_action' else a.call_to_action end,
               offer = case when r.f ? 'offer' then r.f ->> 'offer' else a.offer end,
               hook_id = case when r.f ? 'hook_id' then (r.f ->> 'hook_id')::uuid else a.hook_id end,
               language = case when r.f ? 'language' then r.f ->> 'language' else a.language end,
               country = case when r.f ? 'country' then r.f ->> 'country' else a.country end
          from (select (e ->> 'id')::uuid as id, e -> 'facts' as f from jsonb_array_elements(p_rows) e) r
         where a.id = r.id and r.f <> '{}'::jsonb;
        return jsonb_build_object('updated', cardinality(v_ids), 'errors', '[]'::jsonb);
      exception when others then
        -- A row broke a rule (a check, a date that does not exist, a deleted hook): find which, row by row.
        null;
      end;
    end if;
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
