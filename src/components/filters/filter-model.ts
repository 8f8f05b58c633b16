import { DATE_RANGES } from '../../lib/constants.ts';
import { LIBRARY_TEXTS } from '../../lib/library-texts.ts';

/** A brand, category, type or tag as a filter offers it. */
export interface FilterOption {
  id: string;
  name: string;
}

export type DateRange = (typeof DATE_RANGES)[number];

/** One-of filters (a themed board's brand and category, format, offer, language ...): a native select with an 'All …' choice. */
export interface OptionFilter {
  kind?: 'one';
  label: string;
  allLabel: string;
  options: FilterOption[];
  value: FilterOption | null;
  onChange: (option: FilterOption | null) => void;
  /** The chip's words for the chosen option, when 'Label: name' reads badly. */
  chipLabel?: (option: FilterOption) => string;
}

/**
 * Several of a catalogue (the library's brands, categories, types, hooks): a pill naming the choice ('All brands',
 * 'Lumora', 'Lumora +1') that opens a checklist; toggles in the sheet. At most `max`.
 */
export interface MultiOptionFilter {
  kind: 'many';
  label: string;
  allLabel: string;
  /** The label of the box that narrows a long checklist as one types. */
  findLabel: string;
  options: FilterOption[];
  selected: FilterOption[];
  max: number;
  onChange: (options: FilterOption[]) => void;
}

/** A filter of the toolbar's rows: one of a list, or several. */
export type ChoiceFilter = OptionFilter | MultiOptionFilter;

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
  options: ChoiceFilter[];
  tags?: TagsFilter;
  date?: DateFilter;
  /** The ads' facts: platforms, the facts' filters (format, offer, hooks, language, country, running days) and still running. */
  platforms?: ChecklistFilter;
  facts?: ChoiceFilter[];
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

/** The chips of a one-of filter (its value) or of a filter of several (one per value, each removing itself). */
function choiceChips(filter: ChoiceFilter): ActiveFilter[] {
  const T = LIBRARY_TEXTS.filters;
  if (filter.kind === 'many') {
    return filter.selected.map((option) => ({
      key: `${filter.label}:${option.id}`,
      label: T.chip(filter.label, option.name),
      remove: () => filter.onChange(filter.selected.filter((other) => other.id !== option.id)),
    }));
  }
  const option = filter.value;
  if (!option) return [];
  return [{ key: `${filter.label}:${option.id}`, label: filter.chipLabel?.(option) ?? T.chip(filter.label, option.name), remove: () => filter.onChange(null) }];
}

/**
 * The active filters, each a chip: each value of a filter, each tag, the date
 * range, each platform, each fact, still running, the colour; the search shows in its own
 * box and the order in its own control.
 */
export function activeFiltersOf(set: FilterSet): ActiveFilter[] {
  const T = LIBRARY_TEXTS.filters;
  const active: ActiveFilter[] = [];
  for (const filter of set.options) active.push(...choiceChips(filter));
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
  for (const filter of set.facts ?? []) active.push(...choiceChips(filter));
  const stillRunning = set.stillRunning;
  if (stillRunning?.value) active.push({ key: 'still-running', label: stillRunning.label, remove: () => stillRunning.onChange(false) });
  const colour = set.colour;
  if (colour?.value) active.push({ key: 'colour', label: T.chip(colour.label, colour.value.name), remove: () => colour.onChange(null) });
  return active;
}
