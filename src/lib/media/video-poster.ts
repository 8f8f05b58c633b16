import { makeImageVariants, type ImageVariants } from './image-variants.ts';

/**
 * What the browser makes of one video before it is uploaded: its poster
 * frame (a WebP of the video's own size, stored as the ad's original image),
 * the poster's display variants, preview and thumbhash exactly as for an
 * image (image-variants.ts), and the video's length and size.
 */
export interface VideoCreative {
  poster: Blob;
  variants: ImageVariants;
  durationMs: number;
  width: number;
  height: number;
}

/** The lengths the ads table takes (ads_video_duration_bounds). */
export const VIDEO_MIN_MS = 500;
export const VIDEO_MAX_MS = 600_000;
/** The types the ad-videos bucket takes, with the extension their object gets. */
export const VIDEO_TYPES: Readonly<Record<string, 'mp4' | 'webm'>> = { 'video/mp4': 'mp4', 'video/webm': 'webm' };
/** The poster is the frame this far in (a quarter of a short video), so an opening fade from black is passed. */
const POSTER_AT_SECONDS = 1;
const POSTER_QUALITY = 0.9;
/** How long the browser may take to open a file or to reach the poster frame. */
const STEP_TIMEOUT_MS = 30_000;

export class UnreadableVideoError extends Error {
  constructor() {
    super('The file is not a video this browser can play');
    this.name = 'UnreadableVideoError';
  }
}

export class VideoLengthError extends Error {
  constructor(readonly durationMs: number) {
    super('The video is shorter than half a second or longer than 10 minutes');
    this.name = 'VideoLengthError';
  }
}

export const isVideoType = (type: string) => type.toLowerCase() in VIDEO_TYPES;

/** The poster frame's time: a second in, or a quarter of a shorter video. */
export function posterTime(durationSeconds: number): number {
  return Math.min(POSTER_AT_SECONDS, durationSeconds / 4);
}

/** Resolves on the first of the events, rejects on an error event or after the timeout. */
function once(video: HTMLVideoElement, events: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (error?: Error) => {
      clearTimeout(timer);
      for (const event of events) video.removeEventListener(event, ok);
      video.removeEventListener('error', failed);
      if (error) reject(error);
      else resolve();
    };
    const ok = () => done();
    const failed = () => done(new UnreadableVideoError());
    const timer = setTimeout(() => done(new UnreadableVideoError()), STEP_TIMEOUT_MS);
    for (const event of events) video.addEventListener(event, ok);
    video.addEventListener('error', failed);
  });
}

/**
 * The length of a video whose file states none (a recording made by a
 * browser): seeking far past the end makes the browser find it.
 */
async function findDuration(video: HTMLVideoElement): Promise<number> {
  if (Number.isFinite(video.duration)) return video.duration;
  const found = once(video, ['durationchange']);
  video.currentTime = Number.MAX_SAFE_INTEGER;
  await found;
  if (!Number.isFinite(video.duration)) throw new UnreadableVideoError();
  return video.duration;
}

export async function makeVideoCreative(file: Blob): Promise<VideoCreative> {
  const url = URL.createObjectURL(file);
  const video = document.createElement('video');
  video.muted = true;
  video.playsInline = true;
  video.preload = 'auto';
  try {
    const opened = once(video, ['loadedmetadata']);
    video.src = url;
    await opened;
    const width = video.videoWidth;
    const height = video.videoHeight;
    if (width < 1 || height < 1) throw new UnreadableVideoError();
    const duration = await findDuration(video);
    const durationMs = Math.round(duration * 1000);
    if (durationMs < VIDEO_MIN_MS || durationMs > VIDEO_MAX_MS) throw new VideoLengthError(durationMs);

    const seeked = once(video, ['seeked']);
    video.currentTime = posterTime(duration);
    await seeked;
    if (video.readyState < HTMLMediaElement.HAVE_CURRENT_DATA) await once(video, ['loadeddata', 'canplay']);

    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const context = canvas.getContext('2d');
    if (!context) throw new Error('This browser cannot draw images');
    context.drawImage(video, 0, 0, width, height);
    const poster = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/webp', POSTER_QUALITY));
    canvas.width = 0;
    canvas.height = 0;
    // A browser that cannot encode WebP hands back a PNG instead: the buckets take WebP for it.
    if (!poster || poster.type !== 'image/webp') throw new Error('This browser cannot make WebP images');
    const variants = await makeImageVariants(poster);
    return { poster, variants, durationMs, width, height };
  } finally {
    video.removeAttribute('src');
    video.load();
    URL.revokeObjectURL(url);
  }
}
