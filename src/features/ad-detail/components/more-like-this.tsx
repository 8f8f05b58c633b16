import { Link, useLocation } from 'react-router-dom';
import { AdImage } from '../../../components/ads/ad-image.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { LockIcon } from '../../../components/ui/icons.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { isClear, type Ad } from '../../../lib/ad-schema.ts';
import { AD_DETAIL_TEXTS } from '../../../lib/ad-detail-texts.ts';
import { AD_CARD_TEXTS } from '../../../lib/ad-card-texts.ts';
import { useSimilarAds } from '../api/get-similar-ads.ts';

const T = AD_DETAIL_TEXTS.adDetail.moreLikeThis;
/** Two columns on phones, three from 640 px, four from 1024 px, six from 1280 px. */
const GRID = 'grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4 xl:grid-cols-6';
const SIZES = '(max-width: 639px) 50vw, (max-width: 1023px) 33vw, (max-width: 1279px) 25vw, 220px';

/**
 * "More like this" under an ad: up to 12 ads most like it. A clear one opens in
 * the same detail (the list behind, if any, stays); a locked one shows its
 * blurred preview and starts the upgrade, as a locked card does in the grid.
 */
export function MoreLikeThis({ adId, onLockedClick }: { adId: string; onLockedClick: () => void }) {
  const similar = useSimilarAds(adId, true);
  if (similar.isSuccess && similar.data.length === 0) return null;
  return (
    <section aria-labelledby="more-like-this" data-testid="more-like-this" className="w-full max-w-[1320px] pt-8">
      <h2 id="more-like-this" className="mb-3 text-lg font-bold tracking-tight text-neutral-950">
        {T.title}
      </h2>
      {similar.isError ? (
        <div className="flex flex-wrap items-center gap-3 text-sm text-neutral-600">
          <p>{T.loadError}</p>
          <Button variant="outline" size="sm" onClick={() => void similar.refetch()}>
            {AD_DETAIL_TEXTS.adDetail.tryAgain}
          </Button>
        </div>
      ) : (
        <ul className={GRID} aria-busy={similar.isPending}>
          {similar.isPending
            ? Array.from({ length: 6 }, (_, index) => (
                <li key={index}>
                  <Skeleton className="aspect-[4/5] w-full rounded-xl" />
                </li>
              ))
            : similar.data.map((ad) => (
                <li key={ad.id}>
                  <SimilarAdTile ad={ad} onLockedClick={onLockedClick} />
                </li>
              ))}
        </ul>
      )}
    </section>
  );
}

function SimilarAdTile({ ad, onLockedClick }: { ad: Ad; onLockedClick: () => void }) {
  const location = useLocation();
  const brand = ad.brand_name ?? AD_CARD_TEXTS.adCard.unknownBrand;
  const image = <AdImage ad={ad} sizes={SIZES} fallbackWidth={480} />;
  const caption = (
    <span className="block truncate px-2.5 py-2 text-left text-[13px] font-semibold text-neutral-900">{brand}</span>
  );
  const tile = 'block overflow-hidden rounded-xl border border-neutral-200/80 bg-white transition-shadow hover:shadow-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-neutral-950';
  if (isClear(ad)) {
    return (
      <Link
        to={`/ads/${ad.id}`}
        // The same list stays behind, and Back or Close leaves the detail as it would have from the first ad.
        state={location.state}
        replace
        data-testid="similar-ad"
        data-ad-id={ad.id}
        aria-label={AD_CARD_TEXTS.adCard.open(brand)}
        className={tile}
      >
        {image}
        {caption}
      </Link>
    );
  }
  return (
    <button
      type="button"
      data-testid="similar-ad"
      data-ad-id={ad.id}
      data-locked="true"
      onClick={onLockedClick}
      aria-label={AD_CARD_TEXTS.adCard.lockedLabel(brand)}
      className={`${tile} w-full cursor-pointer`}
    >
      <span className="relative block">
        {image}
        <span className="absolute inset-0 flex items-center justify-center bg-neutral-950/10">
          <span className="inline-flex h-9 w-9 items-center justify-center rounded-full bg-white/95 text-neutral-950 shadow ring-1 ring-black/5">
            <LockIcon className="h-4 w-4" />
          </span>
        </span>
      </span>
      {caption}
    </button>
  );
}
