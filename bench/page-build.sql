-- How long the database takes to put together the answer for the newest 60 ads and for one ad, written out as text
-- as the API sends it, as the database owner (no role switch, no network): the smallest of 15 rounds of 30 calls
-- after 10 warm-up calls. Each function is measured in a new session twice: the list first, then the other way
-- round, since a statement's plan can depend on what a session asked first. Run on a bench database (bench:stack
-- or bench:db with BENCH_KEEP_DATABASE=1):  psql -X -d <database> -f bench/page-build.sql
-- private.ads_json (jsonb) exists at every version since decision 0018; private.ads_json_text since decision 0043.
\set QUIET on
\set ON_ERROR_STOP on
\set measure 'do $$ declare v_newest uuid[] := array(select id from public.ads where not is_black_friday order by created_at desc, id desc limit 60); v_call text := current_setting(''bench.call''); v_count int; v_ids uuid[]; v_started timestamptz; v_best numeric; v_out text; begin if to_regproc(split_part(v_call, ''('', 1)) is null then raise notice ''% does not exist here'', split_part(v_call, ''('', 1); return; end if; foreach v_count in array current_setting(''bench.counts'')::int[] loop v_ids := v_newest[1:v_count]; for i in 1..10 loop execute ''select '' || v_call using v_ids, array_fill(true, array[v_count]) into v_out; end loop; v_best := null; for r in 1..15 loop v_started := clock_timestamp(); for i in 1..30 loop execute ''select '' || v_call using v_ids, array_fill(true, array[v_count]) into v_out; end loop; v_best := least(coalesce(v_best, 1e9), extract(epoch from clock_timestamp() - v_started) * 1000 / 30); end loop; raise notice ''% for % ad(s), asked % first: % ms'', v_call, v_count, current_setting(''bench.first''), round(v_best, 3); end loop; end $$'
\connect
select set_config('bench.call', 'private.ads_json($1, $2)::text', false), set_config('bench.counts', '{60,1}', false), set_config('bench.first', 'the list', false) \gset
:measure;
\connect
select set_config('bench.call', 'private.ads_json($1, $2)::text', false), set_config('bench.counts', '{1,60}', false), set_config('bench.first', 'one ad', false) \gset
:measure;
\connect
select set_config('bench.call', 'private.ads_json_text($1, $2)::text', false), set_config('bench.counts', '{60,1}', false), set_config('bench.first', 'the list', false) \gset
:measure;
\connect
select set_config('bench.call', 'private.ads_json_text($1, $2)::text', false), set_config('bench.counts', '{1,60}', false), set_config('bench.first', 'one ad', false) \gset
:measure;
