import { describe, expect, it } from 'vitest';
import { msUntilNextRun, runDailyTagging, startDailyTagging } from '../../local/jobs/daily-tagging.ts';
import { describeOnEngines } from '../support/engines.ts';
import { newAd, newBrand, newCategory } from '../support/factories.ts';

const MINUTE = 60_000;

describe('the daily tagging timer of the local stack', () => {
  it('runs at 00:05 UTC: later the same day when before, the next day when at or after', () => {
    expect(msUntilNextRun(new Date('2026-11-22T00:04:00Z'))).toBe(MINUTE);
    expect(msUntilNextRun(new Date('2026-11-22T00:05:00Z'))).toBe(24 * 60 * MINUTE);
    expect(msUntilNextRun(new Date('2026-11-22T00:05:00.001Z'))).toBe(24 * 60 * MINUTE - 1);
    expect(msUntilNextRun(new Date('2026-11-22T23:00:00Z'))).toBe(65 * MINUTE);
    expect(msUntilNextRun(new Date('2026-12-31T23:59:00Z'))).toBe(6 * MINUTE);
    // 00:30 in Paris is 23:30 UTC the day before.
    expect(msUntilNextRun(new Date('2026-11-22T00:30:00+01:00'))).toBe(35 * MINUTE);
  });
});

describeOnEngines('the daily tagging job', (ctx) => {
  const isBlackFriday = async (id: string) =>
    (await ctx.db.query<{ b: boolean }>('select is_black_friday as b from public.ads where id = $1', [id])).rows[0]!.b;
  const utcDay = async (offsetDays: number) =>
    (await ctx.db.query<{ at: string }>(
      `select to_char(((now() at time zone 'UTC')::date + $1::int) + time '12:00', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as at`, [offsetDays])).rows[0]!.at;

  it("tags yesterday's uploads (UTC) with Black Friday, and neither today's nor the day before's", async () => {
    const brand = await newBrand(ctx.db);
    const category = await newCategory(ctx.db);
    const at = async (offset: number) => (await newAd(ctx.db, { brandId: brand.id, categoryId: category.id, createdAt: await utcDay(offset) })).id;
    const [twoDaysAgo, yesterday, today] = [await at(-2), await at(-1), await at(0)];
    expect(await runDailyTagging(ctx.db)).toBeGreaterThanOrEqual(1);
    expect([await isBlackFriday(twoDaysAgo), await isBlackFriday(yesterday), await isBlackFriday(today)]).toEqual([false, true, false]);
    expect(await runDailyTagging(ctx.db)).toBe(0);
  });

  it('arms itself for 00:05 UTC, runs the job when the time comes, logs it and arms the next day', async () => {
    const brand = await newBrand(ctx.db);
    const category = await newCategory(ctx.db);
    const ad = await newAd(ctx.db, { brandId: brand.id, categoryId: category.id, createdAt: await utcDay(-1) });
    const armed: { run: () => void; ms: number }[] = [];
    const lines: string[] = [];
    const timer = startDailyTagging(ctx.db, (line) => lines.push(line), {
      now: () => new Date('2026-11-22T23:00:00Z'),
      setTimeout: (run, ms) => {
        armed.push({ run, ms });
        return {};
      },
      clearTimeout: () => {},
    });
    expect(armed.map((entry) => entry.ms)).toEqual([65 * MINUTE]);
    expect(await isBlackFriday(ad.id)).toBe(false);
    armed[0]!.run();
    await expect.poll(() => armed.length).toBe(2);
    expect(lines).toEqual([expect.stringMatching(/^Daily tagging: [1-9]\d* ad\(s\) tagged Black Friday\.$/)]);
    expect(await isBlackFriday(ad.id)).toBe(true);
    timer.stop();
    armed[1]!.run();
    await expect.poll(() => lines.length).toBe(2);
    expect(armed).toHaveLength(2);
  });

  it('leaves pg_cron alone where it is not available, and says so', async () => {
    const available = (await ctx.db.query<{ n: number }>(`select count(*)::int as n from pg_available_extensions where name = 'pg_cron'`)).rows[0]!.n;
    if (available > 0) return;
    const { rows } = await ctx.db.query<{ result: string }>('select private.schedule_daily_tagging() as result');
    expect(rows[0]!.result).toBe('pg_cron is not available');
    const cron = await ctx.db.query(`select 1 from pg_namespace where nspname = 'cron'`);
    expect(cron.rows).toEqual([]);
  });

  it('keeps the job and its scheduler out of reach of the API roles', async () => {
    const { rows } = await ctx.db.query<{ fn: string; anon: boolean; authenticated: boolean }>(
      `select p.proname as fn, has_function_privilege('anon', p.oid, 'execute') as anon,
              has_function_privilege('authenticated', p.oid, 'execute') as authenticated
         from pg_proc p where p.pronamespace = 'private'::regnamespace and p.proname in ('tag_yesterdays_ads', 'schedule_daily_tagging') order by 1`,
    );
    expect(rows).toEqual([
      { fn: 'schedule_daily_tagging', anon: false, authenticated: false },
      { fn: 'tag_yesterdays_ads', anon: false, authenticated: false },
    ]);
  });
});
