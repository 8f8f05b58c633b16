import { useMemo, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { CheckIcon, ChevronDownIcon, ChevronRightIcon, HeartIcon, SearchIcon } from '../../../components/ui/icons.tsx';
import { BOARD_TEXTS } from '../../../lib/board-texts.ts';
import { buildBoardTree, type BoardNode } from '../api/list-boards.ts';
import type { useBoardPicker } from '../hooks/use-board-picker.ts';
import { FolderIcon, PlusIcon } from './board-icons.tsx';
import { BOARD_NAME_INPUT_ATTRIBUTE } from './board-name-input.ts';

const T = BOARD_TEXTS.boards;
/** Each level of the board tree indents this much (spec). */
export const BOARD_INDENT_PX = 20;
/** Marks the inline board name input, so Escape there cancels the input rather than closing the panel. */

type Picker = ReturnType<typeof useBoardPicker>;

interface AddToBoardPanelProps {
  picker: Picker;
  titleId: string;
  onClose: () => void;
  onConfirmed: () => void;
  /** The title element: a dialog title in the bottom sheet, a heading in the popover. */
  renderTitle: (text: string) => ReactNode;
}

/** Keeps the boards whose names match, with their ancestors so each match shows where it sits. */
function filterTree(nodes: BoardNode[], search: string): BoardNode[] {
  const needle = search.trim().toLowerCase();
  if (!needle) return nodes;
  return nodes.flatMap((node) => {
    const children = filterTree(node.children, search);
    return node.name.toLowerCase().includes(needle) || children.length > 0 ? [{ ...node, children }] : [];
  });
}

function CheckMark({ checked }: { checked: boolean }) {
  return (
    <span
      aria-hidden="true"
      className={`inline-flex h-[18px] w-[18px] shrink-0 items-center justify-center rounded-[5px] border transition-colors ${
        checked ? 'border-neutral-950 bg-neutral-950 text-white' : 'border-neutral-300 bg-white'
      }`}
    >
      {checked && <CheckIcon className="h-3 w-3" strokeWidth={3} />}
    </span>
  );
}

const rowClasses = 'flex min-w-0 flex-1 items-center gap-2.5 rounded-lg px-2 py-2 text-left text-sm text-neutral-800 hover:bg-neutral-100 focus-visible:outline-2 focus-visible:outline-neutral-950';

function BoardRows({ nodes, picker, collapsed, onToggleCollapsed, searching }: {
  nodes: BoardNode[];
  picker: Picker;
  collapsed: ReadonlySet<string>;
  onToggleCollapsed: (id: string) => void;
  searching: boolean;
}) {
  return (
    <ul role="group" className="space-y-0.5">
      {nodes.map((node) => {
        const open = searching || !collapsed.has(node.id);
        const checked = picker.isChecked(node.id);
        return (
          <li key={node.id}>
            <div className="flex items-center gap-0.5" style={{ paddingLeft: node.depth * BOARD_INDENT_PX }} data-testid="board-row" data-depth={node.depth}>
              {node.children.length > 0 ? (
                <button
                  type="button"
                  aria-expanded={open}
                  aria-label={open ? T.collapse(node.name) : T.expand(node.name)}
                  onClick={() => onToggleCollapsed(node.id)}
                  className="inline-flex h-7 w-6 shrink-0 items-center justify-center rounded-md text-neutral-500 hover:bg-neutral-100 hover:text-neutral-950"
                >
                  {open ? <ChevronDownIcon className="h-4 w-4" /> : <ChevronRightIcon className="h-4 w-4" />}
                </button>
              ) : (
                <span className="w-6 shrink-0" aria-hidden="true" />
              )}
              <button type="button" role="checkbox" aria-checked={checked} onClick={() => picker.toggle(node.id)} className={rowClasses}>
                <CheckMark checked={checked} />
                <FolderIcon className="h-4 w-4 shrink-0 text-neutral-400" />
                <span className="truncate">{node.name}</span>
              </button>
            </div>
            {open && node.children.length > 0 && (
              <BoardRows nodes={node.children} picker={picker} collapsed={collapsed} onToggleCollapsed={onToggleCollapsed} searching={searching} />
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** The add-to-board panel's content: search, Favorites, the board tree, Create Board, Confirm. */
export function AddToBoardPanel({ picker, titleId, onClose, onConfirmed, renderTitle }: AddToBoardPanelProps) {
  const [search, setSearch] = useState('');
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const [naming, setNaming] = useState(false);
  const [newName, setNewName] = useState('');
  const tree = useMemo(() => buildBoardTree(picker.boards.data ?? []), [picker.boards.data]);
  const shown = useMemo(() => filterTree(tree, search), [tree, search]);
  const searching = search.trim() !== '';
  const favoritesMatches = !searching || T.favorites.toLowerCase().includes(search.trim().toLowerCase());
  const hasPending = picker.pendingCount > 0;

  const toggleCollapsed = (id: string) =>
    setCollapsed((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const submitName = async () => {
    if (!newName.trim() || picker.creating) return;
    if (await picker.createAndSelect(newName)) {
      setNewName('');
      setNaming(false);
    }
  };

  const onNameKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      void submitName();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      setNaming(false);
      setNewName('');
    }
  };

  const confirm = async () => {
    if (await picker.confirm()) onConfirmed();
  };

  const favoritesChecked = picker.favoritesId !== null && picker.isChecked(picker.favoritesId);

  return (
    <div className="flex h-full min-h-0 flex-col" aria-labelledby={titleId} data-testid="add-to-board-panel">
      <div className="flex items-center justify-between gap-2 px-4 pt-4 pb-3">
        {renderTitle(picker.isSaved ? T.panelSaved : T.panelTitle)}
        <Button variant="ghost" size="sm" onClick={onClose}>
          {hasPending ? T.cancel : T.close}
        </Button>
      </div>
      <div className="px-4 pb-2">
        <label className="relative block">
          <span className="sr-only">{T.searchPlaceholder}</span>
          <SearchIcon className="pointer-events-none absolute top-1/2 left-3 h-4 w-4 -translate-y-1/2 text-neutral-400" />
          <input
            type="search"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            placeholder={T.searchPlaceholder}
            className="h-9 w-full rounded-lg border border-neutral-200 bg-white pr-3 pl-9 text-sm outline-none placeholder:text-neutral-400 focus:border-neutral-400 focus:ring-2 focus:ring-neutral-950/10"
          />
        </label>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto overscroll-contain px-2 pb-2">
        {favoritesMatches && (
          <div className="flex items-center gap-0.5 border-b border-neutral-100 pb-1 mb-1">
            <span className="w-6 shrink-0" aria-hidden="true" />
            <button
              type="button"
              role="checkbox"
              aria-checked={favoritesChecked}
              disabled={picker.favoritesId === null}
              onClick={() => picker.favoritesId && picker.toggle(picker.favoritesId)}
              className={`${rowClasses} disabled:opacity-50`}
            >
              <CheckMark checked={favoritesChecked} />
              <HeartIcon filled={favoritesChecked} className={`h-4 w-4 shrink-0 ${favoritesChecked ? 'text-rose-600' : 'text-neutral-400'}`} />
              <span className="truncate font-medium">{T.favorites}</span>
            </button>
          </div>
        )}
        {picker.loading ? (
          <p className="px-3 py-6 text-center text-sm text-neutral-500">{T.loadingBoards}</p>
        ) : shown.length === 0 ? (
          <p className="px-3 py-6 text-center text-sm text-neutral-500">{searching ? T.noBoardsFound : T.noBoardsYet}</p>
        ) : (
          <BoardRows nodes={shown} picker={picker} collapsed={collapsed} onToggleCollapsed={toggleCollapsed} searching={searching} />
        )}
      </div>
      <div className="flex items-center gap-2 border-t border-neutral-100 px-4 py-3">
        {naming ? (
          <input
            autoFocus
            {...{ [BOARD_NAME_INPUT_ATTRIBUTE]: '' }}
            value={newName}
            onChange={(event) => setNewName(event.target.value)}
            onKeyDown={onNameKeyDown}
            onBlur={() => !newName.trim() && setNaming(false)}
            placeholder={T.boardNamePlaceholder}
            aria-label={T.boardNamePlaceholder}
            disabled={picker.creating}
            maxLength={100}
            className="h-9 min-w-0 flex-1 rounded-lg border border-neutral-300 bg-white px-3 text-sm outline-none focus:border-neutral-500 focus:ring-2 focus:ring-neutral-950/10"
          />
        ) : (
          <Button variant="outline" size="sm" onClick={() => setNaming(true)} className="min-w-0">
            <PlusIcon className="h-3.5 w-3.5" />
            {T.createBoard}
          </Button>
        )}
        {hasPending && (
          <Button size="sm" className="ml-auto" onClick={() => void confirm()} disabled={picker.saving}>
            {picker.saving ? T.saving : T.confirm}
          </Button>
        )}
      </div>
    </div>
  );
}
