import type { BackfillCursor, BackfillServices } from '../api/backfill-services.ts';

/** Ads listed per page and texts stored per call (admin_set_image_texts takes 100 at most). */
export const BACKFILL_PAGE_SIZE = 20;
export const BACKFILL_SAVE_SIZE = 10;

export interface BackfillProgress {
  /** Images dealt with: read, or skipped because they could not be read. */
  done: number;
  /** Of these, the ones skipped. */
  skipped: number;
  /** The ads without text when the run began, plus those already dealt with before it (a resumed run). */
  total: number;
}

export interface BackfillRun {
  /** Where the next run resumes: after the last ad whose text is stored or that was skipped. */
  cursor: BackfillCursor | null;
  progress: BackfillProgress;
  outcome: 'finished' | 'cancelled';
}

/**
 * Reads the text in the images of the ads that have none, one after another,
 * from `cursor` on, and stores the texts in batches. An image that cannot be
 * fetched or read is skipped and counted (it keeps no text, so a later run
 * tries it again); the walk never returns to it in this run. Cancelling stops
 * after the image being read and stores what was read. A failure to list or
 * store throws; the cursor of the last stored batch is in `onProgress`'s
 * second argument, so a new run resumes there and reads the rest again.
 */
export async function runImageTextBackfill(
  services: BackfillServices,
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

  let pending: Array<{ id: string; text: string }> = [];
  let lastDealt: BackfillCursor | null = cursor;
  const flush = async () => {
    if (pending.length > 0) await services.saveTexts(pending);
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
        const text = await services.readText(await services.fetchImage(ad));
        pending.push({ id: ad.id, text });
      } catch (error) {
        console.warn('The text of an ad image could not be read', ad.id, error);
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
