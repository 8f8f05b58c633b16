import { describe, expect, it } from 'vitest';
import { IMAGE_TEXT_MAX_LENGTH, imageTextOfWords, mergeReadings, normaliseImageText, type PlacedWord } from '../../../src/lib/media/image-text.ts';

describe('the text read from an image', () => {
  it('collapses whitespace of every kind and trims', () => {
    expect(normaliseImageText('  SPRING\n\nSALE\t 50%  off\u00a0today ')).toBe('SPRING SALE 50% off today');
    expect(normaliseImageText(' \n ')).toBe('');
  });

  it('keeps at most 5000 characters, cut at a word boundary', () => {
    const long = normaliseImageText('word '.repeat(2000));
    expect(long.length).toBeLessThanOrEqual(IMAGE_TEXT_MAX_LENGTH);
    expect(long.endsWith('word')).toBe(true);
    expect(normaliseImageText('x'.repeat(6000))).toHaveLength(IMAGE_TEXT_MAX_LENGTH);
  });

  it('drops words read with low confidence and marks without a letter or digit', () => {
    const words = [
      { text: 'GLOW', confidence: 93 },
      { text: 'ã€', confidence: 20 },
      { text: '—', confidence: 95 },
      { text: 'SERUM', confidence: 88 },
      { text: 'l1|', confidence: 41 },
      { text: '30%', confidence: 75 },
    ];
    expect(imageTextOfWords(words)).toBe('GLOW SERUM 30%');
    expect(imageTextOfWords(words, 90)).toBe('GLOW');
    expect(imageTextOfWords([])).toBe('');
  });

  describe('two readings of one image', () => {
    /** A word read at x0..x1, y0..y1. */
    const word = (text: string, confidence: number, x0: number, y0: number, x1: number, y1: number): PlacedWord => ({ text, confidence, bbox: { x0, y0, x1, y1 } });
    const texts = (words: PlacedWord[]) => words.map((w) => w.text).join(' ');

    it('keeps every word of the first and adds those of the second where the first read none, a word read twice once', () => {
      const first = [word('ALL', 95, 100, 100, 200, 160), word('THE', 94, 220, 100, 330, 160), word('CRUNCH', 96, 350, 100, 600, 160)];
      const second = [word('ALL', 93, 102, 98, 201, 161), word('TME', 70, 221, 101, 331, 158), word('SHOP', 92, 380, 1080, 480, 1110), word('NOW', 91, 500, 1080, 590, 1110)];
      expect(texts(mergeReadings(first, second))).toBe('ALL THE CRUNCH SHOP NOW');
    });

    it('puts an added word before the first word of the first reading that lies below it', () => {
      const first = [word('CLEARCOVE', 95, 80, 40, 400, 80), word('Daily', 90, 600, 700, 700, 730), word('SPF', 90, 710, 700, 780, 730)];
      const second = [word('Get', 92, 80, 600, 140, 640), word('Yours', 91, 150, 600, 260, 640), word('Swipe', 90, 800, 1100, 900, 1130)];
      expect(texts(mergeReadings(first, second))).toBe('CLEARCOVE Get Yours Daily SPF Swipe');
    });

    it('lets no unsure word of either reading stand, nor stand in the way of a sure one', () => {
      const first = [word('SHDP', 31, 380, 1080, 480, 1110), word('~', 90, 10, 10, 20, 20)];
      const second = [word('SHOP', 92, 381, 1079, 481, 1111), word('ll', 40, 600, 600, 620, 640)];
      expect(texts(mergeReadings(first, second))).toBe('SHOP');
      expect(mergeReadings([], [])).toEqual([]);
    });
  });
});
