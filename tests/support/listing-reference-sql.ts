/**
 * list_ads' answer written as a definition, shared by tests/sql/listing-reference.test.ts (a small random library, in
 * npm test) and bench/reference.ts (bench:db's library, where the planner takes the index paths).
 */

/**
 * The answer, as a definition: the ads of the query ($1, a p_query object) in its order, each with whether the
 * caller (the claims of the transaction) sees it clear.
 */
export const referenceSql = String.raw`
with q as (
  select $1::jsonb as q,
         (now() at time zone 'UTC')::date as today,
         case when btrim($1::jsonb ->> 'search') <> '' then private.search_fold(btrim($1::jsonb ->> 'search')) end as f
), v as (
  select q.q, q.today, q.f,
         -- The search's words in order, quoted, the last one as a beginning.
         (select string_agg(quote_literal(w.word) || case when w.n = w.total then ':*' else '' end, ' & ' order by w.n)
            from (select s.word, row_number() over (order by s.n) as n, count(*) over () as total
                    from regexp_split_to_table(q.f, '[[:space:][:punct:]]+') with ordinality s (word, n)
                   where s.word <> '') w)::tsquery as t,
         -- The search anywhere in the text.
         '%' || replace(replace(replace(q.f, '\', '\\'), '%', '\%'), '_', '\_') || '%' as p,
         case when coalesce(q.q ->> 'sort', 'newest') = 'relevance' and q.f is null then 'newest'
              else coalesce(q.q ->> 'sort', 'newest') end as sort,
         -- Each list of ids without its nulls: an ad matches any of them, an empty list matches every ad.
         array(select g.id::uuid from jsonb_array_elements_text(case jsonb_typeof(q.q -> 'brand_ids') when 'array' then q.q -> 'brand_ids' end) g (id)
                where g.id is not null) as brands,
         array(select g.id::uuid from jsonb_array_elements_text(case jsonb_typeof(q.q -> 'category_ids') when 'array' then q.q -> 'category_ids' end) g (id)
                where g.id is not null) as categories,
         array(select g.id::uuid from jsonb_array_elements_text(case jsonb_typeof(q.q -> 'type_ids') when 'array' then q.q -> 'type_ids' end) g (id)
                where g.id is not null) as types,
         array(select g.id::uuid from jsonb_array_elements_text(case jsonb_typeof(q.q -> 'hook_ids') when 'array' then q.q -> 'hook_ids' end) g (id)
                where g.id is not null) as hooks
    from q
)
select a.id, private.ad_is_clear_for(a, auth.uid() is not null, public.has_valid_access()) as clear
  from public.ads a
 cross join v
 cross join lateral (
   select case when a.first_seen is null then null
               when a.still_running then greatest(v.today, coalesce(a.last_seen, a.first_seen)) - a.first_seen + 1
               when a.last_seen is null then null
               else a.last_seen - a.first_seen + 1 end as running_days,
          case when a.still_running then greatest(v.today, a.last_seen)
               else coalesce(a.last_seen, '-infinity'::date) end as seen,
          v.t is not null and a.search_vector @@ v.t as word_match) k
 where case coalesce(v.q ->> 'board', 'library')
         when 'library' then not a.is_black_friday
         when 'black-friday' then a.is_black_friday
         when 'top-picks' then a.is_top_picks end
   and (cardinality(v.brands) = 0 or a.brand_id = any (v.brands))
   and (cardinality(v.categories) = 0 or a.category_id = any (v.categories))
   and (cardinality(v.types) = 0 or a.type_id = any (v.types))
   and (cardinality(v.hooks) = 0 or a.hook_id = any (v.hooks))
   and (v.q ->> 'language' is null or a.language = v.q ->> 'language')
   and (v.q ->> 'country' is null or a.country = v.q ->> 'country')
   and (jsonb_typeof(v.q -> 'tag_ids') is distinct from 'array'
        or not exists (select 1 from jsonb_array_elements_text(v.q -> 'tag_ids') g (tag_id)
                        where not exists (select 1 from public.ad_tags t where t.ad_id = a.id and t.tag_id = g.tag_id::uuid)))
   and (v.q ->> 'since' is null or a.created_at >= (v.q ->> 'since')::timestamptz)
   and (jsonb_typeof(v.q -> 'platforms') is distinct from 'array'
        or a.platforms && array(select jsonb_array_elements_text(v.q -> 'platforms')))
   and (v.q ->> 'format' is null or a.format = v.q ->> 'format')
   and (v.q ->> 'offer' is null or a.offer = v.q ->> 'offer')
   and (v.q ->> 'colour' is null or a.colour_swatches @> array[v.q ->> 'colour'])
   and (v.q ->> 'min_running_days' is null or k.running_days >= (v.q ->> 'min_running_days')::int)
   and (not coalesce((v.q ->> 'still_running')::boolean, false) or a.still_running)
   and (v.f is null or k.word_match or a.search_text like v.p)
 order by case when v.sort = 'relevance' then case when k.word_match then 1 else 2 end end,
          case when v.sort = 'longest_running' then coalesce(k.running_days, 0) end desc,
          case when v.sort = 'recently_seen' then k.seen end desc,
          case when v.sort in ('newest', 'relevance') then a.created_at end desc,
          case when v.sort in ('newest', 'relevance') then a.id end desc,
          a.id`;
