import type { ReactNode } from 'react';
import { isClear, type Ad } from '../../lib/ad-schema.ts';
import { adImageUrl } from '../../lib/image-urls.ts';
import { AD_CARD_TEXTS } from '../../lib/ad-card-texts.ts';
import { thumbhashPlaceholder } from './thumbhash-placeholder.ts';

interface AdImageProps {
  ad: Ad;
  /** The `sizes` attribute: how wide the image shows at each viewport width. */
  sizes: string;
  /** Which variant is the fallback `src` where srcset is not supported. */
  fallbackWidth: 480 | 960;
  eager?: boolean;
  highPriority?: boolean;
  className?: string;
  /** Drawn over the image inside its box (a video ad's badge and preview), so it takes no room of its own. */
  overlay?: ReactNode;
}

/**
 * An ad's image in a box of its own aspect ratio, over a placeholder painted at
 * once: the thumbhash picture for eager images (the first row, the page's
 * largest paint), its average colour for the rest. A clear ad loads its WebP
 * display variants by width; a locked ad shows only the blurred preview the
 * server sends for it. Images show as they decode, with no fade.
 */
export function AdImage({ ad, sizes, fallbackWidth, eager = false, highPriority = false, className = '', overlay }: AdImageProps) {
  const placeholder = thumbhashPlaceholder(ad.thumbhash, eager);
  const brand = ad.brand_name ?? AD_CARD_TEXTS.adCard.unknownBrand;

  return (
    <div
      className={`relative w-full overflow-hidden bg-neutral-100 ${className}`}
      style={{
        aspectRatio: `${ad.width} / ${ad.height}`,
        backgroundImage: placeholder.image ? `url(${placeholder.image})` : undefined,
        backgroundColor: placeholder.color ?? undefined,
        backgroundSize: 'cover',
        backgroundPosition: 'center',
      }}
    >
      {isClear(ad) ? (
        <img
          src={adImageUrl(fallbackWidth === 480 ? ad.display_480_url : ad.display_960_url)}
          srcSet={`${adImageUrl(ad.display_480_url)} 480w, ${adImageUrl(ad.display_960_url)} 960w`}
          sizes={sizes}
          width={ad.width}
          height={ad.height}
          alt={`${brand} ad${ad.category_name ? ` – ${ad.category_name}` : ''}`}
          loading={eager ? 'eager' : 'lazy'}
          decoding="async"
          fetchPriority={highPriority ? 'high' : 'auto'}
          draggable={false}
          className="absolute inset-0 h-full w-full object-cover"
        />
      ) : ad.preview_url ? (
        <img
          src={adImageUrl(ad.preview_url)}
          alt=""
          aria-hidden="true"
          loading={eager ? 'eager' : 'lazy'}
          decoding="async"
          draggable={false}
          data-preview="true"
          className="absolute inset-0 h-full w-full object-cover"
        />
      ) : null}
      {overlay}
    </div>
  );
}
