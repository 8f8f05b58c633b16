import sharp from 'sharp';

export interface RenderOptions {
  width?: number;
  height?: number;
  quality?: number;
  resize?: 'cover' | 'contain' | 'fill';
  format?: 'origin' | 'webp' | 'avif';
}

/**
 * The renders the stack makes: the product's display widths (the ad cards' 480 and 960, as the admin's upload makes
 * its variants), at one quality, as WebP or in the original format. Anything else is refused: each new width or
 * quality would be a fresh re-encode (0.45 s of CPU for AVIF), so free choice lets anyone keep a core busy and
 * defeats every cache.
 */
export const RENDER_WIDTHS = [480, 960] as const;
export const RENDER_QUALITY = 80;
export const RENDER_FORMATS = ['origin', 'webp'] as const;

/** The most rendered bytes kept in memory; the least recently used go first. */
export const RENDER_CACHE_BYTES = 64 * 1024 * 1024;

export interface RenderedImage {
  data: Buffer;
  contentType: string;
}

/**
 * Renders kept by key (the object's version and the options), at most `maxBytes` of them, and one render at a time
 * per key: concurrent asks for the same variant wait for the same encode.
 */
export function createRenderCache(maxBytes = RENDER_CACHE_BYTES) {
  const kept = new Map<string, RenderedImage>();
  const pending = new Map<string, Promise<RenderedImage>>();
  let bytes = 0;
  return {
    get size() {
      return kept.size;
    },
    async render(key: string, make: () => Promise<RenderedImage>): Promise<RenderedImage> {
      const hit = kept.get(key);
      if (hit) {
        kept.delete(key);
        kept.set(key, hit);
        return hit;
      }
      const running = pending.get(key);
      if (running) return running;
      const made = make().then(
        (image) => {
          pending.delete(key);
          if (image.data.byteLength <= maxBytes) {
            kept.set(key, image);
            bytes += image.data.byteLength;
            for (const [oldest, value] of kept) {
              if (bytes <= maxBytes) break;
              kept.delete(oldest);
              bytes -= value.data.byteLength;
            }
          }
          return image;
        },
        (error: unknown) => {
          pending.delete(key);
          throw error;
        },
      );
      pending.set(key, made);
      return made;
    },
  };
}

/** Image transformation for render/image, with sharp; refuses inputs over 50 megapixels. */
export async function renderImage(file: string, options: RenderOptions): Promise<RenderedImage> {
  let image = sharp(file, { limitInputPixels: 50_000_000 }).rotate();
  if (options.width || options.height) {
    image = image.resize({ width: options.width, height: options.height, fit: options.resize ?? 'cover', withoutEnlargement: true });
  }
  const quality = options.quality ?? 80;
  if (options.format === 'avif') return { data: await image.avif({ quality, effort: 2 }).toBuffer(), contentType: 'image/avif' };
  if (options.format === 'webp') return { data: await image.webp({ quality }).toBuffer(), contentType: 'image/webp' };
  const { data, info } = await image.toBuffer({ resolveWithObject: true });
  return { data, contentType: `image/${info.format === 'jpeg' ? 'jpeg' : info.format}` };
}
