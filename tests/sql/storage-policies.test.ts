import { randomBytes } from 'node:crypto';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { describeOnEngines } from '../support/engines.ts';
import { anon, expectPgError, queryAs, userActor, type Actor } from '../support/acting.ts';
import type { Queryable } from '../../local/db/database.ts';
import { newObject, newPersonas, type Personas } from '../support/factories.ts';

const imageBuckets = ['ad-originals', 'ad-images', 'brand-logos', 'banners'] as const;
const objectName = (prefix = 'obj') => `${prefix}-${randomBytes(8).toString('hex')}/image.webp`;

const insertObject = (db: Parameters<typeof queryAs>[0], actor: Actor, bucket: string, name: string) =>
  queryAs(db, actor, `insert into storage.objects (bucket_id, name, metadata) values ($1, $2, '{"mimetype":"image/webp"}') returning name`, [
    bucket,
    name,
  ]);

async function exists(db: Queryable, bucket: string, name: string): Promise<boolean> {
  return (await db.query('select 1 from storage.objects where bucket_id = $1 and name = $2', [bucket, name])).rows.length === 1;
}

async function queued(db: Queryable, bucket: string, name: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    'select count(*)::int as n from public.storage_deletions where bucket_id = $1 and name = $2', [bucket, name]);
  return rows[0]!.n;
}

describeOnEngines('storage buckets and policies', (ctx) => {
  let people: Personas;
  let admin: Actor;

  beforeAll(async () => {
    people = await newPersonas(ctx.db);
    admin = userActor(people.admin);
  });

  it('has the four buckets with their public flag, size limit and image types: ad images private, reached only by signed links', async () => {
    const { rows } = await ctx.db.query(
      `select id, public, file_size_limit, allowed_mime_types from storage.buckets where id = any ($1) order by id`, [[...imageBuckets]]);
    expect(rows).toEqual([
      { id: 'ad-images', public: false, file_size_limit: '5242880', allowed_mime_types: ['image/webp'] },
      {
        id: 'ad-originals', public: false, file_size_limit: String(20 * 1024 * 1024),
        allowed_mime_types: ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif'],
      },
      { id: 'banners', public: true, file_size_limit: '10485760', allowed_mime_types: ['image/jpeg', 'image/png', 'image/webp'] },
      { id: 'brand-logos', public: true, file_size_limit: '2097152', allowed_mime_types: ['image/png', 'image/jpeg', 'image/webp'] },
    ]);
  });

  for (const bucket of imageBuckets) {
    it(`lets an admin upload, list, update and delete in ${bucket}`, async () => {
      const name = objectName('admin');
      expect(await insertObject(ctx.db, admin, bucket, name)).toEqual([{ name }]);
      expect(await queryAs(ctx.db, admin, 'select name from storage.objects where bucket_id = $1 and name = $2', [bucket, name])).toEqual([
        { name },
      ]);
      const updated = await queryAs(ctx.db, admin,
        `update storage.objects set metadata = '{"mimetype":"image/png"}' where bucket_id = $1 and name = $2 returning name`, [bucket, name]);
      expect(updated).toEqual([{ name }]);
      const deleted = await queryAs(ctx.db, admin, 'delete from storage.objects where bucket_id = $1 and name = $2 returning name', [
        bucket,
        name,
      ]);
      expect(deleted).toEqual([{ name }]);
      expect(await exists(ctx.db, bucket, name)).toBe(false);
    });

    it(`keeps an admin's writes inside the image buckets: nothing moves out of ${bucket}`, async () => {
      await ctx.db.query(`insert into storage.buckets (id, name, public) values ('elsewhere', 'elsewhere', false) on conflict do nothing`);
      const name = objectName('stay');
      await newObject(ctx.db, bucket, name);
      await expectPgError(
        queryAs(ctx.db, admin, `update storage.objects set bucket_id = 'elsewhere' where bucket_id = $1 and name = $2`, [bucket, name]),
        { code: '42501' },
      );
      await expectPgError(insertObject(ctx.db, admin, 'elsewhere', name), { code: '42501' });
      expect(await exists(ctx.db, bucket, name)).toBe(true);
    });
  }

  const outsiders = (): [string, Actor][] => [
    ['anonymous', anon],
    ['a free user', userActor(people.free)],
    ['a user with Black Friday access', userActor(people.flagged)],
    ['a user whose subscription expired', userActor(people.expired)],
  ];
  const entitled = (): [string, Actor][] => [
    ['a subscriber', userActor(people.subscriber)],
    ['a trialing user', userActor(people.trialing)],
    ['a subscriber cancelled within the period', userActor(people.cancelledInPeriod)],
  ];

  async function expectNoWrites(actor: Actor, bucket: string): Promise<void> {
    const name = objectName('kept');
    await newObject(ctx.db, bucket, name);
    await expectPgError(insertObject(ctx.db, actor, bucket, objectName('sneaky')), {
      code: '42501',
      message: 'new row violates row-level security policy for table "objects"',
    });
    const updated = await queryAs(ctx.db, actor,
      `update storage.objects set name = name || '.moved' where bucket_id = $1 and name = $2 returning name`, [bucket, name]);
    expect(updated).toEqual([]);
    const deleted = await queryAs(ctx.db, actor, 'delete from storage.objects where bucket_id = $1 and name = $2 returning name', [bucket, name]);
    expect(deleted).toEqual([]);
    expect(await exists(ctx.db, bucket, name)).toBe(true);
  }

  describe('people who are not admins', () => {
    for (const bucket of imageBuckets) {
      it(`cannot upload, update or delete in ${bucket}, whoever they are`, async () => {
        for (const [, actor] of [...outsiders(), ...entitled()]) await expectNoWrites(actor, bucket);
      });
    }

    it('cannot list any image bucket without access: every select returns no rows', async () => {
      for (const bucket of imageBuckets) await newObject(ctx.db, bucket, objectName('listed'));
      for (const [who, actor] of outsiders()) {
        const rows = await queryAs(ctx.db, actor, 'select bucket_id, name from storage.objects where bucket_id = any ($1)', [[...imageBuckets]]);
        expect(rows, who).toEqual([]);
      }
    });

    it('cannot list or sign the originals or the display images with access either: they come only through the database\'s links', async () => {
      const original = objectName('original');
      await newObject(ctx.db, 'ad-originals', original, 'image/jpeg');
      for (const bucket of ['ad-images', 'brand-logos', 'banners']) await newObject(ctx.db, bucket, objectName('hidden'));
      for (const [who, actor] of entitled()) {
        const rows = await queryAs(ctx.db, actor, 'select bucket_id, name from storage.objects where bucket_id = any ($1)', [[...imageBuckets]]);
        expect(rows, who).toEqual([]);
      }
      // An admin still lists every image bucket.
      const listed = await queryAs<{ bucket_id: string }>(ctx.db, admin,
        'select distinct bucket_id from storage.objects where bucket_id = any ($1) order by 1', [[...imageBuckets]]);
      expect(listed.map((row) => row.bucket_id)).toEqual([...imageBuckets].sort());
    });
  });

  describe('page banners', () => {
    const pages = ['library', 'black-friday', 'top-picks'] as const;
    const upsertBanner = (actor: Actor, page: string, path: string) =>
      queryAs(ctx.db, actor, 'insert into public.page_banners (page, image_path) values ($1, $2) returning page, image_path', [page, path]);
    const banners = async () =>
      (await ctx.db.query('select page, image_path from public.page_banners order by page')).rows;

    beforeEach(async () => {
      await ctx.db.query('delete from public.page_banners');
    });

    it('holds one banner per page, for library, black-friday and top-picks only, that everyone reads', async () => {
      const images: Record<string, string> = {};
      for (const page of pages) {
        images[page] = objectName(page);
        await newObject(ctx.db, 'banners', images[page]);
        await upsertBanner(admin, page, images[page]);
      }
      for (const [, actor] of [...outsiders(), ...entitled(), ['an admin', admin] as [string, Actor]]) {
        for (const page of pages) {
          const rows = await queryAs(ctx.db, actor, 'select image_path from public.page_banners where page = $1', [page]);
          expect(rows).toEqual([{ image_path: images[page] }]);
        }
      }
      const another = objectName('another');
      await newObject(ctx.db, 'banners', another);
      await expectPgError(upsertBanner(admin, 'library', another), { code: '23505', constraint: 'page_banners_pkey' });
      await expectPgError(upsertBanner(admin, 'home', another), { code: '23514', constraint: 'page_banners_page_known' });
      expect(await banners()).toHaveLength(3);
    });

    it('refuses an image that is not in the banners bucket (image_missing) and a malformed path', async () => {
      const inAdImages = objectName('wrong-bucket');
      await newObject(ctx.db, 'ad-images', inAdImages);
      for (const path of [objectName('never-uploaded'), inAdImages]) {
        await expectPgError(upsertBanner(admin, 'library', path), { code: 'P0001', detail: 'image_missing' });
      }
      for (const path of ['../secret.webp', '/library.webp', 'a/../b.webp']) {
        await newObject(ctx.db, 'banners', path);
        await expectPgError(upsertBanner(admin, 'library', path), { code: '23514', constraint: 'page_banners_image_path_format' });
      }
      expect(await banners()).toEqual([]);
    });

    it('is written by admins only; others change nothing', async () => {
      const image = objectName('library');
      const other = objectName('other');
      await newObject(ctx.db, 'banners', image);
      await newObject(ctx.db, 'banners', other);
      for (const [, actor] of [...outsiders(), ...entitled()]) {
        await expectPgError(upsertBanner(actor, 'library', image), { code: '42501' });
      }
      await upsertBanner(admin, 'library', image);
      for (const [, actor] of [...outsiders(), ...entitled()]) {
        for (const sql of [
          `update public.page_banners set image_path = $2 where page = $1 returning page`,
          `delete from public.page_banners where page = $1 and $2::text is not null returning page`,
        ]) {
          const outcome = await queryAs(ctx.db, actor, sql, ['library', other]).then(
            (rows) => rows.length,
            (error: { code?: string }) => error.code,
          );
          expect([0, '42501']).toContain(outcome);
        }
      }
      await expectPgError(queryAs(ctx.db, admin, `update public.page_banners set page = 'top-picks' where page = 'library'`), {
        code: '42501',
      });
      expect(await banners()).toEqual([{ page: 'library', image_path: image }]);
    });

    it('queues a replaced or removed banner for removal, unless another page still shows it', async () => {
      const first = objectName('first');
      const second = objectName('second');
      await newObject(ctx.db, 'banners', first);
      await newObject(ctx.db, 'banners', second);
      await upsertBanner(admin, 'library', first);
      await upsertBanner(admin, 'top-picks', first);
      await queryAs(ctx.db, admin, `update public.page_banners set image_path = $1 where page = 'library'`, [second]);
      expect(await queued(ctx.db, 'banners', first)).toBe(0);
      await queryAs(ctx.db, admin, `delete from public.page_banners where page = 'top-picks'`);
      expect(await queued(ctx.db, 'banners', first)).toBe(1);
      await queryAs(ctx.db, admin, `update public.page_banners set image_path = $1 where page = 'library'`, [first]);
      expect(await queued(ctx.db, 'banners', first)).toBe(0);
      expect(await queued(ctx.db, 'banners', second)).toBe(1);
    });
  });
});
