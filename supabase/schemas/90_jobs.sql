-- Jobs: each day the running ads' keys of the dated orders are counted to the new day and the Tag Ads run tags the
-- day before; scheduled with pg_cron where the database has it (hosted Supabase); elsewhere the local stack runs the
-- same functions from its own timer.

-- Function bodies may name tables of later files: they are checked when called, not when created.
set check_function_bodies = false;

-- The daily job: yesterday's uploads (UTC) get the Black Friday tag where they lack it.
create or replace function private.tag_yesterdays_ads() returns integer
language sql
volatile
security definer
set search_path = ''
as $$
  select private.tag_ads_of_day((now() at time zone 'UTC')::date - 1)
$$;
revoke all on function private.tag_yesterdays_ads() from public;

-- Schedules the daily jobs with pg_cron when it can, and says what it did.
create or replace function private.schedule_daily_tagging() returns text
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  if not exists (select 1 from pg_catalog.pg_available_extensions where name = 'pg_cron') then
    return 'pg_cron is not available';
  end if;
  begin
    create extension if not exists pg_cron with schema pg_catalog;
  exception when others then
    -- Installed but not preloaded (shared_preload_libraries), or not permitted.
    return 'pg_cron could not be enabled: ' || sqlerrm;
  end;
  -- By name, so running this again replaces the job instead of adding a second one.
  execute 'select cron.schedule($1, $2, $3)'
    using 'obyect-count-running-days', '0 0 * * *', 'select private.count_running_days()';
  execute 'select cron.schedule($1, $2, $3)'
    using 'obyect-tag-yesterdays-ads', '5 0 * * *', 'select private.tag_yesterdays_ads()';
  return 'scheduled';
end;
$$;
revoke all on function private.schedule_daily_tagging() from public;

select private.schedule_daily_tagging();
