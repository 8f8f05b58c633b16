import type { ReactNode } from 'react';
import { Dialog, DialogSidePanel } from '../../components/ui/dialog.tsx';
import { DRAWER_WIDTH_PX } from '../../lib/constants.ts';

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
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogSidePanel widthPx={DRAWER_WIDTH_PX}>{children}</DialogSidePanel>
    </Dialog>
  );
}
