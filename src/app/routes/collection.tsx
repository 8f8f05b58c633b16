import { useState } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router-dom';
import { errorTextOf } from '../../lib/api-error.ts';
import { toast } from '../../lib/toast.ts';
import { AdGrid } from '../../components/ads/ad-grid.tsx';
import { buttonClasses } from '../../components/ui/button.tsx';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';
import { ErrorBoundary } from '../../components/ui/error-boundary.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import type { Ad } from '../../lib/ad-schema.ts';
import { useSession } from '../../lib/auth-session.tsx';
import { BOARD_TEXTS } from '../../lib/board-texts.ts';
import { LIBRARY_TEXTS } from '../../lib/library-texts.ts';
import { useUpgradeFlow } from '../../features/billing/hooks/use-upgrade-flow.ts';
import { useRemoveFromBoard } from '../../features/boards/api/list-collection-ads.ts';
import { useBoards } from '../../features/boards/api/list-boards.ts';
import { BoardHeader } from '../../features/boards/components/board-header.tsx';
import { useBoardAds } from '../../features/boards/hooks/use-board-ads.ts';
import { SiteLayout } from '../layout/site-layout.tsx';
import { MAIN_CONTENT_ID } from '../../lib/constants.ts';

const T = BOARD_TEXTS.boards.collectionPage;

function BoardNotFound() {
  return (
    <main id={MAIN_CONTENT_ID} className="flex min-h-[50vh] flex-col items-center justify-center gap-4 px-6 py-16 text-center">
      <p className="text-[15px] text-neutral-600">{T.notFound}</p>
      <Link to="/library" className={buttonClasses('outline', 'md')}>
        {T.backToLibrary}
      </Link>
    </main>
  );
}

/** /collection/{id}: one of the user's boards, its ads newest saved first, with board management. */
export function CollectionPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const { user, loading } = useSession();
  const userId = user?.id ?? null;
  const boards = useBoards(userId);
  const board = boards.data?.find((row) => row.id === id && !row.is_system) ?? null;
  const knownMissing = boards.isSuccess && board === null;
  const { gridProps, notFound } = useBoardAds(userId && !knownMissing ? id : null);
  const startUpgrade = useUpgradeFlow();
  const removal = useRemoveFromBoard();
  const [adToRemove, setAdToRemove] = useState<Ad | null>(null);

  useDocumentTitle(board ? T.documentTitle(board.name) : T.fallbackDocumentTitle);

  if (loading) return null;
  // The spec sends signed-out visitors of a board to plain sign-in.
  if (!user) return <Navigate to="/auth/signin" replace />;

  const remove = () => {
    if (!adToRemove) return;
    removal.mutate(
      { boardId: id, adId: adToRemove.id },
      {
        onSuccess: () => {
          toast.success(T.removed.title, { description: T.removed.description });
          setAdToRemove(null);
        },
        onError: (error) => toast.error(T.removeFailed.title, { description: errorTextOf(error) }),
      },
    );
  };

  return (
    <SiteLayout>
      {knownMissing || notFound ? (
        <BoardNotFound />
      ) : (
        <main id={MAIN_CONTENT_ID} className="mx-auto max-w-[1600px] px-4 pt-6 pb-12 sm:px-6 sm:pt-8 lg:px-8">
          {board && boards.data && userId ? (
            <BoardHeader board={board} boards={boards.data} userId={userId} onDeleted={(parentId) => navigate(parentId ? `/collection/${parentId}` : '/favorites', { replace: true })} />
          ) : (
            <div className="mb-6 h-10 w-48 animate-pulse rounded-lg bg-neutral-200" aria-hidden="true" />
          )}
          <ErrorBoundary fallback={<p className="py-20 text-center text-neutral-600">{LIBRARY_TEXTS.library.renderError}</p>}>
            <AdGrid
              {...gridProps}
              status={board ? gridProps.status : 'pending'}
              emptyText={T.empty(board?.name ?? '')}
              onLockedClick={startUpgrade}
              onDelete={setAdToRemove}
              deleteLabel={T.removeAd}
            />
          </ErrorBoundary>
          <ConfirmDialog
            open={adToRemove !== null}
            onOpenChange={(open) => !open && setAdToRemove(null)}
            title={T.removeTitle}
            message={T.removeConfirm}
            confirmLabel={T.remove}
            cancelLabel={T.cancel}
            destructive
            pending={removal.isPending}
            onConfirm={remove}
          />
        </main>
      )}
    </SiteLayout>
  );
}
