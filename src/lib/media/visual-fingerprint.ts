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

export interface DominantColour {
  hex: string;
  share: number;
}

export const HISTOGRAM_BINS = 16;
export const DOMINANT_COLOURS_MAX = 5;
/**
 * Two images are near-duplicates when their hashes differ in at most NEAR_DUPLICATE_BITS of 64 bits and their
 * histograms are at most NEAR_DUPLICATE_COLOUR_DISTANCE apart (Euclidean): one layout in other colours shares a hash,
 * not its colours. The database applies the same rule (private.ads_near_hash).
 */
export const NEAR_DUPLICATE_BITS = 7;
export const NEAR_DUPLICATE_COLOUR_DISTANCE = 0.3;

/** How many of 64 bits two hashes (signed decimals of Postgres bigints) differ in. */
export function hashDistance(a: string, b: string): number {
  let bits = BigInt.asUintN(64, BigInt(a) ^ BigInt(b));
  let count = 0;
  while (bits > 0n) {
    bits &= bits - 1n;
    count += 1;
  }
  return count;
}

/** The Euclidean distance between two colour histograms: 0 for the same colours, at most √2. */
export function histogramDistance(a: readonly number[], b: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < Math.max(a.length, b.length); i += 1) sum += ((a[i] ?? 0) - (b[i] ?? 0)) ** 2;
  return Math.sqrt(sum);
}

/** True when two fingerprints are of near-duplicate images (see NEAR_DUPLICATE_BITS). */
export function areNearDuplicates(a: VisualFingerprint, b: VisualFingerprint): boolean {
  return hashDistance(a.hash, b.hash) <= NEAR_DUPLICATE_BITS && histogramDistance(a.histogram, b.histogram) <= NEAR_DUPLICATE_COLOUR_DISTANCE;
}
