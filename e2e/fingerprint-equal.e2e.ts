import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprintWithSharp } from '../local/media/fingerprint-with-sharp.ts';
import { planDemoLibrary } from '../local/seed/demo-plan.ts';
import { renderCreativeSvg } from '../local/seed/render-creative.ts';
import { hashDistance, type VisualFingerprint } from '../src/lib/media/visual-fingerprint.ts';
import { launchChromium, type LaunchedChromium } from './support/chromium.ts';

/**
 * The admin's browser (src/lib/media/fingerprint-image.ts in Debian's
 * Chromium) and the local stack's tools (local/media/fingerprint-with-sharp.ts)
 * give the same fingerprint for the same file: both decode to the same pixels
 * and run the same arithmetic on them (docs/decisions/0038).
 */

const NOW = new Date('2026-11-22T09:00:00Z');

const FIXTURE_NAMES = [
  'PNG',
  'PNG with alpha',
  'JPEG',
  'JPEG 4:4:4',
  'JPEG rotated by EXIF (orientation 6)',
  'WebP',
  'WebP lossless with alpha',
  'WebP with alpha',
] as const;

interface Fixture {
  name: string;
  type: string;
  bytes: Buffer;
}

/** A demo creative; its copy with alpha fades from opaque on the left to transparent on the right, so every alpha value occurs. */
async function fixtures(): Promise<Fixture[]> {
  const plan = planDemoLibrary(3, NOW)[1]!;
  const svg = renderCreativeSvg(plan.spec, plan.renderRandom.fork('creative'));
  const opaque = await sharp(Buffer.from(svg)).removeAlpha().png().toBuffer();
  const { width, height } = (await sharp(opaque).metadata()) as { width: number; height: number };
  const alpha = Buffer.alloc(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) alpha[y * width + x] = 255 - Math.floor((x * 256) / width);
  const translucent = await sharp(opaque).joinChannel(alpha, { raw: { width, height, channels: 1 } }).png().toBuffer();
  return [
    { name: 'PNG', type: 'image/png', bytes: opaque },
    { name: 'PNG with alpha', type: 'image/png', bytes: translucent },
    { name: 'JPEG', type: 'image/jpeg', bytes: await sharp(opaque).jpeg({ quality: 85 }).toBuffer() },
    { name: 'JPEG 4:4:4', type: 'image/jpeg', bytes: await sharp(opaque).jpeg({ quality: 90, chromaSubsampling: '4:4:4' }).toBuffer() },
    { name: 'JPEG rotated by EXIF (orientation 6)', type: 'image/jpeg', bytes: await sharp(opaque).jpeg({ quality: 85 }).withMetadata({ orientation: 6 }).toBuffer() },
    { name: 'WebP', type: 'image/webp', bytes: await sharp(opaque).webp({ quality: 80 }).toBuffer() },
    { name: 'WebP lossless with alpha', type: 'image/webp', bytes: await sharp(translucent).webp({ lossless: true }).toBuffer() },
    { name: 'WebP with alpha', type: 'image/webp', bytes: await sharp(translucent).webp({ quality: 80 }).toBuffer() },
  ];
}

/** The page puts the bundled module's export where the test can call it. */
const PAGE =
  '<!doctype html><title>fingerprint</title>' +
  `<script type="module">import { fingerprintOfFile } from '/fingerprint-image.js'; window.fingerprintOfFile = fingerprintOfFile;</script>`;

declare global {
  interface Window {
    fingerprintOfFile(file: Blob): Promise<VisualFingerprint>;
  }
}

let server: Server;
let origin: string;
let browser: LaunchedChromium;
let page: Page;
let files: Fixture[];
/** sharp's RGBA pixels of each fixture, as fingerprintWithSharp decodes them. */
const pixels = new Map<string, Buffer>();

beforeAll(async () => {
  files = await fixtures();
  expect(files.map((file) => file.name)).toEqual(FIXTURE_NAMES);
  for (const file of files) pixels.set(file.name, (await sharp(file.bytes).rotate().ensureAlpha().raw().toBuffer()));
  const bundle = await build({
    entryPoints: [new URL('../src/lib/media/fingerprint-image.ts', import.meta.url).pathname],
    bundle: true,
    format: 'esm',
    target: 'es2022',
    write: false,
  });
  const script = bundle.outputFiles[0]!.text;
  server = createServer((request, response) => {
    const fixture = files.find((file) => request.url === `/fixtures/${encodeURIComponent(file.name)}`);
    const pixelsOf = files.find((file) => request.url === `/fixtures/${encodeURIComponent(file.name)}/sharp-pixels`);
    if (request.url === '/') response.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
    else if (request.url === '/fingerprint-image.js') response.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    else if (fixture) response.writeHead(200, { 'content-type': fixture.type }).end(fixture.bytes);
    else if (pixelsOf) response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(pixels.get(pixelsOf.name));
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchChromium({ baseURL: origin });
  page = await browser.context.newPage();
  await page.goto('/');
  await page.waitForFunction(() => typeof window.fingerprintOfFile === 'function');
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

function inBrowser(name: string): Promise<VisualFingerprint> {
  return page.evaluate(async (path) => window.fingerprintOfFile(await (await fetch(path)).blob()), `/fixtures/${encodeURIComponent(name)}`);
}

/**
 * How many bytes of the pixels the browser decodes differ from sharp's: as
 * they are, and premultiplied by alpha and rounded to a byte (the canvas keeps
 * pixels premultiplied, so a translucent pixel's colour comes back rounded).
 */
function pixelDifference(name: string): Promise<{ bytes: number; differing: number; differingPremultiplied: number }> {
  return page.evaluate(async (path) => {
    const bitmap = await createImageBitmap(await (await fetch(path)).blob(), { imageOrientation: 'from-image', premultiplyAlpha: 'none', colorSpaceConversion: 'none' });
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const ctx = canvas.getContext('2d')!;
    ctx.drawImage(bitmap, 0, 0);
    const decoded = ctx.getImageData(0, 0, bitmap.width, bitmap.height).data;
    const expected = new Uint8Array(await (await fetch(`${path}/sharp-pixels`)).arrayBuffer());
    if (expected.length !== decoded.length) return { bytes: decoded.length, differing: -1, differingPremultiplied: -1 };
    const premultiplied = (value: number, alpha: number) => Math.round((value * alpha) / 255);
    let differing = 0;
    let differingPremultiplied = 0;
    for (let i = 0; i < decoded.length; i++) {
      if (decoded[i] !== expected[i]) differing++;
      const alpha = expected[i - (i % 4) + 3]!;
      if (i % 4 === 3 ? decoded[i] !== alpha : premultiplied(decoded[i]!, alpha) !== premultiplied(expected[i]!, alpha)) differingPremultiplied++;
    }
    return { bytes: decoded.length, differing, differingPremultiplied };
  }, `/fixtures/${encodeURIComponent(name)}`);
}

describe('the fingerprint of a file in the browser and with sharp', () => {
  it.each(FIXTURE_NAMES)('is the same for a %s', async (name) => {
    const { bytes } = files.find((file) => file.name === name)!;
    expect(await inBrowser(name)).toEqual(await fingerprintWithSharp(bytes));
  });

  it.each(FIXTURE_NAMES)('comes from the same pixels, premultiplied by alpha, for a %s', async (name) => {
    const { bytes, differing, differingPremultiplied } = await pixelDifference(name);
    expect(bytes).toBeGreaterThan(0);
    expect(differingPremultiplied).toBe(0);
    // Opaque images decode to the very same bytes: JPEG (libjpeg-turbo) and WebP (libwebp) decode alike in both.
    if (!name.includes('alpha')) expect(differing).toBe(0);
  });

  it('turns a JPEG upright by its EXIF orientation on both sides', async () => {
    const upright = files.find((file) => file.name === 'JPEG')!;
    const turned = files.find((file) => file.name.includes('orientation 6'))!;
    expect((await sharp(turned.bytes).metadata()).orientation).toBe(6);
    const [uprightPrint, turnedPrint] = [await inBrowser(upright.name), await inBrowser(turned.name)];
    expect(hashDistance(uprightPrint.hash, turnedPrint.hash)).toBeGreaterThan(16);
  });

  it('turns an unreadable file away as the upload does', async () => {
    const error = await page.evaluate(async () => {
      return window.fingerprintOfFile(new Blob([new Uint8Array([1, 2, 3, 4])], { type: 'image/png' })).then(
        () => 'read',
        (error: Error) => error.name,
      );
    });
    expect(error).toBe('UnreadableImageError');
  });
});
