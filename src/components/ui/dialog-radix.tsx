import * as RadixDialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';
import { SHELL_TEXTS } from '../../lib/shell-texts.ts';
import { CloseIcon } from './icons.tsx';

/**
 * The Radix half of ./dialog.tsx, loaded the first time any dialog opens, so
 * that no page pays for Radix Dialog before a dialog is wanted.
 */
export const Root = RadixDialog.Root;
export const Close = RadixDialog.Close;

interface FocusHandlers {
  onOpenAutoFocus: (event: Event) => void;
  onCloseAutoFocus: (event: Event) => void;
}

export interface CardContentProps {
  children: ReactNode;
  title: ReactNode;
  leading?: ReactNode;
  description?: ReactNode;
  hideTitle?: boolean;
  className?: string;
  showClose?: boolean;
  onEscapeKeyDown?: (event: KeyboardEvent) => void;
  focus: FocusHandlers;
}

export function CardContent({ children, title, leading, description, hideTitle, className = '', showClose = true, onEscapeKeyDown, focus }: CardContentProps) {
  return (
    <RadixDialog.Portal>
      <RadixDialog.Overlay className="fixed inset-0 z-50 bg-neutral-950/50 backdrop-blur-[2px] data-[state=open]:animate-[fade-in_150ms_ease-out]" />
      <RadixDialog.Content
        onEscapeKeyDown={onEscapeKeyDown}
        {...focus}
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

export interface SidePanelContentProps {
  children: ReactNode;
  widthPx: number;
  focus: FocusHandlers;
}

export function SidePanelContent({ children, widthPx, focus }: SidePanelContentProps) {
  return (
    <RadixDialog.Portal>
      <RadixDialog.Overlay className="fixed inset-0 z-50 bg-neutral-950/40 data-[state=open]:animate-[fade-in_150ms_ease-out]" />
      <RadixDialog.Content
        data-testid="mobile-drawer"
        {...focus}
        style={{ width: widthPx, maxWidth: '85vw' }}
        className="fixed inset-y-0 left-0 z-50 flex flex-col bg-white shadow-2xl focus:outline-none data-[state=open]:animate-[fade-in_150ms_ease-out]"
      >
        <RadixDialog.Title className="sr-only">{SHELL_TEXTS.shell.menuTitle}</RadixDialog.Title>
        <RadixDialog.Description className="sr-only">{SHELL_TEXTS.shell.menuTitle}</RadixDialog.Description>
        {children}
        <RadixDialog.Close
          aria-label={SHELL_TEXTS.shell.closeMenu}
          className="absolute top-3 right-3 inline-flex h-9 w-9 items-center justify-center rounded-lg text-neutral-500 transition-colors hover:bg-neutral-100 hover:text-neutral-950 focus-visible:outline-2 focus-visible:outline-neutral-950"
        >
          <CloseIcon className="h-4 w-4" />
        </RadixDialog.Close>
      </RadixDialog.Content>
    </RadixDialog.Portal>
  );
}
