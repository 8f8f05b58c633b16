import { UPLOAD_MAX_BYTES, VIDEO_UPLOAD_MAX_BYTES } from '../../../lib/constants.ts';
import { isVideoType } from '../../../lib/media/video-poster.ts';
import { originalExtension } from './object-paths.ts';

/** Why a chosen or dropped file does not join the queue. */
export type RefusalReason =
  | { kind: 'not-an-image' }
  | { kind: 'unsupported-format'; format: string }
  | { kind: 'unsupported-video'; format: string }
  | { kind: 'too-large' }
  | { kind: 'video-too-large' }
  | { kind: 'empty' };

export interface RefusedFile {
  name: string;
  reason: RefusalReason;
}

/** 'SVG' for image/svg+xml, 'HEIC' for image/heic: how a person names an image type. */
const formatName = (type: string) => type.slice(type.indexOf('/') + 1).split(/[+;]/)[0]!.toUpperCase() || 'this';

/**
 * The files that can become ads, and each other one with its reason: images
 * of a format the originals bucket takes (JPEG, PNG, WebP, GIF, AVIF) of at
 * most UPLOAD_MAX_BYTES, and MP4 or WebM videos of at most
 * VIDEO_UPLOAD_MAX_BYTES, not empty, as the storage checks again.
 */
export function sortChosenFiles(files: Iterable<File>): { accepted: File[]; refused: RefusedFile[] } {
  const accepted: File[] = [];
  const refused: RefusedFile[] = [];
  for (const file of files) {
    const type = file.type.toLowerCase();
    const reason: RefusalReason | null = type.startsWith('video/')
      ? !isVideoType(type)
        ? { kind: 'unsupported-video', format: formatName(type) }
        : file.size === 0
          ? { kind: 'empty' }
          : file.size > VIDEO_UPLOAD_MAX_BYTES
            ? { kind: 'video-too-large' }
            : null
      : !type.startsWith('image/')
      ? { kind: 'not-an-image' }
      : !originalExtension(type)
        ? { kind: 'unsupported-format', format: formatName(type) }
        : file.size === 0
          ? { kind: 'empty' }
          : file.size > UPLOAD_MAX_BYTES
            ? { kind: 'too-large' }
            : null;
    if (reason) refused.push({ name: file.name, reason });
    else accepted.push(file);
  }
  return { accepted, refused };
}

/** A file name reduced to letters, digits, dot, underscore and hyphen; anything else becomes an underscore. */
export function sanitizeFileName(name: string): string {
  const cleaned = name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/[^A-Za-z0-9._-]/g, '_');
  return cleaned.length > 0 ? cleaned : 'image';
}

/** Size in whole kilobytes, as the queue shows it (at least 1 for a non-empty file). */
export function sizeInKb(bytes: number): number {
  return bytes === 0 ? 0 : Math.max(1, Math.round(bytes / 1024));
}
