import { TEXTS } from '../../../lib/spec-texts.ts';
import { UnreadableImageError } from '../lib/image-variants.ts';
import { newAdObjectPaths, originalExtension } from '../lib/object-paths.ts';
import type { UploadBucket, UploadServices } from './upload-services.ts';

const E = TEXTS.adminUpload.errors;

export interface AdUpload {
  file: File;
  brandId: string;
  categoryId: string;
  tagIds: string[];
}

export interface UploadedAd {
  adId: string;
  /** The 960 display variant's path (the bucket is private: the row's thumbnail is the file itself). */
  path: string;
}

/** A failed upload, named by the step that failed (spec section 4, Upload item), with the server's reason. */
export class AdUploadError extends Error {
  constructor(step: string, cause?: unknown) {
    const reason = cause instanceof Error && cause.message && cause.message !== step ? `: ${cause.message}` : '';
    super(`${step}${reason}`);
    this.name = 'AdUploadError';
  }
}

/**
 * One file to one ad: variants made in the browser, the four objects
 * uploaded, then the row (whose trigger refuses it unless all four exist),
 * then its tags. When anything before the row fails, the objects already
 * uploaded are removed again: no object is left without its row. A tag that
 * cannot be linked only logs a warning; the ad stays.
 */
export async function uploadAd(services: UploadServices, upload: AdUpload): Promise<UploadedAd> {
  if (!originalExtension(upload.file.type)) throw new AdUploadError(E.imageUploadFailed, new Error(`${upload.file.type || 'This file type'} is not accepted`));
  let variants;
  try {
    variants = await services.makeVariants(upload.file);
  } catch (error) {
    throw error instanceof UnreadableImageError ? new AdUploadError(E.unreadable) : new AdUploadError(E.imageUploadFailed, error);
  }
  const paths = newAdObjectPaths(upload.file.type);
  const uploaded: Array<[UploadBucket, string]> = [];
  const rollBack = async () => {
    for (const bucket of ['ad-originals', 'ad-images'] as const) {
      const names = uploaded.filter(([b]) => b === bucket).map(([, path]) => path);
      if (names.length === 0) continue;
      // The storage worker's sweep is the backstop if this fails too.
      await services.removeObjects(bucket, names).catch((error) => console.warn('Could not remove uploaded objects', names, error));
    }
  };

  // The four objects of one file go up together; files still go one after another.
  const objects: Array<[UploadBucket, string, Blob, string]> = [
    ['ad-originals', paths.original_path, upload.file, upload.file.type],
    ['ad-images', paths.display_960_path, variants.display960, 'image/webp'],
    ['ad-images', paths.display_480_path, variants.display480, 'image/webp'],
    ['ad-images', paths.preview_path, variants.preview, 'image/webp'],
  ];
  const results = await Promise.allSettled(
    objects.map(async ([bucket, path, body, contentType]) => {
      await services.putObject(bucket, path, body, contentType);
      uploaded.push([bucket, path]);
    }),
  );
  const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed) {
    await rollBack();
    throw new AdUploadError(E.imageUploadFailed, failed.reason);
  }

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
  return { adId, path: paths.display_960_path };
}
