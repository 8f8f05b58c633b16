-- private.ads_json_text for the newest 60 ads of the library, all clear, each call a transaction of its own: the page
-- a subscriber is sent, without choosing its ads. Run by bench/sql-instructions.sh.
-- each call
select length(private.ads_json_text(array(select id from public.ads where not is_black_friday order by created_at desc, id desc limit 60),
                                    array_fill(true, array[60]))::text);
