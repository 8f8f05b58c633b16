/**
 * Calendar days as the database counts them (UTC, YYYY-MM-DD), without zod:
 * the cards count their running days with these, and the library's first
 * chunk carries only what a card needs.
 */

const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** A real calendar day written YYYY-MM-DD. */
export function isCalendarDate(value: string): boolean {
  if (!DATE_PATTERN.test(value)) return false;
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
}

/** The last calendar day that has begun somewhere on Earth (UTC+14), as the database's ads_seen_not_in_future. */
export function latestToday(now: Date = new Date()): string {
  return new Date(now.getTime() + 14 * 3_600_000).toISOString().slice(0, 10);
}

const DAY_MS = 86_400_000;
const utcDay = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY_MS;

/**
 * Days an ad ran, both ends counted, in UTC: from first seen to last seen, or to
 * today while it still runs (never less than to last seen). Null without a first
 * seen, or for an ended ad without a last seen. The same rule as the database's
 * private.running_days, which get_ad's running_days comes from; the cards carry
 * the dates and count here, since a running ad's days change every day.
 */
export function runningDays(
  firstSeen: string | null | undefined,
  lastSeen: string | null | undefined,
  stillRunning: boolean | undefined,
  now: Date = new Date(),
): number | null {
  if (!firstSeen || !isCalendarDate(firstSeen)) return null;
  const last = lastSeen && isCalendarDate(lastSeen) ? utcDay(lastSeen) : null;
  const first = utcDay(firstSeen);
  if (stillRunning) {
    const today = utcDay(now.toISOString().slice(0, 10));
    return Math.max(today, last ?? first) - first + 1;
  }
  return last === null ? null : last - first + 1;
}

