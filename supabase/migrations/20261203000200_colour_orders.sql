-- Each swatch of the colour filter has its ads in the library's order, newest first: a partial index per swatch of
-- private.colour_palette. A rare colour with a filter that few of the newest ads pass (running at least 60 days) was
-- read by walking the whole library's order and passing over every ad of other colours (purple, 1.7% of the ads,
-- with running at least 60 days: 56 ms at 1,000,000 ads); it now walks only that colour's ads. list_ads writes the
-- swatch into its statement as a constant (20261201000300), which is what lets the planner use the swatch's index.
-- See docs/decisions/0041.
do $$
declare
  v_name text;
begin
  for v_name in select p.name from private.colour_palette p order by p.name loop
    execute format('create index %I on public.ads (created_at desc, id desc) where colour_swatches @> %L::text[]',
                   'ads_colour_' || v_name || '_order', array[v_name]);
  end loop;
end;
$$;
