import { useSyncExternalStore } from 'react';
import { MOBILE_BREAKPOINT_PX } from '../../../lib/constants.ts';

const query = `(max-width: ${MOBILE_BREAKPOINT_PX - 1}px)`;

function subscribe(onChange: () => void) {
  const list = window.matchMedia?.(query);
  list?.addEventListener('change', onChange);
  return () => list?.removeEventListener('change', onChange);
}

/** True under the spec's mobile breakpoint (768 px): panels open as bottom sheets there. */
export function useIsNarrowScreen(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia?.(query).matches ?? false,
    () => false,
  );
}
