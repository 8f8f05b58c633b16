import { ADMIN_TEXTS } from '../../../lib/admin-texts.ts';
import type { RefusalReason, RefusedFile } from '../lib/file-names.ts';

const T = ADMIN_TEXTS.adminUpload.refused;

function reasonText(reason: RefusalReason): string {
  if (reason.kind === 'unsupported-format') return T.reasons['unsupported-format'](reason.format);
  if (reason.kind === 'unsupported-video') return T.reasons['unsupported-video'](reason.format);
  return T.reasons[reason.kind];
}

/** The files of the last drop or choice that did not join the queue, each with why, in our words. */
export function RefusedFilesNotice({ refused, onDismiss }: { refused: RefusedFile[]; onDismiss: () => void }) {
  if (refused.length === 0) return null;
  return (
    <div role="alert" data-testid="upload-refused" className="rounded-xl border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-950">
      <div className="flex items-start justify-between gap-3">
        <p className="font-semibold">{T.title(refused.length)}</p>
        <button
          type="button"
          onClick={onDismiss}
          className="-my-1 shrink-0 rounded-md px-2 py-1 text-xs font-medium text-amber-900 hover:bg-amber-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-900"
        >
          {T.dismiss}
        </button>
      </div>
      <ul className="mt-1.5 space-y-0.5">
        {refused.map((file, index) => (
          <li key={`${index}-${file.name}`} className="[overflow-wrap:anywhere]">
            <span className="font-medium">{file.name}</span>: {reasonText(file.reason)}
          </li>
        ))}
      </ul>
      <p className="mt-1.5 text-amber-900">{T.help}</p>
    </div>
  );
}
