-- A block of the longest-running order reads only the keys it is asked for.
--
-- private.search_running_blocks read the keys from v_key to v_last with the one word of v_key's block at the level
-- it had come to: the 512-day block, say, even when v_last (the stream's end, or the other stream's 61st ad) cut the
-- range far inside it. The search index then gave every match of the whole block, each fetched from the table to be
-- dropped by its key. In bench:db at 1,000,000 ads, 'snowfall' on TikTok in the longest-running order read the ended
-- ads that ran 371 to 483 days (the longest ended runs, above the running stream's 61st ad) with the word of the ended
-- block of 1 to 512 days, which holds nearly every ended ad: 927 matches fetched, none kept, 7.0 ms of the call's 12.
--
-- Now a block's statement gets the words of the blocks of the widest level, its own or narrower, that hold the keys
-- from v_key to v_last and at most twice as many (private.search_running_cover): for those 113 keys, three 64-day
-- blocks (192 keys), and the search index gives only their matches. A block that is not cut by more than half is
-- still its one word: the exact cover of every range by blocks of all levels cost more than it saved where the cut
-- part held no ad (the running stream from its first ad, 16 words, 1.3 -> 3.6 ms). See docs/decisions/0060.

-- The words of the blocks of a stream ('~s' or '~e', as private.search_running_words writes them) that hold the keys
-- p_from to p_to (none when p_from > p_to), as one query: the blocks of the widest level, p_level (0, 3, 6 or 9) or
-- narrower, whose blocks together hold at most twice as many keys as asked (a one-day block holds one). Each word
-- costs the search index a lookup, and a wider block's matches outside the range are fetched from the table only to
-- be dropped: the range's own blocks of the next level down would hold fewer than half of them. For keys within one
-- block of p_level, as its caller asks, that is at most 13 words.
create function private.search_running_cover(p_stream text, p_from int, p_to int, p_level int) returns tsquery
language plpgsql immutable parallel safe
set search_path = ''
as $$
declare
  v_level int := p_level;
begin
  if p_stream not in ('~s', '~e') or p_level not in (0, 3, 6, 9) then
    raise exception 'Unknown block stream % or level %', p_stream, p_level using errcode = '22023';
  end if;
  if p_from > p_to then
    return null;
  end if;
  -- The keys the blocks of v_level hold from p_from's to p_to's: ((p_to >> v_level) - (p_from >> v_level) + 1) << v_level.
  while v_level > 0 and ((p_to >> v_level) - (p_from >> v_level) + 1)::bigint << v_level > 2 * (p_to::bigint - p_from + 1) loop
    v_level := v_level - 3;
  end loop;
  return (select string_agg(pg_catalog.quote_literal(p_stream || v_level || '_' || b), ' | ' order by b)
            from generate_series(p_from >> v_level, p_to >> v_level) b)::tsquery;
end;
$$;
revoke execute on function private.search_running_cover(text, int, int, int) from public;

-- As 20261206000100's, but a block's word is the cover of the keys it reads.
create or replace function private.search_running_blocks(
  p_statement text,
  p_rest text,
  p_stream text,
  p_first int,
  p_after_id uuid,
  p_last int,
  p_need int,
  p_brand_id uuid, p_category_id uuid, p_type_id uuid, p_tags uuid[], p_since timestamptz,
  p_platforms text[], p_format text, p_offer text, p_hook_id uuid, p_min_running_days int, p_today date,
  p_tsquery tsquery, p_phrase text,
  out ids uuid[], out keys int[]
)
language plpgsql
set search_path = ''
as $$
declare
  c_cap constant int := 300;
  c_nil constant uuid := '00000000-0000-0000-0000-000000000000';
  v_key int := p_first;
  v_id uuid := coalesce(p_after_id, c_nil);
  v_level int := 9;
  -- Per level (0, 3, 6, 9 at 1..4; 12, the rest of the stream, at 5), the last key of a block of that level that
  -- held too many: not read again at that level until passed.
  v_crowded int[] := array[null, null, null, null, null]::int[];
  v_last int;
  v_count int;
  v_ids uuid[];
  v_keys int[];
  v_indexscan text := current_setting('enable_indexscan');
  v_indexonlyscan text := current_setting('enable_indexonlyscan');
  v_seqscan text := current_setting('enable_seqscan');
begin
  ids := '{}';
  keys := '{}';
  -- A block's matches are found in the search index and fetched alone: never by walking an ordered index.
  perform set_config('enable_indexscan', 'off', true), set_config('enable_indexonlyscan', 'off', true),
          set_config('enable_seqscan', 'off', true);
  while cardinality(ids) < p_need and v_key <= p_last loop
    while v_level > 0 and v_crowded[v_level / 3 + 1] >= v_key loop
      v_level := v_level - 3;
    end loop;
    v_last := case when v_level = 12 then p_last
                   else least(((v_key >> v_level) << v_level) + (1 << v_level) - 1, p_last) end;
    execute case when v_level = 12 then p_rest else p_statement end into v_count, v_ids, v_keys
      using p_brand_id, p_category_id, p_type_id, p_tags, p_since, null::timestamptz, null::uuid,
            null, null, null, null, p_platforms, p_format, p_offer, p_hook_id, p_min_running_days, p_today, p_tsquery,
            p_phrase, case when v_level < 12 then private.search_running_cover(p_stream, v_key, v_last, v_level) end,
            v_key, v_last, v_id, case when v_level > 0 then c_cap + 1 end;
    if v_count > c_cap and v_level > 0 then
      v_crowded[v_level / 3 + 1] := v_last;
      v_level := v_level - 3;
      continue;
    end if;
    ids := ids || v_ids[1:p_need - cardinality(ids)];
    keys := keys || v_keys[1:p_need - cardinality(keys)];
    v_key := v_last + 1;
    v_id := c_nil;
    if v_count * 8 <= c_cap and v_level < 12 then
      v_level := v_level + 3;
    elsif v_count * 2 > c_cap and v_level > 0 then
      v_level := v_level - 3;
    end if;
  end loop;
  perform set_config('enable_indexscan', v_indexscan, true), set_config('enable_indexonlyscan', v_indexonlyscan, true),
          set_config('enable_seqscan', v_seqscan, true);
end;
$$;

-- No caller is left.
drop function private.search_running_query(text, int, int);
