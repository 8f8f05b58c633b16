import { useCallback, useEffect, useMemo } from 'react';
import { toast } from '../../../lib/toast.ts';
import { BOARD_TEXTS } from '../../../lib/board-texts.ts';
import { useCollectionAds } from '../api/list-collection-ads.ts';

/** A board's ads as the shared grid takes them, with the spec's load-failure toast. */
export function useBoardAds(boardId: string | null) {
  const list = useCollectionAds(boardId);
  const ads = useMemo(() => list.data?.pages.flatMap((page) => page.ads) ?? [], [list.data]);
  const notFound = (list.error as { code?: string } | null)?.code === 'board_not_found';
  const status: 'pending' | 'error' | 'success' =
    boardId === null || list.isPending ? 'pending' : list.isError && ads.length === 0 ? 'error' : 'success';

  useEffect(() => {
    if (!list.error || notFound) return;
    toast.error(BOARD_TEXTS.boards.collectionPage.loadFailed.title, {
      id: `board-load-failed-${boardId}`,
      description: BOARD_TEXTS.boards.collectionPage.loadFailed.description,
    });
  }, [list.error, notFound, boardId]);

  const { hasNextPage, isFetchingNextPage, fetchNextPage, refetch } = list;
  const onLoadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  return {
    notFound,
    gridProps: {
      ads,
      status,
      hasNextPage,
      isFetchingNextPage,
      onLoadMore,
      loadMoreFailed: list.isFetchNextPageError,
      onRetry: () => void refetch(),
      errorText: BOARD_TEXTS.boards.collectionPage.loadFailed.description,
    },
  };
}
