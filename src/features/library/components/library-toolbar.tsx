import { useEffect, useState } from 'react';
import { CalendarIcon, CheckIcon, ChevronDownIcon, CloseIcon, SearchIcon, TagIcon } from '../../../components/ui/icons.tsx';
import { Popover } from '../../../components/ui/popover.tsx';
import { Select } from '../../../components/ui/select.tsx';
import { useDebouncedValue } from '../../../hooks/use-debounced-value.ts';
import { DATE_RANGES, SEARCH_DEBOUNCE_MS, SEARCH_MAX_LENGTH, TAG_FILTER_MAX } from '../../../lib/constants.ts';
import { TEXTS } from '../../../lib/spec-texts.ts';
import type { CatalogItem } from '../api/get-catalog.ts';
import type { DateRange, LibraryFiltersState } from '../hooks/use-library-filters.ts';

interface LibraryToolbarProps {
  state: LibraryFiltersState;
}

/** Search (debounced), brand, category, type, tags and date filters; every change goes to the URL. */
export function LibraryToolbar({ state }: LibraryToolbarProps) {
  const { catalogs } = state;
  return (
    <div className="flex flex-col gap-3 lg:flex-row lg:items-center">
      <SearchBox search={state.search} onSearch={state.setSearch} />
      <div className="-mx-4 flex items-center gap-2 overflow-x-auto px-4 pb-1 [scrollbar-width:none] sm:mx-0 sm:flex-wrap sm:overflow-visible sm:px-0 sm:pb-0">
        <CatalogSelect label="Brand" allLabel={TEXTS.library.allBrands} items={catalogs.brands} value={state.brand} onChange={state.setBrand} />
        <CatalogSelect
          label="Category"
          allLabel={TEXTS.library.allCategories}
          items={catalogs.categories}
          value={state.category}
          onChange={state.setCategory}
        />
        <CatalogSelect label="Type" allLabel={TEXTS.library.allTypes} items={catalogs.types} value={state.type} onChange={state.setType} />
        <TagPicker items={catalogs.tags} selected={state.tags} onChange={state.setTags} />
        <Select
          aria-label="Date"
          icon={<CalendarIcon className="h-4 w-4" />}
          active={state.range !== 'all'}
          value={state.range}
          onChange={(event) => state.setRange(event.target.value as DateRange)}
        >
          {DATE_RANGES.map((range) => (
            <option key={range} value={range}>
              {TEXTS.library.dateRanges[range]}
            </option>
          ))}
        </Select>
        {state.activeCount > 0 && (
          <button
            type="button"
            onClick={state.clearAll}
            className="inline-flex h-10 shrink-0 items-center gap-1.5 rounded-xl px-3 text-sm font-medium text-neutral-600 transition-colors hover:bg-neutral-100 hover:text-neutral-950"
          >
            <CloseIcon className="h-3.5 w-3.5" />
            {TEXTS.library.clearFilters}
          </button>
        )}
      </div>
    </div>
  );
}

function SearchBox({ search, onSearch }: { search: string; onSearch: (text: string) => void }) {
  const [text, setText] = useState(search);
  const debounced = useDebouncedValue(text, SEARCH_DEBOUNCE_MS);

  useEffect(() => {
    if (debounced.trim() !== search) onSearch(debounced);
    // Only a settled change of the text searches; the URL's own changes are followed below.
  }, [debounced]);

  useEffect(() => {
    if (search !== debounced.trim()) setText(search);
  }, [search]);

  return (
    <label className="relative flex min-w-0 flex-1 items-center lg:max-w-md">
      <span className="sr-only">Search</span>
      <SearchIcon className="pointer-events-none absolute left-3.5 h-[18px] w-[18px] text-neutral-400" />
      <input
        type="search"
        value={text}
        maxLength={SEARCH_MAX_LENGTH}
        onChange={(event) => setText(event.target.value)}
        placeholder={TEXTS.library.searchPlaceholder}
        className="h-11 w-full rounded-xl border border-neutral-200 bg-white pr-3 pl-10 text-[15px] text-neutral-950 shadow-[0_1px_2px_rgba(0,0,0,0.04)] transition-colors placeholder:text-neutral-400 hover:border-neutral-300 focus:border-neutral-950 focus:outline-none sm:h-10 sm:text-sm"
      />
    </label>
  );
}

interface CatalogSelectProps {
  label: string;
  allLabel: string;
  items: CatalogItem[];
  value: CatalogItem | null;
  onChange: (item: CatalogItem | null) => void;
}

function CatalogSelect({ label, allLabel, items, value, onChange }: CatalogSelectProps) {
  return (
    <Select
      aria-label={label}
      active={value !== null}
      value={value?.id ?? 'all'}
      onChange={(event) => onChange(items.find((item) => item.id === event.target.value) ?? null)}
    >
      <option value="all">{allLabel}</option>
      {items.map((item) => (
        <option key={item.id} value={item.id}>
          {item.name}
        </option>
      ))}
    </Select>
  );
}

interface TagPickerProps {
  items: CatalogItem[];
  selected: CatalogItem[];
  onChange: (items: CatalogItem[]) => void;
}

function TagPicker({ items, selected, onChange }: TagPickerProps) {
  const selectedIds = new Set(selected.map((tag) => tag.id));
  const toggle = (item: CatalogItem) =>
    onChange(selectedIds.has(item.id) ? selected.filter((tag) => tag.id !== item.id) : [...selected, item]);
  const active = selected.length > 0;

  return (
    <Popover
      renderTrigger={(trigger) => (
        <button
          {...trigger}
          className={`inline-flex h-10 shrink-0 items-center gap-2 rounded-xl border px-3.5 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-neutral-950 ${
            active ? 'border-neutral-950 bg-neutral-950 text-white' : 'border-neutral-200 bg-white text-neutral-800 hover:border-neutral-300'
          }`}
        >
          <TagIcon className="h-4 w-4" />
          {TEXTS.library.tags}
          {active && <span className="rounded-full bg-white px-1.5 text-xs font-semibold text-neutral-950">{selected.length}</span>}
          <ChevronDownIcon className="h-4 w-4 opacity-70" />
        </button>
      )}
      content={{ align: 'start', sideOffset: 6, className: 'z-40 max-h-80 w-64 overflow-y-auto rounded-2xl border border-neutral-200 bg-white p-1.5 shadow-xl' }}
    >
      {items.length === 0 && <p className="px-3 py-2 text-sm text-neutral-500">{TEXTS.library.noTags}</p>}
      {items.map((item) => {
        const checked = selectedIds.has(item.id);
        return (
          <button
            key={item.id}
            type="button"
            role="menuitemcheckbox"
            aria-checked={checked}
            disabled={!checked && selected.length >= TAG_FILTER_MAX}
            onClick={() => toggle(item)}
            className="flex w-full items-center justify-between gap-3 rounded-lg px-3 py-2 text-left text-sm text-neutral-800 hover:bg-neutral-100 disabled:opacity-40"
          >
            {item.name}
            {checked && <CheckIcon className="h-4 w-4 text-neutral-950" />}
          </button>
        );
      })}
    </Popover>
  );
}
