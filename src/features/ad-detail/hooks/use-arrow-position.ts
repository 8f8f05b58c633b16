import { useEffect, useMemo, useRef } from 'react';

/**
 * Which ad the arrows stand on: the ad the last move went to, ahead of the
 * render that shows it. Presses that come faster than renders each move one
 * ad on from there. A render of an ad the arrows have already moved past (the
 * router commits its transitions late, and may commit an earlier one after a
 * later move) does not move them back; any other change of the ad shown (a
 * similar ad opened, the browser's back) moves them to it.
 */
export function useArrowPosition(shownId: string) {
  const position = useRef(shownId);
  // The moves whose ad has not been shown yet.
  const moving = useRef(new Set<string>());

  useEffect(() => {
    if (moving.current.has(shownId) && shownId !== position.current) return;
    moving.current.clear();
    position.current = shownId;
  }, [shownId]);

  return useMemo(
    () => ({
      current: () => position.current,
      moveTo: (id: string) => {
        moving.current.add(id);
        position.current = id;
      },
    }),
    [],
  );
}
