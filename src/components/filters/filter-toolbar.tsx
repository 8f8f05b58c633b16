import { lazy, Suspense, useId, useRef, useState, type RefObject } from 'react';
import { useIsMobile } from '../../hooks/use-is-mobile.ts';
import { LIBRARY_TEXTS } from '../../lib/library-texts.ts';
import { buttonClasses } from '../ui/button.tsx';
import { SlidersIcon } from '../ui/icons.tsx';
import { Popover, type PopoverTriggerProps } from '../ui/popover.tsx';
import { ActiveFilterChips } from './active-filter-chips.tsx';
import { ChoiceControl, PILL, PILL_OFF, PILL_ON, SearchBox, SortSelect } from './filter-controls.tsx';
import { FilterFields } from './filter-fields.tsx';
import { activeFiltersOf, type FilterSet } from './filter-model.ts';

const FilterSheet = lazy(() => import('./filter-sheet.tsx'));

/** The filters in the toolbar's row from 768 px, after the search; the others are behind Filters. */
const IN_ROW = 2;

interface FilterToolbarProps {
  search: string;
  onSearch: (text: string) => void;
  filters: FilterSet;
}

/**
 * The toolbar of the library and the themed boards: the search (debounced,
 * into the URL), the list's filters, each active filter as a removable chip,
 * and the order where the list has one. From 768 px one row: the search (room
 * for its whole placeholder), the first two filters, a Filters button with the
 * count of the filters it holds that are on, opening a panel with all of them,
 * and the order at the row's end. Below 768 px the Filters button, with the
 * count of every active filter, opens them all (and the order) in a bottom sheet.
 */
export function FilterToolbar({ search, onSearch, filters }: FilterToolbarProps) {
  const isMobile = useIsMobile();
  const active = activeFiltersOf(filters);
  // Kept here, not in the button: the button moves in and out of the chips' list as filters come and go.
  const [sheetOpen, setSheetOpen] = useState(false);
  const [sheetLoaded, setSheetLoaded] = useState(false);
  if (sheetOpen && !sheetLoaded) setSheetLoaded(true);
  if (sheetOpen && !isMobile) setSheetOpen(false);
  const buttonRef = useRef<HTMLButtonElement | null>(null);
  const [panelOpen, setPanelOpen] = useState(false);
  const panelTitleId = useId();

  if (isMobile) {
    const button = <FiltersButton buttonRef={buttonRef} activeCount={active.length} expanded={sheetOpen} onClick={() => setSheetOpen(true)} size="chip" />;
    return (
      <div data-testid="filter-toolbar" className="flex flex-col gap-2.5">
        <SearchBox search={search} onSearch={onSearch} className="w-full" />
        {/* The chips flow on from the button, wrapping under it. */}
        <ActiveFilterChips active={active} onClearAll={filters.clear} leading={button} />
        {sheetLoaded && (
          <Suspense fallback={null}>
            <FilterSheet open={sheetOpen} onOpenChange={setSheetOpen} filters={filters} activeCount={active.length} triggerRef={buttonRef} />
          </Suspense>
        )}
      </div>
    );
  }

  // From 768 px: the search and the first two filters (brand and category, as the spec's toolbar has them) in the
  // row, every other filter behind Filters, the order at the row's end; one row at 1440 px with the sidebar open.
  const inRow = filters.options.slice(0, IN_ROW);
  const behind: Omit<FilterSet, 'clear'> = { ...filters, options: filters.options.slice(IN_ROW), sort: undefined };
  const hasBehind = behind.options.length > 0 || Boolean(behind.tags || behind.date || behind.platforms || behind.facts?.length || behind.stillRunning || behind.colour);
  const activeBehind = activeFiltersOf({ ...behind, clear: filters.clear }).length;
  return (
    <div data-testid="filter-toolbar" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-2">
        {/* Room for the whole placeholder before any filter takes a place on this row. */}
        <SearchBox search={search} onSearch={onSearch} className="max-w-md min-w-[18rem] flex-[1_1_18rem]" />
        {inRow.map((filter) => (
          <ChoiceControl key={filter.label} filter={filter} />
        ))}
        {hasBehind && (
          <Popover
            open={panelOpen}
            onOpenChange={setPanelOpen}
            renderTrigger={(trigger) => <FiltersButton {...trigger} activeCount={activeBehind} size="toolbar" />}
            content={{
              align: 'start',
              sideOffset: 6,
              collisionPadding: 16,
              role: 'dialog',
              'aria-labelledby': panelTitleId,
              'data-testid': 'filter-panel',
              className: 'z-40 flex max-h-[min(36rem,calc(100dvh-8rem))] w-[min(40rem,calc(100vw-2rem))] flex-col rounded-2xl border border-neutral-200 bg-white shadow-xl',
            }}
          >
            <h2 id={panelTitleId} className="shrink-0 px-5 pt-4 pb-2 text-base font-bold tracking-tight text-neutral-950">
              {LIBRARY_TEXTS.filters.sheetTitle}
            </h2>
            <div className="min-h-0 flex-1 overflow-y-auto overscroll-contain px-5 pt-1 pb-5">
              <FilterFields filters={behind} columns />
            </div>
            <div className="flex shrink-0 items-center justify-end gap-2 border-t border-neutral-200 px-5 py-3">
              <button type="button" onClick={filters.clear} disabled={active.length === 0} className={buttonClasses('outline', 'md')}>
                {LIBRARY_TEXTS.filters.clearAll}
              </button>
              <button type="button" onClick={() => setPanelOpen(false)} className={buttonClasses('primary', 'md')}>
                {LIBRARY_TEXTS.filters.showAds}
              </button>
            </div>
          </Popover>
        )}
        {filters.sort && (
          <div className="ml-auto">
            <SortSelect control={filters.sort} />
          </div>
        )}
      </div>
      <ActiveFilterChips active={active} onClearAll={filters.clear} />
    </div>
  );
}

interface FiltersButtonProps extends Partial<PopoverTriggerProps> {
  activeCount: number;
  /** 'chip' beside the chips under 768 px; 'toolbar' as tall as the toolbar's other controls. */
  size: 'chip' | 'toolbar';
  buttonRef?: RefObject<HTMLButtonElement | null>;
  expanded?: boolean;
}

/**
 * Filters, with how many of the filters it opens are on. The count is drawn beside the button's text, not inside
 * it: the button's name says it in words ('Filters, 2 active'), and a name must hold the text one sees (axe).
 */
function FiltersButton({ activeCount, size, buttonRef, expanded, ref, ...trigger }: FiltersButtonProps) {
  const T = LIBRARY_TEXTS.filters;
  const on = activeCount > 0;
  const look =
    size === 'toolbar'
      ? `${PILL} ${on ? `${PILL_ON} pr-10` : PILL_OFF}`
      : `inline-flex h-8 shrink-0 items-center gap-1.5 rounded-full border pl-2.5 text-[13px] font-semibold transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-neutral-950 ${
          on ? 'border-neutral-950 bg-neutral-950 pr-9 text-white' : 'border-neutral-300 bg-white pr-3 text-neutral-900 hover:border-neutral-950'
        }`;
  return (
    <span className="relative inline-flex shrink-0">
      <button
        type="button"
        aria-haspopup="dialog"
        aria-expanded={expanded}
        {...trigger}
        ref={ref ?? buttonRef}
        aria-label={on ? T.buttonWithCount(activeCount) : T.button}
        className={look}
      >
        <SlidersIcon className="h-4 w-4" />
        {T.button}
      </button>
      {on && (
        <span
          data-testid="active-filter-count"
          aria-hidden="true"
          className={`pointer-events-none absolute top-1/2 min-w-[1.25rem] -translate-y-1/2 rounded-full bg-white px-1.5 text-center text-xs leading-5 font-bold text-neutral-950 ${size === 'toolbar' ? 'right-3' : 'right-2.5'}`}
        >
          {activeCount}
        </span>
      )}
    </span>
  );
}
