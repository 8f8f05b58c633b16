import { DATE_RANGES } from '../../lib/constants.ts';
import { TEXTS } from '../../lib/spec-texts.ts';

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
}

export interface TagsFilter {
  options: FilterOption[];
  selected: FilterOption[];
  max: number;
  onChange: (options: FilterOption[]) => void;
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
  /** Takes every filter off, the search excepted. */
  clear: () => void;
}

/** An active filter as a removable chip. */
export interface ActiveFilter {
  key: string;
  label: string;
  remove: () => void;
}

/** The active filters, each a chip: each one-of filter, each tag, the date range; the search shows in its own box. */
export function activeFiltersOf(set: FilterSet): ActiveFilter[] {
  const T = TEXTS.filters;
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
    active.push({ key: 'date', label: T.chip(T.date, TEXTS.library.dateRanges[date.value]), remove: () => date.onChange('all') });
  }
  return active;
}
