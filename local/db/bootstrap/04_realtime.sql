-- Realtime for non-hosted engines. Hosted Supabase streams the tables of the
-- supabase_realtime publication from the write-ahead log; the local stack puts
-- a trigger on each of those tables that NOTIFYs the change's table, kind and
-- primary key, and reads the row again as each subscriber (so RLS decides).
do $$
begin
  if not exists (select 1 from pg_publication where pubname = 'supabase_realtime') then
    create publication supabase_realtime;
  end if;
end
$$;

create schema if not exists realtime_local;
revoke all on schema realtime_local from public;

-- Trigger arguments: the table's primary key columns.
create or replace function realtime_local.capture_change() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_row jsonb := to_jsonb(case when tg_op = 'DELETE' then old else new end);
  v_old jsonb := case when tg_op = 'INSERT' then null else to_jsonb(old) end;
  v_pk jsonb := '{}'::jsonb;
  v_old_pk jsonb := null;
  v_column text;
begin
  foreach v_column in array tg_argv loop
    v_pk := v_pk || jsonb_build_object(v_column, v_row -> v_column);
    if v_old is not null then
      v_old_pk := coalesce(v_old_pk, '{}'::jsonb) || jsonb_build_object(v_column, v_old -> v_column);
    end if;
  end loop;
  perform pg_notify('obyect_realtime', jsonb_build_object(
    'schema', tg_table_schema,
    -- A deleted row is gone: its old image lets the server check who could have seen it.
    'old', case when tg_op = 'DELETE' and octet_length(v_old::text) < 6000 then v_old end,
    'table', tg_table_name,
    'type', tg_op,
    'pk', v_pk,
    'old_pk', v_old_pk,
    'commit_timestamp', to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'))::text);
  return null;
end;
$$;

-- Puts the capture trigger on every table of the publication that lacks it.
create or replace function realtime_local.sync_capture_triggers() returns integer
language plpgsql
set search_path = ''
as $$
declare
  v_table record;
  v_pk text[];
  v_count integer := 0;
begin
  for v_table in
    select p.schemaname, p.tablename, c.oid
      from pg_publication_tables p
      join pg_class c on c.relname = p.tablename
      join pg_namespace n on n.oid = c.relnamespace and n.nspname = p.schemaname
     where p.pubname = 'supabase_realtime'
  loop
    if exists (select 1 from pg_trigger where tgrelid = v_table.oid and tgname = 'realtime_local_capture') then
      continue;
    end if;
    select array_agg(a.attname::text order by k.ordinality) into v_pk
      from pg_index i
      cross join lateral unnest(i.indkey) with ordinality as k (attnum, ordinality)
      join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
     where i.indrelid = v_table.oid and i.indisprimary;
    if v_pk is null then
      continue;
    end if;
    execute format(
      'create trigger realtime_local_capture after insert or update or delete on %I.%I for each row execute function realtime_local.capture_change(%s)',
      v_table.schemaname, v_table.tablename, (select string_agg(quote_literal(x), ', ') from unnest(v_pk) x));
    v_count := v_count + 1;
  end loop;
  return v_count;
end;
$$;
