import sharp from 'sharp';
import type { DemoVideoPlan } from './demo-plan.ts';
import { muxWebm, vp8FrameOfWebp, webmDurationMs } from './webm-muxer.ts';

/** Demo videos are small: 320 px wide, the creative's aspect, even sides. */
export const DEMO_VIDEO_WIDTH = 320;
/** How far the camera moves in: the last (or first) frame shows the middle 1/1.18 of the creative. */
const ZOOM = 1.18;
const FRAME_QUALITY = 45;

export interface DemoVideo {
  webm: Buffer;
  durationMs: number;
  width: number;
  height: number;
}

const even = (value: number) => Math.max(2, Math.round(value / 2) * 2);
const ease = (t: number) => t * t * (3 - 2 * t);

/**
 * A WebM of the creative with a slow camera move (zoom in, zoom out or a pan
 * across), every frame a VP8 key frame cut from a lossy WebP that sharp
 * encodes. The zooms start or end on the whole creative, which is the ad's
 * poster.
 */
export async function renderDemoVideo(creative: Buffer, plan: DemoVideoPlan): Promise<DemoVideo> {
  const source = await sharp(creative).metadata();
  const width = DEMO_VIDEO_WIDTH;
  const height = even((DEMO_VIDEO_WIDTH * (source.height ?? 1)) / (source.width ?? 1));
  // The creative once, a little larger than the video, so each frame is a crop and a small resize.
  const baseWidth = Math.round(width * ZOOM);
  const baseHeight = Math.round(height * ZOOM);
  const base = await sharp(creative).resize({ width: baseWidth, height: baseHeight, fit: 'fill' }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const count = plan.seconds * plan.fps;
  const frames: Uint8Array[] = [];
  for (let index = 0; index < count; index += 1) {
    const t = ease(count === 1 ? 0 : index / (count - 1));
    const zoom = plan.motion === 'zoom-in' ? 1 + (ZOOM - 1) * t : plan.motion === 'zoom-out' ? ZOOM - (ZOOM - 1) * t : 1.12;
    const cropWidth = Math.min(baseWidth, Math.round(baseWidth / zoom));
    const cropHeight = Math.min(baseHeight, Math.round(baseHeight / zoom));
    const left = plan.motion === 'pan' ? Math.round((baseWidth - cropWidth) * t) : Math.round((baseWidth - cropWidth) / 2);
    const top = Math.round((baseHeight - cropHeight) / 2);
    const webp = await sharp(base.data, { raw: { width: base.info.width, height: base.info.height, channels: base.info.channels as 3 } })
      .extract({ left, top, width: cropWidth, height: cropHeight })
      .resize({ width, height, fit: 'fill' })
      .webp({ quality: FRAME_QUALITY, effort: 1 })
      .toBuffer();
    frames.push(vp8FrameOfWebp(new Uint8Array(webp)));
  }
  const video = { width, height, fps: plan.fps, frames };
  return { webm: Buffer.from(muxWebm(video)), durationMs: webmDurationMs(video), width, height };
}
