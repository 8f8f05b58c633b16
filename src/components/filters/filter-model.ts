import { DATE_RANGES } from '../../lib/constants.ts';
import { LIBRARY_TEXTS } from '../../lib/library-texts.ts';

/** A brand, category, type or tag as a filter offers it. */
export interface FilterOption {
  id: string;
  name: string;
}

export type DateRange = (typeof DATE_RANGES)[number];

/** One-of filters (brand, category, type): a native select with an 'All …' choice. */
export interface OptionFilter {
  label: string;
  allLabel: string;
  options: FilterOption[];
  value: FilterOption | null;
  onChange: (option: FilterOption | null) => void;
  /** The chip's words for the chosen option, when 'Label: name' reads badly. */
  chipLabel?: (option: FilterOption) => string;
}

export interface TagsFilter {
  options: FilterOption[];
  selected: FilterOption[];
  max: number;
  onChange: (options: FilterOption[]) => void;
}

/** Several of a short list (the platforms): a pill opening a checklist, toggles in the sheet. */
export interface ChecklistFilter {
  label: string;
  options: FilterOption[];
  selected: FilterOption[];
  onChange: (options: FilterOption[]) => void;
}

/** A filter that is on or off (still running). */
export interface ToggleFilter {
  label: string;
  value: boolean;
  onChange: (value: boolean) => void;
}

/** One colour of a palette, shown as a swatch. */
export interface SwatchOption extends FilterOption {
  hex: string;
}

/** One of a palette of colours, or none. */
export interface SwatchFilter {
  label: string;
  options: SwatchOption[];
  value: SwatchOption | null;
  onChange: (option: SwatchOption | null) => void;
}

/** The order of a list: not a filter, so never a chip and kept by 'Clear all'. */
export interface SortControl {
  options: FilterOption[];
  value: string;
  onChange: (id: string) => void;
}

export interface DateFilter {
  value: DateRange;
  onChange: (range: DateRange) => void;
}

/** What a list's toolbar offers: the search, the one-of filters in order, and tags and a date range where the list has them. */
export interface FilterSet {
  options: OptionFilter[];
  tags?: TagsFilter;
  date?: DateFilter;
  /** The ads' facts: platforms, the one-of facts (format, offer, hook, running days) and still running. */
  platforms?: ChecklistFilter;
  facts?: OptionFilter[];
  stillRunning?: ToggleFilter;
  colour?: SwatchFilter;
  sort?: SortControl;
  /** Takes every filter off, the search (and the order) excepted. */
  clear: () => void;
}

/** An active filter as a removable chip. */
export interface ActiveFilter {
  key: string;
  label: string;
  remove: () => void;
}

/**
 * The active filters, each a chip: each one-of filter, each tag, the date
 * range, each platform, each fact, still running, the colour; the search shows in its own
 * box and the order in its own control.
 */
export function activeFiltersOf(set: FilterSet): ActiveFilter[] {
  const T = LIBRARY_TEXTS.filters;
  const active: ActiveFilter[] = [];
  for (const filter of set.options) {
    if (filter.value) active.push({ key: `${filter.label}:${filter.value.id}`, label: T.chip(filter.label, filter.value.name), remove: () => filter.onChange(null) });
  }
  const tags = set.tags;
  for (const tag of tags?.selected ?? []) {
    active.push({ key: `tag:${tag.id}`, label: T.chip(T.tag, tag.name), remove: () => tags!.onChange(tags!.selected.filter((other) => other.id !== tag.id)) });
  }
  const date = set.date;
  if (date && date.value !== 'all') {
    active.push({ key: 'date', label: T.chip(T.date, LIBRARY_TEXTS.library.dateRanges[date.value]), remove: () => date.onChange('all') });
  }
  const platforms = set.platforms;
  for (const platform of platforms?.selected ?? []) {
    active.push({
      key: `platform:${platform.id}`,
      label: T.chip(platforms!.label, platform.name),
      remove: () => platforms!.onChange(platforms!.selected.filter((other) => other.id !== platform.id)),
    });
  }
  for (const filter of set.facts ?? []) {
    if (filter.value) {
      const option = filter.value;
      active.push({ key: `${filter.label}:${option.id}`, label: filter.chipLabel?.(option) ?? T.chip(filter.label, option.name), remove: () => filter.onChange(null) });
    }
  }
  const stillRunning = set.stillRunning;
  if (stillRunning?.value) active.push({ key: 'still-running', label: stillRunning.label, remove: () => stillRunning.onChange(false) });
  const colour = set.colour;
  if (colour?.value) active.push({ key: 'colour', label: T.chip(colour.label, colour.value.name), remove: () => colour.onChange(null) });
  return active;
}
