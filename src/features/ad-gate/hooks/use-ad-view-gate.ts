import { useCallback, useEffect, useRef, useState } from 'react';
import { isOverFreeLimit, readAdViewCount, recordAdView } from './ad-view-counter.ts';

export interface AdViewGate {
  isOpen: boolean;
  open: () => void;
  close: () => void;
}

/**
 * Counts each distinct ad an anonymous visitor sees clear (StrictMode's double
 * effects included) and opens the gate at the free limit. `shown` is the ad once
 * it has loaded: a locked ad, opened by its URL, is not a free view and is not
 * counted, though past the limit the gate opens over it too.
 */
export function useAdViewGate(shown: { id: string; clear: boolean } | null, counting: boolean): AdViewGate {
  const [isOpen, setOpen] = useState(false);
  const countedId = useRef<string | null>(null);
  const adId = shown?.id ?? null;
  const clear = shown?.clear ?? false;

  useEffect(() => {
    if (!counting || !adId || countedId.current === adId) return;
    countedId.current = adId;
    const count = clear ? recordAdView(window.localStorage, adId) : readAdViewCount(window.localStorage);
    if (isOverFreeLimit(count)) setOpen(true);
  }, [adId, clear, counting]);

  const open = useCallback(() => setOpen(true), []);
  const close = useCallback(() => setOpen(false), []);
  return { isOpen, open, close };
}
