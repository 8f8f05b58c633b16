import type { Worker } from 'tesseract.js';
import { pixelsOfBitmap } from './bitmap-pixels.ts';
import { imageTextOfWords, mergeReadings, type PlacedWord } from './image-text.ts';
import { inkOnWhite, portableGreyMap } from './ink-on-white.ts';

/**
 * Reads the words printed in an image, in the browser, with Tesseract (English).
 * The worker script, the engine and the English model are served by our own
 * origin under OCR_BASE (vite.config.ts copies them there): nothing is fetched
 * from anywhere else. The worker starts on the first image (the library's
 * pages never load any of this), serves the images that follow, and is
 * terminated once it has been idle for IDLE_MS. Each image is read twice,
 * as it is and drawn as its ink on white (ink-on-white.ts), which reads the
 * words on buttons and other filled shapes; the second reading adds the
 * words the first did not read (docs/decisions/0076).
 */
export const OCR_BASE = '/ocr';
/** How long one image may take to read, once the worker is up, before it counts as not read. */
export const READ_TIMEOUT_MS = 60_000;
/** How long the worker may take to start (engine and model loaded and unpacked). */
export const START_TIMEOUT_MS = 120_000;
const IDLE_MS = 30_000;

export class ImageTextError extends Error {
  constructor(readonly reason: 'failed' | 'timeout') {
    super(reason === 'timeout' ? 'Reading the text in the image took too long' : 'The text in the image could not be read');
    this.name = 'ImageTextError';
  }
}

let worker: Promise<Worker> | null = null;
let busy = 0;
let idleTimer: ReturnType<typeof setTimeout> | null = null;

async function startWorker(): Promise<Worker> {
  const { createWorker, OEM, PSM } = await import('tesseract.js');
  const base = new URL(`${OCR_BASE}/`, window.location.origin).href;
  const started = await createWorker('eng', OEM.LSTM_ONLY, {
    workerPath: `${base}worker.min.js`,
    // A directory: Tesseract picks the engine build this browser runs best (relaxed SIMD, SIMD or plain).
    corePath: `${base}core`,
    langPath: `${base}lang`,
    gzip: true,
    workerBlobURL: false,
  });
  try {
    await started.setParameters({
      // The page laid out by the engine: its default takes an image for one block of text, which an ad is not.
      tessedit_pageseg_mode: PSM.AUTO,
      // Its notes to itself ("Estimating resolution as 620") would reach the console as errors.
      debug_file: '/dev/null',
    });
  } catch (error) {
    await started.terminate().catch(() => undefined);
    throw error;
  }
  return started;
}

function workerNow(): Promise<Worker> {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = null;
  if (!worker) {
    worker = startWorker();
    // A worker that failed to start is started again next time.
    worker.catch(() => (worker = null));
  }
  return worker;
}

function scheduleStop() {
  if (busy > 0 || !worker) return;
  idleTimer = setTimeout(() => void stopImageTextReader(), IDLE_MS);
}

/** Ends the worker now (it starts again on the next image). */
export async function stopImageTextReader(): Promise<void> {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = null;
  const current = worker;
  worker = null;
  if (current) await current.then((w) => w.terminate()).catch(() => undefined);
}

function wordsOf(page: { blocks: Array<{ paragraphs: Array<{ lines: Array<{ words: PlacedWord[] }> }> }> | null }): PlacedWord[] {
  return (page.blocks ?? []).flatMap((block) => block.paragraphs.flatMap((paragraph) => paragraph.lines.flatMap((line) => line.words)));
}

async function wordsRead(w: Worker, image: Blob): Promise<PlacedWord[]> {
  const { data } = await w.recognize(image, {}, { text: false, blocks: true });
  return wordsOf(data);
}

/** Both readings of an image as one list of words. The ink is drawn in this thread while the worker reads the image. */
async function wordsOfBothReadings(w: Worker, image: Blob): Promise<PlacedWord[]> {
  const ink = inkOnWhiteImage(image);
  ink.catch(() => undefined);
  const first = await wordsRead(w, image);
  return mergeReadings(first, await wordsRead(w, await ink));
}

/** The image decoded (upright by its EXIF orientation) and drawn as its ink on white, as a PGM file for the worker. */
async function inkOnWhiteImage(image: Blob): Promise<Blob> {
  const bitmap = await createImageBitmap(image, { imageOrientation: 'from-image' });
  try {
    const pixels = pixelsOfBitmap(bitmap);
    if (!pixels) throw new Error('The image has no pixels');
    return new Blob([portableGreyMap(inkOnWhite(pixels))], { type: 'image/x-portable-graymap' });
  } finally {
    bitmap.close();
  }
}

/** Rejects with ImageTextError('timeout') when the promise has not settled in time. */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ImageTextError('timeout')), ms);
  });
  return Promise.race([promise, timeout]).finally(() => {
    if (timer) clearTimeout(timer);
  });
}

/**
 * The normalised text of an image (see image-text.ts); throws ImageTextError
 * when it cannot be read. Starting the worker (the engine and the model
 * loaded, the model unpacked) may take START_TIMEOUT_MS on a busy machine;
 * reading one image (both readings, the ink drawn) then takes `timeoutMs` at most.
 */
export async function readImageText(image: Blob, timeoutMs = READ_TIMEOUT_MS): Promise<string> {
  busy += 1;
  try {
    const w = await within(workerNow(), START_TIMEOUT_MS).catch((error: unknown) => {
      throw error instanceof ImageTextError ? error : new ImageTextError('failed');
    });
    const read = wordsOfBothReadings(w, image);
    // After a timeout the read may still fail (its worker is ended): that is already answered.
    read.catch(() => undefined);
    try {
      return imageTextOfWords(await within(read, timeoutMs));
    } catch (error) {
      // A worker stuck on an image is of no use to the next one.
      if (error instanceof ImageTextError) await stopImageTextReader();
      throw error instanceof ImageTextError ? error : new ImageTextError('failed');
    }
  } finally {
    busy -= 1;
    scheduleStop();
  }
}
