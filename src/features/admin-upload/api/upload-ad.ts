import type { AdFactsChange } from '../../../lib/ad-facts.ts';
import { ApiError, errorTextOf } from '../../../lib/api-error.ts';
import { ADMIN_TEXTS } from '../../../lib/admin-texts.ts';
import { UnreadableImageError, type ImageVariants } from '../../../lib/media/image-variants.ts';
import { UnreadableVideoError, VIDEO_TYPES, VideoLengthError, type VideoCreative } from '../../../lib/media/video-poster.ts';
import { newAdObjectPaths, newVideoAdObjectPaths, originalExtension, type AdObjectPaths } from '../lib/object-paths.ts';
import type { VisualFingerprint } from '../../../lib/media/visual-fingerprint.ts';
import type { UploadBucket, UploadServices } from './upload-services.ts';

const E = ADMIN_TEXTS.adminUpload.errors;
const R = ADMIN_TEXTS.adminUpload.errorReasons;

export interface AdUpload {
  file: File;
  brandId: string;
  categoryId: string;
  tagIds: string[];
  /** Checked facts (checkUploadFacts): every fact, null where not given. */
  facts: Required<AdFactsChange>;
  /** The image's fingerprint when the queue made it already; made here otherwise. */
  fingerprint?: VisualFingerprint | null;
  /** A video's poster, variants and length when the queue made them already; made here otherwise. */
  videoCreative?: VideoCreative | null;
}

export interface UploadedAd {
  adId: string;
  /** The 960 display variant's path (the bucket is private: the row's thumbnail is the file itself). */
  path: string;
  /** The text read from the image, as stored; null when it could not be read. */
  imageText: string | null;
}

/** The HTTP status an error carries (storage-js puts it in `status`, or as text in `statusCode`), else null. */
function statusOf(error: unknown): number | null {
  if (error instanceof ApiError && error.status !== null) return error.status;
  const { status, statusCode } = (error ?? {}) as { status?: unknown; statusCode?: unknown };
  if (typeof status === 'number') return status;
  const parsed = typeof statusCode === 'string' ? Number(statusCode) : NaN;
  return Number.isInteger(parsed) ? parsed : null;
}

/** Why a step failed, in our words, when the error says something we know; never the server's or a library's text. */
function reasonOf(cause: unknown, kind: 'image' | 'video'): string | null {
  const status = statusOf(cause);
  if (status === 413) return R.tooLarge;
  if (status === 415) return kind === 'video' ? R.notAVideo : R.notAnImage;
  // 42501: the row-level security of ads, which only admins pass.
  if (status === 401 || status === 403 || (cause instanceof ApiError && cause.code === '42501')) return R.notAllowed;
  if (cause instanceof ApiError) return errorTextOf(cause, '') || null;
  return null;
}

/** A failed upload, named by the step that failed (spec section 4, Upload item), with our reason when one is known. */
export class AdUploadError extends Error {
  constructor(step: string, cause?: unknown, kind: 'image' | 'video' = 'image') {
    const reason = cause === undefined ? null : reasonOf(cause, kind);
    super(reason ? `${step}: ${reason}` : step);
    this.name = 'AdUploadError';
  }
}

/** What the browser made of the file: the images of the ad, and for a video its poster, length and object. */
interface Prepared {
  variants: ImageVariants;
  paths: AdObjectPaths & { video_path?: string };
  /** The original image: the file itself, or a video's poster frame. */
  original: Blob;
  video: { body: Blob; type: string; durationMs: number } | null;
}

async function prepare(services: UploadServices, file: File, madeBefore: VideoCreative | null | undefined): Promise<Prepared> {
  const videoExtension = VIDEO_TYPES[file.type.toLowerCase()];
  if (videoExtension) {
    let made;
    try {
      made = madeBefore ?? (await services.makeVideoCreative(file));
    } catch (error) {
      if (error instanceof VideoLengthError) throw new AdUploadError(E.videoLength);
      if (error instanceof UnreadableVideoError || error instanceof UnreadableImageError) throw new AdUploadError(E.unreadableVideo);
      throw new AdUploadError(E.videoUploadFailed, error, 'video');
    }
    return {
      variants: made.variants,
      paths: newVideoAdObjectPaths(videoExtension),
      original: made.poster,
      video: { body: file, type: file.type.toLowerCase(), durationMs: made.durationMs },
    };
  }
  if (!originalExtension(file.type)) throw new AdUploadError(E.imageUploadFailed, new ApiError('not an accepted type', null, 415));
  try {
    return { variants: await services.makeVariants(file), paths: newAdObjectPaths(file.type), original: file, video: null };
  } catch (error) {
    throw error instanceof UnreadableImageError ? new AdUploadError(E.unreadable) : new AdUploadError(E.imageUploadFailed, error);
  }
}

/**
 * One file to one ad: variants made in the browser (a video's from its poster
 * frame, its length read; the video goes up as a fifth object), the four objects
 * uploaded while the text in the 960 display image is read, then the row with
 * its facts, its visual fingerprint and that text (whose trigger refuses it unless all four exist),
 * then its tags. When anything before the row fails, the objects already
 * uploaded are removed again: no object is left without its row. A tag that
 * cannot be linked only logs a warning; the ad stays. Text that cannot be
 * read does not stop the upload: the row goes in with image_text null.
 */
export async function uploadAd(services: UploadServices, upload: AdUpload): Promise<UploadedAd> {
  const { variants, paths, original, video } = await prepare(services, upload.file, upload.videoCreative);
  // A fingerprint (of the image, or of a video's poster) that cannot be made does not stop the upload: the row goes
  // in without one.
  const fingerprint =
    upload.fingerprint ??
    (await services.fingerprint(original).catch((error: unknown) => {
      console.warn('The image could not be fingerprinted', upload.file.name, error);
      return null;
    }));
  const textRead = services.readImageText(variants.display960).then(
    (text) => text,
    (error: unknown) => {
      console.warn('The text in the image could not be read', upload.file.name, error);
      return null;
    },
  );
  const uploaded: Array<[UploadBucket, string]> = [];
  const rollBack = async () => {
    for (const bucket of ['ad-originals', 'ad-images', 'ad-videos'] as const) {
      const names = uploaded.filter(([b]) => b === bucket).map(([, path]) => path);
      if (names.length === 0) continue;
      // The storage worker's sweep is the backstop if this fails too.
      await services.removeObjects(bucket, names).catch((error) => console.warn('Could not remove uploaded objects', names, error));
    }
  };

  // The four objects of one file (five with a video) go up together; files still go one after another.
  const objects: Array<[UploadBucket, string, Blob, string]> = [
    ['ad-originals', paths.original_path, original, video ? 'image/webp' : upload.file.type],
    ['ad-images', paths.display_960_path, variants.display960, 'image/webp'],
    ['ad-images', paths.display_480_path, variants.display480, 'image/webp'],
    ['ad-images', paths.preview_path, variants.preview, 'image/webp'],
    ...(video && paths.video_path ? [['ad-videos', paths.video_path, video.body, video.type] as [UploadBucket, string, Blob, string]] : []),
  ];
  const results = await Promise.allSettled(
    objects.map(async ([bucket, path, body, contentType]) => {
      await services.putObject(bucket, path, body, contentType);
      uploaded.push([bucket, path]);
    }),
  );
  const failedAt = results.findIndex((result) => result.status === 'rejected');
  if (failedAt >= 0) {
    await rollBack();
    const reason = (results[failedAt] as PromiseRejectedResult).reason;
    throw objects[failedAt]![0] === 'ad-videos' ? new AdUploadError(E.videoUploadFailed, reason, 'video') : new AdUploadError(E.imageUploadFailed, reason);
  }
  const imageText = await textRead;

  let adId: string | null;
  try {
    adId = await services.insertAd({
      id: crypto.randomUUID(),
      brand_id: upload.brandId,
      category_id: upload.categoryId,
      ...paths,
      width: variants.width,
      height: variants.height,
      thumbhash: variants.thumbhash,
      image_text: imageText,
      visual_hash: fingerprint?.hash ?? null,
      colour_histogram: fingerprint?.histogram ?? null,
      dominant_colours: fingerprint?.colours ?? null,
      ...upload.facts,
      // A video ad is of format video, whatever the batch's facts say (ads_video_is_format_video).
      ...(video && paths.video_path ? { video_path: paths.video_path, video_duration_ms: video.durationMs, format: 'video' as const } : {}),
    });
  } catch (error) {
    await rollBack();
    throw new AdUploadError(E.insertFailed, error);
  }
  // The row is in with its objects: they stay, whatever happens next.
  if (!adId) throw new AdUploadError(E.lookupFailed);

  try {
    await services.linkTags(adId, upload.tagIds);
  } catch (error) {
    console.warn('The ad was uploaded but its tags could not be linked', adId, error);
  }
  return { adId, path: paths.display_960_path, imageText };
}
