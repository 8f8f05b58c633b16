import { describe, expect, it } from 'vitest';
import type { Database, Queryable } from '../../local/db/database.ts';
import { describeOnEngines } from '../support/engines.ts';
import { as, becomeIn, expectPgError, queryAs, serviceRole, userActor, type Actor } from '../support/acting.ts';
import { newBrand, newCategory, newUser, type TestUser } from '../support/factories.ts';

/** The caps of decision record 0022. */
const BOARDS_PER_USER = 500;
const BOARD_DEPTH = 5;
const ADS_PER_BOARD = 5000;
const FAVORITES_PER_USER = 10000;
const BOARD_NAME_MAX = 100;

const BOARD_LIMIT = { code: 'OB001', detail: 'board_limit_reached', message: `A user can have at most ${BOARDS_PER_USER} boards` };
const DEPTH_LIMIT = { code: 'OB002', detail: 'board_depth_limit_reached', message: `Boards can be nested at most ${BOARD_DEPTH} levels deep` };
const ADS_LIMIT = { code: 'OB003', detail: 'board_ads_limit_reached', message: `A board can hold at most ${ADS_PER_BOARD} ads` };
const FAVORITES_LIMIT = { code: 'OB004', detail: 'favorites_limit_reached', message: `A user can have at most ${FAVORITES_PER_USER} favorites` };

/** n boards in one statement, as one POST of n rows to user_collections is. */
function insertBoards(db: Database, actor: Actor, n: number, options: { userId?: string; prefix?: string } = {}) {
  return queryAs<{ id: string }>(
    db,
    actor,
    `insert into public.user_collections (name, user_id)
     select $2 || ' ' || g, coalesce($3::uuid, auth.uid()) from generate_series(1, $1::int) g returning id`,
    [n, options.prefix ?? 'Board', options.userId ?? null],
  );
}

/** A chain of boards in one statement, each under the one before (under parentId for the first). */
function insertChain(db: Database, owner: TestUser, depth: number, parentId: string | null = null) {
  return queryAs<{ id: string }>(
    db,
    userActor(owner),
    `with chain as (select g, gen_random_uuid() as id from generate_series(1, $1::int) g)
     insert into public.user_collections (id, name, parent_id)
     select c.id, 'Level ' || c.g, coalesce(p.id, $2::uuid) from chain c left join chain p on p.g = c.g - 1
      order by c.g
     returning id`,
    [depth, parentId],
  );
}

async function boardCount(db: Database, owner: TestUser): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    'select count(*)::int as n from public.user_collections where user_id = $1 and not is_system',
    [owner.id],
  );
  return rows[0]!.n;
}

async function itemCount(db: Database, boardId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>('select count(*)::int as n from public.user_collection_items where collection_id = $1', [boardId]);
  return rows[0]!.n;
}

/** Saves the ads into one board in one statement, as one POST of many rows to user_collection_items is. */
function insertItems(db: Database, actor: Actor, boardId: string, adIds: string[]) {
  return queryAs(
    db,
    actor,
    'insert into public.user_collection_items (collection_id, ad_id) select $1, unnest($2::uuid[])',
    [boardId, adIds],
  );
}

/** Fills a board as the database owner (a fixture, faster than the API), without the caps' trigger counting each batch. */
async function fillBoard(db: Database, boardId: string, adIds: string[]): Promise<void> {
  await db.query('insert into public.user_collection_items (collection_id, ad_id) select $1, unnest($2::uuid[])', [boardId, adIds]);
}

function saveAd(db: Database, owner: TestUser, adId: string, add: string[]) {
  return queryAs(db, userActor(owner), 'select public.save_ad_boards($1, $2::uuid[]) as boards', [adId, add]);
}

async function favoritesIdOf(db: Database, user: TestUser): Promise<string> {
  const [row] = await queryAs<{ id: string }>(db, userActor(user), 'select public.get_or_create_favorites_id() as id');
  return row!.id;
}

/**
 * Many ads for the caps on saved ads, in one statement as the owner with the
 * ads' triggers off (no images, an empty card, no sample): here they are only
 * what saved items point at, and this file lists no ad.
 */
async function manyAds(db: Database, n: number): Promise<string[]> {
  const brand = await newBrand(db);
  const category = await newCategory(db);
  return db.transaction(async (tx) => {
    await tx.query(`set local session_replication_role = replica`);
    const { rows } = await tx.query<{ id: string }>(
      `insert into public.ads (brand_id, category_id, requires_subscription, original_path, display_480_path, display_960_path,
                               preview_path, width, height, thumbhash, card)
       select $1, $2, true, 'caps/' || g || '/original.jpg', 'caps/' || g || '/480.webp', 'caps/' || g || '/960.webp',
              'previews/caps-' || g || '.webp', 1080, 1350, 'YJqGPQw7sFlslqhFafSE+Q6oJ1h2iHB2Rw==', '{}'::jsonb
         from generate_series(1, $3::int) g
       returning id`,
      [brand.id, category.id, n],
    );
    return rows.map((row) => row.id);
  });
}

/** A transaction on a connection of its own, held open until commit() is called. */
interface HeldTransaction {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  commit(): Promise<void>;
}

async function holdTransaction(db: Database, actor: Actor): Promise<HeldTransaction> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let opened!: (tx: Queryable) => void;
  const open = new Promise<Queryable>((resolve) => (opened = resolve));
  const finished = db.transaction(async (tx) => {
    await becomeIn(tx, actor);
    opened(tx);
    await released;
  });
  const tx = await Promise.race([open, finished.then(() => Promise.reject(new Error('The transaction ended early')))]);
  return {
    query: async (sql, params) => (await tx.query(sql, params)).rows as never,
    commit: async () => {
      release();
      await finished;
    },
  };
}

/** Resolves once some session of this database waits for a lock (or after five seconds, so a missing lock shows as a wrong result). */
async function untilSomeoneWaitsForALock(db: Database): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const { rows } = await db.query<{ waiting: number }>(
      `select count(*)::int as waiting from pg_locks l join pg_stat_activity a on a.pid = l.pid
        where not l.granted and a.datname = current_database()`,
    );
    if (rows[0]!.waiting > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describeOnEngines('row caps on boards, nesting, saved ads and favorites', (ctx) => {
  let ads: string[] = [];
  /** FAVORITES_PER_USER + 1 ads, made once for the file. */
  async function theAds(): Promise<string[]> {
    if (ads.length === 0) ads = await manyAds(ctx.db, FAVORITES_PER_USER + 1);
    return ads;
  }

  describe(`boards per user (${BOARDS_PER_USER} besides Favorites)`, () => {
    it(`refuses one bulk insert of ${BOARDS_PER_USER + 1} boards entirely with board_limit_reached, inserting none of them`, async () => {
      const user = await newUser(ctx.db);
      await expectPgError(insertBoards(ctx.db, userActor(user), BOARDS_PER_USER + 1), BOARD_LIMIT);
      expect(await boardCount(ctx.db, user)).toBe(0);
    });

    it('refuses a bulk insert of 100,000 boards at once, inserting none', async () => {
      const user = await newUser(ctx.db);
      const started = performance.now();
      await expectPgError(insertBoards(ctx.db, userActor(user), 100_000), BOARD_LIMIT);
      expect(await boardCount(ctx.db, user)).toBe(0);
      // Refused at the first row over the cap, not after inserting every row.
      expect(performance.now() - started).toBeLessThan(5000);
    });

    it(`lets a user have ${BOARDS_PER_USER} boards in one insert, and Favorites besides, and refuses the next one`, async () => {
      const user = await newUser(ctx.db);
      expect(await insertBoards(ctx.db, userActor(user), BOARDS_PER_USER)).toHaveLength(BOARDS_PER_USER);
      expect(await favoritesIdOf(ctx.db, user)).toEqual(expect.any(String));
      await expectPgError(insertBoards(ctx.db, userActor(user), 1, { prefix: 'One more' }), BOARD_LIMIT);
      expect(await boardCount(ctx.db, user)).toBe(BOARDS_PER_USER);
    });

    it('counts the boards a user already has together with the ones a statement adds', async () => {
      const user = await newUser(ctx.db);
      await insertBoards(ctx.db, userActor(user), BOARDS_PER_USER - 10);
      await expectPgError(insertBoards(ctx.db, userActor(user), 11, { prefix: 'Late' }), BOARD_LIMIT);
      expect(await boardCount(ctx.db, user)).toBe(BOARDS_PER_USER - 10);
      expect(await insertBoards(ctx.db, userActor(user), 10, { prefix: 'Last' })).toHaveLength(10);
      expect(await boardCount(ctx.db, user)).toBe(BOARDS_PER_USER);
    });

    it('lets a user make a board again after deleting one at the cap', async () => {
      const user = await newUser(ctx.db);
      const [first] = await insertBoards(ctx.db, userActor(user), BOARDS_PER_USER);
      await queryAs(ctx.db, userActor(user), 'delete from public.user_collections where id = $1', [first!.id]);
      expect(await insertBoards(ctx.db, userActor(user), 1, { prefix: 'Replacement' })).toHaveLength(1);
    });

    it("does not count another user's boards", async () => {
      const full = await newUser(ctx.db);
      const other = await newUser(ctx.db);
      await insertBoards(ctx.db, userActor(full), BOARDS_PER_USER);
      expect(await insertBoards(ctx.db, userActor(other), BOARDS_PER_USER)).toHaveLength(BOARDS_PER_USER);
      expect(await boardCount(ctx.db, other)).toBe(BOARDS_PER_USER);
    });

    it('holds the service role to the cap, per owner, in one statement over two users', async () => {
      const user = await newUser(ctx.db);
      const other = await newUser(ctx.db);
      await insertBoards(ctx.db, serviceRole, BOARDS_PER_USER, { userId: user.id });
      await expectPgError(
        queryAs(
          ctx.db,
          serviceRole,
          `insert into public.user_collections (name, user_id) values ('Fine', $2), ('Over', $1)`,
          [user.id, other.id],
        ),
        BOARD_LIMIT,
      );
      expect(await boardCount(ctx.db, other)).toBe(0);
    });
  });

  describe(`nesting depth (${BOARD_DEPTH} levels)`, () => {
    it(`lets a user nest boards ${BOARD_DEPTH} levels deep, one at a time and in one statement`, async () => {
      const user = await newUser(ctx.db);
      let parentId: string | null = null;
      for (let level = 1; level <= BOARD_DEPTH; level += 1) {
        const rows: { id: string }[] = await queryAs<{ id: string }>(
          ctx.db,
          userActor(user),
          'insert into public.user_collections (name, parent_id) values ($1, $2) returning id',
          [`Level ${level}`, parentId],
        );
        parentId = rows[0]!.id;
      }
      expect(await insertChain(ctx.db, user, BOARD_DEPTH)).toHaveLength(BOARD_DEPTH);
      expect(await boardCount(ctx.db, user)).toBe(2 * BOARD_DEPTH);
    });

    it(`refuses a board at level ${BOARD_DEPTH + 1} with board_depth_limit_reached`, async () => {
      const user = await newUser(ctx.db);
      const chain = await insertChain(ctx.db, user, BOARD_DEPTH);
      await expectPgError(
        queryAs(ctx.db, userActor(user), `insert into public.user_collections (name, parent_id) values ('Too deep', $1)`, [chain.at(-1)!.id]),
        DEPTH_LIMIT,
      );
      expect(await boardCount(ctx.db, user)).toBe(BOARD_DEPTH);
    });

    it(`refuses a chain of ${BOARD_DEPTH + 1} boards in one statement, and a 50-deep one, inserting none`, async () => {
      const user = await newUser(ctx.db);
      await expectPgError(insertChain(ctx.db, user, BOARD_DEPTH + 1), DEPTH_LIMIT);
      await expectPgError(insertChain(ctx.db, user, 50), DEPTH_LIMIT);
      expect(await boardCount(ctx.db, user)).toBe(0);
    });

    it('refuses a move that would put a sub-board below the last level, and keeps the board where it was', async () => {
      const user = await newUser(ctx.db);
      const deep = await insertChain(ctx.db, user, BOARD_DEPTH - 1);
      // A board with one sub-board: two levels, one too many under level 4.
      const [moving] = await insertChain(ctx.db, user, 2);
      await expectPgError(
        queryAs(ctx.db, userActor(user), 'update public.user_collections set parent_id = $2 where id = $1', [moving!.id, deep.at(-1)!.id]),
        DEPTH_LIMIT,
      );
      const { rows } = await ctx.db.query<{ parent_id: string | null }>('select parent_id from public.user_collections where id = $1', [moving!.id]);
      expect(rows[0]!.parent_id).toBeNull();
      // One level higher it fits exactly.
      await queryAs(ctx.db, userActor(user), 'update public.user_collections set parent_id = $2 where id = $1', [moving!.id, deep.at(-2)!.id]);
    });

    it("does not count another user's levels: each user's tree has its own depth", async () => {
      const user = await newUser(ctx.db);
      const other = await newUser(ctx.db);
      await insertChain(ctx.db, other, BOARD_DEPTH);
      expect(await insertChain(ctx.db, user, BOARD_DEPTH)).toHaveLength(BOARD_DEPTH);
    });
  });

  describe(`ads per board (${ADS_PER_BOARD.toLocaleString('en')})`, () => {
    it(`saves ${ADS_PER_BOARD} ads in a board in one insert and refuses the next with board_ads_limit_reached, by insert and by save_ad_boards`, async () => {
      const user = await newUser(ctx.db);
      const [board] = await insertBoards(ctx.db, userActor(user), 1);
      const all = await theAds();
      await insertItems(ctx.db, userActor(user), board!.id, all.slice(0, ADS_PER_BOARD));
      expect(await itemCount(ctx.db, board!.id)).toBe(ADS_PER_BOARD);
      await expectPgError(insertItems(ctx.db, userActor(user), board!.id, [all[ADS_PER_BOARD]!]), ADS_LIMIT);
      await expectPgError(saveAd(ctx.db, user, all[ADS_PER_BOARD]!, [board!.id]), ADS_LIMIT);
      expect(await itemCount(ctx.db, board!.id)).toBe(ADS_PER_BOARD);
    });

    it(`refuses one bulk insert of ${ADS_PER_BOARD + 1} ads into a board entirely`, async () => {
      const user = await newUser(ctx.db);
      const [board] = await insertBoards(ctx.db, userActor(user), 1);
      await expectPgError(insertItems(ctx.db, userActor(user), board!.id, (await theAds()).slice(0, ADS_PER_BOARD + 1)), ADS_LIMIT);
      expect(await itemCount(ctx.db, board!.id)).toBe(0);
    });

    it('refuses a save to several boards entirely when one of them is full, and counts each board on its own', async () => {
      const user = await newUser(ctx.db);
      const [full, roomy] = await insertBoards(ctx.db, userActor(user), 2);
      const all = await theAds();
      await fillBoard(ctx.db, full!.id, all.slice(0, ADS_PER_BOARD));
      await fillBoard(ctx.db, roomy!.id, all.slice(0, ADS_PER_BOARD - 1));
      const extra = all[ADS_PER_BOARD]!;
      await expectPgError(saveAd(ctx.db, user, extra, [full!.id, roomy!.id]), ADS_LIMIT);
      expect(await itemCount(ctx.db, roomy!.id)).toBe(ADS_PER_BOARD - 1);
      await saveAd(ctx.db, user, extra, [roomy!.id]);
      expect(await itemCount(ctx.db, roomy!.id)).toBe(ADS_PER_BOARD);
    });

    it("does not count another user's full board", async () => {
      const owner = await newUser(ctx.db);
      const other = await newUser(ctx.db);
      const [full] = await insertBoards(ctx.db, userActor(owner), 1);
      const [mine] = await insertBoards(ctx.db, userActor(other), 1);
      const all = await theAds();
      await fillBoard(ctx.db, full!.id, all.slice(0, ADS_PER_BOARD));
      await insertItems(ctx.db, userActor(other), mine!.id, all.slice(0, ADS_PER_BOARD));
      expect(await itemCount(ctx.db, mine!.id)).toBe(ADS_PER_BOARD);
    });

    it('holds the service role to the cap, and counts ads moved into a board by an update', async () => {
      const user = await newUser(ctx.db);
      const [full, other] = await insertBoards(ctx.db, userActor(user), 2);
      const all = await theAds();
      await insertItems(ctx.db, serviceRole, full!.id, all.slice(0, ADS_PER_BOARD));
      await expectPgError(insertItems(ctx.db, serviceRole, full!.id, [all[ADS_PER_BOARD]!]), ADS_LIMIT);
      await fillBoard(ctx.db, other!.id, [all[ADS_PER_BOARD]!]);
      await expectPgError(
        ctx.db.query('update public.user_collection_items set collection_id = $1 where collection_id = $2', [full!.id, other!.id]),
        ADS_LIMIT,
      );
      expect(await itemCount(ctx.db, other!.id)).toBe(1);
    });
  });

  describe(`favorites (${FAVORITES_PER_USER.toLocaleString('en')})`, () => {
    it(`keeps ${FAVORITES_PER_USER} favorites and refuses the next heart with favorites_limit_reached`, async () => {
      const user = await newUser(ctx.db);
      const favorites = await favoritesIdOf(ctx.db, user);
      const all = await theAds();
      // More than a board may hold: Favorites has a cap of its own.
      await insertItems(ctx.db, userActor(user), favorites, all.slice(0, FAVORITES_PER_USER));
      expect(await itemCount(ctx.db, favorites)).toBe(FAVORITES_PER_USER);
      await expectPgError(saveAd(ctx.db, user, all[FAVORITES_PER_USER]!, [favorites]), FAVORITES_LIMIT);
      expect(await itemCount(ctx.db, favorites)).toBe(FAVORITES_PER_USER);
    });

    it(`refuses one bulk insert of ${FAVORITES_PER_USER + 1} favorites entirely`, async () => {
      const user = await newUser(ctx.db);
      const favorites = await favoritesIdOf(ctx.db, user);
      await expectPgError(insertItems(ctx.db, userActor(user), favorites, await theAds()), FAVORITES_LIMIT);
      expect(await itemCount(ctx.db, favorites)).toBe(0);
    });

    it("does not count another user's favorites", async () => {
      const full = await newUser(ctx.db);
      const other = await newUser(ctx.db);
      const all = await theAds();
      await fillBoard(ctx.db, await favoritesIdOf(ctx.db, full), all.slice(0, FAVORITES_PER_USER));
      const mine = await favoritesIdOf(ctx.db, other);
      await saveAd(ctx.db, other, all[FAVORITES_PER_USER]!, [mine]);
      expect(await itemCount(ctx.db, mine)).toBe(1);
    });
  });

  describe(`board names (${BOARD_NAME_MAX} characters)`, () => {
    it(`refuses a board insert with one name over ${BOARD_NAME_MAX} characters entirely, and a rename to one`, async () => {
      const user = await newUser(ctx.db);
      await expectPgError(
        queryAs(ctx.db, userActor(user), `insert into public.user_collections (name) values ('Fine'), ($1), ('Also fine')`, ['x'.repeat(BOARD_NAME_MAX + 1)]),
        { code: '23514', constraint: 'user_collections_name_length' },
      );
      expect(await boardCount(ctx.db, user)).toBe(0);
      const [board] = await queryAs<{ id: string; name: string }>(
        ctx.db,
        userActor(user),
        'insert into public.user_collections (name) values ($1) returning id, name',
        ['x'.repeat(BOARD_NAME_MAX)],
      );
      expect(board!.name).toHaveLength(BOARD_NAME_MAX);
      await expectPgError(
        queryAs(ctx.db, userActor(user), 'update public.user_collections set name = $2 where id = $1', [board!.id, 'y'.repeat(BOARD_NAME_MAX + 1)]),
        { code: '23514', constraint: 'user_collections_name_length' },
      );
    });
  });

  if (ctx.engine === 'postgres') describe('two transactions at once', () => {
    it('cannot pass the board cap together: the second counts the first after it commits', async () => {
      const user = await newUser(ctx.db);
      const half = BOARDS_PER_USER / 2 + 1;
      const first = await holdTransaction(ctx.db, userActor(user));
      const second = await holdTransaction(ctx.db, userActor(user));
      await first.query(`insert into public.user_collections (name) select 'First ' || g from generate_series(1, $1::int) g`, [half]);
      const secondInsert = second
        .query(`insert into public.user_collections (name) select 'Second ' || g from generate_series(1, $1::int) g`, [half])
        .then(() => null, (error: Error) => error);
      await untilSomeoneWaitsForALock(ctx.db);
      await first.commit();
      const error = await secondInsert;
      await second.commit().catch(() => undefined);
      expect(error).toMatchObject({ code: BOARD_LIMIT.code, detail: BOARD_LIMIT.detail });
      expect(await boardCount(ctx.db, user)).toBe(half);
    });

    it('cannot pass the ads-per-board cap together', async () => {
      const user = await newUser(ctx.db);
      const [board] = await insertBoards(ctx.db, userActor(user), 1);
      const all = await theAds();
      await fillBoard(ctx.db, board!.id, all.slice(0, ADS_PER_BOARD - 1));
      const first = await holdTransaction(ctx.db, userActor(user));
      const second = await holdTransaction(ctx.db, userActor(user));
      await first.query('select public.save_ad_boards($1, $2::uuid[])', [all[ADS_PER_BOARD - 1], [board!.id]]);
      const secondSave = second.query('select public.save_ad_boards($1, $2::uuid[])', [all[ADS_PER_BOARD], [board!.id]]).then(
        () => null,
        (error: Error) => error,
      );
      await untilSomeoneWaitsForALock(ctx.db);
      await first.commit();
      const error = await secondSave;
      await second.commit().catch(() => undefined);
      expect(error).toMatchObject({ code: ADS_LIMIT.code, detail: ADS_LIMIT.detail });
      expect(await itemCount(ctx.db, board!.id)).toBe(ADS_PER_BOARD);
    });

    it('cannot pass the depth cap together by moving two chains under each other at once', async () => {
      const user = await newUser(ctx.db);
      const a = await insertChain(ctx.db, user, 3);
      const b = await insertChain(ctx.db, user, 2);
      const c = await insertChain(ctx.db, user, 2);
      const first = await holdTransaction(ctx.db, userActor(user));
      const second = await holdTransaction(ctx.db, userActor(user));
      // b under a's level 2 takes b to levels 3-4; c under b's last board alone takes c to levels 3-4; both make 6.
      await first.query('update public.user_collections set parent_id = $2 where id = $1', [b[0]!.id, a[1]!.id]);
      const secondMove = second
        .query('update public.user_collections set parent_id = $2 where id = $1', [c[0]!.id, b[1]!.id])
        .then(() => null, (error: Error) => error);
      await untilSomeoneWaitsForALock(ctx.db);
      await first.commit();
      const error = await secondMove;
      await second.commit().catch(() => undefined);
      expect(error).toMatchObject({ code: DEPTH_LIMIT.code, detail: DEPTH_LIMIT.detail });
    });
  });
});
