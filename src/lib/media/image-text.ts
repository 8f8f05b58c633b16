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

/** A word with a letter or a digit in it; a lone mark or a run of punctuation is what OCR makes of edges and textures. */
const MEANINGFUL = /[\p{L}\p{N}]/u;

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
  const kept = words.filter((word) => word.confidence >= minConfidence && MEANINGFUL.test(word.text)).map((word) => word.text);
  return normaliseImageText(kept.join(' '));
}
