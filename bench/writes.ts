import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import type { Queryable } from '../local/db/database.ts';
import { openPostgres } from '../local/db/postgres.ts';
import { percentile } from './measure.ts';

/**
 * What the listing's indexes cost the writes that keep the library current, each in a transaction rolled back
 * afterwards (the database is left as it was): an admin's insert of one ad with every trigger on; the daily update of
 * sighting dates for 10,000 running ads seen again today; and, where the schema has it, the daily count of the
 * running ads' keys after a day has passed. Plain SQL over columns every schema generation has, so the same figures
 * can be taken of an older database (`tsx bench/writes.ts <database url>`).
 */

export interface WriteCosts {
  insertOneAd: number;
  sightings10k: number;
  /** How many ads the update touched (10,000 unless the library has fewer running ads seen before today). */
  sightingRows: number;
  /** Null where the schema has no daily count. */
  dailyCount: number | null;
  dailyCountRows: number | null;
}

const RUNS = { insert: 20, sightings: 3, count: 2 };

async function inRolledBack<T>(db: Queryable, fn: () => Promise<T>): Promise<T> {
  await db.query('begin');
  try {
    return await fn();
  } finally {
    await db.query('rollback');
  }
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

/** One connection (not a pool): begin, the statements and rollback must share it. */
export async function measureWrites(db: Queryable): Promise<WriteCosts> {
  const { rows: [catalog] } = await db.query<{ brand_id: string; category_id: string }>(
    'select (select id from public.brands order by id limit 1) as brand_id, (select id from public.categories order by id limit 1) as category_id',
  );
  const inserts: number[] = [];
  for (let run = 0; run < RUNS.insert + 2; run += 1) {
    const ms = await inRolledBack(db, async () => {
      const folder = randomBytes(16).toString('hex');
      const paths = [`${folder}/original.jpg`, `${folder}/480.webp`, `${folder}/960.webp`, `previews/${folder}.webp`];
      const buckets = ['ad-originals', 'ad-images', 'ad-images', 'ad-images'];
      for (const [i, name] of paths.entries()) {
        await db.query(`insert into storage.objects (bucket_id, name, metadata) values ($1, $2, '{"mimetype": "image/webp", "size": 1024}')`, [buckets[i], name]);
      }
      return timed(() =>
        db.query(
          `insert into public.ads (brand_id, category_id, original_path, display_480_path, display_960_path, preview_path,
                                   width, height, thumbhash, platforms, format, offer, first_seen, last_seen, still_running,
                                   headline, primary_text, landing_url, image_text)
           values ($1, $2, $3, $4, $5, $6, 1080, 1350, 'YJqGPQw7sFlslqhFafSE+Q6oJ1h2iHB2Rw==', '{meta,instagram}', 'single_image',
                   'discount', (now() at time zone 'UTC')::date - 12, (now() at time zone 'UTC')::date, true,
                   'Winter sale on every coat', 'Warm coats for the coldest days, 30% off this week only',
                   'https://shop.example.com/coats', 'WINTER SALE 30% OFF')`,
          [catalog!.brand_id, catalog!.category_id, ...paths],
        ),
      );
    });
    if (run >= 2) inserts.push(ms);
  }

  const { rows: seen } = await db.query<{ id: string }>(
    `select id from public.ads where still_running and last_seen < (now() at time zone 'UTC')::date order by id limit 10000`,
  );
  const ids = seen.map((row) => row.id);
  const sightings: number[] = [];
  for (let run = 0; run < RUNS.sightings; run += 1) {
    sightings.push(await inRolledBack(db, () =>
      timed(() => db.query(`update public.ads set last_seen = (now() at time zone 'UTC')::date where id = any ($1::uuid[])`, [ids])),
    ));
  }

  const { rows: [hasCount] } = await db.query<{ has: boolean }>(
    `select exists (select 1 from pg_proc where proname = 'count_running_days' and pronamespace = 'private'::regnamespace) as has`,
  );
  let dailyCount: number | null = null;
  let dailyCountRows: number | null = null;
  if (hasCount!.has) {
    const counts: number[] = [];
    for (let run = 0; run < RUNS.count; run += 1) {
      counts.push(await inRolledBack(db, async () => {
        // Yesterday's keys, as the owner writes them with the triggers off (no API role can).
        await db.query(`set local session_replication_role = replica`);
        await db.query(`update public.ads set running_days_key = running_days_key - 1, last_seen_key = last_seen_key - 1 where still_running`);
        await db.query(`set local session_replication_role = origin`);
        const started = performance.now();
        const { rows } = await db.query<{ counted: number }>('select private.count_running_days() as counted');
        dailyCountRows = rows[0]!.counted;
        return performance.now() - started;
      }));
    }
    dailyCount = percentile(counts.sort((a, b) => a - b), 0.5);
  }
  return {
    insertOneAd: percentile(inserts.sort((a, b) => a - b), 0.5),
    sightings10k: percentile(sightings.sort((a, b) => a - b), 0.5),
    sightingRows: ids.length,
    dailyCount,
    dailyCountRows,
  };
}

export function describeWrites(costs: WriteCosts): string[] {
  return [
    `inserting one ad (every trigger on): ${costs.insertOneAd.toFixed(2)} ms (p50 of ${RUNS.insert})`,
    `the daily update of sighting dates for ${costs.sightingRows.toLocaleString('en-US')} running ads: ${costs.sightings10k.toFixed(0)} ms (p50 of ${RUNS.sightings})`,
    costs.dailyCount === null
      ? 'the daily count of running days: none in this schema'
      : `the daily count of running days (${(costs.dailyCountRows ?? 0).toLocaleString('en-US')} running ads): ${costs.dailyCount.toFixed(0)} ms (p50 of ${RUNS.count})`,
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const url = process.argv[2];
  if (!url) {
    console.error('Usage: tsx bench/writes.ts <postgres url of a seeded bench database>');
    process.exit(2);
  }
  const pool = await openPostgres({ connectionString: url, max: 1 });
  try {
    for (const line of describeWrites(await measureWrites(pool))) console.log(line);
  } finally {
    await pool.close();
  }
}
