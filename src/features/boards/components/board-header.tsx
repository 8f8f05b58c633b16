import { useMemo, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { errorTextOf } from '../../../lib/api-error.ts';
import { toast } from '../../../lib/toast.ts';
import { Button } from '../../../components/ui/button.tsx';
import { ChevronRightIcon, TrashIcon } from '../../../components/ui/icons.tsx';
import { BOARD_TEXTS } from '../../../lib/board-texts.ts';
import { buildBoardTree, flattenBoardTree, type BoardNode, type BoardRow } from '../api/list-boards.ts';
import { useCreateBoard, useDeleteBoard, useMoveBoard, useRenameBoard } from '../api/manage-boards.ts';
import { FolderIcon, MoveIcon, PencilIcon, PlusIcon } from './board-icons.tsx';

const T = BOARD_TEXTS.boards.collectionPage;

interface BoardHeaderProps {
  board: BoardRow;
  boards: BoardRow[];
  userId: string;
  /** Called once the board is gone, with the board it sat in (null at the top level). */
  onDeleted: (parentId: string | null) => void;
}

type Mode = 'idle' | 'rename' | 'move' | 'sub-board';

function findNode(nodes: BoardNode[], id: string): BoardNode | null {
  for (const node of nodes) {
    if (node.id === id) return node;
    const found = findNode(node.children, id);
    if (found) return found;
  }
  return null;
}

const inputClasses =
  'h-9 min-w-0 flex-1 rounded-lg border border-neutral-300 bg-white px-3 text-sm outline-none focus:border-neutral-500 focus:ring-2 focus:ring-neutral-950/10';

// Not flex-1 in the stacked (mobile) form: a zero flex basis would collapse its height.
const selectClasses =
  'h-9 w-full min-w-0 rounded-lg border border-neutral-300 bg-white px-3 text-sm outline-none focus:border-neutral-500 focus:ring-2 focus:ring-neutral-950/10 sm:flex-1';

/** A board's page header: where it sits, its name, its sub-boards, and rename, move, new sub-board and delete. */
export function BoardHeader({ board, boards, userId, onDeleted }: BoardHeaderProps) {
  const [mode, setMode] = useState<Mode>('idle');
  const [name, setName] = useState('');
  const [parentId, setParentId] = useState('');
  const rename = useRenameBoard(userId);
  const move = useMoveBoard(userId);
  const create = useCreateBoard(userId);
  const remove = useDeleteBoard(userId);

  const tree = useMemo(() => buildBoardTree(boards), [boards]);
  const node = useMemo(() => findNode(tree, board.id), [tree, board.id]);
  const byId = useMemo(() => new Map(boards.map((row) => [row.id, row])), [boards]);
  const ancestors = useMemo(() => {
    const path: BoardRow[] = [];
    const seen = new Set<string>([board.id]);
    let cursor = board.parent_id ? byId.get(board.parent_id) : undefined;
    while (cursor && !seen.has(cursor.id)) {
      seen.add(cursor.id);
      path.unshift(cursor);
      cursor = cursor.parent_id ? byId.get(cursor.parent_id) : undefined;
    }
    return path;
  }, [board, byId]);
  const descendants = useMemo(() => (node ? flattenBoardTree(node.children) : []), [node]);
  // A board cannot move under itself or its own sub-boards.
  const moveTargets = useMemo(() => {
    const excluded = new Set([board.id, ...descendants.map((child) => child.id)]);
    return flattenBoardTree(tree).filter((candidate) => !excluded.has(candidate.id));
  }, [tree, board.id, descendants]);

  const start = (next: Mode) => {
    setMode(next);
    setName(next === 'rename' ? board.name : '');
    setParentId(board.parent_id ?? '');
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      if (mode === 'rename') await rename.mutateAsync({ id: board.id, name });
      if (mode === 'move') await move.mutateAsync({ id: board.id, parentId: parentId || null });
      if (mode === 'sub-board') await create.mutateAsync({ name, parentId: board.id });
      setMode('idle');
    } catch (error) {
      const title = mode === 'rename' ? T.renameFailed.title : mode === 'move' ? T.moveFailed.title : BOARD_TEXTS.boards.createFailed.title;
      toast.error(title, { description: errorTextOf(error) });
    }
  };

  const deleteBoard = async () => {
    if (!window.confirm(T.deleteConfirm(board.name))) return;
    const moveChildrenUp = descendants.length === 0 || !window.confirm(T.deleteChildrenConfirm(descendants.length));
    try {
      await remove.mutateAsync({ id: board.id, moveChildrenUp });
      toast.success(T.deleted.title, { description: T.deleted.description(board.name) });
      onDeleted(board.parent_id);
    } catch (error) {
      toast.error(T.deleteFailed.title, { description: errorTextOf(error) });
    }
  };

  const busy = rename.isPending || move.isPending || create.isPending || remove.isPending;

  return (
    <div className="mb-5 space-y-3 sm:mb-6">
      {ancestors.length > 0 && (
        <nav aria-label={T.breadcrumb} className="flex flex-wrap items-center gap-1 text-sm text-neutral-500">
          {ancestors.map((ancestor) => (
            <span key={ancestor.id} className="flex items-center gap-1">
              <Link to={`/collection/${ancestor.id}`} className="max-w-[14rem] truncate hover:text-neutral-950 hover:underline">
                {ancestor.name}
              </Link>
              <ChevronRightIcon className="h-3.5 w-3.5 text-neutral-400" />
            </span>
          ))}
        </nav>
      )}
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="min-w-0 break-words text-2xl font-bold tracking-tight text-neutral-950 sm:text-[32px]">{board.name}</h1>
        <div className="flex flex-wrap items-center gap-1.5" role="group" aria-label={T.manage}>
          <Button variant="outline" size="sm" onClick={() => start('sub-board')} disabled={busy}>
            <PlusIcon className="h-3.5 w-3.5" />
            {T.newSubBoard}
          </Button>
          <Button variant="outline" size="sm" onClick={() => start('rename')} disabled={busy}>
            <PencilIcon className="h-3.5 w-3.5" />
            {T.rename}
          </Button>
          <Button variant="outline" size="sm" onClick={() => start('move')} disabled={busy}>
            <MoveIcon className="h-3.5 w-3.5" />
            {T.move}
          </Button>
          <Button variant="outline" size="sm" onClick={() => void deleteBoard()} disabled={busy} className="hover:border-red-200 hover:bg-red-50 hover:text-red-700">
            <TrashIcon className="h-3.5 w-3.5" />
            {T.delete}
          </Button>
        </div>
      </div>
      {mode !== 'idle' && (
        <form onSubmit={(event) => void submit(event)} className="flex max-w-xl flex-wrap items-center gap-2 rounded-xl border border-neutral-200 bg-white p-2.5">
          {mode === 'move' ? (
            <label className="flex w-full min-w-0 flex-col gap-1 text-sm text-neutral-600 sm:w-auto sm:flex-1 sm:flex-row sm:items-center sm:gap-2">
              {T.moveLabel}
              <select value={parentId} onChange={(event) => setParentId(event.target.value)} className={selectClasses} autoFocus>
                <option value="">{T.topLevel}</option>
                {moveTargets.map((target) => (
                  <option key={target.id} value={target.id}>
                    {`${'\u00a0\u00a0'.repeat(target.depth)}${target.name}`}
                  </option>
                ))}
              </select>
            </label>
          ) : (
            <input
              autoFocus
              value={name}
              onChange={(event) => setName(event.target.value)}
              onKeyDown={(event) => event.key === 'Escape' && setMode('idle')}
              placeholder={mode === 'rename' ? T.renameLabel : T.subBoardPlaceholder}
              aria-label={mode === 'rename' ? T.renameLabel : T.subBoardPlaceholder}
              maxLength={100}
              className={inputClasses}
            />
          )}
          <Button type="submit" size="sm" disabled={busy || (mode !== 'move' && !name.trim())}>
            {mode === 'rename' ? T.save : mode === 'move' ? T.move : T.create}
          </Button>
          <Button type="button" variant="ghost" size="sm" onClick={() => setMode('idle')}>
            {T.cancel}
          </Button>
        </form>
      )}
      {node && node.children.length > 0 && (
        <nav aria-label={T.subBoards} className="flex flex-wrap gap-2">
          {node.children.map((child) => (
            <Link
              key={child.id}
              to={`/collection/${child.id}`}
              className="inline-flex max-w-[16rem] items-center gap-1.5 rounded-full border border-neutral-200 bg-white px-3 py-1.5 text-sm text-neutral-700 hover:border-neutral-300 hover:text-neutral-950"
            >
              <FolderIcon className="h-3.5 w-3.5 shrink-0 text-neutral-400" />
              <span className="truncate">{child.name}</span>
            </Link>
          ))}
        </nav>
      )}
    </div>
  );
}
