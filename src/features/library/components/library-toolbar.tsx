import { FilterToolbar } from '../../../components/filters/filter-toolbar.tsx';
import type { FilterSet } from '../../../components/filters/filter-model.ts';
import { TAG_FILTER_MAX } from '../../../lib/constants.ts';
import { TEXTS } from '../../../lib/spec-texts.ts';
import type { LibraryFiltersState } from '../hooks/use-library-filters.ts';

/** The library's toolbar: search, brand, category, type, tags and date, every change into the URL. */
export function LibraryToolbar({ state }: { state: LibraryFiltersState }) {
  const { catalogs } = state;
  const T = TEXTS.filters;
  const filters: FilterSet = {
    options: [
      { label: T.brand, allLabel: TEXTS.library.allBrands, options: catalogs.brands, value: state.brand, onChange: state.setBrand },
      { label: T.category, allLabel: TEXTS.library.allCategories, options: catalogs.categories, value: state.category, onChange: state.setCategory },
      { label: T.type, allLabel: TEXTS.library.allTypes, options: catalogs.types, value: state.type, onChange: state.setType },
    ],
    tags: { options: catalogs.tags, selected: state.tags, max: TAG_FILTER_MAX, onChange: state.setTags },
    date: { value: state.range, onChange: state.setRange },
    clear: state.clearFilters,
  };
  return <FilterToolbar search={state.search} onSearch={state.setSearch} filters={filters} />;
}
