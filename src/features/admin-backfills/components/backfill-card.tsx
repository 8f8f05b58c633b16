import { Button } from '../../../components/ui/button.tsx';
import type { ADMIN_TEXTS } from '../../../lib/admin-texts.ts';
import type { BackfillServices } from '../api/backfill-worklist.ts';
import { useBackfill } from '../hooks/use-backfill.ts';

export type BackfillTexts = (typeof ADMIN_TEXTS)['imageTextBackfill' | 'fingerprintBackfill'];

/** A backfill's card on /admin: what it does, a start (or continue) and cancel button, a progress bar and its outcome in words. */
export function BackfillCard<Value>({ id, texts: T, services }: { id: string; texts: BackfillTexts; services: BackfillServices<Value> }) {
  const backfill = useBackfill(services);
  const { phase, progress, failure } = backfill;
  const running = phase === 'running';
  const canResume = (phase === 'cancelled' || phase === 'failed') && progress !== null && progress.done < progress.total;
  const percent = progress && progress.total > 0 ? Math.round((progress.done / progress.total) * 100) : 0;

  let message: string | null = null;
  if (running && !progress) message = T.counting;
  else if (phase === 'finished' && progress?.total === 0) message = T.nothingToDo;
  else if (phase === 'finished' && progress) message = T.finished(progress.done - progress.skipped);
  else if (phase === 'cancelled') message = T.cancelled;

  return (
    <section aria-labelledby={`${id}-heading`} className="rounded-2xl border border-neutral-200/80 bg-white p-4 shadow-[0_1px_2px_rgba(0,0,0,0.04)] sm:p-6">
      <h2 id={`${id}-heading`} className="text-base font-semibold tracking-tight text-neutral-950">
        {T.title}
      </h2>
      <p className="mt-0.5 text-sm text-neutral-500">{T.description}</p>
      {progress && progress.total > 0 && (
        <div className="mt-4 space-y-1.5">
          <div
            role="progressbar"
            aria-label={T.progressLabel}
            aria-valuemin={0}
            aria-valuemax={progress.total}
            aria-valuenow={progress.done}
            aria-valuetext={T.progress(progress.done, progress.total)}
            className="h-2 overflow-hidden rounded-full bg-neutral-100"
          >
            <div className="h-full rounded-full bg-neutral-950 transition-[width] duration-300" style={{ width: `${percent}%` }} />
          </div>
          <p className="text-sm text-neutral-700 tabular-nums">{T.progress(progress.done, progress.total)}</p>
          {progress.skipped > 0 && <p className="text-sm text-amber-700">{T.skipped(progress.skipped)}</p>}
        </div>
      )}
      <div aria-live="polite" className="text-sm text-neutral-700">
        {message && <p className="mt-3">{message}</p>}
      </div>
      {failure && (
        <p role="alert" className="mt-3 text-sm text-red-600">
          {failure === 'list' ? T.listFailed : T.saveFailed}
        </p>
      )}
      <div className="mt-4 flex flex-wrap gap-2">
        {running ? (
          <Button variant="outline" onClick={backfill.cancel}>
            {T.cancel}
          </Button>
        ) : (
          <Button onClick={() => void backfill.start()}>{canResume ? T.resume : T.start}</Button>
        )}
      </div>
    </section>
  );
}
