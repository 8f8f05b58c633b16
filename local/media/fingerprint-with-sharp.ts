import sharp from 'sharp';
import { fingerprintOfPixels, type VisualFingerprint } from '../../src/lib/media/visual-fingerprint.ts';

/**
 * The visual fingerprint of an image file as the local stack's tools compute
 * it (the demo seeder, backfills): decoded by sharp at its natural size, turned
 * upright by its EXIF orientation as the browser does, then the same pure
 * function the admin's browser runs (src/lib/media/fingerprint-image.ts).
 */
export async function fingerprintWithSharp(bytes: Buffer): Promise<VisualFingerprint> {
  const { data, info } = await sharp(bytes).rotate().ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return fingerprintOfPixels({ width: info.width, height: info.height, data });
}
