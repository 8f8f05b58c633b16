import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeOnEngines } from '../support/engines.ts';
import { anon, expectPgError, queryAs, userActor, type Actor } from '../support/acting.ts';
import type { Queryable } from '../../local/db/database.ts';
import {
  newAd,
  newBoard,
  newBrand,
  newCategory,
  newObject,
  newPersonas,
  newTag,
  systemTagId,
  type Personas,
} from '../support/factories.ts';

const thumbhash = 'YJqGPQw7sFlslqhFafSE+Q6oJ1h2iHB2Rw==';
const pathColumns = ['original_path', 'display_480_path', 'display_960_path'] as const;
const catalogueColumns =
  'id, brand_id, category_id, type_id, created_at, requires_subscription, is_black_friday, is_top_picks, width, height, thumbhash, preview_path';

interface AdPaths {
  original_path: string;
  display_480_path: string;
  display_960_path: string;
  preview_path: string;
}

const pathBuckets: Record<keyof AdPaths, string> = {
  original_path: 'ad-originals',
  display_480_path: 'ad-images',
  display_960_path: 'ad-images',
  preview_path: 'ad-images',
};

function freshPaths(): AdPaths {
  const folder = randomBytes(16).toString('hex');
  return {
    original_path: `${folder}/original.jpg`,
    display_480_path: `${folder}/480.webp`,
    display_960_path: `${folder}/960.webp`,
    preview_path: `previews/${randomBytes(16).toString('hex')}.webp`,
  };
}

async function upload(db: Queryable, paths: AdPaths, skip?: keyof AdPaths): Promise<void> {
  for (const [column, name] of Object.entries(paths) as [keyof AdPaths, string][]) {
    if (column !== skip) await newObject(db, pathBuckets[column], name);
  }
}

const insertAdSql = `insert into public.ads (brand_id, category_id, original_path, display_480_path, display_960_path, preview_path,
                                             width, height, thumbhash)
                     values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning id`;

async function queued(db: Queryable, bucket: string, name: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    'select count(*)::int as n from public.storage_deletions where bucket_id = $1 and name = $2', [bucket, name]);
  return rows[0]!.n;
}

async function countsAgree(db: Queryable): Promise<{ kept: number; real: number }> {
  const { rows } = await db.query<{ kept: number; real: number }>(
    'select (select total from private.ad_counts)::int as kept, (select count(*) from public.ads)::int as real');
  return rows[0]!;
}

describeOnEngines('ads', (ctx) => {
  let people: Personas;
  let admin: Actor;
  let brandId: string;
  let categoryId: string;
  const apiActors = (): [string, Actor][] => [
    ['anonymous', anon],
    ['a free user', userActor(people.free)],
    ['a subscriber', userActor(people.subscriber)],
    ['an admin', admin],
  ];
  const nonAdmins = () => apiActors().filter(([, actor]) => actor !== admin);

  beforeAll(async () => {
    people = await newPersonas(ctx.db);
    admin = userActor(people.admin);
    brandId = (await newBrand(ctx.db)).id;
    categoryId = (await newCategory(ctx.db)).id;
  });

  const adValues = (paths: AdPaths, size: { width?: number; height?: number; thumbhash?: string } = {}) => [
    brandId, categoryId, paths.original_path, paths.display_480_path, paths.display_960_path, paths.preview_path,
    size.width ?? 1080, size.height ?? 1350, size.thumbhash ?? thumbhash,
  ];

  describe('uploads come before rows', () => {
    for (const column of ['original_path', 'display_480_path', 'display_960_path', 'preview_path'] as const) {
      it(`refuses an ad whose ${column} object is not in ${pathBuckets[column]} (image_missing)`, async () => {
        const paths = freshPaths();
        await upload(ctx.db, paths, column);
        const before = await countsAgree(ctx.db);
        await expectPgError(queryAs(ctx.db, admin, insertAdSql, adValues(paths)), {
          code: 'P0001',
          detail: 'image_missing',
          message: `Image ${paths[column]} has not been uploaded`,
        });
        expect(await countsAgree(ctx.db)).toEqual(before);
      });
    }

    it('refuses an object of the right name in the wrong bucket', async () => {
      const paths = freshPaths();
      await upload(ctx.db, paths, 'original_path');
      await newObject(ctx.db, 'ad-images', paths.original_path);
      await expectPgError(queryAs(ctx.db, admin, insertAdSql, adValues(paths)), { detail: 'image_missing' });
    });

    it('lets an admin add an ad whose four objects are uploaded', async () => {
      const paths = freshPaths();
      await upload(ctx.db, paths);
      const [row] = await queryAs<{ id: string }>(ctx.db, admin, insertAdSql, adValues(paths));
      const [ad] = await queryAs(ctx.db, anon, `select ${catalogueColumns} from public.ads where id = $1`, [row!.id]);
      expect(ad).toMatchObject({ brand_id: brandId, requires_subscription: true, is_black_friday: false, width: 1080 });
    });

    it('refuses to point an existing ad at an object that is not uploaded, and queues a replaced one', async () => {
      const ad = await newAd(ctx.db, { brandId, categoryId });
      await expectPgError(ctx.db.query('update public.ads set display_960_path = $2 where id = $1', [ad.id, 'nowhere/960.webp']), {
        detail: 'image_missing',
      });
      const replacement = `${randomBytes(16).toString('hex')}/960.webp`;
      await newObject(ctx.db, 'ad-images', replacement);
      await ctx.db.query('update public.ads set display_960_path = $2 where id = $1', [ad.id, replacement]);
      expect(await queued(ctx.db, 'ad-images', ad.display_960_path)).toBe(1);
      expect(await queued(ctx.db, 'ad-images', ad.display_480_path)).toBe(0);
    });
  });

  describe('checks', () => {
    const cases: [string, (p: AdPaths) => unknown[], string][] = [
      ['a zero width', (p) => adValues(p, { width: 0 }), 'ads_size_positive'],
      ['a negative height', (p) => adValues(p, { height: -5 }), 'ads_size_positive'],
      ['a height over 20000', (p) => adValues(p, { height: 20001 }), 'ads_size_positive'],
      ['a thumbhash that is not base64', (p) => adValues(p, { thumbhash: 'not a thumbhash!' }), 'ads_thumbhash_base64'],
      ['a thumbhash too short to be one', (p) => adValues(p, { thumbhash: 'YJq=' }), 'ads_thumbhash_base64'],
      ['an original path with ".."', (p) => adValues({ ...p, original_path: `x/../${p.original_path}` }), 'ads_paths_format'],
      ['a display path with a leading slash', (p) => adValues({ ...p, display_480_path: `/${p.display_480_path}` }), 'ads_paths_format'],
      ['a 960 path with ".."', (p) => adValues({ ...p, display_960_path: `..${p.display_960_path}` }), 'ads_paths_format'],
      ['a preview path with a space', (p) => adValues({ ...p, preview_path: `previews/a b.webp` }), 'ads_paths_format'],
    ];
    for (const [what, values, constraint] of cases) {
      it(`refuses ${what} with ${constraint}, before looking for the objects`, async () => {
        const paths = freshPaths();
        await upload(ctx.db, paths);
        await expectPgError(queryAs(ctx.db, admin, insertAdSql, values(paths)), { code: '23514', constraint });
      });
    }

    it('refuses two ads sharing an image path', async () => {
      const ad = await newAd(ctx.db, { brandId, categoryId });
      const paths = { ...freshPaths(), display_480_path: ad.display_480_path };
      await upload(ctx.db, { ...paths, display_480_path: `${randomBytes(8).toString('hex')}/unused.webp` });
      await expectPgError(queryAs(ctx.db, admin, insertAdSql, adValues(paths)), {
        code: '23505',
        constraint: 'ads_display_480_path_key',
      });
    });
  });

  describe('image paths are not readable through the tables', () => {
    for (const column of pathColumns) {
      it(`denies ${column} on ads to every API role, admins included`, async () => {
        const ad = await newAd(ctx.db, { brandId, categoryId });
        for (const [, actor] of apiActors()) {
          await expectPgError(queryAs(ctx.db, actor, `select ${column} from public.ads where id = $1`, [ad.id]), {
            code: '42501',
            message: 'permission denied for table ads',
          });
          await expectPgError(queryAs(ctx.db, actor, 'select * from public.ads where id = $1', [ad.id]), { code: '42501' });
        }
      });

      it(`has no ${column} on ads_with_flags for any API role`, async () => {
        for (const [, actor] of apiActors()) {
          const error = await expectPgError(queryAs(ctx.db, actor, `select ${column} from public.ads_with_flags`), {});
          expect(['42501', '42703']).toContain((error as { code?: string }).code);
        }
      });
    }

    it('lets every API role read the catalogue columns and the flat view, whose only image is the blurred preview', async () => {
      const tag = await newTag(ctx.db);
      const ad = await newAd(ctx.db, { brandId, categoryId, tagIds: [tag.id] });
      for (const [, actor] of apiActors()) {
        const [row] = await queryAs(ctx.db, actor, `select ${catalogueColumns} from public.ads where id = $1`, [ad.id]);
        expect(row).toMatchObject({ id: ad.id, preview_path: ad.preview_path, thumbhash });
        const [flat] = await queryAs<Record<string, unknown>>(ctx.db, actor, 'select * from public.ads_with_flags where id = $1', [ad.id]);
        expect(flat).toMatchObject({ id: ad.id, brand_id: brandId, category_id: categoryId, tag_names: [tag.name] });
        expect(Object.keys(flat!).filter((key) => key.endsWith('_path'))).toEqual(['preview_path', 'brand_logo_path']);
      }
    });
  });

  describe('writes', () => {
    it('lets an admin change brand, category, type and requires_subscription, and delete', async () => {
      const ad = await newAd(ctx.db, { brandId, categoryId });
      const otherBrand = await newBrand(ctx.db);
      const [updated] = await queryAs(ctx.db, admin,
        'update public.ads set brand_id = $2, requires_subscription = false where id = $1 returning id, brand_id, requires_subscription',
        [ad.id, otherBrand.id]);
      expect(updated).toEqual({ id: ad.id, brand_id: otherBrand.id, requires_subscription: false });
      expect(await queryAs(ctx.db, admin, 'delete from public.ads where id = $1 returning id', [ad.id])).toHaveLength(1);
    });

    it('refuses inserts, updates and deletes by anyone but an admin, and changes nothing', async () => {
      const ad = await newAd(ctx.db, { brandId, categoryId });
      const snapshot = () => ctx.db.query('select to_jsonb(a) as row from public.ads a where id = $1', [ad.id]).then((r) => r.rows);
      const before = await snapshot();
      for (const [, actor] of nonAdmins()) {
        const paths = freshPaths();
        await upload(ctx.db, paths);
        await expectPgError(queryAs(ctx.db, actor, insertAdSql, adValues(paths)), { code: '42501' });
        for (const sql of [
          'update public.ads set requires_subscription = false where id = $1 returning id',
          'delete from public.ads where id = $1 returning id',
        ]) {
          const outcome = await queryAs(ctx.db, actor, sql, [ad.id]).then(
            (rows) => rows.length,
            (error: { code?: string }) => error.code,
          );
          expect([0, '42501']).toContain(outcome);
        }
        await expectPgError(queryAs(ctx.db, actor, 'insert into public.ad_tags (ad_id, tag_id) values ($1, $2)', [
          ad.id, await systemTagId(ctx.db, 'black_friday'),
        ]), { code: '42501' });
      }
      expect(await snapshot()).toEqual(before);
    });

    it("refuses an admin's direct change of an image path, created_at or a board flag", async () => {
      const ad = await newAd(ctx.db, { brandId, categoryId });
      for (const set of [
        `original_path = 'x/original.jpg'`,
        `created_at = now()`,
        'is_black_friday = true',
        'is_top_picks = true',
      ]) {
        await expectPgError(queryAs(ctx.db, admin, `update public.ads set ${set} where id = $1`, [ad.id]), {
          code: '42501',
          message: 'permission denied for table ads',
        });
      }
      const paths = freshPaths();
      await upload(ctx.db, paths);
      await expectPgError(
        queryAs(ctx.db, admin, `insert into public.ads (brand_id, category_id, original_path, display_480_path, display_960_path,
            preview_path, width, height, thumbhash, is_black_friday) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, true)`, adValues(paths)),
        { code: '42501' },
      );
    });
  });

  describe('themed boards follow the system tags', () => {
    it('puts an ad on the Black Friday board and in Top Picks exactly while it carries their tags', async () => {
      const ad = await newAd(ctx.db, { brandId, categoryId });
      const blackFriday = await systemTagId(ctx.db, 'black_friday');
      const topPicks = await systemTagId(ctx.db, 'top_picks');
      const flags = async () =>
        (await queryAs(ctx.db, anon, 'select is_black_friday, is_top_picks from public.ads where id = $1', [ad.id]))[0];
      await queryAs(ctx.db, admin, 'insert into public.ad_tags (ad_id, tag_id) values ($1, $2), ($1, $3)', [ad.id, blackFriday, topPicks]);
      expect(await flags()).toEqual({ is_black_friday: true, is_top_picks: true });
      await queryAs(ctx.db, admin, 'delete from public.ad_tags where ad_id = $1 and tag_id = $2', [ad.id, blackFriday]);
      expect(await flags()).toEqual({ is_black_friday: false, is_top_picks: true });
      await queryAs(ctx.db, admin, 'delete from public.ad_tags where ad_id = $1', [ad.id]);
      expect(await flags()).toEqual({ is_black_friday: false, is_top_picks: false });
    });

    it('leaves the flags alone for ordinary tags and keeps them true while another system tag row remains', async () => {
      const [a, b] = [await newAd(ctx.db, { brandId, categoryId }), await newAd(ctx.db, { brandId, categoryId })];
      const blackFriday = await systemTagId(ctx.db, 'black_friday');
      const ordinary = await newTag(ctx.db);
      await queryAs(ctx.db, admin, 'insert into public.ad_tags (ad_id, tag_id) select x, $2 from unnest($1::uuid[]) x', [
        [a.id, b.id], blackFriday,
      ]);
      await queryAs(ctx.db, admin, 'insert into public.ad_tags (ad_id, tag_id) values ($1, $2)', [a.id, ordinary.id]);
      await queryAs(ctx.db, admin, 'delete from public.ad_tags where tag_id = $1', [ordinary.id]);
      const rows = await ctx.db.query('select id, is_black_friday from public.ads where id = any ($1) order by id', [[a.id, b.id]]);
      expect(rows.rows.map((r) => (r as { is_black_friday: boolean }).is_black_friday)).toEqual([true, true]);
    });

    it('puts the flags back to the tags whoever writes them directly, the owner included', async () => {
      const ad = await newAd(ctx.db, { brandId, categoryId });
      const topPicks = await systemTagId(ctx.db, 'top_picks');
      await ctx.db.query('update public.ads set is_black_friday = true, is_top_picks = true where id = $1', [ad.id]);
      expect((await ctx.db.query('select is_black_friday, is_top_picks from public.ads where id = $1', [ad.id])).rows).toEqual([
        { is_black_friday: false, is_top_picks: false },
      ]);
      await ctx.db.query('insert into public.ad_tags (ad_id, tag_id) values ($1, $2)', [ad.id, topPicks]);
      await ctx.db.query('update public.ads set is_top_picks = false where id = $1', [ad.id]);
      expect((await ctx.db.query('select is_top_picks from public.ads where id = $1', [ad.id])).rows).toEqual([{ is_top_picks: true }]);
      const paths = freshPaths();
      await upload(ctx.db, paths);
      const { rows } = await ctx.db.query<{ is_black_friday: boolean }>(
        `insert into public.ads (brand_id, category_id, original_path, display_480_path, display_960_path, preview_path,
           width, height, thumbhash, is_black_friday) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, true) returning is_black_friday`,
        adValues(paths));
      expect(rows).toEqual([{ is_black_friday: false }]);
    });

    it('moves a tag row from one ad to another with both ads resynced', async () => {
      const [a, b] = [await newAd(ctx.db, { brandId, categoryId }), await newAd(ctx.db, { brandId, categoryId })];
      const blackFriday = await systemTagId(ctx.db, 'black_friday');
      await ctx.db.query('insert into public.ad_tags (ad_id, tag_id) values ($1, $2)', [a.id, blackFriday]);
      await ctx.db.query('update public.ad_tags set ad_id = $2 where ad_id = $1', [a.id, b.id]);
      const { rows } = await ctx.db.query<{ id: string; is_black_friday: boolean }>(
        'select id, is_black_friday from public.ads where id = any ($1)', [[a.id, b.id]]);
      expect(Object.fromEntries(rows.map((r) => [r.id, r.is_black_friday]))).toEqual({ [a.id]: false, [b.id]: true });
    });
  });

  it("keeps ad_tags.ad_created_at equal to its ad's created_at", async () => {
    const tag = await newTag(ctx.db);
    const ad = await newAd(ctx.db, { brandId, categoryId, createdAt: '2025-03-04T05:06:07Z', tagIds: [tag.id] });
    const copy = async () =>
      (await ctx.db.query<{ same: boolean }>(
        'select t.ad_created_at = a.created_at as same from public.ad_tags t join public.ads a on a.id = t.ad_id where t.ad_id = $1',
        [ad.id])).rows;
    expect(await copy()).toEqual([{ same: true }]);
    await ctx.db.query(`update public.ads set created_at = '2025-07-08T09:10:11Z' where id = $1`, [ad.id]);
    expect(await copy()).toEqual([{ same: true }]);
    // A copy written by hand is put back.
    await ctx.db.query(`update public.ad_tags set ad_created_at = '2000-01-01' where ad_id = $1`, [ad.id]);
    expect(await copy()).toEqual([{ same: true }]);
  });

  it('deleting an ad queues its four objects for removal and takes it out of tags and boards', async () => {
    const tag = await newTag(ctx.db);
    const ad = await newAd(ctx.db, { brandId, categoryId, tagIds: [tag.id, await systemTagId(ctx.db, 'black_friday')] });
    const board = await newBoard(ctx.db, people.free, 'Inspiration');
    await ctx.db.query('insert into public.user_collection_items (collection_id, ad_id) values ($1, $2)', [board, ad.id]);
    await queryAs(ctx.db, admin, 'delete from public.ads where id = $1', [ad.id]);
    for (const [column, bucket] of Object.entries(pathBuckets) as [keyof AdPaths, string][]) {
      expect(await queued(ctx.db, bucket, ad[column])).toBe(1);
    }
    expect((await ctx.db.query('select 1 from public.ad_tags where ad_id = $1', [ad.id])).rows).toEqual([]);
    expect((await ctx.db.query('select 1 from public.user_collection_items where ad_id = $1', [ad.id])).rows).toEqual([]);
  });

  it('takes the paths of a re-added ad out of the removal queue', async () => {
    const ad = await newAd(ctx.db, { brandId, categoryId });
    await ctx.db.query('delete from public.ads where id = $1', [ad.id]);
    expect(await queued(ctx.db, 'ad-originals', ad.original_path)).toBe(1);
    await queryAs(ctx.db, admin, insertAdSql, adValues(ad));
    for (const [column, bucket] of Object.entries(pathBuckets) as [keyof AdPaths, string][]) {
      expect(await queued(ctx.db, bucket, ad[column])).toBe(0);
    }
  });

  it('lets no API role read the removal queue', async () => {
    for (const [, actor] of apiActors()) {
      await expectPgError(queryAs(ctx.db, actor, 'select * from public.storage_deletions'), { code: '42501' });
    }
  });

  it('keeps private.ad_counts equal to count(*) through single, multi-row and bulk inserts and deletes', async () => {
    const agree = async () => {
      const { kept, real } = await countsAgree(ctx.db);
      expect(kept).toBe(real);
      return real;
    };
    const start = await agree();
    await newAd(ctx.db, { brandId, categoryId });
    expect(await agree()).toBe(start + 1);
    const prefix = randomBytes(6).toString('hex');
    await ctx.db.query(
      `insert into storage.objects (bucket_id, name)
       select b, $1 || '-' || g || '/' || f from generate_series(1, 200) g,
         (values ('ad-originals', 'original.jpg'), ('ad-images', '480.webp'), ('ad-images', '960.webp'), ('ad-images', 'preview.webp')) v (b, f)`,
      [prefix]);
    await ctx.db.query(
      `insert into public.ads (brand_id, category_id, original_path, display_480_path, display_960_path, preview_path, width, height, thumbhash)
       select $2, $3, $1 || '-' || g || '/original.jpg', $1 || '-' || g || '/480.webp', $1 || '-' || g || '/960.webp',
              $1 || '-' || g || '/preview.webp', 1080, 1080, $4
         from generate_series(1, 200) g`,
      [prefix, brandId, categoryId, thumbhash]);
    expect(await agree()).toBe(start + 201);
    const paths = [freshPaths(), freshPaths()];
    for (const p of paths) await upload(ctx.db, p);
    await queryAs(ctx.db, admin,
      `insert into public.ads (brand_id, category_id, original_path, display_480_path, display_960_path, preview_path, width, height, thumbhash)
       values ($1, $2, $3, $4, $5, $6, 10, 10, $11), ($1, $2, $7, $8, $9, $10, 10, 10, $11)`,
      [brandId, categoryId, ...Object.values(paths[0]!), ...Object.values(paths[1]!), thumbhash]);
    expect(await agree()).toBe(start + 203);
    const bulk = await ctx.db.query<{ id: string }>('select id from public.ads where original_path like $1', [`${prefix}-%`]);
    await queryAs(ctx.db, admin, 'delete from public.ads where id = any ($1)', [bulk.rows.map((r) => r.id)]);
    expect(await agree()).toBe(start + 3);
    // A refused insert leaves the count alone.
    await expectPgError(queryAs(ctx.db, admin, insertAdSql, adValues(freshPaths())), { detail: 'image_missing' });
    expect(await agree()).toBe(start + 3);
  });
});
