import type { ReactNode } from 'react';
import { AddToBoardSlotProvider, type RenderAddToBoard } from '../components/ads/add-to-board-slot.tsx';
import { Toaster } from '../components/ui/toaster.tsx';
import { SessionProvider } from '../lib/auth-session.tsx';
import { EntitlementProvider } from '../features/billing/hooks/use-entitlement.tsx';
import { PricingDialogProvider } from '../features/billing/hooks/use-pricing-dialog.tsx';
import { AddToBoardButton } from '../features/boards/components/add-to-board-button.tsx';
import { BoardsLiveUpdates } from '../features/boards/components/boards-live-updates.tsx';
import { SkipLink } from './layout/skip-link.tsx';
import { PageToasts } from './page-toasts.tsx';
import { ScrollRestoration } from './scroll-restoration.tsx';

const renderAddToBoard: RenderAddToBoard = (ad, placement) => <AddToBoardButton ad={ad} size={placement} />;

/** What every page shares: the skip link, the session, entitlement, the global pricing dialog, toasts (a page's errors leave with it), boards kept live and scroll restoration. */
export function AppRoot({ children }: { children: ReactNode }) {
  return (
    <SessionProvider>
      <SkipLink />
      <EntitlementProvider>
        <PricingDialogProvider>
          <AddToBoardSlotProvider render={renderAddToBoard}>
            {children}
          </AddToBoardSlotProvider>
          <Toaster />
          <PageToasts />
        </PricingDialogProvider>
      </EntitlementProvider>
      <BoardsLiveUpdates />
      <ScrollRestoration />
    </SessionProvider>
  );
}
