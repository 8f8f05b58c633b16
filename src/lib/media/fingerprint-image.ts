import { UnreadableImageError } from './image-variants.ts';
import { fingerprintOfPixels, type VisualFingerprint } from './visual-fingerprint.ts';

/**
 * The visual fingerprint of an image file in the browser: decoded at its
 * natural size, upright by its EXIF orientation, with its own colour values
 * (no colour-space conversion, alpha not premultiplied) so that the pixels are
 * those sharp decodes for the same file (local/media/fingerprint-with-sharp.ts).
 */
export async function fingerprintOfFile(file: Blob): Promise<VisualFingerprint> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image', premultiplyAlpha: 'none', colorSpaceConversion: 'none' });
  } catch {
    throw new UnreadableImageError();
  }
  try {
    const { width, height } = bitmap;
    if (width < 1 || height < 1) throw new UnreadableImageError();
    const canvas = typeof OffscreenCanvas === 'function' ? new OffscreenCanvas(width, height) : Object.assign(document.createElement('canvas'), { width, height });
    const ctx = canvas.getContext('2d', { willReadFrequently: true }) as OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D | null;
    if (!ctx) throw new Error('This browser cannot draw images');
    ctx.drawImage(bitmap, 0, 0);
    const pixels = ctx.getImageData(0, 0, width, height);
    canvas.width = 0;
    canvas.height = 0;
    return fingerprintOfPixels({ width, height, data: pixels.data });
  } finally {
    bitmap.close();
  }
}
