-- public.list_ads for a word in one image in 200, as an anonymous visitor: newest first and by relevance, each call a
-- transaction of its own. Run by bench/sql-instructions.sh on a database bench:db seeded and kept (its ads print
-- 'snowfall' in one image in 200).
select set_config('role', 'anon', false);
-- each call
select length(public.list_ads('{"search": "snowfall"}')::text) + length(public.list_ads('{"search": "snowfall", "sort": "relevance"}')::text);
