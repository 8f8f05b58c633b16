import type { Queryable } from '../db/database.ts';

/** When the job runs each day, in UTC: the pg_cron schedule of hosted Supabase ('5 0 * * *'). */
export const DAILY_TAGGING_AT = { hour: 0, minute: 5 } as const;

/** Milliseconds from `now` to the next 00:05 UTC (a full day when it is 00:05 exactly). */
export function msUntilNextRun(now: Date): number {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), DAILY_TAGGING_AT.hour, DAILY_TAGGING_AT.minute);
  const next = today > now.getTime() ? today : today + 24 * 60 * 60 * 1000;
  return next - now.getTime();
}

/**
 * Counts the running ads' keys of the dated orders to today (pg_cron runs it at 00:00 UTC): the stack runs it when it
 * starts, since a database from an earlier day holds the keys of that day, and before each daily tagging.
 */
export async function countRunningDays(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ counted: number }>('select private.count_running_days() as counted');
  return rows[0]?.counted ?? 0;
}

/** Runs the day's jobs once, as pg_cron would: the database's own functions, as the owner. */
export async function runDailyTagging(db: Queryable): Promise<number> {
  await countRunningDays(db);
  const { rows } = await db.query<{ tagged: number }>('select private.tag_yesterdays_ads() as tagged');
  return rows[0]?.tagged ?? 0;
}

export interface DailyTaggingTimer {
  stop(): void;
}

interface TimerApi {
  now: () => Date;
  setTimeout: (run: () => void, ms: number) => { unref?: () => unknown };
  clearTimeout: (timer: never) => void;
}

const realTimers: TimerApi = {
  now: () => new Date(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (timer) => clearTimeout(timer),
};

/**
 * The local stack's stand-in for the pg_cron job: every day at 00:05 UTC,
 * yesterday's uploads get the Black Friday tag where they lack it. A failed run
 * is logged and the next day's is armed all the same.
 */
export function startDailyTagging(db: Queryable, log: (line: string) => void, timers: TimerApi = realTimers): DailyTaggingTimer {
  let timer: ReturnType<TimerApi['setTimeout']> | null = null;
  let stopped = false;
  const arm = () => {
    if (stopped) return;
    timer = timers.setTimeout(() => {
      runDailyTagging(db)
        .then((tagged) => log(`Daily tagging: ${tagged} ad(s) tagged Black Friday.`))
        .catch((error: unknown) => log(`Daily tagging failed: ${(error as Error).message}`))
        .finally(arm);
    }, msUntilNextRun(timers.now()));
    timer.unref?.();
  };
  countRunningDays(db).catch((error: unknown) => log(`Counting running days failed: ${(error as Error).message}`));
  arm();
  return {
    stop() {
      stopped = true;
      if (timer) timers.clearTimeout(timer as never);
    },
  };
}
