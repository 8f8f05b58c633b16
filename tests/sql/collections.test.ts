import { describe, expect, it } from 'vitest';
import type { Database, Queryable } from '../../local/db/database.ts';
import { describeOnEngines } from '../support/engines.ts';
import { anon, as, becomeIn, expectPgError, queryAs, userActor, type Actor } from '../support/acting.ts';
import { grantAdmin, newAd, newBoard, newBrand, newCategory, newUser, type TestAd, type TestUser } from '../support/factories.ts';

interface BoardRow {
  id: string;
  user_id: string;
  name: string;
  parent_id: string | null;
  is_system: boolean;
  slug: string | null;
}

const boardColumns = 'id, user_id, name, parent_id, is_system, slug';

/** One board as the database owner sees it, or undefined when it is gone. */
async function boardById(db: Database, id: string): Promise<BoardRow | undefined> {
  const { rows } = await db.query<BoardRow>(`select ${boardColumns} from public.user_collections where id = $1`, [id]);
  return rows[0];
}

/** What the owner reads of their boards through the API, by id. */
async function ownBoards(db: Database, owner: TestUser): Promise<BoardRow[]> {
  return queryAs<BoardRow>(db, userActor(owner), `select ${boardColumns} from public.user_collections order by id`);
}

async function ownItems(db: Database, owner: TestUser): Promise<{ collection_id: string; ad_id: string }[]> {
  return queryAs(db, userActor(owner), 'select collection_id, ad_id from public.user_collection_items order by collection_id, ad_id');
}

/** A board created by its owner through the API, as the add-to-board panel does. */
async function createBoard(db: Database, owner: TestUser, name: string, parentId: string | null = null): Promise<BoardRow> {
  const [row] = await queryAs<BoardRow>(
    db,
    userActor(owner),
    `insert into public.user_collections (name, parent_id) values ($1, $2) returning ${boardColumns}`,
    [name, parentId],
  );
  return row!;
}

async function favoritesIdOf(db: Database, user: TestUser): Promise<string> {
  const [row] = await queryAs<{ id: string }>(db, userActor(user), 'select public.get_or_create_favorites_id() as id');
  return row!.id;
}

async function saveAd(db: Database, user: TestUser, adId: string, add: string[], remove: string[] = []): Promise<string[]> {
  const [row] = await queryAs<{ boards: string[] }>(
    db,
    userActor(user),
    'select public.save_ad_boards($1, $2::uuid[], $3::uuid[]) as boards',
    [adId, add, remove],
  );
  return row!.boards;
}

async function deleteBoard(db: Database, user: Actor, id: string, moveChildrenUp: boolean): Promise<string[]> {
  const [row] = await queryAs<{ deleted: string[] }>(db, user, 'select public.delete_board($1, $2) as deleted', [id, moveChildrenUp]);
  return row!.deleted;
}

const sorted = (ids: string[]) => [...ids].sort();

async function savedAdIds(db: Database, boardId: string): Promise<string[]> {
  const { rows } = await db.query<{ ad_id: string }>('select ad_id from public.user_collection_items where collection_id = $1', [boardId]);
  return sorted(rows.map((row) => row.ad_id));
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

/** Returns once some session of this database waits for a lock (or after a few seconds, so a missing lock shows as a wrong result). */
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

describeOnEngines('personal boards and Favorites', (ctx) => {
  let catalogue: { brandId: string; categoryId: string } | undefined;
  async function anAd(options: { createdAt?: string; requiresSubscription?: boolean } = {}): Promise<TestAd> {
    if (!catalogue) {
      catalogue = { brandId: (await newBrand(ctx.db)).id, categoryId: (await newCategory(ctx.db)).id };
    }
    return newAd(ctx.db, { ...catalogue, ...options });
  }

  describe('boards', () => {
    it('lets a user create top-level boards, sub-boards and sub-sub-boards with plain inserts owned by the caller', async () => {
      const user = await newUser(ctx.db);
      const top = await createBoard(ctx.db, user, 'Skincare');
      const sub = await createBoard(ctx.db, user, 'Hooks', top.id);
      const subSub = await createBoard(ctx.db, user, 'UGC', sub.id);
      const secondTop = await createBoard(ctx.db, user, 'Supplements');

      const boards = await ownBoards(ctx.db, user);
      expect(boards.map(({ id, name, parent_id }) => ({ id, name, parent_id })).sort((x, y) => x.name.localeCompare(y.name))).toEqual([
        { id: sub.id, name: 'Hooks', parent_id: top.id },
        { id: top.id, name: 'Skincare', parent_id: null },
        { id: secondTop.id, name: 'Supplements', parent_id: null },
        { id: subSub.id, name: 'UGC', parent_id: sub.id },
      ]);
      expect(boards.every((b) => b.user_id === user.id && !b.is_system && b.slug === null)).toBe(true);
    });

    it('accepts the user_id of the caller, as the spec\'s insert sends it', async () => {
      const user = await newUser(ctx.db);
      const [row] = await queryAs<BoardRow>(
        ctx.db,
        userActor(user),
        `insert into public.user_collections (name, parent_id, is_system, user_id) values ('Mine', null, false, $1)
         returning ${boardColumns}`,
        [user.id],
      );
      expect(row).toMatchObject({ user_id: user.id, name: 'Mine', is_system: false });
    });

    it('trims board names and collapses the whitespace inside them, on create and on rename', async () => {
      const user = await newUser(ctx.db);
      const board = await createBoard(ctx.db, user, '  Summer \t  sale\n  hooks  ');
      expect(board.name).toBe('Summer sale hooks');
      await queryAs(ctx.db, userActor(user), `update public.user_collections set name = $2 where id = $1`, [board.id, ' Black   Friday ']);
      expect((await boardById(ctx.db, board.id))!.name).toBe('Black Friday');
    });

    it.each([
      ['empty', ''],
      ['spaces only', '    '],
      ['tabs and newlines only', '\t\n \r\n'],
    ])('rejects a %s board name with user_collections_name_not_empty', async (_label, name) => {
      const user = await newUser(ctx.db);
      await expectPgError(createBoard(ctx.db, user, name), { code: '23514', constraint: 'user_collections_name_not_empty' });
      expect(await ownBoards(ctx.db, user)).toEqual([]);
    });

    it('rejects a rename to a blank name and keeps the old name', async () => {
      const user = await newUser(ctx.db);
      const board = await createBoard(ctx.db, user, 'Keep me');
      await expectPgError(
        queryAs(ctx.db, userActor(user), `update public.user_collections set name = '   ' where id = $1`, [board.id]),
        { code: '23514', constraint: 'user_collections_name_not_empty' },
      );
      expect((await boardById(ctx.db, board.id))!.name).toBe('Keep me');
    });

    it('accepts a name of 100 characters and rejects 101 or more with user_collections_name_length', async () => {
      const user = await newUser(ctx.db);
      const longest = await createBoard(ctx.db, user, `  ${'a'.repeat(100)}  `);
      expect(longest.name).toHaveLength(100);
      for (const length of [101, 250]) {
        await expectPgError(createBoard(ctx.db, user, 'b'.repeat(length)), {
          code: '23514',
          constraint: 'user_collections_name_length',
        });
      }
      expect((await ownBoards(ctx.db, user)).map((b) => b.id)).toEqual([longest.id]);
    });

    it('refuses to create a board owned by someone else', async () => {
      const user = await newUser(ctx.db);
      const victim = await newUser(ctx.db);
      await expectPgError(
        queryAs(ctx.db, userActor(user), `insert into public.user_collections (name, user_id) values ('Planted', $1)`, [victim.id]),
        { code: '42501', message: /row-level security/ },
      );
      expect(await ownBoards(ctx.db, victim)).toEqual([]);
      expect(await ownBoards(ctx.db, user)).toEqual([]);
    });

    it('refuses to change a board\'s owner or kind', async () => {
      const user = await newUser(ctx.db);
      const other = await newUser(ctx.db);
      const board = await createBoard(ctx.db, user, 'Mine');
      for (const [column, value] of [
        ['user_id', other.id],
        ['is_system', true],
        ['slug', 'favorites'],
      ] as const) {
        await expectPgError(
          queryAs(ctx.db, userActor(user), `update public.user_collections set ${column} = $2 where id = $1`, [board.id, value]),
          { code: '42501', message: /permission denied/ },
        );
      }
      expect(await boardById(ctx.db, board.id)).toMatchObject({ user_id: user.id, is_system: false, slug: null });
    });

    it('refuses to put a board under another user\'s board or an unknown board with parent_board_not_found', async () => {
      const user = await newUser(ctx.db);
      const other = await newUser(ctx.db);
      const othersBoard = await createBoard(ctx.db, other, 'Theirs');
      const mine = await createBoard(ctx.db, user, 'Mine');
      for (const parentId of [othersBoard.id, '00000000-0000-4000-8000-000000000000']) {
        await expectPgError(createBoard(ctx.db, user, 'Sneaky', parentId), { code: 'PT404', detail: 'parent_board_not_found' });
        await expectPgError(
          queryAs(ctx.db, userActor(user), 'update public.user_collections set parent_id = $2 where id = $1', [mine.id, parentId]),
          { code: 'PT404', detail: 'parent_board_not_found' },
        );
      }
      expect((await ownBoards(ctx.db, user)).map((b) => [b.name, b.parent_id])).toEqual([['Mine', null]]);
      expect((await ownBoards(ctx.db, other)).map((b) => b.id)).toEqual([othersBoard.id]);
    });

    it('refuses to put a board under Favorites with favorites_not_a_parent, on create and on move', async () => {
      const user = await newUser(ctx.db);
      const favoritesId = await favoritesIdOf(ctx.db, user);
      const board = await createBoard(ctx.db, user, 'Hooks');
      await expectPgError(createBoard(ctx.db, user, 'Inside', favoritesId), { code: 'P0001', detail: 'favorites_not_a_parent' });
      await expectPgError(
        queryAs(ctx.db, userActor(user), 'update public.user_collections set parent_id = $2 where id = $1', [board.id, favoritesId]),
        { code: 'P0001', detail: 'favorites_not_a_parent' },
      );
      expect((await ownBoards(ctx.db, user)).filter((b) => b.parent_id !== null)).toEqual([]);
    });

    it('refuses to move a board inside itself or one of its descendants with board_cycle and changes nothing', async () => {
      const user = await newUser(ctx.db);
      const top = await createBoard(ctx.db, user, 'Top');
      const sub = await createBoard(ctx.db, user, 'Sub', top.id);
      const subSub = await createBoard(ctx.db, user, 'Sub-sub', sub.id);
      const before = await ownBoards(ctx.db, user);
      for (const target of [top.id, sub.id, subSub.id]) {
        await expectPgError(
          queryAs(ctx.db, userActor(user), 'update public.user_collections set parent_id = $2 where id = $1', [top.id, target]),
          { code: 'P0001', detail: 'board_cycle' },
        );
      }
      await expectPgError(
        queryAs(ctx.db, userActor(user), 'update public.user_collections set parent_id = $2 where id = $1', [sub.id, subSub.id]),
        { code: 'P0001', detail: 'board_cycle' },
      );
      expect(await ownBoards(ctx.db, user)).toEqual(before);
    });

    it('renames a board and moves it under another board, deeper, and back to the top level', async () => {
      const user = await newUser(ctx.db);
      const a = await createBoard(ctx.db, user, 'A');
      const b = await createBoard(ctx.db, user, 'B');
      const bChild = await createBoard(ctx.db, user, 'B child', b.id);
      const move = (id: string, parentId: string | null) =>
        as(ctx.db, userActor(user), async (q) =>
          (await q.query('update public.user_collections set parent_id = $2 where id = $1', [id, parentId])).rowCount);

      const renamed = await as(ctx.db, userActor(user), async (q) =>
        (await q.query('update public.user_collections set name = $2 where id = $1', [a.id, 'Renamed'])).rowCount);
      expect(renamed).toBe(1);
      expect(await move(a.id, b.id)).toBe(1);
      expect(await boardById(ctx.db, a.id)).toMatchObject({ name: 'Renamed', parent_id: b.id });
      expect(await move(a.id, bChild.id)).toBe(1);
      expect((await boardById(ctx.db, a.id))!.parent_id).toBe(bChild.id);
      expect(await move(a.id, null)).toBe(1);
      expect(await boardById(ctx.db, a.id)).toMatchObject({ name: 'Renamed', parent_id: null });
    });

    it('deleting a board deletes its sub-boards and sub-sub-boards and the ads saved in all of them, and nothing else', async () => {
      const user = await newUser(ctx.db);
      const ad = await anAd();
      const top = await createBoard(ctx.db, user, 'Top');
      const sub = await createBoard(ctx.db, user, 'Sub', top.id);
      const subSub = await createBoard(ctx.db, user, 'Sub-sub', sub.id);
      const sibling = await createBoard(ctx.db, user, 'Sibling');
      await saveAd(ctx.db, user, ad.id, [top.id, sub.id, subSub.id, sibling.id]);

      const deleted = await as(ctx.db, userActor(user), async (q) =>
        (await q.query('delete from public.user_collections where id = $1', [top.id])).rowCount);

      expect(deleted).toBe(1);
      expect((await ownBoards(ctx.db, user)).map((b) => b.id)).toEqual([sibling.id]);
      expect(await ownItems(ctx.db, user)).toEqual([{ collection_id: sibling.id, ad_id: ad.id }]);
      const { rows } = await ctx.db.query('select 1 from public.user_collection_items where collection_id = any ($1::uuid[])', [
        [top.id, sub.id, subSub.id],
      ]);
      expect(rows).toEqual([]);
    });
  });

  describe('another user, an admin and anonymous', () => {
    /** A user with a top-level board, a sub-board and an ad saved in each and in Favorites. */
    async function ownerWithBoards() {
      const owner = await newUser(ctx.db);
      const other = await newUser(ctx.db);
      const admin = await newUser(ctx.db);
      await grantAdmin(ctx.db, admin);
      const ad = await anAd();
      const top = await createBoard(ctx.db, owner, 'Top');
      const sub = await createBoard(ctx.db, owner, 'Sub', top.id);
      const favoritesId = await favoritesIdOf(ctx.db, owner);
      await saveAd(ctx.db, owner, ad.id, [top.id, sub.id, favoritesId]);
      const boardsBefore = await ownBoards(ctx.db, owner);
      const itemsBefore = await ownItems(ctx.db, owner);
      const unchanged = async () => {
        expect(await ownBoards(ctx.db, owner)).toEqual(boardsBefore);
        expect(await ownItems(ctx.db, owner)).toEqual(itemsBefore);
      };
      const intruders: [string, Actor][] = [
        ['another user', userActor(other)],
        ['an admin', userActor(admin)],
      ];
      return { owner, other, admin, ad, top, sub, favoritesId, intruders, unchanged };
    }

    it('another user and an admin read none of a user\'s boards, saved ads or collection ads view rows', async () => {
      const { top, intruders } = await ownerWithBoards();
      for (const [, intruder] of intruders) {
        expect(await queryAs(ctx.db, intruder, 'select * from public.user_collections')).toEqual([]);
        expect(await queryAs(ctx.db, intruder, 'select * from public.user_collection_items')).toEqual([]);
        expect(await queryAs(ctx.db, intruder, 'select * from public.v_user_collection_ads where collection_id = $1', [top.id])).toEqual([]);
      }
    });

    it('anonymous cannot read boards, saved ads or the collection ads view at all', async () => {
      await ownerWithBoards();
      for (const relation of ['user_collections', 'user_collection_items', 'v_user_collection_ads']) {
        await expectPgError(queryAs(ctx.db, anon, `select * from public.${relation}`), { code: '42501', message: /permission denied/ });
      }
    });

    it('another user and an admin rename, move and delete none of a user\'s boards', async () => {
      const { top, sub, favoritesId, intruders, unchanged, other } = await ownerWithBoards();
      const theirOwn = await createBoard(ctx.db, other, 'Theirs');
      for (const [, intruder] of intruders) {
        const affected = await as(ctx.db, intruder, async (q) => [
          (await q.query(`update public.user_collections set name = 'Hacked' where id = any ($1::uuid[])`, [[top.id, sub.id, favoritesId]])).rowCount,
          (await q.query('update public.user_collections set parent_id = null where id = $1', [sub.id])).rowCount,
          (await q.query('update public.user_collections set parent_id = $2 where id = $1', [sub.id, theirOwn.id])).rowCount,
          (await q.query('delete from public.user_collections where id = any ($1::uuid[])', [[top.id, sub.id]])).rowCount,
        ]);
        expect(affected).toEqual([0, 0, 0, 0]);
      }
      await unchanged();
    });

    it('another user and an admin cannot add a sub-board to, save an ad into or remove an ad from a user\'s board', async () => {
      const { top, ad, intruders, unchanged } = await ownerWithBoards();
      const otherAd = await anAd();
      for (const [, intruder] of intruders) {
        await expectPgError(
          queryAs(ctx.db, intruder, `insert into public.user_collections (name, parent_id) values ('Inside', $1)`, [top.id]),
          { code: 'PT404', detail: 'parent_board_not_found' },
        );
        await expectPgError(
          queryAs(ctx.db, intruder, 'insert into public.user_collection_items (collection_id, ad_id) values ($1, $2)', [top.id, otherAd.id]),
          { code: '42501', message: /row-level security/ },
        );
        const removed = await as(ctx.db, intruder, async (q) =>
          (await q.query('delete from public.user_collection_items where collection_id = $1 and ad_id = $2', [top.id, ad.id])).rowCount);
        expect(removed).toBe(0);
        await expectPgError(
          queryAs(ctx.db, intruder, 'select public.save_ad_boards($1, $2::uuid[], $3::uuid[])', [ad.id, [], [top.id]]),
          { code: 'PT404', detail: 'board_not_found' },
        );
        await expectPgError(
          queryAs(ctx.db, intruder, 'select public.delete_board($1, false)', [top.id]),
          { code: 'PT404', detail: 'board_not_found' },
        );
      }
      await unchanged();
    });

    it('anonymous cannot insert, update or delete boards or saved ads, and the board functions refuse them', async () => {
      const { top, ad, unchanged } = await ownerWithBoards();
      const denied = { code: '42501', message: /permission denied/ };
      await expectPgError(queryAs(ctx.db, anon, `insert into public.user_collections (name) values ('Anon')`), denied);
      await expectPgError(queryAs(ctx.db, anon, `update public.user_collections set name = 'Anon' where id = $1`, [top.id]), denied);
      await expectPgError(queryAs(ctx.db, anon, 'delete from public.user_collections where id = $1', [top.id]), denied);
      await expectPgError(
        queryAs(ctx.db, anon, 'insert into public.user_collection_items (collection_id, ad_id) values ($1, $2)', [top.id, ad.id]),
        denied,
      );
      await expectPgError(queryAs(ctx.db, anon, 'delete from public.user_collection_items where collection_id = $1', [top.id]), denied);
      for (const call of [
        `select public.save_ad_boards('${ad.id}', '{}', array['${top.id}']::uuid[])`,
        `select public.delete_board('${top.id}', false)`,
      ]) {
        await expectPgError(queryAs(ctx.db, anon, call), { code: '42501', detail: 'not_authenticated' });
      }
      await unchanged();
    });
  });

  describe('Favorites', () => {
    it('get_or_create_favorites_id creates the Favorites board on first use and returns the same one on every call', async () => {
      const user = await newUser(ctx.db);
      const first = await favoritesIdOf(ctx.db, user);
      const second = await favoritesIdOf(ctx.db, user);
      expect(second).toBe(first);
      expect(await ownBoards(ctx.db, user)).toEqual([
        { id: first, user_id: user.id, name: 'Favorites', parent_id: null, is_system: true, slug: 'favorites' },
      ]);
    });

    it('the sidebar read (is_system desc, name asc) lists Favorites first and flags it so the tree can hide it', async () => {
      const user = await newUser(ctx.db);
      await createBoard(ctx.db, user, 'Beta');
      await createBoard(ctx.db, user, 'Alpha');
      await favoritesIdOf(ctx.db, user);
      const rows = await queryAs<{ name: string; is_system: boolean; slug: string | null }>(
        ctx.db,
        userActor(user),
        'select name, is_system, slug from public.user_collections order by is_system desc, name asc',
      );
      expect(rows).toEqual([
        { name: 'Favorites', is_system: true, slug: 'favorites' },
        { name: 'Alpha', is_system: false, slug: null },
        { name: 'Beta', is_system: false, slug: null },
      ]);
    });

    it('gives each user a Favorites board of their own', async () => {
      const one = await newUser(ctx.db);
      const two = await newUser(ctx.db);
      expect(await favoritesIdOf(ctx.db, one)).not.toBe(await favoritesIdOf(ctx.db, two));
    });

    it('refuses get_or_create_favorites_id to anonymous callers with not_authenticated', async () => {
      const countBoards = async () => (await ctx.db.query('select id from public.user_collections')).rows.length;
      const before = await countBoards();
      await expectPgError(queryAs(ctx.db, anon, 'select public.get_or_create_favorites_id()'), {
        code: '42501',
        detail: 'not_authenticated',
      });
      expect(await countBoards()).toBe(before);
    });

    it('the spec\'s fallback insert creates Favorites for a user without one, and the fallback lookup finds it', async () => {
      const user = await newUser(ctx.db);
      const [inserted] = await queryAs<BoardRow>(
        ctx.db,
        userActor(user),
        `insert into public.user_collections (name, is_system, slug) values ('Favorites', true, 'favorites') returning ${boardColumns}`,
      );
      expect(inserted).toMatchObject({ user_id: user.id, name: 'Favorites', is_system: true, slug: 'favorites', parent_id: null });
      const [found] = await queryAs<{ id: string }>(ctx.db, userActor(user), 'select id from public.user_collections where is_system limit 1');
      expect(found!.id).toBe(inserted!.id);
      expect(await favoritesIdOf(ctx.db, user)).toBe(inserted!.id);
    });

    it('the fallback insert without a slug, as the spec sends it, still makes the Favorites board', async () => {
      const user = await newUser(ctx.db);
      const [inserted] = await queryAs<BoardRow>(
        ctx.db,
        userActor(user),
        `insert into public.user_collections (name, parent_id, is_system, user_id) values ('Favorites', null, true, $1) returning ${boardColumns}`,
        [user.id],
      );
      expect(inserted).toMatchObject({ is_system: true, slug: 'favorites' });
      expect(await favoritesIdOf(ctx.db, user)).toBe(inserted!.id);
    });

    it('the fallback insert fails with a unique violation when the user already has Favorites', async () => {
      const user = await newUser(ctx.db);
      const favoritesId = await favoritesIdOf(ctx.db, user);
      await expectPgError(
        queryAs(ctx.db, userActor(user), `insert into public.user_collections (name, is_system, slug) values ('Favorites', true, 'favorites')`),
        { code: '23505', constraint: 'user_collections_one_favorites' },
      );
      expect((await ownBoards(ctx.db, user)).map((b) => b.id)).toEqual([favoritesId]);
    });

    it('a system board is only ever Favorites at the top level', async () => {
      const user = await newUser(ctx.db);
      const board = await createBoard(ctx.db, user, 'Parent');
      for (const [name, slug, parentId] of [
        ['Not favorites', 'favorites', null],
        ['Favorites', 'other', null],
        ['Favorites', 'favorites', board.id],
      ] as const) {
        await expectPgError(
          queryAs(ctx.db, userActor(user), 'insert into public.user_collections (name, is_system, slug, parent_id) values ($1, true, $2, $3)', [
            name,
            slug,
            parentId,
          ]),
          { code: '23514', constraint: 'user_collections_system_is_favorites' },
        );
      }
      await expectPgError(
        queryAs(ctx.db, userActor(user), `insert into public.user_collections (name, slug) values ('Sneaky', 'favorites')`),
        { code: '23514', constraint: 'user_collections_system_is_favorites' },
      );
      expect((await ownBoards(ctx.db, user)).map((b) => b.id)).toEqual([board.id]);
    });

    it('Favorites cannot be renamed, moved or deleted by its owner (favorites_protected)', async () => {
      const user = await newUser(ctx.db);
      const favoritesId = await favoritesIdOf(ctx.db, user);
      const board = await createBoard(ctx.db, user, 'Board');
      const protectedError = { code: 'P0001', detail: 'favorites_protected' };
      await expectPgError(
        queryAs(ctx.db, userActor(user), `update public.user_collections set name = 'Loved' where id = $1`, [favoritesId]),
        protectedError,
      );
      await expectPgError(
        queryAs(ctx.db, userActor(user), 'update public.user_collections set parent_id = $2 where id = $1', [favoritesId, board.id]),
        protectedError,
      );
      await expectPgError(queryAs(ctx.db, userActor(user), 'delete from public.user_collections where id = $1', [favoritesId]), protectedError);
      await expectPgError(deleteBoard(ctx.db, userActor(user), favoritesId, true), protectedError);
      expect(await boardById(ctx.db, favoritesId)).toMatchObject({ name: 'Favorites', parent_id: null, is_system: true });
    });

    it('Favorites, the user\'s boards and everything saved in them go away when the auth user is deleted', async () => {
      const user = await newUser(ctx.db);
      const neighbour = await newUser(ctx.db);
      const ad = await anAd();
      const favoritesId = await favoritesIdOf(ctx.db, user);
      const top = await createBoard(ctx.db, user, 'Top');
      const sub = await createBoard(ctx.db, user, 'Sub', top.id);
      await saveAd(ctx.db, user, ad.id, [favoritesId, top.id, sub.id]);
      const neighbourFavorites = await favoritesIdOf(ctx.db, neighbour);
      await saveAd(ctx.db, neighbour, ad.id, [neighbourFavorites]);

      await ctx.db.query('delete from auth.users where id = $1', [user.id]);

      const { rows: boards } = await ctx.db.query('select id from public.user_collections where user_id = $1', [user.id]);
      expect(boards).toEqual([]);
      const { rows: items } = await ctx.db.query('select 1 from public.user_collection_items where collection_id = any ($1::uuid[])', [
        [favoritesId, top.id, sub.id],
      ]);
      expect(items).toEqual([]);
      expect(await ownItems(ctx.db, neighbour)).toEqual([{ collection_id: neighbourFavorites, ad_id: ad.id }]);
    });
  });

  describe('save_ad_boards', () => {
    async function userWithBoards() {
      const user = await newUser(ctx.db);
      const ad = await anAd();
      const favoritesId = await favoritesIdOf(ctx.db, user);
      const a = await createBoard(ctx.db, user, 'A');
      const b = await createBoard(ctx.db, user, 'B', a.id);
      const c = await createBoard(ctx.db, user, 'C');
      return { user, ad, favoritesId, a: a.id, b: b.id, c: c.id };
    }

    it('adds and removes an ad\'s boards in one call and returns the boards that hold it afterwards', async () => {
      const { user, ad, favoritesId, a, b, c } = await userWithBoards();
      expect(await saveAd(ctx.db, user, ad.id, [a, favoritesId])).toEqual(sorted([a, favoritesId]));
      expect(await saveAd(ctx.db, user, ad.id, [b, c], [a, favoritesId])).toEqual(sorted([b, c]));
      expect(await ownItems(ctx.db, user)).toEqual(sorted([b, c]).map((id) => ({ collection_id: id, ad_id: ad.id })));
    });

    it("moves the updated_at of each board whose ads changed, and of no other (Realtime tells the owner's other tabs through it)", async () => {
      const { user, ad, favoritesId, a, b, c } = await userWithBoards();
      const updatedAt = async () =>
        Object.fromEntries(
          (await ctx.db.query<{ id: string; at: string }>('select id, updated_at::text as at from public.user_collections where user_id = $1', [user.id])).rows.map(
            (row) => [row.id, row.at],
          ),
        );
      const before = await updatedAt();
      await saveAd(ctx.db, user, ad.id, [a, favoritesId]);
      const added = await updatedAt();
      expect([a, favoritesId].map((id) => added[id]! > before[id]!)).toEqual([true, true]);
      expect([b, c].map((id) => added[id])).toEqual([b, c].map((id) => before[id]));
      await saveAd(ctx.db, user, ad.id, [], [favoritesId]);
      const removed = await updatedAt();
      expect(removed[favoritesId]! > added[favoritesId]!).toBe(true);
      expect([a, b, c].map((id) => removed[id])).toEqual([a, b, c].map((id) => added[id]));
    });

    it('returns the ad\'s current boards when called with nothing to add or remove', async () => {
      const { user, ad, a } = await userWithBoards();
      await saveAd(ctx.db, user, ad.id, [a]);
      expect(await saveAd(ctx.db, user, ad.id, [])).toEqual([a]);
    });

    it('saves an ad the user may not yet see clear; it stays saved', async () => {
      const { user, a } = await userWithBoards();
      const locked = await anAd({ requiresSubscription: true });
      expect(await saveAd(ctx.db, user, locked.id, [a])).toEqual([a]);
    });

    it.each([
      ['a board of another user', 'foreign'],
      ['an unknown board id', 'unknown'],
    ])('changes nothing at all and fails with board_not_found when the list holds %s', async (_label, kind) => {
      const { user, ad, favoritesId, a, b, c } = await userWithBoards();
      await saveAd(ctx.db, user, ad.id, [a, b]);
      const before = await ownItems(ctx.db, user);
      const other = await newUser(ctx.db);
      const stranger = kind === 'foreign' ? (await createBoard(ctx.db, other, 'Theirs')).id : '00000000-0000-4000-8000-000000000001';
      await expectPgError(saveAd(ctx.db, user, ad.id, [c, favoritesId, stranger], [a]), { code: 'PT404', detail: 'board_not_found' });
      await expectPgError(saveAd(ctx.db, user, ad.id, [c], [b, stranger]), { code: 'PT404', detail: 'board_not_found' });
      expect(await ownItems(ctx.db, user)).toEqual(before);
      expect(await ownItems(ctx.db, other)).toEqual([]);
    });

    it('rejects a board that is both added and removed, changing nothing', async () => {
      const { user, ad, a, b } = await userWithBoards();
      await saveAd(ctx.db, user, ad.id, [a]);
      await expectPgError(saveAd(ctx.db, user, ad.id, [b, a], [a]), { code: '22023', detail: 'board_add_remove_overlap' });
      expect(await ownItems(ctx.db, user)).toEqual([{ collection_id: a, ad_id: ad.id }]);
    });

    it('rejects more than 500 boards in one save with too_many_boards', async () => {
      const { user, ad, a } = await userWithBoards();
      const many = Array.from({ length: 501 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
      await expectPgError(saveAd(ctx.db, user, ad.id, [a, ...many]), { code: '22023', detail: 'too_many_boards' });
      expect(await ownItems(ctx.db, user)).toEqual([]);
    });

    it('fails with ad_not_found for an unknown ad', async () => {
      const { user, a } = await userWithBoards();
      await expectPgError(saveAd(ctx.db, user, '00000000-0000-4000-8000-000000000002', [a]), { code: 'PT404', detail: 'ad_not_found' });
      expect(await ownItems(ctx.db, user)).toEqual([]);
    });

    it('refuses anonymous callers with not_authenticated', async () => {
      const { user, ad, a } = await userWithBoards();
      await expectPgError(queryAs(ctx.db, anon, 'select public.save_ad_boards($1, $2::uuid[])', [ad.id, [a]]), {
        code: '42501',
        detail: 'not_authenticated',
      });
      expect(await ownItems(ctx.db, user)).toEqual([]);
    });

    it('is idempotent: repeating a save, or a duplicate id in a list, gives the same result', async () => {
      const { user, ad, a, b, c } = await userWithBoards();
      const first = await saveAd(ctx.db, user, ad.id, [a, b, b], [c]);
      const { rows: savedAt } = await ctx.db.query('select saved_at from public.user_collection_items where ad_id = $1 order by collection_id', [ad.id]);
      expect(await saveAd(ctx.db, user, ad.id, [a, b, b], [c])).toEqual(first);
      expect(first).toEqual(sorted([a, b]));
      const { rows: savedAtAgain } = await ctx.db.query('select saved_at from public.user_collection_items where ad_id = $1 order by collection_id', [ad.id]);
      expect(savedAtAgain).toEqual(savedAt);
    });
  });

  describe('v_user_collection_ads', () => {
    it('has the flat fields and no ad image path but the blurred preview', async () => {
      const { rows } = await ctx.db.query<{ column_name: string }>(
        `select column_name from information_schema.columns
          where table_schema = 'public' and table_name = 'v_user_collection_ads' order by ordinal_position`,
      );
      expect(rows.map((r) => r.column_name)).toEqual([
        'collection_id',
        'ad_id',
        'saved_at',
        'brand_id',
        'brand_name',
        'brand_logo_path',
        'category_id',
        'category_name',
        'created_at',
        'requires_subscription',
        'is_black_friday',
        'width',
        'height',
        'thumbhash',
        'preview_path',
      ]);
    });

    it('shows the owner the ads of a board with brand and category, newest saved first', async () => {
      const user = await newUser(ctx.db);
      const brand = await newBrand(ctx.db);
      const category = await newCategory(ctx.db);
      const board = await createBoard(ctx.db, user, 'Board');
      const oldest = await newAd(ctx.db, { brandId: brand.id, categoryId: category.id, createdAt: '2026-03-01T00:00:00Z' });
      const middle = await newAd(ctx.db, { brandId: brand.id, categoryId: category.id, createdAt: '2026-01-01T00:00:00Z' });
      const newest = await newAd(ctx.db, { brandId: brand.id, categoryId: category.id, createdAt: '2026-02-01T00:00:00Z' });
      for (const ad of [oldest, middle, newest]) {
        await saveAd(ctx.db, user, ad.id, [board.id]);
        // Saves a few microseconds apart can share a timestamp (the engine's clock is coarser), and then order by id.
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      const elsewhere = await createBoard(ctx.db, user, 'Elsewhere');
      await saveAd(ctx.db, user, (await anAd()).id, [elsewhere.id]);

      const rows = await queryAs<Record<string, unknown>>(
        ctx.db,
        userActor(user),
        'select * from public.v_user_collection_ads where collection_id = $1 order by saved_at desc, ad_id desc',
        [board.id],
      );
      expect(rows.map((r) => r.ad_id)).toEqual([newest.id, middle.id, oldest.id]);
      expect(rows[0]).toMatchObject({
        collection_id: board.id,
        ad_id: newest.id,
        brand_id: brand.id,
        brand_name: brand.name,
        brand_logo_path: null,
        category_id: category.id,
        category_name: category.name,
        requires_subscription: true,
        is_black_friday: false,
        width: 1080,
        height: 1350,
        preview_path: newest.preview_path,
      });
      expect(Object.keys(rows[0]!).filter((key) => /path$/.test(key))).toEqual(['brand_logo_path', 'preview_path']);
    });

    it('shows another user nothing of a user\'s board', async () => {
      const user = await newUser(ctx.db);
      const other = await newUser(ctx.db);
      const board = await createBoard(ctx.db, user, 'Board');
      await saveAd(ctx.db, user, (await anAd()).id, [board.id]);
      expect(await queryAs(ctx.db, userActor(other), 'select * from public.v_user_collection_ads')).toEqual([]);
      expect(await queryAs(ctx.db, userActor(user), 'select ad_id from public.v_user_collection_ads')).toHaveLength(1);
    });
  });

  describe('delete_board', () => {
    async function tree() {
      const user = await newUser(ctx.db);
      const ad = await anAd();
      const root = await createBoard(ctx.db, user, 'Root');
      const doomed = await createBoard(ctx.db, user, 'Doomed', root.id);
      const child = await createBoard(ctx.db, user, 'Child', doomed.id);
      const grandchild = await createBoard(ctx.db, user, 'Grandchild', child.id);
      const favoritesId = await favoritesIdOf(ctx.db, user);
      await saveAd(ctx.db, user, ad.id, [root.id, doomed.id, child.id, grandchild.id, favoritesId]);
      return { user, ad, root: root.id, doomed: doomed.id, child: child.id, grandchild: grandchild.id, favoritesId };
    }

    it('deletes a board with its ads and, when asked, its sub-boards and theirs, returning every deleted id', async () => {
      const { user, ad, root, doomed, child, grandchild, favoritesId } = await tree();
      expect(await deleteBoard(ctx.db, userActor(user), doomed, false)).toEqual(sorted([doomed, child, grandchild]));
      expect((await ownBoards(ctx.db, user)).map((b) => b.id)).toEqual(sorted([root, favoritesId]));
      expect(await ownItems(ctx.db, user)).toEqual(sorted([root, favoritesId]).map((id) => ({ collection_id: id, ad_id: ad.id })));
    });

    it('moves the sub-boards up to the deleted board\'s parent, with their own ads, and deletes only the board\'s ads', async () => {
      const { user, ad, root, doomed, child, grandchild, favoritesId } = await tree();
      expect(await deleteBoard(ctx.db, userActor(user), doomed, true)).toEqual([doomed]);
      const boards = await ownBoards(ctx.db, user);
      expect(boards.find((b) => b.id === child)!.parent_id).toBe(root);
      expect(boards.find((b) => b.id === grandchild)!.parent_id).toBe(child);
      expect(boards.some((b) => b.id === doomed)).toBe(false);
      expect(await ownItems(ctx.db, user)).toEqual(
        sorted([root, child, grandchild, favoritesId]).map((id) => ({ collection_id: id, ad_id: ad.id })),
      );
    });

    it('moves the sub-boards of a top-level board to the top level', async () => {
      const { user, root, doomed } = await tree();
      expect(await deleteBoard(ctx.db, userActor(user), root, true)).toEqual([root]);
      expect((await boardById(ctx.db, doomed))!.parent_id).toBeNull();
    });

    it('fails with board_not_found for an unknown board and for another user\'s board, changing nothing', async () => {
      const { user, doomed } = await tree();
      const other = await newUser(ctx.db);
      const before = [await ownBoards(ctx.db, user), await ownItems(ctx.db, user)];
      for (const moveUp of [true, false]) {
        await expectPgError(deleteBoard(ctx.db, userActor(other), doomed, moveUp), { code: 'PT404', detail: 'board_not_found' });
        await expectPgError(deleteBoard(ctx.db, userActor(user), '00000000-0000-4000-8000-000000000003', moveUp), {
          code: 'PT404',
          detail: 'board_not_found',
        });
      }
      expect([await ownBoards(ctx.db, user), await ownItems(ctx.db, user)]).toEqual(before);
    });

    it('requires the confirmation\'s choice for the sub-boards', async () => {
      const { user, doomed } = await tree();
      await expectPgError(
        queryAs(ctx.db, userActor(user), 'select public.delete_board($1, null)', [doomed]),
        { code: '22023', detail: 'move_children_up_required' },
      );
      expect(await boardById(ctx.db, doomed)).toBeDefined();
    });

    it('refuses anonymous callers with not_authenticated', async () => {
      const { doomed } = await tree();
      await expectPgError(deleteBoard(ctx.db, anon, doomed, true), { code: '42501', detail: 'not_authenticated' });
      expect(await boardById(ctx.db, doomed)).toBeDefined();
    });
  });

  // PGlite has one connection; concurrency exists on PostgreSQL only.
  if (ctx.engine === 'postgres') describe('two connections at once', () => {
    it('two concurrent first calls of get_or_create_favorites_id create one Favorites board', async () => {
      const user = await newUser(ctx.db);
      const first = await holdTransaction(ctx.db, userActor(user));
      const second = await holdTransaction(ctx.db, userActor(user));
      const [firstRow] = await first.query<{ id: string }>('select public.get_or_create_favorites_id() as id');
      const secondCall = second.query<{ id: string }>('select public.get_or_create_favorites_id() as id');
      await untilSomeoneWaitsForALock(ctx.db);
      await first.commit();
      const [secondRow] = await secondCall;
      await second.commit();
      expect(secondRow!.id).toBe(firstRow!.id);
      expect((await ownBoards(ctx.db, user)).map((b) => b.id)).toEqual([firstRow!.id]);
    });

    it('two concurrent moves cannot put two boards inside each other', async () => {
      const user = await newUser(ctx.db);
      const a = await createBoard(ctx.db, user, 'A');
      const b = await createBoard(ctx.db, user, 'B');
      const first = await holdTransaction(ctx.db, userActor(user));
      const second = await holdTransaction(ctx.db, userActor(user));
      await first.query('update public.user_collections set parent_id = $2 where id = $1', [a.id, b.id]);
      const secondMove = second.query('update public.user_collections set parent_id = $2 where id = $1', [b.id, a.id]);
      const secondError = expectPgError(secondMove, { code: 'P0001', detail: 'board_cycle' });
      await untilSomeoneWaitsForALock(ctx.db);
      await first.commit();
      await secondError;
      await second.commit();
      expect((await boardById(ctx.db, a.id))!.parent_id).toBe(b.id);
      expect((await boardById(ctx.db, b.id))!.parent_id).toBeNull();
    });

    // An insert's foreign key check holds a key-share lock on the board while the caps wait for the owner's tree lock;
    // the save holding that lock must not then wait for the key share (it did, and parallel saves deadlocked).
    it('a save is not held up by another save\'s key-share lock on the board', async () => {
      const user = await newUser(ctx.db);
      const board = await createBoard(ctx.db, user, 'Hooks');
      const [first, second] = [await anAd(), await anAd()];
      const checking = await holdTransaction(ctx.db, userActor(user));
      await checking.query('select 1 from public.user_collections where id = $1 for key share', [board.id]);
      const saving = await holdTransaction(ctx.db, userActor(user));
      await saving.query("set local lock_timeout = '3s'");
      const [saved] = await saving.query<{ boards: string[] }>(
        'select public.save_ad_boards($1, $2::uuid[], $3::uuid[]) as boards', [first.id, [board.id], []]);
      expect(saved!.boards).toEqual([board.id]);
      const secondSave = checking.query('select public.save_ad_boards($1, $2::uuid[], $3::uuid[])', [second.id, [board.id], []]);
      await untilSomeoneWaitsForALock(ctx.db);
      await saving.commit();
      await secondSave;
      await checking.commit();
      expect(await savedAdIds(ctx.db, board.id)).toEqual(sorted([first.id, second.id]));
    });

    it('24 saves of one user into one board at once all finish, and so do their removals', async () => {
      const user = await newUser(ctx.db);
      const board = await createBoard(ctx.db, user, 'Busy');
      const ads: TestAd[] = [];
      for (let i = 0; i < 24; i += 1) ads.push(await anAd());
      const save = (ad: TestAd, add: string[], remove: string[]) =>
        queryAs(ctx.db, userActor(user), 'select public.save_ad_boards($1, $2::uuid[], $3::uuid[])', [ad.id, add, remove]);
      await Promise.all(ads.map((ad) => save(ad, [board.id], [])));
      expect(await savedAdIds(ctx.db, board.id)).toEqual(sorted(ads.map((ad) => ad.id)));
      await Promise.all(ads.map((ad, i) => (i % 2 === 0 ? save(ad, [], [board.id]) : save(ad, [board.id], []))));
      expect(await savedAdIds(ctx.db, board.id)).toEqual(sorted(ads.filter((_, i) => i % 2 === 1).map((ad) => ad.id)));
    });
  });
});
