import { queryOptions, useQuery } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { apiErrorFrom } from '../../../lib/api-error.ts';
import { supabase } from '../../../lib/supabase-client.ts';

export const boardRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  parent_id: z.nullable(z.string()),
  is_system: z.boolean(),
  slug: z.nullable(z.string()),
});
export type BoardRow = z.infer<typeof boardRowSchema>;

/** A board with its sub-boards, each level sorted by name. */
export interface BoardNode extends BoardRow {
  children: BoardNode[];
  depth: number;
}

/** The caller's boards, Favorites included (row-level security keeps them the caller's). */
export async function listBoards(): Promise<BoardRow[]> {
  const { data, error } = await supabase
    .from('user_collections')
    .select('id, name, parent_id, is_system, slug')
    .order('is_system', { ascending: false })
    .order('name', { ascending: true });
  if (error) throw apiErrorFrom(error);
  return z.array(boardRowSchema).parse(data);
}

/** Every key under this prefix is a list of the signed-in user's boards. */
export const BOARDS_QUERY_KEY = ['collections', 'boards'] as const;

export function boardsQueryOptions(userId: string | null) {
  return queryOptions({
    queryKey: [...BOARDS_QUERY_KEY, userId],
    queryFn: listBoards,
    enabled: userId !== null,
  });
}

export function useBoards(userId: string | null) {
  return useQuery(boardsQueryOptions(userId));
}

/** Whether a board is the Favorites system board (flagged, or named so), which lists of boards leave out. */
export function isFavoritesBoard(board: Pick<BoardRow, 'is_system' | 'slug' | 'name'>): boolean {
  return board.is_system || board.slug === 'favorites' || board.name.trim().toLowerCase() === 'favorites';
}

const byName = (a: BoardRow, b: BoardRow) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }) || a.id.localeCompare(b.id);

/**
 * The boards as a forest, Favorites left out. A board whose parent is not in
 * the list (filtered away, or a stale row) is shown at the top level.
 */
export function buildBoardTree(rows: BoardRow[], { hideNamedFavorites = false } = {}): BoardNode[] {
  const boards = rows.filter((row) => !row.is_system && !(hideNamedFavorites && isFavoritesBoard(row)));
  const ids = new Set(boards.map((board) => board.id));
  const childrenOf = new Map<string | null, BoardRow[]>();
  for (const board of boards) {
    const parent = board.parent_id !== null && ids.has(board.parent_id) ? board.parent_id : null;
    const siblings = childrenOf.get(parent) ?? [];
    siblings.push(board);
    childrenOf.set(parent, siblings);
  }
  const seen = new Set<string>();
  const build = (parent: string | null, depth: number): BoardNode[] =>
    (childrenOf.get(parent) ?? [])
      .filter((board) => !seen.has(board.id))
      .sort(byName)
      .map((board) => {
        seen.add(board.id);
        return { ...board, depth, children: build(board.id, depth + 1) };
      });
  return build(null, 0);
}

/** The tree in display order, depth first. */
export function flattenBoardTree(nodes: BoardNode[]): BoardNode[] {
  return nodes.flatMap((node) => [node, ...flattenBoardTree(node.children)]);
}
