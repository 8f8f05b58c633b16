import { lazy, Suspense, useRef, useState, type RefObject } from 'react';
import { useIsMobile } from '../../hooks/use-is-mobile.ts';
import { LIBRARY_TEXTS } from '../../lib/library-texts.ts';
import { SlidersIcon } from '../ui/icons.tsx';
import { ActiveFilterChips } from './active-filter-chips.tsx';
import { ChoiceControl, ColourFilter, DateSelect, PlatformFilter, SearchBox, SortSelect, TagPicker, ToggleFilterButton } from './filter-controls.tsx';
import { activeFiltersOf, type FilterSet } from './filter-model.ts';

const FilterSheet = lazy(() => import('./filter-sheet.tsx'));

interface FilterToolbarProps {
  search: string;
  onSearch: (text: string) => void;
  filters: FilterSet;
}

/**
 * The toolbar of the library and the themed boards: the search (debounced,
 * into the URL), the list's filters, and each active filter as a removable
 * chip, and the order where the list has one. From 768 px the filters sit
 * beside the search and wrap under it when the row is full, the search keeping
 * room for its whole placeholder, the order at the row's end; below, a
 * Filters button with the active count opens them (and the order) in a bottom
 * sheet.
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

  if (isMobile) {
    const button = <FiltersButton buttonRef={buttonRef} activeCount={active.length} expanded={sheetOpen} onClick={() => setSheetOpen(true)} />;
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

  return (
    <div data-testid="filter-toolbar" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-2">
        {/* Room for the whole placeholder before any filter takes a place on this row. */}
        <SearchBox search={search} onSearch={onSearch} className="max-w-md min-w-[18rem] flex-[1_1_18rem]" />
        {filters.options.map((filter) => (
          <ChoiceControl key={filter.label} filter={filter} />
        ))}
        {filters.tags && <TagPicker filter={filters.tags} />}
        {filters.date && <DateSelect filter={filters.date} />}
        {filters.platforms && <PlatformFilter filter={filters.platforms} />}
        {filters.facts?.map((filter) => (
          <ChoiceControl key={filter.label} filter={filter} />
        ))}
        {filters.stillRunning && <ToggleFilterButton filter={filters.stillRunning} />}
        {filters.colour && <ColourFilter filter={filters.colour} />}
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

interface FiltersButtonProps {
  buttonRef: RefObject<HTMLButtonElement | null>;
  activeCount: number;
  expanded: boolean;
  onClick: () => void;
}

function FiltersButton({ buttonRef, activeCount, expanded, onClick }: FiltersButtonProps) {
  const T = LIBRARY_TEXTS.filters;
  return (
    <button
      ref={buttonRef}
      type="button"
      aria-haspopup="dialog"
      aria-expanded={expanded}
      aria-label={activeCount > 0 ? T.buttonWithCount(activeCount) : T.button}
      onClick={onClick}
      className={`inline-flex h-8 shrink-0 items-center gap-1.5 rounded-full border pr-3 pl-2.5 text-[13px] font-semibold transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-neutral-950 ${
        activeCount > 0 ? 'border-neutral-950 bg-neutral-950 text-white' : 'border-neutral-300 bg-white text-neutral-900 hover:border-neutral-950'
      }`}
    >
      <SlidersIcon className="h-4 w-4" />
      {T.button}
      {activeCount > 0 && (
        <span data-testid="active-filter-count" className="min-w-[1.25rem] rounded-full bg-white px-1.5 text-center text-xs leading-5 font-bold text-neutral-950">
          {activeCount}
        </span>
      )}
    </button>
  );
}
