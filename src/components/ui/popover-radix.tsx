import * as RadixPopover from '@radix-ui/react-popover';
import { useRef, type ReactNode, type RefObject } from 'react';
import type { PopoverContentOptions } from './popover-options.ts';

interface AnchoredContentProps extends PopoverContentOptions {
  anchorRef: RefObject<HTMLButtonElement | null>;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  children: ReactNode;
}

/**
 * The Radix half of ./popover.tsx, loaded the first time a popover opens:
 * Radix Popover and Floating UI place the content beside the page's own
 * trigger button, close it on Escape and outside presses, and give focus back.
 */
export default function AnchoredContent({ anchorRef, open, onOpenChange, children, ...content }: AnchoredContentProps) {
  const pressedOutside = useRef(false);
  return (
    <RadixPopover.Root open={open} onOpenChange={onOpenChange}>
      <RadixPopover.Anchor virtualRef={anchorRef as RefObject<HTMLButtonElement>} />
      <RadixPopover.Portal>
        <RadixPopover.Content
          {...content}
          onInteractOutside={(event) => {
            // A press on the trigger toggles the popover through the trigger's own click.
            if (anchorRef.current?.contains(event.target as Node)) event.preventDefault();
            else pressedOutside.current = true;
          }}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            if (!pressedOutside.current) anchorRef.current?.focus();
            pressedOutside.current = false;
          }}
        >
          {children}
        </RadixPopover.Content>
      </RadixPopover.Portal>
    </RadixPopover.Root>
  );
}
