-- The expression index ads_added_lag_order (20261130000600) calls private.ad_added_lag on every insert into ads and
-- every change of an ad's created_at or first_seen, as the role that writes the row: the admin through the API
-- (authenticated). Without the right to execute it, every upload and every facts edit of the admin was refused
-- ("permission denied for function ad_added_lag"). The function is a pure expression of the row's two dates; it is
-- the one thing in schema private that authenticated may run (the schema itself stays closed to it, so the API
-- cannot name it), and tests/sql/schema-rules.test.ts allows exactly that.
grant execute on function private.ad_added_lag(timestamptz, date) to authenticated, service_role;
