import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { toast } from '../../lib/toast.ts';
import { AdGrid } from '../../components/ads/ad-grid.tsx';
import { ErrorBoundary } from '../../components/ui/error-boundary.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
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
import { FeatureRequestButton } from '../../features/library/components/feature-request-button.tsx';
import { LibraryBottomBar } from '../../features/library/components/library-bottom-bar.tsx';
import { LibraryToolbar } from '../../features/library/components/library-toolbar.tsx';
import { LibraryTotal } from '../../features/library/components/library-total.tsx';
import { useLibraryFilters } from '../../features/library/hooks/use-library-filters.ts';
import { SiteLayout } from '../layout/site-layout.tsx';
import { errorTextOf } from '../../lib/api-error.ts';

export interface LibraryPageProps {
  /** The boards' picker plugs in here; signed-in users' add-to-board clicks go to it. */
  onAddToBoard?: (ad: Ad) => void;
  /** Or a whole add-to-board control per card, e.g. a button anchoring a board picker. */
  renderAddToBoard?: (ad: Ad) => ReactNode;
}

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

  return (
    <SiteLayout bottomInset={showBottomBar}>
      <main className="mx-auto max-w-[1600px] px-4 pt-6 pb-12 sm:px-6 sm:pt-8 lg:px-8">
        <div className="mb-3 flex items-center justify-between gap-3 sm:mb-5">
          <h1 className="min-w-0 text-2xl font-bold tracking-tight text-neutral-950 sm:text-[32px]">{LIBRARY_TEXTS.library.heading}</h1>
          <BlackFridayButton />
        </div>
        <div className="sticky top-14 z-20 -mx-4 mb-2 bg-neutral-50 px-4 py-2.5 sm:mb-3 sm:py-3 sm:top-16 sm:-mx-6 sm:px-6 lg:-mx-8 lg:px-8">
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
      </main>
      {showBottomBar && <LibraryBottomBar isAuthenticated={entitlement.isAuthenticated} onSubscribe={openPricing} />}
      <FeatureRequestButton raised={showBottomBar} />
      <DeleteAdDialog ad={adToDelete} onClose={() => setAdToDelete(null)} />
    </SiteLayout>
  );
}
