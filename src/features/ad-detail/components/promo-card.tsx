import { Link } from 'react-router-dom';
import { ChevronRightIcon, SparkIcon } from '../../../components/ui/icons.tsx';
import { AD_DETAIL_TEXTS } from '../../../lib/ad-detail-texts.ts';

/** Shown under the image to viewers without navigation: the way back into the library. */
export function PromoCard() {
  return (
    <Link
      to="/library"
      data-testid="promo-card"
      className="group flex w-full items-center gap-3 rounded-2xl bg-neutral-950 px-4 py-3.5 text-white shadow-lg transition-colors hover:bg-neutral-800 sm:px-5 sm:py-4"
    >
      <span className="inline-flex h-9 w-9 shrink-0 items-center justify-center rounded-xl bg-white/10">
        <SparkIcon className="h-5 w-5 text-amber-300" />
      </span>
      <span className="min-w-0 flex-1 text-sm leading-snug font-semibold sm:text-[15px]">{AD_DETAIL_TEXTS.adDetail.promoTitle}</span>
      <ChevronRightIcon className="h-5 w-5 shrink-0 transition-transform group-hover:translate-x-0.5" />
    </Link>
  );
}
