import os from 'node:os';
import sharp, { type OutputInfo } from 'sharp';
import { fingerprintWithSharp } from '../local/media/fingerprint-with-sharp.ts';
import { planDemoLibrary, type AdPlan } from '../local/seed/demo-plan.ts';
import { renderCreativeSvg } from '../local/seed/render-creative.ts';
import {
  fingerprintOfPixels,
  hashDistance,
  histogramDistance,
  NEAR_DUPLICATE_BITS,
  NEAR_DUPLICATE_COLOUR_DISTANCE,
  type VisualFingerprint,
} from '../src/lib/media/visual-fingerprint.ts';

/**
 * `npm run bench:fingerprints`: how well the visual fingerprint
 * (src/lib/media/visual-fingerprint.ts) finds a creative again. From
 * BENCH_FINGERPRINT_COUNT (200) demo creatives, rendered and stored as the
 * seeder stores originals (JPEG quality 85), it makes changed copies (scaled
 * to 50%, JPEG quality 60, brightness +8%, 2% cropped off each side, the 960
 * display WebP the fingerprint backfill reads, a white border of 2%, another call to action, another headline) and prints
 * per change the hash distance to the original (p50, p95, max) and the share
 * within NEAR_DUPLICATE_BITS; how many pairs of different creatives fall within
 * it; the share of copies whose original is among the 12 nearest originals by
 * colour histogram; the time fingerprintWithSharp takes per original and the
 * time of the pure function on 4000 × 5000 pixels.
 */
const COUNT = Math.max(20, Number(process.env.BENCH_FINGERPRINT_COUNT ?? 200));
const NOW = new Date('2026-11-22T09:00:00Z');
const ORIGINAL_QUALITY = 85;
/** The seeder's and the upload's display variants' WebP quality. */
const DISPLAY_QUALITY = 72;
const RANKED = 12;
/** The product's near-duplicate rule measured beside the hash alone: the colour histograms must be this close too. */
const HISTOGRAM_CLOSE = NEAR_DUPLICATE_COLOUR_DISTANCE;

type Raw = { data: Buffer; info: OutputInfo };

const rawInput = ({ info }: Raw) => ({ raw: { width: info.width, height: info.height, channels: info.channels as 3 | 4 } });
const jpeg = (raw: Raw, quality = ORIGINAL_QUALITY) => sharp(raw.data, rawInput(raw)).jpeg({ quality }).toBuffer();

async function rasterised(svg: string): Promise<Raw> {
  return sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
}

/** The changes a re-posted creative goes through, each from the original's pixels. */
const CHANGES: { name: string; make: (raw: Raw, plan: AdPlan, other: AdPlan) => Promise<Buffer> }[] = [
  { name: 'scaled to 50%', make: (raw) => sharp(raw.data, rawInput(raw)).resize({ width: Math.round(raw.info.width / 2) }).jpeg({ quality: ORIGINAL_QUALITY }).toBuffer() },
  { name: 'JPEG quality 60', make: (raw) => jpeg(raw, 60) },
  { name: 'brightness +8%', make: (raw) => sharp(raw.data, rawInput(raw)).modulate({ brightness: 1.08 }).jpeg({ quality: ORIGINAL_QUALITY }).toBuffer() },
  {
    name: 'cropped 4%',
    make: (raw) => {
      const left = Math.round(raw.info.width * 0.02);
      const top = Math.round(raw.info.height * 0.02);
      return sharp(raw.data, rawInput(raw))
        .extract({ left, top, width: raw.info.width - 2 * left, height: raw.info.height - 2 * top })
        .jpeg({ quality: ORIGINAL_QUALITY })
        .toBuffer();
    },
  },
  {
    // What the admin's fingerprint backfill reads (admin_ads_without_fingerprint): the 960 display WebP, not the original.
    name: '960 display WebP',
    make: (raw) => sharp(raw.data, rawInput(raw)).resize({ width: 960, withoutEnlargement: true }).webp({ quality: DISPLAY_QUALITY, effort: 2 }).toBuffer(),
  },
  {
    name: 'white border 2%',
    make: (raw) => {
      const border = Math.round(Math.min(raw.info.width, raw.info.height) * 0.02);
      return sharp(raw.data, rawInput(raw))
        .extend({ top: border, bottom: border, left: border, right: border, background: '#ffffff' })
        .jpeg({ quality: ORIGINAL_QUALITY })
        .toBuffer();
    },
  },
  {
    name: 'call to action changed',
    make: async (_raw, plan, other) => {
      const cta = other.spec.cta !== plan.spec.cta ? other.spec.cta : `${plan.spec.cta} Today`;
      return jpeg(await rasterised(renderCreativeSvg({ ...plan.spec, cta }, plan.renderRandom.fork('creative'))));
    },
  },
  {
    name: 'headline changed',
    make: async (_raw, plan, other) => {
      const headline = other.spec.headline !== plan.spec.headline ? other.spec.headline : `${plan.spec.headline} Today`;
      return jpeg(await rasterised(renderCreativeSvg({ ...plan.spec, headline }, plan.renderRandom.fork('creative'))));
    },
  },
];

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const percent = (part: number, whole: number, digits = 1) => `${((100 * part) / whole).toFixed(digits)}%`;

function table(header: string[], rows: (string | number)[][]) {
  const cells = [header, ...rows.map((row) => row.map(String))];
  const widths = header.map((_, column) => Math.max(...cells.map((row) => row[column]!.length)));
  const line = (row: string[]) => row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ');
  console.log(line(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of cells.slice(1)) console.log(line(row));
}

async function main() {
  sharp.concurrency(1);
  // The planned near-duplicates (demo-plan.ts) are left out: every creative here is a different ad.
  const plans = planDemoLibrary(COUNT + 10, NOW)
    .filter((plan) => !plan.nearDuplicateOf)
    .slice(0, COUNT);
  console.log(`Rendering ${COUNT} demo creatives and ${CHANGES.length} changed copies of each…`);
  const originals: VisualFingerprint[] = [];
  const copies: VisualFingerprint[][] = CHANGES.map(() => []);
  const originalFiles: Buffer[] = [];
  for (const [index, plan] of plans.entries()) {
    const raw = await rasterised(renderCreativeSvg(plan.spec, plan.renderRandom.fork('creative')));
    const file = await jpeg(raw);
    originalFiles.push(file);
    originals.push(await fingerprintWithSharp(file));
    for (const [change, { make }] of CHANGES.entries()) copies[change]!.push(await fingerprintWithSharp(await make(raw, plan, plans[(index + 1) % plans.length]!)));
    if ((index + 1) % 50 === 0) console.log(`  ${index + 1} of ${COUNT}`);
  }

  // Timing: decode and fingerprint each original again, after the warm-up above.
  const decodeStarted = performance.now();
  for (const file of originalFiles) await fingerprintWithSharp(file);
  const perImage = (performance.now() - decodeStarted) / originalFiles.length;
  const decoded = await Promise.all(originalFiles.slice(0, 20).map((file) => sharp(file).ensureAlpha().raw().toBuffer({ resolveWithObject: true })));
  const pureStarted = performance.now();
  for (let round = 0; round < 5; round++) for (const { data, info } of decoded) fingerprintOfPixels({ width: info.width, height: info.height, data });
  const pure = (performance.now() - pureStarted) / (5 * decoded.length);
  const large = { width: 4000, height: 5000, data: new Uint8Array(4000 * 5000 * 4) };
  for (let i = 0; i < large.data.length; i++) large.data[i] = Math.imul(i, 2654435761) >>> 24;
  const largeTimes: number[] = [];
  for (let round = 0; round < 10; round++) {
    const started = performance.now();
    fingerprintOfPixels(large);
    largeTimes.push(performance.now() - started);
  }
  largeTimes.sort((a, b) => a - b);

  console.log(`\nHash distance of each changed copy to its original (64 bits; near-duplicate at <= ${NEAR_DUPLICATE_BITS}), and where the original ranks among ${COUNT} by colour histogram:\n`);
  table(
    ['change', 'p50', 'p95', 'max', `recall <= ${NEAR_DUPLICATE_BITS} bits`, `and histogram <= ${HISTOGRAM_CLOSE}`, `histogram recall@${RANKED}`],
    CHANGES.map(({ name }, change) => {
      const distances = copies[change]!.map((copy, index) => hashDistance(copy.hash, originals[index]!.hash)).sort((a, b) => a - b);
      const found = distances.filter((distance) => distance <= NEAR_DUPLICATE_BITS).length;
      const foundWithColour = copies[change]!.filter(
        (copy, index) => hashDistance(copy.hash, originals[index]!.hash) <= NEAR_DUPLICATE_BITS && histogramDistance(copy.histogram, originals[index]!.histogram) <= HISTOGRAM_CLOSE,
      ).length;
      const ranked = copies[change]!.filter((copy, index) => {
        const own = histogramDistance(copy.histogram, originals[index]!.histogram);
        // Ties count against the original: it must be strictly among the nearest 12.
        const closer = originals.filter((original, other) => other !== index && histogramDistance(copy.histogram, original.histogram) <= own).length;
        return closer < RANKED;
      }).length;
      return [name, percentile(distances, 50), percentile(distances, 95), distances.at(-1)!, percent(found, distances.length), percent(foundWithColour, COUNT), percent(ranked, COUNT)];
    }),
  );

  const pairs: number[] = [];
  let falseWithColour = 0;
  let repeats = 0;
  for (let a = 0; a < originals.length; a++) {
    for (let b = a + 1; b < originals.length; b++) {
      // The plan now and then draws one brand's same look, product and headline twice: the same creative, not a false match.
      const [x, y] = [plans[a]!.spec, plans[b]!.spec];
      if (x.brand === y.brand && x.look === y.look && x.product === y.product && x.headline === y.headline && x.width === y.width && x.height === y.height) {
        repeats++;
        continue;
      }
      const distance = hashDistance(originals[a]!.hash, originals[b]!.hash);
      pairs.push(distance);
      if (distance <= NEAR_DUPLICATE_BITS && histogramDistance(originals[a]!.histogram, originals[b]!.histogram) <= HISTOGRAM_CLOSE) falseWithColour++;
    }
  }
  pairs.sort((x, y) => x - y);
  const falseDuplicates = pairs.filter((distance) => distance <= NEAR_DUPLICATE_BITS).length;
  console.log(
    `\nPairs of different creatives: ${pairs.length} (left out: ${repeats} drawn alike by the plan); within ${NEAR_DUPLICATE_BITS} bits: ${falseDuplicates} (${percent(falseDuplicates, pairs.length, 2)}); ` +
      `and histograms within ${HISTOGRAM_CLOSE}: ${falseWithColour} (${percent(falseWithColour, pairs.length, 2)}); distance min ${pairs[0]}, p1 ${percentile(pairs, 1)}, p50 ${percentile(pairs, 50)}`,
  );
  console.log(`fingerprintWithSharp per original (JPEG decode included, sizes up to 1200 x 1200 and 1080 x 1920): ${perImage.toFixed(1)} ms`);
  console.log(`fingerprintOfPixels alone on decoded originals: ${pure.toFixed(2)} ms`);
  console.log(`fingerprintOfPixels on 4000 x 5000 pixels: median ${percentile(largeTimes, 50).toFixed(1)} ms, fastest ${largeTimes[0]!.toFixed(1)} ms (10 runs)`);
  console.log(`Machine: ${os.cpus().length} cores, load average ${os.loadavg().map((load) => load.toFixed(1)).join(' ')}`);
}

await main();
