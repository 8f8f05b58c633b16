import type { ReactNode, RefObject } from 'react';
import { Drawer } from 'vaul';

interface AddToBoardSheetProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The button that opened the sheet: focus goes back to it on close. */
  triggerRef: RefObject<HTMLButtonElement | null>;
  onEscapeKeyDown: (event: KeyboardEvent) => void;
  /** The panel, given how to render its title inside the sheet. */
  renderPanel: (renderTitle: (text: string) => ReactNode) => ReactNode;
  titleId: string;
  titleClasses: string;
}

/**
 * The add-to-board panel as a bottom sheet at 85% of the screen's height
 * (vaul), for narrow screens. A chunk of its own, fetched when a sheet first opens.
 */
export default function AddToBoardSheet({ open, onOpenChange, triggerRef, onEscapeKeyDown, renderPanel, titleId, titleClasses }: AddToBoardSheetProps) {
  return (
    <Drawer.Root open={open} onOpenChange={onOpenChange}>
      <Drawer.Portal>
        <Drawer.Overlay className="fixed inset-0 z-50 bg-neutral-950/40" />
        <Drawer.Content
          aria-describedby={undefined}
          onEscapeKeyDown={onEscapeKeyDown}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            triggerRef.current?.focus();
          }}
          className="fixed inset-x-0 bottom-0 z-50 flex h-[85dvh] flex-col rounded-t-2xl bg-white shadow-2xl outline-none"
          data-testid="add-to-board-sheet"
        >
          <div className="mx-auto mt-2.5 h-1.5 w-10 shrink-0 rounded-full bg-neutral-300" aria-hidden="true" />
          {renderPanel((text) => (
            <Drawer.Title id={titleId} className={titleClasses}>
              {text}
            </Drawer.Title>
          ))}
        </Drawer.Content>
      </Drawer.Portal>
    </Drawer.Root>
  );
}
