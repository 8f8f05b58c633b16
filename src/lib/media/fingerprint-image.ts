import { pixelsOfBitmap } from './bitmap-pixels.ts';
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
    const pixels = pixelsOfBitmap(bitmap);
    if (!pixels) throw new UnreadableImageError();
    return fingerprintOfPixels(pixels);
  } finally {
    bitmap.close();
  }
}
