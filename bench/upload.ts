import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import sharp from 'sharp';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/support/chromium.ts';
import { signIn } from '../e2e/support/signed-in.ts';
import { DEMO_ACCOUNTS, seedDemoAccounts } from '../local/seed/demo-accounts.ts';
import { buildSpa, spaNeedsBuild } from '../local/spa-build.ts';
import { projectRoot, startLocalStack, type LocalStack } from '../local/stack.ts';
import { machineDescription, writeResults } from './results.ts';

/**
 * `npm run bench:upload`: the real /admin page in Chromium uploads
 * BENCH_UPLOAD_COUNT (100) generated 1080×1350 JPEGs to a fresh local stack,
 * as the admin would: choose the files, set brand and category, Upload all,
 * wait for 'Upload finished'. Prints images per second (from the click to the
 * toast: variants, thumbhash, four uploads and the row per image) and the
 * tab's peak memory: the renderer process's peak resident set (VmHWM) and the
 * highest JS heap seen. Checks that every image became an ad with its four
 * objects and nothing else was stored.
 */
const COUNT = Number(process.env.BENCH_UPLOAD_COUNT ?? 100);
const WIDTH = 1080;
const HEIGHT = 1350;
const MiB = 1024 * 1024;

/** A photo-like creative: a diagonal colour gradient with grain, so the JPEG is as heavy as a real ad's. */
async function creative(index: number): Promise<Buffer> {
  const pixels = Buffer.alloc(WIDTH * HEIGHT * 3);
  const hue = (index * 47) % 360;
  const base = [Math.abs(Math.sin((hue * Math.PI) / 180)), Math.abs(Math.cos((hue * Math.PI) / 180)), ((index * 13) % 100) / 100];
  let seed = index * 2654435761;
  for (let y = 0; y < HEIGHT; y += 1) {
    for (let x = 0; x < WIDTH; x += 1) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      const grain = (seed >>> 24) % 24;
      const t = (x + y) / (WIDTH + HEIGHT);
      const offset = (y * WIDTH + x) * 3;
      for (let c = 0; c < 3; c += 1) pixels[offset + c] = Math.min(255, Math.round(40 + 170 * (base[c]! * (1 - t) + (1 - base[c]!) * t)) + grain);
    }
  }
  return sharp(pixels, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } }).jpeg({ quality: 85 }).toBuffer();
}

/** Peak resident memory of the browser's renderer processes, from /proc (Linux). */
async function rendererPeakRss(browser: Browser): Promise<number | null> {
  const session = await browser.newBrowserCDPSession();
  const { processInfo } = (await session.send('SystemInfo.getProcessInfo')) as { processInfo: Array<{ type: string; id: number }> };
  let peak: number | null = null;
  for (const info of processInfo.filter((candidate) => candidate.type === 'renderer')) {
    const status = await readFile(`/proc/${info.id}/status`, 'utf8').catch(() => '');
    const kb = Number(status.match(/^VmHWM:\s+(\d+) kB/m)?.[1] ?? NaN);
    if (Number.isFinite(kb)) peak = Math.max(peak ?? 0, kb * 1024);
  }
  return peak;
}

async function main() {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'obyect-bench-upload-'));
  let stack: LocalStack | null = null;
  let browser: Browser | null = null;
  try {
    if (await spaNeedsBuild(projectRoot)) {
      console.log('Building the app…');
      await buildSpa(projectRoot);
    }
    console.log(`Generating ${COUNT} images of ${WIDTH}×${HEIGHT}…`);
    const files = [];
    for (let i = 0; i < COUNT; i += 1) files.push({ name: `creative-${String(i + 1).padStart(3, '0')}.jpg`, mimeType: 'image/jpeg', buffer: await creative(i) });
    const totalBytes = files.reduce((sum, file) => sum + file.buffer.length, 0);

    console.log('Starting a fresh local stack…');
    stack = await startLocalStack({ port: 0, env: { DATA_DIR: dataDir } });
    await seedDemoAccounts(stack.db);
    await stack.db.query(`insert into public.brands (name) values ('Bench Brand')`);
    await stack.db.query(`insert into public.categories (name) values ('Bench Category')`);

    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
    const context = await browser.newContext({ baseURL: stack.url, viewport: { width: 1440, height: 900 } });
    context.setDefaultTimeout(60_000);
    const page = await context.newPage();
    const admin = DEMO_ACCOUNTS.find((account) => account.role === 'admin')!;
    await signIn(page, stack, admin);
    await page.goto('/admin');
    const upload = page.getByRole('region', { name: 'Bulk upload' });
    await upload.waitFor();
    await upload.getByRole('option', { name: 'Bench Brand' }).waitFor({ state: 'attached' });
    await upload.getByRole('combobox', { name: 'Brand', exact: true }).selectOption({ label: 'Bench Brand' });
    await upload.getByRole('combobox', { name: 'Category', exact: true }).selectOption({ label: 'Bench Category' });
    await upload.locator('input[type="file"]').setInputFiles(files);
    await upload.locator('[data-testid="upload-item"]').nth(COUNT - 1).waitFor();

    const metrics = await context.newCDPSession(page);
    await metrics.send('Performance.enable');
    let peakHeap = 0;
    const sample = async () => {
      const { metrics: values } = (await metrics.send('Performance.getMetrics')) as { metrics: Array<{ name: string; value: number }> };
      peakHeap = Math.max(peakHeap, values.find((metric) => metric.name === 'JSHeapUsedSize')?.value ?? 0);
    };
    const sampler = setInterval(() => void sample().catch(() => {}), 250);

    console.log(`Uploading ${COUNT} images through /admin…`);
    const started = performance.now();
    await upload.getByRole('button', { name: 'Upload all' }).click();
    await page.getByText('Processed all files.').waitFor({ timeout: COUNT * 30_000 });
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    await sample();

    const done = await upload.locator('[data-testid="upload-item"][data-status="done"]').count();
    const peakRss = await rendererPeakRss(browser);
    const ads = (await stack.db.query<{ n: number }>('select count(*)::int as n from public.ads')).rows[0]!.n;
    const objects = (await stack.db.query<{ n: number }>(`select count(*)::int as n from storage.objects where bucket_id in ('ad-originals', 'ad-images')`)).rows[0]!.n;

    console.log('');
    console.log(`bench:upload on ${machineDescription()}`);
    console.log(`  ${COUNT} JPEGs of ${WIDTH}×${HEIGHT}, ${(totalBytes / MiB).toFixed(1)} MB in all (${Math.round(totalBytes / COUNT / 1024)} KB each on average)`);
    console.log(`  done: ${done}/${COUNT} items; ${ads} ads and ${objects} objects stored (expected ${COUNT} and ${COUNT * 4})`);
    console.log(`  time: ${seconds.toFixed(1)} s from 'Upload all' to 'Upload finished'`);
    console.log(`  rate: ${(COUNT / seconds).toFixed(2)} images per second`);
    console.log(`  tab peak memory: ${peakRss === null ? 'unknown' : `${(peakRss / MiB).toFixed(0)} MB`} (renderer peak RSS), JS heap peak ${(peakHeap / MiB).toFixed(0)} MB`);
    const complete = done === COUNT && ads === COUNT && objects === COUNT * 4;
    if (!complete) {
      console.error('FAIL: not every image became an ad with its four objects');
      process.exitCode = 1;
    }
    const note = `${COUNT} JPEGs of ${WIDTH}×${HEIGHT}${complete ? '' : '; not every image was stored'}`;
    writeResults({
      bench: 'bench:upload',
      machine: machineDescription(),
      figures: [
        { figure: 'admin upload rate', value: Number((COUNT / seconds).toFixed(2)), unit: 'images/s', pass: complete, note },
        { figure: 'admin upload tab peak memory (renderer RSS)', value: peakRss === null ? null : Math.round(peakRss / MiB), unit: 'MB', note },
        { figure: 'admin upload JS heap peak', value: Math.round(peakHeap / MiB), unit: 'MB', note },
      ],
    });
  } finally {
    await browser?.close().catch(() => {});
    await stack?.close().catch(() => {});
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
