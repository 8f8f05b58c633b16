-- What every page after the first does besides its query: its cursor checked (private.read_cursor signs the payload
-- again and compares), the next cursor signed, and the image link key read, a different payload on every call, each
-- call a transaction of its own. Run by bench/sql-instructions.sh; any migrated database will do.
-- each call
select length(private.read_cursor(private.sign_cursor(jsonb_build_object('q', 'key', 'i', :i, 'k', '2026-11-28T08:00:00.000000Z')), 'key')::text),
       length(private.sign_cursor(jsonb_build_object('q', 'key', 'i', :i + 1, 'k', '2026-11-28T08:00:00.000000Z'))),
       length(private.image_link_key());
