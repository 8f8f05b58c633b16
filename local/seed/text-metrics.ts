/**
 * Text measurement for laying out ad copy in SVG, which has no line wrapping.
 * Advance widths (1/1000 em) come from the hmtx tables of the DejaVu fonts that
 * librsvg finds on these machines; other fonts fall back to similar widths.
 */
export type FontFace = 'sans' | 'sansBold' | 'sansLight' | 'condensedBold' | 'serif' | 'serifBold' | 'serifItalic';

interface FaceAttributes {
  family: string;
  weight: number;
  style: 'normal' | 'italic';
}

const FACES: Record<FontFace, FaceAttributes> = {
  sans: { family: 'DejaVu Sans, Verdana, sans-serif', weight: 400, style: 'normal' },
  sansBold: { family: 'DejaVu Sans, Verdana, sans-serif', weight: 700, style: 'normal' },
  sansLight: { family: 'DejaVu Sans, Verdana, sans-serif', weight: 200, style: 'normal' },
  condensedBold: { family: 'DejaVu Sans Condensed, Arial Narrow, sans-serif', weight: 700, style: 'normal' },
  serif: { family: 'DejaVu Serif, Georgia, serif', weight: 400, style: 'normal' },
  serifBold: { family: 'DejaVu Serif, Georgia, serif', weight: 700, style: 'normal' },
  serifItalic: { family: 'DejaVu Serif, Georgia, serif', weight: 400, style: 'italic' },
};

const CHARACTERS = " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~€★—’“”éèàüöñ✓…•·→";

const ADVANCES: Record<Exclude<FontFace, 'serifItalic'>, readonly number[]> = {
  sans: [318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337, 636, 636, 636, 636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531, 1000, 684, 686, 698, 770, 632, 575, 775, 752, 295, 295, 656, 557, 863, 748, 787, 603, 787, 695, 635, 611, 732, 684, 989, 685, 611, 685, 390, 337, 390, 838, 500, 500, 613, 635, 550, 635, 615, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612, 635, 635, 411, 521, 392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838, 636, 896, 1000, 318, 518, 518, 615, 615, 613, 634, 612, 634, 838, 1000, 590, 318, 838],
  sansBold: [348, 456, 521, 838, 696, 1002, 872, 306, 457, 457, 523, 838, 380, 415, 380, 365, 696, 696, 696, 696, 696, 696, 696, 696, 696, 696, 400, 400, 838, 838, 838, 580, 1000, 774, 762, 734, 830, 683, 683, 821, 837, 372, 372, 775, 637, 995, 837, 850, 733, 850, 770, 720, 682, 812, 774, 1103, 771, 724, 725, 457, 365, 457, 838, 500, 500, 675, 716, 593, 716, 678, 435, 716, 712, 343, 343, 665, 343, 1042, 712, 687, 716, 716, 493, 595, 478, 712, 652, 924, 645, 652, 582, 712, 365, 712, 838, 696, 896, 1000, 380, 657, 657, 678, 678, 675, 712, 687, 712, 838, 1000, 639, 380, 838],
  sansLight: [318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337, 636, 636, 636, 636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531, 1000, 684, 655, 698, 770, 632, 575, 775, 752, 295, 295, 656, 557, 863, 748, 787, 603, 787, 695, 635, 611, 732, 684, 989, 685, 611, 685, 390, 337, 390, 838, 500, 500, 613, 635, 550, 635, 615, 352, 600, 634, 278, 278, 579, 278, 974, 634, 612, 635, 635, 411, 521, 392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838, 636, 600, 1000, 318, 518, 518, 615, 615, 613, 634, 612, 634, 600, 1000, 600, 318, 838],
  condensedBold: [313, 410, 469, 754, 626, 901, 785, 275, 411, 411, 470, 754, 342, 374, 342, 329, 626, 626, 626, 626, 626, 626, 626, 626, 626, 626, 360, 360, 754, 754, 754, 522, 900, 696, 686, 660, 747, 615, 615, 738, 753, 334, 334, 697, 573, 896, 753, 765, 659, 765, 693, 648, 614, 730, 696, 993, 694, 651, 652, 411, 329, 411, 754, 450, 450, 607, 644, 533, 644, 610, 391, 644, 641, 308, 308, 598, 308, 938, 641, 618, 644, 644, 444, 536, 430, 641, 586, 831, 580, 586, 523, 641, 329, 641, 754, 626, 807, 900, 342, 591, 591, 610, 610, 607, 641, 618, 641, 754, 900, 575, 342, 754],
  serif: [318, 402, 460, 838, 636, 950, 890, 275, 390, 390, 500, 838, 318, 338, 318, 337, 636, 636, 636, 636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 536, 1000, 722, 735, 765, 802, 730, 694, 799, 872, 395, 401, 747, 664, 1024, 875, 820, 673, 820, 753, 685, 667, 843, 722, 1028, 712, 660, 695, 390, 337, 390, 838, 500, 500, 596, 640, 560, 640, 592, 370, 640, 644, 320, 310, 606, 320, 948, 644, 602, 640, 640, 478, 513, 402, 644, 565, 856, 564, 565, 527, 636, 337, 636, 838, 636, 600, 1000, 318, 511, 511, 592, 592, 596, 644, 602, 644, 600, 1000, 590, 318, 838],
  serifBold: [348, 439, 521, 838, 696, 950, 903, 306, 473, 473, 523, 838, 348, 415, 348, 365, 696, 696, 696, 696, 696, 696, 696, 696, 696, 696, 369, 369, 838, 838, 838, 586, 1000, 776, 845, 796, 867, 762, 710, 854, 945, 468, 473, 869, 703, 1107, 914, 871, 752, 871, 831, 722, 744, 872, 776, 1123, 776, 714, 730, 473, 365, 473, 838, 500, 500, 648, 699, 609, 699, 636, 430, 699, 727, 380, 362, 693, 380, 1058, 727, 667, 699, 699, 527, 563, 462, 727, 581, 861, 596, 581, 568, 643, 364, 643, 838, 696, 600, 1000, 348, 575, 575, 636, 636, 648, 727, 667, 727, 600, 1000, 639, 348, 838],
};

const FALLBACK_ADVANCE = 620;

function advancesOf(face: FontFace): readonly number[] {
  return ADVANCES[face === 'serifItalic' ? 'serif' : face];
}

/** Width in px of text at size px, with extra letter spacing in px. */
export function textWidth(text: string, face: FontFace, size: number, letterSpacing = 0): number {
  const advances = advancesOf(face);
  let units = 0;
  let count = 0;
  for (const char of text) {
    const index = CHARACTERS.indexOf(char);
    units += index >= 0 ? advances[index]! : FALLBACK_ADVANCE;
    count += 1;
  }
  return (units / 1000) * size + Math.max(0, count - 1) * letterSpacing;
}

/** Greedy word wrap to lines no wider than maxWidth. */
export function wrapText(text: string, face: FontFace, size: number, maxWidth: number, letterSpacing = 0): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (line && textWidth(candidate, face, size, letterSpacing) > maxWidth) {
      lines.push(line);
      line = word;
    } else {
      line = candidate;
    }
  }
  if (line) lines.push(line);
  return lines;
}

export interface FittedText {
  lines: string[];
  size: number;
}

/** The largest size (down to minSize) at which text wraps into at most maxLines lines of maxWidth. */
export function fitText(
  text: string,
  face: FontFace,
  options: { maxWidth: number; maxLines: number; maxSize: number; minSize: number; letterSpacingEm?: number },
): FittedText {
  const spacing = options.letterSpacingEm ?? 0;
  let size = options.maxSize;
  for (;;) {
    const lines = wrapText(text, face, size, options.maxWidth, spacing * size);
    const widest = Math.max(...lines.map((line) => textWidth(line, face, size, spacing * size)));
    if ((lines.length <= options.maxLines && widest <= options.maxWidth) || size <= options.minSize) return { lines, size };
    size = Math.max(options.minSize, Math.floor(size * 0.94));
  }
}

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

export interface TextOptions {
  x: number;
  y: number;
  size: number;
  face: FontFace;
  fill: string;
  anchor?: 'start' | 'middle' | 'end';
  letterSpacing?: number;
  opacity?: number;
}

/** One SVG text element; y is the baseline. */
export function svgText(text: string, options: TextOptions): string {
  const face = FACES[options.face];
  const attributes = [
    `x="${round(options.x)}"`,
    `y="${round(options.y)}"`,
    `font-family="${face.family}"`,
    `font-size="${round(options.size)}"`,
    `font-weight="${face.weight}"`,
    face.style === 'italic' ? 'font-style="italic"' : '',
    `fill="${options.fill}"`,
    options.anchor && options.anchor !== 'start' ? `text-anchor="${options.anchor}"` : '',
    options.letterSpacing ? `letter-spacing="${round(options.letterSpacing)}"` : '',
    options.opacity !== undefined ? `opacity="${options.opacity}"` : '',
  ].filter(Boolean);
  return `<text ${attributes.join(' ')}>${escapeXml(text)}</text>`;
}

/** Lines of a fitted text block whose first baseline is at y; returns the SVG and the block's bottom. */
export function svgTextBlock(
  lines: string[],
  options: TextOptions & { lineHeight?: number },
): { svg: string; bottom: number } {
  const lineHeight = (options.lineHeight ?? 1.12) * options.size;
  const svg = lines.map((line, index) => svgText(line, { ...options, y: options.y + index * lineHeight })).join('');
  return { svg, bottom: options.y + (lines.length - 1) * lineHeight + options.size * 0.28 };
}

export function round(value: number): number {
  return Math.round(value * 10) / 10;
}
