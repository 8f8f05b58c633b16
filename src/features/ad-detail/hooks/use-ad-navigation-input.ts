import { useEffect, useRef, type TouchEvent } from 'react';
import { SWIPE_THRESHOLD_PX } from '../../../lib/constants.ts';

interface NavigationInput {
  enabled: boolean;
  onPrevious: () => void;
  onNext: () => void;
  /** Open dialogs that belong to the ad view itself (its own modal), not counted as covering it. */
  ownDialogs: number;
}

/** True while a dialog other than the ad view's own is open over it. */
export function isCovered(ownDialogs: number): boolean {
  return document.querySelectorAll('[role="dialog"][data-state="open"], [role="alertdialog"][data-state="open"]').length > ownDialogs;
}

/** Where a scrolling box stands: at its top, at its bottom (a box that does not scroll is at both). */
function edgesOf(box: HTMLElement): { top: boolean; bottom: boolean } {
  return { top: box.scrollTop <= 0, bottom: box.scrollTop + box.clientHeight >= box.scrollHeight - 1 };
}

/**
 * Arrow keys and vertical swipes (over the spec's threshold) move through ads:
 * left/up and a downward swipe go back, right/down and an upward swipe go on.
 * The page scrolls with the same gesture, so a swipe moves only from the end
 * it points past: an upward swipe begun at the bottom of the page goes on, a
 * downward one begun at its top goes back; anywhere else the finger scrolls.
 */
export function useAdNavigationInput({ enabled, onPrevious, onNext, ownDialogs }: NavigationInput) {
  const handlers = useRef({ onPrevious, onNext });
  useEffect(() => {
    handlers.current = { onPrevious, onNext };
  }, [onPrevious, onNext]);

  useEffect(() => {
    if (!enabled) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || isCovered(ownDialogs)) return;
      const target = event.target as HTMLElement | null;
      if (target && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))) return;
      if (event.key === 'ArrowLeft' || event.key === 'ArrowUp') {
        event.preventDefault();
        handlers.current.onPrevious();
      } else if (event.key === 'ArrowRight' || event.key === 'ArrowDown') {
        event.preventDefault();
        handlers.current.onNext();
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [enabled, ownDialogs]);

  const touchStart = useRef<{ y: number; top: boolean; bottom: boolean } | null>(null);
  return {
    onTouchStart: (event: TouchEvent) => {
      const y = event.touches[0]?.clientY;
      touchStart.current = y === undefined ? null : { y, ...edgesOf(event.currentTarget as HTMLElement) };
    },
    onTouchEnd: (event: TouchEvent) => {
      const start = touchStart.current;
      touchStart.current = null;
      const end = event.changedTouches[0]?.clientY;
      if (!enabled || start === null || end === undefined) return;
      const distance = end - start.y;
      const now = edgesOf(event.currentTarget as HTMLElement);
      if (distance < -SWIPE_THRESHOLD_PX && start.bottom && now.bottom) handlers.current.onNext();
      else if (distance > SWIPE_THRESHOLD_PX && start.top && now.top) handlers.current.onPrevious();
    },
  };
}
