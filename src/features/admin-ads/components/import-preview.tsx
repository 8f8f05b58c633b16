import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogContent } from '../../../components/ui/dialog.tsx';
import { API_ERROR_TEXTS } from '../../../lib/api-error-texts.ts';
import { ADMIN_TEXTS } from '../../../lib/admin-texts.ts';
import type { ImportPreview, ImportRowError } from '../lib/facts-csv.ts';

const T = ADMIN_TEXTS.adminFacts;
const C = T.csv;

/** The sentence for a refused row, by its code (and the fact's rule or the check's name). */
export function importErrorText(error: ImportRowError): string {
  switch (error.code) {
    case 'fact':
      return C.rowError(error.row, T.fields[error.column], T.rules[error.rule]);
    case 'server': {
      const byCode: Readonly<Record<string, string>> = API_ERROR_TEXTS.apiErrors.byCode;
      const sentence =
        error.serverCode === 'not_found'
          ? C.rowProblems.unknown_id
          : error.serverCode === 'hook_not_found'
            ? T.rules.unknown_hook
            : error.serverCode === 'duplicate_id' || error.serverCode === 'invalid_id'
              ? C.rowProblems[error.serverCode]
              : ((error.constraint !== null && Object.hasOwn(byCode, error.constraint) ? byCode[error.constraint] : undefined) ??
                byCode[error.serverCode] ??
                API_ERROR_TEXTS.apiErrors.fallback);
      return C.rowError(error.row, null, sentence);
    }
    default:
      return C.rowError(error.row, null, C.rowProblems[error.code]);
  }
}

interface ImportPreviewDialogProps {
  fileName: string;
  preview: ImportPreview | null;
  applying: boolean;
  onApply: () => void;
  onClose: () => void;
}

const shown = (cell: string) => (cell === '' ? C.emptyValue : cell);

/**
 * What an import would change, before anything is written: per ad the facts
 * that change from → to, the rows that change nothing counted, every refused
 * row with its sentence. Apply shows only when something changes and no row is refused.
 */
export function ImportPreviewDialog({ fileName, preview, applying, onApply, onClose }: ImportPreviewDialogProps) {
  const canApply = preview !== null && preview.errors.length === 0 && preview.changed.length > 0;
  return (
    <Dialog open={preview !== null} onOpenChange={(open) => !open && onClose()}>
      {preview && (
        <DialogContent title={C.previewTitle} description={C.previewDescription(fileName)} className="max-w-3xl">
          <div data-testid="import-preview" className="mt-4 max-h-[60dvh] space-y-4 overflow-y-auto pr-1">
            {preview.errors.length > 0 && (
              <section role="alert" aria-labelledby="import-errors-title" className="rounded-xl border border-red-200 bg-red-50 p-3">
                <h3 id="import-errors-title" className="text-sm font-semibold text-red-800">
                  {C.errorsTitle(preview.errors.length)}
                </h3>
                <ul data-testid="import-errors" className="mt-2 list-disc space-y-1 pl-5 text-[13px] text-red-800">
                  {preview.errors.map((error, index) => (
                    <li key={index}>{importErrorText(error)}</li>
                  ))}
                </ul>
              </section>
            )}
            <p className="text-sm text-neutral-700">{C.summary(preview.changed.length, preview.unchanged)}</p>
            {preview.changed.length > 0 && (
              <ul data-testid="import-changes" className="divide-y divide-neutral-200 rounded-xl border border-neutral-200">
                {preview.changed.map((change) => (
                  <li key={change.id} data-ad-id={change.id} className="px-3 py-2.5">
                    <p className="text-[13px] font-semibold text-neutral-950">
                      {C.rowLabel(change.row)}
                      {change.brand && <span className="font-medium text-neutral-700"> · {change.brand}</span>}
                      <span className="ml-2 font-mono text-[11px] font-normal text-neutral-500">{change.id}</span>
                    </p>
                    <dl className="mt-1.5 grid grid-cols-[max-content_1fr] gap-x-3 gap-y-1 text-[13px]">
                      {change.changes.map(({ column, from, to }) => (
                        <div key={column} className="contents">
                          <dt className="text-neutral-500">{T.fields[column]}</dt>
                          <dd className="min-w-0 break-words text-neutral-900">
                            <span className="text-neutral-500 line-through decoration-neutral-400">{shown(from)}</span>
                            <span className="sr-only"> {C.changeTo} </span>
                            <span aria-hidden="true" className="px-1.5 text-neutral-400">→</span>
                            <span className="font-medium">{shown(to)}</span>
                          </dd>
                        </div>
                      ))}
                    </dl>
                  </li>
                ))}
              </ul>
            )}
            {preview.errors.length === 0 && preview.changed.length === 0 && <p className="text-sm text-neutral-600">{C.nothingChanges}</p>}
            <p className="text-xs text-neutral-500">{C.referenceNote}</p>
          </div>
          <div className="mt-5 flex justify-end gap-2">
            <Button variant="outline" onClick={onClose}>
              {C.cancel}
            </Button>
            {canApply && (
              <Button disabled={applying} onClick={onApply}>
                {applying ? C.applying : C.apply}
              </Button>
            )}
          </div>
        </DialogContent>
      )}
    </Dialog>
  );
}
