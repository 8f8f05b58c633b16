import { highlightParts } from '../lib/highlight.ts';

/** A text with the words of the current search marked (inside words too when `inside`); plain text otherwise. */
export function HighlightedText({ text, words, inside = false }: { text: string; words: readonly string[]; inside?: boolean }) {
  if (words.length === 0) return <>{text}</>;
  return (
    <>
      {highlightParts(text, words, { inside }).map((part, index) =>
        part.marked ? (
          <mark key={index} className="rounded-[3px] bg-amber-200 px-px text-neutral-950">
            {part.text}
          </mark>
        ) : (
          part.text
        ),
      )}
    </>
  );
}
