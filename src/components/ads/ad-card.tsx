import { lazy, memo, Suspense, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { isClear, playableVideoUrl, videoDurationLabel, type Ad } from '../../lib/ad-schema.ts';
import { AD_CARD_TEXTS } from '../../lib/ad-card-texts.ts';
import { BookmarkPlusIcon, LockIcon, TrashIcon } from '../ui/icons.tsx';
import { useAddToBoardSlot } from './add-to-board-slot.tsx';
import { AdCardFacts } from './ad-card-facts.tsx';
import { VideoDurationBadge } from './ad-card-video.tsx';
import { AdImage } from './ad-image.tsx';
import { BrandMark } from './brand-mark.tsx';

/** The player of a clear video card, loaded with the first such card: most cards are images, and most visitors' first page has no clear video. */
const AdCardVideo = lazy(() => import('./ad-card-video-player.tsx'));

export interface AdCardActions {
  /** A locked card starts the upgrade flow instead of opening. */
  onLockedClick: (ad: Ad) => void;
  onAddToBoard?: (ad: Ad) => void;
  /** Replaces the add-to-board button, e.g. with one that anchors a board picker. */
  renderAddToBoard?: (ad: Ad) => ReactNode;
  /** Given only where the page enables delete and the viewer is an admin. */
  onDelete?: (ad: Ad) => void;
  /** The delete button's label where deleting means something narrower (a board's "remove"). */
  deleteLabel?: string;
}

interface AdCardProps extends AdCardActions {
  ad: Ad;
  sizes: string;
  eager: boolean;
  highPriority: boolean;
}

/** The card's side borders (1 px each): its image is this much narrower than the card. */
export const AD_CARD_IMAGE_INSET_X = 2;

const iconButton =
  'inline-flex h-8 w-8 items-center justify-center rounded-lg text-neutral-500 transition-colors hover:bg-neutral-100 hover:text-neutral-950 focus-visible:outline-2 focus-visible:outline-neutral-950';

/**
 * One ad in a grid: brand, category, image with the ad's running days and platforms over it; opens the ad when clear, starts the
 * upgrade flow when locked. Memoised: scrolling the virtual grid re-renders the
 * grid, and the cards that stay in view keep their props.
 */
export const AdCard = memo(function AdCard({ ad, sizes, eager, highPriority, onLockedClick, onAddToBoard, renderAddToBoard, onDelete, deleteLabel = AD_CARD_TEXTS.adCard.delete }: AdCardProps) {
  const location = useLocation();
  const slot = useAddToBoardSlot();
  const brand = ad.brand_name ?? AD_CARD_TEXTS.adCard.unknownBrand;
  const category = ad.category_name ?? AD_CARD_TEXTS.adCard.unknownCategory;
  const clear = isClear(ad);
  const videoUrl = playableVideoUrl(ad);
  const videoLength = typeof ad.video_duration_ms === 'number' ? videoDurationLabel(ad.video_duration_ms) : null;
  const overlay =
    typeof ad.video_duration_ms === 'number' ? (
      <>
        {videoUrl && (
          <Suspense fallback={null}>
            <AdCardVideo key={videoUrl} url={videoUrl} />
          </Suspense>
        )}
        <VideoDurationBadge ms={ad.video_duration_ms} />
      </>
    ) : null;
  const image = <AdImage ad={ad} sizes={sizes} fallbackWidth={480} eager={eager} highPriority={highPriority} overlay={overlay} />;

  return (
    <article
      data-testid="ad-card"
      data-ad-id={ad.id}
      data-locked={clear ? 'false' : 'true'}
      className="group relative mb-3 overflow-hidden rounded-2xl border border-neutral-200/80 bg-white shadow-[0_1px_2px_rgba(0,0,0,0.04)] transition-shadow hover:shadow-[0_8px_24px_-8px_rgba(0,0,0,0.18)] sm:mb-4"
    >
      <header className="flex items-center gap-2.5 py-2.5 pr-1.5 pl-3">
        <BrandMark name={brand} logoPath={ad.brand_logo_path} />
        <div className="min-w-0 flex-1 leading-tight">
          <p className="truncate text-[13px] font-semibold text-neutral-950">{brand}</p>
          <p className="truncate text-xs text-neutral-500">{category}</p>
        </div>
        {renderAddToBoard ? (
          renderAddToBoard(ad)
        ) : slot ? (
          slot(ad, 'card')
        ) : (
          <button type="button" className={iconButton} aria-label={AD_CARD_TEXTS.adCard.addToBoard} title={AD_CARD_TEXTS.adCard.addToBoard} onClick={() => onAddToBoard?.(ad)}>
            <BookmarkPlusIcon className="h-[18px] w-[18px]" />
          </button>
        )}
        {onDelete && (
          <button
            type="button"
            className={`${iconButton} hover:bg-red-50 hover:text-red-600`}
            aria-label={deleteLabel}
            title={deleteLabel}
            onClick={() => onDelete(ad)}
          >
            <TrashIcon className="h-[18px] w-[18px]" />
          </button>
        )}
      </header>
      {clear ? (
        <Link
          to={`/ads/${ad.id}`}
          state={{ backgroundLocation: location }}
          preventScrollReset
          data-card-primary=""
          aria-label={AD_CARD_TEXTS.adCard.open(brand, videoLength)}
          className="block focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-neutral-950"
        >
          {image}
        </Link>
      ) : (
        <button
          type="button"
          onClick={() => onLockedClick(ad)}
          data-card-primary=""
          aria-label={AD_CARD_TEXTS.adCard.lockedLabel(brand, videoLength)}
          className="relative block w-full cursor-pointer text-left focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-neutral-950"
        >
          {image}
          <span className="absolute inset-0 flex flex-col items-center justify-center gap-2 bg-neutral-950/10 transition-colors group-hover:bg-neutral-950/20">
            <span className="inline-flex h-11 w-11 items-center justify-center rounded-full bg-white/95 text-neutral-950 shadow-lg ring-1 ring-black/5">
              <LockIcon className="h-5 w-5" />
            </span>
            <span className="rounded-full bg-neutral-950/80 px-3 py-1 text-xs font-semibold text-white shadow-sm">
              {AD_CARD_TEXTS.adCard.locked}
            </span>
          </span>
        </button>
      )}
      {/* Under the image: a strip of the same height on every card, so the grid's card chrome stays one constant. */}
      <AdCardFacts ad={ad} />
    </article>
  );
});
