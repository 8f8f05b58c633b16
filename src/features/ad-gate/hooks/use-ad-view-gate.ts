import { useCallback, useEffect, useRef, useState } from 'react';
import { isOverFreeLimit, recordAdView } from './ad-view-counter.ts';

export interface AdViewGate {
  isOpen: boolean;
  open: () => void;
  close: () => void;
}

/**
 * Counts each distinct ad an anonymous visitor opens (StrictMode's
 * double effects included) and opens the gate at the free limit.
 */
export function useAdViewGate(adId: string | undefined, counting: boolean): AdViewGate {
  const [isOpen, setOpen] = useState(false);
  const countedId = useRef<string | null>(null);

  useEffect(() => {
    if (!counting || !adId || countedId.current === adId) return;
    countedId.current = adId;
    if (isOverFreeLimit(recordAdView(window.localStorage, adId))) setOpen(true);
  }, [adId, counting]);

  const open = useCallback(() => setOpen(true), []);
  const close = useCallback(() => setOpen(false), []);
  return { isOpen, open, close };
}
