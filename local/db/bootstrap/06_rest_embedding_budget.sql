-- The local rest/v1's bound on what one read may build (local/rest/read-sql.ts): every row of an embedded resource
-- is counted, with its size, as it is made, and the statement stops as soon as one request passes the budget,
-- before the database has built the answer. Nested embeddings multiply: brands with their ads with their brand with
-- its ads came to 17.6 MB at three levels and made PostgreSQL try to allocate 300 MB at four, while every other
-- caller waited. The counts live in the request's transaction (set_config(..., true)). Local only: hosted Supabase
-- runs PostgREST, not this code.
create schema if not exists rest_local;
grant usage on schema rest_local to anon, authenticated, service_role;

create or replace function rest_local.embedded_row(p_bytes integer, p_max_rows bigint, p_max_bytes bigint) returns boolean
language plpgsql
volatile
set search_path = ''
as $$
declare
  v_rows bigint := coalesce(nullif(current_setting('rest_local.embedded_rows', true), ''), '0')::bigint + 1;
  v_bytes bigint := coalesce(nullif(current_setting('rest_local.embedded_bytes', true), ''), '0')::bigint + coalesce(p_bytes, 0);
begin
  if v_rows > p_max_rows or v_bytes > p_max_bytes then
    raise exception 'The answer would embed more than % rows or % MB', p_max_rows, p_max_bytes / 1048576
      using errcode = '54000',
            detail = 'Embedded resources are bounded per request in rows and bytes, counted as they are read',
            hint = 'Embed fewer levels, or filter or limit the embedded resources (e.g. ads.limit=20)';
  end if;
  perform set_config('rest_local.embedded_rows', v_rows::text, true);
  perform set_config('rest_local.embedded_bytes', v_bytes::text, true);
  return true;
end;
$$;
revoke all on function rest_local.embedded_row(integer, bigint, bigint) from public;
grant execute on function rest_local.embedded_row(integer, bigint, bigint) to anon, authenticated, service_role;
