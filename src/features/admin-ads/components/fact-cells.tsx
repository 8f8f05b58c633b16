import { runningDays } from '../../../lib/ad-facts.ts';
import { AD_CARD_TEXTS } from '../../../lib/ad-card-texts.ts';
import { ADMIN_TEXTS } from '../../../lib/admin-texts.ts';
import type { AdminAdFacts } from '../api/get-admin-ad-facts.ts';

const T = ADMIN_TEXTS.adminFacts;
const F = AD_CARD_TEXTS.adFacts;
const dash = <span className="text-neutral-400">{T.empty}</span>;
const platformName = (name: string) => (F.platformNames as Record<string, string>)[name] ?? name;
const nameIn = (names: Record<string, string>, key: string | null) => (key === null ? null : (names[key] ?? key));

/** The table's fact columns of one ad: platforms, format, offer, hook and running days. */
export function FactCells({ facts }: { facts: AdminAdFacts | null }) {
  const days = facts ? runningDays(facts.first_seen, facts.last_seen, facts.still_running) : null;
  const format = facts ? nameIn(F.formatNames, facts.format) : null;
  const offer = facts ? nameIn(F.offerNames, facts.offer) : null;
  const td = 'px-3 py-2 text-[13px] text-neutral-700';
  return (
    <>
      <td className={`${td} max-w-[10rem]`}>
        {facts?.platforms ? (
          <span className="line-clamp-2" title={facts.platforms.map(platformName).join(', ')}>
            {facts.platforms.map(platformName).join(', ')}
          </span>
        ) : (
          dash
        )}
      </td>
      <td className={`${td} whitespace-nowrap`}>{format ?? dash}</td>
      <td className={`${td} whitespace-nowrap`}>{offer ?? dash}</td>
      <td className={`${td} max-w-[9rem] truncate`} title={facts?.hook_name ?? undefined}>
        {facts?.hook_name ?? dash}
      </td>
      <td className={`${td} whitespace-nowrap tabular-nums`}>
        {days === null ? (
          dash
        ) : (
          <span className="inline-flex items-center gap-1.5" title={facts?.first_seen ? `${facts.first_seen} – ${facts.last_seen ?? ''}` : undefined}>
            {facts?.still_running && <span aria-hidden="true" className="h-1.5 w-1.5 rounded-full bg-emerald-500" />}
            {T.runningDays(days)}
            {facts?.still_running && <span className="sr-only">{F.stillRunningAfterDays}</span>}
          </span>
        )}
      </td>
    </>
  );
}
