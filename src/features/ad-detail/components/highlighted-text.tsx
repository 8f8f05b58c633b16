import { highlightParts } from '../lib/highlight.ts';

/** A text with the words of the current search marked; plain text otherwise. */
export function HighlightedText({ text, words }: { text: string; words: readonly string[] }) {
  if (words.length === 0) return <>{text}</>;
  return (
    <>
      {highlightParts(text, words).map((part, index) =>
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
