import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/support/chromium.ts';
import { signIn } from '../e2e/support/signed-in.ts';
import { DEMO_ACCOUNTS, seedDemoAccounts } from '../local/seed/demo-accounts.ts';
import { planDemoLibrary } from '../local/seed/demo-plan.ts';
import { drawnText, renderCreativeSvg } from '../local/seed/render-creative.ts';
import { renderAdImages } from '../local/seed/seed-demo.ts';
import { buildSpa, spaNeedsBuild } from '../local/spa-build.ts';
import { projectRoot, startLocalStack, type LocalStack } from '../local/stack.ts';
import { machineDescription, writeResults } from './results.ts';

/**
 * `npm run bench:ocr`: the admin's OCR (src/lib/media/read-image-text.ts), as
 * the real /admin page runs it in headless Chromium through "Read text in
 * images", on BENCH_OCR_COUNT (8) rendered demo creatives stored without
 * text. Prints the seconds of the first image (worker, engine and model
 * loaded from the stack, then read) and of each following one (steady
 * state), and how many of the words each creative draws were read back.
 */
const COUNT = Math.max(2, Number(process.env.BENCH_OCR_COUNT ?? 8));

/** Words as search compares them: lower case, letters and digits only, 3 characters or more. */
const wordsOf = (text: string) =>
  text
    .toLowerCase()
    .split(/\s+/u)
    .map((word) => word.replace(/[^\p{L}\p{N}]/gu, ''))
    .filter((word) => word.length >= 3);

async function main() {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'obyect-bench-ocr-'));
  let stack: LocalStack | null = null;
  let browser: Browser | null = null;
  try {
    if (await spaNeedsBuild(projectRoot)) {
      console.log('Building the app…');
      await buildSpa(projectRoot);
    }
    console.log('Starting a fresh local stack…');
    stack = await startLocalStack({ port: 0, env: { DATA_DIR: dataDir } });
    await seedDemoAccounts(stack.db);
    const one = async (sql: string, params: unknown[] = []) => (await stack!.db.query<{ id: string }>(sql, params)).rows[0]!.id;
    const brandId = await one(`insert into public.brands (name) values ('Bench Brand') returning id`);
    const categoryId = await one(`insert into public.categories (name) values ('Bench Category') returning id`);

    // Every look of the demo library, the first plans of each until COUNT.
    const plans = planDemoLibrary(200, new Date());
    const chosen: typeof plans = [];
    for (const plan of plans) {
      if (chosen.length >= COUNT) break;
      if (chosen.filter((other) => other.spec.look === plan.spec.look).length < Math.ceil(COUNT / 7)) chosen.push(plan);
    }
    console.log(`Rendering ${chosen.length} demo creatives…`);
    const drawn = new Map<string, { look: string; text: string }>();
    for (const [index, plan] of chosen.entries()) {
      const svg = renderCreativeSvg(plan.spec, plan.renderRandom.fork('creative'));
      const images = await renderAdImages(svg);
      const folder = randomBytes(16).toString('hex');
      const paths = { original: `${folder}/original.jpg`, d480: `${folder}/480.webp`, d960: `${folder}/960.webp`, preview: `previews/${randomBytes(16).toString('hex')}.webp` };
      await stack.storage.writeObject('ad-originals', paths.original, images.original, 'image/jpeg');
      await stack.storage.writeObject('ad-images', paths.d480, images.display480, 'image/webp');
      await stack.storage.writeObject('ad-images', paths.d960, images.display960, 'image/webp');
      await stack.storage.writeObject('ad-images', paths.preview, images.preview, 'image/webp');
      const id = await one(
        `insert into public.ads (brand_id, category_id, created_at, original_path, display_480_path, display_960_path, preview_path, width, height, thumbhash)
         values ($1, $2, now() - make_interval(mins => $3), $4, $5, $6, $7, $8, $9, $10) returning id`,
        [brandId, categoryId, index, paths.original, paths.d480, paths.d960, paths.preview, plan.spec.width, plan.spec.height, images.thumbhash],
      );
      drawn.set(id, { look: plan.spec.look, text: drawnText(svg) });
    }

    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
    const context = await browser.newContext({ baseURL: stack.url, viewport: { width: 1440, height: 900 } });
    context.setDefaultTimeout(60_000);
    const page = await context.newPage();
    await signIn(page, stack, DEMO_ACCOUNTS.find((account) => account.role === 'admin')!);
    await page.goto('/admin');
    const card = page.getByRole('region', { name: 'Read text in images' });
    await card.waitFor();

    console.log(`Reading ${chosen.length} images in Chromium…`);
    // The time each image is counted done, seen from the page itself.
    await card.evaluate((section) => {
      const marks: number[] = [];
      (window as unknown as { ocrMarks: number[] }).ocrMarks = marks;
      let last = '0';
      new MutationObserver(() => {
        const now = section.querySelector('[role="progressbar"]')?.getAttribute('aria-valuenow') ?? '0';
        if (now !== last) {
          last = now;
          marks.push(performance.now());
        }
      }).observe(section, { subtree: true, childList: true, attributes: true });
      section.querySelector('button')?.addEventListener('click', () => marks.unshift(performance.now()), { once: true, capture: true });
    });
    await card.getByRole('button', { name: 'Read text in images' }).click();
    await card.getByText(/^Done: /).waitFor({ timeout: COUNT * 120_000 });
    const marks = await page.evaluate(() => (window as unknown as { ocrMarks: number[] }).ocrMarks);
    const first = (marks[1]! - marks[0]!) / 1000;
    const steady = (marks.at(-1)! - marks[1]!) / 1000 / (marks.length - 2);

    const { rows } = await stack.db.query<{ id: string; image_text: string | null }>('select id, image_text from public.ads where brand_id = $1', [brandId]);
    const recalls = rows.map((row) => {
      const expected = [...new Set(wordsOf(drawn.get(row.id)!.text))];
      const read = new Set(wordsOf(row.image_text ?? ''));
      return { look: drawn.get(row.id)!.look, found: expected.filter((word) => read.has(word)).length, of: expected.length, unread: row.image_text === null };
    });
    const found = recalls.reduce((sum, r) => sum + r.found, 0);
    const of = recalls.reduce((sum, r) => sum + r.of, 0);
    const recall = of === 0 ? 0 : found / of;

    console.log('');
    console.log(`bench:ocr on ${machineDescription()}`);
    console.log(`  ${chosen.length} rendered demo creatives (960 display images), English model, headless Chromium`);
    console.log(`  first image: ${first.toFixed(2)} s (worker, engine and model loaded from the stack, then read)`);
    console.log(`  steady state: ${steady.toFixed(2)} s per image (fetch, read, store in batches)`);
    console.log(`  words drawn that were read back: ${found} of ${of} (${(recall * 100).toFixed(0)}%; words of 3+ letters or digits)`);
    for (const r of recalls) console.log(`    ${r.look.padEnd(13)} ${r.found}/${r.of}${r.unread ? ' (not read)' : ''}`);
    writeResults({
      bench: 'bench:ocr',
      machine: machineDescription(),
      figures: [
        { figure: 'OCR first image (with worker start)', value: Number(first.toFixed(2)), unit: 's', note: `${chosen.length} demo creatives` },
        { figure: 'OCR seconds per image (steady state)', value: Number(steady.toFixed(2)), unit: 's', note: `${chosen.length} demo creatives` },
        { figure: 'OCR words read back of those drawn', value: Math.round(recall * 100), unit: '%', note: `${found} of ${of}` },
      ],
    });
  } finally {
    await browser?.close().catch(() => {});
    await stack?.close().catch(() => {});
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
