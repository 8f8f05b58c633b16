import { describe, expect, it } from 'vitest';
import { IMAGE_TEXT_MAX_LENGTH, imageTextOfWords, normaliseImageText } from '../../../src/lib/media/image-text.ts';

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
});
