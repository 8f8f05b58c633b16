import { useSyncExternalStore } from 'react';
import { GRID_BREAKPOINTS } from '../lib/constants.ts';

/** Columns for a window width: the count of the first breakpoint at or above it, else the default. */
export function gridColumnsFor(width: number): number {
  const limits = Object.keys(GRID_BREAKPOINTS)
    .filter((key) => key !== 'default')
    .map(Number)
    .sort((a, b) => a - b);
  const limit = limits.find((max) => width <= max);
  return limit === undefined ? GRID_BREAKPOINTS.default : GRID_BREAKPOINTS[limit as keyof typeof GRID_BREAKPOINTS];
}

function subscribe(onChange: () => void) {
  window.addEventListener('resize', onChange);
  return () => window.removeEventListener('resize', onChange);
}

/** The grid's current column count, following window resizes. */
export function useGridColumns(): number {
  return useSyncExternalStore(
    subscribe,
    () => gridColumnsFor(window.innerWidth),
    () => GRID_BREAKPOINTS.default,
  );
}
