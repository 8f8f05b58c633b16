import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import type { Ad } from '../../lib/ad-schema.ts';
import { useSession } from '../../lib/auth-session.tsx';
import { signInWithNextPath } from '../../lib/auth-redirects.ts';
import { useUpgradeFlow } from '../../features/billing/hooks/use-upgrade-flow.ts';
import { useCatalog } from '../../features/library/api/get-catalog.ts';
import { ThemedBoardView } from '../../features/themed-boards/components/themed-board-view.tsx';
import { SiteLayout } from '../layout/site-layout.tsx';

/**
 * Add to board where no board picker is plugged into the cards: anonymous
 * visitors sign in first and come back here.
 */
export function useSignInToSave(): (ad: Ad) => void {
  const { session } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  return useCallback(() => {
    if (!session) navigate(signInWithNextPath(location));
  }, [session, navigate, location]);
}

/** /top-picks: open to everyone; beyond each page's teaser only valid access shows ads clear. */
export function TopPicksPage() {
  const { loading } = useSession();
  const brands = useCatalog('brands');
  const categories = useCatalog('categories');
  const startUpgrade = useUpgradeFlow();
  const addToBoard = useSignInToSave();
  return (
    <SiteLayout>
      <ThemedBoardView
        board="top-picks"
        brands={brands}
        categories={categories}
        canList={!loading}
        onLockedClick={startUpgrade}
        onAddToBoard={addToBoard}
      />
    </SiteLayout>
  );
}
