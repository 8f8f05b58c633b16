import { FilterToolbar } from '../../../components/filters/filter-toolbar.tsx';
import type { FilterSet } from '../../../components/filters/filter-model.ts';
import { LIBRARY_TEXTS } from '../../../lib/library-texts.ts';
import type { ThemedBoardFiltersState } from '../hooks/use-themed-board-filters.ts';

/** A themed board's toolbar: search (debounced 250 ms), 'All brands' and 'All categories', every change into the URL. */
export function ThemedBoardToolbar({ state }: { state: ThemedBoardFiltersState }) {
  const T = LIBRARY_TEXTS.filters;
  const filters: FilterSet = {
    options: [
      { label: T.brand, allLabel: LIBRARY_TEXTS.library.allBrands, options: state.brands, value: state.brand, onChange: state.setBrand },
      { label: T.category, allLabel: LIBRARY_TEXTS.library.allCategories, options: state.categories, value: state.category, onChange: state.setCategory },
    ],
    clear: state.clearFilters,
  };
  return <FilterToolbar search={state.search} onSearch={state.setSearch} filters={filters} />;
}
