-- private.ads_json_text for the newest 60 ads of the library, all clear: the page a subscriber is sent, without
-- choosing its ads. Run by bench/sql-instructions.sh, which sets :N.
do $$
declare
  v_ids uuid[] := array(select id from public.ads where not is_black_friday order by created_at desc, id desc limit 60);
  v_text text;
begin
  for i in 1 .. :N loop
    v_text := private.ads_json_text(v_ids, array_fill(true, array[60]))::text;
  end loop;
end $$;

