import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { toast } from '../../../lib/toast.ts';
import { AdGrid } from '../../../components/ads/ad-grid.tsx';
import { buttonClasses } from '../../../components/ui/button.tsx';
import { ChevronLeftIcon } from '../../../components/ui/icons.tsx';
import { ErrorBoundary } from '../../../components/ui/error-boundary.tsx';
import { usePageMetadata } from '../../../hooks/use-document-title.ts';
import type { Ad } from '../../../lib/ad-schema.ts';
import { BOARD_TEXTS } from '../../../lib/board-texts.ts';
import { LIBRARY_TEXTS } from '../../../lib/library-texts.ts';
import { SHELL_TEXTS } from '../../../lib/shell-texts.ts';
import { useThemedBoardAds, type ThemedBoard } from '../api/list-themed-board-ads.ts';
import { sessionSeed, shufflePage } from '../hooks/session-shuffle.ts';
import { useThemedBoardFilters, type FilterOption } from '../hooks/use-themed-board-filters.ts';
import { PageBanner } from './page-banner.tsx';
import { ThemedBoardToolbar } from './themed-board-toolbar.tsx';
import { MAIN_CONTENT_ID } from '../../../lib/constants.ts';

interface Catalog {
  data: FilterOption[] | undefined;
  isError: boolean;
}

export interface ThemedBoardViewProps {
  board: ThemedBoard;
  brands: Catalog;
  categories: Catalog;
  /** False while the board may not be listed for this viewer (or it is not known yet): nothing is asked of the server. */
  canList: boolean;
  /** Shown instead of the grid when the board cannot be listed. */
  blocked?: ReactNode;
  onLockedClick: (ad: Ad) => void;
  onAddToBoard?: (ad: Ad) => void;
}

const textsOf = (board: ThemedBoard) => (board === 'black-friday' ? BOARD_TEXTS.themedBoards.blackFriday : BOARD_TEXTS.themedBoards.topPicks);

/**
 * A themed board (Black Friday, Top Picks): banner, Back to Library, search,
 * brand and category from the URL, and the masonry grid in this session's
 * order. Which ads are clear is the server's decision (DESIGN.md's access table).
 */
export function ThemedBoardView({ board, brands, categories, canList, blocked, onLockedClick, onAddToBoard }: ThemedBoardViewProps) {
  const T = textsOf(board);
  usePageMetadata({ title: T.title, description: T.description });
  const state = useThemedBoardFilters(brands, categories);
  const list = useThemedBoardAds(board, state.filters, canList && state.ready);
  const [seed] = useState(() => sessionSeed());

  const ads = useMemo(() => list.data?.pages.flatMap((page) => shufflePage(page.ads, seed)) ?? [], [list.data, seed]);
  const status = !canList || !state.ready || list.isPending ? 'pending' : list.isError && ads.length === 0 ? 'error' : 'success';

  useEffect(() => {
    if (!list.error) return;
    toast.error(SHELL_TEXTS.toasts.loadFailed.title, {
      id: `${board}-load-failed`,
      description: list.isFetchNextPageError ? SHELL_TEXTS.toasts.loadFailed.moreDescription : T.loadFailed,
    });
  }, [list.error, list.isFetchNextPageError, board, T.loadFailed]);

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  return (
    <main id={MAIN_CONTENT_ID} className="mx-auto max-w-[1600px] px-4 pt-5 pb-12 sm:px-6 sm:pt-8 lg:px-8" data-board={board}>
      <Link to="/library" className={buttonClasses('ghost', 'sm', '-ml-2 mb-3 text-neutral-700')}>
        <ChevronLeftIcon className="h-4 w-4" />
        {BOARD_TEXTS.themedBoards.backToLibrary}
      </Link>
      <PageBanner page={board} alt={T.bannerAlt} />
      <div className="mb-3 sm:mb-5">
        <h1 className="text-2xl font-bold tracking-tight text-neutral-950 sm:text-[32px]">{T.title}</h1>
        <p className="mt-1 text-[15px] text-neutral-600">{T.subheading}</p>
      </div>
      {blocked ?? (
        <>
          <div className="sticky top-14 z-20 -mx-4 mb-4 bg-neutral-50 px-4 py-2.5 sm:top-16 sm:-mx-6 sm:mb-5 sm:px-6 sm:py-3 lg:-mx-8 lg:px-8">
            <ThemedBoardToolbar state={state} />
          </div>
          <ErrorBoundary fallback={<p className="py-20 text-center text-neutral-600">{LIBRARY_TEXTS.library.renderError}</p>}>
            <AdGrid
              ads={ads}
              status={status}
              hasNextPage={hasNextPage}
              isFetchingNextPage={isFetchingNextPage}
              onLoadMore={loadMore}
              loadMoreFailed={list.isFetchNextPageError}
              onRetry={() => void list.refetch()}
              emptyText={T.empty}
              errorText={T.loadFailed}
              onLockedClick={onLockedClick}
              onAddToBoard={onAddToBoard}
            />
          </ErrorBoundary>
        </>
      )}
    </main>
  );
}
