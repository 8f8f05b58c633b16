import { beforeAll, expect, it } from 'vitest';
import { queryAs, userActor } from '../support/acting.ts';
import { describeOnEngines } from '../support/engines.ts';
import { newAd, newBrand, newCategory, newPersonas, type Personas } from '../support/factories.ts';
import { listAdsStatement, listQueryParameter } from '../support/list-query.ts';

/**
 * The keys of the dated orders (running_days_key, last_seen_key) are counted to the day an ad is written; each day
 * private.count_running_days counts the running ads again. Here the keys of some ads are set back a day, as a
 * database left from yesterday holds them (triggers off, as the owner: no API role can write them).
 */

interface Keys { id: string; running_days_key: number; last_seen_key: string }

describeOnEngines('counting running days each day', (ctx) => {
  let people: Personas;
  let brandId: string;
  let categoryId: string;
  const today = () => ctx.db.query<{ today: string }>(`select ((now() at time zone 'UTC')::date)::text as today`).then((r) => r.rows[0]!.today);

  async function adWith(firstSeenDaysAgo: number | null, lastSeenDaysAgo: number | null, stillRunning: boolean): Promise<string> {
    const ad = await newAd(ctx.db, { brandId, categoryId });
    await ctx.db.query(
      `update public.ads set first_seen = (now() at time zone 'UTC')::date - $2::int,
                             last_seen = (now() at time zone 'UTC')::date - $3::int, still_running = $4
        where id = $1`,
      [ad.id, firstSeenDaysAgo, lastSeenDaysAgo, stillRunning],
    );
    return ad.id;
  }
  const keysOf = async (ids: string[]) =>
    (await ctx.db.query<Keys>(`select id, running_days_key, last_seen_key::text from public.ads where id = any ($1::uuid[]) order by id`, [ids])).rows;

  beforeAll(async () => {
    people = await newPersonas(ctx.db);
    brandId = (await newBrand(ctx.db)).id;
    categoryId = (await newCategory(ctx.db)).id;
  });

  it('writes the keys when an ad is written, and counts the running ones again on a new day', async () => {
    const running = await adWith(9, 1, true);
    const ended = await adWith(30, 20, false);
    const undated = (await newAd(ctx.db, { brandId, categoryId })).id;
    const day = await today();
    expect(await keysOf([running, ended, undated])).toEqual(
      [
        { id: running, running_days_key: 10, last_seen_key: day },
        { id: ended, running_days_key: 11, last_seen_key: (await ctx.db.query<{ d: string }>(`select ((now() at time zone 'UTC')::date - 20)::text as d`)).rows[0]!.d },
        { id: undated, running_days_key: 0, last_seen_key: '-infinity' },
      ].sort((a, b) => (a.id < b.id ? -1 : 1)),
    );

    // Yesterday's keys, as the owner writes them with the triggers off.
    await ctx.db.transaction(async (tx) => {
      await tx.query(`set local session_replication_role = replica`);
      await tx.query(
        `update public.ads set running_days_key = running_days_key - 1, last_seen_key = last_seen_key - 1 where id = $1`,
        [running],
      );
    });
    const before = await keysOf([running, ended, undated]);
    const listed = async () => {
      const [row] = await queryAs<{ page: { ads: { id: string }[] } }>(
        ctx.db, userActor(people.subscriber), listAdsStatement,
        [listQueryParameter({ brandIds: [brandId], sort: 'longest_running', minRunningDays: 10 })],
      );
      return row!.page.ads.map((ad) => ad.id);
    };
    // Counted yesterday, the running ad has run 9 days for the listing: below the asked 10.
    expect(await listed()).toEqual([ended]);

    const [counted] = (await ctx.db.query<{ counted: number }>('select private.count_running_days() as counted')).rows;
    expect(counted!.counted).toBe(1);
    const after = await keysOf([running, ended, undated]);
    expect(after.find((k) => k.id === running)).toEqual({ id: running, running_days_key: 10, last_seen_key: day });
    // Ended and undated ads do not change with the day.
    expect(after.filter((k) => k.id !== running)).toEqual(before.filter((k) => k.id !== running));
    expect(await listed()).toEqual([ended, running]);

    // Counted again the same day, nothing changes.
    expect((await ctx.db.query<{ counted: number }>('select private.count_running_days() as counted')).rows[0]!.counted).toBe(0);
  });

  it('is not callable through the API', async () => {
    for (const actor of [userActor(people.admin), userActor(people.subscriber)]) {
      await expect(queryAs(ctx.db, actor, 'select private.count_running_days()')).rejects.toThrow(/permission denied/);
    }
  });
});
