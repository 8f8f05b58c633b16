import { open, stat } from 'node:fs/promises';
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
/** A video (MP4 or WebM, named so) may be larger; its bucket's own limit (ad-videos: 50 MB) applies as well. */
export const VIDEO_UPLOAD_MAX_BYTES = 50 * 1024 * 1024;

export type VideoFormat = 'video/mp4' | 'video/webm';
const VIDEO_EXTENSIONS: Record<VideoFormat, string> = { 'video/mp4': 'mp4', 'video/webm': 'webm' };

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
  notAVideo: () => new StorageHttpError(415, 'InvalidVideo', 'The file is not a video: only MP4 and WebM content is accepted'),
  videoTypeMismatch: (declared: string, actual: VideoFormat) =>
    new StorageHttpError(415, 'InvalidVideo', `The file is declared as ${declared} but its content is ${actual}`),
  brokenVideo: () => new StorageHttpError(415, 'InvalidVideo', 'The video file is damaged or cut short'),
  badName: (name: string) =>
    new StorageHttpError(
      400,
      'InvalidKey',
      `Invalid object name ${JSON.stringify(name)}: use letters, digits, '_', '-' and '/' and end in the file's own extension`,
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

/** The same shape as isGeneratedImageName, ending in .mp4 or .webm. */
export function isGeneratedVideoName(name: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)*(?:\/[A-Za-z0-9][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)*)*\.(?:mp4|webm)$/i.test(name);
}

/** Refuses a name a browser caller may not use, before its body is read. */
export function checkUploadName(name: string): void {
  if (!isGeneratedImageName(name) && !isGeneratedVideoName(name)) throw uploadErrors.badName(name);
}

/** The most a browser caller may send under this (checked) name. */
export const uploadMaxBytesFor = (name: string) => (isGeneratedVideoName(name) ? VIDEO_UPLOAD_MAX_BYTES : UPLOAD_MAX_BYTES);

/** MP4 brands of video files (ISO base media); AVIF and HEIF images share the container and are not among them. */
const MP4_BRANDS = new Set(['isom', 'iso2', 'iso3', 'iso4', 'iso5', 'iso6', 'mp41', 'mp42', 'avc1', 'M4V ', 'dash', 'mmp4', 'MSNV']);

/** The video format told by the first bytes of a file, or null. */
export function sniffVideoFormat(head: Uint8Array): VideoFormat | null {
  const ascii = (start: number, end: number) => String.fromCharCode(...head.subarray(start, end));
  if (head.length >= 12 && ascii(4, 8) === 'ftyp' && MP4_BRANDS.has(ascii(8, 12))) return 'video/mp4';
  if (head.length >= 4 && head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3) {
    const header = readEbmlHeader(head);
    if (header?.docType === 'webm') return 'video/webm';
  }
  return null;
}

/** An EBML element's header: its id, where its data starts, and its size (null: unknown, as a live recording writes). */
function ebmlElement(bytes: Uint8Array, start: number): { id: number; dataStart: number; size: number | null } | null {
  const first = bytes[start];
  if (first === undefined || first === 0) return null;
  const idLength = Math.clz32(first) - 23;
  if (idLength > 4 || start + idLength >= bytes.length) return null;
  let id = 0;
  for (let index = 0; index < idLength; index += 1) id = id * 256 + bytes[start + index]!;
  const sizeStart = start + idLength;
  const sizeFirst = bytes[sizeStart]!;
  if (sizeFirst === 0) return null;
  const sizeLength = Math.clz32(sizeFirst) - 23;
  if (sizeStart + sizeLength > bytes.length) return null;
  let size = sizeFirst & (0xff >> sizeLength);
  let allOnes = size === 0xff >> sizeLength;
  for (let index = 1; index < sizeLength; index += 1) {
    const byte = bytes[sizeStart + index]!;
    allOnes &&= byte === 0xff;
    size = size * 256 + byte;
  }
  return { id, dataStart: sizeStart + sizeLength, size: allOnes ? null : size };
}

/** The EBML header at the start of a file: its DocType and where it ends; null when it is not a whole EBML header. */
function readEbmlHeader(bytes: Uint8Array): { docType: string; end: number } | null {
  const header = ebmlElement(bytes, 0);
  if (!header || header.id !== 0x1a45dfa3 || header.size === null || header.dataStart + header.size > bytes.length) return null;
  const end = header.dataStart + header.size;
  let docType = '';
  for (let offset = header.dataStart; offset < end; ) {
    const child = ebmlElement(bytes, offset);
    if (!child || child.size === null || child.dataStart + child.size > end) return null;
    if (child.id === 0x4282) docType = String.fromCharCode(...bytes.subarray(child.dataStart, child.dataStart + child.size)).replace(/\0+$/, '');
    offset = child.dataStart + child.size;
  }
  return { docType, end };
}

async function readAt(file: string, position: number, length: number): Promise<Uint8Array> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, position);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * A whole MP4: its top-level boxes tile the file exactly and one of them is
 * the movie box (moov). A WebM: a whole EBML header of DocType webm followed
 * by the Segment, whose stated size (when it states one) fits the file.
 */
async function isWholeVideo(file: string, format: VideoFormat): Promise<boolean> {
  const { size } = await stat(file);
  if (format === 'video/webm') {
    const head = await readAt(file, 0, Math.min(size, 4096));
    const header = readEbmlHeader(head);
    if (!header || header.docType !== 'webm') return false;
    const segment = ebmlElement(head, header.end);
    return !!segment && segment.id === 0x18538067 && (segment.size === null || segment.dataStart + segment.size <= size);
  }
  let offset = 0;
  let movie = false;
  for (let boxes = 0; offset < size; boxes += 1) {
    if (boxes > 10_000) return false;
    const box = await readAt(file, offset, 16);
    if (box.length < 8) return false;
    const view = new DataView(box.buffer, box.byteOffset, box.length);
    let length = view.getUint32(0);
    if (length === 1) {
      if (box.length < 16) return false;
      length = Number(view.getBigUint64(8));
    } else if (length === 0) length = size - offset;
    if (length < 8 || offset + length > size) return false;
    if (String.fromCharCode(...box.subarray(4, 8)) === 'moov') movie = true;
    offset += length;
  }
  return movie;
}

/**
 * Checks a received video: MP4 or WebM by its bytes, matching the declared
 * type and the name's extension, and whole (see isWholeVideo). Nothing is
 * decoded: the browser that plays it does that, in its own sandbox.
 */
export async function checkUploadedVideo(file: string, declaredType: string, name: string): Promise<VideoFormat> {
  const format = sniffVideoFormat(await readHead(file, 4096));
  if (!format) throw uploadErrors.notAVideo();
  if (declaredType.toLowerCase() !== format) throw uploadErrors.videoTypeMismatch(declaredType, format);
  if (VIDEO_EXTENSIONS[format] !== extensionOf(name)) throw uploadErrors.badName(name);
  if (!(await isWholeVideo(file, format))) throw uploadErrors.brokenVideo();
  return format;
}

/** The checks a browser upload gets, by the kind its (already checked) name says: a video or an image. */
export function checkUploadedObject(file: string, declaredType: string, name: string): Promise<string> {
  return isGeneratedVideoName(name) ? checkUploadedVideo(file, declaredType, name) : checkUploadedImage(file, declaredType, name);
}

async function readHead(file: string, length = 32): Promise<Uint8Array> {
  return readAt(file, 0, length);
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
