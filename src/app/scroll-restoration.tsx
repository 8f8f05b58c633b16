import { useEffect, useLayoutEffect, useRef } from 'react';
import { useLocation, useNavigationType } from 'react-router-dom';

const STORAGE_KEY = 'obyect-scroll-positions';
/** A position is recorded this long after the last scroll event. */
const RECORD_AFTER_MS = 100;
/**
 * A position the page cannot reach yet (its list still loading, its grid not
 * laid out) is tried again each time the page grows, until the page has not
 * grown for this long.
 */
const RESTORE_PATIENCE_MS = 4_000;

function storedPositions(): Record<string, number> {
  try {
    const parsed: unknown = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '{}');
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, number>) : {};
  } catch {
    return {};
  }
}

function hasBackgroundLocation(state: unknown): boolean {
  return typeof state === 'object' && state !== null && 'backgroundLocation' in state;
}

const maxScrollY = () => document.documentElement.scrollHeight - window.innerHeight;

/**
 * The key a history entry's position is kept under. The router names the
 * entry a document opened on 'default' in every document, so that entry is
 * told apart by its address too: another page opened in the same tab never
 * takes this one's position.
 */
const entryKey = (location: { key: string; pathname: string; search: string }) =>
  location.key === 'default' ? `default ${location.pathname}${location.search}` : location.key;

/** Whether the document came back (a reload, Back or Forward) rather than being opened anew (a link, a typed address). */
function documentCameBack(): boolean {
  const entry = (typeof performance.getEntriesByType === 'function' ? performance.getEntriesByType('navigation')[0] : undefined) as
    | PerformanceNavigationTiming
    | undefined;
  return entry ? entry.type === 'reload' || entry.type === 'back_forward' : true;
}

/** What the viewer does to scroll on their own; any of it ends a restore still waiting. */
const VIEWER_SCROLL_EVENTS = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;

/**
 * Scrolls to `y` now if the page is tall enough, else as soon as it is: a list
 * coming back renders its grid, and after a reload fetches its pages, after
 * this runs. Returns the cancel function.
 */
function restoreWhenReachable(y: number, onDone: () => void): () => void {
  window.scrollTo(0, y);
  if (Math.abs(window.scrollY - y) <= 1) {
    onDone();
    return () => {};
  }
  let giveUp = 0;
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    observer.disconnect();
    window.clearTimeout(giveUp);
    for (const type of VIEWER_SCROLL_EVENTS) window.removeEventListener(type, stop, true);
    onDone();
  };
  const waitForGrowth = () => {
    window.clearTimeout(giveUp);
    giveUp = window.setTimeout(stop, RESTORE_PATIENCE_MS);
  };
  // The page's height changes as its content lays out; each change is a new chance.
  const observer = new ResizeObserver(() => {
    if (maxScrollY() >= y - 1) {
      window.scrollTo(0, y);
      stop();
      return;
    }
    // As far as it goes for now: a list's next page loads when its end comes near.
    window.scrollTo(0, y);
    waitForGrowth();
  });
  observer.observe(document.documentElement);
  for (const type of VIEWER_SCROLL_EVENTS) window.addEventListener(type, stop, { capture: true, passive: true });
  waitForGrowth();
  return stop;
}

/**
 * The window's scroll position across navigations, per history entry: Back and
 * Forward (and a reload) return to where that entry was left, once the page
 * is tall enough to be there again; a link to a new page starts at its top,
 * or at the element its #hash names. Replacing the entry (a filter, the next
 * ad) and opening an ad over the list keep the position. Positions live in
 * sessionStorage, so they survive a reload.
 */
export function ScrollRestoration() {
  const location = useLocation();
  const navigationType = useNavigationType();
  const positions = useRef<Record<string, number> | null>(null);
  const currentKey = useRef(entryKey(location));
  const previousPathname = useRef<string | null>(null);
  /** Ends a restore still waiting for its page; while one waits, positions are not recorded. */
  const pendingRestore = useRef<(() => void) | null>(null);

  useEffect(() => {
    positions.current ??= storedPositions();
    const previous = history.scrollRestoration;
    history.scrollRestoration = 'manual';
    // Read once scrolling pauses, and just after a frame has painted: reading
    // scrollY while the layout is stale (cards just mounted) would lay the page
    // out then and there, in a task of its own.
    let timer = 0;
    let frame = 0;
    const record = () => {
      window.clearTimeout(timer);
      cancelAnimationFrame(frame);
      if (pendingRestore.current) return;
      timer = window.setTimeout(() => {
        frame = requestAnimationFrame(() => {
          timer = window.setTimeout(() => {
            if (!pendingRestore.current) positions.current![currentKey.current] = window.scrollY;
          }, 0);
        });
      }, RECORD_AFTER_MS);
    };
    const persist = () => {
      if (!pendingRestore.current) positions.current![currentKey.current] = window.scrollY;
      try {
        sessionStorage.setItem(STORAGE_KEY, JSON.stringify(positions.current));
      } catch {
        // A full or blocked sessionStorage only costs the position after a reload.
      }
    };
    window.addEventListener('scroll', record, { passive: true });
    window.addEventListener('pagehide', persist);
    return () => {
      window.clearTimeout(timer);
      cancelAnimationFrame(frame);
      pendingRestore.current?.();
      window.removeEventListener('scroll', record);
      window.removeEventListener('pagehide', persist);
      history.scrollRestoration = previous;
    };
  }, []);

  useLayoutEffect(() => {
    positions.current ??= storedPositions();
    const previousKey = currentKey.current;
    const key = entryKey(location);
    currentKey.current = key;
    const firstEntry = previousPathname.current === null;
    const pathnameChanged = !firstEntry && previousPathname.current !== location.pathname;
    previousPathname.current = location.pathname;
    const saved = positions.current;
    if (navigationType === 'REPLACE') {
      // The same place under a new entry (a filter, the next ad in the detail); a restore under way goes on.
      if (saved[previousKey] !== undefined) saved[key] = saved[previousKey];
      return;
    }
    pendingRestore.current?.();
    if (navigationType === 'POP') {
      // The document's first entry is a POP too: it returns to its position only when the document came back.
      if (firstEntry && !documentCameBack()) return;
      const y = saved[key];
      if (y === undefined) return;
      let cancelled = false;
      let stopWaiting: (() => void) | null = null;
      const cancel = () => {
        cancelled = true;
        stopWaiting?.();
      };
      pendingRestore.current = cancel;
      // After the renders the page's own layout effects asked for (a grid
      // learning its width and laying its cards out), which React finishes
      // before any microtask runs.
      queueMicrotask(() => {
        if (cancelled) return;
        stopWaiting = restoreWhenReachable(y, () => {
          if (pendingRestore.current === cancel) pendingRestore.current = null;
        });
      });
      return;
    }
    if (hasBackgroundLocation(location.state)) {
      // An ad opened over the list: the list stays where it is, and coming back to this entry finds it there.
      saved[key] = window.scrollY;
      return;
    }
    if (location.hash) {
      const target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
      if (target) {
        target.scrollIntoView();
        return;
      }
    }
    if (pathnameChanged) window.scrollTo(0, 0);
  }, [location.key, location.pathname, location.search, location.hash, location.state, navigationType]);

  return null;
}
