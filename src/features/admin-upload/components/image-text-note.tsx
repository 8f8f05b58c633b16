import { useState } from 'react';
import { ADMIN_TEXTS } from '../../../lib/admin-texts.ts';

const T = ADMIN_TEXTS.adminUpload.imageText;
/** Longer texts show their start, with Show all. */
const SHORT = 160;

/** What was read from a file's image once it is uploaded: the text, that there was none, or that it could not be read. */
export function ImageTextNote({ text }: { text: string | null | undefined }) {
  const [open, setOpen] = useState(false);
  if (text === undefined) return null;
  if (text === null) return <p className="mt-1 text-xs text-amber-700">{T.unread}</p>;
  if (text === '') return <p className="mt-1 text-xs text-neutral-500">{T.none}</p>;
  const long = text.length > SHORT;
  return (
    <p data-testid="upload-image-text" className="mt-1 text-xs break-words text-neutral-600">
      <span className="font-medium text-neutral-800">{T.label}: </span>
      {long && !open ? `${text.slice(0, SHORT).trimEnd()}…` : text}
      {long && (
        <button type="button" aria-expanded={open} onClick={() => setOpen(!open)} className="ml-1 font-medium text-neutral-900 underline underline-offset-2">
          {open ? T.showLess : T.showAll}
        </button>
      )}
    </p>
  );
}
