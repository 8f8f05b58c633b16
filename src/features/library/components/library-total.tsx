import type { AdPage } from '../../../lib/ad-schema.ts';
import { formatCount, formatRoughCount } from '../../../lib/formatting.ts';
import { LIBRARY_TEXTS } from '../../../lib/library-texts.ts';

/**
 * What the first page of a query says it finds: '1,284 ads', '1 ad', 'about 48,000 ads' past the server's count;
 * nothing while the page is loading or when it finds none (the empty state speaks then).
 */
export function libraryTotalText(firstPage: AdPage | undefined): string {
  const total = firstPage?.total;
  if (total === undefined || total === 0 || firstPage!.ads.length === 0) return '';
  if (firstPage!.total_is_estimate) return LIBRARY_TEXTS.library.totalEstimate(formatRoughCount(total));
  return LIBRARY_TEXTS.library.total(total, formatCount(total));
}

/**
 * The total above the grid: a live region, so a screen reader hears the new count when the filters change; its
 * line is always there, empty while a query loads, so the grid does not move when the count arrives.
 */
export function LibraryTotal({ firstPage }: { firstPage: AdPage | undefined }) {
  return (
    <p role="status" data-testid="library-total" className="mb-3 h-5 truncate text-sm leading-5 font-medium text-neutral-600 tabular-nums">
      {libraryTotalText(firstPage)}
    </p>
  );
}
