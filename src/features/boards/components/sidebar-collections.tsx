import { useState } from 'react';
import { Link, NavLink } from 'react-router-dom';
import { ChevronDownIcon, ChevronRightIcon } from '../../../components/ui/icons.tsx';
import { useSession } from '../../../lib/auth-session.tsx';
import { BOARD_TEXTS } from '../../../lib/board-texts.ts';
import { buildBoardTree, useBoards, type BoardNode } from '../api/list-boards.ts';
import { FolderIcon } from './board-icons.tsx';

const T = BOARD_TEXTS.boards;
/** Sub-boards indent this much per level, up to a few levels, so deep trees stay readable in the sidebar. */
const INDENT_PX = 12;
const MAX_INDENT_LEVELS = 6;

const boardLink = ({ isActive }: { isActive: boolean }) =>
  `flex min-w-0 flex-1 items-center gap-2 rounded-lg px-2 py-1.5 text-sm transition-colors ${
    isActive ? 'bg-neutral-100 font-medium text-neutral-950' : 'text-neutral-600 hover:bg-neutral-50 hover:text-neutral-950'
  }`;

function BoardLinks({ nodes }: { nodes: BoardNode[] }) {
  return (
    <ul className="space-y-0.5">
      {nodes.map((node) => (
        <li key={node.id}>
          <div style={{ paddingLeft: Math.min(node.depth, MAX_INDENT_LEVELS) * INDENT_PX }}>
            <NavLink to={`/collection/${node.id}`} className={boardLink} title={node.name}>
              <FolderIcon className="h-4 w-4 shrink-0 text-neutral-400" />
              <span className="truncate">{node.name}</span>
            </NavLink>
          </div>
          {node.children.length > 0 && <BoardLinks nodes={node.children} />}
        </li>
      ))}
    </ul>
  );
}

/**
 * The signed-in user's boards in the sidebar: a collapsible 'Collections' list,
 * open by default, nested, Favorites left out, kept live through Realtime
 * (BoardsLiveUpdates, at the app's root).
 * Collapsed (icon-only sidebar), each top-level board shows as its initial.
 */
export function SidebarCollections({ collapsed }: { collapsed: boolean }) {
  const { user } = useSession();
  const userId = user?.id ?? null;
  const boards = useBoards(userId);
  const [open, setOpen] = useState(true);

  if (userId === null) return null;
  const tree = boards.data ? buildBoardTree(boards.data, { hideNamedFavorites: true }) : [];

  if (collapsed) {
    return (
      <nav aria-label={T.sidebarCollections} className="flex flex-col items-center gap-1">
        {tree.map((node) => (
          <Link
            key={node.id}
            to={`/collection/${node.id}`}
            title={node.name}
            aria-label={node.name}
            className="flex h-9 w-9 items-center justify-center rounded-lg bg-neutral-100 text-xs font-semibold uppercase text-neutral-700 hover:bg-neutral-200"
          >
            {node.name.slice(0, 1)}
          </Link>
        ))}
      </nav>
    );
  }

  return (
    <section aria-label={T.sidebarCollections} className="min-w-0">
      <button
        type="button"
        aria-expanded={open}
        onClick={() => setOpen((value) => !value)}
        className="flex w-full items-center gap-1.5 rounded-lg px-2 py-1.5 text-sm font-medium text-neutral-700 hover:bg-neutral-50 hover:text-neutral-950"
      >
        {open ? <ChevronDownIcon className="h-4 w-4 text-neutral-400" /> : <ChevronRightIcon className="h-4 w-4 text-neutral-400" />}
        {T.sidebarCollections}
      </button>
      {open && (
        <div className="mt-0.5 pl-2">
          {boards.isPending ? (
            <p className="px-2 py-1.5 text-sm text-neutral-500">{T.sidebarLoading}</p>
          ) : tree.length === 0 ? (
            <p className="px-2 py-1.5 text-sm text-neutral-500">{T.noCollections}</p>
          ) : (
            <BoardLinks nodes={tree} />
          )}
        </div>
      )}
    </section>
  );
}
