import { useDeferredValue, useMemo, type ReactNode } from 'react';
import type { Ad } from '../../lib/ad-schema.ts';
import { EAGER_ROW_MAX_COLUMNS, GRID_BREAKPOINTS, GRID_SKELETONS } from '../../lib/constants.ts';
import { LIBRARY_TEXTS } from '../../lib/library-texts.ts';
import { useGridColumns } from '../../hooks/use-grid-columns.ts';
import { useInfiniteScrollSentinel } from '../../hooks/use-infinite-scroll-sentinel.ts';
import { Button } from '../ui/button.tsx';
import { Skeleton } from '../ui/skeleton.tsx';
import { AD_CARD_IMAGE_INSET_X, AdCard, type AdCardActions } from './ad-card.tsx';
import { VirtualMasonry } from './virtual-masonry.tsx';

export interface AdGridProps extends AdCardActions {
  ads: Ad[];
  status: 'pending' | 'error' | 'success';
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  onLoadMore: () => void;
  /** The last next-page load failed: scrolling stops asking until the viewer retries. */
  loadMoreFailed?: boolean;
  onRetry?: () => void;
  emptyText: string;
  errorText?: string;
  /** Skeletons while the first page loads (the spec's 12 for grids, 8 on Favorites). */
  skeletonCount?: number;
}

/** The `sizes` attribute matching the grid's columns at each breakpoint. */
export const GRID_IMAGE_SIZES = [
  ...Object.entries(GRID_BREAKPOINTS)
    .filter(([max]) => max !== 'default')
    .map(([max, columns]) => `(max-width: ${max}px) ${Math.ceil(100 / columns)}vw`),
  `${Math.ceil(100 / GRID_BREAKPOINTS.default)}vw`,
].join(', ');

const SKELETON_HEIGHTS = [320, 240, 400, 280, 360, 260, 300, 420, 250, 340, 380, 270];

/**
 * Cards dealt into equal columns left to right (card i in column i mod n), for
 * the skeletons and for the virtual grid's first render, before it has measured
 * its width: the same columns and order as the virtual grid's layout.
 */
function Columns({ columns, children }: { columns: number; children: ReactNode[] }) {
  const dealt = Array.from({ length: columns }, () => [] as ReactNode[]);
  children.forEach((child, index) => dealt[index % columns]!.push(child));
  return (
    <div className="flex w-auto -ml-3 sm:-ml-4">
      {dealt.map((cards, column) => (
        <div key={column} className="pl-3 sm:pl-4 bg-clip-padding min-w-0" style={{ width: `${100 / columns}%` }}>
          {cards}
        </div>
      ))}
    </div>
  );
}

/**
 * A masonry grid of ads with infinite scroll: skeletons while the first page
 * loads, the empty text, more pages as the sentinel nears the viewport, and the
 * end text once the server has no more.
 */
export function AdGrid({ ads: latestAds, status: latestStatus, hasNextPage, isFetchingNextPage, onLoadMore, loadMoreFailed = false, onRetry, emptyText, errorText, skeletonCount = GRID_SKELETONS, ...actions }: AdGridProps) {
  // A new page of cards renders at a lower priority, in slices the browser can
  // interleave with input and painting, instead of one long task. The sentinel
  // waits for those cards: until they are in, it would still be in view.
  const { ads, status } = useDeferredValue(useMemo(() => ({ ads: latestAds, status: latestStatus }), [latestAds, latestStatus]));
  const current = ads === latestAds;
  const columns = useGridColumns();
  const sentinelRef = useInfiniteScrollSentinel(onLoadMore, current && status === 'success' && hasNextPage && !isFetchingNextPage && !loadMoreFailed, ads.length);
  const eagerCount = Math.min(columns, EAGER_ROW_MAX_COLUMNS);

  const skeletons = useMemo(
    () =>
      Array.from({ length: skeletonCount }, (_, index) => (
        <div key={index} data-testid="ad-skeleton" className="mb-3 overflow-hidden rounded-2xl border border-neutral-200/80 bg-white sm:mb-4">
          <div className="flex items-center gap-2.5 p-3">
            <Skeleton className="h-7 w-7 rounded-full" />
            <div className="flex-1 space-y-1.5">
              <Skeleton className="h-3 w-1/2 rounded" />
              <Skeleton className="h-2.5 w-1/3 rounded" />
            </div>
          </div>
          <Skeleton style={{ height: SKELETON_HEIGHTS[index % SKELETON_HEIGHTS.length] }} />
        </div>
      )),
    [skeletonCount],
  );

  if (status === 'pending') {
    return (
      <div data-testid="ad-grid" aria-busy="true">
        <Columns columns={columns}>{skeletons}</Columns>
      </div>
    );
  }

  if (ads.length === 0) {
    return (
      <div data-testid="ad-grid" className="flex flex-col items-center justify-center gap-4 rounded-2xl border border-dashed border-neutral-300 bg-white px-6 py-20 text-center">
        <p className="text-[15px] text-neutral-600">{status === 'error' ? (errorText ?? emptyText) : emptyText}</p>
        {status === 'error' && onRetry && (
          <Button variant="outline" onClick={onRetry}>
            {LIBRARY_TEXTS.library.tryAgain}
          </Button>
        )}
      </div>
    );
  }

  return (
    <div data-testid="ad-grid">
      <VirtualMasonry
        items={ads}
        columns={columns}
        imageInsetX={AD_CARD_IMAGE_INSET_X}
        renderItem={(ad, index) => <AdCard ad={ad} sizes={GRID_IMAGE_SIZES} eager={index < eagerCount} highPriority={index === 0} {...actions} />}
        fallback={(cards: ReactNode[]) => (
          <Columns columns={columns}>{cards}</Columns>
        )}
      />
      <div ref={sentinelRef} aria-hidden="true" className="h-px" />
      {isFetchingNextPage && (
        <p role="status" className="flex items-center justify-center gap-2 py-8 text-sm text-neutral-500">
          <span className="h-4 w-4 animate-spin rounded-full border-2 border-neutral-300 border-t-neutral-900" />
          {LIBRARY_TEXTS.library.loadingMore}
        </p>
      )}
      {loadMoreFailed && !isFetchingNextPage && (
        <div className="flex justify-center py-8">
          <Button variant="outline" onClick={onLoadMore}>
            {LIBRARY_TEXTS.library.tryAgain}
          </Button>
        </div>
      )}
      {!hasNextPage && (
        <p data-testid="list-end" className="py-10 text-center text-sm text-neutral-500">
          {LIBRARY_TEXTS.library.end}
        </p>
      )}
    </div>
  );
}
