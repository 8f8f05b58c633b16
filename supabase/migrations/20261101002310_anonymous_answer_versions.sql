-- Versions of what anonymous visitors are answered, for the local stack's
-- rest/v1 cache of anonymous function calls. A row names a function of the
-- public schema whose answer to an anonymous caller depends only on the rows
-- of the tables listed below; every statement that writes one of those tables
-- bumps the version in the same transaction, so an answer cached under an
-- older version is never served again once the write commits. Nothing reads
-- this on hosted Supabase (PostgREST has no such cache); it costs one row
-- update per writing statement.
create table private.anonymous_answer_versions (
  function_name text primary key,
  version bigint not null default 0
);
alter table private.anonymous_answer_versions enable row level security;
revoke all on table private.anonymous_answer_versions from public, anon, authenticated;

-- list_ads as an anonymous visitor reads ads, their tags, brands, categories,
-- types and tags (search and the cards), and the cursor secret (next_cursor).
insert into private.anonymous_answer_versions (function_name) values ('list_ads');

create or replace function private.bump_anonymous_answer_version() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update private.anonymous_answer_versions set version = version + 1 where function_name = tg_argv[0];
  return null;
end;
$$;
revoke execute on function private.bump_anonymous_answer_version() from public;

create trigger ads_bump_list_ads_version after insert or update or delete or truncate on public.ads
  for each statement execute function private.bump_anonymous_answer_version('list_ads');
create trigger ad_tags_bump_list_ads_version after insert or update or delete or truncate on public.ad_tags
  for each statement execute function private.bump_anonymous_answer_version('list_ads');
create trigger tags_bump_list_ads_version after insert or update or delete or truncate on public.tags
  for each statement execute function private.bump_anonymous_answer_version('list_ads');
create trigger brands_bump_list_ads_version after insert or update or delete or truncate on public.brands
  for each statement execute function private.bump_anonymous_answer_version('list_ads');
create trigger categories_bump_list_ads_version after insert or update or delete or truncate on public.categories
  for each statement execute function private.bump_anonymous_answer_version('list_ads');
create trigger types_bump_list_ads_version after insert or update or delete or truncate on public.types
  for each statement execute function private.bump_anonymous_answer_version('list_ads');
create trigger settings_bump_list_ads_version after insert or update or delete or truncate on private.settings
  for each statement execute function private.bump_anonymous_answer_version('list_ads');
