import { describe, expect, it } from 'vitest';
import { createRenderCache, type RenderedImage } from '../../local/storage/image-render.ts';

const image = (bytes: number): RenderedImage => ({ data: Buffer.alloc(bytes), contentType: 'image/webp' });

describe("render/image's cache", () => {
  it('encodes a variant once, however many ask for it at the same time or later', async () => {
    const cache = createRenderCache(1_000);
    let encodes = 0;
    const make = async () => {
      encodes += 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return image(100);
    };
    const together = await Promise.all(Array.from({ length: 20 }, () => cache.render('a/v1/480-webp', make)));
    expect(new Set(together).size).toBe(1);
    await cache.render('a/v1/480-webp', make);
    expect(encodes).toBe(1);
  });

  it('keeps at most its byte budget, dropping the least recently used first, and never keeps a failure', async () => {
    const cache = createRenderCache(250);
    let encodes = 0;
    const make = async () => {
      encodes += 1;
      return image(100);
    };
    await cache.render('one', make);
    await cache.render('two', make);
    await cache.render('one', make);
    await cache.render('three', make);
    expect(cache.size).toBe(2);
    expect(encodes).toBe(3);
    await cache.render('one', make);
    expect(encodes).toBe(3);
    await cache.render('two', make);
    expect(encodes).toBe(4);
    await expect(cache.render('broken', async () => Promise.reject(new Error('not an image')))).rejects.toThrow('not an image');
    await cache.render('broken', make);
    expect(encodes).toBe(5);
  });
});
