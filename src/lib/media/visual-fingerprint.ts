/**
 * An ad image's visual fingerprint, as it is stored with the ad
 * (public.ads.visual_hash, colour_histogram, dominant_colours) and used to find
 * near-duplicates, similar ads and ads of a colour (docs/decisions/0038).
 */
export interface VisualFingerprint {
  /** The 64-bit perceptual hash, as the signed decimal of a Postgres bigint. */
  hash: string;
  /**
   * The share of the image in each of HISTOGRAM_BINS colour bins: twelve hues
   * 30° apart starting at red, then black, dark grey, light grey and white.
   * Each share is 0 to 1, rounded to 4 decimals; together they make 1.
   */
  histogram: number[];
  /** At most 5 colours, the largest share first: '#rrggbb' and its share, 0 to 1 rounded to 3 decimals. */
  colours: DominantColour[];
}

// A type, not an interface: it is sent as JSON (admin_set_fingerprints), and only a type alias fits Json.
export type DominantColour = {
  hex: string;
  share: number;
};

export const HISTOGRAM_BINS = 16;
export const DOMINANT_COLOURS_MAX = 5;
/**
 * Two images are near-duplicates when their hashes differ in at most NEAR_DUPLICATE_BITS of 64 bits and their
 * histograms are at most NEAR_DUPLICATE_COLOUR_DISTANCE apart (Euclidean): one layout in other colours shares a hash,
 * not its colours. The database applies the same rule (private.ads_near_hash).
 */
export const NEAR_DUPLICATE_BITS = 7;
export const NEAR_DUPLICATE_COLOUR_DISTANCE = 0.3;

/** Decoded pixels, 4 bytes a pixel (red, green, blue, alpha, not premultiplied), rows top to bottom, as ImageData holds them. */
export interface RgbaPixels {
  width: number;
  height: number;
  data: Uint8Array | Uint8ClampedArray;
}

export class InvalidPixelsError extends Error {
  constructor(reason: string) {
    super(`Not RGBA pixels: ${reason}`);
    this.name = 'InvalidPixelsError';
  }
}

/** The raster every measure is taken from: GRID × GRID cells, each the area average of its pixels. */
const GRID = 64;
/** The perceptual hash reads GRID / 2 squared lumas (each the average of 2 × 2 cells). */
const HASH_SIZE = 32;
/** The lowest HASH_FREQUENCIES × HASH_FREQUENCIES coefficients of the DCT make the 64 bits. */
const HASH_FREQUENCIES = 8;
const HUE_BINS = 12;
const GREY_LEVELS = 4;
/** Below this chroma (0 to 1) a colour is a grey; above CHROMATIC it is a hue; in between, a share of each. */
const GREY_CHROMA = 0.08;
const CHROMATIC_CHROMA = 0.2;
const HISTOGRAM_UNITS = 10_000;
const KMEANS_ROUNDS = 12;
/** Clusters smaller than this share of the image are not dominant colours. */
const COLOUR_MIN_SHARE = 0.01;
/** An axis of n × SAMPLE_SPAN pixels or more is read every n-th pixel (the same pixels on every side), keeping 4000 × 5000 under 30 ms. */
const SAMPLE_SPAN = 1024;

function validated({ width, height, data }: RgbaPixels) {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new InvalidPixelsError(`width and height must be positive integers (got ${width} × ${height})`);
  }
  if (!(data instanceof Uint8Array || data instanceof Uint8ClampedArray)) throw new InvalidPixelsError('data must be a Uint8Array or Uint8ClampedArray');
  if (data.length !== width * height * 4) throw new InvalidPixelsError(`data holds ${data.length} bytes where ${width} × ${height} RGBA pixels take ${width * height * 4}`);
  return { width, height, data };
}

/**
 * The positions read along an axis, `stride` apart, and the cell each falls
 * in; an axis shorter than GRID repeats its pixels, one per cell.
 */
function axisCells(size: number, stride: number): { positions: Int32Array; cells: Int32Array } {
  if (size < GRID) {
    const positions = new Int32Array(GRID);
    const cells = new Int32Array(GRID);
    for (let cell = 0; cell < GRID; cell++) {
      positions[cell] = Math.floor((cell * size) / GRID);
      cells[cell] = cell;
    }
    return { positions, cells };
  }
  const count = Math.ceil(size / stride);
  const positions = new Int32Array(count);
  const cells = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    const position = i * stride;
    positions[i] = position;
    cells[i] = Math.floor((position * GRID) / size);
  }
  return { positions, cells };
}

/**
 * The GRID × GRID raster: each cell's red, green and blue sums (composited
 * over white, exact integers) and its pixel count.
 */
function boxRaster({ width, height, data }: RgbaPixels) {
  const strideX = Math.max(1, Math.floor(width / SAMPLE_SPAN));
  const strideY = Math.max(1, Math.floor(height / SAMPLE_SPAN));
  const columns = axisCells(width, strideX);
  const rows = axisCells(height, strideY);
  const red = new Float64Array(GRID * GRID);
  const green = new Float64Array(GRID * GRID);
  const blue = new Float64Array(GRID * GRID);
  const count = new Float64Array(GRID * GRID);
  // The columns as runs of samples in one cell: where each starts in a row (bytes), how many, which cell.
  const runStarts: number[] = [];
  const runLengths: number[] = [];
  const runCells: number[] = [];
  columns.cells.forEach((cell, i) => {
    if (runCells.length > 0 && runCells[runCells.length - 1] === cell) runLengths[runLengths.length - 1]! += 1;
    else {
      runStarts.push(columns.positions[i]! * 4);
      runLengths.push(1);
      runCells.push(cell);
    }
  });
  const step = strideX * 4;
  for (let row = 0; row < rows.positions.length; row++) {
    const rowStart = rows.positions[row]! * width * 4;
    const cellRow = rows.cells[row]! * GRID;
    for (let run = 0; run < runCells.length; run++) {
      // One cell's run of samples, summed in locals before they are stored.
      let r = 0;
      let g = 0;
      let b = 0;
      const n = runLengths[run]!;
      const end = rowStart + runStarts[run]! + n * step;
      for (let p = rowStart + runStarts[run]!; p < end; p += step) {
        const a = data[p + 3]!;
        if (a === 255) {
          r += data[p]!;
          g += data[p + 1]!;
          b += data[p + 2]!;
        } else {
          // Over white through the premultiplied value rounded to a byte, the one value a browser's canvas keeps.
          const over = 255 - a;
          r += (((data[p]! * a * 2 + 255) / 510) | 0) + over;
          g += (((data[p + 1]! * a * 2 + 255) / 510) | 0) + over;
          b += (((data[p + 2]! * a * 2 + 255) / 510) | 0) + over;
        }
      }
      const cell = cellRow + runCells[run]!;
      red[cell]! += r;
      green[cell]! += g;
      blue[cell]! += b;
      count[cell]! += n;
    }
  }
  return { red, green, blue, count };
}

type Raster = ReturnType<typeof boxRaster>;

/** Cell means, 0 to 255. */
function cellColours(raster: Raster) {
  const cells = GRID * GRID;
  const r = new Float64Array(cells);
  const g = new Float64Array(cells);
  const b = new Float64Array(cells);
  const weight = new Float64Array(cells);
  let total = 0;
  for (let cell = 0; cell < cells; cell++) total += raster.count[cell]!;
  for (let cell = 0; cell < cells; cell++) {
    const n = raster.count[cell]!;
    r[cell] = raster.red[cell]! / n;
    g[cell] = raster.green[cell]! / n;
    b[cell] = raster.blue[cell]! / n;
    weight[cell] = raster.count[cell]! / total;
  }
  return { r, g, b, weight };
}

type Colours = ReturnType<typeof cellColours>;

const luma = (r: number, g: number, b: number) => 0.299 * r + 0.587 * g + 0.114 * b;

/** DCT-II basis: DCT_BASIS[u * HASH_SIZE + x] = cos((2x + 1) u π / 2N). */
const DCT_BASIS = (() => {
  const basis = new Float64Array(HASH_FREQUENCIES * HASH_SIZE);
  for (let u = 0; u < HASH_FREQUENCIES; u++) {
    for (let x = 0; x < HASH_SIZE; x++) basis[u * HASH_SIZE + x] = Math.cos(((2 * x + 1) * u * Math.PI) / (2 * HASH_SIZE));
  }
  return basis;
})();

/**
 * The 64-bit perceptual hash: 32 × 32 lumas (each the average of 2 × 2 raster
 * cells), their 2-D DCT-II, the 8 × 8 lowest frequencies with the DC term in,
 * one bit per coefficient (row by row, most significant first): 1 when it is
 * above the median of the 64. The DC term is above it for any image that is
 * not black, so 63 bits carry the picture.
 */
function perceptualHash(raster: Raster): string {
  const lumas = new Float64Array(HASH_SIZE * HASH_SIZE);
  for (let y = 0; y < HASH_SIZE; y++) {
    for (let x = 0; x < HASH_SIZE; x++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let n = 0;
      for (const cell of [2 * y * GRID + 2 * x, 2 * y * GRID + 2 * x + 1, (2 * y + 1) * GRID + 2 * x, (2 * y + 1) * GRID + 2 * x + 1]) {
        r += raster.red[cell]!;
        g += raster.green[cell]!;
        b += raster.blue[cell]!;
        n += raster.count[cell]!;
      }
      lumas[y * HASH_SIZE + x] = luma(r, g, b) / (n * 255);
    }
  }
  // Rows first (32 rows × 8 frequencies), then columns (8 × 8); scale factors do not move the median.
  const rowsDone = new Float64Array(HASH_SIZE * HASH_FREQUENCIES);
  for (let y = 0; y < HASH_SIZE; y++) {
    for (let u = 0; u < HASH_FREQUENCIES; u++) {
      let sum = 0;
      for (let x = 0; x < HASH_SIZE; x++) sum += lumas[y * HASH_SIZE + x]! * DCT_BASIS[u * HASH_SIZE + x]!;
      rowsDone[y * HASH_FREQUENCIES + u] = sum;
    }
  }
  const coefficients = new Float64Array(HASH_FREQUENCIES * HASH_FREQUENCIES);
  for (let v = 0; v < HASH_FREQUENCIES; v++) {
    for (let u = 0; u < HASH_FREQUENCIES; u++) {
      let sum = 0;
      for (let y = 0; y < HASH_SIZE; y++) sum += rowsDone[y * HASH_FREQUENCIES + u]! * DCT_BASIS[v * HASH_SIZE + y]!;
      coefficients[v * HASH_FREQUENCIES + u] = sum;
    }
  }
  const sorted = Float64Array.from(coefficients).sort();
  const median = (sorted[31]! + sorted[32]!) / 2;
  let high = 0;
  let low = 0;
  for (let i = 0; i < 32; i++) {
    high = (high << 1) | (coefficients[i]! > median ? 1 : 0);
    low = (low << 1) | (coefficients[32 + i]! > median ? 1 : 0);
  }
  return BigInt.asIntN(64, (BigInt(high >>> 0) << 32n) | BigInt(low >>> 0)).toString();
}

/** Shares rounded to 1 / units that add up to exactly 1: largest remainders get the units left over (ties to the lower bin). */
function roundedShares(shares: Float64Array, units: number): number[] {
  const total = shares.reduce((sum, share) => sum + share, 0);
  const scaled = Array.from(shares, (share) => (share / total) * units);
  const floors = scaled.map(Math.floor);
  let left = units - floors.reduce((sum, n) => sum + n, 0);
  const order = scaled.map((value, index) => ({ index, remainder: value - floors[index]! })).sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  for (const { index } of order) {
    if (left <= 0) break;
    floors[index]! += 1;
    left -= 1;
  }
  return floors.map((n) => n / units);
}

/**
 * Each cell's colour shared between the two nearest of twelve hues (centred
 * at 0°, 30°, … from red) and, by its chroma, between the two nearest of
 * four greys (black, dark grey, light grey, white, by luma), so that a small
 * shift of colour moves a share rather than a whole cell.
 */
function colourHistogram(colours: Colours): number[] {
  const bins = new Float64Array(HISTOGRAM_BINS);
  for (let cell = 0; cell < colours.weight.length; cell++) {
    const weight = colours.weight[cell]!;
    if (weight === 0) continue;
    const r = colours.r[cell]! / 255;
    const g = colours.g[cell]! / 255;
    const b = colours.b[cell]! / 255;
    const max = Math.max(r, g, b);
    const min = Math.min(r, g, b);
    const chroma = max - min;
    const chromatic = Math.min(1, Math.max(0, (chroma - GREY_CHROMA) / (CHROMATIC_CHROMA - GREY_CHROMA)));
    if (chromatic > 0) {
      let hue: number;
      if (max === r) hue = (g - b) / chroma;
      else if (max === g) hue = (b - r) / chroma + 2;
      else hue = (r - g) / chroma + 4;
      const position = (((hue * 60) % 360) + 360) % 360 / (360 / HUE_BINS);
      const lower = Math.floor(position);
      const fraction = position - lower;
      bins[lower % HUE_BINS]! += weight * chromatic * (1 - fraction);
      bins[(lower + 1) % HUE_BINS]! += weight * chromatic * fraction;
    }
    if (chromatic < 1) {
      const level = luma(r, g, b) * (GREY_LEVELS - 1);
      const lower = Math.min(GREY_LEVELS - 2, Math.floor(level));
      const fraction = level - lower;
      bins[HUE_BINS + lower]! += weight * (1 - chromatic) * (1 - fraction);
      bins[HUE_BINS + lower + 1]! += weight * (1 - chromatic) * fraction;
    }
  }
  return roundedShares(bins, HISTOGRAM_UNITS);
}

const linear = (channel: number) => {
  const c = channel / 255;
  return c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
};
const labF = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : (t * 24389) / 27 / 116 + 16 / 116);

/** CIE L*a*b* (D65) of an sRGB colour, channels 0 to 255. */
function lab(r: number, g: number, b: number): [number, number, number] {
  const lr = linear(r);
  const lg = linear(g);
  const lb = linear(b);
  const fx = labF((0.4124 * lr + 0.3576 * lg + 0.1805 * lb) / 0.95047);
  const fy = labF(0.2126 * lr + 0.7152 * lg + 0.0722 * lb);
  const fz = labF((0.0193 * lr + 0.1192 * lg + 0.9505 * lb) / 1.08883);
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}

const hexByte = (value: number) => Math.min(255, Math.max(0, Math.round(value))).toString(16).padStart(2, '0');

/**
 * k-means (k = 5) of the raster's cells in L*a*b*, each cell weighted by its
 * area, started deterministically: the area-weighted mean first, then each
 * time the cell with the largest weight × squared distance to the centres so
 * far (none when every cell sits on a centre). A fixed number of rounds; a
 * colour is its cluster's mean sRGB.
 */
function dominantColours(colours: Colours): DominantColour[] {
  const cells = colours.weight.length;
  const weight = colours.weight;
  const L = new Float64Array(cells);
  const A = new Float64Array(cells);
  const B = new Float64Array(cells);
  const centreL = new Float64Array(DOMINANT_COLOURS_MAX);
  const centreA = new Float64Array(DOMINANT_COLOURS_MAX);
  const centreB = new Float64Array(DOMINANT_COLOURS_MAX);
  for (let cell = 0; cell < cells; cell++) {
    const [l, a, b] = lab(colours.r[cell]!, colours.g[cell]!, colours.b[cell]!);
    L[cell] = l;
    A[cell] = a;
    B[cell] = b;
    centreL[0]! += weight[cell]! * l;
    centreA[0]! += weight[cell]! * a;
    centreB[0]! += weight[cell]! * b;
  }
  let k = 1;
  const nearest = new Float64Array(cells).fill(Infinity);
  while (k < DOMINANT_COLOURS_MAX) {
    const l = centreL[k - 1]!;
    const a = centreA[k - 1]!;
    const b = centreB[k - 1]!;
    let best = -1;
    let bestScore = 0;
    for (let cell = 0; cell < cells; cell++) {
      const dl = L[cell]! - l;
      const da = A[cell]! - a;
      const db = B[cell]! - b;
      const d = dl * dl + da * da + db * db;
      if (d < nearest[cell]!) nearest[cell] = d;
      const score = weight[cell]! * nearest[cell]!;
      if (score > bestScore) {
        bestScore = score;
        best = cell;
      }
    }
    if (best < 0) break;
    centreL[k] = L[best]!;
    centreA[k] = A[best]!;
    centreB[k] = B[best]!;
    k++;
  }
  const assigned = new Int32Array(cells);
  const assign = () => {
    for (let cell = 0; cell < cells; cell++) {
      let choice = 0;
      let closest = Infinity;
      for (let c = 0; c < k; c++) {
        const dl = L[cell]! - centreL[c]!;
        const da = A[cell]! - centreA[c]!;
        const db = B[cell]! - centreB[c]!;
        const d = dl * dl + da * da + db * db;
        if (d < closest) {
          closest = d;
          choice = c;
        }
      }
      assigned[cell] = choice;
    }
  };
  const sumW = new Float64Array(k);
  const sumL = new Float64Array(k);
  const sumA = new Float64Array(k);
  const sumB = new Float64Array(k);
  for (let round = 0; round < KMEANS_ROUNDS; round++) {
    assign();
    sumW.fill(0);
    sumL.fill(0);
    sumA.fill(0);
    sumB.fill(0);
    for (let cell = 0; cell < cells; cell++) {
      const c = assigned[cell]!;
      const w = weight[cell]!;
      sumW[c]! += w;
      sumL[c]! += w * L[cell]!;
      sumA[c]! += w * A[cell]!;
      sumB[c]! += w * B[cell]!;
    }
    // An empty cluster keeps its centre; it is dropped at the end.
    for (let c = 0; c < k; c++) {
      if (sumW[c]! > 0) {
        centreL[c] = sumL[c]! / sumW[c]!;
        centreA[c] = sumA[c]! / sumW[c]!;
        centreB[c] = sumB[c]! / sumW[c]!;
      }
    }
  }
  assign();
  const clusters = Array.from({ length: k }, (_, index) => ({ index, share: 0, r: 0, g: 0, b: 0 }));
  for (let cell = 0; cell < cells; cell++) {
    const cluster = clusters[assigned[cell]!]!;
    const w = weight[cell]!;
    cluster.share += w;
    cluster.r += w * colours.r[cell]!;
    cluster.g += w * colours.g[cell]!;
    cluster.b += w * colours.b[cell]!;
  }
  return clusters
    .filter((cluster) => cluster.share >= COLOUR_MIN_SHARE)
    .sort((a, b) => b.share - a.share || a.index - b.index)
    .map((cluster) => ({
      hex: `#${hexByte(cluster.r / cluster.share)}${hexByte(cluster.g / cluster.share)}${hexByte(cluster.b / cluster.share)}`,
      share: Math.round(cluster.share * 1000) / 1000,
    }));
}

/**
 * The fingerprint of decoded pixels: pure arithmetic on the pixels alone, so
 * the admin's browser and sharp in Node give the same answer for the same
 * pixels (docs/decisions/0038). Transparent parts count as white.
 */
export function fingerprintOfPixels(pixels: RgbaPixels): VisualFingerprint {
  const raster = boxRaster(validated(pixels));
  const colours = cellColours(raster);
  return { hash: perceptualHash(raster), histogram: colourHistogram(colours), colours: dominantColours(colours) };
}

/** How many of the 64 bits two hashes (signed decimal strings) differ in. */
export function hashDistance(a: string, b: string): number {
  let bits = BigInt.asUintN(64, BigInt(a) ^ BigInt(b));
  let count = 0;
  while (bits) {
    bits &= bits - 1n;
    count++;
  }
  return count;
}

/** The Euclidean distance of two colour histograms. */
export function histogramDistance(a: readonly number[], b: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < HISTOGRAM_BINS; i++) sum += ((a[i] ?? 0) - (b[i] ?? 0)) ** 2;
  return Math.sqrt(sum);
}

/** True when two fingerprints are of near-duplicate images (see NEAR_DUPLICATE_BITS). */
export function areNearDuplicates(a: VisualFingerprint, b: VisualFingerprint): boolean {
  return hashDistance(a.hash, b.hash) <= NEAR_DUPLICATE_BITS && histogramDistance(a.histogram, b.histogram) <= NEAR_DUPLICATE_COLOUR_DISTANCE;
}
