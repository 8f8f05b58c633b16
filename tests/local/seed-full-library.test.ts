import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../local/db/database.ts';
import { DEFAULT_DEMO_AD_COUNT, seedDemo, type DemoSummary } from '../../local/seed/seed-demo.ts';
import { NEAR_DUPLICATE_BITS } from '../../src/lib/media/visual-fingerprint.ts';
import { createStorageApi } from '../../local/storage/storage-api.ts';
import { openTestDatabase } from '../support/engines.ts';
import { newLocalConfig } from '../support/local-config.ts';

const DAY_MS = 86_400_000;
const NOW = new Date('2026-11-22T09:00:00Z');

// The full first-start library, once, on the engine `npm start` uses by default.
describe('the demo library at full size [pglite]', () => {
  let db: Database;
  let cleanup: () => Promise<void>;
  let summary: DemoSummary;

  beforeAll(async () => {
    db = await openTestDatabase('pglite');
    const config = await newLocalConfig();
    cleanup = config.cleanup;
    const storage = await createStorageApi({ db, config });
    summary = await seedDemo({ db, writeObject: storage.writeObject, now: NOW });
    console.log(`Seeded ${summary.ads} demo ads (${summary.objects} files) in ${summary.seconds.toFixed(1)} s`);
  }, 300_000);
  afterAll(async () => {
    await db?.close();
    await cleanup?.();
  });

  const one = async <T>(sql: string) => (await db.query<T>(sql)).rows[0]!;

  it('holds 640 ads from all 50 brands and 12 categories', async () => {
    expect(DEFAULT_DEMO_AD_COUNT).toBe(640);
    const counts = await one<{ ads: number; brands: number; categories: number }>(
      'select count(*)::int as ads, count(distinct brand_id)::int as brands, count(distinct category_id)::int as categories from public.ads',
    );
    expect(counts).toEqual({ ads: 640, brands: 50, categories: 12 });
  });

  it('puts at least 60 ads on the Black Friday board and 40 in Top Picks, and about 10% free to view', async () => {
    const counts = await one<{ black_friday: number; top_picks: number; free: number }>(
      `select count(*) filter (where is_black_friday)::int as black_friday, count(*) filter (where is_top_picks)::int as top_picks,
              count(*) filter (where not requires_subscription)::int as free from public.ads`,
    );
    expect(counts.black_friday).toBeGreaterThanOrEqual(60);
    expect(counts.top_picks).toBeGreaterThanOrEqual(40);
    expect(counts.free).toBeGreaterThanOrEqual(640 * 0.08);
    expect(counts.free).toBeLessThanOrEqual(640 * 0.12);
    expect(summary).toMatchObject({ blackFriday: counts.black_friday, topPicks: counts.top_picks, freeAds: counts.free });
  });

  it('mixes the four formats and gives most ads a type', async () => {
    const { rows } = await db.query<{ size: string; n: number }>(`select width || 'x' || height as size, count(*)::int as n from public.ads group by 1`);
    // 864 x 1080: the near-duplicate drawn at 80% of its first post's size.
    expect(rows.map((row) => row.size).sort()).toEqual(['1080x1080', '1080x1350', '1080x1920', '1200x628', '864x1080']);
    for (const row of rows) expect(row.n).toBeGreaterThanOrEqual(row.size === '864x1080' ? 1 : 640 * 0.05);
    const typed = await one<{ n: number }>('select count(*)::int as n from public.ads where type_id is not null');
    expect(typed.n).toBeGreaterThanOrEqual(640 * 0.8);
    expect(typed.n).toBeLessThan(640);
  });

  it('spreads the ads over about 14 months, newest today, with the Black Friday ads in the November sale periods', async () => {
    const dates = await one<{ newest: string; oldest: string }>('select max(created_at) as newest, min(created_at) as oldest from public.ads');
    expect(NOW.getTime() - Date.parse(dates.newest)).toBeLessThan(DAY_MS);
    const span = (NOW.getTime() - Date.parse(dates.oldest)) / DAY_MS;
    expect(span).toBeGreaterThan(365);
    expect(span).toBeLessThanOrEqual(430);
    const library = await one<{ newest: string }>('select max(created_at) as newest from public.ads where not is_black_friday');
    expect(NOW.getTime() - Date.parse(library.newest)).toBeLessThan(DAY_MS);
    const offSeason = await one<{ n: number }>(
      `select count(*)::int as n from public.ads
        where is_black_friday and not (extract(month from created_at) = 11 or (extract(month from created_at) = 12 and extract(day from created_at) <= 3))`,
    );
    expect(offSeason.n).toBe(0);
    const months = await one<{ n: number }>(`select count(distinct date_trunc('month', created_at))::int as n from public.ads`);
    expect(months.n).toBeGreaterThanOrEqual(13);
  });

  it('tags every ad with one to three ordinary tags', async () => {
    const tags = await one<{ fewest: number; most: number }>(
      `select min(n)::int as fewest, max(n)::int as most from (
         select a.id, count(g.id) as n from public.ads a
           left join public.ad_tags t on t.ad_id = a.id left join public.tags g on g.id = t.tag_id and g.system_key is null
          group by a.id) per_ad`,
    );
    expect(tags).toEqual({ fewest: 1, most: 3 });
  });

  it('stores exactly the files the rows point at', async () => {
    const files = await one<{ objects: number; unreferenced: number }>(
      `select count(*)::int as objects,
              count(*) filter (where not (
                exists (select 1 from public.ads a where o.name in (a.original_path, a.display_480_path, a.display_960_path, a.preview_path))
                or exists (select 1 from public.ads a where a.video_path = o.name)
                or exists (select 1 from public.brands b where b.logo_path = o.name)
                or exists (select 1 from public.page_banners p where p.image_path = o.name)))::int as unreferenced
         from storage.objects o`,
    );
    // Four images an ad, a video for one ad in 16 that is neither a carousel nor on the Black Friday board (32), logos, banners.
    expect(files).toEqual({ objects: 640 * 4 + 32 + 50 + 3, unreferenced: 0 });
  });

  it('holds the three planned near-duplicate pairs, each brand’s two ads within the near-duplicate distance', async () => {
    const { rows } = await db.query<{ brand: string }>(
      `select b.name as brand
         from public.ads x join public.ads y on x.id < y.id and x.brand_id = y.brand_id and x.headline = y.headline
         join public.brands b on b.id = x.brand_id
        where bit_count((x.visual_hash # y.visual_hash)::bit(64)) <= ${NEAR_DUPLICATE_BITS}`,
    );
    expect(rows.map((row) => row.brand)).toEqual(expect.arrayContaining(['Aurelle', 'Curlhaus', 'Hollow Pine']));
  });
});
