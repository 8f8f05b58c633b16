/**
 * A small WebM (Matroska) writer for the demo library's video creatives: one
 * VP8 video track whose frames are all key frames, as a lossy WebP holds one
 * (sharp makes them; no ffmpeg, nothing downloaded). The file has what a
 * browser needs to play and seek: the EBML header, the segment's Info with
 * its Duration, the track, Cues placed before the clusters (each cue points
 * at a cluster starting with a key frame), and clusters of SimpleBlocks.
 */

/** One frame: the VP8 key frame bitstream of a lossy WebP. */
export interface VideoFrames {
  width: number;
  height: number;
  /** Frames per second. */
  fps: number;
  frames: Uint8Array[];
}

const ID = {
  ebml: 0x1a45dfa3,
  ebmlVersion: 0x4286,
  ebmlReadVersion: 0x42f7,
  ebmlMaxIdLength: 0x42f2,
  ebmlMaxSizeLength: 0x42f3,
  docType: 0x4282,
  docTypeVersion: 0x4287,
  docTypeReadVersion: 0x4285,
  segment: 0x18538067,
  info: 0x1549a966,
  timecodeScale: 0x2ad7b1,
  duration: 0x4489,
  muxingApp: 0x4d80,
  writingApp: 0x5741,
  tracks: 0x1654ae6b,
  trackEntry: 0xae,
  trackNumber: 0xd7,
  trackUid: 0x73c5,
  trackType: 0x83,
  flagLacing: 0x9c,
  defaultDuration: 0x23e383,
  codecId: 0x86,
  video: 0xe0,
  pixelWidth: 0xb0,
  pixelHeight: 0xba,
  cues: 0x1c53bb6b,
  cuePoint: 0xbb,
  cueTime: 0xb3,
  cueTrackPositions: 0xb7,
  cueTrack: 0xf7,
  cueClusterPosition: 0xf1,
  cluster: 0x1f43b675,
  timecode: 0xe7,
  simpleBlock: 0xa3,
} as const;

/** Milliseconds per timecode tick: TimecodeScale 1,000,000 ns. */
const TIMECODE_SCALE_NS = 1_000_000;
/** A cluster (and a cue) per second of video. */
const CLUSTER_MS = 1000;

function idBytes(id: number): number[] {
  const bytes: number[] = [];
  for (let value = id; value > 0; value = Math.floor(value / 256)) bytes.unshift(value % 256);
  return bytes;
}

/** An EBML variable-size integer of exactly `length` bytes (1 to 8). */
function sizeBytes(size: number, length = sizeLength(size)): number[] {
  const bytes = new Array<number>(length).fill(0);
  let value = size;
  for (let index = length - 1; index >= 0; index -= 1) {
    bytes[index] = value % 256;
    value = Math.floor(value / 256);
  }
  bytes[0]! |= 0x80 >> (length - 1);
  return bytes;
}

function sizeLength(size: number): number {
  let length = 1;
  // All ones is reserved (unknown size), hence 2^(7n) - 1 exclusive.
  while (size >= 2 ** (7 * length) - 1) length += 1;
  if (length > 8) throw new RangeError('An element of this size cannot be written');
  return length;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

function element(id: number, ...children: Uint8Array[]): Uint8Array {
  const body = concat(children);
  return concat([Uint8Array.from([...idBytes(id), ...sizeBytes(body.length)]), body]);
}

function uint(id: number, value: number, width?: number): Uint8Array {
  const bytes: number[] = [];
  for (let rest = value; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest % 256);
  while (bytes.length < (width ?? 1)) bytes.unshift(0);
  return element(id, Uint8Array.from(bytes));
}

function float64(id: number, value: number): Uint8Array {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setFloat64(0, value);
  return element(id, bytes);
}

const text = (id: number, value: string) => element(id, new TextEncoder().encode(value));

/** A SimpleBlock of track 1 at a time relative to its cluster, flagged as a key frame. */
function simpleBlock(relativeMs: number, frame: Uint8Array): Uint8Array {
  const header = new Uint8Array(4);
  header[0] = 0x81;
  new DataView(header.buffer).setInt16(1, relativeMs);
  header[3] = 0x80;
  return element(ID.simpleBlock, header, frame);
}

/** The file's length in milliseconds: every frame lasts 1/fps. */
export function webmDurationMs(video: Pick<VideoFrames, 'fps' | 'frames'>): number {
  return Math.round((video.frames.length * 1000) / video.fps);
}

/** The WebM file of these frames. */
export function muxWebm(video: VideoFrames): Uint8Array {
  const { width, height, fps, frames } = video;
  if (frames.length === 0) throw new RangeError('A video needs at least one frame');
  if (!(fps > 0 && fps <= 120)) throw new RangeError('The frame rate must be above 0 and at most 120');
  const frameMs = (index: number) => Math.round((index * 1000) / fps);

  const clusters: Uint8Array[] = [];
  const clusterTimes: number[] = [];
  for (let first = 0; first < frames.length; ) {
    const start = frameMs(first);
    const blocks: Uint8Array[] = [];
    let index = first;
    for (; index < frames.length && frameMs(index) - start < CLUSTER_MS; index += 1) blocks.push(simpleBlock(frameMs(index) - start, frames[index]!));
    clusters.push(element(ID.cluster, uint(ID.timecode, start, 4), ...blocks));
    clusterTimes.push(start);
    first = index;
  }

  const header = element(
    ID.ebml,
    uint(ID.ebmlVersion, 1),
    uint(ID.ebmlReadVersion, 1),
    uint(ID.ebmlMaxIdLength, 4),
    uint(ID.ebmlMaxSizeLength, 8),
    text(ID.docType, 'webm'),
    uint(ID.docTypeVersion, 2),
    uint(ID.docTypeReadVersion, 2),
  );
  const info = element(
    ID.info,
    uint(ID.timecodeScale, TIMECODE_SCALE_NS, 3),
    float64(ID.duration, webmDurationMs(video)),
    text(ID.muxingApp, 'obyect'),
    text(ID.writingApp, 'obyect demo seeder'),
  );
  const tracks = element(
    ID.tracks,
    element(
      ID.trackEntry,
      uint(ID.trackNumber, 1),
      uint(ID.trackUid, 1),
      uint(ID.trackType, 1),
      uint(ID.flagLacing, 0),
      uint(ID.defaultDuration, Math.round(1e9 / fps), 4),
      text(ID.codecId, 'V_VP8'),
      element(ID.video, uint(ID.pixelWidth, width, 2), uint(ID.pixelHeight, height, 2)),
    ),
  );
  // Cue positions are written 8 bytes wide, so the cues' length does not depend on where the clusters land.
  const cuesFor = (positions: number[]) =>
    element(
      ID.cues,
      ...clusterTimes.map((time, index) =>
        element(
          ID.cuePoint,
          uint(ID.cueTime, time, 4),
          element(ID.cueTrackPositions, uint(ID.cueTrack, 1), uint(ID.cueClusterPosition, positions[index]!, 8)),
        ),
      ),
    );
  // Positions count from the first byte of the segment's content.
  const firstCluster = info.length + tracks.length + cuesFor(clusterTimes.map(() => 0)).length;
  const positions: number[] = [];
  let offset = firstCluster;
  for (const cluster of clusters) {
    positions.push(offset);
    offset += cluster.length;
  }
  const segment = element(ID.segment, info, tracks, cuesFor(positions), ...clusters);
  return concat([header, segment]);
}

/**
 * The VP8 key frame inside a lossy WebP without alpha or metadata (RIFF,
 * WEBP, one 'VP8 ' chunk), or an error for any other WebP.
 */
export function vp8FrameOfWebp(webp: Uint8Array): Uint8Array {
  const ascii = (start: number, end: number) => String.fromCharCode(...webp.subarray(start, end));
  if (webp.length < 20 || ascii(0, 4) !== 'RIFF' || ascii(8, 12) !== 'WEBP') throw new Error('Not a WebP image');
  if (ascii(12, 16) !== 'VP8 ') throw new Error('Not a plain lossy WebP (alpha, animation, metadata or lossless)');
  const size = new DataView(webp.buffer, webp.byteOffset + 16, 4).getUint32(0, true);
  if (20 + size > webp.length) throw new Error('The WebP is cut short');
  return webp.subarray(20, 20 + size);
}
