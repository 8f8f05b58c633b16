import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/support/chromium.ts';
import { openPostgres } from '../local/db/postgres.ts';
import { DEMO_ACCOUNTS, seedDemoAccounts } from '../local/seed/demo-accounts.ts';
import { seedDemo } from '../local/seed/seed-demo.ts';
import { buildSpa, spaNeedsBuild } from '../local/spa-build.ts';
import { projectRoot, startLocalStack, type LocalStack } from '../local/stack.ts';
import { budgetText, machineDescription, passOf, writeResults, type Figure } from './results.ts';

/**
 * `npm run bench:pages`: the pages as a browser sees them. The local stack runs
 * on a fresh PostgreSQL database with the demo library plus BENCH_PAGES_ADS
 * (100,000) generated ads that reuse the demo's stored images; Debian's
 * Chromium measures the library's first page at 390 and 1440 px (image bytes,
 * originals requested, CLS, LCP, initial JavaScript), scrolling through 3,000
 * ads (cards in the DOM, longest task), the time from a filter change to the
 * new first row painted, and Lighthouse's performance score for /library,
 * /ads/:id and /black-friday on mobile and desktop. The first page and the
 * scroll are measured twice: for an anonymous visitor, whose first page is
 * mostly small blurred previews, and for the demo subscriber, signed in, to
 * whom every ad is clear and every card a real image; the subscriber's ad
 * page too. Video ads (the demo's, and the generated ads copying them) are
 * among the first page: their cards must download no video until one plays,
 * and the subscriber's first hover is timed to the video's first frame
 * (BENCH_PAGES_VIDEOS=none measures the same library without videos). Prints
 * a table.
 */
const EXTRA_ADS = Number(process.env.BENCH_PAGES_ADS ?? 100_000);
const SCROLL_ADS = Number(process.env.BENCH_SCROLL_ADS ?? 3_000);
const FILTER_RUNS = 5;
const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DATABASE = 'obyect_bench_pages';
/** BENCH_PAGES_REUSE=1 keeps the seeded database and files for the next run, and reuses them if present. */
const REUSE = process.env.BENCH_PAGES_REUSE === '1';
/** BENCH_PAGES_ONLY=first,video,scroll,ad,filter,lighthouse runs only those parts. */
const ONLY = new Set((process.env.BENCH_PAGES_ONLY ?? 'first,video,scroll,ad,filter,lighthouse').split(',').map((part) => part.trim()));
/** BENCH_PAGES_VIEWERS=anonymous,subscriber: whose first page and scroll are measured. */
const VIEWERS = (process.env.BENCH_PAGES_VIEWERS ?? 'anonymous,subscriber').split(',').map((part) => part.trim()) as Array<'anonymous' | 'subscriber'>;
/**
 * BENCH_PAGES_VIDEOS=none turns every video ad into an image ad (its poster) before measuring: the same library
 * without videos, to compare the page figures with and without video cards on the first page.
 */
const VIDEOS = process.env.BENCH_PAGES_VIDEOS === 'none' ? 'none' : 'kept';
const log = (line = '') => process.stdout.write(`${line}\n`);

function databaseUrl(name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Generated ads: each reuses a demo ad's stored files (a video ad's video too) under object names of its own, so pages load real images. */
async function addGeneratedAds(stack: LocalStack, count: number): Promise<void> {
  const chunk = 20_000;
  for (let start = 1; start <= count; start += chunk) {
    const end = Math.min(count, start + chunk - 1);
    await stack.db.exec('begin');
    try {
      await stack.db.query(
        `with demo as (select row_number() over (order by id) - 1 as k, a.* from public.ads a where not a.is_black_friday),
              total as (select count(*) as n from demo),
              g as (select i, d.* from generate_series($1::int, $2::int) i cross join total join demo d on d.k = i % total.n)
         insert into storage.objects (bucket_id, name, version, metadata)
         select o.bucket_id, 'bench/' || g.i || '/' || o.name, o.version, o.metadata
           from g
           join storage.objects o
             on (o.bucket_id = 'ad-originals' and o.name = g.original_path)
             or (o.bucket_id = 'ad-images' and o.name in (g.display_480_path, g.display_960_path, g.preview_path))
             or (o.bucket_id = 'ad-videos' and o.name = g.video_path)`,
        [start, end],
      );
      await stack.db.query(
        `with demo as (select row_number() over (order by id) - 1 as k, a.* from public.ads a where not a.is_black_friday),
              total as (select count(*) as n from demo)
         insert into public.ads (brand_id, category_id, type_id, created_at, requires_subscription, original_path,
                                 display_480_path, display_960_path, preview_path, width, height, thumbhash,
                                 format, video_path, video_duration_ms)
         select d.brand_id, d.category_id, d.type_id, now() - (i::double precision / $3) * interval '730 days' - interval '1 hour',
                d.requires_subscription, 'bench/' || i || '/' || d.original_path, 'bench/' || i || '/' || d.display_480_path,
                'bench/' || i || '/' || d.display_960_path, 'bench/' || i || '/' || d.preview_path, d.width, d.height, d.thumbhash,
                d.format, 'bench/' || i || '/' || d.video_path, d.video_duration_ms
           from generate_series($1::int, $2::int) i cross join total join demo d on d.k = i % total.n`,
        [start, end, count],
      );
      await stack.db.exec('commit');
    } catch (error) {
      await stack.db.exec('rollback');
      throw error;
    }
  }
  await stack.db.exec('analyze');
}

interface Viewport {
  name: string;
  width: number;
  height: number;
  scale: number;
}

const VIEWPORTS: Viewport[] = [
  { name: '390 px', width: 390, height: 844, scale: 1 },
  { name: '390 px at 3x', width: 390, height: 844, scale: 3 },
  { name: '1440 px', width: 1440, height: 900, scale: 1 },
  { name: '1440 px at 2x', width: 1440, height: 900, scale: 2 },
];

async function launch(viewport: Viewport, extraArgs: string[] = []): Promise<{ context: BrowserContext; dir: string; close(): Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'obyect-bench-chromium-'));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS, ...extraArgs],
    viewport: { width: viewport.width, height: viewport.height },
    deviceScaleFactor: viewport.scale,
    isMobile: viewport.width < 768,
    hasTouch: viewport.width < 768,
  });
  // tsx keeps function names with a helper the page does not have.
  await context.addInitScript('window.__name = (target) => target');
  return {
    context,
    dir,
    async close() {
      await context.close().catch(() => {});
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Waits until the page has made no request for `quietMs`. */
async function networkQuiet(page: Page, quietMs = 1500, limitMs = 30_000): Promise<void> {
  let last = Date.now();
  const touch = () => (last = Date.now());
  page.on('request', touch);
  page.on('requestfinished', touch);
  page.on('requestfailed', touch);
  const started = Date.now();
  while (Date.now() - last < quietMs && Date.now() - started < limitMs) await page.waitForTimeout(100);
  page.off('request', touch);
  page.off('requestfinished', touch);
  page.off('requestfailed', touch);
}

const OBSERVERS = `
  window.__bench = { cls: 0, lcp: 0, longest: 0 };
  new PerformanceObserver((list) => { for (const e of list.getEntries()) if (!e.hadRecentInput) window.__bench.cls += e.value; }).observe({ type: 'layout-shift', buffered: true });
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__bench.lcp = e.startTime; }).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__bench.longest = Math.max(window.__bench.longest, e.duration); }).observe({ type: 'longtask', buffered: true });
`;

interface FirstPage {
  imageBytes: number;
  images: number;
  originals: number;
  /** Cards on the first screen, and how many of them are clear (not locked). */
  cards: number;
  clearCards: number;
  /** Video cards in the DOM, and the bytes of video the visit downloaded (none until a card plays). */
  videoCards: number;
  videoBytes: number;
  cls: number;
  lcp: number;
  scripts: string[];
}

type Viewer = 'anonymous' | 'subscriber';

/** Signs the demo subscriber in through the sign-in page. */
async function signInAsSubscriber(page: Page, url: string): Promise<void> {
  const account = DEMO_ACCOUNTS.find((entry) => entry.role === 'subscriber')!;
  await page.goto(`${url}/auth/signin`);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.waitForURL(/\/library/);
}

/**
 * The page a measurement uses, the viewer signed in: the session stays in the
 * browser's storage, while the sign-in visit's images are dropped from the
 * cache, so the measured visit fetches its own.
 */
async function pageFor(context: BrowserContext, url: string, viewer: Viewer): Promise<Page> {
  const page = context.pages()[0] ?? (await context.newPage());
  if (viewer === 'subscriber') {
    await signInAsSubscriber(page, url);
    await page.goto('about:blank');
    const session = await context.newCDPSession(page);
    await session.send('Network.clearBrowserCache');
    await session.detach();
  }
  return page;
}

interface Visit {
  imageBytes: number;
  images: number;
  originals: number;
  cls: number;
  lcp: number;
}

/** Opens `address` with the observers on, waits until `ready` and then for a quiet network: the images it loaded, the originals it asked for, CLS and LCP. */
async function visit(page: Page, address: string, ready: () => Promise<unknown>, quietMs: number): Promise<Visit> {
  await page.addInitScript(OBSERVERS);
  const requested: string[] = [];
  page.on('request', (request) => requested.push(request.url()));
  await page.goto(address, { waitUntil: 'load' });
  await ready();
  await networkQuiet(page, quietMs);
  const result = await page.evaluate(() => {
    const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    const images = entries.filter((entry) => entry.initiatorType === 'img' || /\.(webp|avif|jpe?g|png)(\?|$)/.test(entry.name));
    const bench = (window as unknown as { __bench: { cls: number; lcp: number } }).__bench;
    return { imageBytes: images.reduce((sum, entry) => sum + (entry.transferSize || entry.encodedBodySize), 0), images: images.length, cls: bench.cls, lcp: bench.lcp };
  });
  return { ...result, originals: requested.filter((requestedAddress) => requestedAddress.includes('/ad-originals/')).length };
}

const viewerNote = (viewer: Viewer) => (viewer === 'subscriber' ? ', subscriber' : '');

async function measureFirstPage(url: string, viewport: Viewport, viewer: Viewer = 'anonymous'): Promise<FirstPage> {
  const browser = await launch(viewport);
  try {
    const page = await pageFor(browser.context, url, viewer);
    const seen = await visit(page, `${url}/library`, () => page.waitForSelector('[data-testid="ad-card"]'), 1500);
    const result = await page.evaluate(() => {
      const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      // Every script the page fetched before any interaction: the entry, its modulepreloads and static imports.
      const scripts = entries.filter((entry) => new URL(entry.name).origin === location.origin && /\.m?js$/.test(new URL(entry.name).pathname));
      return {
        cards: document.querySelectorAll('[data-testid="ad-card"]').length,
        clearCards: document.querySelectorAll('[data-testid="ad-card"][data-locked="false"]').length,
        videoCards: document.querySelectorAll('[data-testid="ad-card"] [data-testid="video-duration"]').length,
        videoBytes: entries
          .filter((entry) => entry.initiatorType === 'video' || entry.name.includes('/ad-videos/'))
          .reduce((sum, entry) => sum + (entry.transferSize || entry.encodedBodySize), 0),
        scripts: [...new Set(scripts.map((entry) => entry.name))],
      };
    });
    return { ...seen, ...result };
  } finally {
    await browser.close();
  }
}

/** The JavaScript a first visit to /library loads before any interaction, gzip-compressed as a server would send it. */
async function initialJavaScriptGzip(scripts: string[]): Promise<number> {
  let total = 0;
  for (const address of scripts) {
    const { pathname } = new URL(address);
    const body = await readFile(path.join(projectRoot, 'dist', pathname)).catch(async () => Buffer.from(await (await fetch(address)).arrayBuffer()));
    total += gzipSync(body).length;
  }
  return total;
}

interface Scroll {
  loaded: number;
  cardsInDom: number;
  longestTask: number;
  seconds: number;
}

async function measureScroll(url: string, viewer: Viewer = 'anonymous'): Promise<Scroll> {
  const viewport = VIEWPORTS.find((entry) => entry.name === '1440 px')!;
  const browser = await launch(viewport);
  try {
    const page = await pageFor(browser.context, url, viewer);
    await page.addInitScript(OBSERVERS);
    await page.goto(`${url}/library`, { waitUntil: 'load' });
    await page.waitForSelector('[data-testid="ad-card"]');
    await networkQuiet(page, 500);
    await page.evaluate(() => ((window as unknown as { __bench: { longest: number } }).__bench.longest = 0));
    const started = Date.now();
    let loaded = 0;
    while (Date.now() - started < 240_000) {
      loaded = await page.evaluate(() => Number(document.querySelector('[data-item-count]')?.getAttribute('data-item-count') ?? 0));
      if (loaded >= SCROLL_ADS) break;
      await page.mouse.wheel(0, 2400);
      await page.waitForTimeout(60);
    }
    const seconds = (Date.now() - started) / 1000;
    await page.waitForTimeout(500);
    const result = await page.evaluate(() => ({
      cardsInDom: document.querySelectorAll('[data-testid="ad-card"]').length,
      longestTask: (window as unknown as { __bench: { longest: number } }).__bench.longest,
    }));
    return { loaded, seconds, ...result };
  } finally {
    await browser.close();
  }
}

/** An ad's page opened by its address: its largest contentful paint (the ad's display image) and what it downloads. */
async function measureAdPage(url: string, adId: string, viewport: Viewport, viewer: Viewer): Promise<Visit> {
  const browser = await launch(viewport);
  try {
    const page = await pageFor(browser.context, url, viewer);
    return await visit(page, `${url}/ads/${adId}`, () => page.getByTestId('ad-detail').waitFor({ state: 'visible' }), 800);
  } finally {
    await browser.close();
  }
}

/** From choosing a brand to the first card of that brand painted, FILTER_RUNS times with brands not loaded before. */
async function measureFilterChange(url: string, brands: Array<{ id: string; name: string }>): Promise<number[]> {
  const viewport = VIEWPORTS.find((entry) => entry.name === '1440 px')!;
  const browser = await launch(viewport);
  try {
    const page = browser.context.pages()[0] ?? (await browser.context.newPage());
    await page.goto(`${url}/library`, { waitUntil: 'load' });
    await page.waitForSelector('[data-testid="ad-card"]');
    await networkQuiet(page, 500);
    const times: number[] = [];
    for (const brand of brands.slice(0, FILTER_RUNS)) {
      const elapsed = await page.evaluate(
        ({ id, name }) =>
          new Promise<number>((resolve, reject) => {
            const select = document.querySelector<HTMLSelectElement>('select[aria-label="Brand"]');
            if (!select) return reject(new Error('No brand filter on the page'));
            const firstCardIs = () => document.querySelector('[data-testid="ad-card"] header p')?.textContent === name;
            const started = performance.now();
            const check = () => {
              if (firstCardIs()) {
                observer.disconnect();
                requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now() - started)));
              }
            };
            const observer = new MutationObserver(check);
            observer.observe(document.body, { subtree: true, childList: true, characterData: true });
            setTimeout(() => reject(new Error(`The first row of ${name} did not appear`)), 15_000);
            select.value = id;
            select.dispatchEvent(new Event('change', { bubbles: true }));
          }),
        brand,
      );
      times.push(elapsed);
      await networkQuiet(page, 300);
    }
    return times;
  } finally {
    await browser.close();
  }
}

interface VideoHover {
  /** From the pointer entering the card to its video's first frame playing. */
  toPlayingMs: number;
  videoBytes: number;
  durationMs: number;
}

/** The subscriber at 1440 px points at the first clear video card of /library: how soon it plays and what it downloads. */
async function measureVideoHover(url: string): Promise<VideoHover | null> {
  const viewport = VIEWPORTS.find((entry) => entry.name === '1440 px')!;
  const browser = await launch(viewport);
  try {
    const page = await pageFor(browser.context, url, 'subscriber');
    await page.goto(`${url}/library`, { waitUntil: 'load' });
    await page.waitForSelector('[data-testid="ad-card"]');
    await networkQuiet(page, 500);
    const card = page.locator('[data-testid="ad-card"][data-locked="false"]:has([data-testid="video-duration"])').first();
    if ((await card.count()) === 0) return null;
    await card.scrollIntoViewIfNeeded();
    await networkQuiet(page, 300);
    const box = (await card.boundingBox())!;
    const started = await page.evaluate(() => performance.now());
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await card.locator('[data-testid="card-video-box"][data-playing="true"]').waitFor({ timeout: 30_000 });
    const ended = await page.evaluate(() => performance.now());
    await networkQuiet(page, 800);
    const result = await page.evaluate(() => {
      const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      const videos = entries.filter((entry) => entry.initiatorType === 'video' || entry.name.includes('/ad-videos/'));
      const video = document.querySelector<HTMLVideoElement>('[data-testid="card-video"]');
      return { videoBytes: videos.reduce((sum, entry) => sum + (entry.transferSize || entry.encodedBodySize), 0), durationMs: (video?.duration ?? 0) * 1000 };
    });
    return { toPlayingMs: ended - started, ...result };
  } finally {
    await browser.close();
  }
}

interface LighthouseScore {
  page: string;
  formFactor: 'mobile' | 'desktop';
  score: number | null;
  lcpMs: number | null;
  cls: number | null;
}

/** Lighthouse's performance category in a browser of its own (signed in first where the page needs it). */
async function runLighthouse(url: string, route: string, formFactor: 'mobile' | 'desktop', signIn: boolean): Promise<LighthouseScore> {
  const viewport = formFactor === 'mobile' ? VIEWPORTS[0]! : VIEWPORTS[2]!;
  const browser = await launch(viewport, ['--remote-debugging-port=0']);
  try {
    if (signIn) await signInAsSubscriber(browser.context.pages()[0] ?? (await browser.context.newPage()), url);
    const active = (await readFile(path.join(browser.dir, 'DevToolsActivePort'), 'utf8')).split('\n')[0]!;
    const flags = { port: Number(active), output: 'json' as const, logLevel: 'error' as const, onlyCategories: ['performance'], disableStorageReset: true };
    const result = await lighthouse(`${url}${route}`, flags, formFactor === 'desktop' ? desktopConfig : undefined);
    const lhr = result?.lhr;
    const score = lhr?.categories.performance?.score;
    return {
      page: route,
      formFactor,
      score: score === null || score === undefined ? null : Math.round(score * 100),
      lcpMs: lhr?.audits['largest-contentful-paint']?.numericValue ?? null,
      cls: lhr?.audits['cumulative-layout-shift']?.numericValue ?? null,
    };
  } finally {
    await browser.close();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

async function main() {
  if (await spaNeedsBuild(projectRoot)) {
    log('Building the SPA…');
    await buildSpa(projectRoot);
  }
  const admin = await openPostgres({ connectionString: serverUrl, max: 1 });
  const exists = (await admin.query<{ n: number }>('select count(*)::int as n from pg_database where datname = $1', [DATABASE])).rows[0]!.n > 0;
  const reusing = REUSE && exists;
  if (!reusing) {
    await admin.exec(`drop database if exists ${DATABASE} with (force)`);
    await admin.exec(`create database ${DATABASE}`);
  }
  const dataDir = REUSE ? path.join(tmpdir(), 'obyect-bench-pages-data') : await mkdtemp(path.join(tmpdir(), 'obyect-bench-pages-'));
  let stack: LocalStack | null = null;
  const figures: Figure[] = [];
  try {
    stack = await startLocalStack({ env: { ...process.env, DATABASE_URL: databaseUrl(DATABASE), DATA_DIR: dataDir }, port: 0, precompressSpa: true });
    if (!reusing) {
      const seeded = performance.now();
      await seedDemoAccounts(stack.db);
      const demo = await seedDemo({ db: stack.db, writeObject: stack.storage.writeObject });
      await addGeneratedAds(stack, EXTRA_ADS);
      log(`Seeded ${demo.ads} demo ads and ${EXTRA_ADS.toLocaleString('en-US')} generated ones in ${((performance.now() - seeded) / 1000).toFixed(0)} s`);
    }
    if (VIDEOS === 'none') {
      await stack.db.query(`update public.ads set video_path = null, video_duration_ms = null, format = 'single_image' where video_path is not null`);
    }
    const { total, videos } = (
      await stack.db.query<{ total: number; videos: number }>('select count(*)::int as total, (count(*) filter (where video_path is not null))::int as videos from public.ads')
    ).rows[0]!;
    log(`${total.toLocaleString('en-US')} ads, ${videos.toLocaleString('en-US')} of them videos; stack at ${stack.url}`);

    for (const [viewer, viewport] of ONLY.has('first') ? VIEWERS.flatMap((who) => VIEWPORTS.map((entry) => [who, entry] as const)) : []) {
      const first = await measureFirstPage(stack.url, viewport, viewer);
      const budget = viewport.scale === 1 ? (viewport.width === 390 ? 500 : 1200) : null;
      const v = viewerNote(viewer);
      figures.push({
        figure: `/library first-page image bytes, ${viewport.name}${v}`,
        value: Math.round(first.imageBytes / 1024),
        unit: 'KB',
        ...(budget ? { budget: { kind: 'max' as const, value: budget } } : {}),
        note: `${first.images} images; ${first.clearCards} of ${first.cards} cards in the DOM clear, ${first.videoCards} of them videos`,
      });
      figures.push({ figure: `/library first-page video bytes, ${viewport.name}${v}`, value: Math.round(first.videoBytes / 1024), unit: 'KB', budget: { kind: 'max', value: 0 }, note: `${first.videoCards} video cards in the DOM` });
      figures.push({ figure: `/library originals requested, ${viewport.name}${v}`, value: first.originals, unit: 'requests', budget: { kind: 'max', value: 0 } });
      if (viewport.scale === 1) {
        figures.push({ figure: `/library CLS, ${viewport.name}${v}`, value: Number(first.cls.toFixed(3)), unit: '', budget: { kind: 'max', value: 0.05 } });
        figures.push({ figure: `/library LCP, ${viewport.name}${v}`, value: Math.round(first.lcp), unit: 'ms', ...(viewport.width === 1440 ? { budget: { kind: 'max' as const, value: 1500 } } : {}) });
      }
      if (viewport.name === '1440 px' && viewer === 'anonymous') {
        const gzip = await initialJavaScriptGzip(first.scripts);
        figures.push({ figure: '/library initial JavaScript (gzip)', value: Math.round(gzip / 1024), unit: 'KB', budget: { kind: 'max', value: 170 }, note: `${first.scripts.length} files` });
      }
      log(`  measured the first page at ${viewport.name}${v}`);
    }

    for (const viewer of ONLY.has('scroll') ? VIEWERS : []) {
      const scroll = await measureScroll(stack.url, viewer);
      const v = viewerNote(viewer);
      figures.push({ figure: `ads loaded by scrolling /library${v}`, value: scroll.loaded, unit: 'ads', budget: { kind: 'min', value: SCROLL_ADS }, note: `${scroll.seconds.toFixed(0)} s` });
      figures.push({ figure: `card elements in the DOM after ${SCROLL_ADS.toLocaleString('en-US')} ads${v}`, value: scroll.cardsInDom, unit: 'cards', budget: { kind: 'max', value: 100 } });
      figures.push({ figure: `longest task while scrolling${v}`, value: Math.round(scroll.longestTask), unit: 'ms', budget: { kind: 'max', value: 50 } });
      log(`  measured scrolling${v}`);
    }

    if (ONLY.has('video') && VIDEOS === 'kept') {
      const hover = await measureVideoHover(stack.url);
      if (hover) {
        figures.push({
          figure: 'video card: pointer in to first frame playing, 1440 px, subscriber',
          value: Math.round(hover.toPlayingMs),
          unit: 'ms',
          budget: { kind: 'max', value: 1000 },
          note: `${Math.round(hover.videoBytes / 1024)} KB of video for ${(hover.durationMs / 1000).toFixed(1)} s`,
        });
        log('  measured a video card playing on hover, subscriber');
      } else {
        log('  no clear video card on the first page: hover not measured');
      }
    }

    // A premium ad, clear to the subscriber only.
    const premiumAdId = (await stack.db.query<{ id: string }>(`select id::text from public.ads where not is_black_friday and requires_subscription order by created_at desc limit 1`)).rows[0]!.id;
    for (const viewport of ONLY.has('ad') ? VIEWPORTS.filter((entry) => entry.scale === 1) : []) {
      const ad = await measureAdPage(stack.url, premiumAdId, viewport, 'subscriber');
      figures.push({
        figure: `/ads/:id LCP, ${viewport.name}, subscriber`,
        value: Math.round(ad.lcp),
        unit: 'ms',
        ...(viewport.width === 1440 ? { budget: { kind: 'max' as const, value: 1500 } } : {}),
        note: `${Math.round(ad.imageBytes / 1024)} KB of images, ${ad.originals} originals`,
      });
      log(`  measured the ad page at ${viewport.name}, subscriber`);
    }

    if (ONLY.has('filter')) {
      const brands = (await stack.db.query<{ id: string; name: string }>(`select b.id::text, b.name from public.brands b where exists (select 1 from public.ads a where a.brand_id = b.id and not a.is_black_friday) order by b.name limit $1`, [FILTER_RUNS])).rows;
      const filterTimes = await measureFilterChange(stack.url, brands);
      figures.push({ figure: 'filter change to first row painted (median)', value: Math.round(median(filterTimes)), unit: 'ms', budget: { kind: 'max', value: 300 }, note: `max ${Math.round(Math.max(...filterTimes))} ms of ${filterTimes.length}` });
      log('  measured filter changes');
    }

    const adId = (await stack.db.query<{ id: string }>(`select id::text from public.ads where not is_black_friday and not requires_subscription order by created_at desc limit 1`)).rows[0]!.id;
    for (const [route, signIn] of !ONLY.has('lighthouse') ? [] :  [['/library', false], [`/ads/${adId}`, false], ['/black-friday', true]] as const) {
      for (const formFactor of ['desktop', 'mobile'] as const) {
        const score = await runLighthouse(stack.url, route, formFactor, signIn);
        const name = route.startsWith('/ads/') ? '/ads/:id' : route;
        figures.push({ figure: `Lighthouse performance ${name}, ${formFactor}`, value: score.score, unit: '', budget: { kind: 'min', value: formFactor === 'desktop' ? 95 : 90 }, note: `LCP ${score.lcpMs === null ? '?' : Math.round(score.lcpMs)} ms, CLS ${score.cls?.toFixed(3) ?? '?'}` });
        log(`  Lighthouse ${name} ${formFactor}: ${score.score}`);
      }
    }
  } finally {
    await stack?.close();
    if (!REUSE) {
      await admin.exec(`drop database if exists ${DATABASE} with (force)`);
      await rm(dataDir, { recursive: true, force: true });
    }
    await admin.close();
  }

  const machine = machineDescription();
  log('');
  log(`Page benchmarks (${machine})`);
  for (const figure of figures) {
    const pass = passOf(figure);
    const budget = budgetText(figure.budget, figure.unit);
    log(`${figure.figure.padEnd(52)} ${`${figure.value ?? '?'} ${figure.unit}`.padEnd(14)} ${budget.padEnd(14)} ${pass === null ? '' : pass ? 'pass' : 'FAIL'}  ${figure.note ?? ''}`);
  }
  writeResults({ bench: 'pages', machine, figures });
}

await main();
