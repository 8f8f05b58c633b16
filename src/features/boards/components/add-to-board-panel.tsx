import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { CheckIcon, ChevronDownIcon, ChevronRightIcon, HeartIcon, SearchIcon } from '../../../components/ui/icons.tsx';
import { API_ERROR_TEXTS } from '../../../lib/api-error-texts.ts';
import { BOARD_TEXTS } from '../../../lib/board-texts.ts';
import { BOARD_DEPTH_MAX, BOARD_NAME_MAX_LENGTH } from '../../../lib/constants.ts';
import { toast } from '../../../lib/toast.ts';
import { buildBoardTree, type BoardNode } from '../api/list-boards.ts';
import type { useBoardPicker } from '../hooks/use-board-picker.ts';
import { FolderIcon, PlusIcon } from './board-icons.tsx';
import { BOARD_NAME_INPUT_ATTRIBUTE } from './board-name-input.ts';

const T = BOARD_TEXTS.boards;
/** Each level of the board tree indents this much (spec). */
export const BOARD_INDENT_PX = 20;

type Picker = ReturnType<typeof useBoardPicker>;
/** Where a new board's name is typed: inside a board (its id), at the top level (null), or nowhere (undefined). */
type NamingIn = string | null | undefined;

interface AddToBoardPanelProps {
  picker: Picker;
  titleId: string;
  onClose: () => void;
  onConfirmed: () => void;
  /** The title element: a dialog title in the bottom sheet, a heading in the popover. */
  renderTitle: (text: string) => ReactNode;
}

/**
 * Keeps the boards whose names match, with their ancestors so each match shows where it sits, and the boards made
 * in this panel (a sub-board made while searching stays in sight, checked).
 */
function filterTree(nodes: BoardNode[], search: string, made: ReadonlySet<string>): BoardNode[] {
  const needle = search.trim().toLowerCase();
  if (!needle) return nodes;
  return nodes.flatMap((node) => {
    const children = filterTree(node.children, search, made);
    return node.name.toLowerCase().includes(needle) || made.has(node.id) || children.length > 0 ? [{ ...node, children }] : [];
  });
}

/** Whether a board may hold a sub-board: the database nests boards at most BOARD_DEPTH_MAX levels (depth 0 is level 1). */
const canHoldSubBoard = (node: BoardNode) => node.depth + 2 <= BOARD_DEPTH_MAX;

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
const nameInputClasses =
  // Full width, not flex-1: in the field's column a zero flex basis would collapse its height.
  'h-9 w-full min-w-0 rounded-lg border border-neutral-300 bg-white px-3 text-sm outline-none focus:border-neutral-500 focus:ring-2 focus:ring-neutral-950/10 aria-invalid:border-red-400';

interface BoardNameFieldProps {
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
  onSubmit: () => void;
  /** Escape: the field closes and the focus goes back to what opened it. */
  onCancel: () => void;
  /** Left empty: the field closes, the focus stays where the user put it. */
  onLeftEmpty: () => void;
  /** While the board is being created: the field keeps its focus (read-only, not disabled) for a retry. */
  busy: boolean;
  /** Set when Enter was pressed with no name: the field says the spec's 'Collection name required'. */
  missing: boolean;
}

/** The inline name of a new board (top level or sub-board): Enter creates it, Escape cancels, leaving it empty closes it. */
function BoardNameField({ label, placeholder, value, onChange, onSubmit, onCancel, onLeftEmpty, busy, missing }: BoardNameFieldProps) {
  const errorId = useId();
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      onSubmit();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      onCancel();
    }
  };
  return (
    <div className="flex min-w-0 flex-1 flex-col gap-1">
      <input
        autoFocus
        {...{ [BOARD_NAME_INPUT_ATTRIBUTE]: '' }}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={onKeyDown}
        onBlur={() => !value.trim() && onLeftEmpty()}
        placeholder={placeholder}
        aria-label={label}
        aria-invalid={missing || undefined}
        aria-describedby={missing ? errorId : undefined}
        readOnly={busy}
        aria-busy={busy || undefined}
        maxLength={BOARD_NAME_MAX_LENGTH}
        className={nameInputClasses}
      />
      {missing && (
        <p id={errorId} role="alert" className="px-1 text-xs text-red-700">
          {T.nameRequired}
        </p>
      )}
    </div>
  );
}

interface BoardRowsProps {
  nodes: BoardNode[];
  picker: Picker;
  collapsed: ReadonlySet<string>;
  onToggleCollapsed: (id: string) => void;
  searching: boolean;
  namingIn: NamingIn;
  /** Opens the name field of a new sub-board inside this board. */
  onNewSubBoard: (parent: BoardNode) => void;
  /** The name field, rendered under the board it names a sub-board of. */
  renderNameField: (parent: BoardNode) => ReactNode;
}

function BoardRows(props: BoardRowsProps) {
  const { nodes, picker, collapsed, onToggleCollapsed, searching, namingIn, onNewSubBoard, renderNameField } = props;
  return (
    <ul className="space-y-0.5">
      {nodes.map((node) => {
        const open = searching || !collapsed.has(node.id);
        const checked = picker.isChecked(node.id);
        const roomForSubBoard = canHoldSubBoard(node);
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
              <button type="button" role="checkbox" aria-checked={checked} onClick={() => picker.toggle(node.id)} className={rowClasses} data-board-id={node.id}>
                <CheckMark checked={checked} />
                <FolderIcon className="h-4 w-4 shrink-0 text-neutral-400" />
                <span className="truncate">{node.name}</span>
              </button>
              <button
                type="button"
                aria-label={T.newSubBoardIn(node.name)}
                // At the deepest level the button stays in the tab order and says why it makes nothing.
                title={roomForSubBoard ? T.newSubBoardIn(node.name) : API_ERROR_TEXTS.apiErrors.byCode.board_depth_limit_reached}
                aria-disabled={roomForSubBoard ? undefined : true}
                onClick={() => onNewSubBoard(node)}
                data-new-sub-board-in={node.id}
                className="inline-flex h-8 w-8 shrink-0 items-center justify-center rounded-md text-neutral-500 hover:bg-neutral-100 hover:text-neutral-950 focus-visible:outline-2 focus-visible:outline-neutral-950 aria-disabled:text-neutral-300 aria-disabled:hover:bg-transparent aria-disabled:hover:text-neutral-300"
              >
                <PlusIcon className="h-4 w-4" />
              </button>
            </div>
            {namingIn === node.id && (
              <div className="flex items-start gap-2.5 py-1 pr-1" style={{ paddingLeft: (node.depth + 1) * BOARD_INDENT_PX + 24 + 10 }} data-testid="new-sub-board">
                <FolderIcon className="mt-2.5 h-4 w-4 shrink-0 text-neutral-400" />
                {renderNameField(node)}
              </div>
            )}
            {open && node.children.length > 0 && <BoardRows {...props} nodes={node.children} />}
          </li>
        );
      })}
    </ul>
  );
}

/** The add-to-board panel's content: search, Favorites, the board tree (a + on each board makes a sub-board there), Create Board, Confirm. */
export function AddToBoardPanel({ picker, titleId, onClose, onConfirmed, renderTitle }: AddToBoardPanelProps) {
  const [search, setSearch] = useState('');
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const [namingIn, setNamingIn] = useState<NamingIn>(undefined);
  const [newName, setNewName] = useState('');
  const [nameMissing, setNameMissing] = useState(false);
  /** The boards made in this panel: kept in sight while searching. */
  const [made, setMade] = useState<ReadonlySet<string>>(new Set());
  /** What takes the focus after the next render: a made board's checkbox, or the button a cancelled name came from. */
  const [focusNext, setFocusNext] = useState<string | null>(null);
  const panelRef = useRef<HTMLDivElement | null>(null);
  const tree = useMemo(() => buildBoardTree(picker.boards.data ?? []), [picker.boards.data]);
  const shown = useMemo(() => filterTree(tree, search, made), [tree, search, made]);
  const searching = search.trim() !== '';
  const favoritesMatches = !searching || T.favorites.toLowerCase().includes(search.trim().toLowerCase());
  const hasPending = picker.pendingCount > 0;

  useEffect(() => {
    if (focusNext === null) return;
    panelRef.current?.querySelector<HTMLElement>(focusNext)?.focus();
    setFocusNext(null);
  }, [focusNext]);

  const toggleCollapsed = (id: string) =>
    setCollapsed((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const startNaming = (parentId: string | null) => {
    setNamingIn(parentId);
    setNewName('');
    setNameMissing(false);
  };

  const newSubBoard = (parent: BoardNode) => {
    if (!canHoldSubBoard(parent)) {
      // The database would refuse it: say so with the sentence its refusal gets, and make nothing.
      toast.error(T.createFailed.title, { id: `sub-board-depth-${parent.id}`, description: API_ERROR_TEXTS.apiErrors.byCode.board_depth_limit_reached });
      return;
    }
    // The field sits among the board's sub-boards: they show.
    setCollapsed((current) => {
      const next = new Set(current);
      next.delete(parent.id);
      return next;
    });
    startNaming(parent.id);
  };

  const stopNaming = () => {
    setNamingIn(undefined);
    setNewName('');
    setNameMissing(false);
  };

  const cancelNaming = () => {
    const openedFrom = namingIn === undefined ? null : namingIn === null ? '[data-create-board]' : `[data-new-sub-board-in="${namingIn}"]`;
    stopNaming();
    setFocusNext(openedFrom);
  };

  const submitName = async () => {
    if (namingIn === undefined || picker.creating) return;
    if (!newName.trim()) {
      setNameMissing(true);
      return;
    }
    const id = await picker.createAndSelect(newName, namingIn);
    if (id === null) return;
    setMade((current) => new Set(current).add(id));
    stopNaming();
    setFocusNext(`[data-board-id="${id}"]`);
  };

  const nameField = (parent: BoardNode | null) => (
    <BoardNameField
      label={parent ? T.subBoardNameIn(parent.name) : T.boardNamePlaceholder}
      placeholder={parent ? T.subBoardPlaceholder : T.boardNamePlaceholder}
      value={newName}
      onChange={(value) => {
        setNewName(value);
        if (value.trim()) setNameMissing(false);
      }}
      onSubmit={() => void submitName()}
      onCancel={cancelNaming}
      onLeftEmpty={stopNaming}
      busy={picker.creating}
      missing={nameMissing}
    />
  );

  const confirm = async () => {
    if (await picker.confirm()) onConfirmed();
  };

  const favoritesChecked = picker.favoritesId !== null && picker.isChecked(picker.favoritesId);

  return (
    <div ref={panelRef} className="flex h-full min-h-0 flex-col" aria-labelledby={titleId} data-testid="add-to-board-panel">
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
            {/* Where the boards have their + (Favorites holds no boards): the rows stay as wide. */}
            <span className="w-8 shrink-0" aria-hidden="true" />
          </div>
        )}
        {picker.loading ? (
          <p className="px-3 py-6 text-center text-sm text-neutral-500">{T.loadingBoards}</p>
        ) : shown.length === 0 ? (
          <p className="px-3 py-6 text-center text-sm text-neutral-500">{searching ? T.noBoardsFound : T.noBoardsYet}</p>
        ) : (
          <BoardRows
            nodes={shown}
            picker={picker}
            collapsed={collapsed}
            onToggleCollapsed={toggleCollapsed}
            searching={searching}
            namingIn={namingIn}
            onNewSubBoard={newSubBoard}
            renderNameField={nameField}
          />
        )}
      </div>
      <div className="flex items-center gap-2 border-t border-neutral-100 px-4 py-3">
        {namingIn === null ? (
          nameField(null)
        ) : (
          <Button variant="outline" size="sm" onClick={() => startNaming(null)} className="min-w-0" data-create-board="">
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
