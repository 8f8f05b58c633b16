import { useEffect, useLayoutEffect, useRef } from 'react';
import { useLocation, useNavigationType } from 'react-router-dom';

const STORAGE_KEY = 'obyect-scroll-positions';
/** A position is recorded this long after the last scroll event. */
const RECORD_AFTER_MS = 100;

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

/**
 * The window's scroll position across navigations, per history entry: Back and
 * Forward (and a reload) return to where that entry was left; a link to a new
 * page starts at its top, or at the element its #hash names. Replacing the
 * entry (a filter, the next ad) and opening an ad over the list keep the
 * position. Positions live in sessionStorage, so they survive a reload.
 */
export function ScrollRestoration() {
  const location = useLocation();
  const navigationType = useNavigationType();
  const positions = useRef<Record<string, number> | null>(null);
  const currentKey = useRef(location.key);
  const previousPathname = useRef<string | null>(null);

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
      timer = window.setTimeout(() => {
        frame = requestAnimationFrame(() => {
          timer = window.setTimeout(() => (positions.current![currentKey.current] = window.scrollY), 0);
        });
      }, RECORD_AFTER_MS);
    };
    const persist = () => {
      positions.current![currentKey.current] = window.scrollY;
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
      window.removeEventListener('scroll', record);
      window.removeEventListener('pagehide', persist);
      history.scrollRestoration = previous;
    };
  }, []);

  useLayoutEffect(() => {
    positions.current ??= storedPositions();
    currentKey.current = location.key;
    const pathnameChanged = previousPathname.current !== null && previousPathname.current !== location.pathname;
    previousPathname.current = location.pathname;
    if (navigationType === 'POP') {
      const saved = positions.current[location.key];
      if (saved !== undefined) window.scrollTo(0, saved);
      return;
    }
    if (navigationType !== 'PUSH' || hasBackgroundLocation(location.state)) return;
    if (location.hash) {
      const target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
      if (target) {
        target.scrollIntoView();
        return;
      }
    }
    if (pathnameChanged) window.scrollTo(0, 0);
  }, [location.key, location.pathname, location.hash, location.state, navigationType]);

  return null;
}
