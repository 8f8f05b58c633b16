import { FilterToolbar } from '../../../components/filters/filter-toolbar.tsx';
import type { FilterOption, FilterSet, SwatchOption } from '../../../components/filters/filter-model.ts';
import { AD_FORMATS, AD_OFFERS, AD_PLATFORMS } from '../../../lib/ad-fact-values.ts';
import { COLOUR_SWATCHES } from '../../../lib/colour-swatches.ts';
import { TAG_FILTER_MAX } from '../../../lib/constants.ts';
import { AD_CARD_TEXTS } from '../../../lib/ad-card-texts.ts';
import { LIBRARY_TEXTS } from '../../../lib/library-texts.ts';
import type { LibraryFiltersState } from '../hooks/use-library-filters.ts';
import { LIBRARY_SORTS } from '../api/list-library-ads.ts';
import { MIN_RUNNING_DAYS_CHOICES, type FactFilterValues, type MinRunningDays } from '../lib/fact-filters.ts';

const F = LIBRARY_TEXTS.filters;
const PLATFORM_OPTIONS: FilterOption[] = AD_PLATFORMS.map((id) => ({ id, name: AD_CARD_TEXTS.adFacts.platformNames[id] }));
const FORMAT_OPTIONS: FilterOption[] = AD_FORMATS.map((id) => ({ id, name: AD_CARD_TEXTS.adFacts.formatNames[id] }));
const OFFER_OPTIONS: FilterOption[] = AD_OFFERS.map((id) => ({ id, name: AD_CARD_TEXTS.adFacts.offerNames[id] }));
const DAYS_OPTIONS: FilterOption[] = MIN_RUNNING_DAYS_CHOICES.map((days) => ({ id: String(days), name: F.atLeastDays(days) }));

const COLOUR_OPTIONS: SwatchOption[] = COLOUR_SWATCHES.map((swatch) => ({ ...swatch }));

const optionOf = (options: FilterOption[], id: string | number | null) => options.find((option) => option.id === String(id)) ?? null;

/**
 * The library's toolbar: search, brand, category, type, tags and date, then
 * the ads' facts (platforms, format, offer, hook, running days, still running)
 * the colour and the order; every change into the URL.
 */
export function LibraryToolbar({ state }: { state: LibraryFiltersState }) {
  const { catalogs, facts, setFacts } = state;
  const searching = state.search.trim() !== '';
  const filters: FilterSet = {
    options: [
      { label: F.brand, allLabel: LIBRARY_TEXTS.library.allBrands, options: catalogs.brands, value: state.brand, onChange: state.setBrand },
      { label: F.category, allLabel: LIBRARY_TEXTS.library.allCategories, options: catalogs.categories, value: state.category, onChange: state.setCategory },
      { label: F.type, allLabel: LIBRARY_TEXTS.library.allTypes, options: catalogs.types, value: state.type, onChange: state.setType },
    ],
    tags: { options: catalogs.tags, selected: state.tags, max: TAG_FILTER_MAX, onChange: state.setTags },
    date: { value: state.range, onChange: state.setRange },
    platforms: {
      label: F.platform,
      options: PLATFORM_OPTIONS,
      selected: PLATFORM_OPTIONS.filter((option) => facts.platforms.includes(option.id as FactFilterValues['platforms'][number])),
      onChange: (options) => setFacts({ platforms: options.map((option) => option.id as FactFilterValues['platforms'][number]) }),
    },
    facts: [
      {
        label: F.format,
        allLabel: F.allFormats,
        options: FORMAT_OPTIONS,
        value: optionOf(FORMAT_OPTIONS, facts.format),
        onChange: (option) => setFacts({ format: (option?.id ?? null) as FactFilterValues['format'] }),
      },
      {
        label: F.offer,
        allLabel: F.allOffers,
        options: OFFER_OPTIONS,
        value: optionOf(OFFER_OPTIONS, facts.offer),
        onChange: (option) => setFacts({ offer: (option?.id ?? null) as FactFilterValues['offer'] }),
      },
      { label: F.hook, allLabel: F.allHooks, options: catalogs.hooks, value: state.hook, onChange: state.setHook },
      {
        label: F.runningDays,
        allLabel: F.anyRunningDays,
        options: DAYS_OPTIONS,
        value: optionOf(DAYS_OPTIONS, facts.minRunningDays),
        onChange: (option) => setFacts({ minRunningDays: option ? (Number(option.id) as MinRunningDays) : null }),
        chipLabel: (option) => F.runningAtLeast(Number(option.id)),
      },
    ],
    stillRunning: { label: F.stillRunning, value: facts.stillRunning, onChange: (value) => setFacts({ stillRunning: value }) },
    colour: {
      label: F.colour,
      options: COLOUR_OPTIONS,
      value: COLOUR_OPTIONS.find((option) => option.id === facts.colour) ?? null,
      onChange: (option) => setFacts({ colour: (option?.id ?? null) as FactFilterValues['colour'] }),
    },
    sort: {
      // Relevance only means something while a search is typed.
      options: LIBRARY_SORTS.filter((sort) => searching || sort !== 'relevance').map((id) => ({ id, name: F.sortNames[id] })),
      value: state.sort,
      onChange: (id) => state.setSort(id === 'relevance' ? null : (id as FactFilterValues['sort'])),
    },
    clear: state.clearFilters,
  };
  return <FilterToolbar search={state.search} onSearch={state.setSearch} filters={filters} />;
}
