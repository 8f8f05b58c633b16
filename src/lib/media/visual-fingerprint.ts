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
/** Two images whose hashes differ in at most this many of 64 bits are near-duplicates. */
export const NEAR_DUPLICATE_BITS = 7;
