// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const worker = { recognize: vi.fn(), terminate: vi.fn(async () => {}) };
const createWorker = vi.fn(async () => worker);
vi.mock('tesseract.js', () => ({ createWorker, OEM: { LSTM_ONLY: 1 } }));

const { ImageTextError, readImageText, stopImageTextReader } = await import('../../../src/lib/media/read-image-text.ts');

const page = (...words: Array<[string, number]>) => ({
  data: { blocks: [{ paragraphs: [{ lines: [{ words: words.map(([text, confidence]) => ({ text, confidence })) }] }] }] },
});
const image = new Blob(['png']);

beforeEach(() => {
  createWorker.mockClear();
  worker.recognize.mockReset();
  worker.terminate.mockClear();
});
afterEach(async () => {
  vi.useRealTimers();
  await stopImageTextReader();
});

describe('readImageText', () => {
  it('starts one worker on the first image, from our own origin, and reuses it for the next ones', async () => {
    worker.recognize.mockResolvedValueOnce(page(['SPRING', 91], ['~', 30], ['SALE', 88])).mockResolvedValueOnce(page(['GLOW', 95]));
    expect(createWorker).not.toHaveBeenCalled();
    expect(await readImageText(image)).toBe('SPRING SALE');
    expect(await readImageText(image)).toBe('GLOW');
    expect(createWorker).toHaveBeenCalledTimes(1);
    const [lang, , options] = createWorker.mock.calls[0] as unknown as [string, number, Record<string, unknown>];
    expect(lang).toBe('eng');
    expect(options).toMatchObject({
      workerPath: `${window.location.origin}/ocr/worker.min.js`,
      corePath: `${window.location.origin}/ocr/core`,
      langPath: `${window.location.origin}/ocr/lang`,
      workerBlobURL: false,
    });
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
