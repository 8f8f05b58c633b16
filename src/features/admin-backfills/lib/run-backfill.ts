import type { BackfillCursor, BackfillServices } from '../api/backfill-worklist.ts';

/** Ads listed per page and values stored per call (the store functions take 100 at most). */
export const BACKFILL_PAGE_SIZE = 20;
export const BACKFILL_SAVE_SIZE = 10;

export interface BackfillProgress {
  /** Images dealt with: done, or skipped because they could not be fetched or worked on. */
  done: number;
  /** Of these, the ones skipped. */
  skipped: number;
  /** The ads without the value when the run began, plus those already dealt with before it (a resumed run). */
  total: number;
}

export interface BackfillRun {
  /** Where the next run resumes: after the last ad whose value is stored or that was skipped. */
  cursor: BackfillCursor | null;
  progress: BackfillProgress;
  outcome: 'finished' | 'cancelled';
}

/**
 * Works out a value (a text, a fingerprint) from the image of each ad that has
 * none, one after another, from `cursor` on, and stores the values in batches.
 * An image that cannot be fetched or worked on is skipped and counted (it keeps
 * no value, so a later run tries it again); the walk never returns to it in
 * this run. Cancelling stops after the image at hand and stores what was done.
 * A failure to list or store throws; the cursor of the last stored batch is in
 * `onProgress`'s second argument, so a new run resumes there and does the rest
 * again.
 */
export async function runBackfill<Value>(
  services: BackfillServices<Value>,
  options: {
    cursor: BackfillCursor | null;
    before: BackfillProgress | null;
    signal: AbortSignal;
    onProgress: (progress: BackfillProgress, cursor: BackfillCursor | null) => void;
  },
): Promise<BackfillRun> {
  let cursor = options.cursor;
  let page = await services.listPage(cursor, BACKFILL_PAGE_SIZE);
  const progress: BackfillProgress = {
    done: options.before?.done ?? 0,
    skipped: options.before?.skipped ?? 0,
    total: (options.before?.done ?? 0) + page.remaining - (options.before?.skipped ?? 0),
  };
  // The skipped ads of an earlier run are still unread: they are in `remaining` but behind the cursor.
  progress.total = Math.max(progress.total, progress.done);
  options.onProgress({ ...progress }, cursor);

  let pending: Array<{ id: string; value: Value }> = [];
  let lastDealt: BackfillCursor | null = cursor;
  const flush = async () => {
    if (pending.length > 0) await services.save(pending);
    pending = [];
    cursor = lastDealt;
    options.onProgress({ ...progress }, cursor);
  };

  for (;;) {
    for (const ad of page.ads) {
      if (options.signal.aborted) {
        await flush();
        return { cursor, progress, outcome: 'cancelled' };
      }
      try {
        const value = await services.derive(await services.fetchImage(ad));
        pending.push({ id: ad.id, value });
      } catch (error) {
        console.warn('An ad image was skipped', ad.id, error);
        progress.skipped += 1;
      }
      progress.done += 1;
      lastDealt = { created_at: ad.created_at, id: ad.id };
      if (pending.length >= BACKFILL_SAVE_SIZE) await flush();
      else options.onProgress({ ...progress }, cursor);
    }
    await flush();
    if (!page.next) return { cursor, progress, outcome: 'finished' };
    if (options.signal.aborted) return { cursor, progress, outcome: 'cancelled' };
    page = await services.listPage(page.next, BACKFILL_PAGE_SIZE);
  }
}
