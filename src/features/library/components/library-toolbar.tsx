import { FilterToolbar } from '../../../components/filters/filter-toolbar.tsx';
import type { FilterOption, FilterSet, MultiOptionFilter, SwatchOption } from '../../../components/filters/filter-model.ts';
import { AD_FORMATS, AD_OFFERS, AD_PLATFORMS } from '../../../lib/ad-fact-values.ts';
import { COLOUR_SWATCHES } from '../../../lib/colour-swatches.ts';
import { FILTER_VALUES_MAX, TAG_FILTER_MAX } from '../../../lib/constants.ts';
import { countryName, languageName } from '../../../lib/formatting.ts';
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

/** A filter of several catalogue items, at most FILTER_VALUES_MAX. */
function several(
  label: string,
  allLabel: string,
  findLabel: string,
  options: FilterOption[],
  selected: FilterOption[],
  onChange: (options: FilterOption[]) => void,
): MultiOptionFilter {
  return { kind: 'many', label, allLabel, findLabel, options, selected, max: FILTER_VALUES_MAX, onChange };
}

/**
 * The codes that have ads (most ads first), each named in the viewer's language; the chosen code too while the
 * list is loading, so the select shows it.
 */
function localeOptions(codes: string[], chosen: string | null, nameOf: (code: string) => string): FilterOption[] {
  const all = chosen !== null && !codes.includes(chosen) ? [chosen, ...codes] : codes;
  return all.map((code) => ({ id: code, name: nameOf(code) }));
}

const optionOf = (options: FilterOption[], id: string | number | null) => options.find((option) => option.id === String(id)) ?? null;

/**
 * The library's toolbar: search, brands, categories, types (several of each), tags and date, then
 * the ads' facts (platforms, format, offer, hooks, language, country, running days, still running)
 * the colour and the order; every change into the URL.
 */
export function LibraryToolbar({ state }: { state: LibraryFiltersState }) {
  const { catalogs, facts, setFacts } = state;
  const searching = state.search.trim() !== '';
  const filters: FilterSet = {
    options: [
      several(F.brand, LIBRARY_TEXTS.library.allBrands, F.findBrand, catalogs.brands, state.brands, state.setBrands),
      several(F.category, LIBRARY_TEXTS.library.allCategories, F.findCategory, catalogs.categories, state.categories, state.setCategories),
      several(F.type, LIBRARY_TEXTS.library.allTypes, F.findType, catalogs.types, state.types, state.setTypes),
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
      several(F.hook, F.allHooks, F.findHook, catalogs.hooks, state.hooks, state.setHooks),
      {
        label: F.language,
        allLabel: F.allLanguages,
        options: localeOptions(catalogs.languages, state.language, languageName),
        value: state.language === null ? null : { id: state.language, name: languageName(state.language) },
        onChange: (option) => state.setLanguage(option?.id ?? null),
      },
      {
        label: F.country,
        allLabel: F.allCountries,
        options: localeOptions(catalogs.countries, state.country, countryName),
        value: state.country === null ? null : { id: state.country, name: countryName(state.country) },
        onChange: (option) => state.setCountry(option?.id ?? null),
      },
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
