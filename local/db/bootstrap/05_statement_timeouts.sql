-- Hosted Supabase's statement timeouts for the API roles, so `select rolconfig from pg_roles` reads the same here.
-- They apply only to sessions that log in as these roles: the local stack switches role with `set local role`,
-- which does not read them, so it also sets statement_timeout in each request's transaction (local/db/caller-scope.ts),
-- from STATEMENT_TIMEOUT_*_MS (local/config.ts). service_role has none. Roles are cluster-wide, like these settings.
alter role anon set statement_timeout = '3s';
alter role authenticated set statement_timeout = '8s';
