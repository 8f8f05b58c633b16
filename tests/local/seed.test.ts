import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { thumbHashToApproximateAspectRatio } from 'thumbhash';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../../local/db/database.ts';
import { DEMO_ACCOUNTS, seedDemoAccounts } from '../../local/seed/demo-accounts.ts';
import { DEMO_BRANDS, DEMO_CATEGORIES, DEMO_HOOKS, DEMO_TAGS, DEMO_TYPES } from '../../local/seed/demo-catalog.ts';
import { fingerprintWithSharp } from '../../local/media/fingerprint-with-sharp.ts';
import { planDemoLibrary } from '../../local/seed/demo-plan.ts';
import { seedDemo, type DemoSummary, type WriteObject } from '../../local/seed/seed-demo.ts';
import { sniffVideoFormat } from '../../local/storage/upload-checks.ts';
import { createStorageApi, type StorageApi } from '../../local/storage/storage-api.ts';
import { describeOnEngines, openTestDatabase } from '../support/engines.ts';
import { newLocalConfig } from '../support/local-config.ts';

const AD_COUNT = 24;
const NOW = new Date('2026-06-15T12:00:00Z');
const HEX32 = '[0-9a-f]{32}';

interface Stack {
  db: Database;
  storage: StorageApi;
  /** Every write the seeder made, in order. */
  writes: { bucket: string; name: string; contentType: string }[];
  writeObject: WriteObject;
  cleanup(): Promise<void>;
}

/** A database with the local storage service writing files to a temporary folder. */
async function stackFor(db: Database, closeDb = false): Promise<Stack> {
  const config = await newLocalConfig();
  const storage = await createStorageApi({ db, config });
  const writes: Stack['writes'] = [];
  return {
    db,
    storage,
    writes,
    writeObject: async (bucket, name, bytes, contentType) => {
      writes.push({ bucket, name, contentType });
      await storage.writeObject(bucket, name, bytes, contentType);
    },
    async cleanup() {
      if (closeDb) await db.close();
      await config.cleanup();
    },
  };
}

async function fileOf(stack: Stack, bucket: string, name: string): Promise<Buffer> {
  const { rows } = await stack.db.query<{ version: string }>('select version from storage.objects where bucket_id = $1 and name = $2', [bucket, name]);
  if (!rows[0]) throw new Error(`No object ${bucket}/${name}`);
  return readFile(stack.storage.files.pathOf(bucket, rows[0].version));
}

const count = async (db: Database, sql: string, params: unknown[] = []) => (await db.query<{ n: number }>(sql, params)).rows[0]!.n;

interface LibraryRow {
  brand: string;
  width: number;
  height: number;
  thumbhash: string;
  created_at: string;
  original_path: string;
}

const library = (db: Database) =>
  db.query<LibraryRow>(
    `select b.name as brand, a.width, a.height, a.thumbhash, a.created_at, a.original_path
       from public.ads a join public.brands b on b.id = a.brand_id
      order by a.created_at desc, a.id`,
  );

describeOnEngines('the demo library', (ctx) => {
  let stack: Stack;
  let summary: DemoSummary;

  beforeAll(async () => {
    stack = await stackFor(ctx.db);
    summary = await seedDemo({ db: ctx.db, writeObject: stack.writeObject, adCount: AD_COUNT, now: NOW });
  });
  afterAll(async () => {
    await stack.cleanup();
  });

  it('fills the catalogue: 50 brands, the 12 categories, the ad types, the tags beside the two system tags, three banners', async () => {
    expect(summary).toMatchObject({ skipped: false, brands: 50, categories: 12, ads: AD_COUNT, banners: 3 });
    const names = (table: string, where = 'true') =>
      ctx.db.query<{ name: string }>(`select name from public.${table} where ${where} order by name`).then((r) => r.rows.map((row) => row.name));
    expect(await names('brands')).toEqual(DEMO_BRANDS.map((brand) => brand.name).sort());
    expect(await names('categories')).toEqual([...DEMO_CATEGORIES].sort());
    expect(await names('types')).toEqual([...DEMO_TYPES].sort());
    expect(await names('tags', 'system_key is null')).toEqual([...DEMO_TAGS].sort());
    expect(DEMO_TAGS.length).toBeGreaterThanOrEqual(20);
    expect(await count(ctx.db, 'select count(*)::int as n from public.tags where system_key is not null')).toBe(2);
    const banners = await ctx.db.query<{ page: string }>('select page from public.page_banners order by page');
    expect(banners.rows.map((row) => row.page)).toEqual(['black-friday', 'library', 'top-picks']);
  });

  it('gives every brand a square logo in brand-logos at <brand id>/logo.webp', async () => {
    const { rows } = await ctx.db.query<{ id: string; logo_path: string }>('select id, logo_path from public.brands');
    for (const brand of rows) {
      expect(brand.logo_path).toBe(`${brand.id}/logo.webp`);
      const logo = await sharp(await fileOf(stack, 'brand-logos', brand.logo_path)).metadata();
      expect([logo.width, logo.height]).toEqual([128, 128]);
    }
  });

  it('stores every file a row points at, and no file that no row points at', async () => {
    const { rows } = await ctx.db.query<{ bucket_id: string; name: string; referenced: boolean }>(
      `select o.bucket_id, o.name,
              case o.bucket_id
                when 'ad-originals' then exists (select 1 from public.ads a where a.original_path = o.name)
                when 'ad-images' then exists (select 1 from public.ads a where o.name in (a.display_480_path, a.display_960_path, a.preview_path))
                when 'ad-videos' then exists (select 1 from public.ads a where a.video_path = o.name)
                when 'brand-logos' then exists (select 1 from public.brands b where b.logo_path = o.name)
                when 'banners' then exists (select 1 from public.page_banners p where p.image_path = o.name)
              end as referenced
         from storage.objects o`,
    );
    const videos = await count(ctx.db, 'select count(*)::int as n from public.ads where video_path is not null');
    expect(videos).toBeGreaterThan(0);
    expect(rows.length).toBe(AD_COUNT * 4 + videos + 50 + 3);
    expect(rows.filter((row) => !row.referenced)).toEqual([]);
    expect(stack.writes.length).toBe(rows.length);
    expect(summary.objects).toBe(rows.length);
  });

  it('names each ad’s files under a random folder, with the preview under another random name', async () => {
    const { rows } = await ctx.db.query<{ original_path: string; display_480_path: string; display_960_path: string; preview_path: string }>(
      'select original_path, display_480_path, display_960_path, preview_path from public.ads',
    );
    for (const row of rows) {
      const folder = new RegExp(`^(${HEX32})/original\\.jpg$`).exec(row.original_path)![1];
      expect(row.display_480_path).toBe(`${folder}/480.webp`);
      expect(row.display_960_path).toBe(`${folder}/960.webp`);
      expect(row.preview_path).toMatch(new RegExp(`^previews/${HEX32}\\.webp$`));
      expect(row.preview_path).not.toContain(folder!);
    }
    expect(new Set(rows.map((row) => row.original_path)).size).toBe(AD_COUNT);
  });

  it('renders each ad as a JPEG original of its stored size, WebP variants 480 and 960 wide, a 32 px blurred preview and a thumbhash of its shape', async () => {
    const { rows } = await ctx.db.query<{ width: number; height: number; thumbhash: string; original_path: string; display_480_path: string; display_960_path: string; preview_path: string }>(
      'select width, height, thumbhash, original_path, display_480_path, display_960_path, preview_path from public.ads',
    );
    const sizes = new Set<string>();
    for (const ad of rows) {
      sizes.add(`${ad.width}x${ad.height}`);
      const original = await sharp(await fileOf(stack, 'ad-originals', ad.original_path)).metadata();
      expect([original.format, original.width, original.height]).toEqual(['jpeg', ad.width, ad.height]);
      for (const [path, width] of [
        [ad.display_480_path, 480],
        [ad.display_960_path, 960],
        [ad.preview_path, 32],
      ] as const) {
        const variant = await sharp(await fileOf(stack, 'ad-images', path)).metadata();
        expect(variant.format).toBe('webp');
        expect(variant.width).toBe(width);
        expect(Math.abs(variant.height! - (ad.height * width) / ad.width)).toBeLessThanOrEqual(1);
      }
      const aspect = thumbHashToApproximateAspectRatio(Buffer.from(ad.thumbhash, 'base64'));
      expect(Math.abs(aspect / (ad.width / ad.height) - 1)).toBeLessThan(0.2);
    }
    expect([...sizes].every((size) => ['1080x1080', '1080x1350', '1080x1920', '1200x628'].includes(size))).toBe(true);
  });

  it('tags every ad with one to three ordinary tags and puts its Black Friday and Top Picks ads on their boards through the system tags', async () => {
    const { rows } = await ctx.db.query<{ ordinary: number; black_friday_tag: boolean; top_picks_tag: boolean; is_black_friday: boolean; is_top_picks: boolean }>(
      `select (select count(*)::int from public.ad_tags t join public.tags g on g.id = t.tag_id where t.ad_id = a.id and g.system_key is null) as ordinary,
              exists (select 1 from public.ad_tags t join public.tags g on g.id = t.tag_id where t.ad_id = a.id and g.system_key = 'black_friday') as black_friday_tag,
              exists (select 1 from public.ad_tags t join public.tags g on g.id = t.tag_id where t.ad_id = a.id and g.system_key = 'top_picks') as top_picks_tag,
              a.is_black_friday, a.is_top_picks
         from public.ads a`,
    );
    for (const row of rows) {
      expect(row.ordinary).toBeGreaterThanOrEqual(1);
      expect(row.ordinary).toBeLessThanOrEqual(3);
      expect(row.is_black_friday).toBe(row.black_friday_tag);
      expect(row.is_top_picks).toBe(row.top_picks_tag);
    }
    expect(rows.filter((row) => row.is_black_friday).length).toBe(Math.round(AD_COUNT * 0.1));
    expect(rows.filter((row) => row.is_top_picks).length).toBe(Math.round(AD_COUNT * 0.075));
    expect(summary).toMatchObject({ blackFriday: Math.round(AD_COUNT * 0.1), topPicks: Math.round(AD_COUNT * 0.075), freeAds: Math.round(AD_COUNT * 0.1) });
  });

  it('seeds the curated hooks and gives every ad its facts, running 3 to 400 days up to the day of seeding', async () => {
    const hooks = await ctx.db.query<{ name: string }>('select name from public.hooks order by name');
    expect(hooks.rows.map((row) => row.name)).toEqual([...DEMO_HOOKS].sort());
    const { rows } = await ctx.db.query<{ missing: number; shortest: number; longest: number; last: string; hosts_match: boolean }>(
      `select count(*) filter (where platforms is null or format is null or first_seen is null or last_seen is null or landing_url is null
                                 or primary_text is null or headline is null or call_to_action is null or offer is null or hook_id is null
                                 or language is null or country is null)::int as missing,
              min(last_seen - first_seen + 1) as shortest, max(last_seen - first_seen + 1) as longest, max(last_seen)::text as last,
              bool_and(substring(a.landing_url from '^https://([^/]+)/') = regexp_replace(lower(b.name), '[^a-z0-9]', '', 'g') || '.com') as hosts_match
         from public.ads a join public.brands b on b.id = a.brand_id`,
    );
    expect(rows[0]).toMatchObject({ missing: 0, hosts_match: true });
    expect(rows[0]!.shortest).toBeGreaterThanOrEqual(3);
    expect(rows[0]!.longest).toBeLessThanOrEqual(400);
    expect(rows[0]!.last <= NOW.toISOString().slice(0, 10)).toBe(true);
  });

  it('makes some ads short videos of their creative: WebM of VP8 key frames in ad-videos, format video, 2 to 5 s, with their length', async () => {
    const { rows } = await ctx.db.query<{ video_path: string; video_duration_ms: number; format: string; width: number; height: number }>(
      'select video_path, video_duration_ms, format, width, height from public.ads where video_path is not null');
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.format).toBe('video');
      expect(row.video_path).toMatch(/^[0-9a-f]{32}\/video\.webm$/);
      expect(row.video_duration_ms).toBeGreaterThanOrEqual(2000);
      expect(row.video_duration_ms).toBeLessThanOrEqual(5000);
      const file = await fileOf(stack, 'ad-videos', row.video_path);
      expect(sniffVideoFormat(file)).toBe('video/webm');
      // The Duration element (id 44 89, 8-byte float) holds the stored length.
      const at = file.indexOf(Buffer.from([0x44, 0x89, 0x88]));
      expect(file.readDoubleBE(at + 3)).toBe(row.video_duration_ms);
      expect(file.includes(Buffer.from('V_VP8'))).toBe(true);
    }
    const { rows: others } = await ctx.db.query<{ n: number }>(`select count(*)::int as n from public.ads where format = 'video' and video_path is null`);
    expect(others[0]!.n).toBe(0);
  });

  it('stores with every ad the words its creative draws as its image text, its brand’s wordmark among them', async () => {
    const { rows } = await ctx.db.query<{ image_text: string | null; brand: string }>(
      'select a.image_text, b.name as brand from public.ads a join public.brands b on b.id = a.brand_id',
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.image_text).toBeTruthy();
      expect(row.image_text).toBe(row.image_text!.replace(/\s+/g, ' ').trim());
      // The wordmark is drawn upper- or lower-cased, as the brand's type has it.
      expect(row.image_text!.toLowerCase()).toContain(row.brand.toLowerCase().split(' ')[0]!);
    }
  });

  it('stores with every ad the visual fingerprint of its stored original', async () => {
    const { rows } = await ctx.db.query<{ original_path: string; visual_hash: string; colour_histogram: number[]; dominant_colours: { hex: string; share: number }[] }>(
      'select original_path, visual_hash::text, colour_histogram, dominant_colours from public.ads',
    );
    expect(rows).toHaveLength(AD_COUNT);
    for (const row of rows) {
      const expected = await fingerprintWithSharp(await fileOf(stack, 'ad-originals', row.original_path));
      expect(row.visual_hash).toBe(expected.hash);
      expect(row.colour_histogram.map(Number)).toEqual(expected.histogram);
      expect(row.dominant_colours).toEqual(expected.colours);
    }
  });

  it('stores each ad as its plan says: brand, category, type, size, date, boards, access, ordinary tags and the facts the plan derives', async () => {
    // demo-library-full-size.test and demo-plan-consistency.test check the plan of the full 640-ad library; this is what makes that plan the seeded library.
    const { rows } = await ctx.db.query<{ brand: string; category: string; type: string | null; width: number; height: number; created_at: string;
                                           black_friday: boolean; top_pick: boolean; requires_subscription: boolean; tags: string[]; format: string;
                                           video: boolean; offer: string; hook: string; call_to_action: string; first_seen: string; last_seen: string;
                                           still_running: boolean; primary_text: string }>(
      `select b.name as brand, c.name as category, t.name as type, a.width, a.height, a.created_at, a.is_black_friday as black_friday,
              a.is_top_picks as top_pick, a.requires_subscription,
              array(select g.name from public.ad_tags x join public.tags g on g.id = x.tag_id
                     where x.ad_id = a.id and g.system_key is null order by g.name) as tags,
              a.format, a.video_path is not null as video, a.offer, h.name as hook, a.call_to_action, a.first_seen::text, a.last_seen::text,
              a.still_running, a.primary_text
         from public.ads a join public.brands b on b.id = a.brand_id join public.categories c on c.id = a.category_id
         left join public.types t on t.id = a.type_id left join public.hooks h on h.id = a.hook_id
        order by a.created_at, a.id`,
    );
    const planned = planDemoLibrary(AD_COUNT, NOW)
      .map(({ facts, ...plan }) => ({
        brand: plan.brand.name, category: plan.brand.category, type: plan.type, width: plan.spec.width, height: plan.spec.height,
        created_at: plan.createdAt.getTime(), black_friday: plan.blackFriday, top_pick: plan.topPick,
        requires_subscription: plan.requiresSubscription, tags: [...new Set(plan.tags)].sort(), format: facts.format, video: plan.video !== null,
        offer: facts.offer, hook: facts.hook, call_to_action: facts.call_to_action, first_seen: facts.first_seen, last_seen: facts.last_seen,
        still_running: facts.still_running, primary_text: facts.primary_text,
      }))
      .sort((a, b) => a.created_at - b.created_at);
    const stored = rows.map((row) => ({ ...row, created_at: Date.parse(row.created_at), tags: [...row.tags].sort() }));
    expect(stored).toEqual(planned);
  });

  it('dates the newest ad on the day of seeding and none later', async () => {
    const newest = (await ctx.db.query<{ newest: string }>('select max(created_at) as newest from public.ads')).rows[0]!.newest;
    const age = NOW.getTime() - Date.parse(newest);
    expect(age).toBeGreaterThan(0);
    expect(age).toBeLessThan(86_400_000);
  });

  it('does nothing on a second run, and says so', async () => {
    const before = stack.writes.length;
    const again = await seedDemo({ db: ctx.db, writeObject: stack.writeObject, adCount: AD_COUNT, now: NOW });
    expect(again).toMatchObject({ skipped: true, ads: 0, objects: 0 });
    expect(again.message).toMatch(/already present/);
    expect(stack.writes.length).toBe(before);
    expect(await count(ctx.db, 'select count(*)::int as n from public.ads')).toBe(AD_COUNT);
    expect(await count(ctx.db, 'select count(*)::int as n from public.brands')).toBe(50);
  });

  it('gives a second database the same library (brands, sizes, thumbhashes, dates) under file names of its own', async () => {
    const other = await stackFor(await openTestDatabase(ctx.engine), true);
    try {
      // Test databases are copies of one migrated template; a real installation gets its own secret when it migrates.
      await other.db.query(`update private.settings set value = encode(extensions.gen_random_bytes(32), 'hex') where key = 'cursor_secret'`);
      await seedDemo({ db: other.db, writeObject: other.writeObject, adCount: AD_COUNT, now: NOW });
      const mine = (await library(ctx.db)).rows;
      const theirs = (await library(other.db)).rows;
      const content = (rows: LibraryRow[]) => rows.map(({ brand, width, height, thumbhash, created_at }) => ({ brand, width, height, thumbhash, created_at }));
      expect(content(theirs)).toEqual(content(mine));
      // The folder names come from each database's own secret.
      const shared = theirs.filter((row) => mine.some((ad) => ad.original_path === row.original_path));
      expect(shared).toEqual([]);
    } finally {
      await other.cleanup();
    }
  });

  it('finishes the job on the next start after a crash, reusing the files already stored', async () => {
    const other = await stackFor(await openTestDatabase(ctx.engine), true);
    try {
      // The logos (50) and a few of the first ads' files get stored, then the process dies.
      let budget = 60;
      const inFlight: Promise<void>[] = [];
      const crashing: WriteObject = async (...args) => {
        if (budget-- <= 0) throw new Error('power cut');
        const write = other.writeObject(...args);
        inFlight.push(write);
        await write;
      };
      await expect(seedDemo({ db: other.db, writeObject: crashing, adCount: 6, now: NOW })).rejects.toThrow('power cut');
      await Promise.all(inFlight);
      expect(await count(other.db, 'select count(*)::int as n from public.brands')).toBe(0);
      const storedBefore = await count(other.db, 'select count(*)::int as n from storage.objects');
      expect(storedBefore).toBe(60);

      const resumed = await seedDemo({ db: other.db, writeObject: other.writeObject, adCount: 6, now: NOW });
      const videos = await count(other.db, 'select count(*)::int as n from public.ads where video_path is not null');
      expect(resumed).toMatchObject({ skipped: false, ads: 6, objects: 6 * 4 + videos + 50 + 3 - 60 });
      expect(await count(other.db, 'select count(*)::int as n from storage.objects')).toBe(6 * 4 + videos + 50 + 3);
    } finally {
      await other.cleanup();
    }
  });

  it('creates the demo accounts once: an admin, a subscriber with valid access and a free user', async () => {
    await seedDemoAccounts(ctx.db);
    await seedDemoAccounts(ctx.db);
    const { rows } = await ctx.db.query<{ email: string; admin: boolean; subscribed: boolean }>(
      `select u.email, exists (select 1 from public.admin_users x where x.user_id = u.id) as admin,
              private.user_has_subscription_access(u.id) as subscribed
         from auth.users u where u.email = any ($1) order by u.email`,
      [DEMO_ACCOUNTS.map((account) => account.email)],
    );
    expect(rows).toEqual([
      { email: 'admin@obyect.local', admin: true, subscribed: false },
      { email: 'free@obyect.local', admin: false, subscribed: false },
      { email: 'subscriber@obyect.local', admin: false, subscribed: true },
    ]);
  });
});
