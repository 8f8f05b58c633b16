import { useEffect, useRef, type CSSProperties, type ReactNode, type TouchEvent } from 'react';
import { Link } from 'react-router-dom';
import { useAddToBoardSlot } from '../../../components/ads/add-to-board-slot.tsx';
import { VideoDurationBadge } from '../../../components/ads/ad-card-video.tsx';
import { AdImage } from '../../../components/ads/ad-image.tsx';
import { AdDetailVideo } from './ad-detail-video.tsx';
import { BrandMark } from '../../../components/ads/brand-mark.tsx';
import { Button, buttonClasses } from '../../../components/ui/button.tsx';
import { ChevronLeftIcon, ChevronRightIcon, CloseIcon, DownloadIcon, HeartIcon, LockIcon, ShareIcon } from '../../../components/ui/icons.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { useIsMobile } from '../../../hooks/use-is-mobile.ts';
import { isClear, playableVideoUrl, type Ad } from '../../../lib/ad-schema.ts';
import { formatDate } from '../../../lib/formatting.ts';
import { AD_DETAIL_TEXTS } from '../../../lib/ad-detail-texts.ts';
import { AD_CARD_TEXTS } from '../../../lib/ad-card-texts.ts';
import { SHELL_TEXTS } from '../../../lib/shell-texts.ts';
import { AdFactsSection, hasFacts } from './ad-facts-section.tsx';
import { MoreLikeThis } from './more-like-this.tsx';
import { PromoCard } from './promo-card.tsx';

export interface AdDetailViewProps {
  /** undefined while loading, null when there is no such ad. */
  ad: Ad | null | undefined;
  failed: boolean;
  canNavigate: boolean;
  /** False until the neighbours are known. */
  neighboursReady: boolean;
  onPrevious: () => void;
  onNext: () => void;
  onClose: () => void;
  isFavorite: boolean;
  favoritePending: boolean;
  onToggleFavorite: () => void;
  onShare: () => void;
  /** Set for viewers with valid access: downloads the original. */
  onDownload?: () => void;
  downloadPending?: boolean;
  onUnlock: () => void;
  onRetry: () => void;
  touchHandlers: { onTouchStart: (event: TouchEvent) => void; onTouchEnd: (event: TouchEvent) => void };
  /** The words of the search the ad was found with, marked in its texts. */
  highlight?: readonly string[];
  /** The accessible title element (a dialog title when shown as a modal). */
  renderTitle: (text: string, className: string) => ReactNode;
}

const headerButton =
  'inline-flex h-10 w-10 items-center justify-center rounded-xl text-neutral-700 transition-colors hover:bg-neutral-100 hover:text-neutral-950 focus-visible:outline-2 focus-visible:outline-neutral-950 disabled:opacity-50';

/** Image width: the column's, at most 960 px, and no taller than the viewport leaves room for (less the bar under 768 px). */
function imageWidth(ad: Ad, compact: boolean): string {
  return `min(100%, 960px, calc((100dvh - ${compact ? '15rem' : '11rem'}) * ${ad.width / ad.height}))`;
}

/** The full-screen ad: brand and category links, favorite, share, close, the large image, its tags and its facts. */
export function AdDetailView(props: AdDetailViewProps) {
  const { ad, failed, canNavigate, neighboursReady, onPrevious, onNext, onClose, touchHandlers, renderTitle, highlight = [] } = props;
  const brand = ad?.brand_name ?? AD_CARD_TEXTS.adCard.unknownBrand;
  const category = ad?.category_name ?? AD_CARD_TEXTS.adCard.unknownCategory;
  const addToBoard = useAddToBoardSlot();
  // Another ad (an arrow, a similar ad) starts at its top.
  const mainRef = useRef<HTMLElement | null>(null);
  const adId = ad?.id;
  useEffect(() => {
    if (mainRef.current) mainRef.current.scrollTop = 0;
  }, [adId]);

  // Under 768 px the ad's actions and the arrows take a bar under the page, so the header keeps its width for the brand
  // and the arrows never float over the facts; from 768 px the actions sit in the header and the arrows beside the image.
  const compact = useIsMobile();
  const actions = ad && (
    <>
      {addToBoard?.(ad, 'detail')}
      <button
        type="button"
        className={`${headerButton} ${props.isFavorite ? 'text-rose-600 hover:text-rose-700' : ''}`}
        aria-pressed={props.isFavorite}
        aria-label={props.isFavorite ? AD_DETAIL_TEXTS.adDetail.unfavorite : AD_DETAIL_TEXTS.adDetail.favorite}
        title={props.isFavorite ? AD_DETAIL_TEXTS.adDetail.unfavorite : AD_DETAIL_TEXTS.adDetail.favorite}
        disabled={props.favoritePending}
        onClick={props.onToggleFavorite}
      >
        <HeartIcon filled={props.isFavorite} className="h-5 w-5" />
      </button>
      {props.onDownload && isClear(ad) && (
        <button
          type="button"
          className={headerButton}
          aria-label={AD_DETAIL_TEXTS.adDetail.download}
          title={AD_DETAIL_TEXTS.adDetail.download}
          disabled={props.downloadPending}
          onClick={props.onDownload}
        >
          <DownloadIcon className="h-5 w-5" />
        </button>
      )}
      <button type="button" className={headerButton} aria-label={AD_DETAIL_TEXTS.adDetail.share} title={AD_DETAIL_TEXTS.adDetail.share} onClick={props.onShare}>
        <ShareIcon className="h-5 w-5" />
      </button>
    </>
  );
  const navigation = canNavigate && ad ? (side: 'previous' | 'next') => (
    <NavigationButton side={side} placement={compact ? 'bar' : 'beside'} disabled={!neighboursReady} onClick={side === 'previous' ? onPrevious : onNext} />
  ) : null;

  return (
    <div className="fixed inset-0 z-40 flex flex-col bg-neutral-50" data-testid="ad-detail" data-ad-id={adId}>
      <header className="flex h-16 shrink-0 items-center gap-3 border-b border-neutral-200/80 bg-white px-3 sm:px-5">
        {ad ? (
          <>
            <BrandMark name={brand} logoPath={ad.brand_logo_path} size="md" />
            <div className="min-w-0 flex-1 leading-tight">
              {renderTitle(`${brand} ad`, 'sr-only')}
              <Link
                to={`/library?brand=${encodeURIComponent(brand)}`}
                // Two lines before any name is cut, the category under it.
                className="line-clamp-2 text-[15px] font-semibold break-words text-neutral-950 hover:underline"
              >
                {brand}
              </Link>
              <Link
                to={`/library?category=${encodeURIComponent(category)}`}
                className="block truncate text-[13px] text-neutral-500 hover:text-neutral-900 hover:underline"
              >
                {category}
              </Link>
            </div>
          </>
        ) : (
          <div className="flex min-w-0 flex-1 items-center gap-3">
            {renderTitle(ad === null ? SHELL_TEXTS.toasts.notFound.title : AD_DETAIL_TEXTS.adDetail.loading, 'sr-only')}
            {ad === undefined && !failed && (
              <>
                <Skeleton className="h-9 w-9 rounded-full" />
                <div className="space-y-1.5">
                  <Skeleton className="h-3.5 w-28 rounded" />
                  <Skeleton className="h-3 w-20 rounded" />
                </div>
              </>
            )}
          </div>
        )}
        <div className="flex shrink-0 items-center gap-1">
          {actions && !compact && (
            <>
              {actions}
              <span className="mx-1 h-6 w-px bg-neutral-200" aria-hidden="true" />
            </>
          )}
          <button type="button" className={headerButton} aria-label={AD_DETAIL_TEXTS.adDetail.close} title={AD_DETAIL_TEXTS.adDetail.close} onClick={onClose}>
            <CloseIcon className="h-5 w-5" />
          </button>
        </div>
      </header>

      <main ref={mainRef} className="relative flex-1 overflow-y-auto overscroll-contain" {...touchHandlers}>
        {ad === null ? (
          <div className="flex h-full flex-col items-center justify-center gap-4 px-6 text-center">
            <p className="text-lg font-semibold text-neutral-950">{SHELL_TEXTS.toasts.notFound.title}</p>
            <p className="text-neutral-600">{AD_DETAIL_TEXTS.adDetail.notFound}</p>
            <Link to="/library" className={buttonClasses('primary', 'md')}>
              {AD_DETAIL_TEXTS.adDetail.backToLibrary}
            </Link>
          </div>
        ) : ad === undefined ? (
          <div className="flex h-full flex-col items-center justify-center gap-4 p-6">
            {failed ? (
              <>
                <p className="text-neutral-600">{AD_DETAIL_TEXTS.adDetail.loadError}</p>
                <Button variant="outline" onClick={props.onRetry}>
                  {AD_DETAIL_TEXTS.adDetail.tryAgain}
                </Button>
              </>
            ) : (
              <Skeleton className="aspect-[4/5] w-full max-w-md rounded-2xl" />
            )}
          </div>
        ) : (
          <div className="flex min-h-full flex-col items-center px-3 pt-4 pb-4 sm:px-6 sm:py-6 md:px-20">
            <div
              className="my-auto flex w-full flex-col items-center gap-3 lg:flex-row lg:items-start lg:justify-center lg:gap-5"
              style={{ '--ad-column': imageWidth(ad, compact) } as CSSProperties}
            >
              <div className="flex w-(--ad-column) flex-col gap-3 lg:w-[min(var(--ad-column),calc(100%-22.5rem))]">
                <div className="relative overflow-hidden rounded-2xl bg-white shadow-[0_12px_40px_-12px_rgba(0,0,0,0.25)] ring-1 ring-neutral-950/5">
                  {isClear(ad) && playableVideoUrl(ad) ? (
                    <AdDetailVideo key={ad.id} ad={ad} url={playableVideoUrl(ad)!} poster={ad.display_960_url} />
                  ) : (
                    <AdImage
                      key={ad.id}
                      ad={ad}
                      sizes="(max-width: 1023px) 100vw, 960px"
                      fallbackWidth={960}
                      eager
                      highPriority
                      overlay={typeof ad.video_duration_ms === 'number' ? <VideoDurationBadge ms={ad.video_duration_ms} /> : null}
                    />
                  )}
                  {!isClear(ad) && (
                    <div className="absolute inset-0 flex flex-col items-center justify-center gap-3 bg-neutral-950/15 p-6 text-center">
                      <span className="inline-flex h-12 w-12 items-center justify-center rounded-full bg-white text-neutral-950 shadow-lg">
                        <LockIcon className="h-5 w-5" />
                      </span>
                      <div className="rounded-2xl bg-white/95 px-5 py-4 shadow-lg backdrop-blur">
                        <p className="font-semibold text-neutral-950">{AD_DETAIL_TEXTS.adDetail.lockedTitle}</p>
                        <p className="mt-1 text-sm text-neutral-600">{AD_DETAIL_TEXTS.adDetail.lockedBody}</p>
                        <Button className="mt-3" onClick={props.onUnlock}>
                          {AD_DETAIL_TEXTS.adDetail.unlock}
                        </Button>
                      </div>
                    </div>
                  )}
                </div>
                <AdTags ad={ad} />
                {!canNavigate && <PromoCard />}
              </div>
              {ad.facts === undefined ? (
                // A list's copy carries no facts: their column is kept beside the image until get_ad brings them, so the image does not move.
                !failed && (
                  <div className="hidden lg:block lg:w-[340px] lg:shrink-0" aria-hidden="true">
                    <Skeleton className="h-72 w-full rounded-2xl" />
                  </div>
                )
              ) : (
                hasFacts(ad.facts) && (
                // Beside the image from 1024 px, under it on narrower screens.
                  <div className="w-(--ad-column) lg:sticky lg:top-0 lg:w-[340px] lg:shrink-0">
                    <AdFactsSection facts={ad.facts} highlight={highlight} />
                  </div>
                )
              )}
            </div>
            <MoreLikeThis adId={ad.id} onLockedClick={props.onUnlock} />
          </div>
        )}
        {navigation && !compact && (
          <>
            {navigation('previous')}
            {navigation('next')}
          </>
        )}
      </main>
      {compact && actions && (
        <div
          data-testid="ad-detail-bar"
          className="flex shrink-0 items-center justify-between gap-2 border-t border-neutral-200/80 bg-white px-2 pt-2 pb-[max(0.5rem,env(safe-area-inset-bottom))]"
        >
          {navigation?.('previous')}
          <div className={`flex items-center gap-1 ${navigation ? '' : 'flex-1 justify-evenly'}`}>{actions}</div>
          {navigation?.('next')}
        </div>
      )}
    </div>
  );
}

function NavigationButton({
  side,
  placement,
  disabled,
  onClick,
}: {
  side: 'previous' | 'next';
  /** 'bar': in the bar under the page (under 768 px); 'beside': fixed at the window's sides, beside the image. */
  placement: 'bar' | 'beside';
  disabled: boolean;
  onClick: () => void;
}) {
  const label = side === 'previous' ? AD_DETAIL_TEXTS.adDetail.previous : AD_DETAIL_TEXTS.adDetail.next;
  const where =
    placement === 'bar'
      ? 'h-11 w-11 shrink-0 bg-white hover:bg-neutral-100'
      : `fixed top-1/2 z-10 h-12 w-12 -translate-y-1/2 bg-white/95 shadow-lg backdrop-blur hover:scale-105 hover:bg-white ${side === 'previous' ? 'left-5' : 'right-5'}`;
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      disabled={disabled}
      onClick={onClick}
      className={`inline-flex items-center justify-center rounded-full text-neutral-900 ring-1 ring-neutral-950/10 transition disabled:opacity-40 ${where}`}
    >
      {side === 'previous' ? <ChevronLeftIcon className="h-5 w-5" /> : <ChevronRightIcon className="h-5 w-5" />}
    </button>
  );
}

/** The ad's type and tags, and the day it was added. */
function AdTags({ ad }: { ad: Ad }) {
  const chips = [ad.type_name, ...ad.tag_names].filter((name): name is string => Boolean(name));
  return (
    <div className="flex flex-wrap items-center gap-1.5 text-xs">
      {chips.map((name) => (
        <span key={name} className="rounded-full border border-neutral-200 bg-white px-2.5 py-1 font-medium text-neutral-700">
          {name}
        </span>
      ))}
      <span className="ml-auto text-neutral-500">{AD_DETAIL_TEXTS.adDetail.added(formatDate(ad.created_at))}</span>
    </div>
  );
}
