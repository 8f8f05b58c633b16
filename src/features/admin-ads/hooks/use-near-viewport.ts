import { useEffect, useState } from 'react';

/**
 * True once the element has come within `marginPx` of the viewport, and from
 * then on; true at once where IntersectionObserver is missing.
 */
export function useNearViewport(marginPx: number) {
  const [element, setElement] = useState<Element | null>(null);
  const [near, setNear] = useState(false);
  useEffect(() => {
    if (near || !element) return;
    if (typeof IntersectionObserver === 'undefined') {
      setNear(true);
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true);
      },
      { rootMargin: `${marginPx}px 0px ${marginPx}px 0px` },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [element, marginPx, near]);
  return { ref: setElement, near };
}
