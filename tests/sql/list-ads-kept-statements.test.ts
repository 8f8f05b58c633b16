import { beforeAll, expect, it } from 'vitest';
import type { Queryable } from '../../local/db/database.ts';
import { becomeIn, userActor, anon, type Actor } from '../support/acting.ts';
import { describeOnEngines } from '../support/engines.ts';
import { newAds, newBrand, newCategory, newPersonas, type Personas } from '../support/factories.ts';

/**
 * list_ads prepares each statement it builds once a session and runs it by name: the statements a
 * session keeps are named in the setting obyect.kept_statements, 64 at most. Each test runs in one transaction on one
 * connection, which is one session, as the API's connections are.
 */

interface Page {
  ads: { id: string }[];
  next_cursor: string | null;
}

describeOnEngines('list_ads keeps the plans of its statements', (ctx) => {
  let people: Personas;

  beforeAll(async () => {
    people = await newPersonas(ctx.db);
    const brand = await newBrand(ctx.db);
    const category = await newCategory(ctx.db);
    await newAds(ctx.db, 70, { brandId: brand.id, categoryId: category.id, startAt: '2026-03-01T00:00:00Z' });
  });

  /** fn in one transaction, rolled back, with no statement kept from an earlier test on the same connection. */
  const inSession = (fn: (tx: Queryable) => Promise<void>) =>
    ctx.db
      .transaction(async (tx) => {
        await tx.query('select private.forget_kept_statements()');
        await fn(tx);
        throw new Rollback();
      })
      .catch((error: unknown) => {
        if (!(error instanceof Rollback)) throw error;
      });

  const listAs = async (tx: Queryable, actor: Actor, args = `p_sort => 'newest'`): Promise<Page> => {
    await tx.query('savepoint acting');
    await becomeIn(tx, actor);
    const { rows } = await tx.query<{ page: Page }>(`select public.list_ads(${args}) as page`);
    await tx.query('release savepoint acting');
    await tx.query('reset role');
    return rows[0]!.page;
  };
  const ids = (page: Page) => page.ads.map((ad) => ad.id);
  const kept = async (tx: Queryable) => {
    const { rows } = await tx.query<{ listed: string; held: string[] }>(
      `select coalesce(current_setting('obyect.kept_statements', true), '') as listed,
              array(select s.name from pg_prepared_statements s where s.name like 'obyect\\_%' order by s.name) as held`,
    );
    return { listed: rows[0]!.listed.split(' ').filter(Boolean), held: rows[0]!.held };
  };

  it('answers the same every call, the first ones planned for their values and the later ones with one kept plan', async () => {
    await inSession(async (tx) => {
      const first = await listAs(tx, userActor(people.subscriber));
      expect(first.ads).toHaveLength(60);
      const { listed, held } = await kept(tx);
      expect(listed.length).toBeGreaterThan(0);
      expect([...listed].sort()).toEqual(held);
      for (let call = 0; call < 9; call += 1) {
        expect(ids(await listAs(tx, userActor(people.subscriber)))).toEqual(ids(first));
      }
      // A later page is a statement of its own (it reads from the cursor), which its next calls run again.
      const cursor = `p_sort => 'newest', p_cursor => '${first.next_cursor}'`;
      const second = await listAs(tx, anon, cursor);
      expect(ids(second)).toHaveLength(10);
      expect(ids(second).some((id) => ids(first).includes(id))).toBe(false);
      const paged = (await kept(tx)).held;
      expect(paged).toEqual(expect.arrayContaining(held));
      expect(paged.length).toBeGreaterThan(held.length);
      for (let call = 0; call < 6; call += 1) expect(ids(await listAs(tx, anon, cursor))).toEqual(ids(second));
      expect((await kept(tx)).held).toEqual(paged);
    });
  });

  it('makes its page again when a statement the setting names is gone', async () => {
    await inSession(async (tx) => {
      const before = await listAs(tx, anon);
      expect((await kept(tx)).held.length).toBeGreaterThan(0);
      await tx.query('deallocate all');
      expect(ids(await listAs(tx, anon))).toEqual(ids(before));
      const { listed, held } = await kept(tx);
      expect(held.length).toBeGreaterThan(0);
      expect([...listed].sort()).toEqual(held);
    });
  });

  it('takes up a statement a rolled-back transaction left prepared but forgot in the setting', async () => {
    await inSession(async (tx) => {
      await tx.query('savepoint forgets');
      const before = await listAs(tx, anon);
      const held = (await kept(tx)).held;
      await tx.query('rollback to savepoint forgets');
      expect((await kept(tx)).listed).toEqual([]);
      expect((await kept(tx)).held).toEqual(held);
      expect(ids(await listAs(tx, anon))).toEqual(ids(before));
      const after = await kept(tx);
      expect(after.held).toEqual(held);
      expect([...after.listed].sort()).toEqual(held);
    });
  });

  it('keeps the 64 statements run last and lets the others go', async () => {
    await inSession(async (tx) => {
      const name = (n: number) => `obyect_${n.toString(16).padStart(32, '0')}`;
      for (let n = 1; n <= 70; n += 1) {
        await tx.query(`select private.keep_statement($1, $2, 'int')`, [name(n), `select $1 + ${n} as sum`]);
      }
      const { listed, held } = await kept(tx);
      const last64 = Array.from({ length: 64 }, (_, i) => name(i + 7));
      expect(listed).toEqual(last64);
      expect(held).toEqual([...last64].sort());
      const { rows } = await tx.query<{ sum: number }>(`execute ${name(70)}(2)`);
      expect(Number(rows[0]!.sum)).toBe(72);
      // Run again, a kept statement moves to the end of the list and is not prepared twice.
      await tx.query(`select private.keep_statement($1, $2, 'int')`, [name(7), 'select $1 + 7 as sum']);
      expect((await kept(tx)).listed).toEqual([...last64.slice(1), name(7)]);
    });
  });

  it('prepares only names of its own form, and no API role may call its helpers', async () => {
    await inSession(async (tx) => {
      await tx.query('savepoint bad_name');
      await expect(tx.query(`select private.keep_statement('x; drop table public.ads', 'select 1', 'int')`)).rejects.toThrow(
        /Not a kept statement's name/,
      );
      await tx.query('rollback to savepoint bad_name');
      for (const role of ['anon', 'authenticated']) {
        await tx.query('savepoint role');
        await tx.query(`set local role ${role}`);
        await expect(tx.query(`select private.forget_kept_statements()`)).rejects.toThrow(/permission denied/);
        await tx.query('rollback to savepoint role');
      }
    });
  });
});

class Rollback extends Error {}
