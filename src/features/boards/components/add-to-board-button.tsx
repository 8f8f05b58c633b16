import { lazy, Suspense, useId, useRef, useState, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import type { Ad } from '../../../lib/ad-schema.ts';
import { useSession } from '../../../lib/auth-session.tsx';
import { signInWithNextPath } from '../../../lib/auth-redirects.ts';
import { AD_CARD_TEXTS } from '../../../lib/ad-card-texts.ts';
import { BOARD_TEXTS } from '../../../lib/board-texts.ts';
import { BookmarkPlusIcon } from '../../../components/ui/icons.tsx';
import { Popover } from '../../../components/ui/popover.tsx';
import { useIsMobile } from '../../../hooks/use-is-mobile.ts';
import { BOARD_NAME_INPUT_ATTRIBUTE } from './board-name-input.ts';

const AddToBoardSheet = lazy(() => import('./add-to-board-sheet.tsx'));
const loadPicker = () => import('./open-board-picker.tsx');
const OpenBoardPicker = lazy(loadPicker);
/** Hovering or focusing the button fetches the panel's code, so it is there by the click. */
const preloadPicker = () => {
  void loadPicker();
};

/** Popover size on desktop (spec). */
export const PANEL_WIDTH_PX = 320;
export const PANEL_HEIGHT_PX = 500;

const triggerClasses = {
  card: 'inline-flex h-8 w-8 items-center justify-center rounded-lg text-neutral-500 transition-colors hover:bg-neutral-100 hover:text-neutral-950 focus-visible:outline-2 focus-visible:outline-neutral-950 data-[state=open]:bg-neutral-100 data-[state=open]:text-neutral-950',
  detail: 'inline-flex h-10 w-10 items-center justify-center rounded-xl text-neutral-700 transition-colors hover:bg-neutral-100 hover:text-neutral-950 focus-visible:outline-2 focus-visible:outline-neutral-950 data-[state=open]:bg-neutral-100',
};

const keepOpenWhileNaming = (event: KeyboardEvent) => {
  if (document.activeElement?.hasAttribute(BOARD_NAME_INPUT_ATTRIBUTE)) event.preventDefault();
};

function TriggerIcon({ size }: { size: 'card' | 'detail' }) {
  return <BookmarkPlusIcon className={size === 'card' ? 'h-[18px] w-[18px]' : 'h-5 w-5'} />;
}

/**
 * The add-to-board button of an ad card or the ad detail: a 320×500 popover on
 * desktop, a bottom sheet at 85% height on mobile; signed-out visitors go to sign in.
 */
export function AddToBoardButton({ ad, size = 'card' }: { ad: Pick<Ad, 'id'>; size?: 'card' | 'detail' }) {
  const { user } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const narrow = useIsMobile();
  const [open, setOpen] = useState(false);
  const titleId = useId();
  const sheetTriggerRef = useRef<HTMLButtonElement | null>(null);
  // Once opened, the sheet stays mounted so that closing slides it away.
  const [sheetOpened, setSheetOpened] = useState(false);
  if (open && narrow && !sheetOpened) setSheetOpened(true);
  // The panel (OpenPicker, with its pending changes) exists only while open: closing any way but Confirm discards them.
  const label = AD_CARD_TEXTS.adCard.addToBoard;
  if (!user) {
    return (
      <button type="button" className={triggerClasses[size]} aria-label={label} title={label} onClick={() => navigate(signInWithNextPath(location))}>
        <TriggerIcon size={size} />
      </button>
    );
  }

  const panel = (renderTitle: (text: string) => ReactNode) => (
    // The popover and the sheet have a fixed size: while the panel's code arrives they say what the panel says while
    // its boards arrive, and nothing shifts.
    <Suspense fallback={<p className="px-3 py-6 text-center text-sm text-neutral-500">{BOARD_TEXTS.boards.loadingBoards}</p>}>
      <OpenBoardPicker adId={ad.id} userId={user.id} titleId={titleId} onClose={() => setOpen(false)} renderTitle={renderTitle} />
    </Suspense>
  );
  const titleClasses = 'truncate text-base font-semibold text-neutral-950';

  if (narrow) {
    return (
      <>
        <button
          ref={sheetTriggerRef}
          type="button"
          className={triggerClasses[size]}
          aria-label={label}
          title={label}
          aria-haspopup="dialog"
          aria-expanded={open}
          data-state={open ? 'open' : 'closed'}
          onClick={() => setOpen(!open)}
          onPointerEnter={preloadPicker}
          onFocus={preloadPicker}
        >
          <TriggerIcon size={size} />
        </button>
        {sheetOpened && (
          <Suspense fallback={null}>
            <AddToBoardSheet
              open={open}
              onOpenChange={setOpen}
              triggerRef={sheetTriggerRef}
              onEscapeKeyDown={keepOpenWhileNaming}
              renderPanel={panel}
              titleId={titleId}
              titleClasses={titleClasses}
            />
          </Suspense>
        )}
      </>
    );
  }

  return (
    <Popover
      open={open}
      onOpenChange={setOpen}
      // A card in the grid's first column opens it inside the page, not over the sidebar and its Upgrade Plan.
      keepInsideBoundary
      renderTrigger={(trigger) => (
        <button {...trigger} className={triggerClasses[size]} aria-label={label} title={label} onPointerEnter={preloadPicker} onFocus={preloadPicker}>
          <TriggerIcon size={size} />
        </button>
      )}
      content={{
        role: 'dialog',
        'aria-labelledby': titleId,
        align: 'end',
        sideOffset: 6,
        collisionPadding: 12,
        onEscapeKeyDown: keepOpenWhileNaming,
        style: { width: PANEL_WIDTH_PX, height: PANEL_HEIGHT_PX, maxHeight: 'var(--radix-popover-content-available-height)' },
        className: 'z-50 flex flex-col overflow-hidden rounded-2xl border border-neutral-200 bg-white shadow-2xl outline-none',
        'data-testid': 'add-to-board-popover',
      }}
    >
      {panel((text) => (
        <h2 id={titleId} className={titleClasses}>
          {text}
        </h2>
      ))}
    </Popover>
  );
}
