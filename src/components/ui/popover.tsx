import { lazy, Suspense, useId, useRef, useState, type ReactNode, type RefObject } from 'react';
import { POPOVER_BOUNDARY_ATTRIBUTE, type PopoverContentOptions } from './popover-options.ts';

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
  /**
   * Keeps the content inside the trigger's nearest element marked POPOVER_BOUNDARY_ATTRIBUTE (looked up when the
   * trigger opens it), else inside the viewport as without it.
   */
  keepInsideBoundary?: boolean;
  children: ReactNode;
}

export function Popover({ open: controlledOpen, onOpenChange, renderTrigger, content, keepInsideBoundary = false, children }: PopoverProps) {
  const [ownOpen, setOwnOpen] = useState(false);
  const open = controlledOpen ?? ownOpen;
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  const triggerRef = useRef<HTMLButtonElement | null>(null);
  const contentId = useId();
  const [boundary, setBoundary] = useState<Element | null>(null);
  const setOpen = (next: boolean) => {
    if (next && keepInsideBoundary) setBoundary(triggerRef.current?.closest(`[${POPOVER_BOUNDARY_ATTRIBUTE}]`) ?? null);
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
          <AnchoredContent {...content} {...(boundary ? { collisionBoundary: boundary } : {})} id={contentId} anchorRef={triggerRef} open={open} onOpenChange={setOpen}>
            {children}
          </AnchoredContent>
        </Suspense>
      )}
    </>
  );
}
