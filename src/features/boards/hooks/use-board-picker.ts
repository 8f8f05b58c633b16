import { useCallback, useMemo, useState } from 'react';
import { errorTextOf } from '../../../lib/api-error.ts';
import { toast } from '../../../lib/toast.ts';
import { BOARD_TEXTS } from '../../../lib/board-texts.ts';
import { useAdMemberships, useSaveAdBoards } from '../api/ad-memberships.ts';
import { useFavoritesBoardId } from '../../../lib/favorites-board.ts';
import { useBoards } from '../api/list-boards.ts';
import { useCreateBoard } from '../api/manage-boards.ts';

/** The pending additions and removals of the add-to-board panel, and their one atomic save. */
export function useBoardPicker(adId: string, userId: string | null, open: boolean) {
  const boards = useBoards(open ? userId : null);
  const favoritesId = useFavoritesBoardId(userId, open);
  const memberships = useAdMemberships(adId, userId, open);
  const save = useSaveAdBoards(userId);
  const create = useCreateBoard(userId);
  /** Board id → whether it should hold the ad once confirmed; only entries that differ from what is saved. */
  const [pending, setPending] = useState<ReadonlyMap<string, boolean>>(new Map());

  const saved = useMemo(() => new Set(memberships.data ?? []), [memberships.data]);
  const isChecked = useCallback((boardId: string) => pending.get(boardId) ?? saved.has(boardId), [pending, saved]);

  const toggle = useCallback(
    (boardId: string) => {
      setPending((current) => {
        const next = new Map(current);
        const desired = !(current.get(boardId) ?? saved.has(boardId));
        if (desired === saved.has(boardId)) next.delete(boardId);
        else next.set(boardId, desired);
        return next;
      });
    },
    [saved],
  );

  const discard = useCallback(() => setPending(new Map()), []);

  /** Saves every pending change in one call; resolves true when saved, false (with a toast) when nothing changed. */
  const confirm = useCallback(async (): Promise<boolean> => {
    const add = [...pending].filter(([, on]) => on).map(([id]) => id);
    const remove = [...pending].filter(([, on]) => !on).map(([id]) => id);
    try {
      await save.mutateAsync({ adId, add, remove });
      setPending(new Map());
      return true;
    } catch (error) {
      console.error('Saving boards failed', error);
      toast.error(BOARD_TEXTS.boards.saveFailed.title, {
        id: `save-boards-${adId}`,
        description: errorTextOf(error, BOARD_TEXTS.boards.saveFailed.description),
      });
      return false;
    }
  }, [adId, pending, save]);

  /**
   * Creates a board, at the top level or inside one of the user's boards, and selects it (Confirm saves the ad in it);
   * resolves to its id, or null (with a toast) when it could not be created.
   */
  const createAndSelect = useCallback(
    async (name: string, parentId: string | null = null): Promise<string | null> => {
      try {
        const board = await create.mutateAsync({ name, parentId });
        setPending((current) => new Map(current).set(board.id, true));
        return board.id;
      } catch (error) {
        console.error('Creating a board failed', error);
        toast.error(BOARD_TEXTS.boards.createFailed.title, { description: errorTextOf(error) });
        return null;
      }
    },
    [create],
  );

  return {
    boards,
    favoritesId: favoritesId.data ?? null,
    favoritesFailed: favoritesId.isError,
    loading: boards.isPending || memberships.isPending,
    isSaved: saved.size > 0,
    isChecked,
    toggle,
    pendingCount: pending.size,
    discard,
    confirm,
    saving: save.isPending,
    createAndSelect,
    creating: create.isPending,
  };
}
