import { CloseIcon, SearchIcon } from '../../../components/ui/icons.tsx';
import { Select } from '../../../components/ui/select.tsx';
import { ADMIN_TEXTS } from '../../../lib/admin-texts.ts';
import { ADMIN_SORTS, type AdminSort } from '../api/get-admin-ads.ts';
import type { CatalogOption } from '../api/get-catalog-options.ts';
import type { useAdminAdsQuery } from '../hooks/use-admin-ads-query.ts';

const T = ADMIN_TEXTS.adminAds;

interface AdsFiltersProps {
  state: ReturnType<typeof useAdminAdsQuery>;
  brands: CatalogOption[];
  categories: CatalogOption[];
  types: CatalogOption[];
  tags: CatalogOption[];
}

const dateInput =
  'h-10 rounded-xl border border-neutral-200 bg-white px-3 text-sm text-neutral-800 focus-visible:border-neutral-950 focus-visible:outline-none';

/** Search, filters by brand, category, type, tags (chips) and dates, and the sort. */
export function AdsFilters({ state, brands, categories, types, tags }: AdsFiltersProps) {
  const { filters, setFilter } = state;
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-2">
        <label className="relative flex min-w-[14rem] flex-1 items-center">
          <span className="sr-only">{T.searchLabel}</span>
          <SearchIcon className="pointer-events-none absolute left-3 h-4 w-4 text-neutral-500" />
          <input
            type="search"
            value={state.searchInput}
            onChange={(event) => state.setSearchInput(event.target.value)}
            placeholder={T.searchPlaceholder}
            maxLength={100}
            className="h-10 w-full rounded-xl border border-neutral-200 bg-white pr-3 pl-9 text-sm text-neutral-900 placeholder:text-neutral-400 focus-visible:border-neutral-950 focus-visible:outline-none"
          />
        </label>
        <Select aria-label={T.sort} value={filters.sort} onChange={(event) => setFilter('sort', event.target.value as AdminSort)}>
          {ADMIN_SORTS.map((sort) => (
            <option key={sort} value={sort}>
              {T.sorts[sort]}
            </option>
          ))}
        </Select>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <Select aria-label={T.columns.brand} active={filters.brandId !== null} value={filters.brandId ?? ''} onChange={(event) => setFilter('brandId', event.target.value || null)}>
          <option value="">{T.allBrands}</option>
          {brands.map((brand) => (
            <option key={brand.id} value={brand.id}>
              {brand.name}
            </option>
          ))}
        </Select>
        <Select aria-label={T.columns.category} active={filters.categoryId !== null} value={filters.categoryId ?? ''} onChange={(event) => setFilter('categoryId', event.target.value || null)}>
          <option value="">{T.allCategories}</option>
          {categories.map((category) => (
            <option key={category.id} value={category.id}>
              {category.name}
            </option>
          ))}
        </Select>
        <Select aria-label={T.columns.type} active={filters.typeId !== null} value={filters.typeId ?? ''} onChange={(event) => setFilter('typeId', event.target.value || null)}>
          <option value="">{T.allTypes}</option>
          {types.map((type) => (
            <option key={type.id} value={type.id}>
              {type.name}
            </option>
          ))}
        </Select>
        <label className="flex items-center gap-2 text-sm text-neutral-600">
          {T.dateFrom}
          <input type="date" className={dateInput} value={filters.dateFrom ?? ''} max={filters.dateTo ?? undefined} onChange={(event) => setFilter('dateFrom', event.target.value || null)} />
        </label>
        <label className="flex items-center gap-2 text-sm text-neutral-600">
          {T.dateTo}
          <input type="date" className={dateInput} value={filters.dateTo ?? ''} min={filters.dateFrom ?? undefined} onChange={(event) => setFilter('dateTo', event.target.value || null)} />
        </label>
        {state.hasFilters && (
          <button type="button" onClick={state.clearFilters} className="inline-flex h-10 items-center gap-1.5 rounded-xl px-3 text-sm font-medium text-neutral-600 hover:bg-neutral-100 hover:text-neutral-950">
            <CloseIcon className="h-4 w-4" />
            {T.clearFilters}
          </button>
        )}
      </div>
      {tags.length > 0 && (
        <div role="group" aria-label={T.tags} className="flex flex-wrap items-center gap-1.5">
          <span className="mr-1 text-xs font-medium tracking-wide text-neutral-500 uppercase">{T.tags}</span>
          {tags.map((tag) => {
            const on = filters.tagIds.includes(tag.id);
            return (
              <button
                key={tag.id}
                type="button"
                aria-pressed={on}
                onClick={() => state.toggleTag(tag.id)}
                className={`h-7 rounded-full border px-3 text-xs font-medium transition-colors ${on ? 'border-neutral-950 bg-neutral-950 text-white' : 'border-neutral-200 bg-white text-neutral-700 hover:border-neutral-300'}`}
              >
                {tag.name}
              </button>
            );
          })}
        </div>
      )}
    </div>
  );
}
