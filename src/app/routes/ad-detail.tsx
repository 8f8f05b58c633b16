import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import * as RadixDialog from '@radix-ui/react-dialog';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate, useParams } from 'react-router-dom';
import { toast } from '../../lib/toast.ts';
import { focusAdCard } from '../../components/ads/ad-card-focus.ts';
import { ShareDialog } from '../../components/share-dialog.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { useSession } from '../../lib/auth-session.tsx';
import { signInWithNextPath, signUpWithNextPath } from '../../lib/auth-redirects.ts';
import { AD_DETAIL_TEXTS } from '../../lib/ad-detail-texts.ts';
import { AD_CARD_TEXTS } from '../../lib/ad-card-texts.ts';
import { SHELL_TEXTS } from '../../lib/shell-texts.ts';
import { AdGateModal } from '../../features/ad-gate/components/ad-gate-modal.tsx';
import { useAdViewGate } from '../../features/ad-gate/hooks/use-ad-view-gate.ts';
import { adQueryOptions, useAd } from '../../features/ad-detail/api/get-ad.ts';
import { adNeighboursQueryOptions, useAdNeighbours, type AdNeighbours } from '../../features/ad-detail/api/get-ad-neighbours.ts';
import { useDownloadOriginal } from '../../features/ad-detail/api/download-original.ts';
import { AdDetailView } from '../../features/ad-detail/components/ad-detail-view.tsx';
import { isCovered, useAdNavigationInput } from '../../features/ad-detail/hooks/use-ad-navigation-input.ts';
import { useArrowPosition } from '../../features/ad-detail/hooks/use-arrow-position.ts';
import { useFavorite } from '../../features/ad-detail/hooks/use-favorite.ts';
import { searchWords } from '../../features/ad-detail/lib/highlight.ts';
import { filteredLibraryListHolding, neighbourIn, nextAfterLoadingMore } from '../../features/library/lib/list-neighbours.ts';
import { useEntitlement } from '../../features/billing/hooks/use-entitlement.tsx';
import { useUpgradeFlow } from '../../features/billing/hooks/use-upgrade-flow.ts';

/** The search the ad was found with: the list's `q` under a modal, else the page's own. */
function searchOf(location: { search: string; state: unknown }): string {
  const background = (location.state as { backgroundLocation?: { search?: unknown } } | null)?.backgroundLocation;
  const search = typeof background?.search === 'string' ? background.search : location.search;
  return new URLSearchParams(search).get('q') ?? '';
}

/**
 * /ads/{id}: a modal over the list it was opened from (the list's location is in
 * the navigation state), otherwise a page of its own. Over a filtered, searched
 * or re-ordered library the arrows walk that list; otherwise the whole library,
 * newest first, as the server gives the neighbours.
 */
export function AdDetailRoute({ mode }: { mode: 'modal' | 'page' }) {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const { session, loading: sessionLoading } = useSession();
  const { hasValidAccess } = useEntitlement();
  const startUpgrade = useUpgradeFlow();
  const [shareOpen, setShareOpen] = useState(false);

  const adQuery = useAd(id);
  const ad = adQuery.data;
  // Looked up again on every move: the list under the modal stays mounted and keeps its pages.
  const inFilteredList = hasValidAccess && filteredLibraryListHolding(queryClient, id) !== null;
  const neighbours = useAdNeighbours(id, hasValidAccess && !inFilteredList);
  const search = searchOf(location);
  const highlight = useMemo(() => searchWords(search), [search]);
  const gate = useAdViewGate(ad && ad.id === id ? { id, clear: ad.is_clear } : null, !sessionLoading && !session);
  const favorite = useFavorite(id, session?.user.id ?? null);
  const downloadOriginal = useDownloadOriginal();

  const brandName = ad ? (ad.brand_name ?? AD_CARD_TEXTS.adCard.unknownBrand) : null;
  useDocumentTitle(
    brandName ? AD_DETAIL_TEXTS.adDetail.documentTitle(brandName) : AD_DETAIL_TEXTS.adDetail.fallbackDocumentTitle,
    brandName ? `A ${brandName} ad creative${ad?.category_name ? ` (${ad.category_name})` : ''} in Obyect's library of winning direct-to-consumer ads.` : undefined,
  );

  useEffect(() => {
    if (ad === null) toast.error(SHELL_TEXTS.toasts.notFound.title, { id: 'ad-not-found', description: SHELL_TEXTS.toasts.notFound.description });
  }, [ad]);

  // The neighbours' data is fetched ahead, so moving through ads shows them at once.
  const previousId = neighbours.data?.previous_id ?? null;
  const nextId = neighbours.data?.next_id ?? null;
  useEffect(() => {
    for (const neighbour of [previousId, nextId]) {
      if (!neighbour) continue;
      void queryClient.prefetchQuery(adQueryOptions(neighbour));
      void queryClient.prefetchQuery(adNeighboursQueryOptions(neighbour));
    }
  }, [queryClient, previousId, nextId]);

  const position = useArrowPosition(id);

  // Focus goes back to the list on close: to the card of the ad last shown
  // (the one the last move went to, even if closed before it rendered) when
  // the list has it, else to what opened the detail.
  const openedWith = useRef(id);
  const opener = useRef<HTMLElement | null>(null);
  const returnFocus = useCallback(
    (event: Event) => {
      event.preventDefault();
      if (focusAdCard(position.current())) return;
      if (opener.current?.isConnected) opener.current.focus({ preventScroll: true });
      else focusAdCard(openedWith.current);
    },
    [position],
  );

  const close = useCallback(() => {
    if (mode === 'modal') navigate(-1);
    else navigate('/library');
  }, [mode, navigate]);

  // Each press moves one ad on from where the last one went (useArrowPosition).
  const step = useCallback(
    (direction: 'previous' | 'next') => {
      const from = position.current();
      const go = (target: string | null | undefined) => {
        if (!target || target === from || position.current() !== from) return;
        position.moveTo(target);
        navigate(`/ads/${target}`, { replace: true, state: location.state, preventScrollReset: true });
      };
      const list = filteredLibraryListHolding(queryClient, from);
      if (list) {
        const target = neighbourIn(list, from, direction);
        if (target === 'load-more') void nextAfterLoadingMore(queryClient, list, from).then(go, () => undefined);
        else go(target);
        return;
      }
      // A press that comes before the ad's neighbours are known waits for them rather than being lost.
      const pick = (neighbours: AdNeighbours) => (direction === 'previous' ? neighbours.previous_id : neighbours.next_id);
      const known = queryClient.getQueryData(adNeighboursQueryOptions(from).queryKey);
      if (known) go(pick(known));
      else void queryClient.fetchQuery(adNeighboursQueryOptions(from)).then((neighbours) => go(pick(neighbours)), () => undefined);
    },
    [queryClient, navigate, location.state, position],
  );
  const onPrevious = useCallback(() => step('previous'), [step]);
  const onNext = useCallback(() => step('next'), [step]);
  const canNavigate = hasValidAccess && ad !== null;
  const touchHandlers = useAdNavigationInput({ enabled: canNavigate, onPrevious, onNext, ownDialogs: mode === 'modal' ? 1 : 0 });

  // As a page, Escape closes too (the modal's Escape is the dialog's own).
  useEffect(() => {
    if (mode !== 'page') return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !isCovered(0)) close();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [mode, close]);

  const toggleFavorite = () => {
    if (!session) navigate(signInWithNextPath(location));
    else favorite.toggle();
  };

  const view = (
    <AdDetailView
      ad={ad}
      failed={adQuery.isError}
      canNavigate={canNavigate}
      neighboursReady={inFilteredList || (neighbours.isSuccess && !neighbours.isFetching)}
      highlight={highlight}
      onPrevious={onPrevious}
      onNext={onNext}
      onClose={close}
      isFavorite={favorite.isFavorite}
      favoritePending={favorite.pending}
      onToggleFavorite={toggleFavorite}
      onShare={() => setShareOpen(true)}
      onDownload={
        hasValidAccess
          ? () =>
              downloadOriginal.mutate(id, {
                onError: () => toast.error(AD_DETAIL_TEXTS.adDetail.downloadFailed.title, { description: AD_DETAIL_TEXTS.adDetail.downloadFailed.description }),
              })
          : undefined
      }
      downloadPending={downloadOriginal.isPending}
      onUnlock={startUpgrade}
      onRetry={() => void adQuery.refetch()}
      touchHandlers={touchHandlers}
      renderTitle={(text, className) =>
        mode === 'modal' ? (
          <RadixDialog.Title className={className}>{text}</RadixDialog.Title>
        ) : (
          <h1 className={className}>{text}</h1>
        )
      }
    />
  );

  const dialogs = (
    <>
      <ShareDialog
        open={shareOpen}
        onOpenChange={setShareOpen}
        url={`${window.location.origin}/ads/${id}`}
        title={ad ? `${ad.brand_name ?? AD_CARD_TEXTS.adCard.unknownBrand} ad` : 'Ad'}
        copiedDescription={SHELL_TEXTS.toasts.linkCopied.adDescription}
      />
      <AdGateModal
        open={gate.isOpen}
        onOpenChange={(open) => (open ? gate.open() : gate.close())}
        onCreateAccount={() => (session ? startUpgrade() : navigate(signUpWithNextPath(location)))}
        signInPath={signInWithNextPath(location)}
      />
    </>
  );

  if (mode === 'page') {
    return (
      <>
        {view}
        {dialogs}
      </>
    );
  }

  return (
    <RadixDialog.Root open onOpenChange={(open) => !open && close()}>
      <RadixDialog.Portal>
        <RadixDialog.Content
          aria-describedby={undefined}
          className="fixed inset-0 z-40 focus:outline-none"
          // The dialog itself takes focus, so no control looks selected on open.
          onOpenAutoFocus={(event) => {
            const active = document.activeElement;
            opener.current = active instanceof HTMLElement && active !== document.body ? active : null;
            event.preventDefault();
            (event.currentTarget as HTMLElement | null)?.focus();
          }}
          onCloseAutoFocus={returnFocus}
        >
          {view}
          {dialogs}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
