import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { toast } from '../../lib/toast.ts';
import { AdGrid } from '../../components/ads/ad-grid.tsx';
import { ErrorBoundary } from '../../components/ui/error-boundary.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { useIsMobile } from '../../hooks/use-is-mobile.ts';
import type { Ad } from '../../lib/ad-schema.ts';
import { useSession } from '../../lib/auth-session.tsx';
import { signInWithNextPath } from '../../lib/auth-redirects.ts';
import { LIBRARY_TEXTS } from '../../lib/library-texts.ts';
import { SHELL_TEXTS } from '../../lib/shell-texts.ts';
import { useEntitlement } from '../../features/billing/hooks/use-entitlement.tsx';
import { usePricingDialog } from '../../features/billing/hooks/use-pricing-dialog.tsx';
import { useUpgradeFlow } from '../../features/billing/hooks/use-upgrade-flow.ts';
import { useIsAdmin } from '../../features/library/api/get-is-admin.ts';
import { useLibraryAds } from '../../features/library/api/list-library-ads.ts';
import { BlackFridayButton } from '../../features/library/components/black-friday-button.tsx';
import { DeleteAdDialog } from '../../features/library/components/delete-ad-dialog.tsx';
import { FeatureRequestButton, FloatingFeatureRequest, type FeatureRequestPlacement } from '../../features/library/components/feature-request-button.tsx';
import { LibraryBottomBar } from '../../features/library/components/library-bottom-bar.tsx';
import { LibraryToolbar } from '../../features/library/components/library-toolbar.tsx';
import { LibraryTotal } from '../../features/library/components/library-total.tsx';
import { useLibraryFilters } from '../../features/library/hooks/use-library-filters.ts';
import { SiteLayout } from '../layout/site-layout.tsx';
import { errorTextOf } from '../../lib/api-error.ts';
import { MAIN_CONTENT_ID } from '../../lib/constants.ts';

export interface LibraryPageProps {
  /** The boards' picker plugs in here; signed-in users' add-to-board clicks go to it. */
  onAddToBoard?: (ad: Ad) => void;
  /** Or a whole add-to-board control per card, e.g. a button anchoring a board picker. */
  renderAddToBoard?: (ad: Ad) => ReactNode;
}

/**
 * The page's side padding (and the sticky toolbar's bleed to the window's edges): from 768 px, with the feature-request
 * button floating, the right gutter is 4rem, room for the button clear of the cards.
 */
const EDGES = {
  start: 'pl-4 sm:pl-6 lg:pl-8',
  end: 'pr-4 sm:pr-6 lg:pr-8',
  floatingEnd: 'pr-4 sm:pr-6 md:pr-16',
  bleedStart: '-ml-4 pl-4 sm:-ml-6 sm:pl-6 lg:-ml-8 lg:pl-8',
  bleedEnd: '-mr-4 pr-4 sm:-mr-6 sm:pr-6 lg:-mr-8 lg:pr-8',
  bleedFloatingEnd: '-mr-4 pr-4 sm:-mr-6 sm:pr-6 md:-mr-16 md:pr-16',
} as const;

/** /library: the filtered, infinitely scrolling grid of ads, with the paywall decided by the server. */
export function LibraryPage({ onAddToBoard, renderAddToBoard }: LibraryPageProps) {
  useDocumentTitle(LIBRARY_TEXTS.library.documentTitle);
  const { session, user } = useSession();
  const entitlement = useEntitlement();
  const { openPricing } = usePricingDialog();
  const startUpgrade = useUpgradeFlow();
  const navigate = useNavigate();
  const location = useLocation();
  const isAdmin = useIsAdmin(user?.id ?? null);
  const filterState = useLibraryFilters();
  const list = useLibraryAds(filterState.filters, filterState.ready);
  const [adToDelete, setAdToDelete] = useState<Ad | null>(null);

  const ads = useMemo(() => list.data?.pages.flatMap((page) => page.ads) ?? [], [list.data]);
  const status = !filterState.ready || list.isPending ? 'pending' : list.isError && ads.length === 0 ? 'error' : 'success';

  useEffect(() => {
    if (!list.error) return;
    toast.error(SHELL_TEXTS.toasts.loadFailed.title, {
      id: 'library-load-failed',
      description: list.isFetchNextPageError ? SHELL_TEXTS.toasts.loadFailed.moreDescription : errorTextOf(list.error, SHELL_TEXTS.toasts.loadFailed.description),
    });
  }, [list.error, list.isFetchNextPageError]);

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const addToBoard = useCallback(
    (ad: Ad) => {
      if (!session) navigate(signInWithNextPath(location));
      else onAddToBoard?.(ad);
    },
    [session, navigate, location, onAddToBoard],
  );

  const showBottomBar = entitlement.entitlementLoaded && !entitlement.hasValidAccess;
  // The feature-request link goes where the layout has room, never over the cards; nowhere until entitlement is known,
  // so it does not jump from one place to another.
  const isMobile = useIsMobile();
  const feedback: FeatureRequestPlacement | null = !entitlement.entitlementLoaded ? null : showBottomBar ? 'bar' : isMobile ? 'header' : 'floating';
  const floating = feedback === 'floating';

  return (
    <SiteLayout bottomInset={showBottomBar} headerAction={feedback === 'header' ? <FeatureRequestButton placement="header" /> : undefined}>
      <main id={MAIN_CONTENT_ID} className={`mx-auto max-w-[1600px] pt-6 pb-12 sm:pt-8 ${EDGES.start} ${floating ? EDGES.floatingEnd : EDGES.end}`}>
        <div className="mb-3 flex items-center justify-between gap-3 sm:mb-5">
          <h1 className="min-w-0 text-2xl font-bold tracking-tight text-neutral-950 sm:text-[32px]">{LIBRARY_TEXTS.library.heading}</h1>
          <BlackFridayButton />
        </div>
        <div
          className={`sticky top-14 z-20 mb-2 bg-neutral-50 py-2.5 sm:top-16 sm:mb-3 sm:py-3 ${EDGES.bleedStart} ${floating ? EDGES.bleedFloatingEnd : EDGES.bleedEnd}`}
        >
          <LibraryToolbar state={filterState} />
        </div>
        {/* The first page says the query's total; later pages keep it, a new query's first page replaces it. */}
        <LibraryTotal firstPage={filterState.ready ? list.data?.pages[0] : undefined} />
        <ErrorBoundary fallback={<p className="py-20 text-center text-neutral-600">{LIBRARY_TEXTS.library.renderError}</p>}>
          <AdGrid
            ads={ads}
            status={status}
            hasNextPage={hasNextPage}
            isFetchingNextPage={isFetchingNextPage}
            onLoadMore={loadMore}
            loadMoreFailed={list.isFetchNextPageError}
            onRetry={() => void list.refetch()}
            emptyText={LIBRARY_TEXTS.library.empty}
            errorText={LIBRARY_TEXTS.library.loadError}
            onLockedClick={startUpgrade}
            onAddToBoard={addToBoard}
            renderAddToBoard={session ? renderAddToBoard : undefined}
            onDelete={isAdmin ? setAdToDelete : undefined}
          />
        </ErrorBoundary>
        {floating && <FloatingFeatureRequest />}
      </main>
      {showBottomBar && (
        <LibraryBottomBar
          isAuthenticated={entitlement.isAuthenticated}
          onSubscribe={openPricing}
          trailing={feedback === 'bar' ? <FeatureRequestButton placement="bar" /> : undefined}
        />
      )}
      <DeleteAdDialog ad={adToDelete} onClose={() => setAdToDelete(null)} />
    </SiteLayout>
  );
}
