import { AdGrid } from '../../components/ads/ad-grid.tsx';
import { ErrorBoundary } from '../../components/ui/error-boundary.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { useSession } from '../../lib/auth-session.tsx';
import { FAVORITES_SKELETONS } from '../../lib/constants.ts';
import { BOARD_TEXTS } from '../../lib/board-texts.ts';
import { LIBRARY_TEXTS } from '../../lib/library-texts.ts';
import { useUpgradeFlow } from '../../features/billing/hooks/use-upgrade-flow.ts';
import { useFavoritesBoardId } from '../../lib/favorites-board.ts';
import { useBoardAds } from '../../features/boards/hooks/use-board-ads.ts';
import { SiteLayout } from '../layout/site-layout.tsx';
import { MAIN_CONTENT_ID } from '../../lib/constants.ts';

const T = BOARD_TEXTS.boards.favoritesPage;

/** /favorites: the ads in the user's Favorites board, newest saved first; never a delete button. */
export function FavoritesPage() {
  useDocumentTitle(T.documentTitle);
  const { user } = useSession();
  const favoritesId = useFavoritesBoardId(user?.id ?? null);
  const { gridProps } = useBoardAds(favoritesId.data ?? null);
  const startUpgrade = useUpgradeFlow();
  const status = favoritesId.isError ? 'error' : gridProps.status;

  return (
    <SiteLayout>
      <main id={MAIN_CONTENT_ID} className="mx-auto max-w-[1600px] px-4 pt-6 pb-12 sm:px-6 sm:pt-8 lg:px-8">
        <div className="mb-5 sm:mb-6">
          <h1 className="text-2xl font-bold tracking-tight text-neutral-950 sm:text-[32px]">{T.heading}</h1>
          <p className="mt-1 text-[15px] text-neutral-500">{T.text}</p>
        </div>
        <ErrorBoundary fallback={<p className="py-20 text-center text-neutral-600">{LIBRARY_TEXTS.library.renderError}</p>}>
          <AdGrid
            {...gridProps}
            status={status}
            onRetry={favoritesId.isError ? () => void favoritesId.refetch() : gridProps.onRetry}
            emptyText={T.empty}
            skeletonCount={FAVORITES_SKELETONS}
            onLockedClick={startUpgrade}
          />
        </ErrorBoundary>
      </main>
    </SiteLayout>
  );
}
