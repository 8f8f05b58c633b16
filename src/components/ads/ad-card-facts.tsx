import type { ComponentType, SVGProps } from 'react';
import type { Ad } from '../../lib/ad-schema.ts';
import type { AdPlatform } from '../../lib/ad-fact-values.ts';
import { runningDays } from '../../lib/calendar-days.ts';
import { TEXTS } from '../../lib/spec-texts.ts';
import { GoogleIcon, InstagramIcon, MetaIcon, PinterestIcon, SnapchatIcon, TikTokIcon, YouTubeIcon } from '../ui/icons.tsx';

const T = TEXTS.adFacts;

const platformIcons: Record<AdPlatform, ComponentType<SVGProps<SVGSVGElement>>> = {
  meta: MetaIcon,
  instagram: InstagramIcon,
  tiktok: TikTokIcon,
  youtube: YouTubeIcon,
  pinterest: PinterestIcon,
  snapchat: SnapchatIcon,
  google: GoogleIcon,
};

const isKnownPlatform = (platform: string): platform is AdPlatform => Object.hasOwn(platformIcons, platform);

/**
 * How long an ad ran and where, as a chip laid over the bottom of its image:
 * over it, not below it, so the card is exactly as tall as the masonry grid
 * assumes (docs/decisions/0031). Shown on locked cards too: the facts are the
 * teaser. Not interactive (clicks pass through to the image); read as text,
 * each platform by its name. Nothing when the ad has neither.
 */
export function AdCardFacts({ ad, now }: { ad: Ad; now?: Date }) {
  const days = runningDays(ad.first_seen, ad.last_seen, ad.still_running, now);
  const platforms = (ad.platforms ?? []).filter(isKnownPlatform);
  if (days === null && platforms.length === 0) return null;

  return (
    <div
      data-testid="ad-card-facts"
      className="pointer-events-none absolute bottom-2 left-2 flex max-w-[calc(100%-1rem)] flex-wrap items-center gap-x-1.5 gap-y-1 rounded-full bg-white/90 px-2 py-1 text-[11px] leading-none font-semibold text-neutral-900 shadow-sm ring-1 ring-black/10 backdrop-blur-sm"
    >
      {days !== null && (
        <span className="inline-flex items-center gap-1 tabular-nums">
          {ad.still_running && <span className="h-1.5 w-1.5 shrink-0 rounded-full bg-emerald-500" aria-hidden="true" />}
          {T.running(days)}
          {ad.still_running && <span className="sr-only">{T.stillRunningAfterDays}</span>}
        </span>
      )}
      {platforms.length > 0 && (
        <ul aria-label={T.platforms} className={`flex items-center gap-1 text-neutral-700 ${days !== null ? 'border-l border-neutral-300 pl-1.5' : ''}`}>
          {platforms.map((platform) => {
            const PlatformIcon = platformIcons[platform];
            return (
              <li key={platform} className="flex">
                <PlatformIcon className="h-3.5 w-3.5" strokeWidth={2.2} role="img" aria-hidden={undefined} aria-label={T.platformNames[platform]} />
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
