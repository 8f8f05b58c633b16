import { useState } from 'react';
import type { Ad } from '../../../lib/ad-schema.ts';
import { adImageUrl } from '../../../lib/image-urls.ts';
import { AD_CARD_TEXTS } from '../../../lib/ad-card-texts.ts';

/**
 * A clear video ad on its page: the video with the browser's controls, in the
 * box of the ad's own size, its 960 display image as the poster until it
 * plays. Muted at first, so it may start on its own; the controls unmute it.
 * Seeking asks the storage for ranges of the signed link.
 */
export function AdDetailVideo({ ad, url, poster }: { ad: Ad; url: string; poster: string }) {
  const [failed, setFailed] = useState(false);
  const brand = ad.brand_name ?? AD_CARD_TEXTS.adCard.unknownBrand;
  return (
    <div className="relative w-full overflow-hidden bg-neutral-950" style={{ aspectRatio: `${ad.width} / ${ad.height}` }}>
      <video
        data-testid="ad-detail-video"
        src={adImageUrl(url)}
        poster={adImageUrl(poster)}
        controls
        muted
        autoPlay
        loop
        playsInline
        preload="metadata"
        aria-label={`${brand} video ad${ad.category_name ? ` – ${ad.category_name}` : ''}`}
        onError={() => setFailed(true)}
        className="absolute inset-0 h-full w-full object-contain"
      />
      {failed && (
        <p role="alert" className="absolute inset-x-3 bottom-14 rounded-xl bg-white/95 px-4 py-3 text-center text-sm font-medium text-neutral-900 shadow-lg">
          {AD_CARD_TEXTS.adVideo.playFailed}
        </p>
      )}
    </div>
  );
}
