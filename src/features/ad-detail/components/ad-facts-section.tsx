import type { ReactNode } from 'react';
import { ExternalLinkIcon } from '../../../components/ui/icons.tsx';
import { landingHost, type AdFacts } from '../../../lib/ad-facts.ts';
import { formatDay } from '../../../lib/formatting.ts';
import { AD_CARD_TEXTS } from '../../../lib/ad-card-texts.ts';
import { marksInside } from '../lib/highlight.ts';
import { HighlightedText } from './highlighted-text.tsx';

const T = AD_CARD_TEXTS.adFacts;

/** The label of a known value, or null for a value this build has no words for. */
function nameOf<K extends string>(names: Readonly<Record<K, string>>, value: string | null): string | null {
  return value !== null && Object.hasOwn(names, value) ? names[value as K] : null;
}

const languageNames = safeDisplayNames('language');
const regionNames = safeDisplayNames('region');

function safeDisplayNames(type: 'language' | 'region'): Intl.DisplayNames | null {
  try {
    return new Intl.DisplayNames(['en'], { type });
  } catch {
    return null;
  }
}

/** 'English' for 'en', 'United States' for 'US'; the code itself when the browser does not know it. */
function displayName(names: Intl.DisplayNames | null, code: string): string {
  try {
    return names?.of(code) ?? code;
  } catch {
    return code;
  }
}

/** True when the facts hold anything worth a section. */
export function hasFacts(facts: AdFacts): boolean {
  return (
    facts.running_days !== null ||
    (facts.platforms?.length ?? 0) > 0 ||
    facts.format !== null ||
    !facts.placement_derived ||
    [facts.headline, facts.primary_text, facts.image_text ?? null, facts.call_to_action, facts.offer, facts.hook_name, facts.landing_url, facts.language, facts.country].some(
      (value) => value !== null,
    )
  );
}

/**
 * What a marketer judges the ad by: how long it ran and whether it still runs,
 * where, in what shape, what it said (and the words in its image, clear ads
 * only) and where it sent people. Shown for locked ads too: the facts are the
 * teaser. A fact the ad lacks is left out. The words of the search the ad was
 * found with are marked in its texts and landing page host.
 */
export function AdFactsSection({ facts, highlight = [] }: { facts: AdFacts; highlight?: readonly string[] }) {
  if (!hasFacts(facts)) return null;
  const platforms = (facts.platforms ?? []).map((platform) => nameOf(T.platformNames, platform)).filter((name): name is string => name !== null);
  const shape = [nameOf(T.formatNames, facts.format), nameOf(T.placementNames, facts.placement)].filter(Boolean).join(' · ');
  const host = facts.landing_url ? landingHost(facts.landing_url) : null;
  // A search found only inside words (by its text anywhere) is marked there.
  const inside = marksInside([host, facts.headline, facts.primary_text, facts.image_text], highlight);
  const details: [string, ReactNode][] = [];
  if (shape) details.push([T.format, shape]);
  const cta = nameOf(T.callToActionNames, facts.call_to_action);
  if (cta) details.push([T.callToAction, cta]);
  const offer = nameOf(T.offerNames, facts.offer);
  if (offer) details.push([T.offer, offer]);
  if (facts.hook_name) details.push([T.hook, facts.hook_name]);
  if (facts.landing_url && host) {
    details.push([
      T.landingPage,
      <a
        href={facts.landing_url}
        target="_blank"
        rel="noopener noreferrer"
        aria-label={T.landingPageLabel(host)}
        className="inline-flex max-w-full items-center gap-1 font-medium text-neutral-950 underline decoration-neutral-300 underline-offset-2 hover:decoration-neutral-950"
      >
        <span className="min-w-0 [overflow-wrap:anywhere]">
          <HighlightedText text={host} words={highlight} inside={inside} />
        </span>
        <ExternalLinkIcon className="h-3.5 w-3.5 shrink-0 text-neutral-500" />
      </a>,
    ]);
  }
  if (facts.language) details.push([T.language, displayName(languageNames, facts.language)]);
  if (facts.country) details.push([T.country, displayName(regionNames, facts.country)]);

  return (
    <section aria-label={T.sectionLabel} data-testid="ad-facts" className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-neutral-950/5 sm:p-5">
      {facts.running_days !== null && (
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <p className="text-[15px] font-semibold tabular-nums text-neutral-950" data-testid="ad-running-days">
            {T.running(facts.running_days)}
          </p>
          {facts.still_running && (
            <span className="inline-flex items-center gap-1.5 rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-800 ring-1 ring-emerald-600/20">
              <span className="h-1.5 w-1.5 rounded-full bg-emerald-500" aria-hidden="true" />
              {T.stillRunning}
            </span>
          )}
        </div>
      )}
      {facts.first_seen && (
        <p className={`text-xs text-neutral-500 ${facts.running_days !== null ? 'mt-1' : ''}`}>
          {facts.last_seen && !facts.still_running
            ? T.seen(formatDay(facts.first_seen), formatDay(facts.last_seen))
            : T.firstSeen(formatDay(facts.first_seen))}
        </p>
      )}
      {platforms.length > 0 && (
        <ul aria-label={T.platforms} className={`flex flex-wrap gap-1.5 ${facts.first_seen || facts.running_days !== null ? 'mt-3' : ''}`}>
          {platforms.map((name) => (
            <li key={name} className="rounded-full bg-neutral-100 px-2.5 py-0.5 text-xs font-medium text-neutral-700">
              {name}
            </li>
          ))}
        </ul>
      )}
      {(facts.headline || facts.primary_text) && (
        <div className="mt-4 border-t border-neutral-100 pt-4">
          {facts.headline && (
            <p className="text-[15px] font-semibold leading-snug text-neutral-950">
              <span className="sr-only">{T.headline}: </span>
              <HighlightedText text={facts.headline} words={highlight} inside={inside} />
            </p>
          )}
          {facts.primary_text && (
            <p className="mt-1.5 whitespace-pre-line text-sm leading-relaxed text-neutral-600">
              <span className="sr-only">{T.primaryText}: </span>
              <HighlightedText text={facts.primary_text} words={highlight} inside={inside} />
            </p>
          )}
        </div>
      )}
      {facts.image_text && (
        <div className="mt-4 border-t border-neutral-100 pt-4" data-testid="ad-image-text">
          <p className="text-xs text-neutral-500">{T.imageText}</p>
          <p className="mt-0.5 whitespace-pre-line text-sm leading-relaxed [overflow-wrap:anywhere] text-neutral-700">
            <HighlightedText text={facts.image_text} words={highlight} inside={inside} />
          </p>
        </div>
      )}
      {details.length > 0 && (
        <dl className="mt-4 grid grid-cols-2 gap-x-4 gap-y-3 border-t border-neutral-100 pt-4 text-sm sm:grid-cols-3 lg:grid-cols-2">
          {details.map(([term, value]) => (
            <div key={term} className="min-w-0">
              <dt className="text-xs text-neutral-500">{term}</dt>
              <dd className="mt-0.5 font-medium [overflow-wrap:anywhere] text-neutral-900">{value}</dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}
