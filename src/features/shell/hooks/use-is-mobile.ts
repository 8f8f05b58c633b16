import { useSyncExternalStore } from 'react';
import { MOBILE_BREAKPOINT_PX } from '../../../lib/constants.ts';

const QUERY = `(max-width: ${MOBILE_BREAKPOINT_PX - 1}px)`;

function subscribe(onChange: () => void) {
  const list = window.matchMedia?.(QUERY);
  if (!list) {
    window.addEventListener('resize', onChange);
    return () => window.removeEventListener('resize', onChange);
  }
  list.addEventListener('change', onChange);
  return () => list.removeEventListener('change', onChange);
}

function isMobileNow(): boolean {
  return window.matchMedia ? window.matchMedia(QUERY).matches : window.innerWidth < MOBILE_BREAKPOINT_PX;
}

/** True under the mobile breakpoint (768 px), following resizes. */
export function useIsMobile(): boolean {
  return useSyncExternalStore(subscribe, isMobileNow, () => false);
}
