import { thumbHashToDataURL } from 'thumbhash';

const decoded = new Map<string, string | null>();

/** The ad's thumbhash as a PNG data URL, decoded once per hash; null for a hash that does not decode. */
export function thumbhashDataUrl(hash: string): string | null {
  const cached = decoded.get(hash);
  if (cached !== undefined) return cached;
  let url: string | null;
  try {
    const bytes = Uint8Array.from(atob(hash), (char) => char.charCodeAt(0));
    url = thumbHashToDataURL(bytes);
  } catch {
    url = null;
  }
  decoded.set(hash, url);
  return url;
}
