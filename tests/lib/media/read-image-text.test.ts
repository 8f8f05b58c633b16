// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const worker = { recognize: vi.fn(), setParameters: vi.fn(async (_parameters: Record<string, string>) => ({})), terminate: vi.fn(async () => {}) };
const createWorker = vi.fn(async () => worker);
vi.mock('tesseract.js', () => ({ createWorker, OEM: { LSTM_ONLY: 1 }, PSM: { AUTO: '3' } }));

const { ImageTextError, readImageText, stopImageTextReader } = await import('../../../src/lib/media/read-image-text.ts');

/** One reading: words on one line, each in a box of its own unless given one ([x0, y0, x1, y1]). */
const page = (...words: Array<[string, number, [number, number, number, number]?]>) => ({
  data: {
    blocks: [
      {
        paragraphs: [
          {
            lines: [
              {
                words: words.map(([text, confidence, box], i) => {
                  const [x0, y0, x1, y1] = box ?? [i * 100, 0, i * 100 + 90, 40];
                  return { text, confidence, bbox: { x0, y0, x1, y1 } };
                }),
              },
            ],
          },
        ],
      },
    ],
  },
});
/** The engine's two readings of the next image: the image as it is, then its ink on white. */
const readings = (first: ReturnType<typeof page>, second = page()) => worker.recognize.mockResolvedValueOnce(first).mockResolvedValueOnce(second);
const image = new Blob(['png']);

/** jsdom draws nothing: the browser's decoder and canvas, standing in for a 2 × 1 image of one white and one black pixel. */
const decoded = Uint8ClampedArray.of(255, 255, 255, 255, 0, 0, 0, 255);
const createImageBitmap = vi.fn(async (_image: Blob, _options?: ImageBitmapOptions) => ({ width: 2, height: 1, close: vi.fn() }));
class FakeOffscreenCanvas {
  constructor(
    public width: number,
    public height: number,
  ) {}
  getContext() {
    return { drawImage: () => {}, getImageData: () => ({ data: decoded }) };
  }
}

/** jsdom's Blob has no arrayBuffer(): read through FileReader, as Tesseract's own loader does. */
const bytesOf = (blob: Blob) =>
  new Promise<Uint8Array>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(blob);
  });

beforeEach(() => {
  createWorker.mockClear();
  worker.recognize.mockReset();
  worker.setParameters.mockClear();
  worker.terminate.mockClear();
  createImageBitmap.mockClear();
  vi.stubGlobal('createImageBitmap', createImageBitmap);
  vi.stubGlobal('OffscreenCanvas', FakeOffscreenCanvas);
});
afterEach(async () => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  await stopImageTextReader();
});

describe('readImageText', () => {
  it('starts one worker on the first image, from our own origin, and reuses it for the next ones', async () => {
    readings(page(['SPRING', 91], ['~', 30], ['SALE', 88]));
    readings(page(['GLOW', 95]));
    expect(createWorker).not.toHaveBeenCalled();
    expect(await readImageText(image)).toBe('SPRING SALE');
    expect(await readImageText(image)).toBe('GLOW');
    expect(createWorker).toHaveBeenCalledTimes(1);
    // The page laid out automatically, not taken for one block of text (the engine's default); the engine's notes not printed.
    expect(worker.setParameters).toHaveBeenCalledWith({ tessedit_pageseg_mode: '3', debug_file: '/dev/null' });
    expect(worker.setParameters).toHaveBeenCalledTimes(1);
    const [lang, , options] = createWorker.mock.calls[0] as unknown as [string, number, Record<string, unknown>];
    expect(lang).toBe('eng');
    expect(options).toMatchObject({
      workerPath: `${window.location.origin}/ocr/worker.min.js`,
      corePath: `${window.location.origin}/ocr/core`,
      langPath: `${window.location.origin}/ocr/lang`,
      workerBlobURL: false,
    });
  });

  it('reads the image as it is, then its ink on white, adding the words only the second read', async () => {
    const order: string[] = [];
    worker.recognize.mockImplementation(async (given: Blob) => {
      order.push(given === image ? 'the image' : 'its ink');
      return given === image
        ? page(['SPRING', 91, [0, 0, 200, 60]], ['SALE', 88, [220, 0, 400, 60]])
        : page(['SALE', 90, [221, 2, 399, 61]], ['SHOP', 93, [100, 500, 200, 540]], ['NOW', 92, [210, 500, 300, 540]]);
    });
    expect(await readImageText(image)).toBe('SPRING SALE SHOP NOW');
    expect(order).toEqual(['the image', 'its ink']);

    expect(createImageBitmap).toHaveBeenCalledWith(image, { imageOrientation: 'from-image' });
    const ink = await bytesOf(worker.recognize.mock.calls[1]![0] as Blob);
    const header = 'P5\n2 1\n255\n';
    expect(new TextDecoder().decode(ink.subarray(0, header.length))).toBe(header);
    expect(ink).toHaveLength(header.length + 2);
  });

  it('fails in its own terms when the image cannot be decoded, and keeps the worker for the next image', async () => {
    createImageBitmap.mockRejectedValueOnce(new DOMException('The source image could not be decoded.', 'InvalidStateError'));
    worker.recognize.mockResolvedValueOnce(page(['GLOW', 95]));
    await expect(readImageText(image)).rejects.toEqual(new ImageTextError('failed'));
    expect(worker.terminate).not.toHaveBeenCalled();
    readings(page(['GLOW', 95]));
    expect(await readImageText(image)).toBe('GLOW');
  });

  it('ends the worker once idle, and starts a new one for the next image', async () => {
    vi.useFakeTimers();
    worker.recognize.mockResolvedValue(page(['ONE', 90]));
    await readImageText(image);
    expect(worker.terminate).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(31_000);
    expect(worker.terminate).toHaveBeenCalledTimes(1);
    await readImageText(image);
    expect(createWorker).toHaveBeenCalledTimes(2);
  });

  it('fails in its own terms when the engine fails or takes too long, and ends a stuck worker', async () => {
    worker.recognize.mockRejectedValueOnce(new Error('RuntimeError: memory access out of bounds'));
    await expect(readImageText(image)).rejects.toEqual(new ImageTextError('failed'));
    worker.recognize.mockImplementationOnce(() => new Promise(() => {}));
    const slow = readImageText(image, 50);
    await expect(slow).rejects.toMatchObject({ reason: 'timeout' });
    expect(worker.terminate).toHaveBeenCalled();
  });
});
