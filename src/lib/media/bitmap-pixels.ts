import type { RgbaPixels } from './visual-fingerprint.ts';

/**
 * A decoded image's pixels as it is drawn, at its own size, read once from a canvas that is released straight
 * after; null for an image without pixels. The fingerprint and the image-text reader both start from these.
 */
export function pixelsOfBitmap(bitmap: ImageBitmap): RgbaPixels | null {
  const { width, height } = bitmap;
  if (width < 1 || height < 1) return null;
  const canvas = typeof OffscreenCanvas === 'function' ? new OffscreenCanvas(width, height) : Object.assign(document.createElement('canvas'), { width, height });
  const ctx = canvas.getContext('2d', { willReadFrequently: true }) as OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D | null;
  if (!ctx) throw new Error('This browser cannot draw images');
  ctx.drawImage(bitmap, 0, 0);
  const pixels = ctx.getImageData(0, 0, width, height);
  canvas.width = 0;
  canvas.height = 0;
  return { width, height, data: pixels.data };
}
