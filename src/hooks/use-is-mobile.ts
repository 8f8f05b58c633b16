import { useSyncExternalStore } from 'react';
import { MOBILE_BREAKPOINT_PX } from '../lib/constants.ts';

const QUERY = `(max-width: ${MOBILE_BREAKPOINT_PX - 1}px)`;

/**
 * One MediaQueryList for the whole app, and its answer kept: every ad card asks
 * (its add-to-board panel is a sheet on mobile), so reading it must not call
 * matchMedia per card per render.
 */
let list: MediaQueryList | null = null;
/** The matchMedia the list came from: a page (or a test) that replaces it gets a new list. */
let listSource: typeof window.matchMedia | undefined | null = null;
let mobile = false;
const listeners = new Set<() => void>();

function mediaList(): MediaQueryList | null {
  const source = typeof window === 'undefined' ? undefined : window.matchMedia;
  if (source !== listSource) {
    listSource = source;
    list = source ? source.call(window, QUERY) : null;
    mobile = list ? list.matches : typeof window !== 'undefined' && window.innerWidth < MOBILE_BREAKPOINT_PX;
  }
  return list;
}

function update() {
  const current = mediaList();
  const next = current ? current.matches : window.innerWidth < MOBILE_BREAKPOINT_PX;
  if (next === mobile) return;
  mobile = next;
  for (const listener of listeners) listener();
}

function subscribe(onChange: () => void) {
  const current = mediaList();
  if (listeners.size === 0) {
    if (current) current.addEventListener('change', update);
    else window.addEventListener('resize', update);
  }
  listeners.add(onChange);
  // A change between the first read and this subscription is not missed.
  update();
  return () => {
    listeners.delete(onChange);
    if (listeners.size > 0) return;
    if (current) current.removeEventListener('change', update);
    else window.removeEventListener('resize', update);
  };
}

function isMobileNow(): boolean {
  mediaList();
  return mobile;
}

/** True under the spec's mobile breakpoint (768 px), following resizes: the mobile layouts, bottom sheets instead of popovers. */
export function useIsMobile(): boolean {
  return useSyncExternalStore(subscribe, isMobileNow, () => false);
}
