import { useEffect, useState } from 'react';
import { SearchIcon } from '../../../components/ui/icons.tsx';
import { Select } from '../../../components/ui/select.tsx';
import { useDebouncedValue } from '../../../hooks/use-debounced-value.ts';
import { SEARCH_DEBOUNCE_MS, SEARCH_MAX_LENGTH } from '../../../lib/constants.ts';
import { TEXTS } from '../../../lib/spec-texts.ts';
import type { FilterOption, ThemedBoardFiltersState } from '../hooks/use-themed-board-filters.ts';

/** Search (debounced 250 ms), 'All brands' and 'All categories'; every change goes to the URL. */
export function ThemedBoardToolbar({ state }: { state: ThemedBoardFiltersState }) {
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
      <SearchBox search={state.search} onSearch={state.setSearch} />
      <div className="flex items-center gap-2">
        <OptionSelect label="Brand" allLabel={TEXTS.library.allBrands} items={state.brands} value={state.brand} onChange={state.setBrand} />
        <OptionSelect label="Category" allLabel={TEXTS.library.allCategories} items={state.categories} value={state.category} onChange={state.setCategory} />
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
    <label className="relative flex min-w-0 flex-1 items-center sm:max-w-md">
      <span className="sr-only">Search</span>
      <SearchIcon className="pointer-events-none absolute left-3.5 h-[18px] w-[18px] text-neutral-400" />
      <input
        type="search"
        value={text}
        maxLength={SEARCH_MAX_LENGTH}
        onChange={(event) => setText(event.target.value)}
        placeholder={TEXTS.library.searchPlaceholder}
        className="h-11 w-full rounded-xl border border-neutral-200 bg-white pr-3 pl-10 text-[15px] text-neutral-950 shadow-[0_1px_2px_rgba(0,0,0,0.04)] transition-colors placeholder:text-neutral-500 hover:border-neutral-300 focus:border-neutral-950 focus:outline-none sm:h-10 sm:text-sm"
      />
    </label>
  );
}

interface OptionSelectProps {
  label: string;
  allLabel: string;
  items: FilterOption[];
  value: FilterOption | null;
  onChange: (item: FilterOption | null) => void;
}

function OptionSelect({ label, allLabel, items, value, onChange }: OptionSelectProps) {
  return (
    <Select
      aria-label={label}
      active={value !== null}
      className="min-w-0 flex-1 sm:flex-none [&>select]:w-full sm:[&>select]:w-auto"
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
