import { AD_VIEWS_STORAGE_KEY, FREE_AD_VIEW_LIMIT } from '../../../lib/constants.ts';

/** The stored count of ads an anonymous visitor has opened: 0 when missing or not a number. */
export function readAdViewCount(storage: Storage): number {
  let stored: string | null;
  try {
    stored = storage.getItem(AD_VIEWS_STORAGE_KEY);
  } catch {
    return 0;
  }
  if (stored === null || stored.trim() === '') return 0;
  const count = Number(stored);
  return Number.isFinite(count) && count > 0 ? Math.floor(count) : 0;
}

/** Counts one more ad view, saves it and returns the new count. */
export function recordAdView(storage: Storage): number {
  const count = readAdViewCount(storage) + 1;
  try {
    storage.setItem(AD_VIEWS_STORAGE_KEY, String(count));
  } catch {
    // Storage full or blocked: the count still holds for this page.
  }
  return count;
}

/** The gate opens from the free limit on. */
export function isOverFreeLimit(count: number): boolean {
  return count >= FREE_AD_VIEW_LIMIT;
}
