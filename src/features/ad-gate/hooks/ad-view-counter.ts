import { AD_VIEWS_STORAGE_KEY, FREE_AD_VIEW_LIMIT, VIEWED_AD_IDS_STORAGE_KEY } from '../../../lib/constants.ts';

/** Ids kept to tell a repeat view from a new one; past the limit the gate opens anyway, so a few more suffice. */
const KEPT_VIEWED_IDS = FREE_AD_VIEW_LIMIT * 4;

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

function readViewedIds(storage: Storage): string[] {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(VIEWED_AD_IDS_STORAGE_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * Records a view of one ad and returns the count of distinct ads viewed: an ad
 * opened again is not counted again (DESIGN.md, deliberate difference 10).
 */
export function recordAdView(storage: Storage, adId: string): number {
  const viewed = readViewedIds(storage);
  const current = readAdViewCount(storage);
  if (viewed.includes(adId)) return current;
  const count = current + 1;
  try {
    storage.setItem(AD_VIEWS_STORAGE_KEY, String(count));
    storage.setItem(VIEWED_AD_IDS_STORAGE_KEY, JSON.stringify([...viewed, adId].slice(-KEPT_VIEWED_IDS)));
  } catch {
    // Storage full or blocked: the count still holds for this page.
  }
  return count;
}

/** The gate opens from the free limit on. */
export function isOverFreeLimit(count: number): boolean {
  return count >= FREE_AD_VIEW_LIMIT;
}
