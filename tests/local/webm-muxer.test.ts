import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { muxWebm, vp8FrameOfWebp, webmDurationMs } from '../../local/seed/webm-muxer.ts';

interface Node {
  id: number;
  start: number;
  dataStart: number;
  end: number;
}

/** Reads one EBML element header at an offset: its id, where its data starts and where it ends. */
function readElement(bytes: Uint8Array, start: number): Node {
  const first = bytes[start]!;
  const idLength = Math.clz32(first) - 23;
  let id = 0;
  for (let index = 0; index < idLength; index += 1) id = id * 256 + bytes[start + index]!;
  const sizeStart = start + idLength;
  const sizeLength = Math.clz32(bytes[sizeStart]!) - 23;
  let size = bytes[sizeStart]! & (0xff >> sizeLength);
  for (let index = 1; index < sizeLength; index += 1) size = size * 256 + bytes[sizeStart + index]!;
  const dataStart = sizeStart + sizeLength;
  return { id, start, dataStart, end: dataStart + size };
}

/** The children of an element, which must tile its data exactly. */
function children(bytes: Uint8Array, parent: Pick<Node, 'dataStart' | 'end'>): Node[] {
  const nodes: Node[] = [];
  for (let offset = parent.dataStart; offset < parent.end; ) {
    const node = readElement(bytes, offset);
    expect(node.end).toBeLessThanOrEqual(parent.end);
    nodes.push(node);
    offset = node.end;
  }
  return nodes;
}

const child = (bytes: Uint8Array, parent: Node, id: number) => children(bytes, parent).find((node) => node.id === id)!;
const uintOf = (bytes: Uint8Array, node: Node) => bytes.subarray(node.dataStart, node.end).reduce((sum, byte) => sum * 256 + byte, 0);
const textOf = (bytes: Uint8Array, node: Node) => new TextDecoder().decode(bytes.subarray(node.dataStart, node.end));

async function frame(colour: string, width = 64, height = 48): Promise<Uint8Array> {
  const webp = await sharp({ create: { width, height, channels: 3, background: colour } }).webp({ quality: 60 }).toBuffer();
  return vp8FrameOfWebp(new Uint8Array(webp));
}

describe('the WebM muxer of the demo videos', () => {
  it('takes the VP8 key frame out of a lossy WebP made by sharp, and refuses other WebPs', async () => {
    const vp8 = await frame('#ff0000', 64, 48);
    // A VP8 key frame: bit 0 clear, then the start code 9d 01 2a and the 14-bit width and height.
    expect(vp8[0]! & 1).toBe(0);
    expect([...vp8.subarray(3, 6)]).toEqual([0x9d, 0x01, 0x2a]);
    expect((vp8[6]! | (vp8[7]! << 8)) & 0x3fff).toBe(64);
    expect((vp8[8]! | (vp8[9]! << 8)) & 0x3fff).toBe(48);
    const lossless = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } }).webp({ lossless: true }).toBuffer();
    expect(() => vp8FrameOfWebp(new Uint8Array(lossless))).toThrow(/lossy/);
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } }).png().toBuffer();
    expect(() => vp8FrameOfWebp(new Uint8Array(png))).toThrow(/Not a WebP/);
  });

  it('writes a WebM whose elements tile exactly, with its duration, a VP8 track, key frames and a cue per cluster', async () => {
    const colours = ['#ff0000', '#00ff00', '#0000ff', '#ffff00'];
    const frames = await Promise.all(Array.from({ length: 30 }, (_, index) => frame(colours[index % colours.length]!)));
    const video = { width: 64, height: 48, fps: 12, frames };
    const bytes = muxWebm(video);
    const top = children(bytes, { dataStart: 0, end: bytes.length });
    expect(top.map((node) => node.id)).toEqual([0x1a45dfa3, 0x18538067]);
    const [header, segment] = top as [Node, Node];
    expect(textOf(bytes, child(bytes, header, 0x4282))).toBe('webm');

    const level1 = children(bytes, segment);
    expect(level1.map((node) => node.id)).toEqual([0x1549a966, 0x1654ae6b, 0x1c53bb6b, 0x1f43b675, 0x1f43b675, 0x1f43b675]);
    const info = level1[0]!;
    expect(uintOf(bytes, child(bytes, info, 0x2ad7b1))).toBe(1_000_000);
    const duration = child(bytes, info, 0x4489);
    expect(new DataView(bytes.buffer, bytes.byteOffset + duration.dataStart, 8).getFloat64(0)).toBe(2500);
    expect(webmDurationMs(video)).toBe(2500);

    const track = child(bytes, level1[1]!, 0xae);
    expect(textOf(bytes, child(bytes, track, 0x86))).toBe('V_VP8');
    expect(uintOf(bytes, child(bytes, track, 0x83))).toBe(1);
    const pixels = child(bytes, track, 0xe0);
    expect([uintOf(bytes, child(bytes, pixels, 0xb0)), uintOf(bytes, child(bytes, pixels, 0xba))]).toEqual([64, 48]);

    const clusters = level1.filter((node) => node.id === 0x1f43b675);
    const blockTimes: number[] = [];
    for (const cluster of clusters) {
      const [timecode, ...blocks] = children(bytes, cluster);
      expect(timecode!.id).toBe(0xe7);
      for (const block of blocks) {
        expect(block.id).toBe(0xa3);
        expect(bytes[block.dataStart]).toBe(0x81);
        expect(bytes[block.dataStart + 3]! & 0x80).toBe(0x80);
        blockTimes.push(uintOf(bytes, timecode!) + new DataView(bytes.buffer, bytes.byteOffset + block.dataStart + 1, 2).getInt16(0));
      }
    }
    expect(blockTimes).toEqual(frames.map((_, index) => Math.round((index * 1000) / 12)));

    const cuePoints = children(bytes, level1[2]!);
    expect(cuePoints).toHaveLength(clusters.length);
    cuePoints.forEach((point, index) => {
      const positions = child(bytes, point, 0xb7);
      const position = uintOf(bytes, child(bytes, positions, 0xf1));
      // Relative to the segment's data: each cue lands on the start of its cluster, at that cluster's time.
      expect(segment.dataStart + position).toBe(clusters[index]!.start);
      expect(uintOf(bytes, child(bytes, point, 0xb3))).toBe(uintOf(bytes, children(bytes, clusters[index]!)[0]!));
    });
  });

  it('refuses an empty video and an impossible frame rate', () => {
    expect(() => muxWebm({ width: 8, height: 8, fps: 12, frames: [] })).toThrow(/at least one frame/);
    expect(() => muxWebm({ width: 8, height: 8, fps: 0, frames: [new Uint8Array(10)] })).toThrow(/frame rate/);
  });
});
