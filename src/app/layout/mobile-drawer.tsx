import type { ReactNode } from 'react';
import * as RadixDialog from '@radix-ui/react-dialog';
import { useReturnFocus } from '../../components/ui/dialog.tsx';
import { CloseIcon } from '../../components/ui/icons.tsx';
import { DRAWER_WIDTH_PX } from '../../lib/constants.ts';
import { TEXTS } from '../../lib/spec-texts.ts';

interface MobileDrawerProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  children: ReactNode;
}

/**
 * The mobile menu: a 280 px panel from the left over a dimmed page. Modal:
 * focus stays inside, Escape or a tap outside closes it, focus returns to the menu button.
 */
export function MobileDrawer({ open, onOpenChange, children }: MobileDrawerProps) {
  const returnFocus = useReturnFocus();
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-50 bg-neutral-950/40 data-[state=open]:animate-[fade-in_150ms_ease-out]" />
        <RadixDialog.Content
          data-testid="mobile-drawer"
          {...returnFocus}
          style={{ width: DRAWER_WIDTH_PX, maxWidth: '85vw' }}
          className="fixed inset-y-0 left-0 z-50 flex flex-col bg-white shadow-2xl focus:outline-none data-[state=open]:animate-[fade-in_150ms_ease-out]"
        >
          <RadixDialog.Title className="sr-only">{TEXTS.shell.menuTitle}</RadixDialog.Title>
          <RadixDialog.Description className="sr-only">{TEXTS.shell.menuTitle}</RadixDialog.Description>
          {children}
          <RadixDialog.Close
            aria-label={TEXTS.shell.closeMenu}
            className="absolute top-3 right-3 inline-flex h-9 w-9 items-center justify-center rounded-lg text-neutral-500 transition-colors hover:bg-neutral-100 hover:text-neutral-950 focus-visible:outline-2 focus-visible:outline-neutral-950"
          >
            <CloseIcon className="h-4 w-4" />
          </RadixDialog.Close>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
