import type { RefObject } from 'react';
import { Drawer } from 'vaul';
import { LIBRARY_TEXTS } from '../../lib/library-texts.ts';
import { buttonClasses } from '../ui/button.tsx';
import { CloseIcon } from '../ui/icons.tsx';
import { FilterFields } from './filter-fields.tsx';
import type { FilterSet } from './filter-model.ts';

interface FilterSheetProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  filters: FilterSet;
  activeCount: number;
  /** The Filters button: focus goes back to it when the sheet closes. */
  triggerRef: RefObject<HTMLButtonElement | null>;
}

/**
 * Every filter of a list in a bottom sheet (vaul), for narrow screens: each
 * choice applies at once, so the grid behind is already filtered on close.
 * Focus moves into it on open (vaul leaves it out unless asked) and back to
 * the Filters button on close. A chunk of its own, fetched when first opened.
 */
export default function FilterSheet({ open, onOpenChange, filters, activeCount, triggerRef }: FilterSheetProps) {
  const T = LIBRARY_TEXTS.filters;
  return (
    <Drawer.Root open={open} onOpenChange={onOpenChange} autoFocus>
      <Drawer.Portal>
        <Drawer.Overlay className="fixed inset-0 z-50 bg-neutral-950/40" />
        <Drawer.Content
          aria-describedby={undefined}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            triggerRef.current?.focus();
          }}
          className="fixed inset-x-0 bottom-0 z-50 flex max-h-[85dvh] flex-col rounded-t-2xl bg-white shadow-2xl outline-none"
          data-testid="filter-sheet"
        >
          <div className="mx-auto mt-2.5 h-1.5 w-10 shrink-0 rounded-full bg-neutral-300" aria-hidden="true" />
          <div className="flex shrink-0 items-center justify-between gap-3 px-5 pt-3 pb-2">
            <Drawer.Title className="text-lg font-bold tracking-tight text-neutral-950">{T.sheetTitle}</Drawer.Title>
            <Drawer.Close className={buttonClasses('ghost', 'icon-sm', '-mr-1.5')} aria-label={T.closeSheet}>
              <CloseIcon className="h-5 w-5" />
            </Drawer.Close>
          </div>
          <div className="min-h-0 flex-1 overflow-y-auto overscroll-contain px-5 pt-2 pb-5">
            <FilterFields filters={filters} />
          </div>
          <div className="flex shrink-0 items-center gap-3 border-t border-neutral-200 px-5 pt-3 pb-[max(0.75rem,env(safe-area-inset-bottom))]">
            <button type="button" onClick={filters.clear} disabled={activeCount === 0} className={buttonClasses('outline', 'lg', 'flex-1')}>
              {T.clearAll}
            </button>
            <Drawer.Close className={buttonClasses('primary', 'lg', 'flex-1')}>{T.showAds}</Drawer.Close>
          </div>
        </Drawer.Content>
      </Drawer.Portal>
    </Drawer.Root>
  );
}
