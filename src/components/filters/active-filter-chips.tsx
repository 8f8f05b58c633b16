import type { ReactNode } from 'react';
import { LIBRARY_TEXTS } from '../../lib/library-texts.ts';
import { CloseIcon } from '../ui/icons.tsx';
import type { ActiveFilter } from './filter-model.ts';

interface ActiveFilterChipsProps {
  active: ActiveFilter[];
  onClearAll: () => void;
  /** A control the chips follow on the same lines (the mobile Filters button); shown with no chips too. */
  leading?: ReactNode;
}

/** Each active filter as a chip that removes it, and 'Clear all' once there are two or more. */
export function ActiveFilterChips({ active, onClearAll, leading }: ActiveFilterChipsProps) {
  if (active.length === 0) return leading ? <div className="flex">{leading}</div> : null;
  const T = LIBRARY_TEXTS.filters;
  return (
    <ul aria-label={T.activeFilters} className="flex min-w-0 flex-wrap items-center gap-2">
      {leading && <li className="flex">{leading}</li>}
      {active.map((filter) => (
        <li key={filter.key} className="max-w-full min-w-0">
          <button
            type="button"
            onClick={filter.remove}
            aria-label={T.remove(filter.label)}
            title={T.remove(filter.label)}
            className="inline-flex h-8 max-w-full items-center gap-1.5 rounded-full border border-neutral-300 bg-white pr-2 pl-3 text-[13px] font-medium text-neutral-900 transition-colors hover:border-neutral-950 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-neutral-950"
          >
            <span className="truncate">{filter.label}</span>
            <CloseIcon className="h-3.5 w-3.5 shrink-0 text-neutral-500" />
          </button>
        </li>
      ))}
      {active.length > 1 && (
        <li>
          <button
            type="button"
            onClick={onClearAll}
            className="inline-flex h-8 shrink-0 items-center rounded-full px-2.5 text-[13px] font-semibold text-neutral-700 underline-offset-2 hover:text-neutral-950 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-neutral-950"
          >
            {T.clearAll}
          </button>
        </li>
      )}
    </ul>
  );
}
