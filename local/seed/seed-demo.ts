import { randomBytes } from 'node:crypto';
import sharp, { type OutputInfo, type OverlayOptions } from 'sharp';
import { rgbaToThumbHash } from 'thumbhash';
import type { VisualFingerprint } from '../../src/lib/media/visual-fingerprint.ts';
import type { Database, Queryable } from '../db/database.ts';
import { fingerprintWithSharp } from '../media/fingerprint-with-sharp.ts';
import { DEMO_BRANDS, DEMO_CATEGORIES, DEMO_HOOKS, DEMO_TAGS, DEMO_TYPES } from './demo-catalog.ts';
import { planDemoLibrary, type AdPlan, type DemoAdFacts } from './demo-plan.ts';
import { renderDemoVideo } from './demo-video.ts';
import { drawnText, renderBannerSvg, renderCreativeSvg, renderLogoSvg } from './render-creative.ts';
import { secretHex, secretUuid } from './seeded-random.ts';

/** Stores a file and its storage.objects row (as the storage service does). */
export type WriteObject = (bucket: string, name: string, bytes: Buffer, contentType: string) => Promise<void>;

export interface SeedDemoOptions {
  /** The database owner's connection: rows are written past RLS, as the admin tools would. */
  db: Database;
  writeObject: WriteObject;
  /** How many ads; 640 by default. */
  adCount?: number;
  /** Called after each ad's images are stored. */
  onProgress?: (done: number, total: number) => void;
  /** The moment the newest ad is dated from; now by default. */
  now?: Date;
}

export interface DemoSummary {
  /** True when demo content was already there and nothing was done. */
  skipped: boolean;
  message: string;
  brands: number;
  categories: number;
  types: number;
  tags: number;
  ads: number;
  blackFriday: number;
  topPicks: number;
  freeAds: number;
  banners: number;
  /** Objects written by this run. */
  objects: number;
  seconds: number;
}

export const DEFAULT_DEMO_AD_COUNT = 640;

/** Sizes shared with the admin upload (DESIGN.md, Images). */
export const DISPLAY_WIDTHS = [480, 960] as const;
export const PREVIEW_WIDTH = 32;
const THUMBHASH_MAX = 100;
const ORIGINAL_QUALITY = 85;
/** A recompressed near-duplicate's original (demo-plan.ts, NearDuplicateChange). */
const RECOMPRESSED_QUALITY = 60;
const DISPLAY_QUALITY = 72;
/** Two ads at a time, each pipeline single-threaded: the two cores of a small machine. */
const RENDER_CONCURRENCY = 2;

export interface AdImages {
  original: Buffer;
  display480: Buffer;
  display960: Buffer;
  preview: Buffer;
  thumbhash: string;
  width: number;
  height: number;
}

const rawInput = (info: OutputInfo) => ({ raw: { width: info.width, height: info.height, channels: info.channels as 3 | 4 } });

/**
 * The images of one ad from one rasterisation: the JPEG original, the WebP
 * display variants (each made from the next larger one), a blurred WebP
 * preview and the thumbhash of a render at most 100 px on its longer side.
 */
export async function renderAdImages(svg: string, originalQuality = ORIGINAL_QUALITY): Promise<AdImages> {
  const full = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const original = sharp(full.data, rawInput(full.info)).jpeg({ quality: originalQuality }).toBuffer();
  const r960 = await sharp(full.data, rawInput(full.info)).resize({ width: DISPLAY_WIDTHS[1] }).raw().toBuffer({ resolveWithObject: true });
  const display960 = sharp(r960.data, rawInput(r960.info)).webp({ quality: DISPLAY_QUALITY, effort: 2 }).toBuffer();
  const r480 = await sharp(r960.data, rawInput(r960.info)).resize({ width: DISPLAY_WIDTHS[0] }).raw().toBuffer({ resolveWithObject: true });
  const display480 = sharp(r480.data, rawInput(r480.info)).webp({ quality: DISPLAY_QUALITY, effort: 2 }).toBuffer();
  const preview = sharp(r480.data, rawInput(r480.info)).resize({ width: PREVIEW_WIDTH }).blur(1.2).webp({ quality: 50 }).toBuffer();
  const small = await sharp(r480.data, rawInput(r480.info))
    .resize({ width: THUMBHASH_MAX, height: THUMBHASH_MAX, fit: 'inside' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const thumbhash = Buffer.from(rgbaToThumbHash(small.info.width, small.info.height, small.data)).toString('base64');
  return {
    original: await original,
    display960: await display960,
    display480: await display480,
    preview: await preview,
    thumbhash,
    width: full.info.width,
    height: full.info.height,
  };
}

interface AdRow {
  id: string;
  plan: AdPlan;
  original_path: string;
  display_480_path: string;
  display_960_path: string;
  preview_path: string;
  width: number;
  height: number;
  thumbhash: string;
  /** The words the creative draws (drawnText). */
  image_text: string;
  /** Of the stored original, as an upload of it would have it. */
  fingerprint: VisualFingerprint | null;
  /** A video ad's WebM in ad-videos and its length; null for an image ad. */
  video_path: string | null;
  video_duration_ms: number | null;
}

async function demoContentExists(db: Queryable): Promise<boolean> {
  const { rows } = await db.query<{ present: boolean }>(
    'select exists (select 1 from public.brands) or exists (select 1 from public.ads) as present',
  );
  return rows[0]!.present;
}

/**
 * The key that names the demo's files: the database's own secret, so folder
 * names are stable for one database (a rerun after a crash reuses the files
 * it stored) and not computable from this code. Uploads through /admin use
 * crypto randomness instead.
 */
async function nameKey(db: Queryable): Promise<string> {
  const { rows } = await db.query<{ value: string }>(`select value from private.settings where key = 'cursor_secret'`);
  return rows[0]?.value ?? randomBytes(32).toString('hex');
}

/** Maps names to ids, inserting the names that are missing (names are unique regardless of case). */
async function idsByName(tx: Queryable, table: 'categories' | 'types' | 'tags' | 'hooks', names: readonly string[]): Promise<Map<string, string>> {
  await tx.query(`insert into public.${table} (name) select unnest($1::text[]) on conflict do nothing`, [names]);
  const { rows } = await tx.query<{ id: string; key: string }>(`select id, lower(name) as key from public.${table} where lower(name) = any ($1::text[])`, [
    names.map((name) => name.toLowerCase()),
  ]);
  const byKey = new Map(rows.map((row) => [row.key, row.id]));
  return new Map(names.map((name) => [name, byKey.get(name.toLowerCase())!]));
}

/** A demo ad's facts as the ads table's columns, its hook by id. */
function factColumns({ hook, ...facts }: DemoAdFacts, hooks: Map<string, string>) {
  return { ...facts, hook_id: hooks.get(hook)! };
}

async function inChunks<T>(items: readonly T[], size: number, fn: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < items.length; start += size) await fn(items.slice(start, start + size));
}

/** Each page's banner says something of its own: the page's title and subheading are the page's, under it. */
export const DEMO_BANNERS = [
  { page: 'library', title: 'Ads that sold', subtitle: 'Winning creatives from 50 DTC brands', dark: false, accent: '#ff5a36' },
  { page: 'black-friday', title: 'Sales that sold', subtitle: 'Discounts and bundles worth copying', dark: true, accent: '#f5c518' },
  { page: 'top-picks', title: 'Copy these first', subtitle: 'Our strategists’ first picks', dark: false, accent: '#3a7bf6' },
] as const;

/** Up to five portrait or square creatives laid over the right side of the banner. */
async function renderBanner(banner: (typeof DEMO_BANNERS)[number], cards: Buffer[]): Promise<Buffer> {
  const width = 1600;
  const height = 400;
  const layers: OverlayOptions[] = [];
  const cardHeight = 290;
  let left = 1560;
  for (const [index, card] of cards.slice(0, 5).entries()) {
    const angle = [-5, 4, -3, 6, -4][index]!;
    // Two pipelines: within one, sharp rotates before it adds the frame.
    const withFrame = await sharp(card)
      .resize({ height: cardHeight - 12 })
      .extend({ top: 6, bottom: 6, left: 6, right: 6, background: '#ffffff' })
      .png()
      .toBuffer();
    const framed = await sharp(withFrame)
      .rotate(angle, { background: { r: 0, g: 0, b: 0, alpha: 0 } })
      .png()
      .toBuffer({ resolveWithObject: true });
    left -= framed.info.width * 0.78;
    if (left < 720) break;
    layers.unshift({ input: framed.data, left: Math.round(left), top: Math.round((height - framed.info.height) / 2 + (index % 2 ? 10 : -10)) });
  }
  return sharp(Buffer.from(renderBannerSvg(banner.title, banner.subtitle, banner.dark, banner.accent, width, height)))
    .composite(layers)
    .webp({ quality: 80 })
    .toBuffer();
}

/**
 * Fills an empty database with the demo library: 50 brands with logos, the
 * categories, types and tags, adCount rendered ads (originals, WebP display
 * variants, blurred previews, thumbhashes; about 10% on the Black Friday board,
 * 7.5% in Top Picks, 10% free to view) and the three page banners.
 *
 * Files are stored first, then every row in one transaction, so a crash leaves
 * either no demo rows (and the next start finishes the job, reusing the files
 * already stored) or all of them. With any brand or ad present it does nothing.
 */
export async function seedDemo(options: SeedDemoOptions): Promise<DemoSummary> {
  const { db } = options;
  const started = performance.now();
  const adCount = options.adCount ?? DEFAULT_DEMO_AD_COUNT;
  const seconds = () => (performance.now() - started) / 1000;
  const skipped = (): DemoSummary => ({
    skipped: true,
    message: 'Demo content is already present (brands or ads exist); nothing was added.',
    brands: 0,
    categories: 0,
    types: 0,
    tags: 0,
    ads: 0,
    blackFriday: 0,
    topPicks: 0,
    freeAds: 0,
    banners: 0,
    objects: 0,
    seconds: seconds(),
  });
  if (await demoContentExists(db)) return skipped();

  const plans = planDemoLibrary(adCount, options.now ?? new Date());
  const key = await nameKey(db);
  const stored = new Set(
    (
      await db.query<{ bucket_id: string; name: string }>(
        `select bucket_id, name from storage.objects where bucket_id in ('ad-originals', 'ad-images', 'ad-videos', 'brand-logos', 'banners')`,
      )
    ).rows.map((row) => `${row.bucket_id}/${row.name}`),
  );
  let objects = 0;
  const write = async (bucket: string, name: string, bytes: () => Buffer | Promise<Buffer>, contentType: string) => {
    if (stored.has(`${bucket}/${name}`)) return;
    await options.writeObject(bucket, name, await bytes(), contentType);
    objects += 1;
  };

  const brandIds = new Map(DEMO_BRANDS.map((brand) => [brand.name, secretUuid(key, `demo:brand:${brand.name}`)]));
  const logoPaths = new Map<string, string>();
  for (const brand of DEMO_BRANDS) {
    const path = `${brandIds.get(brand.name)}/logo.webp`;
    await write('brand-logos', path, () => sharp(Buffer.from(renderLogoSvg(brand))).webp({ quality: 90 }).toBuffer(), 'image/webp');
    logoPaths.set(brand.name, path);
  }

  // Portrait and square creatives for the banners, kept from the renders.
  const upright = plans.filter((plan) => plan.spec.height >= plan.spec.width);
  const bannerCards = new Map<number, Buffer>();
  const cardsFor = {
    library: upright.filter((plan) => !plan.blackFriday).slice(0, 5),
    'black-friday': upright.filter((plan) => plan.blackFriday).slice(0, 5),
    'top-picks': upright.filter((plan) => plan.topPick).slice(0, 5),
  };
  for (const plan of Object.values(cardsFor).flat()) bannerCards.set(plan.index, Buffer.alloc(0));

  const rows: AdRow[] = new Array(plans.length);
  const previousConcurrency = sharp.concurrency();
  sharp.concurrency(1);
  try {
    let next = 0;
    let done = 0;
    await Promise.all(
      Array.from({ length: RENDER_CONCURRENCY }, async () => {
        for (let index = next++; index < plans.length; index = next++) {
          const plan = plans[index]!;
          const folder = secretHex(key, `demo:ad:${index}:folder`);
          const row: AdRow = {
            id: secretUuid(key, `demo:ad:${index}`),
            plan,
            original_path: `${folder}/original.jpg`,
            display_480_path: `${folder}/480.webp`,
            display_960_path: `${folder}/960.webp`,
            preview_path: `previews/${secretHex(key, `demo:ad:${index}:preview`)}.webp`,
            width: plan.spec.width,
            height: plan.spec.height,
            thumbhash: '',
            image_text: '',
            fingerprint: null,
            video_path: null,
            video_duration_ms: null,
          };
          const svg = renderCreativeSvg(plan.spec, plan.renderRandom.fork('creative'));
          row.image_text = drawnText(svg);
          const images = await renderAdImages(svg, plan.nearDuplicateOf?.change === 'recompressed' ? RECOMPRESSED_QUALITY : ORIGINAL_QUALITY);
          row.thumbhash = images.thumbhash;
          row.fingerprint = await fingerprintWithSharp(images.original);
          if (bannerCards.has(index)) bannerCards.set(index, images.display480);
          await write('ad-originals', row.original_path, () => images.original, 'image/jpeg');
          await write('ad-images', row.display_480_path, () => images.display480, 'image/webp');
          await write('ad-images', row.display_960_path, () => images.display960, 'image/webp');
          await write('ad-images', row.preview_path, () => images.preview, 'image/webp');
          if (plan.video) {
            // Its length is known from the plan alone, so a video stored before a crash is not made again.
            row.video_path = `${folder}/video.webm`;
            row.video_duration_ms = plan.video.seconds * 1000;
            const video = plan.video;
            await write('ad-videos', row.video_path, async () => (await renderDemoVideo(images.display960, video)).webm, 'video/webm');
          }
          rows[index] = row;
          done += 1;
          options.onProgress?.(done, plans.length);
        }
      }),
    );
  } finally {
    sharp.concurrency(previousConcurrency);
  }

  const bannerPaths = new Map<string, string>();
  for (const banner of DEMO_BANNERS) {
    const path = `${banner.page}/${secretHex(key, `demo:banner:${banner.page}`)}.webp`;
    await write('banners', path, () => renderBanner(banner, cardsFor[banner.page].map((plan) => bannerCards.get(plan.index)!)), 'image/webp');
    bannerPaths.set(banner.page, path);
  }

  const inserted = await db.transaction(async (tx) => {
    // One seeder at a time on a shared PostgreSQL; the loser finds the content there.
    await tx.query('select pg_advisory_xact_lock(7272)');
    if (await demoContentExists(tx)) return false;
    const categories = await idsByName(tx, 'categories', DEMO_CATEGORIES);
    const types = await idsByName(tx, 'types', DEMO_TYPES);
    const tags = await idsByName(tx, 'tags', DEMO_TAGS);
    const hooks = await idsByName(tx, 'hooks', DEMO_HOOKS);
    const systemTags = new Map(
      (await tx.query<{ id: string; system_key: string }>('select id, system_key from public.tags where system_key is not null')).rows.map((row) => [
        row.system_key,
        row.id,
      ]),
    );
    await tx.query(
      `insert into public.brands (id, name, logo_path)
       select id, name, logo_path from jsonb_to_recordset($1::jsonb) as b (id uuid, name text, logo_path text)`,
      [JSON.stringify(DEMO_BRANDS.map((brand) => ({ id: brandIds.get(brand.name), name: brand.name, logo_path: logoPaths.get(brand.name) })))],
    );
    await inChunks(rows, 200, (chunk) =>
      tx.query(
        `insert into public.ads (id, brand_id, category_id, type_id, created_at, requires_subscription,
                                 original_path, display_480_path, display_960_path, preview_path, width, height, thumbhash,
                                 platforms, placement, format, first_seen, last_seen, still_running, landing_url, primary_text,
                                 headline, call_to_action, offer, hook_id, language, country, image_text,
                                 visual_hash, colour_histogram, dominant_colours, video_path, video_duration_ms)
         select id, brand_id, category_id, type_id, created_at, requires_subscription,
                original_path, display_480_path, display_960_path, preview_path, width, height, thumbhash,
                platforms, placement, format, first_seen, last_seen, still_running, landing_url, primary_text,
                headline, call_to_action, offer, hook_id, language, country, image_text,
                visual_hash, colour_histogram, dominant_colours, video_path, video_duration_ms
           from jsonb_to_recordset($1::jsonb) as a (id uuid, brand_id uuid, category_id uuid, type_id uuid, created_at timestamptz,
                requires_subscription boolean, original_path text, display_480_path text, display_960_path text, preview_path text,
                width integer, height integer, thumbhash text, platforms text[], placement text, format text, first_seen date,
                last_seen date, still_running boolean, landing_url text, primary_text text, headline text, call_to_action text,
                offer text, hook_id uuid, language text, country text, image_text text,
                visual_hash bigint, colour_histogram real[], dominant_colours jsonb, video_path text, video_duration_ms integer)`,
        [
          JSON.stringify(
            chunk.map((row) => ({
              id: row.id,
              brand_id: brandIds.get(row.plan.brand.name),
              category_id: categories.get(row.plan.brand.category),
              type_id: row.plan.type ? types.get(row.plan.type) : null,
              created_at: row.plan.createdAt.toISOString(),
              requires_subscription: row.plan.requiresSubscription,
              original_path: row.original_path,
              display_480_path: row.display_480_path,
              display_960_path: row.display_960_path,
              preview_path: row.preview_path,
              width: row.width,
              height: row.height,
              thumbhash: row.thumbhash,
              image_text: row.image_text,
              visual_hash: row.fingerprint!.hash,
              colour_histogram: row.fingerprint!.histogram,
              dominant_colours: row.fingerprint!.colours,
              video_path: row.video_path,
              video_duration_ms: row.video_duration_ms,
              ...factColumns(row.plan.facts, hooks),
            })),
          ),
        ],
      ),
    );
    const links = rows.flatMap((row) => [
      ...row.plan.tags.map((tag) => ({ ad_id: row.id, tag_id: tags.get(tag)! })),
      ...(row.plan.blackFriday ? [{ ad_id: row.id, tag_id: systemTags.get('black_friday')! }] : []),
      ...(row.plan.topPick ? [{ ad_id: row.id, tag_id: systemTags.get('top_picks')! }] : []),
    ]);
    await inChunks(links, 500, (chunk) =>
      tx.query(
        `insert into public.ad_tags (ad_id, tag_id)
         select ad_id, tag_id from jsonb_to_recordset($1::jsonb) as t (ad_id uuid, tag_id uuid)`,
        [JSON.stringify(chunk)],
      ),
    );
    await tx.query(
      `insert into public.page_banners (page, image_path)
       select page, image_path from jsonb_to_recordset($1::jsonb) as p (page text, image_path text)
       on conflict (page) do nothing`,
      [JSON.stringify([...bannerPaths].map(([page, image_path]) => ({ page, image_path })))],
    );
    return true;
  });
  if (!inserted) return skipped();

  const { rows: counts } = await db.query<{ ads: number; black_friday: number; top_picks: number; free: number; banners: number }>(
    `select count(*)::int as ads, count(*) filter (where is_black_friday)::int as black_friday,
            count(*) filter (where is_top_picks)::int as top_picks, count(*) filter (where not requires_subscription)::int as free,
            (select count(*)::int from public.page_banners) as banners
       from public.ads`,
  );
  const summary = counts[0]!;
  return {
    skipped: false,
    message: `Demo library seeded: ${summary.ads} ads from ${DEMO_BRANDS.length} brands in ${seconds().toFixed(1)} s.`,
    brands: DEMO_BRANDS.length,
    categories: DEMO_CATEGORIES.length,
    types: DEMO_TYPES.length,
    tags: DEMO_TAGS.length,
    ads: summary.ads,
    blackFriday: summary.black_friday,
    topPicks: summary.top_picks,
    freeAds: summary.free,
    banners: summary.banners,
    objects,
    seconds: seconds(),
  };
}
