import { useCallback } from 'react';
import { errorTextOf } from '../../../lib/api-error.ts';
import { toast } from '../../../lib/toast.ts';
import { useFavoritesBoardId } from '../../../lib/favorites-board.ts';
import { SHELL_TEXTS } from '../../../lib/shell-texts.ts';
import { useAdBoardIds } from '../api/get-ad-board-ids.ts';
import { useSaveFavorite } from '../api/save-favorite.ts';

/** Whether the ad is in the signed-in user's Favorites, and the toggle. */
export function useFavorite(adId: string, userId: string | null) {
  const favoritesId = useFavoritesBoardId(userId);
  const boardIds = useAdBoardIds(adId, userId);
  const save = useSaveFavorite(userId);
  const isFavorite = favoritesId.data !== undefined && (boardIds.data ?? []).includes(favoritesId.data);

  const toggle = useCallback(() => {
    save.mutate(
      { adId, favorite: !isFavorite },
      { onError: (error) => toast.error(SHELL_TEXTS.toasts.updateFailed.title, { description: errorTextOf(error) }) },
    );
  }, [save, adId, isFavorite]);

  return { isFavorite, pending: save.isPending, toggle };
}
