import { rgbaToThumbHash } from 'thumbhash';
import { DISPLAY_WIDTHS } from '../constants.ts';

/**
 * What the browser makes of one image before it is uploaded, with the sizes
 * the demo seeder uses (DESIGN.md, Images): WebP display variants 480 and 960
 * wide (never enlarged, each made from the next larger one), a blurred WebP
 * preview 32 wide, the thumbhash of a render at most 100 px on its longer
 * side, and the image's own width and height.
 */
export interface ImageVariants {
  display480: Blob;
  display960: Blob;
  preview: Blob;
  thumbhash: string;
  width: number;
  height: number;
}

export const PREVIEW_WIDTH = 32;
const THUMBHASH_MAX = 100;
const DISPLAY_QUALITY = 0.72;
const PREVIEW_QUALITY = 0.5;

export class UnreadableImageError extends Error {
  constructor() {
    super('The file is not a readable image');
    this.name = 'UnreadableImageError';
  }
}

type Surface = OffscreenCanvas | HTMLCanvasElement;
type Drawable = ImageBitmap | Surface;

function newSurface(width: number, height: number): Surface {
  if (typeof OffscreenCanvas === 'function') return new OffscreenCanvas(width, height);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  return canvas;
}

function context(surface: Surface): OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D {
  const ctx = surface.getContext('2d') as OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D | null;
  if (!ctx) throw new Error('This browser cannot draw images');
  return ctx;
}

/** The source drawn at a width (height by aspect ratio), optionally blurred. */
function scaled(source: Drawable, sourceWidth: number, sourceHeight: number, width: number, blurPx = 0): Surface {
  const height = Math.max(1, Math.round((sourceHeight * width) / sourceWidth));
  const surface = newSurface(width, height);
  const ctx = context(surface);
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(source, 0, 0, width, height);
  if (blurPx > 0) {
    // Blurred over the sharp copy, so the edges never fade to transparent.
    ctx.filter = `blur(${blurPx}px)`;
    ctx.drawImage(source, 0, 0, width, height);
  }
  return surface;
}

async function encodeWebp(surface: Surface, quality: number): Promise<Blob> {
  const blob =
    'convertToBlob' in surface
      ? await surface.convertToBlob({ type: 'image/webp', quality })
      : await new Promise<Blob | null>((resolve) => surface.toBlob(resolve, 'image/webp', quality));
  // A browser that cannot encode WebP hands back a PNG instead: the display bucket takes WebP only.
  if (!blob || blob.type !== 'image/webp') throw new Error('This browser cannot make WebP images');
  return blob;
}

function base64(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text);
}

function thumbhashOf(source: Surface): string {
  const scale = Math.min(1, THUMBHASH_MAX / Math.max(source.width, source.height));
  const width = Math.max(1, Math.round(source.width * scale));
  const height = Math.max(1, Math.round(source.height * scale));
  const small = newSurface(width, height);
  const ctx = context(small);
  ctx.drawImage(source, 0, 0, width, height);
  return base64(rgbaToThumbHash(width, height, ctx.getImageData(0, 0, width, height).data));
}

const release = (surface: Surface) => {
  surface.width = 0;
  surface.height = 0;
};

export async function makeImageVariants(file: Blob): Promise<ImageVariants> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    throw new UnreadableImageError();
  }
  const { width, height } = bitmap;
  if (width < 1 || height < 1) {
    bitmap.close();
    throw new UnreadableImageError();
  }
  const [small, large] = DISPLAY_WIDTHS;
  let r960: Surface | null = null;
  let r480: Surface | null = null;
  try {
    r960 = scaled(bitmap, width, height, Math.min(large, width));
    bitmap.close();
    const display960 = await encodeWebp(r960, DISPLAY_QUALITY);
    r480 = scaled(r960, r960.width, r960.height, Math.min(small, r960.width));
    release(r960);
    const display480 = await encodeWebp(r480, DISPLAY_QUALITY);
    const blurred = scaled(r480, r480.width, r480.height, Math.min(PREVIEW_WIDTH, r480.width), 1.2);
    const preview = await encodeWebp(blurred, PREVIEW_QUALITY);
    release(blurred);
    const thumbhash = thumbhashOf(r480);
    return { display480, display960, preview, thumbhash, width, height };
  } finally {
    bitmap.close();
    if (r960) release(r960);
    if (r480) release(r480);
  }
}
