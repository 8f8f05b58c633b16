-- A search's lexicon words are looked up once a call, each from a kept plan.
--
-- private.search_signature_match and private.search_signature_masks read the lexicon's words holding each run of
-- letters of a search through a subquery the planner flattened: private.search_words_containing then ran once for
-- each place its result was named (the condition, the order and the list), three to four times a run. And, written
-- in SQL with its own search_path, it was planned again on every call. A search with the running days called it 8
-- times a list_ads call, 0.12 ms each, about 1 ms of a call of 6 to 9 ms at 1,000,000 ads.
--
-- - The subqueries are fenced (offset 0): the words are read once a run.
-- - The condition names each word's bits as a constant, not as a call of private.search_word_bits that every
--   statement holding the condition made again as it was planned (12 calls a list_ads call for 'lumen' in the
--   recently-seen order).
-- - private.search_words_containing is PL/pgSQL, whose statement's plan is kept for the session. Its answer is the
--   same.
--
-- See docs/decisions/0059.

-- The words of the lexicon that hold p_part anywhere, at most p_limit of them; null when there are more.
create or replace function private.search_words_containing(p_part text, p_limit int) returns text[]
language plpgsql stable parallel safe
set search_path = ''
as $$
begin
  return (select case when count(*) <= p_limit then coalesce(array_agg(x.word order by x.word), '{}') end
            from (select l.word from private.search_lexicon l
                   where l.word like '%' || replace(replace(replace(p_part, '\', '\\'), '%', '\%'), '_', '\_') || '%'
                   limit p_limit + 1) x);
end;
$$;

-- The condition on an ad's signature (alias a) that every ad matching a folded search meets, or null. Each run of
-- three or more ASCII letters of the search lies in one word of a matching ad, whether the ad matched by words or by
-- the text anywhere (decision 0048: the parser never splits a run of letters), so the ad's signature holds the bits
-- of one of the lexicon's words holding that run. A run held by more than p_words words adds no condition.
create or replace function private.search_signature_match(p_folded text, p_words int) returns text
language sql stable parallel safe
set search_path = ''
as $$
  select string_agg('(' || array_to_string(array(
           select format('(a.search_signature & %1$s::bit(256)) = %1$s::bit(256)', quote_literal(private.search_word_bits(w)::text))
             from unnest(c.words) w), ' or ') || ')', ' and ')
    from (select private.search_words_containing(m.run[1], 64) as words
            from regexp_matches(p_folded, '[a-z]{3,}', 'g') m (run) offset 0) c
   where cardinality(c.words) between 1 and p_words
$$;

-- The masks of the one group of a search's signature bits (private.search_signature_match) with the fewest words:
-- an ad that matches the search holds both bits of one of them. Null when no group has 1 to p_words words.
create or replace function private.search_signature_masks(p_folded text, p_words int) returns bit(256)[]
language sql stable parallel safe
set search_path = ''
as $$
  select array(select private.search_word_bits(w) from unnest(c.words) w)
    from (select private.search_words_containing(m.run[1], 64) as words
            from regexp_matches(p_folded, '[a-z]{3,}', 'g') m (run) offset 0) c
   where cardinality(c.words) between 1 and p_words
   order by cardinality(c.words)
   limit 1
$$;
