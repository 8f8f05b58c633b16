import { useMutation, useQueryClient } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { ApiError, apiErrorFrom } from '../../../lib/api-error.ts';
import { BOARD_NAME_MAX_LENGTH } from '../../../lib/constants.ts';
import { supabase } from '../../../lib/supabase-client.ts';
import { API_ERROR_TEXTS } from '../../../lib/api-error-texts.ts';
import { BOARD_TEXTS } from '../../../lib/board-texts.ts';
import { BOARDS_QUERY_KEY, boardRowSchema, type BoardRow } from './list-boards.ts';

/** A board name as stored: trimmed, not empty, no longer than the database's check allows. */
export function boardNameFrom(input: string): string {
  const name = input.trim();
  if (!name) throw new ApiError(BOARD_TEXTS.boards.nameRequired, 'name_required');
  // The database collapses inner whitespace before its check; this counts as it does.
  if ([...name.replace(/\s+/g, ' ')].length > BOARD_NAME_MAX_LENGTH) {
    throw new ApiError(API_ERROR_TEXTS.apiErrors.byCode.user_collections_name_length, 'user_collections_name_length');
  }
  return name;
}

export interface CreateBoardInput {
  name: string;
  parentId: string | null;
}

/** Creates one of the caller's boards, at the top or under another of theirs. */
export async function createBoard({ name, parentId }: CreateBoardInput): Promise<BoardRow> {
  const boardName = boardNameFrom(name);
  const { data: auth } = await supabase.auth.getSession();
  const userId = auth.session?.user.id;
  if (!userId) throw new ApiError(BOARD_TEXTS.boards.notAuthenticated, 'not_authenticated');
  const { data, error } = await supabase
    .from('user_collections')
    .insert({ name: boardName, parent_id: parentId, is_system: false, user_id: userId })
    .select('id, name, parent_id, is_system, slug')
    .single();
  if (error) throw apiErrorFrom(error);
  return boardRowSchema.parse(data);
}

export async function renameBoard({ id, name }: { id: string; name: string }): Promise<BoardRow> {
  const { data, error } = await supabase
    .from('user_collections')
    .update({ name: boardNameFrom(name) })
    .eq('id', id)
    .select('id, name, parent_id, is_system, slug')
    .single();
  if (error) throw apiErrorFrom(error);
  return boardRowSchema.parse(data);
}

/** Moves a board under another of the caller's boards, or to the top (null); the database refuses cycles. */
export async function moveBoard({ id, parentId }: { id: string; parentId: string | null }): Promise<BoardRow> {
  const { data, error } = await supabase
    .from('user_collections')
    .update({ parent_id: parentId })
    .eq('id', id)
    .select('id, name, parent_id, is_system, slug')
    .single();
  if (error) throw apiErrorFrom(error);
  return boardRowSchema.parse(data);
}

/** Deletes a board with its saved ads; its sub-boards move up or go too. Resolves to the ids of the boards gone. */
export async function deleteBoard({ id, moveChildrenUp }: { id: string; moveChildrenUp: boolean }): Promise<string[]> {
  const { data, error } = await supabase.rpc('delete_board', { p_id: id, p_move_children_up: moveChildrenUp });
  if (error) throw apiErrorFrom(error);
  return z.array(z.string()).parse(data ?? []);
}

function useBoardMutation<Input, Output>(mutationFn: (input: Input) => Promise<Output>, userId: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () => queryClient.invalidateQueries({ queryKey: BOARDS_QUERY_KEY }),
    onSuccess: (result) => {
      // A new board shows at once, before the refetch.
      if (result && typeof result === 'object' && 'id' in result) {
        const row = result as unknown as BoardRow;
        queryClient.setQueryData<BoardRow[]>([...BOARDS_QUERY_KEY, userId], (rows) =>
          rows ? [...rows.filter((existing) => existing.id !== row.id), row] : rows,
        );
      }
    },
  });
}

export const useCreateBoard = (userId: string | null) => useBoardMutation(createBoard, userId);
export const useRenameBoard = (userId: string | null) => useBoardMutation(renameBoard, userId);
export const useMoveBoard = (userId: string | null) => useBoardMutation(moveBoard, userId);
export const useDeleteBoard = (userId: string | null) => useBoardMutation(deleteBoard, userId);
