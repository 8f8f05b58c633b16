-- The near-duplicate lookup runs without JIT compilation.
--
-- private.ads_near_hash reads the four hash quarter indexes for its 68 probe values, bound as arrays. The planner
-- cannot tell how few ads they find: at 1,000,000 ads it expected 340,000 and costed the statement at 642,627,
-- above jit_above_cost (100,000), so PostgreSQL compiled it with LLVM before running it: 224 ms of JIT for a read of
-- about 1,000 rows that took 10 ms. An upload's duplicate check (admin_near_duplicates) ran it once, 200 ms p50 in
-- bench:db, and storing a fingerprint (admin_set_fingerprints) twice, through its triggers, 405 to 446 ms. With JIT
-- off they took 5.7 and 12.8 ms. See docs/decisions/0051.
alter function private.ads_near_hash(bigint, extensions.cube) set jit = off;
