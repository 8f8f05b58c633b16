/** Where an uploaded ad's objects go; names the storage accepts from a browser (generated, see local/storage/upload-checks.ts). */
export interface AdObjectPaths {
  original_path: string;
  display_480_path: string;
  display_960_path: string;
  preview_path: string;
}

/** A video ad's objects: its poster's, and the video beside them in the same folder (bucket ad-videos). */
export interface VideoAdObjectPaths extends AdObjectPaths {
  video_path: string;
}

const ORIGINAL_EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/avif': 'avif',
};

/** The original's extension for an accepted type, or null for a type the originals bucket refuses. */
export function originalExtension(contentType: string): string | null {
  return ORIGINAL_EXTENSIONS[contentType.toLowerCase()] ?? null;
}

function randomHex(bytes: number): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * Fresh unguessable paths for one ad: a random folder for the original and
 * the display variants, and a separate random name for the blurred preview,
 * so the preview (handed to everyone) never reveals where the clear images are.
 */
export function newAdObjectPaths(originalType: string): AdObjectPaths {
  const extension = originalExtension(originalType) ?? 'jpg';
  const folder = randomHex(16);
  return {
    original_path: `${folder}/original.${extension}`,
    display_480_path: `${folder}/480.webp`,
    display_960_path: `${folder}/960.webp`,
    preview_path: `previews/${randomHex(16)}.webp`,
  };
}

/** Fresh paths for a video ad: the poster (a WebP) as its original, and the video under the same random folder. */
export function newVideoAdObjectPaths(videoExtension: 'mp4' | 'webm'): VideoAdObjectPaths {
  const paths = newAdObjectPaths('image/webp');
  const folder = paths.original_path.slice(0, paths.original_path.indexOf('/'));
  return { ...paths, video_path: `${folder}/video.${videoExtension}` };
}
