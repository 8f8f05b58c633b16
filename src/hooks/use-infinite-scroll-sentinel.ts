import { useEffect, useRef, useState } from 'react';
import { SENTINEL_MARGIN_PX } from '../lib/constants.ts';

/**
 * A ref for an element below a list: `onReach` runs when it comes within the
 * spec's margin of the viewport. Re-observing after each load (`enabled` and
 * `itemCount` change) asks again while the sentinel is still in range.
 */
export function useInfiniteScrollSentinel(onReach: () => void, enabled: boolean, itemCount: number) {
  const [element, setElement] = useState<Element | null>(null);
  const onReachRef = useRef(onReach);
  useEffect(() => {
    onReachRef.current = onReach;
  }, [onReach]);

  useEffect(() => {
    if (!element || !enabled || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) onReachRef.current();
      },
      { rootMargin: `${SENTINEL_MARGIN_PX}px 0px ${SENTINEL_MARGIN_PX}px 0px` },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [element, enabled, itemCount]);

  return setElement;
}
