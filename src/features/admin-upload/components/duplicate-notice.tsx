import { Button } from '../../../components/ui/button.tsx';
import { ADMIN_TEXTS } from '../../../lib/admin-texts.ts';
import type { UploadItem } from '../hooks/use-upload-queue.ts';

const T = ADMIN_TEXTS.adminUpload.duplicates;
/** Hashes this close are the same picture give or take compression or size. */
const IDENTICAL_BITS = 2;

interface DuplicateNoticeProps {
  item: UploadItem;
  queueDuplicates: UploadItem[] | undefined;
  onSkip: (id: string) => void;
  onKeep: (id: string) => void;
}

/**
 * Under a queued file: the ads of the library (with their images) or the
 * earlier files of the list that it nearly duplicates (a video by its poster
 * frame), and Skip or Keep. A file that was kept says so; an uploaded one says
 * nothing.
 */
export function DuplicateNotice({ item, queueDuplicates, onSkip, onKeep }: DuplicateNoticeProps) {
  if (item.status === 'done') return null;
  if (item.fingerprint === undefined) {
    return (
      <p className="mt-1 text-xs text-neutral-500" data-testid="duplicate-checking">
        {T.checking}
      </p>
    );
  }
  const existing = item.duplicates ?? [];
  const inQueue = queueDuplicates ?? [];
  if (existing.length === 0 && inQueue.length === 0) {
    // A video whose poster could not be made is not called unchecked: its upload fails and says why.
    if (item.videoCreative === null) return null;
    return item.fingerprint === null || item.duplicates === null ? <p className="mt-1 text-xs text-neutral-500">{T.unchecked}</p> : null;
  }
  if (item.keepDuplicate) {
    return (
      <p className="mt-1 text-xs text-neutral-600" data-testid="duplicate-kept">
        {T.kept}
      </p>
    );
  }
  return (
    <div role="group" aria-label={existing.length > 0 ? T.title : T.titleInQueue} data-testid="duplicate-notice" className="mt-2 rounded-lg border border-amber-300 bg-amber-50 p-2.5">
      <p className="text-xs font-semibold text-amber-900">{existing.length > 0 ? T.title : T.titleInQueue}</p>
      {existing.length > 0 && (
        <ul className="mt-2 flex flex-wrap gap-2">
          {existing.map((ad) => (
            <li key={ad.id} data-testid="duplicate-of" data-ad-id={ad.id} className="flex w-40 items-center gap-2 rounded-md bg-white p-1.5 ring-1 ring-amber-200">
              {ad.imageUrl ? (
                <img src={ad.imageUrl} alt={T.existing(ad.brandName ?? '')} loading="lazy" className="h-12 w-10 shrink-0 rounded object-cover" />
              ) : (
                <span aria-hidden="true" className="h-12 w-10 shrink-0 rounded bg-neutral-100" />
              )}
              <span className="min-w-0 text-[11px] leading-tight text-neutral-700">
                <span className="block truncate font-medium text-neutral-900">{ad.brandName}</span>
                {ad.distance <= IDENTICAL_BITS ? T.identical : T.similar}
              </span>
            </li>
          ))}
        </ul>
      )}
      {inQueue.length > 0 && <p className="mt-1 text-xs text-amber-900">{T.inQueue(inQueue.map((other) => other.name).join(', '))}</p>}
      <div className="mt-2 flex items-center gap-2">
        <span className="text-xs text-amber-900">{T.question}</span>
        <Button size="sm" variant="outline" onClick={() => onSkip(item.id)} aria-label={T.skipLabel(item.name)}>
          {T.skip}
        </Button>
        <Button size="sm" onClick={() => onKeep(item.id)} aria-label={T.keepLabel(item.name)}>
          {T.keep}
        </Button>
      </div>
    </div>
  );
}
