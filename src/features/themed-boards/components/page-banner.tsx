import { useState } from 'react';
import { usePageBanner, type BannerPage } from '../api/get-page-banner.ts';

/** The page's banner image (4:1) when it has one; nothing while loading, without one, or if it fails to load. */
export function PageBanner({ page, alt }: { page: BannerPage; alt: string }) {
  const banner = usePageBanner(page);
  const [failed, setFailed] = useState(false);
  if (!banner.data || failed) return null;
  return (
    <div className="mb-5 overflow-hidden rounded-2xl bg-neutral-200 sm:mb-6" style={{ aspectRatio: '4 / 1' }}>
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
