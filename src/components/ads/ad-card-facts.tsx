import type { ComponentType, SVGProps } from 'react';
import type { Ad } from '../../lib/ad-schema.ts';
import type { AdPlatform } from '../../lib/ad-fact-values.ts';
import { runningDays } from '../../lib/calendar-days.ts';
import { AD_CARD_TEXTS } from '../../lib/ad-card-texts.ts';
import { GoogleIcon, InstagramIcon, MetaIcon, PinterestIcon, SnapchatIcon, TikTokIcon, YouTubeIcon } from '../ui/icons.tsx';

const T = AD_CARD_TEXTS.adFacts;

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
 * How long an ad ran and where, in a strip of fixed height under the image:
 * every card has it, facts or not, so a card's height is its image's plus a
 * constant and the masonry grid knows it before anything loads
 * (docs/decisions/0031); the creative itself is never covered. Shown on locked
 * cards too: the facts are the teaser. Not interactive; read as text, each
 * platform by its name.
 */
export function AdCardFacts({ ad, now }: { ad: Ad; now?: Date }) {
  const days = runningDays(ad.first_seen, ad.last_seen, ad.still_running, now);
  const platforms = (ad.platforms ?? []).filter(isKnownPlatform);
  if (days === null && platforms.length === 0) return <div className="h-8 border-t border-neutral-100" aria-hidden="true" />;

  return (
    <div
      data-testid="ad-card-facts"
      className="flex h-8 items-center gap-x-1.5 overflow-hidden border-t border-neutral-100 px-3 text-[11px] leading-none font-semibold whitespace-nowrap text-neutral-800"
    >
      {days !== null && (
        <span className="inline-flex items-center gap-1 tabular-nums">
          {ad.still_running && <span className="h-1.5 w-1.5 shrink-0 rounded-full bg-emerald-500" aria-hidden="true" />}
          {T.running(days)}
          {ad.still_running && <span className="sr-only">{T.stillRunningAfterDays}</span>}
        </span>
      )}
      {platforms.length > 0 && (
        <ul aria-label={T.platforms} className={`flex items-center gap-1 text-neutral-600 ${days !== null ? 'ml-auto' : ''}`}>
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
