import type { ReactNode } from 'react';
import { ChoiceControl, ColourFilter, DateSelect, PlatformFilter, SortSelect, TagToggles, ToggleFilterButton } from './filter-controls.tsx';
import type { FilterSet } from './filter-model.ts';

interface Field {
  key: string;
  /** A list to tick (catalogue filters of several, platforms, colour, tags) rather than one select. */
  wide: boolean;
  node: ReactNode;
}

/** The fields in the sheet's order: the order, the catalogue filters, the date, platforms, facts, still running, colour, tags (their list can be long). */
function fieldsOf(filters: Omit<FilterSet, 'clear'>): Field[] {
  const fields: Field[] = [];
  if (filters.sort) fields.push({ key: 'sort', wide: false, node: <SortSelect control={filters.sort} inSheet /> });
  for (const filter of filters.options) fields.push({ key: filter.label, wide: filter.kind === 'many', node: <ChoiceControl filter={filter} inSheet /> });
  if (filters.date) fields.push({ key: 'date', wide: false, node: <DateSelect filter={filters.date} /> });
  if (filters.platforms) fields.push({ key: 'platforms', wide: true, node: <PlatformFilter filter={filters.platforms} /> });
  for (const filter of filters.facts ?? []) fields.push({ key: filter.label, wide: filter.kind === 'many', node: <ChoiceControl filter={filter} inSheet /> });
  if (filters.stillRunning) fields.push({ key: 'still-running', wide: false, node: <ToggleFilterButton filter={filters.stillRunning} /> });
  if (filters.colour) fields.push({ key: 'colour', wide: true, node: <ColourFilter filter={filters.colour} /> });
  if (filters.tags) fields.push({ key: 'tags', wide: true, node: <TagToggles filter={filters.tags} /> });
  return fields;
}

/**
 * A list's filters as the Filters sheet (under 768 px) and the Filters panel (from 768 px) show them, every choice
 * in view and applied at once. In the sheet one under another; in the panel (`columns`) the selects first, two to
 * a row, then the lists to tick, each across the panel.
 */
export function FilterFields({ filters, columns = false }: { filters: Omit<FilterSet, 'clear'>; columns?: boolean }) {
  const fields = fieldsOf(filters);
  if (!columns) {
    return (
      <div className="space-y-5">
        {fields.map((field) => (
          <div key={field.key}>{field.node}</div>
        ))}
      </div>
    );
  }
  const ordered = [...fields.filter((field) => !field.wide), ...fields.filter((field) => field.wide)];
  return (
    <div className="grid grid-cols-2 gap-x-4 gap-y-5">
      {ordered.map((field) => (
        <div key={field.key} className={field.wide ? 'col-span-2' : field.key === 'still-running' ? 'self-end' : ''}>
          {field.node}
        </div>
      ))}
    </div>
  );
}
