import type { RgbaPixels } from './visual-fingerprint.ts';

/**
 * The image the admin's OCR reads (read-image-text.ts): every pixel's
 * distance in grey from the background around it, drawn as dark ink on
 * white. Text of either polarity on any fill (a button's light label on a
 * saturated pill, dark words on a pale page) comes out dark on white, and a
 * filled shape's own edge is no ink on either side: Tesseract's page layout
 * skips words enclosed by a shape, and reads them once the shape is gone
 * (docs/decisions/0076).
 */
export interface GreyPixels {
  width: number;
  height: number;
  /** One byte a pixel, 0 black to 255 white, rows top to bottom. */
  data: Uint8Array;
}

/** A cell is this fraction of the image's shorter side (8 px on a 960-wide portrait ad). */
const CELLS_PER_SHORTER_SIDE = 120;
/** At most this many cells, so a long, thin image costs what a square one does. */
const MAX_CELLS = 40_000;
/** A cell's background is the median grey of the cells up to this many away (9 × 9 cells: 72 px on a 960-wide ad). */
const WINDOW_CELLS = 4;
/**
 * A pixel's background is the nearest of the backgrounds of the cells up to
 * this many away from its own (5 × 5 cells: 16 px either side on a 960-wide
 * ad), which reaches a button's fill from the ends of its round caps.
 */
const REACH_CELLS = 2;
/** Grey levels per histogram bin. */
const BIN = 4;
const BINS = 256 / BIN;
/** Ink is drawn this many times darker than its distance from the background. */
const GAIN = 2;

/** The grey of a pixel, ITU-R BT.601 weights in fixed point. */
const greyOf = (data: RgbaPixels['data'], offset: number) => (data[offset]! * 77 + data[offset + 1]! * 150 + data[offset + 2]! * 29) >> 8;

export function inkOnWhite(pixels: RgbaPixels): GreyPixels {
  const { width, height, data } = pixels;
  const cell = Math.max(2, Math.round(Math.min(width, height) / CELLS_PER_SHORTER_SIDE), Math.ceil(Math.sqrt((width * height) / MAX_CELLS)));
  const columns = Math.ceil(width / cell);
  const rows = Math.ceil(height / cell);

  const grey = new Uint8Array(width * height);
  // Histograms of grey per cell, summed over the cells above and to the left (an integral histogram), so a window's is four look-ups.
  const stride = columns + 1;
  const integral = new Uint32Array((rows + 1) * stride * BINS);
  for (let y = 0; y < height; y += 1) {
    const rowBase = (((y / cell) | 0) + 1) * stride;
    for (let x = 0; x < width; x += 1) {
      const value = greyOf(data, (y * width + x) * 4);
      grey[y * width + x] = value;
      integral[(rowBase + ((x / cell) | 0) + 1) * BINS + ((value / BIN) | 0)]! += 1;
    }
  }
  for (let row = 1; row <= rows; row += 1) {
    for (let column = 1; column <= columns; column += 1) {
      const here = (row * stride + column) * BINS;
      const up = here - stride * BINS;
      const left = here - BINS;
      const diagonal = up - BINS;
      for (let bin = 0; bin < BINS; bin += 1) integral[here + bin] = integral[here + bin]! + integral[up + bin]! + integral[left + bin]! - integral[diagonal + bin]!;
    }
  }

  const background = new Uint8Array(columns * rows);
  for (let row = 0; row < rows; row += 1) {
    for (let column = 0; column < columns; column += 1) {
      const top = Math.max(0, row - WINDOW_CELLS);
      const bottom = Math.min(rows, row + WINDOW_CELLS + 1);
      const left = Math.max(0, column - WINDOW_CELLS);
      const right = Math.min(columns, column + WINDOW_CELLS + 1);
      const [a, b, c, d] = [(bottom * stride + right) * BINS, (top * stride + right) * BINS, (bottom * stride + left) * BINS, (top * stride + left) * BINS];
      const count = (bin: number) => integral[a + bin]! - integral[b + bin]! - integral[c + bin]! + integral[d + bin]!;
      // The window's pixels (the last row and column of cells may be cut by the image's edge).
      const total = (Math.min(height, bottom * cell) - top * cell) * (Math.min(width, right * cell) - left * cell);
      let seen = 0;
      let bin = 0;
      for (; bin < BINS - 1; bin += 1) {
        seen += count(bin);
        if (seen * 2 >= total) break;
      }
      background[row * columns + column] = bin * BIN + BIN / 2;
    }
  }

  // A pixel is as far from the background as the nearest of its own cell's and its neighbours':
  // on a fill's edge one of them is the fill's, another the page's, and the edge is no ink.
  const out = new Uint8Array(width * height);
  const candidates = new Uint8Array((2 * REACH_CELLS + 1) ** 2);
  for (let row = 0; row < rows; row += 1) {
    for (let column = 0; column < columns; column += 1) {
      let count = 0;
      for (let r = Math.max(0, row - REACH_CELLS); r <= Math.min(rows - 1, row + REACH_CELLS); r += 1) {
        for (let c = Math.max(0, column - REACH_CELLS); c <= Math.min(columns - 1, column + REACH_CELLS); c += 1) {
          const value = background[r * columns + c]!;
          if (!candidates.subarray(0, count).includes(value)) candidates[count++] = value;
        }
      }
      // Between two backgrounds is the antialiased edge of a fill: no ink either.
      let lowest = 255;
      let highest = 0;
      for (let k = 0; k < count; k += 1) {
        lowest = Math.min(lowest, candidates[k]!);
        highest = Math.max(highest, candidates[k]!);
      }
      for (let y = row * cell; y < Math.min(height, (row + 1) * cell); y += 1) {
        for (let x = column * cell, i = y * width + x; x < Math.min(width, (column + 1) * cell); x += 1, i += 1) {
          const value = grey[i]!;
          let nearest = 255;
          for (let k = 0; k < count; k += 1) nearest = Math.min(nearest, Math.abs(value - candidates[k]!));
          if (value > lowest && value < highest) nearest = 0;
          // A background is known to its bin: a grey within the bin is the background itself.
          out[i] = 255 - Math.min(255, Math.max(0, nearest - BIN / 2) * GAIN);
        }
      }
    }
  }
  return { width, height, data: out };
}

/** The grey pixels as a binary PGM file (P5), which Tesseract's image library reads as it is: no encoder needed. */
export function portableGreyMap(pixels: GreyPixels): Uint8Array<ArrayBuffer> {
  const header = new TextEncoder().encode(`P5\n${pixels.width} ${pixels.height}\n255\n`);
  const file = new Uint8Array(header.length + pixels.data.length);
  file.set(header);
  file.set(pixels.data, header.length);
  return file;
}
