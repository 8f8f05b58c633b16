import { thumbHashToAverageRGBA, thumbHashToDataURL } from 'thumbhash';

/**
 * Thumbhash placeholders. Decoding one to a PNG data URL takes a millisecond or
 * two, and painting it as a background costs a style and a paint more, so only
 * the images that matter for the first paint (the first row, the ad detail)
 * get the picture; every other card gets the hash's average colour, which is
 * all a card scrolled past in a moment needs.
 */
const decoded = new Map<string, string | null>();
const averages = new Map<string, string | null>();

function bytesOf(hash: string): Uint8Array {
  return Uint8Array.from(atob(hash), (char) => char.charCodeAt(0));
}

/** The ad's thumbhash as a PNG data URL, decoded once per hash; null for a hash that does not decode. */
export function thumbhashDataUrl(hash: string): string | null {
  const cached = decoded.get(hash);
  if (cached !== undefined) return cached;
  let url: string | null;
  try {
    url = thumbHashToDataURL(bytesOf(hash));
  } catch {
    url = null;
  }
  decoded.set(hash, url);
  return url;
}

/** The hash's average colour as CSS, or null for a hash that does not decode. */
export function thumbhashAverageColor(hash: string): string | null {
  const cached = averages.get(hash);
  if (cached !== undefined) return cached;
  let color: string | null;
  try {
    const { r, g, b } = thumbHashToAverageRGBA(bytesOf(hash));
    color = `rgb(${Math.round(r * 255)} ${Math.round(g * 255)} ${Math.round(b * 255)})`;
  } catch {
    color = null;
  }
  averages.set(hash, color);
  return color;
}

/** The placeholder for an image: the decoded thumbhash when `picture` (the first paint's images), else its average colour. */
export function thumbhashPlaceholder(hash: string, picture: boolean): { image: string | null; color: string | null } {
  const image = picture ? thumbhashDataUrl(hash) : null;
  return { image, color: image ? null : thumbhashAverageColor(hash) };
}
