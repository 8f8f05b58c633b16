/**
 * One demo ad creative as SVG, laid out for its size: the brand's colours and
 * type, a product, a headline, an offer and a call to action. The look follows
 * the ad's type: product hero, offer, testimonial, before/after, UGC-style
 * post, carousel card, and the dark Black Friday look.
 */
import { normaliseImageText } from '../../src/lib/media/image-text.ts';
import { contrast, darken, greyscale, isDark, lighten, mix, readableOn } from './colour.ts';
import type { BlackFridayOffer, DemoBrand, DemoOffer, DemoProduct, OfferPill } from './demo-catalog.ts';
import { drawProduct, PRODUCT_DEFS, productAspect, type ProductStyle } from './product-shapes.ts';
import type { SeededRandom } from './seeded-random.ts';
import { fitText, svgText, svgTextBlock, textWidth, type FontFace } from './text-metrics.ts';

export type CreativeLook = 'hero' | 'offer' | 'testimonial' | 'before-after' | 'ugc' | 'carousel' | 'black-friday';

export interface CreativeSpec {
  width: number;
  height: number;
  brand: DemoBrand;
  product: DemoProduct;
  look: CreativeLook;
  headline: string;
  /** A benefit or proof line under the headline. */
  subline: string;
  cta: string;
  offer: DemoOffer;
  /** Hero look: show the offer as a badge on the product. */
  badge: boolean;
  /** Offer look: the pill above the figure, one of the offer's own (DemoOffer.pills); null on other looks. */
  pill: OfferPill | null;
  quote: { text: string; reviewer: string };
  beforeAfter: { before: string; after: string };
  ugc: { hook: string; line: string; likes: string; comments: string };
  blackFriday: BlackFridayOffer & { footnote: string };
}

interface Frame {
  w: number;
  h: number;
  /** 1% of the shorter side. */
  u: number;
  landscape: boolean;
  story: boolean;
  margin: number;
  top: number;
  bottom: number;
}

function frameOf(width: number, height: number): Frame {
  const u = Math.min(width, height) / 100;
  const story = height / width > 1.6;
  const margin = u * 7;
  return {
    w: width,
    h: height,
    u,
    landscape: width / height > 1.4,
    story,
    margin,
    // Stories keep clear of the app's own header and reply bar.
    top: story ? height * 0.1 : margin,
    bottom: story ? height - height * 0.11 : height - margin,
  };
}

interface Type {
  headline: FontFace;
  wordmark: FontFace;
  body: FontFace;
  upperWordmark: boolean;
  wordmarkSpacing: number;
}

function typeOf(brand: DemoBrand): Type {
  switch (brand.typography) {
    case 'serif':
      return { headline: 'serif', wordmark: 'serif', body: 'sans', upperWordmark: true, wordmarkSpacing: 0.18 };
    case 'condensed':
      return { headline: 'condensedBold', wordmark: 'condensedBold', body: 'sans', upperWordmark: true, wordmarkSpacing: 0.06 };
    case 'light':
      return { headline: 'sansLight', wordmark: 'sansLight', body: 'sans', upperWordmark: true, wordmarkSpacing: 0.3 };
    case 'sans':
      return { headline: 'sansBold', wordmark: 'sansBold', body: 'sans', upperWordmark: false, wordmarkSpacing: -0.02 };
  }
}

const headlineText = (brand: DemoBrand, text: string) => (brand.typography === 'condensed' ? text.toUpperCase() : text);

function wordmark(brand: DemoBrand, x: number, baseline: number, size: number, fill: string, anchor: 'start' | 'middle' | 'end' = 'start'): string {
  const type = typeOf(brand);
  const name = type.upperWordmark ? brand.name.toUpperCase() : brand.name.toLowerCase();
  return svgText(name, { x, y: baseline, size, face: type.wordmark, fill, anchor, letterSpacing: size * type.wordmarkSpacing });
}

function productStyle(spec: CreativeSpec, onDark = false): ProductStyle {
  const { palette } = spec.brand;
  const label = onDark ? '#f7f4ef' : lighten(palette.background, 0.75);
  return {
    body: palette.primary,
    cap: contrast(palette.accent, palette.primary) > 1.6 ? palette.accent : darken(palette.primary, 0.45),
    label,
    labelInk: readableOn(label, [palette.ink, '#111111']),
    accent: palette.accent,
    brandName: spec.brand.name,
    productName: spec.product.name,
    face: typeOf(spec.brand).wordmark,
  };
}

/** The product fitted into a box, standing on its bottom edge. */
function placeProduct(spec: CreativeSpec, box: { cx: number; top: number; bottom: number; maxWidth: number }, style: ProductStyle, rotate = 0) {
  const aspect = productAspect(spec.product.shape);
  const height = Math.max(10, Math.min(box.bottom - box.top, box.maxWidth / aspect));
  return {
    svg: drawProduct(spec.product.shape, { cx: box.cx, bottom: box.bottom, height, rotate }, style),
    width: height * aspect,
    height,
  };
}

function button(x: number, y: number, label: string, size: number, fill: string, anchor: 'start' | 'middle', arrow = false): { svg: string; width: number; height: number } {
  const text = arrow ? `${label} →` : label;
  const width = textWidth(text, 'sansBold', size) + size * 2.6;
  const height = size * 2.5;
  const left = anchor === 'middle' ? x - width / 2 : x;
  const svg =
    `<rect x="${left.toFixed(1)}" y="${y.toFixed(1)}" width="${width.toFixed(1)}" height="${height.toFixed(1)}" rx="${(height / 2).toFixed(1)}" fill="${fill}"/>` +
    svgText(text, { x: left + width / 2, y: y + height * 0.66, size, face: 'sansBold', fill: readableOn(fill), anchor: 'middle' });
  return { svg, width, height };
}

/** A starburst sticker with one or two short lines. */
function burst(cx: number, cy: number, r: number, text: string, fill: string, random: SeededRandom): string {
  const points = 18;
  const path = Array.from({ length: points * 2 }, (_, i) => {
    const radius = i % 2 === 0 ? r : r * 0.86;
    const angle = (Math.PI * i) / points;
    return `${(cx + radius * Math.cos(angle)).toFixed(1)},${(cy + radius * Math.sin(angle)).toFixed(1)}`;
  }).join(' ');
  const words = text.split(' ');
  const lines = words.length > 1 && text.length > 7 ? [words.slice(0, Math.ceil(words.length / 2)).join(' '), words.slice(Math.ceil(words.length / 2)).join(' ')] : [text];
  const fitted = fitText(lines.reduce((a, b) => (a.length >= b.length ? a : b)), 'condensedBold', { maxWidth: r * 1.4, maxLines: 1, maxSize: r * 0.46, minSize: r * 0.16 });
  const ink = readableOn(fill);
  const first = cy - ((lines.length - 1) * fitted.size * 1.02) / 2 + fitted.size * 0.36;
  const tilt = random.between(-14, 14).toFixed(1);
  return (
    `<g transform="rotate(${tilt} ${cx.toFixed(1)} ${cy.toFixed(1)})"><polygon points="${path}" fill="${fill}"/>` +
    lines.map((line, i) => svgText(line, { x: cx, y: first + i * fitted.size * 1.02, size: fitted.size, face: 'condensedBold', fill: ink, anchor: 'middle' })).join('') +
    '</g>'
  );
}

function svgDocument(f: Frame, defs: string, body: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${f.w}" height="${f.h}" viewBox="0 0 ${f.w} ${f.h}"><defs>${PRODUCT_DEFS}${defs}</defs>${body}</svg>`;
}

function verticalGradient(id: string, top: string, bottom: string): string {
  return `<linearGradient id="${id}" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${top}"/><stop offset="1" stop-color="${bottom}"/></linearGradient>`;
}

function glow(id: string, colour: string, opacity: number): string {
  return `<radialGradient id="${id}"><stop offset="0" stop-color="${colour}" stop-opacity="${opacity}"/><stop offset="1" stop-color="${colour}" stop-opacity="0"/></radialGradient>`;
}

/** Product hero: headline, benefit, the product on a shape, call to action. */
function heroLook(spec: CreativeSpec, f: Frame, random: SeededRandom): string {
  const { palette } = spec.brand;
  const type = typeOf(spec.brand);
  const ink = palette.ink;
  const parts: string[] = [`<rect width="${f.w}" height="${f.h}" fill="url(#bg)"/>`];
  const defs = verticalGradient('bg', lighten(palette.background, 0.18), darken(palette.background, 0.05));
  const backdrop = random.pick(['circle', 'arch', 'band'] as const);
  const shapeColour = contrast(palette.primary, palette.background) < 1.3 ? mix(palette.accent, palette.background, 0.72) : mix(palette.primary, palette.background, 0.55);

  const square = !f.landscape && f.h / f.w < 1.1;
  if (f.landscape || (square && random.chance(0.6))) {
    const col = f.w * (f.landscape ? 0.5 : 0.56);
    const wm = f.u * (f.landscape ? 6 : 4.6);
    parts.push(wordmark(spec.brand, f.margin, f.margin + wm, wm, ink));
    const headline = fitText(headlineText(spec.brand, spec.headline), type.headline, { maxWidth: col, maxLines: f.landscape ? 3 : 4, maxSize: f.u * (f.landscape ? 12 : 9), minSize: f.u * 5.5 });
    const block = svgTextBlock(headline.lines, { x: f.margin, y: f.margin + wm + f.u * 8 + headline.size * 0.8, size: headline.size, face: type.headline, fill: ink, lineHeight: 1.08 });
    const sub = fitText(spec.subline, type.body, { maxWidth: col, maxLines: 2, maxSize: f.u * (f.landscape ? 4.6 : 3.8), minSize: f.u * 3 });
    const ctaSize = f.u * (f.landscape ? 5 : 3.8);
    const ctaFill = contrast(palette.accent, palette.background) > 2 ? palette.accent : ink;
    const cx = f.w * (f.landscape ? 0.77 : 0.74);
    const cy = f.h * (f.landscape ? 0.52 : 0.6);
    const r = f.landscape ? f.h * 0.46 : f.w * 0.3;
    parts.push(`<circle cx="${cx.toFixed(1)}" cy="${cy.toFixed(1)}" r="${r.toFixed(1)}" fill="${shapeColour}"/>`);
    parts.push(block.svg);
    parts.push(svgTextBlock(sub.lines, { x: f.margin, y: block.bottom + f.u * 4 + sub.size, size: sub.size, face: type.body, fill: ink, opacity: 0.78 }).svg);
    parts.push(button(f.margin, f.h - f.margin - ctaSize * 2.5, spec.cta, ctaSize, ctaFill, 'start', random.chance(0.4)).svg);
    const top = f.landscape ? f.h * 0.14 : f.h * 0.3;
    const bottom = f.landscape ? f.h * 0.86 : f.h - f.margin;
    parts.push(placeProduct(spec, { cx, top, bottom, maxWidth: f.w * (f.landscape ? 0.36 : 0.4) }, productStyle(spec)).svg);
    if (spec.badge) parts.push(burst(Math.min(f.w - f.margin - f.u * 6, cx + r * 0.72), cy - r * 0.78, f.u * (f.landscape ? 11 : 9), spec.offer.badge, palette.accent === ink ? palette.primary : palette.accent, random));
    return svgDocument(f, defs, parts.join(''));
  }

  const centred = f.story || random.chance(0.6);
  const anchor = centred ? 'middle' : 'start';
  const x = centred ? f.w / 2 : f.margin;
  const wm = f.u * 4.6;
  parts.push(wordmark(spec.brand, x, f.top + wm, wm, ink, anchor));
  const headline = fitText(headlineText(spec.brand, spec.headline), type.headline, {
    maxWidth: f.w - f.margin * 2,
    maxLines: square ? 2 : 3,
    maxSize: f.u * (f.story ? 10 : square ? 7.5 : 9),
    minSize: f.u * 5,
  });
  const block = svgTextBlock(headline.lines, { x, y: f.top + wm + f.u * 7 + headline.size * 0.8, size: headline.size, face: type.headline, fill: ink, anchor, lineHeight: 1.08 });
  const sub = fitText(spec.subline, type.body, { maxWidth: f.w - f.margin * 2, maxLines: square ? 1 : 2, maxSize: f.u * 3.8, minSize: f.u * 2.8 });
  const subBlock = svgTextBlock(sub.lines, { x, y: block.bottom + f.u * 3 + sub.size, size: sub.size, face: type.body, fill: ink, anchor, opacity: 0.78 });
  const ctaSize = f.u * 3.6;
  const ctaTop = f.bottom - ctaSize * 2.5;
  const areaTop = subBlock.bottom + f.u * 5;
  const areaBottom = ctaTop - f.u * 6;
  const cx = centred ? f.w / 2 : f.w * 0.58;

  if (backdrop === 'band') {
    parts.push(`<rect x="0" y="${(areaTop + (areaBottom - areaTop) * 0.45).toFixed(1)}" width="${f.w}" height="${f.h}" fill="${shapeColour}"/>`);
  } else if (backdrop === 'arch') {
    const archW = Math.min(f.w * 0.62, (areaBottom - areaTop) * 0.9);
    const left = cx - archW / 2;
    const top = areaTop - f.u * 2;
    parts.push(`<path d="M${left.toFixed(1)},${(areaBottom + f.u * 3).toFixed(1)} L${left.toFixed(1)},${(top + archW / 2).toFixed(1)} A${(archW / 2).toFixed(1)},${(archW / 2).toFixed(1)} 0 0 1 ${(left + archW).toFixed(1)},${(top + archW / 2).toFixed(1)} L${(left + archW).toFixed(1)},${(areaBottom + f.u * 3).toFixed(1)} Z" fill="${shapeColour}"/>`);
  } else {
    const r = Math.min(f.w * 0.4, (areaBottom - areaTop) * 0.55);
    parts.push(`<circle cx="${cx}" cy="${((areaTop + areaBottom) / 2).toFixed(1)}" r="${r.toFixed(1)}" fill="${shapeColour}"/>`);
  }
  parts.push(block.svg, subBlock.svg);
  const product = placeProduct(spec, { cx, top: areaTop, bottom: areaBottom, maxWidth: f.w * 0.6 }, productStyle(spec), random.chance(0.2) ? random.between(-6, 6) : 0);
  parts.push(product.svg);
  if (spec.badge) {
    const r = f.u * 10;
    parts.push(burst(Math.min(f.w - f.margin - r * 0.6, cx + product.width / 2 + r * 0.3), areaTop + r * 0.9, r, spec.offer.badge, palette.accent === ink ? palette.primary : palette.accent, random));
  }
  const ctaFill = contrast(palette.accent, palette.background) > 2 ? palette.accent : ink;
  parts.push(button(centred ? f.w / 2 : f.margin, ctaTop, spec.cta, ctaSize, ctaFill, centred ? 'middle' : 'start', random.chance(0.4)).svg);
  return svgDocument(f, defs, parts.join(''));
}

/** An outlined pill of spaced capitals, its top-left or top-centre at (x, top); its height is 2.2 × size. */
function outlinedPill(x: number, top: number, text: string, size: number, ink: string, stroke: number, anchor: 'start' | 'middle'): string {
  const width = textWidth(text, 'sansBold', size, size * 0.15) + size * 2.4;
  const left = anchor === 'middle' ? x - width / 2 : x;
  return (
    `<rect x="${left.toFixed(1)}" y="${top.toFixed(1)}" width="${width.toFixed(1)}" height="${(size * 2.2).toFixed(1)}" rx="${(size * 1.1).toFixed(1)}" fill="none" stroke="${ink}" stroke-width="${stroke.toFixed(1)}"/>` +
    svgText(text, { x: left + width / 2, y: top + size * 1.48, size, face: 'sansBold', fill: ink, anchor: 'middle', letterSpacing: size * 0.15 })
  );
}

/** Offer: one giant figure on the accent colour, and the pill that says who or how long it is for. */
function offerLook(spec: CreativeSpec, f: Frame): string {
  const { palette } = spec.brand;
  const type = typeOf(spec.brand);
  const background = contrast(palette.accent, palette.background) > 1.5 ? palette.accent : palette.primary;
  const ink = readableOn(background, [palette.background, palette.ink, '#ffffff', '#111111']);
  const defs = verticalGradient('bg', lighten(background, 0.08), darken(background, 0.12)) + glow('halo', palette.background, 0.55);
  const parts = [`<rect width="${f.w}" height="${f.h}" fill="url(#bg)"/>`];
  const ctaFill = ink;

  if (f.landscape) {
    const wm = f.u * 6;
    parts.push(wordmark(spec.brand, f.margin, f.margin + wm, wm, ink));
    const figure = fitText(spec.offer.figure, 'condensedBold', { maxWidth: f.w * 0.5, maxLines: 1, maxSize: f.u * 36, minSize: f.u * 12 });
    const figureY = f.margin + wm + f.u * 6 + figure.size * 0.78;
    parts.push(svgText(figure.lines[0]!, { x: f.margin - f.u, y: figureY, size: figure.size, face: 'condensedBold', fill: ink }));
    parts.push(svgText(spec.offer.figureCaption, { x: f.margin, y: figureY + f.u * 8, size: f.u * 4.4, face: 'sansBold', fill: ink, letterSpacing: f.u * 0.5 }));
    if (spec.pill) parts.push(outlinedPill(f.margin, figureY + f.u * 13, spec.pill, f.u * 3.2, ink, f.u * 0.35, 'start'));
    parts.push(button(f.margin, f.h - f.margin - f.u * 5 * 2.5, spec.cta, f.u * 5, ctaFill, 'start').svg);
    parts.push(`<circle cx="${f.w * 0.76}" cy="${f.h * 0.5}" r="${f.h * 0.5}" fill="url(#halo)"/>`);
    parts.push(placeProduct(spec, { cx: f.w * 0.76, top: f.h * 0.12, bottom: f.h * 0.88, maxWidth: f.w * 0.34 }, productStyle(spec)).svg);
    return svgDocument(f, defs, parts.join(''));
  }

  const wm = f.u * 4.4;
  parts.push(wordmark(spec.brand, f.w / 2, f.top + wm, wm, ink, 'middle'));
  const pillSize = f.u * 2.8;
  const pillTop = f.top + wm + f.u * 5;
  if (spec.pill) parts.push(outlinedPill(f.w / 2, pillTop, spec.pill, pillSize, ink, f.u * 0.35, 'middle'));
  const figure = fitText(spec.offer.figure, 'condensedBold', { maxWidth: f.w - f.margin * 2, maxLines: 1, maxSize: f.u * (f.story ? 40 : f.h / f.w < 1.1 ? 24 : 32), minSize: f.u * 14 });
  const figureBaseline = pillTop + pillSize * 2.2 + f.u * 2 + figure.size * 0.8;
  parts.push(svgText(figure.lines[0]!, { x: f.w / 2, y: figureBaseline, size: figure.size, face: 'condensedBold', fill: ink, anchor: 'middle' }));
  const caption = fitText(spec.offer.figureCaption, 'sansBold', { maxWidth: f.w - f.margin * 2, maxLines: 1, maxSize: f.u * 4.4, minSize: f.u * 2.6, letterSpacingEm: 0.12 });
  parts.push(svgText(caption.lines[0]!, { x: f.w / 2, y: figureBaseline + f.u * 7, size: caption.size, face: 'sansBold', fill: ink, anchor: 'middle', letterSpacing: caption.size * 0.12 }));
  const ctaSize = f.u * 3.8;
  const ctaTop = f.bottom - ctaSize * 2.5;
  const areaTop = figureBaseline + f.u * 12;
  const areaBottom = ctaTop - f.u * 5;
  parts.push(`<ellipse cx="${f.w / 2}" cy="${((areaTop + areaBottom) / 2).toFixed(1)}" rx="${(f.w * 0.45).toFixed(1)}" ry="${((areaBottom - areaTop) * 0.62).toFixed(1)}" fill="url(#halo)"/>`);
  parts.push(placeProduct(spec, { cx: f.w / 2, top: areaTop, bottom: areaBottom, maxWidth: f.w * 0.5 }, productStyle(spec)).svg);
  const headline = fitText(spec.headline, type.body, { maxWidth: f.w * 0.8, maxLines: 1, maxSize: f.u * 3.2, minSize: f.u * 2.4 });
  parts.push(button(f.w / 2, ctaTop, spec.cta, ctaSize, ctaFill, 'middle').svg);
  if (f.story) parts.push(svgText(headline.lines[0]!, { x: f.w / 2, y: ctaTop - f.u * 2.5, size: headline.size, face: type.body, fill: ink, anchor: 'middle', opacity: 0.85 }));
  return svgDocument(f, defs, parts.join(''));
}

function stars(x: number, y: number, size: number, fill: string, anchor: 'start' | 'middle'): string {
  return svgText('★★★★★', { x, y, size, face: 'sansBold', fill, anchor, letterSpacing: size * 0.12 });
}

/** Testimonial: a review card with stars, the quote and the reviewer. */
function testimonialLook(spec: CreativeSpec, f: Frame, random: SeededRandom): string {
  const { palette } = spec.brand;
  const type = typeOf(spec.brand);
  const background = palette.background;
  const ink = palette.ink;
  const card = isDark(background) ? lighten(background, 0.1) : '#ffffff';
  const cardInk = readableOn(card, [ink, '#111111', '#ffffff']);
  const starColour = '#f5a623';
  const defs = verticalGradient('bg', lighten(background, 0.1), darken(background, 0.06));
  const parts = [`<rect width="${f.w}" height="${f.h}" fill="url(#bg)"/>`];
  const quoteFace: FontFace = spec.brand.typography === 'serif' || random.chance(0.4) ? 'serifItalic' : 'sansBold';
  const quoteText = `“${spec.quote.text}”`;

  const cardX = f.margin;
  const cardW = f.landscape ? f.w * 0.56 : f.w - f.margin * 2;
  const wm = f.u * (f.landscape ? 5.6 : 4.4);
  parts.push(wordmark(spec.brand, f.landscape ? f.margin : f.w / 2, f.top + wm, wm, ink, f.landscape ? 'start' : 'middle'));
  const cardTop = f.top + wm + f.u * 5;
  const pad = f.u * 5;
  const quote = fitText(quoteText, quoteFace, { maxWidth: cardW - pad * 2, maxLines: f.landscape ? 3 : 4, maxSize: f.u * (f.landscape ? 7.4 : 6.4), minSize: f.u * 3.6 });
  const starSize = f.u * 5;
  const quoteTop = cardTop + pad + starSize + f.u * 3;
  const quoteBlock = svgTextBlock(quote.lines, { x: cardX + pad, y: quoteTop + quote.size * 0.8, size: quote.size, face: quoteFace, fill: cardInk, lineHeight: 1.22 });
  const reviewerY = quoteBlock.bottom + f.u * 6;
  const cardH = reviewerY + pad * 0.8 - cardTop;
  parts.push(`<rect x="${cardX + f.u}" y="${cardTop + f.u * 1.4}" width="${cardW}" height="${cardH}" rx="${f.u * 3}" fill="#000000" opacity="0.08"/>`);
  parts.push(`<rect x="${cardX}" y="${cardTop}" width="${cardW}" height="${cardH}" rx="${f.u * 3}" fill="${card}"/>`);
  parts.push(stars(cardX + pad, cardTop + pad + starSize * 0.8, starSize, starColour, 'start'));
  parts.push(quoteBlock.svg);
  parts.push(svgText(`${spec.quote.reviewer}`, { x: cardX + pad, y: reviewerY, size: f.u * 3.2, face: 'sansBold', fill: cardInk }));
  const reviewerWidth = textWidth(spec.quote.reviewer, 'sansBold', f.u * 3.2);
  parts.push(svgText('✓ Verified buyer', { x: cardX + pad + reviewerWidth + f.u * 2.4, y: reviewerY, size: f.u * 2.8, face: 'sans', fill: '#2e9d57' }));

  const ctaSize = f.u * 3.6;
  if (f.landscape) {
    parts.push(button(f.margin, f.h - f.margin - ctaSize * 2.5, spec.cta, ctaSize, palette.accent, 'start').svg);
    parts.push(placeProduct(spec, { cx: f.w * 0.82, top: f.h * 0.16, bottom: f.h * 0.86, maxWidth: f.w * 0.28 }, productStyle(spec)).svg);
    return svgDocument(f, defs, parts.join(''));
  }
  const ctaTop = f.bottom - ctaSize * 2.5;
  const areaTop = cardTop + cardH + f.u * 4;
  const areaBottom = ctaTop - f.u * 9;
  const ratingLine = `Rated 4.${random.int(7, 9)}/5 by ${random.int(2, 40)},${random.int(100, 999)} customers`;
  parts.push(`<ellipse cx="${f.w / 2}" cy="${areaBottom}" rx="${f.w * 0.3}" ry="${f.u * 3}" fill="${darken(background, 0.08)}"/>`);
  parts.push(placeProduct(spec, { cx: f.w / 2, top: areaTop, bottom: areaBottom, maxWidth: f.w * 0.5 }, productStyle(spec)).svg);
  parts.push(svgText(ratingLine, { x: f.w / 2, y: ctaTop - f.u * 2.6, size: f.u * 2.8, face: 'sans', fill: ink, anchor: 'middle', opacity: 0.75 }));
  parts.push(button(f.w / 2, ctaTop, spec.cta, ctaSize, contrast(palette.accent, background) > 2 ? palette.accent : ink, 'middle').svg);
  return svgDocument(f, defs, parts.join(''));
}

/** Before/after: a dull generic product beside the brand's, each with its caption. */
function beforeAfterLook(spec: CreativeSpec, f: Frame, random: SeededRandom): string {
  const { palette } = spec.brand;
  const type = typeOf(spec.brand);
  const ink = palette.ink;
  const defs = '';
  const parts = [`<rect width="${f.w}" height="${f.h}" fill="${palette.background}"/>`];
  const wm = f.u * (f.landscape ? 5 : 4.2);
  const headerX = f.w / 2;
  parts.push(wordmark(spec.brand, headerX, f.top + wm, wm, ink, 'middle'));
  const headline = fitText(headlineText(spec.brand, spec.headline), type.headline, { maxWidth: f.w - f.margin * 2, maxLines: 2, maxSize: f.u * (f.landscape ? 8.5 : 7.2), minSize: f.u * 4.4 });
  const block = svgTextBlock(headline.lines, { x: headerX, y: f.top + wm + f.u * 4 + headline.size * 0.85, size: headline.size, face: type.headline, fill: ink, anchor: 'middle', lineHeight: 1.06 });
  parts.push(block.svg);
  const ctaSize = f.u * 3.4;
  const ctaTop = f.bottom - ctaSize * 2.5;
  const panelTop = block.bottom + f.u * 4;
  const panelBottom = ctaTop - f.u * 4;
  const gap = f.u * 1.6;
  const panelW = (f.w - f.margin * 2 - gap) / 2;
  const beforeBg = greyscale(mix(palette.background, '#9a9a9a', 0.45));
  const afterBg = mix(palette.primary, palette.background, contrast(palette.primary, palette.background) < 1.3 ? 0.25 : 0.55);
  const panels = [
    { x: f.margin, fill: beforeBg, label: 'BEFORE', caption: `✗ ${spec.beforeAfter.before}`, before: true },
    { x: f.margin + panelW + gap, fill: afterBg, label: 'AFTER', caption: `✓ ${spec.beforeAfter.after}`, before: false },
  ];
  const labelSize = f.u * 3;
  for (const panel of panels) {
    const panelInk = readableOn(panel.fill, [ink, '#ffffff', '#111111']);
    parts.push(`<rect x="${panel.x.toFixed(1)}" y="${panelTop.toFixed(1)}" width="${panelW.toFixed(1)}" height="${(panelBottom - panelTop).toFixed(1)}" rx="${(f.u * 2.4).toFixed(1)}" fill="${panel.fill}"/>`);
    const pillW = textWidth(panel.label, 'sansBold', labelSize, labelSize * 0.15) + labelSize * 2;
    const pillFill = panel.before ? '#3d3d3d' : palette.accent === panel.fill ? ink : palette.accent;
    parts.push(`<rect x="${(panel.x + f.u * 2.4).toFixed(1)}" y="${(panelTop + f.u * 2.4).toFixed(1)}" width="${pillW.toFixed(1)}" height="${(labelSize * 2).toFixed(1)}" rx="${labelSize}" fill="${pillFill}"/>`);
    parts.push(svgText(panel.label, { x: panel.x + f.u * 2.4 + pillW / 2, y: panelTop + f.u * 2.4 + labelSize * 1.38, size: labelSize, face: 'sansBold', fill: readableOn(pillFill), anchor: 'middle', letterSpacing: labelSize * 0.15 }));
    const caption = fitText(panel.caption, 'sansBold', { maxWidth: panelW - f.u * 5, maxLines: 2, maxSize: f.u * 3.4, minSize: f.u * 2.2 });
    const captionBlock = svgTextBlock(caption.lines, { x: panel.x + panelW / 2, y: panelBottom - f.u * 3 - (caption.lines.length - 1) * caption.size * 1.12, size: caption.size, face: 'sansBold', fill: panelInk, anchor: 'middle' });
    const productTop = panelTop + labelSize * 2 + f.u * 6;
    const productBottom = panelBottom - f.u * 6 - caption.lines.length * caption.size * 1.12;
    const style = productStyle(spec);
    const dull: ProductStyle = { ...style, body: greyscale(mix(style.body, '#8c8c8c', 0.5)), cap: '#6b6b6b', label: '#d9d9d9', labelInk: '#5a5a5a', brandName: 'Generic', productName: 'Ordinary formula' };
    parts.push(placeProduct(spec, { cx: panel.x + panelW / 2, top: productTop, bottom: productBottom, maxWidth: panelW * 0.7 }, panel.before ? dull : style, panel.before ? random.between(-7, -3) : 0).svg);
    if (!panel.before) {
      for (let i = 0; i < 3; i += 1) {
        parts.push(svgText('✦', { x: panel.x + panelW * random.between(0.12, 0.88), y: productTop + (productBottom - productTop) * random.between(0.05, 0.5), size: f.u * random.between(3, 5.5), face: 'sans', fill: '#ffffff', opacity: 0.9 }));
      }
    }
    parts.push(captionBlock.svg);
  }
  parts.push(button(f.w / 2, ctaTop, spec.cta, ctaSize, contrast(palette.accent, palette.background) > 2 ? palette.accent : ink, 'middle').svg);
  return svgDocument(f, defs, parts.join(''));
}

/** A creator-style post: a photo-like backdrop, caption stickers, the social app's chrome. */
function ugcLook(spec: CreativeSpec, f: Frame, random: SeededRandom): string {
  const { palette } = spec.brand;
  const warm = random.pick(['#d9c7b3', '#c9b8a8', '#e3d3c0', '#b9b2a8', '#d6c2ad']);
  const wall = mix(warm, palette.background, 0.35);
  const table = darken(mix(warm, palette.primary, 0.15), 0.22);
  const defs =
    verticalGradient('wall', lighten(wall, 0.12), darken(wall, 0.1)) +
    verticalGradient('table', lighten(table, 0.05), darken(table, 0.25)) +
    glow('bokehA', '#ffffff', 0.55) +
    glow('bokehB', palette.primary, 0.45) +
    glow('window', '#fff8e8', 0.7);
  const parts = [`<rect width="${f.w}" height="${f.h}" fill="url(#wall)"/>`];
  parts.push(`<ellipse cx="${f.w * random.between(0.6, 0.9)}" cy="${f.h * 0.2}" rx="${f.w * 0.5}" ry="${f.h * 0.35}" fill="url(#window)"/>`);
  for (let i = 0; i < 6; i += 1) {
    parts.push(`<circle cx="${(f.w * random.next()).toFixed(1)}" cy="${(f.h * random.between(0.05, 0.6)).toFixed(1)}" r="${(f.u * random.between(4, 14)).toFixed(1)}" fill="url(#${i % 2 ? 'bokehA' : 'bokehB'})"/>`);
  }
  const tableTop = f.h * (f.landscape ? 0.72 : 0.7);
  parts.push(`<rect x="0" y="${tableTop.toFixed(1)}" width="${f.w}" height="${(f.h - tableTop).toFixed(1)}" fill="url(#table)"/>`);
  parts.push(`<rect x="0" y="${tableTop.toFixed(1)}" width="${f.w}" height="${(f.u * 0.8).toFixed(1)}" fill="#ffffff" opacity="0.18"/>`);
  const productCx = f.landscape ? f.w * 0.68 : f.w * random.between(0.42, 0.58);
  const productTop = f.landscape ? f.h * 0.22 : f.h * 0.4;
  parts.push(placeProduct(spec, { cx: productCx, top: productTop, bottom: tableTop + f.u * 6, maxWidth: f.w * (f.landscape ? 0.3 : 0.55) }, productStyle(spec), random.between(-8, 8)).svg);

  // Top: the post's author and, on stories, the progress bars.
  const shadow = (svg: string) => svg.replace('<text ', '<text opacity="0.35" transform="translate(2 2)" ') + svg;
  const handle = `@${spec.brand.name.toLowerCase().replace(/[^a-z0-9]+/g, '')}`;
  let y = f.story ? f.h * 0.06 : f.margin;
  if (f.story) {
    for (let i = 0; i < 4; i += 1) {
      const barW = (f.w - f.margin * 2 - f.u * 3) / 4;
      parts.push(`<rect x="${(f.margin + i * (barW + f.u)).toFixed(1)}" y="${y.toFixed(1)}" width="${barW.toFixed(1)}" height="${(f.u * 0.6).toFixed(1)}" rx="${(f.u * 0.3).toFixed(1)}" fill="#ffffff" opacity="${i === 0 ? 0.95 : 0.45}"/>`);
    }
    y += f.u * 3;
  }
  const avatarR = f.u * 4;
  parts.push(`<circle cx="${(f.margin + avatarR).toFixed(1)}" cy="${(y + avatarR).toFixed(1)}" r="${avatarR.toFixed(1)}" fill="${palette.accent}" stroke="#ffffff" stroke-width="${(f.u * 0.5).toFixed(1)}"/>`);
  parts.push(svgText(spec.brand.name[0]!.toUpperCase(), { x: f.margin + avatarR, y: y + avatarR * 1.36, size: avatarR, face: 'sansBold', fill: readableOn(palette.accent), anchor: 'middle' }));
  parts.push(shadow(svgText(handle, { x: f.margin + avatarR * 2 + f.u * 2, y: y + avatarR * 0.9, size: f.u * 3, face: 'sansBold', fill: '#ffffff' })));
  parts.push(shadow(svgText('Sponsored', { x: f.margin + avatarR * 2 + f.u * 2, y: y + avatarR * 1.75, size: f.u * 2.4, face: 'sans', fill: '#ffffff' })));

  // Caption stickers, one box per line as creator apps draw them.
  const stickerSize = f.u * (f.landscape ? 5 : 4.6);
  const stickerText = `${spec.ugc.hook} ${spec.ugc.line}`;
  const lines = fitText(stickerText, 'sansBold', { maxWidth: f.w * (f.landscape ? 0.48 : 0.78), maxLines: 3, maxSize: stickerSize, minSize: f.u * 3 });
  let stickerY = y + avatarR * 2 + f.u * (f.story ? 10 : 6);
  const stickerX = f.landscape ? f.margin + f.w * 0.24 : f.w / 2;
  for (const line of lines.lines) {
    const lineW = textWidth(line, 'sansBold', lines.size) + lines.size * 1.1;
    const boxH = lines.size * 1.5;
    parts.push(`<rect x="${(stickerX - lineW / 2).toFixed(1)}" y="${stickerY.toFixed(1)}" width="${lineW.toFixed(1)}" height="${boxH.toFixed(1)}" rx="${(lines.size * 0.3).toFixed(1)}" fill="#ffffff"/>`);
    parts.push(svgText(line, { x: stickerX, y: stickerY + boxH * 0.7, size: lines.size, face: 'sansBold', fill: '#111111', anchor: 'middle' }));
    stickerY += boxH - f.u * 0.2;
  }

  // Right rail: like, comment, share.
  if (!f.landscape) {
    const railX = f.w - f.margin - f.u * 2;
    let railY = f.h * (f.story ? 0.52 : 0.42);
    const iconSize = f.u * 3.2;
    const icons = [
      `<path d="M0,-0.55 C-0.2,-1 -1,-0.95 -1,-0.35 C-1,0.15 -0.45,0.5 0,0.95 C0.45,0.5 1,0.15 1,-0.35 C1,-0.95 0.2,-1 0,-0.55 Z" fill="#ffffff"/>`,
      `<path d="M-1,-0.8 H1 V0.5 H-0.2 L-0.7,1 V0.5 H-1 Z" fill="#ffffff"/>`,
      `<path d="M-1,0.9 C-0.9,-0.2 -0.2,-0.5 0.3,-0.5 V-1 L1,-0.1 L0.3,0.7 V0.2 C-0.3,0.2 -0.7,0.4 -1,0.9 Z" fill="#ffffff"/>`,
    ];
    const counts = [spec.ugc.likes, spec.ugc.comments, 'Share'];
    icons.forEach((icon, i) => {
      parts.push(`<g transform="translate(${railX.toFixed(1)} ${railY.toFixed(1)}) scale(${iconSize.toFixed(1)})" opacity="0.95">${icon}</g>`);
      parts.push(shadow(svgText(counts[i]!, { x: railX, y: railY + iconSize * 1.9, size: f.u * 2.3, face: 'sansBold', fill: '#ffffff', anchor: 'middle' })));
      railY += iconSize * 4;
    });
  }

  // Bottom: the link sticker.
  const ctaSize = f.u * 3.4;
  const ctaY = (f.story ? f.bottom : f.h - f.margin) - ctaSize * 2.5;
  parts.push(button(f.landscape ? f.margin : f.w / 2, ctaY, spec.cta, ctaSize, '#ffffff', f.landscape ? 'start' : 'middle', true).svg);
  return svgDocument(f, defs, parts.join(''));
}

/** The first card of a carousel: a product tile, the next card peeking in, page dots. */
function carouselLook(spec: CreativeSpec, f: Frame, random: SeededRandom): string {
  const { palette } = spec.brand;
  const type = typeOf(spec.brand);
  const ink = palette.ink;
  const tile = mix(palette.primary, palette.background, contrast(palette.primary, palette.background) < 1.3 ? 0.3 : 0.7);
  const defs = glow('spot', '#ffffff', 0.5);
  const parts = [`<rect width="${f.w}" height="${f.h}" fill="${palette.background}"/>`];
  const slides = random.int(3, 6);
  const wm = f.u * (f.landscape ? 5 : 4.2);
  parts.push(wordmark(spec.brand, f.margin, f.top + wm, wm, ink));
  const pillSize = f.u * 2.6;
  const pillLabel = `1/${slides}`;
  const pillW = textWidth(pillLabel, 'sansBold', pillSize) + pillSize * 2;
  parts.push(`<rect x="${(f.w - f.margin - pillW).toFixed(1)}" y="${(f.top + wm - pillSize * 1.5).toFixed(1)}" width="${pillW.toFixed(1)}" height="${(pillSize * 2).toFixed(1)}" rx="${pillSize}" fill="${ink}" opacity="0.85"/>`);
  parts.push(svgText(pillLabel, { x: f.w - f.margin - pillW / 2, y: f.top + wm - pillSize * 0.1, size: pillSize, face: 'sansBold', fill: readableOn(ink), anchor: 'middle' }));
  const headline = fitText(headlineText(spec.brand, spec.headline), type.headline, { maxWidth: f.landscape ? f.w * 0.4 : f.w - f.margin * 2, maxLines: f.landscape ? 4 : 2, maxSize: f.u * (f.landscape ? 9 : 7), minSize: f.u * 4.2 });

  const dotsY = f.bottom - f.u * 2;
  const tileTop = f.landscape ? f.margin : f.top + wm + f.u * 5 + headline.lines.length * headline.size * 1.08 + f.u * 2;
  const tileLeft = f.landscape ? f.w * 0.48 : f.margin;
  const tileW = f.landscape ? f.w * 0.4 : f.w - f.margin * 2 - f.u * 8;
  const tileBottom = f.landscape ? f.h - f.margin : dotsY - f.u * 12;
  parts.push(`<rect x="${tileLeft.toFixed(1)}" y="${tileTop.toFixed(1)}" width="${tileW.toFixed(1)}" height="${(tileBottom - tileTop).toFixed(1)}" rx="${(f.u * 3).toFixed(1)}" fill="${tile}"/>`);
  const nextLeft = tileLeft + tileW + f.u * 2.5;
  parts.push(`<rect x="${nextLeft.toFixed(1)}" y="${tileTop.toFixed(1)}" width="${(tileW * 0.8).toFixed(1)}" height="${(tileBottom - tileTop).toFixed(1)}" rx="${(f.u * 3).toFixed(1)}" fill="${palette.accent === palette.background ? ink : palette.accent}"/>`);
  parts.push(`<ellipse cx="${(tileLeft + tileW / 2).toFixed(1)}" cy="${((tileTop + tileBottom) / 2).toFixed(1)}" rx="${(tileW * 0.45).toFixed(1)}" ry="${((tileBottom - tileTop) * 0.4).toFixed(1)}" fill="url(#spot)"/>`);
  parts.push(placeProduct(spec, { cx: tileLeft + tileW / 2, top: tileTop + (tileBottom - tileTop) * 0.14, bottom: tileBottom - (tileBottom - tileTop) * 0.12, maxWidth: tileW * 0.66 }, productStyle(spec)).svg);
  const chip = fitText(spec.product.name, 'sansBold', { maxWidth: tileW * 0.7, maxLines: 1, maxSize: f.u * 3, minSize: f.u * 2 });
  const chipW = textWidth(chip.lines[0]!, 'sansBold', chip.size) + chip.size * 2;
  parts.push(`<rect x="${(tileLeft + f.u * 3).toFixed(1)}" y="${(tileBottom - f.u * 3 - chip.size * 2).toFixed(1)}" width="${chipW.toFixed(1)}" height="${(chip.size * 2).toFixed(1)}" rx="${chip.size}" fill="#ffffff"/>`);
  parts.push(svgText(chip.lines[0]!, { x: tileLeft + f.u * 3 + chipW / 2, y: tileBottom - f.u * 3 - chip.size * 0.62, size: chip.size, face: 'sansBold', fill: '#111111', anchor: 'middle' }));

  if (f.landscape) {
    const block = svgTextBlock(headline.lines, { x: f.margin, y: f.top + wm + f.u * 7 + headline.size * 0.8, size: headline.size, face: type.headline, fill: ink, lineHeight: 1.08 });
    parts.push(block.svg);
    parts.push(svgText(`Swipe for all ${slides} →`, { x: f.margin, y: f.h - f.margin, size: f.u * 3.8, face: 'sansBold', fill: ink }));
  } else {
    parts.push(svgTextBlock(headline.lines, { x: f.margin, y: f.top + wm + f.u * 5 + headline.size * 0.85, size: headline.size, face: type.headline, fill: ink, lineHeight: 1.08 }).svg);
    const dotR = f.u * 0.9;
    for (let i = 0; i < slides; i += 1) {
      parts.push(`<circle cx="${(f.w / 2 + (i - (slides - 1) / 2) * dotR * 3.4).toFixed(1)}" cy="${dotsY.toFixed(1)}" r="${dotR.toFixed(1)}" fill="${ink}" opacity="${i === 0 ? 0.9 : 0.3}"/>`);
    }
    const ctaSize = f.u * 3.2;
    parts.push(button(f.margin, tileBottom + f.u * 3, spec.cta, ctaSize, contrast(palette.accent, palette.background) > 2 ? palette.accent : ink, 'start').svg);
    parts.push(svgText('Swipe →', { x: f.w - f.margin, y: tileBottom + f.u * 3 + ctaSize * 1.65, size: ctaSize, face: 'sansBold', fill: ink, anchor: 'end' }));
  }
  return svgDocument(f, defs, parts.join(''));
}

const NEON = ['#ff3b30', '#f5c518', '#39ff88', '#ff4fa3', '#3ad3ff'];

/** Black Friday: near-black ground, a loud percentage, the product in a glow. */
function blackFridayLook(spec: CreativeSpec, f: Frame, random: SeededRandom): string {
  const { palette } = spec.brand;
  const ground = random.pick(['#0b0b0d', '#101014', '#0d0c0a']);
  const accent = contrast(palette.accent, ground) > 6 ? palette.accent : contrast(palette.primary, ground) > 6 ? palette.primary : random.pick(NEON);
  const white = '#f6f4ef';
  const defs = glow('bfglow', accent, 0.38) + verticalGradient('bg', lighten(ground, 0.06), ground);
  const parts = [`<rect width="${f.w}" height="${f.h}" fill="url(#bg)"/>`];
  const tape = random.chance(0.45);
  const bf = spec.blackFriday;
  const ctaSize = f.u * 3.6;

  if (f.landscape || f.h / f.w < 1.1) {
    const wm = f.u * (f.landscape ? 5 : 4.2);
    parts.push(wordmark(spec.brand, f.margin, f.margin + wm, wm, white));
    const title = fitText('BLACK FRIDAY', 'condensedBold', { maxWidth: f.w * 0.52, maxLines: 1, maxSize: f.u * 16, minSize: f.u * 8 });
    const titleY = f.margin + wm + f.u * 4 + title.size * 0.8;
    parts.push(svgText('BLACK FRIDAY', { x: f.margin, y: titleY, size: title.size, face: 'condensedBold', fill: white }));
    const figure = fitText(bf.figure, 'condensedBold', { maxWidth: f.w * 0.52, maxLines: 1, maxSize: f.u * 22, minSize: f.u * 10 });
    parts.push(svgText(bf.figure, { x: f.margin, y: titleY + figure.size * 0.95, size: figure.size, face: 'condensedBold', fill: accent }));
    parts.push(svgText(bf.caption, { x: f.margin, y: titleY + figure.size * 0.95 + f.u * 6, size: f.u * 3.6, face: 'sansBold', fill: white, letterSpacing: f.u * 0.5 }));
    parts.push(button(f.margin, f.h - f.margin - ctaSize * 2.5, spec.cta, ctaSize, accent, 'start').svg);
    parts.push(`<circle cx="${f.w * 0.77}" cy="${f.h * 0.52}" r="${f.h * 0.5}" fill="url(#bfglow)"/>`);
    parts.push(placeProduct(spec, { cx: f.w * 0.77, top: f.h * (f.landscape ? 0.14 : 0.34), bottom: f.h * 0.86, maxWidth: f.w * 0.32 }, productStyle(spec, true)).svg);
    parts.push(svgText(bf.footnote, { x: f.w - f.margin, y: f.h - f.margin * 0.6, size: f.u * 2.4, face: 'sans', fill: white, anchor: 'end', opacity: 0.6 }));
    return svgDocument(f, defs, parts.join(''));
  }

  const wm = f.u * 4.2;
  parts.push(wordmark(spec.brand, f.w / 2, f.top + wm, wm, white, 'middle'));
  let y = f.top + wm + f.u * 4;
  if (tape) {
    const tapeH = f.u * 8;
    const tapeY = y + f.u * 4;
    const phrase = Array.from({ length: 8 }, () => 'BLACK FRIDAY').join('  •  ');
    parts.push(`<g transform="rotate(-6 ${f.w / 2} ${tapeY + tapeH / 2})"><rect x="${-f.w * 0.2}" y="${tapeY}" width="${f.w * 1.4}" height="${tapeH}" fill="${accent}"/>` +
      svgText(phrase, { x: -f.w * 0.15, y: tapeY + tapeH * 0.7, size: tapeH * 0.6, face: 'condensedBold', fill: readableOn(accent), letterSpacing: f.u * 0.3 }) + '</g>');
    y = tapeY + tapeH + f.u * 8;
  } else {
    const title = fitText('FRIDAY', 'condensedBold', { maxWidth: f.w - f.margin * 2, maxLines: 1, maxSize: f.u * (f.story ? 24 : 16), minSize: f.u * 8, letterSpacingEm: 0.03 });
    parts.push(svgText('BLACK', { x: f.w / 2, y: y + title.size * 0.78, size: title.size, face: 'condensedBold', fill: white, anchor: 'middle', letterSpacing: title.size * 0.03 }));
    parts.push(svgText('FRIDAY', { x: f.w / 2, y: y + title.size * 1.62, size: title.size, face: 'condensedBold', fill: 'none', anchor: 'middle', letterSpacing: title.size * 0.03 }).replace('fill="none"', `fill="none" stroke="${white}" stroke-width="${(f.u * 0.35).toFixed(1)}"`));
    y += title.size * 1.7;
  }
  const figure = fitText(bf.figure, 'condensedBold', { maxWidth: f.w - f.margin * 2, maxLines: 1, maxSize: f.u * (tape ? 26 : 17), minSize: f.u * 9 });
  parts.push(svgText(bf.figure, { x: f.w / 2, y: y + figure.size * 0.78, size: figure.size, face: 'condensedBold', fill: accent, anchor: 'middle' }));
  y += figure.size * 0.78 + f.u * 6;
  parts.push(svgText(bf.caption, { x: f.w / 2, y, size: f.u * 3.4, face: 'sansBold', fill: white, anchor: 'middle', letterSpacing: f.u * 0.6 }));
  const ctaTop = f.bottom - ctaSize * 2.5 - f.u * 5;
  const areaTop = y + f.u * 6;
  const areaBottom = ctaTop - f.u * 4;
  if (areaBottom - areaTop > f.u * 10) {
    parts.push(`<ellipse cx="${f.w / 2}" cy="${((areaTop + areaBottom) / 2).toFixed(1)}" rx="${(f.w * 0.5).toFixed(1)}" ry="${((areaBottom - areaTop) * 0.7).toFixed(1)}" fill="url(#bfglow)"/>`);
    parts.push(placeProduct(spec, { cx: f.w / 2, top: areaTop, bottom: areaBottom, maxWidth: f.w * 0.5 }, productStyle(spec, true)).svg);
  }
  parts.push(button(f.w / 2, ctaTop, spec.cta, ctaSize, accent, 'middle').svg);
  parts.push(svgText(bf.footnote, { x: f.w / 2, y: f.bottom, size: f.u * 2.6, face: 'sans', fill: white, anchor: 'middle', opacity: 0.7 }));
  for (let i = 0; i < 5; i += 1) {
    parts.push(svgText('✦', { x: f.w * random.between(0.06, 0.94), y: f.h * random.between(0.2, 0.8), size: f.u * random.between(2, 4), face: 'sans', fill: i % 2 ? accent : white, opacity: 0.6 }));
  }
  return svgDocument(f, defs, parts.join(''));
}

const LOOKS: Record<CreativeLook, (spec: CreativeSpec, f: Frame, random: SeededRandom) => string> = {
  hero: heroLook,
  offer: offerLook,
  testimonial: testimonialLook,
  'before-after': beforeAfterLook,
  ugc: ugcLook,
  carousel: carouselLook,
  'black-friday': blackFridayLook,
};

export function renderCreativeSvg(spec: CreativeSpec, random: SeededRandom): string {
  return LOOKS[spec.look](spec, frameOf(spec.width, spec.height), random);
}

const ENTITY = /&#(\d+);|&(amp|lt|gt|quot|apos);/g;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
/** Marks drawn as decoration (stars, sparkles, arrows, ticks) are not words: the same rule as the OCR's (src/lib/media/image-text.ts). */
const WORD = /[\p{L}\p{N}]/u;

/**
 * The words a rendered creative draws, in drawing order and as drawn
 * (upper-cased where the look draws them so): the demo ad's image_text, so
 * the library is searchable without OCR at seed time. Taken from the SVG that
 * is rasterised, so it is exactly what the image shows; the drop shadow a UGC
 * caption is drawn with is a second copy of its text and is left out.
 */
export function drawnText(svg: string): string {
  const words: string[] = [];
  for (const match of svg.matchAll(/<text\b([^>]*)>([^<]*)<\/text>/g)) {
    if (match[1]!.includes('transform="translate(2 2)"')) continue;
    const text = match[2]!.replace(ENTITY, (_, code: string | undefined, name: string | undefined) => (code ? String.fromCharCode(Number(code)) : NAMED[name!]!));
    words.push(...text.split(/\s+/u).filter((word) => WORD.test(word)));
  }
  return normaliseImageText(words.join(' '));
}

/** A square logo: a monogram, or the whole name when it is short, on a brand colour. */
export function renderLogoSvg(brand: DemoBrand, size = 128): string {
  const type = typeOf(brand);
  const onPrimary = contrast(brand.palette.primary, brand.palette.background) > 1.5 && brand.palette.primary !== '#ffffff';
  const background = onPrimary ? brand.palette.primary : brand.palette.background;
  const ink = readableOn(background, [brand.palette.ink, '#ffffff', '#111111']);
  const words = brand.name.replace(/[^A-Za-z ]/g, '').split(' ').filter(Boolean);
  const short = brand.name.length <= 7;
  const text = short ? (type.upperWordmark ? brand.name.toUpperCase() : brand.name.toLowerCase()) : words.slice(0, 2).map((word) => word[0]).join('').toUpperCase();
  const fitted = fitText(text, type.wordmark, { maxWidth: size * (short ? 0.8 : 0.5), maxLines: 1, maxSize: size * (short ? 0.3 : 0.4), minSize: size * 0.1 });
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">` +
    `<rect width="${size}" height="${size}" fill="${background}"/>` +
    (short ? '' : `<circle cx="${size / 2}" cy="${size / 2}" r="${size * 0.36}" fill="none" stroke="${ink}" stroke-width="${size * 0.025}"/>`) +
    svgText(text, { x: size / 2, y: size / 2 + fitted.size * 0.36, size: fitted.size, face: type.wordmark, fill: ink, anchor: 'middle' }) +
    '</svg>'
  );
}

/**
 * A page banner's background, a tagline and a line under it; the seeder lays real creatives over its right side.
 * The tagline is not the page's title: the page says that itself, under the banner.
 */
export function renderBannerSvg(title: string, subtitle: string, dark: boolean, accent: string, width = 1600, height = 400): string {
  const background = dark ? '#0b0b0d' : '#f4efe8';
  const ink = dark ? '#f6f4ef' : '#17171a';
  const defs = `<defs>${glow('bannerGlow', accent, dark ? 0.45 : 0.35)}</defs>`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${defs}` +
    `<rect width="${width}" height="${height}" fill="${background}"/>` +
    `<ellipse cx="${width * 0.74}" cy="${height / 2}" rx="${width * 0.34}" ry="${height * 0.9}" fill="url(#bannerGlow)"/>` +
    `<rect x="80" y="112" width="64" height="8" fill="${accent}"/>` +
    svgText(title, { x: 80, y: 214, size: fitText(title, 'sansBold', { maxWidth: 600, maxLines: 1, maxSize: 80, minSize: 40 }).size, face: 'sansBold', fill: ink }) +
    svgText(subtitle, { x: 82, y: 272, size: 30, face: 'sans', fill: ink, opacity: 0.75 }) +
    '</svg>'
  );
}
