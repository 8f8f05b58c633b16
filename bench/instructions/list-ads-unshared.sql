-- public.list_ads as the bench's subscriber, the library since a different minute on every call, each call a
-- transaction of its own: bench:stack's unshared page, which no shared answer serves. Run by bench/sql-instructions.sh.
select set_config('request.jwt.claims', json_build_object('sub', u.id, 'role', 'authenticated', 'aud', 'authenticated',
                                                          'email', u.email)::text, false),
       set_config('role', 'authenticated', false)
  from auth.users u where u.email = 'bench-subscriber@example.test';
-- each call
select length(public.list_ads(jsonb_build_object('since', timestamptz '2026-01-01' + make_interval(mins => :i * 7919)))::text);
