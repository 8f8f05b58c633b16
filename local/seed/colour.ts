/** Colour arithmetic on #rrggbb strings for deriving shades from a brand palette. */
type Rgb = [number, number, number];

function parseHex(hex: string): Rgb {
  const match = /^#([0-9a-f]{6})$/i.exec(hex);
  if (!match) throw new Error(`Not a #rrggbb colour: ${hex}`);
  const value = parseInt(match[1]!, 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

function toHex([r, g, b]: Rgb): string {
  const channel = (value: number) => Math.round(Math.min(255, Math.max(0, value))).toString(16).padStart(2, '0');
  return `#${channel(r)}${channel(g)}${channel(b)}`;
}

/** a moved toward b by t (0..1). */
export function mix(a: string, b: string, t: number): string {
  const x = parseHex(a);
  const y = parseHex(b);
  return toHex([x[0] + (y[0] - x[0]) * t, x[1] + (y[1] - x[1]) * t, x[2] + (y[2] - x[2]) * t]);
}

export const lighten = (colour: string, t: number) => mix(colour, '#ffffff', t);
export const darken = (colour: string, t: number) => mix(colour, '#000000', t);

/** Relative luminance (WCAG). */
export function luminance(colour: string): number {
  const linear = parseHex(colour).map((value) => {
    const c = value / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * linear[0]! + 0.7152 * linear[1]! + 0.0722 * linear[2]!;
}

export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

export const isDark = (colour: string) => luminance(colour) < 0.2;

/** Whichever of the candidates reads best on background. */
export function readableOn(background: string, candidates: readonly string[] = ['#111111', '#ffffff']): string {
  return [...candidates].sort((a, b) => contrast(b, background) - contrast(a, background))[0]!;
}

/** The same colour without saturation, for "before" panels. */
export function greyscale(colour: string): string {
  const [r, g, b] = parseHex(colour);
  const grey = 0.3 * r + 0.59 * g + 0.11 * b;
  return toHex([grey, grey, grey]);
}
