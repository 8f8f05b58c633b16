import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { planDemoLibrary } from '../../../local/seed/demo-plan.ts';
import { renderCreativeSvg } from '../../../local/seed/render-creative.ts';
import {
  DOMINANT_COLOURS_MAX,
  fingerprintOfPixels,
  hashDistance,
  HISTOGRAM_BINS,
  histogramDistance,
  InvalidPixelsError,
  NEAR_DUPLICATE_BITS,
  type RgbaPixels,
  type VisualFingerprint,
} from '../../../src/lib/media/visual-fingerprint.ts';

const NOW = new Date('2026-11-22T09:00:00Z');
const RED = 0;
const ORANGE = 1;
const BLUE = 8;
const BLACK = 12;
const DARK_GREY = 13;
const LIGHT_GREY = 14;
const WHITE = 15;

/** A width × height image painted by colourAt(x, y) → [r, g, b, a]. */
function painted(width: number, height: number, colourAt: (x: number, y: number) => readonly number[]): RgbaPixels {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set(colourAt(x, y), (y * width + x) * 4);
  return { width, height, data };
}

const solid = (colour: readonly number[], width = 64, height = 64) => painted(width, height, () => colour);

async function decoded(file: Buffer): Promise<RgbaPixels> {
  const { data, info } = await sharp(file).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data };
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

describe('the visual fingerprint of an image', () => {
  let creative: Buffer;
  let original: VisualFingerprint;
  let others: VisualFingerprint[];

  beforeAll(async () => {
    const plans = planDemoLibrary(12, NOW);
    const rendered = await Promise.all(
      plans.map((plan) => sharp(Buffer.from(renderCreativeSvg(plan.spec, plan.renderRandom.fork('creative')))).removeAlpha().raw().toBuffer({ resolveWithObject: true })),
    );
    const raw = rendered[0]!;
    creative = await sharp(raw.data, { raw: { width: raw.info.width, height: raw.info.height, channels: 3 } }).png().toBuffer();
    original = fingerprintOfPixels(await decoded(creative));
    others = rendered.slice(1).map(({ data, info }) => fingerprintOfPixels(decoded3(data, info.width, info.height)));
  });

  function decoded3(rgb: Buffer, width: number, height: number): RgbaPixels {
    const data = new Uint8Array(width * height * 4);
    for (let i = 0, j = 0; i < rgb.length; i += 3, j += 4) {
      data[j] = rgb[i]!;
      data[j + 1] = rgb[i + 1]!;
      data[j + 2] = rgb[i + 2]!;
      data[j + 3] = 255;
    }
    return { width, height, data };
  }

  it('is a signed 64-bit decimal hash, 16 histogram shares that make 1 and at most 5 colours, the largest first', () => {
    expect(original.hash).toMatch(/^-?\d{1,19}$/);
    expect(BigInt.asIntN(64, BigInt(original.hash))).toBe(BigInt(original.hash));
    expect(original.histogram).toHaveLength(HISTOGRAM_BINS);
    expect(Math.abs(sum(original.histogram) - 1)).toBeLessThan(1e-4);
    for (const share of original.histogram) expect(Math.round(share * 10_000) / 10_000).toBe(share);
    expect(original.colours.length).toBeGreaterThan(0);
    expect(original.colours.length).toBeLessThanOrEqual(DOMINANT_COLOURS_MAX);
    for (const { hex, share } of original.colours) {
      expect(hex).toMatch(/^#[0-9a-f]{6}$/);
      expect(Math.round(share * 1000) / 1000).toBe(share);
    }
    const shares = original.colours.map((colour) => colour.share);
    expect(shares).toEqual([...shares].sort((a, b) => b - a));
  });

  it('stays within the near-duplicate distance for a resized, recompressed or slightly brightened copy', async () => {
    const { width } = await sharp(creative).metadata();
    // The histogram distance each change may move: brightening moves light greys towards white, by design.
    const copies = {
      resized: [await sharp(creative).resize({ width: Math.round(width * 0.6) }).png().toBuffer(), 0.02],
      recompressed: [await sharp(creative).jpeg({ quality: 60 }).toBuffer(), 0.05],
      brightened: [await sharp(creative).modulate({ brightness: 1.06 }).png().toBuffer(), 0.25],
    } as const;
    for (const [change, [file, histogramMove]] of Object.entries(copies)) {
      const copy = fingerprintOfPixels(await decoded(file));
      expect(hashDistance(copy.hash, original.hash), change).toBeLessThanOrEqual(NEAR_DUPLICATE_BITS);
      expect(histogramDistance(copy.histogram, original.histogram), change).toBeLessThan(histogramMove);
    }
  });

  it('puts clearly different images far apart', () => {
    for (const other of others) expect(hashDistance(other.hash, original.hash)).toBeGreaterThan(NEAR_DUPLICATE_BITS);
    const dark = { left: painted(256, 256, (x) => (x < 128 ? [0, 0, 0, 255] : [255, 255, 255, 255])), top: painted(256, 256, (_, y) => (y < 128 ? [0, 0, 0, 255] : [255, 255, 255, 255])) };
    expect(hashDistance(fingerprintOfPixels(dark.left).hash, fingerprintOfPixels(dark.top).hash)).toBeGreaterThan(3 * NEAR_DUPLICATE_BITS);
  });

  it('gives a pure red image all of the red bin and one colour, #ff0000', () => {
    const red = fingerprintOfPixels(solid([255, 0, 0, 255]));
    expect(red.histogram[RED]).toBe(1);
    expect(sum(red.histogram)).toBe(1);
    expect(red.colours).toEqual([{ hex: '#ff0000', share: 1 }]);
  });

  it('gives a pure white image all of the white bin', () => {
    const white = fingerprintOfPixels(solid([255, 255, 255, 255]));
    expect(white.histogram[WHITE]).toBe(1);
    expect(white.colours).toEqual([{ hex: '#ffffff', share: 1 }]);
  });

  it('shares a two-colour image between their bins and finds both colours with their shares', () => {
    const image = painted(128, 64, (x) => (x < 96 ? [0, 0, 255, 255] : [0, 0, 0, 255]));
    const { histogram, colours } = fingerprintOfPixels(image);
    expect(histogram[BLUE]).toBe(0.75);
    expect(histogram[BLACK]).toBe(0.25);
    expect(colours).toEqual([
      { hex: '#0000ff', share: 0.75 },
      { hex: '#000000', share: 0.25 },
    ]);
  });

  it('moves a share, not a whole image, between neighbouring bins when the colour shifts a little', () => {
    const between = fingerprintOfPixels(solid([255, 64, 0, 255])).histogram;
    const shifted = fingerprintOfPixels(solid([255, 72, 0, 255])).histogram;
    expect(between[RED]! + between[ORANGE]!).toBe(1);
    expect(between[RED]).toBeGreaterThan(0.4);
    expect(between[ORANGE]).toBeGreaterThan(0.4);
    expect(histogramDistance(between, shifted)).toBeLessThan(0.1);
    const grey = fingerprintOfPixels(solid([128, 128, 128, 255])).histogram;
    expect(grey[DARK_GREY]! + grey[LIGHT_GREY]!).toBe(1);
    expect(grey[DARK_GREY]).toBeGreaterThan(0.4);
  });

  it('rounds the histogram so that its shares make exactly 1', () => {
    const thirds = painted(96, 96, (x) => (x < 32 ? [255, 0, 0, 255] : x < 64 ? [0, 255, 0, 255] : [0, 0, 255, 255]));
    const { histogram } = fingerprintOfPixels(thirds);
    expect(Math.abs(sum(histogram) - 1)).toBeLessThan(1e-9);
    for (const { histogram: other } of others) expect(Math.abs(sum(other) - 1)).toBeLessThan(1e-4);
  });

  it('counts transparent parts as white', () => {
    expect(fingerprintOfPixels(solid([0, 0, 0, 0]))).toEqual(fingerprintOfPixels(solid([255, 255, 255, 255])));
    const halfBlack = fingerprintOfPixels(solid([0, 0, 0, 128]));
    expect(halfBlack.colours[0]!.hex).toBe('#7f7f7f');
  });

  it('reads a translucent pixel through its premultiplied byte, so a canvas round trip changes nothing', () => {
    // A canvas keeps round(200 × 3 / 255) = 2 and gives back round(2 × 255 / 3) = 170.
    const image = (red: number) => painted(64, 64, (x) => (x < 32 ? [red, 100, 50, 3] : [10, 20, 30, 255]));
    expect(fingerprintOfPixels(image(170))).toEqual(fingerprintOfPixels(image(200)));
  });

  it('is deterministic: the same pixels give the same fingerprint, whatever array holds them', () => {
    const image = painted(300, 200, (x, y) => [(x * 7) & 255, (y * 5) & 255, (x * y) & 255, 255]);
    const first = fingerprintOfPixels(image);
    expect(fingerprintOfPixels(image)).toEqual(first);
    expect(fingerprintOfPixels({ ...image, data: new Uint8Array(image.data) })).toEqual(first);
  });

  it('reads images smaller than its raster and very long ones', () => {
    expect(fingerprintOfPixels(solid([255, 0, 0, 255], 1, 1)).histogram[RED]).toBe(1);
    const strip = fingerprintOfPixels(painted(3, 2000, (_, y) => (y < 1000 ? [255, 255, 255, 255] : [0, 0, 0, 255])));
    expect(strip.histogram[WHITE]).toBe(0.5);
    expect(strip.histogram[BLACK]).toBe(0.5);
  });

  it('rejects what is not RGBA pixels', () => {
    const bad = [
      { width: 0, height: 10, data: new Uint8Array(0) },
      { width: 2.5, height: 2, data: new Uint8Array(20) },
      { width: 4, height: 4, data: new Uint8Array(4 * 4 * 3) },
      { width: 4, height: 4, data: Array.from({ length: 64 }, () => 0) as unknown as Uint8Array },
    ];
    for (const pixels of bad) expect(() => fingerprintOfPixels(pixels)).toThrow(InvalidPixelsError);
  });
});

describe('the distances between fingerprints', () => {
  it('counts the bits two hashes differ in, negative ones included', () => {
    expect(hashDistance('0', '0')).toBe(0);
    expect(hashDistance('0', '-1')).toBe(64);
    expect(hashDistance('-9223372036854775808', '0')).toBe(1);
    expect(hashDistance('5', '3')).toBe(2);
  });

  it('measures histograms by Euclidean distance', () => {
    const a = Array.from({ length: HISTOGRAM_BINS }, (_, i) => (i === 0 ? 1 : 0));
    const b = Array.from({ length: HISTOGRAM_BINS }, (_, i) => (i === 15 ? 1 : 0));
    expect(histogramDistance(a, b)).toBeCloseTo(Math.SQRT2, 12);
    expect(histogramDistance(a, a)).toBe(0);
  });
});
