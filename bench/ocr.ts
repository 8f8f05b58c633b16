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
 * state), how many of the words each creative draws were read back, and
 * how many of the words on its call-to-action button (2 letters or more).
 */
const COUNT = Math.max(2, Number(process.env.BENCH_OCR_COUNT ?? 8));

/** Words as search compares them: lower case, letters and digits only, `least` characters or more (3 by default). */
const wordsOf = (text: string, least = 3) =>
  text
    .toLowerCase()
    .split(/\s+/u)
    .map((word) => word.replace(/[^\p{L}\p{N}]/gu, ''))
    .filter((word) => word.length >= least);

const ENTITY = /&#(\d+);|&(amp|lt|gt|quot|apos);/g;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const attribute = (attributes: string, name: string) => attributes.match(new RegExp(`\\b${name}="([^"]*)"`))?.[1];

/**
 * The labels of a rendered creative's call-to-action buttons, read from its
 * SVG as render-creative.ts draws a button: a filled pill (a rect whose rx
 * is half its height) followed at once by its label, centred, at 1/2.5 of
 * the pill's height. The offer look's outlined pill (fill none) is not a button.
 */
function buttonLabels(svg: string): string[] {
  const labels: string[] = [];
  for (const match of svg.matchAll(/<rect\b([^>]*)\/><text\b([^>]*)>([^<]*)<\/text>/g)) {
    const [rect, text] = [match[1]!, match[2]!];
    const height = Number(attribute(rect, 'height'));
    const rx = Number(attribute(rect, 'rx'));
    const fill = attribute(rect, 'fill');
    const size = Number(attribute(text, 'font-size'));
    if (!fill || fill === 'none' || !(height > 0) || Math.abs(rx - height / 2) > 0.2) continue;
    if (attribute(text, 'text-anchor') !== 'middle' || Math.abs(size * 2.5 - height) > 0.5) continue;
    labels.push(match[3]!.replace(ENTITY, (_, code: string | undefined, name: string | undefined) => (code ? String.fromCharCode(Number(code)) : NAMED[name!]!)));
  }
  return labels;
}

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
    const drawn = new Map<string, { look: string; text: string; buttons: string }>();
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
      drawn.set(id, { look: plan.spec.look, text: drawnText(svg), buttons: buttonLabels(svg).join(' ') });
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
      const creative = drawn.get(row.id)!;
      const read = new Set(wordsOf(row.image_text ?? '', 2));
      const readBack = (words: string[]) => {
        const expected = [...new Set(words)];
        return { found: expected.filter((word) => read.has(word)).length, of: expected.length };
      };
      // The button's words, 2+ characters ("IT", "NOW"); those drawn nowhere else too, so no other copy of them can be what was read.
      const buttonWords = wordsOf(creative.buttons, 2);
      const others = wordsOf(creative.text, 2);
      for (const word of buttonWords) {
        const at = others.indexOf(word);
        if (at >= 0) others.splice(at, 1);
      }
      const elsewhere = new Set(others);
      return {
        look: creative.look,
        buttons: creative.buttons,
        ...readBack(wordsOf(creative.text)),
        short: readBack(wordsOf(creative.text, 2)),
        button: readBack(buttonWords),
        buttonOnly: readBack(buttonWords.filter((word) => !elsewhere.has(word))),
        missed: [...new Set(buttonWords)].filter((word) => !read.has(word)),
        unread: row.image_text === null,
      };
    });
    const total = (pick: (r: (typeof recalls)[number]) => { found: number; of: number }) => {
      const found = recalls.reduce((sum, r) => sum + pick(r).found, 0);
      const of = recalls.reduce((sum, r) => sum + pick(r).of, 0);
      return { found, of, share: of === 0 ? 0 : found / of, text: `${found} of ${of} (${of === 0 ? 0 : ((found / of) * 100).toFixed(0)}%)` };
    };
    const { found, of, share: recall } = total((r) => r);
    const short = total((r) => r.short);
    const button = total((r) => r.button);
    const buttonOnly = total((r) => r.buttonOnly);

    console.log('');
    console.log(`bench:ocr on ${machineDescription()}`);
    console.log(`  ${chosen.length} rendered demo creatives (960 display images), English model, headless Chromium`);
    console.log(`  first image: ${first.toFixed(2)} s (worker, engine and model loaded from the stack, then read)`);
    console.log(`  steady state: ${steady.toFixed(2)} s per image (fetch, read, store in batches)`);
    console.log(`  words drawn that were read back: ${found} of ${of} (${(recall * 100).toFixed(0)}%; words of 3+ letters or digits)`);
    console.log(`  with words of 2 letters or digits too: ${short.text}`);
    console.log(`  words of the call-to-action buttons read back: ${button.text}; of those drawn nowhere else: ${buttonOnly.text} (2+ letters or digits)`);
    for (const r of recalls) {
      const missed = r.missed.length > 0 ? `, missed ${r.missed.join(' ')}` : '';
      console.log(`    ${r.look.padEnd(13)} ${r.found}/${r.of}  button "${r.buttons}" ${r.button.found}/${r.button.of}${missed}${r.unread ? ' (not read)' : ''}`);
    }
    writeResults({
      bench: 'bench:ocr',
      machine: machineDescription(),
      figures: [
        { figure: 'OCR first image (with worker start)', value: Number(first.toFixed(2)), unit: 's', note: `${chosen.length} demo creatives` },
        { figure: 'OCR seconds per image (steady state)', value: Number(steady.toFixed(2)), unit: 's', note: `${chosen.length} demo creatives` },
        { figure: 'OCR words read back of those drawn', value: Math.round(recall * 100), unit: '%', note: `${found} of ${of}` },
        { figure: 'OCR button words read back (2+ letters)', value: Math.round(button.share * 100), unit: '%', note: `${button.found} of ${button.of}` },
      ],
    });
  } finally {
    await browser?.close().catch(() => {});
    await stack?.close().catch(() => {});
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
