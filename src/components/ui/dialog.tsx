import * as RadixDialog from '@radix-ui/react-dialog';
import { useRef, type ReactNode } from 'react';
import { CloseIcon } from './icons.tsx';

export const Dialog = RadixDialog.Root;
export const DialogTrigger = RadixDialog.Trigger;
export const DialogClose = RadixDialog.Close;

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
export function DialogContent({ children, title, leading, description, hideTitle, className = '', showClose = true, onEscapeKeyDown }: DialogContentProps) {
  const returnFocus = useReturnFocus();
  return (
    <RadixDialog.Portal>
      <RadixDialog.Overlay className="fixed inset-0 z-50 bg-neutral-950/50 backdrop-blur-[2px] data-[state=open]:animate-[fade-in_150ms_ease-out]" />
      <RadixDialog.Content
        onEscapeKeyDown={onEscapeKeyDown}
        {...returnFocus}
        className={`fixed top-1/2 left-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-md overflow-y-auto -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-white p-6 shadow-2xl ring-1 ring-neutral-950/5 focus:outline-none data-[state=open]:animate-[dialog-in_180ms_ease-out] ${className}`}
      >
        {leading}
        <RadixDialog.Title className={hideTitle ? 'sr-only' : `text-lg font-semibold tracking-tight text-balance text-neutral-950 ${showClose ? 'pr-8' : ''}`}>{title}</RadixDialog.Title>
        {description ? (
          <RadixDialog.Description className="mt-2 text-sm leading-relaxed text-neutral-600">{description}</RadixDialog.Description>
        ) : (
          <RadixDialog.Description className="sr-only">{title}</RadixDialog.Description>
        )}
        {children}
        {showClose && (
          <RadixDialog.Close
            aria-label="Close"
            className="absolute top-4 right-4 inline-flex h-8 w-8 items-center justify-center rounded-lg text-neutral-500 transition-colors hover:bg-neutral-100 hover:text-neutral-900"
          >
            <CloseIcon className="h-4 w-4" />
          </RadixDialog.Close>
        )}
      </RadixDialog.Content>
    </RadixDialog.Portal>
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
