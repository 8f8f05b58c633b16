-- Hosted Supabase refuses an UPDATE without a WHERE clause in every API request (pg-safeupdate), inside triggers
-- too: the ad counters and the free sample's counts name their one row (where singleton), so an admin's insert or
-- delete of ads runs there. The same definitions as supabase/schemas/40_ads.sql.

create or replace function private.ads_count_inserted() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update private.ad_counts set total = total + (select count(*) from inserted) where singleton;
  return null;
end;
$$;

create or replace function private.ads_count_deleted() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update private.ad_counts set total = total - (select count(*) from deleted) where singleton;
  return null;
end;
$$;

create or replace function private.ads_count_truncated() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update private.ad_counts set total = 0 where singleton;
  return null;
end;
$$;

create or replace function private.free_sample_trim() returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_premium bigint;
  v_members bigint;
  v_left bigint;
begin
  select premium, members into v_premium, v_members from private.free_sample_counts for update;
  if v_members <= ceil(v_premium / 10.0) then
    return;
  end if;
  update public.ads a set free_sample = false
   where a.id in (select m.id from public.ads m where m.free_sample
                   order by m.free_sample_since desc, m.id desc limit (v_members - ceil(v_premium / 10.0))::bigint);
  get diagnostics v_left = row_count;
  update private.free_sample_counts set members = members - v_left where singleton;
end;
$$;
revoke all on function private.free_sample_trim() from public;

create or replace function private.free_sample_fill(p_published uuid[]) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_premium bigint;
  v_members bigint;
  v_need bigint;
  v_before bigint;
  v_joined bigint;
begin
  select premium, members into v_premium, v_members from private.free_sample_counts for update;
  v_need := ceil(v_premium / 10.0)::bigint - v_members;
  if v_need <= 0 then
    return;
  end if;
  update public.ads a set free_sample = true
   where a.id in (select w.id from public.ads w
                   where not w.free_sample and w.free_sample_since is not null and w.requires_subscription
                   order by w.free_sample_since, w.id limit v_need);
  get diagnostics v_joined = row_count;
  v_need := v_need - v_joined;
  if v_need > 0 and cardinality(p_published) > 0 then
    v_before := v_premium - cardinality(p_published);
    -- A microsecond apart in publish order, so "the latest to join" is well defined within one statement too.
    update public.ads a set free_sample = true, free_sample_since = now() + c.ord * interval '1 microsecond'
      from (select p.id, p.ord from unnest(p_published) with ordinality as p (id, ord)
             order by (v_before + p.ord - 1) % 10 <> 0, p.ord limit v_need) c
     where a.id = c.id;
    get diagnostics v_need = row_count;
    v_joined := v_joined + v_need;
  end if;
  update private.free_sample_counts set members = members + v_joined where singleton;
end;
$$;
revoke all on function private.free_sample_fill(p_published uuid[]) from public;

create or replace function private.ads_free_sample_published() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_published uuid[] := array(select n.id from new_rows n where n.requires_subscription order by n.created_at, n.id);
begin
  if cardinality(v_published) = 0 then
    return null;
  end if;
  update private.free_sample_counts set premium = premium + cardinality(v_published) where singleton;
  perform private.free_sample_fill(v_published);
  return null;
end;
$$;
revoke all on function private.ads_free_sample_published() from public;

create or replace function private.ads_free_sample_deleted() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update private.free_sample_counts
     set premium = premium - (select count(*) from old_rows o where o.requires_subscription),
         members = members - (select count(*) from old_rows o where o.free_sample)
   where singleton;
  perform private.free_sample_trim();
  return null;
end;
$$;
revoke all on function private.ads_free_sample_deleted() from public;

create or replace function private.ads_free_sample_premium_changed() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_member boolean;
begin
  if new.requires_subscription then
    update private.free_sample_counts set premium = premium + 1 where singleton;
    perform private.free_sample_fill(array[new.id]);
  else
    -- The row as it is now, not as the statement found it: an earlier row's trim may have taken it out already.
    select a.free_sample into v_member from public.ads a where a.id = new.id;
    update public.ads set free_sample = false, free_sample_since = null where id = new.id;
    update private.free_sample_counts set premium = premium - 1, members = members - (case when v_member then 1 else 0 end)
     where singleton;
    perform private.free_sample_trim();
  end if;
  return null;
end;
$$;
revoke all on function private.ads_free_sample_premium_changed() from public;

create or replace function private.ads_free_sample_truncated() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update private.free_sample_counts set premium = 0, members = 0 where singleton;
  return null;
end;
$$;
revoke all on function private.ads_free_sample_truncated() from public;

create or replace function private.free_sample_rebuild() returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.ads set free_sample = false, free_sample_since = null where free_sample or free_sample_since is not null;
  update public.ads a set free_sample = true, free_sample_since = a.created_at
    from (select p.id, row_number() over (order by p.created_at, p.id) as n
            from public.ads p where p.requires_subscription) p
   where a.id = p.id and (p.n - 1) % 10 = 0;
  update private.free_sample_counts
     set premium = (select count(*) from public.ads where requires_subscription),
         members = (select count(*) from public.ads where free_sample)
   where singleton;
end;
$$;
revoke all on function private.free_sample_rebuild() from public;
