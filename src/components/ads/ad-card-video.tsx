import { videoDurationLabel } from '../../lib/ad-schema.ts';
import { AD_CARD_TEXTS } from '../../lib/ad-card-texts.ts';

/** The video's length over the top right corner of the image, locked or clear: part of the image box, so nothing moves. */
export function VideoDurationBadge({ ms }: { ms: number }) {
  const label = videoDurationLabel(ms);
  return (
    <span
      data-testid="video-duration"
      aria-label={AD_CARD_TEXTS.adCard.videoLength(label)}
      className="pointer-events-none absolute top-2 right-2 z-[1] inline-flex h-6 items-center gap-1 rounded-full bg-neutral-950/75 px-2 text-[11px] font-semibold text-white tabular-nums"
    >
      <svg viewBox="0 0 12 12" className="h-2.5 w-2.5" fill="currentColor" aria-hidden="true">
        <path d="M3 1.8v8.4a.6.6 0 00.9.52l7-4.2a.6.6 0 000-1.04l-7-4.2A.6.6 0 003 1.8z" />
      </svg>
      <span aria-hidden="true">{label}</span>
    </span>
  );
}
