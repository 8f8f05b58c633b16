import { createHash } from 'node:crypto';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Database } from '../local/db/database.ts';
import { migrate } from '../local/db/migrate.ts';
import { openPglite } from '../local/db/pglite.ts';
import { seedDemo } from '../local/seed/seed-demo.ts';
import { createStorageApi } from '../local/storage/storage-api.ts';
import { as, userActor } from '../tests/support/acting.ts';
import { newUser } from '../tests/support/factories.ts';
import { KEPT_ROOT, keptFolder } from '../tests/support/kept-folder.ts';
import { newLocalConfig } from '../tests/support/local-config.ts';
import { migratedPglite } from '../tests/support/migrated-pglite.ts';
import { machineDescription, writeResults, type Figure } from './results.ts';

/**
 * `npm run bench:similar`: what "More like this" (public.similar_ads,
 * docs/decisions/0038 and 0075) shows on the demo library, judged as a
 * marketer would. The library `npm start` seeds (local/seed, 640 ads, dated
 * from a fixed moment) is seeded once into PGlite and kept in .tmp for each
 * version of the seeder; every run migrates that copy forward to the current
 * migrations, so a new similar_ads is measured on the same ads. For every ad, as
 * a signed-in free user (who is shown the Black Friday board's), it asks for the
 * similar ads and prints, per board: the mean share of them in the ad's own
 * category, the share of ads with at least 8 of their 12 in it, the most the
 * board allows, the same-type, same-hook and same-format shares, how far the
 * look decides among the same-category ones (the share of them that are among
 * as many of the category's ads nearest in look), the look of all of them
 * beside the board's best, and per category; then the haircare videos' lists,
 * and the time of a call. BENCH_SIMILAR_RESEED=1 seeds again;
 * BENCH_SIMILAR_SNAPSHOT=<file> measures a kept library (each run prints its
 * file; copy it out of .tmp to keep it past a change of the seeder), and
 * BENCH_SIMILAR_MIGRATE=0 measures it with the migrations it was seeded with,
 * not the ones written since: the old similar_ads and the new on the same ads.
 */
const NOW = new Date('2026-11-22T09:00:00Z');
const root = path.resolve(import.meta.dirname, '..');
const log = (line = '') => process.stdout.write(`${line}\n`);

/** Everything the seeded library is made from: the engine, the seeder, the fingerprint, the bootstrap. */
async function seedChecksum(): Promise<string> {
  const hash = createHash('sha256');
  const { version } = JSON.parse(await readFile(path.join(root, 'node_modules/@electric-sql/pglite/package.json'), 'utf8')) as { version: string };
  hash.update(`pglite ${version}\n`);
  for (const folder of ['local/seed', 'local/media', 'src/lib/media', 'local/db/bootstrap']) {
    const names = (await readdir(path.join(root, folder), { withFileTypes: true })).filter((entry) => entry.isFile()).map((entry) => entry.name).sort();
    for (const name of names) {
      hash.update(`${folder}/${name}\n`);
      hash.update(await readFile(path.join(root, folder, name)));
    }
  }
  return hash.digest('hex').slice(0, 16);
}

const PREFIX = 'similar-demo-';

/**
 * A PGlite snapshot of the migrated database with the demo library seeded into it (files stored in a throwaway
 * folder), kept in .tmp for this version of the seeder; older versions are removed.
 */
async function seededSnapshot(): Promise<string> {
  const name = `${PREFIX}${await seedChecksum()}`;
  if (process.env.BENCH_SIMILAR_RESEED === '1') await rm(path.join(KEPT_ROOT, name), { recursive: true, force: true });
  const folder = await keptFolder(name, async (partial) => {
    const started = performance.now();
    log('Seeding the demo library (640 ads, 1 to 3 minutes on 2 cores) ...');
    const db = await openPglite({ loadDataDir: new Blob([await readFile((await migratedPglite()).snapshot)]) });
    const config = await newLocalConfig();
    try {
      const storage = await createStorageApi({ db, config });
      const summary = await seedDemo({ db, writeObject: storage.writeObject, now: NOW });
      log(`Seeded ${summary.ads} ads in ${((performance.now() - started) / 1000).toFixed(0)} s`);
      await writeFile(path.join(partial, 'snapshot.tar'), Buffer.from(await (await db.pglite.dumpDataDir('none')).arrayBuffer()));
    } finally {
      await db.close();
      await config.cleanup();
    }
  });
  for (const entry of await readdir(KEPT_ROOT)) {
    if (entry.startsWith(PREFIX) && entry !== name && !entry.includes('.')) await rm(path.join(KEPT_ROOT, entry), { recursive: true, force: true });
  }
  return path.join(folder, 'snapshot.tar');
}

/** The look part of decision 0038's likeness, 0 to 1: the histograms' distance and the hashes' differing bits. */
const LOOK = (a: string, b: string) => `coalesce(0.6 * (1 - least(1, extensions.cube_distance(${a}.visual_vector, ${b}.visual_vector) / sqrt(2)))
  + 0.4 * greatest(0, 1 - private.hash_distance(${a}.visual_hash, ${b}.visual_hash) / 32.0), 0)`;

interface BoardRow {
  board: string;
  ads: number;
  shown: number;
  same_category: number;
  eight_of_twelve: number;
  ceiling: number;
  ceiling_eight: number;
  same_type: number;
  same_hook: number;
  same_format: number;
  look_decides: number | null;
  look: number;
  best_look: number;
}

const pct = (value: number | null) => (value === null ? '-' : `${(value * 100).toFixed(1)}%`);

async function measure(db: Database) {
  const viewer = await newUser(db);
  const { rows: ads } = await db.query<{ id: string }>('select id::text from public.ads order by created_at desc, id desc');
  const pairs: { ad: string; similar: string; rank: number }[] = [];
  const times: number[] = [];
  for (const ad of ads) {
    const started = performance.now();
    const shown = await as(db, userActor(viewer), async (q) =>
      (await q.query<{ id: string }>(`select e ->> 'id' as id from jsonb_array_elements(public.similar_ads($1::uuid)) with ordinality x (e, n) order by n`, [ad.id])).rows,
    );
    times.push(performance.now() - started);
    shown.forEach((row, index) => pairs.push({ ad: ad.id, similar: row.id, rank: index + 1 }));
  }
  await db.exec('drop table if exists bench_similar; create temporary table bench_similar (ad_id uuid, similar_id uuid, rank int)');
  await db.query('insert into bench_similar select * from unnest($1::uuid[], $2::uuid[], $3::int[])', [
    pairs.map((pair) => pair.ad),
    pairs.map((pair) => pair.similar),
    pairs.map((pair) => pair.rank),
  ]);

  // Per ad: what it was shown, and what its board could have shown (ceiling: as many of its category as there are).
  const perAd = `
    with shown as (
      select p.ad_id, s.id as similar_id, a.category_id = s.category_id as same_category,
             coalesce(a.type_id = s.type_id, false) as same_type, coalesce(a.hook_id = s.hook_id, false) as same_hook,
             coalesce(a.format = s.format, false) as same_format, ${LOOK('a', 's')} as look
        from bench_similar p join public.ads a on a.id = p.ad_id join public.ads s on s.id = p.similar_id
    ), per_ad as (
      select a.id, a.is_black_friday, c.name as category, count(sh.similar_id) as shown,
             count(*) filter (where sh.same_category) as same_category,
             avg(sh.same_type::int) as same_type, avg(sh.same_hook::int) as same_hook, avg(sh.same_format::int) as same_format,
             avg(sh.look) as look,
             (select count(*) from public.ads o where o.is_black_friday = a.is_black_friday and o.category_id = a.category_id and o.id <> a.id) as in_category,
             (select count(*) from public.ads o where o.is_black_friday = a.is_black_friday and o.id <> a.id) as in_board,
             (select avg(b.look) from (select ${LOOK('a', 'o')} as look from public.ads o
                                        where o.is_black_friday = a.is_black_friday and o.id <> a.id order by 1 desc limit 12) b) as best_look,
             -- Of the same-category ads shown (k), how many are among the k of its category nearest in look.
             (select count(*) from (select o.id from public.ads o
                                     where o.is_black_friday = a.is_black_friday and o.category_id = a.category_id and o.id <> a.id
                                     order by ${LOOK('a', 'o')} desc, o.id
                                     limit (select count(*) from shown x where x.ad_id = a.id and x.same_category)) n
               where n.id in (select x.similar_id from shown x where x.ad_id = a.id and x.same_category)) as look_hits
        from public.ads a join public.categories c on c.id = a.category_id
        left join shown sh on sh.ad_id = a.id
       group by a.id, a.is_black_friday, c.name
    )`;
  const { rows: boards } = await db.query<BoardRow>(`${perAd}
    select case when grouping(is_black_friday) = 1 then 'all' when is_black_friday then 'Black Friday board' else 'library' end as board, count(*)::int as ads,
           avg(shown)::float8 as shown,
           avg(same_category::float8 / nullif(shown, 0))::float8 as same_category,
           avg((same_category >= 8)::int)::float8 as eight_of_twelve,
           avg(least(in_category, 12)::float8 / nullif(least(in_board, 12), 0))::float8 as ceiling,
           avg((least(in_category, 12) >= 8)::int)::float8 as ceiling_eight,
           avg(same_type)::float8 as same_type, avg(same_hook)::float8 as same_hook, avg(same_format)::float8 as same_format,
           (sum(look_hits)::float8 / nullif(sum(same_category), 0))::float8 as look_decides,
           avg(look)::float8 as look, avg(best_look)::float8 as best_look
      from per_ad group by rollup (is_black_friday) order by is_black_friday nulls first`);
  const { rows: categories } = await db.query<{ category: string; ads: number; same_category: number; eight_of_twelve: number }>(`${perAd}
    select category, count(*)::int as ads, avg(same_category::float8 / nullif(shown, 0))::float8 as same_category,
           avg((same_category >= 8)::int)::float8 as eight_of_twelve
      from per_ad where not is_black_friday group by category order by category`);
  const { rows: haircareVideos } = await db.query<{ brand: string; shown: string }>(`
    select b.name as brand, string_agg(c.name || ' (' || sb.name || ')', ', ' order by p.rank) as shown
      from public.ads a join public.brands b on b.id = a.brand_id join public.categories ac on ac.id = a.category_id
      join bench_similar p on p.ad_id = a.id join public.ads s on s.id = p.similar_id
      join public.categories c on c.id = s.category_id join public.brands sb on sb.id = s.brand_id
     where ac.name = 'Haircare' and a.format = 'video'
     group by a.id, b.name order by b.name, a.id`);
  const sorted = [...times].sort((x, y) => x - y);
  return { ads: ads.length, boards, categories, haircareVideos, p50: sorted[Math.floor(sorted.length / 2)]!, p95: sorted[Math.floor(sorted.length * 0.95)]! };
}

async function main() {
  const snapshot = process.env.BENCH_SIMILAR_SNAPSHOT || (await seededSnapshot());
  log(`The demo library: ${snapshot}`);
  const db = await openPglite({ loadDataDir: new Blob([await readFile(snapshot)]) });
  try {
    if (process.env.BENCH_SIMILAR_MIGRATE !== '0') {
      const applied = await migrate(db).catch((error: Error) => {
        throw new Error(`${error.message} The kept library was seeded with the migrations of its day: BENCH_SIMILAR_RESEED=1 seeds it again.`, { cause: error });
      });
      if (applied.applied.length > 0) log(`Migrated the kept library forward: ${applied.applied.join(', ')}`);
    }
    const result = await measure(db);
    log(`\n"More like this" on the demo library (${result.ads} ads), a signed-in free user, every ad asked once`);
    log('board | ads | shown | same category | ≥ 8 of 12 | most possible (share, ≥ 8) | same type | same hook | same format | look decides in category | look | best look in board');
    log('---|---|---|---|---|---|---|---|---|---|---|---');
    for (const row of result.boards) {
      log(
        `${row.board} | ${row.ads} | ${row.shown.toFixed(1)} | ${pct(row.same_category)} | ${pct(row.eight_of_twelve)} | ${pct(row.ceiling)}, ${pct(row.ceiling_eight)} | ` +
          `${pct(row.same_type)} | ${pct(row.same_hook)} | ${pct(row.same_format)} | ${pct(row.look_decides)} | ${row.look.toFixed(3)} | ${row.best_look.toFixed(3)}`,
      );
    }
    log('\nLibrary board, per category: same category, ≥ 8 of 12');
    for (const row of result.categories) log(`  ${row.category} (${row.ads} ads): ${pct(row.same_category)}, ${pct(row.eight_of_twelve)}`);
    log('\nHaircare videos, their 12 in order: category (brand)');
    for (const row of result.haircareVideos) log(`  ${row.brand}: ${row.shown}`);
    log(`\nsimilar_ads on PGlite: p50 ${result.p50.toFixed(1)} ms, p95 ${result.p95.toFixed(1)} ms a call (${result.ads} calls, ${machineDescription()})`);

    const library = result.boards.find((row) => row.board === 'library')!;
    const all = result.boards.find((row) => row.board === 'all')!;
    const figures: Figure[] = [
      { figure: 'similar ads in the ad’s category (demo library board)', value: library.same_category * 100, unit: '%', budget: { kind: 'min', value: 75 } },
      { figure: 'demo library ads with at least 8 of 12 similar in their category', value: library.eight_of_twelve * 100, unit: '%', budget: { kind: 'min', value: 75 } },
      { figure: 'similar ads in the ad’s category (every demo ad)', value: all.same_category * 100, unit: '%' },
      { figure: 'similar ads of the same type (every demo ad)', value: all.same_type * 100, unit: '%' },
      { figure: 'similar ads of the same hook (every demo ad)', value: all.same_hook * 100, unit: '%' },
      { figure: 'same-category similar ads among the category’s nearest in look', value: (all.look_decides ?? 0) * 100, unit: '%' },
      { figure: 'similar_ads p50 (PGlite, 640 ads)', value: result.p50, unit: 'ms' },
    ];
    writeResults({ bench: 'similar', machine: machineDescription(), figures });
  } finally {
    await db.close();
  }
}

await main();
