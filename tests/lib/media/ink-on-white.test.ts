import { describe, expect, it } from 'vitest';
import { inkOnWhite, portableGreyMap, type GreyPixels } from '../../../src/lib/media/ink-on-white.ts';
import type { RgbaPixels } from '../../../src/lib/media/visual-fingerprint.ts';

type Colour = readonly [number, number, number];
const PAGE: Colour = [244, 239, 232];
const WHITE: Colour = [255, 255, 255];
const NEAR_BLACK: Colour = [23, 23, 26];
const PINK: Colour = [255, 79, 163];
const BLUE: Colour = [47, 91, 216];

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}
const inside = (box: Box, x: number, y: number) => x >= box.left && x < box.right && y >= box.top && y < box.bottom;

/** A 480 × 600 ad (the scale of a 960 display image, halved): a page, a button drawn as the demo ads draw theirs (a pill, 60 px high), and a label of five strokes of 5 × 24 px on it. */
const BUTTON = { left: 120, right: 360, middle: 510, radius: 30 };
/** How far (x, y) is from the line between the centres of the pill's two round ends: the pill is what is within its radius. */
const fromButtonAxis = (x: number, y: number) => Math.hypot(x - Math.min(Math.max(x, BUTTON.left + BUTTON.radius), BUTTON.right - BUTTON.radius), y - BUTTON.middle);
const STROKES: Box[] = [0, 1, 2, 3, 4].map((i) => ({ left: 170 + i * 30, top: 498, right: 175 + i * 30, bottom: 522 }));

function ad(page: Colour, fill: Colour, label: Colour, width = 480, height = 600): RgbaPixels {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const colour = STROKES.some((stroke) => inside(stroke, x, y)) ? label : fromButtonAxis(x + 0.5, y + 0.5) <= BUTTON.radius ? fill : page;
      data.set([...colour, 255], (y * width + x) * 4);
    }
  }
  return { width, height, data };
}

const at = (grey: GreyPixels, x: number, y: number) => grey.data[y * grey.width + x]!;
/** The lightest and the darkest grey over the pixels of the image for which where(x, y) holds. */
function range(grey: GreyPixels, where: (x: number, y: number) => boolean): { lightest: number; darkest: number } {
  let lightest = 0;
  let darkest = 255;
  for (let y = 0; y < grey.height; y++) {
    for (let x = 0; x < grey.width; x++) {
      if (!where(x, y)) continue;
      lightest = Math.max(lightest, at(grey, x, y));
      darkest = Math.min(darkest, at(grey, x, y));
    }
  }
  return { lightest, darkest };
}

const onStroke = (x: number, y: number) => STROKES.some((stroke) => inside(stroke, x, y));
/** Everything but the strokes and the pixel around each of them that antialiasing would blur. */
const awayFromStrokes = (x: number, y: number) => !STROKES.some((stroke) => inside({ left: stroke.left - 1, top: stroke.top - 1, right: stroke.right + 1, bottom: stroke.bottom + 1 }, x, y));
/** The button's edge: 3 px either side of its outline. */
const onButtonEdge = (x: number, y: number) => Math.abs(fromButtonAxis(x + 0.5, y + 0.5) - BUTTON.radius) <= 3;

describe("an image's ink on white, what the admin's OCR reads", () => {
  it('draws a white label on a saturated button dark on white, with no outline where the button was', () => {
    const ink = inkOnWhite(ad(PAGE, PINK, WHITE));
    expect(ink).toMatchObject({ width: 480, height: 600 });
    expect(range(ink, onStroke).lightest).toBeLessThan(100);
    expect(range(ink, awayFromStrokes).darkest).toBeGreaterThan(230);
    expect(range(ink, onButtonEdge).darkest).toBeGreaterThan(230);
  });

  it('draws a label dark whichever is the lighter, the label or its button', () => {
    for (const [fill, label] of [
      [BLUE, WHITE],
      [NEAR_BLACK, PAGE],
      [WHITE, NEAR_BLACK],
    ] as const) {
      const ink = inkOnWhite(ad(PAGE, fill, label));
      expect(range(ink, onStroke).lightest).toBeLessThan(120);
      expect(range(ink, awayFromStrokes).darkest).toBeGreaterThan(230);
    }
  });

  it('keeps dark words on a pale page dark and leaves the page white', () => {
    const ink = inkOnWhite(ad(PAGE, PAGE, NEAR_BLACK));
    expect(range(ink, onStroke).lightest).toBeLessThan(100);
    expect(range(ink, awayFromStrokes).darkest).toBe(255);
  });

  it('turns an image of one colour, of any size and shape, all white', () => {
    for (const [width, height] of [
      [1, 1],
      [7, 3],
      [2000, 40],
    ] as const) {
      const data = new Uint8ClampedArray(width * height * 4);
      for (let i = 0; i < data.length; i += 4) data.set([...BLUE, 255], i);
      const ink = inkOnWhite({ width, height, data });
      expect(ink.data).toHaveLength(width * height);
      expect(ink.data.every((value) => value === 255)).toBe(true);
    }
  });

  it('writes the grey pixels as a binary PGM file', () => {
    const file = portableGreyMap({ width: 3, height: 2, data: Uint8Array.of(0, 128, 255, 1, 2, 3) });
    const header = 'P5\n3 2\n255\n';
    expect(new TextDecoder().decode(file.subarray(0, header.length))).toBe(header);
    expect([...file.subarray(header.length)]).toEqual([0, 128, 255, 1, 2, 3]);
  });
});
