/**
 * Simple vector products (bottles, jars, garments ...) for the demo creatives.
 * Each shape is drawn in its own space 1000 units high and placed by a
 * transform, so the same drawing serves every ad size.
 */
import { darken, lighten, mix, readableOn } from './colour.ts';
import { fitText, svgText, type FontFace } from './text-metrics.ts';

export type ProductShape =
  | 'dropper'
  | 'pump'
  | 'spray'
  | 'jar'
  | 'tube'
  | 'pillBottle'
  | 'tub'
  | 'pouch'
  | 'can'
  | 'tin'
  | 'box'
  | 'tshirt'
  | 'hoodie'
  | 'candle'
  | 'mug'
  | 'shaker'
  | 'pillow'
  | 'eyeMask'
  | 'bar'
  | 'ring'
  | 'necklace'
  | 'phoneCase'
  | 'earbuds'
  | 'powerBank';

/** Width of each shape in units, for a height of 1000. */
const WIDTHS: Record<ProductShape, number> = {
  dropper: 380,
  pump: 380,
  spray: 360,
  jar: 1200,
  tube: 360,
  pillBottle: 620,
  tub: 900,
  pouch: 720,
  can: 480,
  tin: 540,
  box: 780,
  tshirt: 1100,
  hoodie: 1160,
  candle: 720,
  mug: 1000,
  shaker: 500,
  pillow: 1500,
  eyeMask: 1700,
  bar: 2300,
  ring: 900,
  necklace: 900,
  phoneCase: 520,
  earbuds: 900,
  powerBank: 560,
};

export interface ProductStyle {
  body: string;
  cap: string;
  label: string;
  labelInk: string;
  accent: string;
  brandName: string;
  productName: string;
  face: FontFace;
}

export interface ProductFrame {
  /** Horizontal centre of the product. */
  cx: number;
  /** Where the product stands. */
  bottom: number;
  height: number;
  /** Degrees, around the product's centre. */
  rotate?: number;
}

/** Gradients the shapes refer to; included once in every SVG that draws a product. */
export const PRODUCT_DEFS = [
  '<linearGradient id="sheen" x1="0" y1="0" x2="1" y2="0">',
  '<stop offset="0" stop-color="#000" stop-opacity="0.28"/>',
  '<stop offset="0.16" stop-color="#fff" stop-opacity="0.05"/>',
  '<stop offset="0.28" stop-color="#fff" stop-opacity="0.34"/>',
  '<stop offset="0.4" stop-color="#fff" stop-opacity="0"/>',
  '<stop offset="0.78" stop-color="#000" stop-opacity="0.06"/>',
  '<stop offset="1" stop-color="#000" stop-opacity="0.32"/>',
  '</linearGradient>',
  '<linearGradient id="fold" x1="0" y1="0" x2="0" y2="1">',
  '<stop offset="0" stop-color="#fff" stop-opacity="0.16"/>',
  '<stop offset="0.55" stop-color="#fff" stop-opacity="0"/>',
  '<stop offset="1" stop-color="#000" stop-opacity="0.2"/>',
  '</linearGradient>',
  '<radialGradient id="shadow">',
  '<stop offset="0" stop-color="#000" stop-opacity="0.38"/>',
  '<stop offset="0.6" stop-color="#000" stop-opacity="0.12"/>',
  '<stop offset="1" stop-color="#000" stop-opacity="0"/>',
  '</radialGradient>',
  '<linearGradient id="flame" x1="0" y1="1" x2="0" y2="0">',
  '<stop offset="0" stop-color="#ff7a00"/>',
  '<stop offset="0.6" stop-color="#ffc531"/>',
  '<stop offset="1" stop-color="#fff4c2"/>',
  '</linearGradient>',
].join('');

export function productAspect(shape: ProductShape): number {
  return WIDTHS[shape] / 1000;
}

/** The product, its shadow, placed in frame. */
export function drawProduct(shape: ProductShape, frame: ProductFrame, style: ProductStyle): string {
  const width = WIDTHS[shape];
  const scale = frame.height / 1000;
  const left = frame.cx - (width * scale) / 2;
  const top = frame.bottom - frame.height;
  const rotation = frame.rotate ? ` rotate(${frame.rotate} ${width / 2} 500)` : '';
  const shadowWidth = width * scale * 0.62;
  const shadow = `<ellipse cx="${frame.cx}" cy="${frame.bottom}" rx="${shadowWidth}" ry="${Math.max(8, shadowWidth * 0.12)}" fill="url(#shadow)"/>`;
  const body = DRAWERS[shape](style, width);
  return `${shadow}<g transform="translate(${left.toFixed(1)} ${top.toFixed(1)}) scale(${scale.toFixed(4)})${rotation}">${body}</g>`;
}

type Drawer = (style: ProductStyle, width: number) => string;

/** Brand name (and optionally the product name) centred on a label. */
function labelText(style: ProductStyle, cx: number, top: number, width: number, height: number, withProduct = true): string {
  const brand = fitText(style.brandName.toUpperCase(), style.face, {
    maxWidth: width * 0.84,
    maxLines: 1,
    maxSize: height * 0.3,
    minSize: 10,
    letterSpacingEm: 0.08,
  });
  const parts = [
    svgText(brand.lines.join(' '), {
      x: cx,
      y: top + height * (withProduct ? 0.42 : 0.58),
      size: brand.size,
      face: style.face,
      fill: style.labelInk,
      anchor: 'middle',
      letterSpacing: brand.size * 0.08,
    }),
  ];
  if (withProduct) {
    const product = fitText(style.productName, 'sans', { maxWidth: width * 0.8, maxLines: 2, maxSize: height * 0.13, minSize: 8 });
    product.lines.forEach((line, index) => {
      parts.push(
        svgText(line, {
          x: cx,
          y: top + height * 0.64 + index * product.size * 1.15,
          size: product.size,
          face: 'sans',
          fill: style.labelInk,
          anchor: 'middle',
          opacity: 0.8,
        }),
      );
    });
  }
  return parts.join('');
}

const rect = (x: number, y: number, w: number, h: number, rx: number, fill: string, extra = '') =>
  `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="${rx}" fill="${fill}"${extra ? ` ${extra}` : ''}/>`;

const sheenRect = (x: number, y: number, w: number, h: number, rx: number) => rect(x, y, w, h, rx, 'url(#sheen)');

const DRAWERS: Record<ProductShape, Drawer> = {
  dropper: (s) =>
    [
      rect(150, 0, 80, 200, 40, darken(s.cap, 0.1)),
      rect(108, 170, 164, 130, 16, s.cap),
      sheenRect(108, 170, 164, 130, 16),
      rect(130, 290, 120, 60, 6, darken(s.body, 0.15)),
      rect(0, 330, 380, 670, 70, s.body),
      rect(36, 520, 308, 330, 12, s.label),
      labelText(s, 190, 520, 308, 330),
      sheenRect(0, 330, 380, 670, 70),
    ].join(''),
  pump: (s) =>
    [
      rect(30, 90, 120, 36, 10, s.cap),
      rect(110, 70, 180, 70, 14, s.cap),
      rect(172, 130, 36, 120, 6, darken(s.cap, 0.15)),
      rect(120, 230, 140, 90, 14, s.cap),
      sheenRect(120, 230, 140, 90, 14),
      rect(0, 300, 380, 700, 56, s.body),
      rect(30, 500, 320, 360, 10, s.label),
      labelText(s, 190, 500, 320, 360),
      sheenRect(0, 300, 380, 700, 56),
    ].join(''),
  spray: (s) =>
    [
      rect(110, 60, 140, 190, 30, s.cap),
      sheenRect(110, 60, 140, 190, 30),
      rect(140, 230, 80, 60, 6, darken(s.cap, 0.2)),
      rect(0, 270, 360, 730, 150, s.body),
      rect(30, 480, 300, 340, 10, s.label),
      labelText(s, 180, 480, 300, 340),
      sheenRect(0, 270, 360, 730, 150),
    ].join(''),
  jar: (s) =>
    [
      rect(70, 0, 1060, 260, 36, s.cap),
      ...[0, 1, 2, 3, 4, 5, 6, 7, 8].map((i) => rect(130 + i * 110, 20, 14, 220, 7, darken(s.cap, 0.12))),
      sheenRect(70, 0, 1060, 260, 36),
      rect(0, 230, 1200, 770, 90, s.body),
      rect(0, 430, 1200, 420, 0, s.label),
      labelText(s, 600, 430, 1200, 420),
      sheenRect(0, 230, 1200, 770, 90),
    ].join(''),
  tube: (s) =>
    [
      rect(0, 0, 360, 56, 8, darken(s.body, 0.12)),
      ...[0, 1, 2, 3, 4, 5, 6, 7].map((i) => rect(20 + i * 44, 8, 6, 40, 3, darken(s.body, 0.25))),
      `<path d="M0,50 L360,50 L300,790 L60,790 Z" fill="${s.body}"/>`,
      labelText(s, 180, 220, 280, 360),
      `<path d="M0,50 L360,50 L300,790 L60,790 Z" fill="url(#sheen)"/>`,
      rect(80, 780, 200, 220, 24, s.cap),
      sheenRect(80, 780, 200, 220, 24),
    ].join(''),
  pillBottle: (s) =>
    [
      rect(40, 0, 540, 240, 28, s.cap),
      ...Array.from({ length: 14 }, (_, i) => rect(70 + i * 36, 20, 10, 200, 5, darken(s.cap, 0.1))),
      sheenRect(40, 0, 540, 240, 28),
      rect(0, 220, 620, 780, 80, s.body),
      rect(0, 380, 620, 480, 0, s.label),
      labelText(s, 310, 380, 620, 480),
      sheenRect(0, 220, 620, 780, 80),
    ].join(''),
  tub: (s) =>
    [
      rect(0, 0, 900, 150, 24, s.cap),
      sheenRect(0, 0, 900, 150, 24),
      `<path d="M24,140 L876,140 L842,980 Q840,1000 820,1000 L80,1000 Q60,1000 58,980 Z" fill="${s.body}"/>`,
      `<path d="M34,330 L866,330 L850,760 L50,760 Z" fill="${s.label}"/>`,
      labelText(s, 450, 330, 800, 430),
      `<path d="M24,140 L876,140 L842,980 Q840,1000 820,1000 L80,1000 Q60,1000 58,980 Z" fill="url(#sheen)"/>`,
    ].join(''),
  pouch: (s) =>
    [
      `<path d="M50,40 Q360,20 670,40 L720,960 Q722,1000 680,1000 L40,1000 Q-2,1000 0,960 Z" fill="${s.body}"/>`,
      rect(60, 110, 600, 10, 5, darken(s.body, 0.2)),
      `<circle cx="620" cy="190" r="26" fill="${darken(s.body, 0.18)}"/>`,
      rect(90, 330, 540, 420, 24, s.label),
      labelText(s, 360, 330, 540, 420),
      `<path d="M50,40 Q360,20 670,40 L720,960 Q722,1000 680,1000 L40,1000 Q-2,1000 0,960 Z" fill="url(#fold)"/>`,
      `<path d="M50,40 Q360,20 670,40 L720,960 Q722,1000 680,1000 L40,1000 Q-2,1000 0,960 Z" fill="url(#sheen)" opacity="0.7"/>`,
    ].join(''),
  can: (s) =>
    [
      rect(30, 0, 420, 50, 24, '#c9ccd1'),
      rect(0, 36, 480, 930, 40, s.body),
      rect(0, 300, 480, 420, 0, s.label),
      labelText(s, 240, 300, 480, 420),
      rect(24, 950, 432, 50, 24, '#b8bcc2'),
      sheenRect(0, 0, 480, 1000, 40),
    ].join(''),
  tin: (s) =>
    [
      rect(0, 0, 540, 220, 18, s.cap),
      sheenRect(0, 0, 540, 220, 18),
      rect(12, 206, 516, 794, 14, s.body),
      rect(12, 400, 516, 420, 0, s.label),
      labelText(s, 270, 400, 516, 420),
      sheenRect(12, 206, 516, 794, 14),
    ].join(''),
  box: (s) =>
    [
      `<path d="M0,130 L130,0 L780,0 L650,130 Z" fill="${lighten(s.body, 0.2)}"/>`,
      `<path d="M650,130 L780,0 L780,870 L650,1000 Z" fill="${darken(s.body, 0.22)}"/>`,
      rect(0, 130, 650, 870, 0, s.body),
      rect(50, 380, 550, 400, 10, s.label),
      labelText(s, 325, 380, 550, 400),
      rect(0, 130, 650, 870, 0, 'url(#fold)'),
    ].join(''),
  tshirt: (s) => {
    const path = 'M330,0 Q550,120 770,0 L1100,180 L980,440 L860,380 L860,1000 L240,1000 L240,380 L120,440 L0,180 Z';
    return [
      `<path d="${path}" fill="${s.body}"/>`,
      `<path d="M330,0 Q550,120 770,0 Q550,70 330,0 Z" fill="${darken(s.body, 0.25)}"/>`,
      `<path d="M330,0 Q550,150 770,0" fill="none" stroke="${darken(s.body, 0.12)}" stroke-width="18"/>`,
      `<path d="M240,380 L240,1000 M860,380 L860,1000" stroke="${darken(s.body, 0.15)}" stroke-width="6"/>`,
      svgText(s.brandName.toUpperCase(), {
        x: 550,
        y: 300,
        size: Math.min(70, 460 / Math.max(4, s.brandName.length * 0.7)),
        face: s.face,
        fill: readableOn(s.body, [s.label, s.labelInk, '#ffffff', '#111111']),
        anchor: 'middle',
        letterSpacing: 6,
      }),
      `<path d="${path}" fill="url(#fold)"/>`,
    ].join('');
  },
  hoodie: (s) => {
    const body = 'M330,140 Q580,260 830,140 L1080,300 L1160,880 L1020,900 L950,480 L920,1000 L240,1000 L210,480 L140,900 L0,880 L80,300 Z';
    const hood = 'M330,150 Q340,0 580,0 Q820,0 830,150 Q580,300 330,150 Z';
    return [
      `<path d="${body}" fill="${s.body}"/>`,
      `<path d="${hood}" fill="${darken(s.body, 0.14)}"/>`,
      `<path d="M420,170 Q580,260 740,170 Q580,200 420,170 Z" fill="${darken(s.body, 0.4)}"/>`,
      `<path d="M520,230 L505,470 M640,230 L655,470" stroke="${lighten(s.body, 0.6)}" stroke-width="12" stroke-linecap="round"/>`,
      `<path d="M340,680 L820,680 L870,900 L290,900 Z" fill="${darken(s.body, 0.08)}"/>`,
      rect(240, 940, 680, 60, 8, darken(s.body, 0.12)),
      svgText(s.brandName.toUpperCase(), {
        x: 580,
        y: 560,
        size: Math.min(64, 420 / Math.max(4, s.brandName.length * 0.7)),
        face: s.face,
        fill: readableOn(s.body, [s.label, s.labelInk, '#ffffff', '#111111']),
        anchor: 'middle',
        letterSpacing: 6,
      }),
      `<path d="${body}" fill="url(#fold)"/>`,
    ].join('');
  },
  candle: (s) =>
    [
      `<path d="M360,40 Q420,150 395,210 Q360,250 325,210 Q300,150 360,40 Z" fill="url(#flame)"/>`,
      rect(354, 200, 12, 80, 4, '#3a2a1a'),
      rect(0, 250, 720, 750, 60, s.body),
      `<ellipse cx="360" cy="320" rx="320" ry="40" fill="${lighten(s.body, 0.35)}"/>`,
      rect(100, 500, 520, 360, 10, s.label),
      labelText(s, 360, 500, 520, 360),
      sheenRect(0, 250, 720, 750, 60),
    ].join(''),
  mug: (s) =>
    [
      `<path d="M260,60 q-40,-40 0,-60 M400,70 q-40,-40 0,-70 M540,60 q-40,-40 0,-60" fill="none" stroke="#ffffff" stroke-opacity="0.55" stroke-width="16" stroke-linecap="round"/>`,
      `<path d="M700,340 q300,-20 280,230 q-20,230 -300,200" fill="none" stroke="${darken(s.body, 0.08)}" stroke-width="90"/>`,
      rect(0, 150, 780, 850, 70, s.body),
      `<ellipse cx="390" cy="170" rx="372" ry="40" fill="${darken(s.body, 0.3)}"/>`,
      labelText(s, 390, 460, 600, 320, false),
      sheenRect(0, 150, 780, 850, 70),
    ].join(''),
  shaker: (s) =>
    [
      rect(60, 0, 380, 80, 30, darken(s.cap, 0.1)),
      rect(30, 60, 440, 180, 40, s.cap),
      sheenRect(30, 60, 440, 180, 40),
      `<path d="M0,230 L500,230 L470,970 Q468,1000 440,1000 L60,1000 Q32,1000 30,970 Z" fill="${s.body}"/>`,
      ...[0, 1, 2, 3].map((i) => rect(400, 380 + i * 140, 50, 8, 4, mix(s.body, s.labelInk, 0.5))),
      labelText(s, 230, 480, 340, 300, false),
      `<path d="M0,230 L500,230 L470,970 Q468,1000 440,1000 L60,1000 Q32,1000 30,970 Z" fill="url(#sheen)"/>`,
    ].join(''),
  pillow: (s) => {
    const path = 'M70,120 Q750,20 1430,120 Q1530,500 1430,880 Q750,980 70,880 Q-30,500 70,120 Z';
    return [
      `<path d="${path}" fill="${s.body}"/>`,
      `<path d="M130,190 Q750,100 1370,190 Q1450,500 1370,810 Q750,900 130,810 Q50,500 130,190 Z" fill="none" stroke="${darken(s.body, 0.1)}" stroke-width="8" stroke-dasharray="22 16"/>`,
      rect(1180, 760, 160, 90, 8, s.label),
      labelText(s, 1260, 760, 160, 90, false),
      `<path d="${path}" fill="url(#fold)"/>`,
    ].join('');
  },
  eyeMask: (s) => {
    const mask = 'M140,330 Q500,140 850,330 Q1200,140 1560,330 Q1700,560 1480,780 Q1180,900 850,700 Q520,900 220,780 Q0,560 140,330 Z';
    return [
      rect(0, 440, 1700, 90, 45, darken(s.body, 0.25)),
      `<path d="${mask}" fill="${s.body}"/>`,
      `<path d="${mask}" fill="none" stroke="${lighten(s.body, 0.25)}" stroke-width="14"/>`,
      labelText(s, 850, 420, 560, 220, false),
      `<path d="${mask}" fill="url(#fold)"/>`,
    ].join('');
  },
  bar: (s) => {
    const edge = (x: number, out: number, downward: boolean) =>
      Array.from({ length: 11 }, (_, i) => `L${i % 2 === 0 ? x : x + out},${downward ? 260 + i * 48 : 740 - i * 48}`).join(' ');
    const path = `M100,260 L2200,260 ${edge(2200, 40, true)} L100,740 ${edge(100, -40, false)} Z`;
    return [
      `<path d="${path}" fill="${s.body}"/>`,
      rect(420, 320, 1460, 360, 40, s.label),
      labelText(s, 1150, 320, 1460, 360),
      `<path d="${path}" fill="url(#fold)"/>`,
    ].join('');
  },
  ring: (s) => {
    const gold = s.body;
    return [
      `<ellipse cx="450" cy="640" rx="330" ry="330" fill="none" stroke="${darken(gold, 0.2)}" stroke-width="86"/>`,
      `<ellipse cx="450" cy="630" rx="330" ry="330" fill="none" stroke="${gold}" stroke-width="70"/>`,
      `<path d="M190,480 Q450,260 710,480" fill="none" stroke="${lighten(gold, 0.55)}" stroke-width="16" stroke-linecap="round" opacity="0.8"/>`,
      `<path d="M330,300 L570,300 L640,220 L450,40 L260,220 Z" fill="#eef6ff"/>`,
      `<path d="M260,220 L640,220 L570,300 L330,300 Z" fill="#cfe2f3"/>`,
      `<path d="M260,220 L450,40 L380,220 Z M450,40 L520,220 L640,220 Z" fill="#ffffff"/>`,
      `<path d="M330,300 L450,220 L570,300" fill="none" stroke="#a9c5e0" stroke-width="6"/>`,
      rect(300, 290, 300, 50, 16, gold),
    ].join('');
  },
  necklace: (s) =>
    [
      `<path d="M80,0 Q160,520 450,700 Q740,520 820,0" fill="none" stroke="${s.body}" stroke-width="16" stroke-dasharray="26 8"/>`,
      `<circle cx="450" cy="830" r="150" fill="${s.body}"/>`,
      `<circle cx="450" cy="830" r="115" fill="none" stroke="${darken(s.body, 0.2)}" stroke-width="10"/>`,
      `<circle cx="450" cy="830" r="150" fill="url(#sheen)"/>`,
      rect(430, 680, 40, 50, 12, darken(s.body, 0.15)),
    ].join(''),
  phoneCase: (s) =>
    [
      rect(0, 0, 520, 1000, 86, s.body),
      rect(40, 40, 230, 230, 56, darken(s.body, 0.25)),
      ...[
        [100, 100],
        [210, 100],
        [100, 210],
      ].map(([x, y]) => `<circle cx="${x}" cy="${y}" r="42" fill="#1b1b1f"/><circle cx="${x}" cy="${y}" r="18" fill="#3b4a66"/>`),
      `<circle cx="210" cy="210" r="18" fill="#f5f0d0"/>`,
      labelText(s, 260, 520, 360, 200, false),
      sheenRect(0, 0, 520, 1000, 86),
    ].join(''),
  earbuds: (s) =>
    [
      `<g transform="rotate(-18 300 160)">${rect(250, 60, 100, 260, 50, s.cap)}<ellipse cx="300" cy="70" rx="90" ry="70" fill="${s.cap}"/></g>`,
      `<g transform="rotate(18 600 160)">${rect(550, 60, 100, 260, 50, s.cap)}<ellipse cx="600" cy="70" rx="90" ry="70" fill="${s.cap}"/></g>`,
      rect(0, 300, 900, 700, 220, s.body),
      rect(0, 520, 900, 10, 5, darken(s.body, 0.2)),
      `<circle cx="450" cy="640" r="14" fill="${s.accent}"/>`,
      labelText(s, 450, 700, 520, 200, false),
      sheenRect(0, 300, 900, 700, 220),
    ].join(''),
  powerBank: (s) =>
    [
      rect(0, 0, 560, 1000, 70, s.body),
      rect(180, 30, 200, 40, 14, darken(s.body, 0.35)),
      ...[0, 1, 2, 3].map((i) => `<circle cx="${200 + i * 54}" cy="160" r="14" fill="${i < 3 ? s.accent : darken(s.body, 0.3)}"/>`),
      labelText(s, 280, 420, 420, 260),
      sheenRect(0, 0, 560, 1000, 70),
    ].join(''),
};
