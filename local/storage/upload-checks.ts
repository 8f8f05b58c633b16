import { open } from 'node:fs/promises';
import sharp from 'sharp';
import { StorageHttpError } from './storage-errors.ts';

/**
 * What every upload by an API caller (anon or authenticated: the browser)
 * must pass before it becomes an object, whatever the bucket says: at most
 * 20 MB, bytes that really are a raster image of an accepted format (told by
 * their magic bytes, never by the declared type or the name), at most
 * 50 megapixels, and a name of the shape the admin page generates. The
 * service role (the seeder, server-side tools) is trusted and skips them.
 */
export const UPLOAD_MAX_BYTES = 20 * 1024 * 1024;
export const UPLOAD_MAX_PIXELS = 50_000_000;

export type ImageFormat = 'image/jpeg' | 'image/png' | 'image/webp' | 'image/gif' | 'image/avif';

const EXTENSIONS: Record<ImageFormat, string[]> = {
  'image/jpeg': ['jpg', 'jpeg'],
  'image/png': ['png'],
  'image/webp': ['webp'],
  'image/gif': ['gif'],
  'image/avif': ['avif'],
};

export const uploadErrors = {
  notAnImage: () =>
    new StorageHttpError(415, 'InvalidImage', 'The file is not an image: only JPEG, PNG, WebP, GIF and AVIF content is accepted'),
  typeMismatch: (declared: string, actual: ImageFormat) =>
    new StorageHttpError(415, 'InvalidImage', `The file is declared as ${declared} but its content is ${actual}`),
  unreadable: () => new StorageHttpError(415, 'InvalidImage', 'The image could not be decoded'),
  tooManyPixels: (width: number, height: number) =>
    new StorageHttpError(
      413,
      'ImageTooLarge',
      `The image is ${width}×${height} pixels; at most ${UPLOAD_MAX_PIXELS / 1_000_000} megapixels are accepted`,
    ),
  badName: (name: string) =>
    new StorageHttpError(
      400,
      'InvalidKey',
      `Invalid object name ${JSON.stringify(name)}: use letters, digits, '_', '-' and '/' and end in the image's own extension`,
    ),
};

/** The image format told by the first bytes of a file, or null. SVG, HTML and scripts are text: never an image here. */
export function sniffImageFormat(head: Uint8Array): ImageFormat | null {
  const ascii = (start: number, end: number) => String.fromCharCode(...head.subarray(start, end));
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (head.length >= 8 && [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((byte, i) => head[i] === byte)) return 'image/png';
  if (head.length >= 6 && (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a')) return 'image/gif';
  if (head.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  if (head.length >= 12 && ascii(4, 8) === 'ftyp' && ['avif', 'avis'].includes(ascii(8, 12))) return 'image/avif';
  return null;
}

/**
 * Generated names: path segments of letters, digits, '_' and '-' (dots only
 * inside a segment), the last ending in an image extension. No client can
 * store index.html, a .svg or a dot-file, whatever it sends.
 */
export function isGeneratedImageName(name: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)*(?:\/[A-Za-z0-9][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)*)*\.(?:jpe?g|png|webp|gif|avif)$/i.test(
    name,
  );
}

const extensionOf = (name: string) => name.slice(name.lastIndexOf('.') + 1).toLowerCase();

/** Refuses a name a browser caller may not use, before its body is read. */
export function checkUploadName(name: string): void {
  if (!isGeneratedImageName(name)) throw uploadErrors.badName(name);
}

async function readHead(file: string): Promise<Uint8Array> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(32);
    const { bytesRead } = await handle.read(buffer, 0, 32, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * Checks a received file: image content by magic bytes, matching the
 * declared type and the name's extension, within the pixel limit (read from
 * the header, before anything is decoded) and decodable. Returns the type to
 * store and serve: the sniffed one.
 */
export async function checkUploadedImage(file: string, declaredType: string, name: string): Promise<ImageFormat> {
  const format = sniffImageFormat(await readHead(file));
  if (!format) throw uploadErrors.notAnImage();
  if (declaredType.toLowerCase() !== format) throw uploadErrors.typeMismatch(declaredType, format);
  if (!EXTENSIONS[format].includes(extensionOf(name))) throw uploadErrors.badName(name);
  let width: number;
  let height: number;
  let frames: number;
  try {
    const metadata = await sharp(file, { limitInputPixels: false }).metadata();
    width = metadata.width ?? 0;
    height = metadata.pageHeight ?? metadata.height ?? 0;
    frames = Math.max(metadata.pages ?? 1, 1);
  } catch {
    throw uploadErrors.unreadable();
  }
  if (width < 1 || height < 1) throw uploadErrors.unreadable();
  // Every frame of an animation counts: many small frames decode to as much as one huge one.
  if (width * height * frames > UPLOAD_MAX_PIXELS) throw uploadErrors.tooManyPixels(width, height * frames);
  try {
    // A small decode proves the bytes are a whole image (JPEG and WebP shrink on load, so this stays cheap).
    await sharp(file, { limitInputPixels: UPLOAD_MAX_PIXELS, failOn: 'error' }).resize({ width: 32, height: 32, fit: 'inside' }).raw().toBuffer();
  } catch {
    throw uploadErrors.unreadable();
  }
  return format;
}
