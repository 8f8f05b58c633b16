import { useState } from 'react';
import { brandLogoUrl } from '../../lib/image-urls.ts';

interface BrandMarkProps {
  name: string;
  logoPath: string | null;
  size?: 'sm' | 'md' | 'lg';
}

const SIZES = { sm: 'h-7 w-7 text-xs', md: 'h-9 w-9 text-sm', lg: 'h-11 w-11 text-base' } as const;

/** The brand's logo, or the first letter of its name when it has none (or it fails to load). */
export function BrandMark({ name, logoPath, size = 'sm' }: BrandMarkProps) {
  const [failed, setFailed] = useState(false);
  const initial = name.trim().charAt(0).toUpperCase() || '?';
  if (logoPath && !failed) {
    return (
      <img
        src={brandLogoUrl(logoPath)}
        alt=""
        aria-hidden="true"
        loading="lazy"
        decoding="async"
        onError={() => setFailed(true)}
        className={`${SIZES[size]} shrink-0 rounded-full bg-white object-cover ring-1 ring-neutral-950/10`}
      />
    );
  }
  return (
    <span
      aria-hidden="true"
      data-testid="brand-initial"
      className={`${SIZES[size]} inline-flex shrink-0 items-center justify-center rounded-full bg-neutral-900 font-semibold text-white`}
    >
      {initial}
    </span>
  );
}
