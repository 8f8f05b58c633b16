import { lazy, Suspense, useId, useRef, useState, type ReactNode, type RefObject } from 'react';
import type { PopoverContentOptions } from './popover-options.ts';

/**
 * Popovers: the page renders its own trigger button; the content, with Radix
 * Popover and Floating UI for placement (./popover-radix.tsx), is a chunk
 * fetched the first time a popover opens.
 */
const AnchoredContent = lazy(() => import('./popover-radix.tsx'));

export interface PopoverTriggerProps {
  ref: RefObject<HTMLButtonElement | null>;
  type: 'button';
  'aria-haspopup': 'dialog';
  'aria-expanded': boolean;
  'aria-controls': string | undefined;
  'data-state': 'open' | 'closed';
  onClick: () => void;
}

interface PopoverProps {
  /** Controlled when given; else the popover keeps its own state. */
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  /** The trigger button; spread the props onto a <button>. */
  renderTrigger: (props: PopoverTriggerProps) => ReactNode;
  content: PopoverContentOptions;
  children: ReactNode;
}

export function Popover({ open: controlledOpen, onOpenChange, renderTrigger, content, children }: PopoverProps) {
  const [ownOpen, setOwnOpen] = useState(false);
  const open = controlledOpen ?? ownOpen;
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  const triggerRef = useRef<HTMLButtonElement | null>(null);
  const contentId = useId();
  const setOpen = (next: boolean) => {
    if (controlledOpen === undefined) setOwnOpen(next);
    onOpenChange?.(next);
  };
  return (
    <>
      {renderTrigger({
        ref: triggerRef,
        type: 'button',
        'aria-haspopup': 'dialog',
        'aria-expanded': open,
        'aria-controls': open ? contentId : undefined,
        'data-state': open ? 'open' : 'closed',
        onClick: () => setOpen(!open),
      })}
      {opened && (
        <Suspense fallback={null}>
          <AnchoredContent {...content} id={contentId} anchorRef={triggerRef} open={open} onOpenChange={setOpen}>
            {children}
          </AnchoredContent>
        </Suspense>
      )}
    </>
  );
}
