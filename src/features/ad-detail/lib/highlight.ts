/** At most this many words of a search are highlighted (the search itself is 100 characters at most). */
const MAX_SEARCH_WORDS = 20;

/** Letters, digits and the accents written apart from their letter belong to words. */
const WORD_CHARACTER = /[\p{L}\p{N}\p{M}]/u;
const COMBINING_MARK = /\p{M}/gu;

/** A character as the search compares it: lower case, without accents ('É' → 'e'); may be empty (a lone accent) or longer. */
function fold(character: string): string {
  return character.normalize('NFD').replace(COMBINING_MARK, '').toLowerCase();
}

/** The words of a search, folded, each once, longest first (the longest match wins where two start together). */
export function searchWords(search: string): string[] {
  const words = search
    .split(/[^\p{L}\p{N}\p{M}]+/u)
    .map((word) => [...word].map(fold).join(''))
    .filter((word) => word !== '');
  return [...new Set(words)].slice(0, MAX_SEARCH_WORDS).sort((a, b) => b.length - a.length);
}

/** A piece of a text: `marked` when a search word matched there. */
export interface TextPart {
  text: string;
  marked: boolean;
}

/**
 * The text cut into parts, marking where a search word begins a word of the
 * text: case and accents aside ('creme' finds 'Crème'), a search word finds
 * the start of a word ('glow' marks 'Glow' in 'Glowing') but not its middle
 * ('low' marks nothing in 'Glowing'), unless `inside` is set (see
 * `marksInside`), when it is marked wherever it is. The parts are plain text,
 * never markup.
 */
export function highlightParts(text: string, words: readonly string[], { inside = false }: { inside?: boolean } = {}): TextPart[] {
  if (words.length === 0 || text === '') return text === '' ? [] : [{ text, marked: false }];
  // The folded text, each folded character pointing back at the original it came from.
  const characters = [...text];
  const offsets: number[] = [];
  let folded = '';
  const origin: number[] = [];
  let offset = 0;
  characters.forEach((character, index) => {
    offsets.push(offset);
    const piece = fold(character);
    folded += piece;
    for (let i = 0; i < piece.length; i += 1) origin.push(index);
    offset += character.length;
  });
  offsets.push(offset);

  const ranges: [number, number][] = [];
  let from = 0;
  while (from < folded.length) {
    const index = origin[from]!;
    const startsCharacter = from === 0 || origin[from - 1] !== index;
    const startsWord = startsCharacter && WORD_CHARACTER.test(characters[index]!) && (index === 0 || !WORD_CHARACTER.test(characters[index - 1]!));
    const word = (inside ? startsCharacter : startsWord) ? words.find((candidate) => folded.startsWith(candidate, from)) : undefined;
    if (!word) {
      from += 1;
      continue;
    }
    const first = origin[from]!;
    let last = origin[from + word.length - 1]!;
    // Accents written after their letter stay with it.
    while (last + 1 < characters.length && /\p{M}/u.test(characters[last + 1]!)) last += 1;
    ranges.push([offsets[first]!, offsets[last + 1]!]);
    // On past the whole original character the match ended in.
    let next = from + word.length;
    while (next < folded.length && origin[next] === last) next += 1;
    from = next;
  }

  const parts: TextPart[] = [];
  let at = 0;
  for (const [start, end] of ranges) {
    if (start > at) parts.push({ text: text.slice(at, start), marked: false });
    parts.push({ text: text.slice(start, end), marked: true });
    at = end;
  }
  if (at < text.length) parts.push({ text: text.slice(at), marked: false });
  return parts;
}

/**
 * Whether the search's words are marked inside words of an ad's texts: only
 * when they begin no word of any of them. The library finds an ad by its
 * whole search anywhere in its text too ('pgraded' finds 'upgraded'), and such
 * an ad would otherwise open with nothing marked.
 */
export function marksInside(texts: readonly (string | null | undefined)[], words: readonly string[]): boolean {
  return words.length > 0 && !texts.some((text) => !!text && highlightParts(text, words).some((part) => part.marked));
}
