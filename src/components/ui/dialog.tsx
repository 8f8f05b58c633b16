import { useEffect, useRef, useState, type ComponentProps, type ReactNode } from 'react';
import type * as Parts from './dialog-radix.tsx';

/**
 * Dialogs. The Radix implementation (./dialog-radix.tsx, with its focus trap,
 * scroll lock and portal) is a chunk of its own, fetched the first time a
 * dialog opens: pages render closed dialogs without downloading it. Every
 * dialog is controlled (`open` and `onOpenChange`).
 */
type DialogParts = typeof Parts;

let loaded: DialogParts | null = null;
let loading: Promise<DialogParts> | null = null;

function loadParts(): Promise<DialogParts> {
  loading ??= import('./dialog-radix.tsx').then((parts) => (loaded = parts));
  return loading;
}

/** The Radix parts once `wanted` has been true, else null. */
function useDialogParts(wanted: boolean): DialogParts | null {
  const [parts, setParts] = useState(loaded);
  useEffect(() => {
    if (!wanted || parts) return;
    let current = true;
    void loadParts().then((next) => current && setParts(next));
    return () => {
      current = false;
    };
  }, [wanted, parts]);
  return parts;
}

interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  children: ReactNode;
}

/** The dialog's root: renders nothing until first opened, then stays mounted so closing animates and returns focus. */
export function Dialog({ open, onOpenChange, children }: DialogProps) {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  const parts = useDialogParts(opened);
  if (!parts) return null;
  return (
    <parts.Root open={open} onOpenChange={onOpenChange}>
      {children}
    </parts.Root>
  );
}

/** Closes the dialog it sits in; only rendered inside an open Dialog, when the parts are loaded. */
export function DialogClose(props: ComponentProps<DialogParts['Close']>) {
  const Close = loaded!.Close;
  return <Close {...props} />;
}

interface DialogContentProps {
  children: ReactNode;
  title: ReactNode;
  /** Shown above the title, e.g. an icon. */
  leading?: ReactNode;
  description?: ReactNode;
  /** Visually hides the title (it still names the dialog for assistive technology). */
  hideTitle?: boolean;
  className?: string;
  showClose?: boolean;
  onEscapeKeyDown?: (event: KeyboardEvent) => void;
}

/** A centred dialog card over a dimmed page; Escape and the close button dismiss it. */
export function DialogContent(props: DialogContentProps) {
  const focus = useReturnFocus();
  const CardContent = loaded!.CardContent;
  return <CardContent {...props} focus={focus} />;
}

/** A panel from the left edge over a dimmed page (the mobile menu), `widthPx` wide and at most 85% of the screen. */
export function DialogSidePanel({ children, widthPx }: { children: ReactNode; widthPx: number }) {
  const focus = useReturnFocus();
  const SidePanelContent = loaded!.SidePanelContent;
  return (
    <SidePanelContent widthPx={widthPx} focus={focus}>
      {children}
    </SidePanelContent>
  );
}

/**
 * Radix returns focus on close only to a Dialog.Trigger; dialogs opened by any
 * other control (a menu item, a card, a shortcut) give it back to whatever had
 * it when they opened, if that is still on the page.
 */
export function useReturnFocus() {
  const opener = useRef<HTMLElement | null>(null);
  return {
    onOpenAutoFocus: () => {
      opener.current = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
    },
    onCloseAutoFocus: (event: Event) => {
      const target = opener.current;
      opener.current = null;
      if (target?.isConnected) {
        event.preventDefault();
        target.focus();
      }
    },
  };
}
