-- An ad's colours and platforms are read through one GIN index, which intersects a colour with a platform itself.
--
-- Each had its own GIN index (ads_colour_swatches, 20261201000100; ads_platforms, 20261210000100). A rare colour on a
-- rare platform was read by both and the two bitmaps were intersected: at 1,000,000 ads purple (17,378 ads) and
-- Snapchat (36,811) took 2.2 and 4.2 ms to put every one of their ads in a bitmap, for the 675 they share, in each
-- stream of a dated order. A GIN index of both columns answers both conditions in one scan: it walks the two posting
-- lists together and keeps only the ads in both, 1.1 ms for the same 675. A condition on one column reads the index
-- as the single-column index did. See docs/decisions/0052.
drop index public.ads_colour_swatches;
drop index public.ads_platforms;

create index ads_colours_platforms on public.ads using gin (colour_swatches, platforms);
