import { useState } from 'react';
import { usePageBanner, type BannerPage } from '../api/get-page-banner.ts';

const boxClasses = 'mb-5 overflow-hidden rounded-2xl bg-neutral-200 sm:mb-6';

/**
 * The page's banner image (4:1) when it has one; nothing without one or if it
 * fails to load. While the page's banner is being looked up its 4:1 box is
 * held, so that the banner arriving does not push the page down.
 */
export function PageBanner({ page, alt }: { page: BannerPage; alt: string }) {
  const banner = usePageBanner(page);
  const [failed, setFailed] = useState(false);
  if (banner.isPending) return <div data-testid="page-banner-pending" aria-hidden="true" className={boxClasses} style={{ aspectRatio: '4 / 1' }} />;
  if (!banner.data || failed) return null;
  return (
    <div className={boxClasses} style={{ aspectRatio: '4 / 1' }}>
      <img
        data-testid="page-banner"
        src={banner.data}
        alt={alt}
        width={1600}
        height={400}
        fetchPriority="high"
        onError={() => setFailed(true)}
        className="h-full w-full object-cover"
      />
    </div>
  );
}
