import { useEffect, useId, useState, type ReactNode } from 'react';
import { useDebouncedValue } from '../../hooks/use-debounced-value.ts';
import { DATE_RANGES, SEARCH_DEBOUNCE_MS, SEARCH_MAX_LENGTH } from '../../lib/constants.ts';
import { LIBRARY_TEXTS } from '../../lib/library-texts.ts';
import { CalendarIcon, CheckIcon, ChevronDownIcon, SearchIcon } from '../ui/icons.tsx';
import { Popover } from '../ui/popover.tsx';
import { Select } from '../ui/select.tsx';
import type {
  ChecklistFilter,
  ChoiceFilter,
  DateFilter,
  DateRange,
  MultiOptionFilter,
  OptionFilter,
  SortControl,
  SwatchFilter,
  TagsFilter,
  ToggleFilter,
} from './filter-model.ts';

/** The search box: the URL follows the text once typing has paused (250 ms); the text follows the URL's own changes. */
export function SearchBox({ search, onSearch, className = '' }: { search: string; onSearch: (text: string) => void; className?: string }) {
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
    <label className={`relative flex items-center ${className}`}>
      <span className="sr-only">{LIBRARY_TEXTS.filters.search}</span>
      <SearchIcon className="pointer-events-none absolute left-3.5 h-[18px] w-[18px] text-neutral-400" />
      <input
        type="search"
        value={text}
        maxLength={SEARCH_MAX_LENGTH}
        onChange={(event) => setText(event.target.value)}
        placeholder={LIBRARY_TEXTS.library.searchPlaceholder}
        className="h-11 w-full rounded-xl border border-neutral-200 bg-white pr-3 pl-10 text-[15px] text-neutral-950 shadow-[0_1px_2px_rgba(0,0,0,0.04)] transition-colors placeholder:text-neutral-500 hover:border-neutral-300 focus:border-neutral-950 focus:outline-none sm:h-10 sm:text-sm"
      />
    </label>
  );
}

const FULL_WIDTH_SELECT = 'w-full [&>select]:w-full [&>select]:max-w-none [&>select]:h-11';
/**
 * A one-of filter in the toolbar has one width whatever its options: a native select is as wide as its longest
 * option, and the brands, categories, types and hooks arrive after the first paint, so a select sized by them grew,
 * wrapped the toolbar onto another row and pushed the grid down (a layout shift of 0.39 for the subscriber at 1440 px).
 */
const TOOLBAR_SELECT = 'w-[10.5rem] [&>select]:w-full';
/** The same width for a filter of several's pill, whatever it names. */
const TOOLBAR_PILL_WIDTH = 'w-[10.5rem]';

/** A one-of filter (a board's brand or category, a format, a language ...): the toolbar's pill, or a full-width field in the sheet. */
export function OptionSelect({ filter, inSheet = false }: { filter: OptionFilter; inSheet?: boolean }) {
  const id = useId();
  const select = (
    <Select
      id={inSheet ? id : undefined}
      aria-label={inSheet ? undefined : filter.label}
      active={filter.value !== null}
      className={inSheet ? FULL_WIDTH_SELECT : TOOLBAR_SELECT}
      value={filter.value?.id ?? 'all'}
      onChange={(event) => filter.onChange(filter.options.find((option) => option.id === event.target.value) ?? null)}
    >
      <option value="all">{filter.allLabel}</option>
      {filter.options.map((option) => (
        <option key={option.id} value={option.id}>
          {option.name}
        </option>
      ))}
    </Select>
  );
  if (!inSheet) return select;
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-semibold text-neutral-900">
        {filter.label}
      </label>
      {select}
    </div>
  );
}

/** The date range filter (all time, past week, month, year), a labelled select in the sheet and the panel. */
export function DateSelect({ filter }: { filter: DateFilter }) {
  const id = useId();
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-semibold text-neutral-900">
        {LIBRARY_TEXTS.filters.date}
      </label>
      <Select
        id={id}
        icon={<CalendarIcon className="h-4 w-4" />}
        active={filter.value !== 'all'}
        className={FULL_WIDTH_SELECT}
        value={filter.value}
        onChange={(event) => filter.onChange(event.target.value as DateRange)}
      >
        {DATE_RANGES.map((range) => (
          <option key={range} value={range}>
            {LIBRARY_TEXTS.library.dateRanges[range]}
          </option>
        ))}
      </Select>
    </div>
  );
}

/** Several of a list, as tags, platforms and the catalogue filters are: ticking, unticking, and no more than `max`. */
type ChecklistLike = Pick<TagsFilter, 'options' | 'selected' | 'onChange'> & { max?: number };

function useChecklistToggle(filter: ChecklistLike) {
  const selectedIds = new Set(filter.selected.map((option) => option.id));
  return {
    isSelected: (id: string) => selectedIds.has(id),
    isFull: filter.max !== undefined && filter.selected.length >= filter.max,
    toggle: (id: string) => {
      const option = filter.options.find((candidate) => candidate.id === id);
      if (!option) return;
      filter.onChange(selectedIds.has(id) ? filter.selected.filter((other) => other.id !== id) : [...filter.selected, option]);
    },
  };
}

export const PILL = 'inline-flex h-10 shrink-0 items-center gap-2 rounded-xl border px-3.5 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-neutral-950';
export const PILL_ON = 'border-neutral-950 bg-neutral-950 text-white';
export const PILL_OFF = 'border-neutral-200 bg-white text-neutral-800 hover:border-neutral-300';
const MENU_ITEM = 'flex w-full items-center justify-between gap-3 rounded-lg px-3 py-2 text-left text-sm text-neutral-800 hover:bg-neutral-100 disabled:opacity-40';
/** A checklist with more options than this gets a box that narrows it as one types. */
const FIND_BOX_OVER_OPTIONS = 8;

interface ChecklistProps {
  filter: ChecklistLike;
  label: string;
  emptyText?: string;
}

interface ChecklistMenuProps extends ChecklistProps {
  /** A first item that unticks every option ('All brands'). */
  allLabel?: string;
  /** The label of the box that narrows a long list. */
  findLabel?: string;
}

/** The ticks of a checklist popover: an 'All …' item, a find box for long lists, and the options. */
function ChecklistMenu({ filter, emptyText, allLabel, findLabel }: ChecklistMenuProps) {
  const { isSelected, isFull, toggle } = useChecklistToggle(filter);
  const [find, setFind] = useState('');
  const T = LIBRARY_TEXTS.filters;
  const findable = findLabel !== undefined && filter.options.length > FIND_BOX_OVER_OPTIONS;
  const wanted = find.trim().toLocaleLowerCase();
  const shown = findable && wanted !== '' ? filter.options.filter((option) => option.name.toLocaleLowerCase().includes(wanted)) : filter.options;
  return (
    <>
      {findable && (
        <div className="sticky top-0 z-10 -mx-1.5 -mt-1.5 mb-1 bg-white p-1.5">
          <input
            type="search"
            value={find}
            onChange={(event) => setFind(event.target.value)}
            aria-label={findLabel}
            placeholder={`${findLabel}…`}
            className="h-9 w-full rounded-lg border border-neutral-200 px-3 text-sm text-neutral-950 placeholder:text-neutral-500 focus:border-neutral-950 focus:outline-none"
          />
        </div>
      )}
      {allLabel !== undefined && (
        <button type="button" role="menuitemcheckbox" aria-checked={filter.selected.length === 0} onClick={() => filter.onChange([])} className={MENU_ITEM}>
          {allLabel}
          {filter.selected.length === 0 && <CheckIcon className="h-4 w-4 text-neutral-950" />}
        </button>
      )}
      {isFull && filter.max !== undefined && <p className="px-3 py-1.5 text-xs text-neutral-500">{T.atMost(filter.max)}</p>}
      {filter.options.length === 0 && emptyText && <p className="px-3 py-2 text-sm text-neutral-500">{emptyText}</p>}
      {filter.options.length > 0 && shown.length === 0 && <p className="px-3 py-2 text-sm text-neutral-500">{T.noMatches}</p>}
      {shown.map((option) => {
        const checked = isSelected(option.id);
        return (
          <button
            key={option.id}
            type="button"
            role="menuitemcheckbox"
            aria-checked={checked}
            disabled={!checked && isFull}
            onClick={() => toggle(option.id)}
            className={MENU_ITEM}
          >
            {option.name}
            {checked && <CheckIcon className="h-4 w-4 shrink-0 text-neutral-950" />}
          </button>
        );
      })}
    </>
  );
}

const CHECKLIST_CONTENT = 'z-40 max-h-80 w-64 overflow-y-auto rounded-2xl border border-neutral-200 bg-white p-1.5 shadow-xl';

/** The sheet's checklist: every option a toggle button, wrapping. */
function ChecklistToggles({ filter, label, emptyText }: ChecklistProps) {
  const { isSelected, isFull, toggle } = useChecklistToggle(filter);
  return (
    <fieldset>
      <legend className="mb-1.5 block text-sm font-semibold text-neutral-900">{label}</legend>
      {filter.options.length === 0 && emptyText && <p className="text-sm text-neutral-500">{emptyText}</p>}
      <div className="flex flex-wrap gap-2">
        {filter.options.map((option) => {
          const pressed = isSelected(option.id);
          return (
            <button
              key={option.id}
              type="button"
              aria-pressed={pressed}
              disabled={!pressed && isFull}
              onClick={() => toggle(option.id)}
              className={`inline-flex h-9 items-center gap-1.5 rounded-full border px-3.5 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-neutral-950 disabled:opacity-40 ${
                pressed ? 'border-neutral-950 bg-neutral-950 text-white' : 'border-neutral-200 bg-white text-neutral-800 hover:border-neutral-300'
              }`}
            >
              {pressed && <CheckIcon className="h-3.5 w-3.5" />}
              {option.name}
            </button>
          );
        })}
      </div>
    </fieldset>
  );
}

/** What a filter of several shows on its pill: 'All brands', the one picked, or the first and how many more. */
export function multiOptionSummary(filter: MultiOptionFilter): string {
  const [first, ...others] = filter.selected;
  if (!first) return filter.allLabel;
  return others.length === 0 ? first.name : LIBRARY_TEXTS.filters.firstAndMore(first.name, others.length);
}

/**
 * A filter of several (brands, categories, types, hooks): in the toolbar a pill as wide as the one-of selects,
 * named 'Brand: All brands', 'Brand: Lumora +1' ..., opening its checklist with 'All …' first; in the sheet toggles.
 */
export function MultiOptionPicker({ filter, inSheet = false }: { filter: MultiOptionFilter; inSheet?: boolean }) {
  if (inSheet) return <ChecklistToggles filter={filter} label={filter.label} />;
  const active = filter.selected.length > 0;
  const summary = multiOptionSummary(filter);
  return (
    <Popover
      renderTrigger={(trigger) => (
        <button
          {...trigger}
          aria-label={LIBRARY_TEXTS.filters.chip(filter.label, summary)}
          title={summary}
          className={`${PILL} ${TOOLBAR_PILL_WIDTH} justify-between ${active ? PILL_ON : PILL_OFF}`}
        >
          {/* A long first name is cut, never the count of the others. */}
          <span className="flex min-w-0 items-center gap-1">
            <span className="min-w-0 truncate">{filter.selected[0]?.name ?? filter.allLabel}</span>
            {filter.selected.length > 1 && <span className="shrink-0">+{filter.selected.length - 1}</span>}
          </span>
          <ChevronDownIcon className={`h-4 w-4 shrink-0 ${active ? 'text-white' : 'text-neutral-500'}`} />
        </button>
      )}
      content={{ align: 'start', sideOffset: 6, className: CHECKLIST_CONTENT }}
    >
      <ChecklistMenu filter={filter} label={filter.label} allLabel={filter.allLabel} findLabel={filter.findLabel} />
    </Popover>
  );
}

/** A filter of the toolbar's rows, one of a list or several. */
export function ChoiceControl({ filter, inSheet = false }: { filter: ChoiceFilter; inSheet?: boolean }) {
  return filter.kind === 'many' ? <MultiOptionPicker filter={filter} inSheet={inSheet} /> : <OptionSelect filter={filter} inSheet={inSheet} />;
}

/** The tag filter of the sheet and the panel: every tag a toggle button, wrapping. */
export function TagToggles({ filter }: { filter: TagsFilter }) {
  return <ChecklistToggles filter={filter} label={LIBRARY_TEXTS.library.tags} emptyText={LIBRARY_TEXTS.library.noTags} />;
}

/** The platforms: toggles in the sheet and the panel. */
export function PlatformFilter({ filter }: { filter: ChecklistFilter }) {
  return <ChecklistToggles filter={filter} label={filter.label} />;
}

/** An on/off filter (still running): a pressed pill as wide as its place in the sheet or the panel. */
export function ToggleFilterButton({ filter }: { filter: ToggleFilter }) {
  return (
    <button
      type="button"
      aria-pressed={filter.value}
      onClick={() => filter.onChange(!filter.value)}
      className={`${PILL} h-11 w-full justify-center ${filter.value ? PILL_ON : PILL_OFF}`}
    >
      {filter.value && <CheckIcon className="h-4 w-4" />}
      {filter.label}
    </button>
  );
}

/** The order of the list: a select in the toolbar, a labelled field in the sheet. */
export function SortSelect({ control, inSheet = false }: { control: SortControl; inSheet?: boolean }) {
  const id = useId();
  const select = (
    <Select
      id={inSheet ? id : undefined}
      aria-label={inSheet ? undefined : LIBRARY_TEXTS.filters.sort}
      className={inSheet ? FULL_WIDTH_SELECT : ''}
      value={control.value}
      onChange={(event) => control.onChange(event.target.value)}
    >
      {control.options.map((option) => (
        <option key={option.id} value={option.id}>
          {inSheet ? option.name : LIBRARY_TEXTS.filters.sortedBy(option.name)}
        </option>
      ))}
    </Select>
  );
  if (!inSheet) return select;
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-semibold text-neutral-900">
        {LIBRARY_TEXTS.filters.sort}
      </label>
      {select}
    </div>
  );
}

/** The palette's swatches as round buttons, one pressed at most; pressing the pressed one takes the colour off. */
function Swatches({ filter }: { filter: SwatchFilter }) {
  return (
    <div role="group" aria-label={filter.label} className="grid w-fit grid-cols-6 gap-3">
      {filter.options.map((option) => {
        const pressed = filter.value?.id === option.id;
        return (
          <button
            key={option.id}
            type="button"
            aria-pressed={pressed}
            aria-label={option.name}
            title={option.name}
            onClick={() => filter.onChange(pressed ? null : option)}
            className={`relative h-10 w-10 rounded-full border border-black/10 transition-transform focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-neutral-950 ${
              pressed ? 'ring-2 ring-neutral-950 ring-offset-2' : 'hover:scale-110'
            }`}
            style={{ backgroundColor: option.hex }}
          >
            {pressed && (
              <CheckIcon
                className={`absolute inset-0 m-auto h-4 w-4 ${['white', 'beige', 'yellow'].includes(option.id) ? 'text-neutral-950' : 'text-white'}`}
              />
            )}
          </button>
        );
      })}
    </div>
  );
}

/** The colour filter: the palette, in the sheet and the panel. */
export function ColourFilter({ filter }: { filter: SwatchFilter }) {
  return (
    <fieldset>
      <legend className="mb-2 block text-sm font-semibold text-neutral-900">{filter.label}</legend>
      <Swatches filter={filter} />
    </fieldset>
  );
}
