/**
 * The text read from an ad's image, as it is stored (public.ads.image_text):
 * the words OCR was sure enough of, in reading order, separated by single
 * spaces, at most IMAGE_TEXT_MAX_LENGTH characters. '' when the image has no
 * readable words.
 */
export const IMAGE_TEXT_MAX_LENGTH = 5000;

/** Words read with less confidence (0–100) than this are noise more often than words: dropped. */
export const MIN_WORD_CONFIDENCE = 60;

export interface ReadWord {
  text: string;
  confidence: number;
}

/** A word read where it stands in the image (pixels; x1 and y1 are past its right and bottom edges). */
export interface PlacedWord extends ReadWord {
  bbox: { x0: number; y0: number; x1: number; y1: number };
}

/** A word with a letter or a digit in it; a lone mark or a run of punctuation is what OCR makes of edges and textures. */
const MEANINGFUL = /[\p{L}\p{N}]/u;

/** The words OCR was sure enough of that mean something. */
export const keptWords = <Word extends ReadWord>(words: readonly Word[], minConfidence = MIN_WORD_CONFIDENCE): Word[] =>
  words.filter((word) => word.confidence >= minConfidence && MEANINGFUL.test(word.text));

type Box = PlacedWord['bbox'];
const area = (box: Box) => Math.max(0, box.x1 - box.x0) * Math.max(0, box.y1 - box.y0);
/** Two boxes cover the same word when they share at least half of the smaller one. */
function sameWordPlace(a: Box, b: Box): boolean {
  const shared = area({ x0: Math.max(a.x0, b.x0), y0: Math.max(a.y0, b.y0), x1: Math.min(a.x1, b.x1), y1: Math.min(a.y1, b.y1) });
  return shared > 0 && shared * 2 >= Math.min(area(a), area(b));
}

/**
 * The words of two readings of one image as one: every word kept from the
 * first, and the words kept from the second where the first kept none (a
 * word read twice is stored once). A word of the second comes before the
 * first word of the first whose top is below its middle, so lines keep
 * their order from the top.
 */
export function mergeReadings(first: readonly PlacedWord[], second: readonly PlacedWord[], minConfidence = MIN_WORD_CONFIDENCE): PlacedWord[] {
  const kept = keptWords(first, minConfidence);
  const before = Array.from({ length: kept.length + 1 }, () => [] as PlacedWord[]);
  for (const word of keptWords(second, minConfidence)) {
    if (kept.some((other) => sameWordPlace(other.bbox, word.bbox))) continue;
    const middle = (word.bbox.y0 + word.bbox.y1) / 2;
    const below = kept.findIndex((other) => other.bbox.y0 > middle);
    before[below === -1 ? kept.length : below]!.push(word);
  }
  return kept.flatMap((word, index) => [...before[index]!, word]).concat(before[kept.length]!);
}

/** Whitespace of any kind collapsed to one space, trimmed, cut at a word boundary to the length the column takes. */
export function normaliseImageText(text: string): string {
  const collapsed = text.replace(/\s+/gu, ' ').trim();
  if (collapsed.length <= IMAGE_TEXT_MAX_LENGTH) return collapsed;
  const cut = collapsed.slice(0, IMAGE_TEXT_MAX_LENGTH + 1);
  const lastSpace = cut.lastIndexOf(' ');
  return (lastSpace > 0 ? cut.slice(0, lastSpace) : cut.slice(0, IMAGE_TEXT_MAX_LENGTH)).trim();
}

/** The stored text of the words OCR read: low-confidence and meaningless words dropped, then normalised. */
export function imageTextOfWords(words: readonly ReadWord[], minConfidence = MIN_WORD_CONFIDENCE): string {
  return normaliseImageText(keptWords(words, minConfidence).map((word) => word.text).join(' '));
}
