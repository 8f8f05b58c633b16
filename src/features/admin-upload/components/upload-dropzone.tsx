import { useRef, useState, type DragEvent } from 'react';
import { ADMIN_TEXTS } from '../../../lib/admin-texts.ts';

const T = ADMIN_TEXTS.adminUpload;

/** Drop images and videos here or click to pick them; the queue keeps the files it can take and names the rest. */
export function UploadDropzone({ onFiles }: { onFiles: (files: File[]) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    onFiles([...event.dataTransfer.files]);
  };

  return (
    <label
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
      data-testid="upload-dropzone"
      className={`flex cursor-pointer flex-col items-center justify-center gap-1.5 rounded-2xl border-2 border-dashed px-4 py-8 text-center transition-colors focus-within:outline-2 focus-within:outline-offset-2 focus-within:outline-neutral-950 sm:py-10 ${
        over ? 'border-neutral-900 bg-neutral-100' : 'border-neutral-300 bg-neutral-50 hover:border-neutral-400 hover:bg-neutral-100/60'
      }`}
    >
      <svg viewBox="0 0 24 24" className="h-7 w-7 text-neutral-500" fill="none" stroke="currentColor" strokeWidth={1.8} aria-hidden="true">
        <path d="M12 16V4m0 0l-4.5 4.5M12 4l4.5 4.5" strokeLinecap="round" strokeLinejoin="round" />
        <path d="M4 15v3a2 2 0 002 2h12a2 2 0 002-2v-3" strokeLinecap="round" />
      </svg>
      <span className="text-sm font-medium text-neutral-900">{T.dropzone}</span>
      <span className="text-xs text-neutral-500">{T.hint}</span>
      <input
        ref={input}
        type="file"
        accept="image/*,video/mp4,video/webm"
        multiple
        className="sr-only"
        onChange={(event) => {
          onFiles([...(event.target.files ?? [])]);
          // The same files can be chosen again after a Remove.
          event.target.value = '';
        }}
      />
    </label>
  );
}
