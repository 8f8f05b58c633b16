import * as Popover from '@radix-ui/react-popover';
import { CheckIcon, ChevronDownIcon, TagIcon } from '../../../components/ui/icons.tsx';
import type { CatalogOption } from '../api/get-catalog-options.ts';

interface TagPickerProps {
  label: string;
  tags: CatalogOption[];
  selected: string[];
  onToggle: (tagId: string) => void;
  emptyText: string;
}

/** A button that opens a checklist of tags. */
export function TagPicker({ label, tags, selected, onToggle, emptyText }: TagPickerProps) {
  const chosen = new Set(selected);
  return (
    <Popover.Root>
      <Popover.Trigger
        className={`inline-flex h-9 shrink-0 items-center gap-2 rounded-lg border px-3 text-[13px] font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-neutral-950 ${
          selected.length > 0 ? 'border-neutral-950 bg-neutral-950 text-white' : 'border-neutral-200 bg-white text-neutral-800 hover:border-neutral-300'
        }`}
      >
        <TagIcon className="h-4 w-4" />
        {label}
        {selected.length > 0 && <span className="rounded-full bg-white px-1.5 text-xs font-semibold text-neutral-950">{selected.length}</span>}
        <ChevronDownIcon className="h-4 w-4 opacity-70" />
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="start"
          sideOffset={6}
          aria-label={label}
          className="z-40 max-h-72 w-60 overflow-y-auto rounded-xl border border-neutral-200 bg-white p-1.5 shadow-xl"
        >
          {tags.length === 0 && <p className="px-3 py-2 text-sm text-neutral-500">{emptyText}</p>}
          {tags.map((tag) => {
            const checked = chosen.has(tag.id);
            return (
              <label key={tag.id} className="flex cursor-pointer items-center gap-2.5 rounded-lg px-2.5 py-1.5 text-sm text-neutral-800 hover:bg-neutral-100">
                <input type="checkbox" checked={checked} onChange={() => onToggle(tag.id)} className="peer sr-only" />
                <span
                  aria-hidden="true"
                  className={`inline-flex h-4 w-4 items-center justify-center rounded border peer-focus-visible:outline-2 peer-focus-visible:outline-neutral-950 ${checked ? 'border-neutral-950 bg-neutral-950 text-white' : 'border-neutral-300'}`}
                >
                  {checked && <CheckIcon className="h-3 w-3" />}
                </span>
                <span className="truncate">{tag.name}</span>
              </label>
            );
          })}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
