import { beforeAll, describe, expect, it } from 'vitest';
import { describeOnEngines } from '../support/engines.ts';
import { anon, as, expectPgError, queryAs, userActor, type Actor } from '../support/acting.ts';
import type { Queryable } from '../../local/db/database.ts';
import {
  newAd,
  newBrand,
  newCategory,
  newObject,
  newPersonas,
  newTag,
  newType,
  systemTagId,
  type Personas,
} from '../support/factories.ts';

const tables = ['brands', 'categories', 'tags', 'types'] as const;
const factories = { brands: newBrand, categories: newCategory, tags: newTag, types: newType };
const uniqueName = (prefix: string) => `${prefix} ${Math.random().toString(36).slice(2, 10)}`;

/** The whole table as the owner sees it, to prove a refused write changed nothing. */
async function snapshot(db: Queryable, table: string): Promise<unknown[]> {
  return (await db.query(`select to_jsonb(t) as row from public.${table} t order by t.id`)).rows;
}

async function queuedDeletions(db: Queryable, bucket: string, name: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    'select count(*)::int as n from public.storage_deletions where bucket_id = $1 and name = $2',
    [bucket, name],
  );
  return rows[0]!.n;
}

describeOnEngines('catalogue: brands, categories, tags and types', (ctx) => {
  let people: Personas;
  let admin: Actor;
  const nonAdmins = (): [string, Actor][] => [
    ['anonymous', anon],
    ['a free user', userActor(people.free)],
    ['a subscriber', userActor(people.subscriber)],
  ];

  beforeAll(async () => {
    people = await newPersonas(ctx.db);
    admin = userActor(people.admin);
  });

  it('lets everyone read every catalogue table, the system tags included', async () => {
    const rows = {
      brands: await newBrand(ctx.db),
      categories: await newCategory(ctx.db),
      tags: await newTag(ctx.db),
      types: await newType(ctx.db),
    };
    for (const [, actor] of [...nonAdmins(), ['an admin', admin] as [string, Actor]]) {
      for (const table of tables) {
        const names = (await queryAs<{ name: string }>(ctx.db, actor, `select name from public.${table}`)).map((r) => r.name);
        expect(names).toContain(rows[table].name);
      }
      const system = await queryAs<{ name: string; system_key: string }>(
        ctx.db, actor, 'select name, system_key from public.tags where system_key is not null order by system_key');
      expect(system).toEqual([
        { name: 'Black Friday', system_key: 'black_friday' },
        { name: 'Top Picks', system_key: 'top_picks' },
      ]);
    }
  });

  for (const table of tables) {
    describe(table, () => {
      it('lets an admin add, rename and delete one, with the name trimmed and its whitespace collapsed', async () => {
        const base = uniqueName('Acme');
        const [created] = await queryAs<{ id: string; name: string }>(
          ctx.db, admin, `insert into public.${table} (name) values ($1) returning id, name`, [`   ${base.replace(' ', ' \t  ')}  `]);
        expect(created!.name).toBe(base);
        const [renamed] = await queryAs<{ name: string }>(
          ctx.db, admin, `update public.${table} set name = $2 where id = $1 returning name`, [created!.id, `  ${base}   Two `]);
        expect(renamed!.name).toBe(`${base} Two`);
        const deleted = await queryAs(ctx.db, admin, `delete from public.${table} where id = $1 returning id`, [created!.id]);
        expect(deleted).toHaveLength(1);
        expect(await ctx.db.query(`select 1 from public.${table} where id = $1`, [created!.id])).toMatchObject({ rows: [] });
      });

      it('refuses adds, renames and deletes by anyone but an admin, and changes nothing', async () => {
        const row = await factories[table](ctx.db);
        const before = await snapshot(ctx.db, table);
        for (const [, actor] of nonAdmins()) {
          await expectPgError(queryAs(ctx.db, actor, `insert into public.${table} (name) values ($1)`, [uniqueName('Sneaky')]), {
            code: '42501',
          });
          // Row-level security hides the row from the write, or the role has no right to write at all.
          for (const sql of [
            `update public.${table} set name = 'Renamed by a visitor' where id = $1 returning id`,
            `delete from public.${table} where id = $1 returning id`,
          ]) {
            const outcome = await queryAs(ctx.db, actor, sql, [row.id]).then(
              (rows) => rows.length,
              (error: { code?: string }) => error.code,
            );
            expect([0, '42501']).toContain(outcome);
          }
        }
        expect(await snapshot(ctx.db, table)).toEqual(before);
      });

      it(`refuses an empty or whitespace-only name with ${table}_name_not_empty`, async () => {
        const row = await factories[table](ctx.db);
        for (const name of ['', '   ', '\t \n ']) {
          await expectPgError(queryAs(ctx.db, admin, `insert into public.${table} (name) values ($1)`, [name]), {
            code: '23514',
            constraint: `${table}_name_not_empty`,
          });
          await expectPgError(queryAs(ctx.db, admin, `update public.${table} set name = $2 where id = $1`, [row.id, name]), {
            code: '23514',
            constraint: `${table}_name_not_empty`,
          });
        }
        expect((await ctx.db.query<{ name: string }>(`select name from public.${table} where id = $1`, [row.id])).rows[0]!.name).toBe(
          row.name,
        );
      });

      it(`refuses a name of more than 80 characters with ${table}_name_length`, async () => {
        await expectPgError(queryAs(ctx.db, admin, `insert into public.${table} (name) values ($1)`, ['x'.repeat(81)]), {
          code: '23514',
          constraint: `${table}_name_length`,
        });
      });

      it(`refuses a duplicate that differs only in case or surrounding spaces with ${table}_name_unique`, async () => {
        const row = await factories[table](ctx.db, uniqueName('Glossier'));
        const other = await factories[table](ctx.db);
        const before = await snapshot(ctx.db, table);
        for (const name of [row.name.toUpperCase(), `  ${row.name.toLowerCase()}  `, row.name.replace(' ', '   ')]) {
          await expectPgError(queryAs(ctx.db, admin, `insert into public.${table} (name) values ($1)`, [name]), {
            code: '23505',
            constraint: `${table}_name_unique`,
          });
          await expectPgError(queryAs(ctx.db, admin, `update public.${table} set name = $2 where id = $1`, [other.id, name]), {
            code: '23505',
            constraint: `${table}_name_unique`,
          });
        }
        expect(await snapshot(ctx.db, table)).toEqual(before);
      });
    });
  }

  describe('system tags', () => {
    it('cannot be deleted, even by an admin or the owner', async () => {
      const before = await snapshot(ctx.db, 'tags');
      for (const key of ['black_friday', 'top_picks'] as const) {
        const id = await systemTagId(ctx.db, key);
        await expectPgError(queryAs(ctx.db, admin, 'delete from public.tags where id = $1', [id]), {
          code: 'P0001',
          detail: 'system_tag_protected',
        });
        await expectPgError(ctx.db.query('delete from public.tags where id = $1', [id]), { detail: 'system_tag_protected' });
      }
      expect(await snapshot(ctx.db, 'tags')).toEqual(before);
    });

    it('cannot be re-keyed: an admin has no right to the column and the owner is refused', async () => {
      const blackFriday = await systemTagId(ctx.db, 'black_friday');
      const ordinary = await newTag(ctx.db);
      const before = await snapshot(ctx.db, 'tags');
      await expectPgError(queryAs(ctx.db, admin, `update public.tags set system_key = null where id = $1`, [blackFriday]), {
        code: '42501',
        message: /permission denied/,
      });
      await expectPgError(ctx.db.query(`update public.tags set system_key = 'top_picks' where id = $1`, [blackFriday]), {
        detail: 'system_tag_protected',
      });
      await expectPgError(ctx.db.query(`update public.tags set system_key = 'black_friday' where id = $1`, [ordinary.id]), {
        detail: 'system_tag_protected',
      });
      await expectPgError(queryAs(ctx.db, admin, `insert into public.tags (name, system_key) values ('Fake BF', 'black_friday')`), {
        code: '42501',
      });
      expect(await snapshot(ctx.db, 'tags')).toEqual(before);
    });

    it('can be renamed by an admin and keeps its board role', async () => {
      const id = await systemTagId(ctx.db, 'top_picks');
      await queryAs(ctx.db, admin, `update public.tags set name = '  Top   Picks 2026 ' where id = $1`, [id]);
      expect((await ctx.db.query('select name, system_key from public.tags where id = $1', [id])).rows).toEqual([
        { name: 'Top Picks 2026', system_key: 'top_picks' },
      ]);
      await queryAs(ctx.db, admin, `update public.tags set name = 'Top Picks' where id = $1`, [id]);
    });
  });

  describe('deleting what ads use', () => {
    for (const table of ['brands', 'categories'] as const) {
      const detail = table === 'brands' ? 'brand_in_use' : 'category_in_use';
      it(`refuses to delete one of the ${table} that ads still use (${detail}) and changes nothing`, async () => {
        const brand = await newBrand(ctx.db);
        const category = await newCategory(ctx.db);
        await newAd(ctx.db, { brandId: brand.id, categoryId: category.id });
        const target = table === 'brands' ? brand : category;
        const before = await snapshot(ctx.db, table);
        const adsBefore = await snapshot(ctx.db, 'ads');
        await expectPgError(queryAs(ctx.db, admin, `delete from public.${table} where id = $1`, [target.id]), {
          code: 'P0001',
          detail,
          message: `"${target.name}" is still used by 1 ad(s); move or delete them first`,
        });
        expect(await snapshot(ctx.db, table)).toEqual(before);
        expect(await snapshot(ctx.db, 'ads')).toEqual(adsBefore);
      });

      it(`keeps the ads' foreign key on ${table} restricting, behind the named check`, async () => {
        const brand = await newBrand(ctx.db);
        const category = await newCategory(ctx.db);
        await newAd(ctx.db, { brandId: brand.id, categoryId: category.id });
        const target = table === 'brands' ? brand : category;
        const trigger = `${table}_refuse_delete_in_use`;
        const fk = table === 'brands' ? 'ads_brand_id_fkey' : 'ads_category_id_fkey';
        await expectPgError(
          ctx.db.transaction(async (tx) => {
            await tx.query(`alter table public.${table} disable trigger ${trigger}`);
            await tx.query(`delete from public.${table} where id = $1`, [target.id]);
          }),
          // 23503 on PostgreSQL before 18, restrict_violation 23001 from 18 on.
          { constraint: fk, message: /violates .*foreign key constraint/ },
        );
        expect((await ctx.db.query(`select 1 from public.${table} where id = $1`, [target.id])).rows).toHaveLength(1);
      });
    }

    it('lets an admin delete a type, leaving its ads with no type', async () => {
      const brand = await newBrand(ctx.db);
      const category = await newCategory(ctx.db);
      const type = await newType(ctx.db);
      const ad = await newAd(ctx.db, { brandId: brand.id, categoryId: category.id, typeId: type.id });
      await queryAs(ctx.db, admin, 'delete from public.types where id = $1', [type.id]);
      expect((await ctx.db.query('select type_id from public.ads where id = $1', [ad.id])).rows).toEqual([{ type_id: null }]);
    });

    it('lets an admin delete an ordinary tag, removing it from its ads', async () => {
      const brand = await newBrand(ctx.db);
      const category = await newCategory(ctx.db);
      const tag = await newTag(ctx.db);
      const ad = await newAd(ctx.db, { brandId: brand.id, categoryId: category.id, tagIds: [tag.id] });
      await queryAs(ctx.db, admin, 'delete from public.tags where id = $1', [tag.id]);
      expect((await ctx.db.query('select tag_id from public.ad_tags where ad_id = $1', [ad.id])).rows).toEqual([]);
    });
  });

  describe('brand logos', () => {
    it('refuses a logo path that is not an uploaded brand-logos object (image_missing) and changes nothing', async () => {
      const brand = await newBrand(ctx.db);
      const before = await snapshot(ctx.db, 'brands');
      await newObject(ctx.db, 'banners', `${brand.id}/in-the-wrong-bucket.png`, 'image/png');
      for (const path of [`${brand.id}/never-uploaded.png`, `${brand.id}/in-the-wrong-bucket.png`]) {
        await expectPgError(queryAs(ctx.db, admin, 'update public.brands set logo_path = $2 where id = $1', [brand.id, path]), {
          code: 'P0001',
          detail: 'image_missing',
          message: `Image ${path} has not been uploaded`,
        });
        await expectPgError(
          queryAs(ctx.db, admin, 'insert into public.brands (name, logo_path) values ($1, $2)', [uniqueName('Logo brand'), path]),
          { detail: 'image_missing' },
        );
      }
      expect(await snapshot(ctx.db, 'brands')).toEqual(before);
    });

    it('refuses a logo path with "..", a leading slash or odd characters with brands_logo_path_format', async () => {
      const brand = await newBrand(ctx.db);
      for (const path of ['../etc/passwd', '/root.png', 'a/../b.png', 'logo name.png']) {
        await newObject(ctx.db, 'brand-logos', path, 'image/png');
        await expectPgError(queryAs(ctx.db, admin, 'update public.brands set logo_path = $2 where id = $1', [brand.id, path]), {
          code: '23514',
          constraint: 'brands_logo_path_format',
        });
      }
    });

    it('takes an uploaded logo, and queues the old object for removal when it is replaced or removed', async () => {
      const brand = await newBrand(ctx.db);
      const first = `${brand.id}/1000-logo.png`;
      const second = `${brand.id}/2000-logo.png`;
      await newObject(ctx.db, 'brand-logos', first, 'image/png');
      await newObject(ctx.db, 'brand-logos', second, 'image/png');
      await queryAs(ctx.db, admin, 'update public.brands set logo_path = $2 where id = $1', [brand.id, first]);
      expect(await queuedDeletions(ctx.db, 'brand-logos', first)).toBe(0);
      await queryAs(ctx.db, admin, 'update public.brands set logo_path = $2 where id = $1', [brand.id, second]);
      expect(await queuedDeletions(ctx.db, 'brand-logos', first)).toBe(1);
      expect(await queuedDeletions(ctx.db, 'brand-logos', second)).toBe(0);
      await queryAs(ctx.db, admin, 'update public.brands set logo_path = null where id = $1', [brand.id]);
      expect(await queuedDeletions(ctx.db, 'brand-logos', second)).toBe(1);
      const [everyone] = await queryAs<{ logo_path: string | null }>(ctx.db, anon, 'select logo_path from public.brands where id = $1', [
        brand.id,
      ]);
      expect(everyone!.logo_path).toBeNull();
    });

    it("queues a deleted brand's logo, and takes a logo set again out of the queue", async () => {
      const brand = await newBrand(ctx.db);
      const logo = `${brand.id}/3000-logo.webp`;
      await newObject(ctx.db, 'brand-logos', logo);
      await queryAs(ctx.db, admin, 'update public.brands set logo_path = $2 where id = $1', [brand.id, logo]);
      await queryAs(ctx.db, admin, 'delete from public.brands where id = $1', [brand.id]);
      expect(await queuedDeletions(ctx.db, 'brand-logos', logo)).toBe(1);
      await queryAs(ctx.db, admin, 'insert into public.brands (name, logo_path) values ($1, $2)', [uniqueName('Reborn'), logo]);
      expect(await queuedDeletions(ctx.db, 'brand-logos', logo)).toBe(0);
    });

    it('does not queue a logo that another brand still shows', async () => {
      const a = await newBrand(ctx.db);
      const b = await newBrand(ctx.db);
      const shared = `${a.id}/shared-logo.png`;
      await newObject(ctx.db, 'brand-logos', shared, 'image/png');
      await queryAs(ctx.db, admin, 'update public.brands set logo_path = $2 where id = any ($1)', [[a.id, b.id], shared]);
      await queryAs(ctx.db, admin, 'update public.brands set logo_path = null where id = $1', [a.id]);
      expect(await queuedDeletions(ctx.db, 'brand-logos', shared)).toBe(0);
      await queryAs(ctx.db, admin, 'delete from public.brands where id = $1', [b.id]);
      expect(await queuedDeletions(ctx.db, 'brand-logos', shared)).toBe(1);
    });

    it('refuses a logo change by anyone but an admin', async () => {
      const brand = await newBrand(ctx.db);
      const logo = `${brand.id}/4000-logo.png`;
      await newObject(ctx.db, 'brand-logos', logo, 'image/png');
      for (const [, actor] of nonAdmins()) {
        const outcome = await queryAs(ctx.db, actor, 'update public.brands set logo_path = $2 where id = $1 returning id', [
          brand.id,
          logo,
        ]).then(
          (rows) => rows.length,
          (error: { code?: string }) => error.code,
        );
        expect([0, '42501']).toContain(outcome);
      }
      expect((await ctx.db.query('select logo_path from public.brands where id = $1', [brand.id])).rows).toEqual([{ logo_path: null }]);
    });
  });

  it('runs each write as one statement: a refused multi-row insert adds none of its rows', async () => {
    const name = uniqueName('Batch');
    await expectPgError(
      as(ctx.db, admin, (q) => q.query(`insert into public.categories (name) values ($1), ('  ')`, [name])),
      { constraint: 'categories_name_not_empty' },
    );
    expect((await ctx.db.query('select 1 from public.categories where name = $1', [name])).rows).toEqual([]);
  });
});
