import { beforeAll, expect, it } from 'vitest';
import type { Database, Queryable } from '../../local/db/database.ts';
import { describeOnEngines } from '../support/engines.ts';
import { anon, becomeIn, userActor } from '../support/acting.ts';
import type { Actor } from '../support/acting.ts';
import { newAd, newBoard, newBrand, newCategory, newHook, newObject, newPersonas, newTag, newType } from '../support/factories.ts';
import type { Personas } from '../support/factories.ts';

type ActorName = 'anon' | 'free' | 'subscriber' | 'admin';

interface PolicyCheck {
  /** The table the policy is on, schema-qualified. */
  table: string;
  /** Who the policy is for; the check runs as each of them. */
  as: ActorName[];
  /** What the policy lets them do, for the test's name. */
  what: string;
  /** A statement that reads or writes at least one row while the policy is in place; {name} stands for a fixture value. */
  sql: string;
}

/**
 * Every row-level security policy in public and every 'obyect: ...' policy on
 * storage.objects, with the check that proves it is needed: the check passes
 * with the policy and fails (42501 or no rows) once that policy alone is dropped.
 */
const registry: Record<string, PolicyCheck> = {
  'admin_users: a user sees their own grant': {
    table: 'public.admin_users', as: ['admin'], what: 'see their own admin grant',
    sql: 'select * from public.admin_users where user_id = auth.uid()',
  },
  'subscriptions: a user reads their own': {
    table: 'public.subscriptions', as: ['subscriber'], what: 'read their own subscription',
    sql: 'select * from public.subscriptions where user_id = auth.uid()',
  },
  'subscription_holders: a user reads their own': {
    table: 'public.subscription_holders', as: ['subscriber'], what: 'read the holders of their own subscriptions',
    sql: 'select * from public.subscription_holders where user_id = auth.uid()',
  },
  'profiles: a user reads their own': {
    table: 'public.profiles', as: ['free'], what: 'read their own profile',
    sql: 'select * from public.profiles where user_id = auth.uid()',
  },
  'profiles: admins read all': {
    table: 'public.profiles', as: ['admin'], what: "read another user's profile",
    sql: 'select * from public.profiles where user_id = {free}',
  },

  'brands: everyone reads': { table: 'public.brands', as: ['anon', 'free'], what: 'read brands', sql: 'select * from public.brands' },
  'brands: admins insert': {
    table: 'public.brands', as: ['admin'], what: 'add a brand', sql: `insert into public.brands (name) values ('Policy brand')`,
  },
  'brands: admins update': {
    table: 'public.brands', as: ['admin'], what: 'rename a brand', sql: `update public.brands set name = 'Renamed brand' where id = {spareBrand}`,
  },
  'brands: admins delete': {
    table: 'public.brands', as: ['admin'], what: 'delete a brand', sql: 'delete from public.brands where id = {spareBrand}',
  },

  'categories: everyone reads': {
    table: 'public.categories', as: ['anon', 'free'], what: 'read categories', sql: 'select * from public.categories',
  },
  'categories: admins insert': {
    table: 'public.categories', as: ['admin'], what: 'add a category', sql: `insert into public.categories (name) values ('Policy category')`,
  },
  'categories: admins update': {
    table: 'public.categories', as: ['admin'], what: 'rename a category',
    sql: `update public.categories set name = 'Renamed category' where id = {spareCategory}`,
  },
  'categories: admins delete': {
    table: 'public.categories', as: ['admin'], what: 'delete a category', sql: 'delete from public.categories where id = {spareCategory}',
  },

  'tags: everyone reads': { table: 'public.tags', as: ['anon', 'free'], what: 'read tags', sql: 'select * from public.tags' },
  'tags: admins insert': { table: 'public.tags', as: ['admin'], what: 'add a tag', sql: `insert into public.tags (name) values ('Policy tag')` },
  'tags: admins update': {
    table: 'public.tags', as: ['admin'], what: 'rename a tag', sql: `update public.tags set name = 'Renamed tag' where id = {spareTag}`,
  },
  'tags: admins delete': { table: 'public.tags', as: ['admin'], what: 'delete a tag', sql: 'delete from public.tags where id = {spareTag}' },

  'types: everyone reads': { table: 'public.types', as: ['anon', 'free'], what: 'read types', sql: 'select * from public.types' },
  'types: admins insert': { table: 'public.types', as: ['admin'], what: 'add a type', sql: `insert into public.types (name) values ('Policy type')` },
  'types: admins update': {
    table: 'public.types', as: ['admin'], what: 'rename a type', sql: `update public.types set name = 'Renamed type' where id = {spareType}`,
  },
  'types: admins delete': { table: 'public.types', as: ['admin'], what: 'delete a type', sql: 'delete from public.types where id = {spareType}' },

  'hooks: everyone reads': { table: 'public.hooks', as: ['anon', 'free'], what: 'read hooks', sql: 'select * from public.hooks' },
  'hooks: admins insert': { table: 'public.hooks', as: ['admin'], what: 'add a hook', sql: `insert into public.hooks (name) values ('Policy hook')` },
  'hooks: admins update': {
    table: 'public.hooks', as: ['admin'], what: 'rename a hook', sql: `update public.hooks set name = 'Renamed hook' where id = {spareHook}`,
  },
  'hooks: admins delete': { table: 'public.hooks', as: ['admin'], what: 'delete a hook', sql: 'delete from public.hooks where id = {spareHook}' },

  'ads: everyone reads the catalogue fields': {
    table: 'public.ads', as: ['anon', 'free'], what: "read ads' catalogue fields", sql: 'select id, brand_id, preview_path from public.ads',
  },
  'ads: admins insert': {
    table: 'public.ads', as: ['admin'], what: 'add an ad',
    sql: `insert into public.ads (brand_id, category_id, original_path, display_480_path, display_960_path, preview_path, width, height, thumbhash)
          values ({brand}, {category}, 'policy/original.jpg', 'policy/480.webp', 'policy/960.webp', 'previews/policy.webp', 1080, 1350,
                  'YJqGPQw7sFlslqhFafSE+Q6oJ1h2iHB2Rw==')`,
  },
  'ads: admins update': {
    table: 'public.ads', as: ['admin'], what: 'edit an ad', sql: 'update public.ads set requires_subscription = false where id = {ad}',
  },
  'ads: admins delete': { table: 'public.ads', as: ['admin'], what: 'delete an ad', sql: 'delete from public.ads where id = {spareAd}' },

  'ad_tags: everyone reads': { table: 'public.ad_tags', as: ['anon', 'free'], what: "read ads' tags", sql: 'select * from public.ad_tags' },
  'ad_tags: admins insert': {
    table: 'public.ad_tags', as: ['admin'], what: 'tag an ad', sql: 'insert into public.ad_tags (ad_id, tag_id) values ({ad}, {spareTag})',
  },
  'ad_tags: admins delete': {
    table: 'public.ad_tags', as: ['admin'], what: 'untag an ad', sql: 'delete from public.ad_tags where ad_id = {ad} and tag_id = {tag}',
  },

  'page_banners: everyone reads': {
    table: 'public.page_banners', as: ['anon', 'free'], what: 'read page banners', sql: 'select * from public.page_banners',
  },
  'page_banners: admins insert': {
    table: 'public.page_banners', as: ['admin'], what: 'set a page banner',
    sql: `insert into public.page_banners (page, image_path) values ('top-picks', 'policy-top-picks.jpg')`,
  },
  'page_banners: admins update': {
    table: 'public.page_banners', as: ['admin'], what: 'replace a page banner',
    sql: `update public.page_banners set image_path = 'policy-top-picks.jpg' where page = 'library'`,
  },
  'page_banners: admins delete': {
    table: 'public.page_banners', as: ['admin'], what: 'remove a page banner', sql: `delete from public.page_banners where page = 'library'`,
  },

  'user_collections: owners read': {
    table: 'public.user_collections', as: ['free'], what: 'read their own boards', sql: 'select * from public.user_collections where id = {board}',
  },
  'user_collections: owners insert': {
    table: 'public.user_collections', as: ['free'], what: 'create a board', sql: `insert into public.user_collections (name) values ('Policy board')`,
  },
  'user_collections: owners update': {
    table: 'public.user_collections', as: ['free'], what: 'rename their own board',
    sql: `update public.user_collections set name = 'Renamed board' where id = {board}`,
  },
  'user_collections: owners delete': {
    table: 'public.user_collections', as: ['free'], what: 'delete their own board', sql: 'delete from public.user_collections where id = {board}',
  },

  'user_collection_items: owners read': {
    table: 'public.user_collection_items', as: ['free'], what: "read their own board's ads",
    sql: 'select * from public.user_collection_items where collection_id = {board}',
  },
  'user_collection_items: owners insert': {
    table: 'public.user_collection_items', as: ['free'], what: 'save an ad to their own board',
    sql: 'insert into public.user_collection_items (collection_id, ad_id) values ({board}, {spareAd})',
  },
  'user_collection_items: owners delete': {
    table: 'public.user_collection_items', as: ['free'], what: 'remove an ad from their own board',
    sql: 'delete from public.user_collection_items where collection_id = {board}',
  },

  'obyect: admins read the image buckets': {
    table: 'storage.objects', as: ['admin'], what: 'list the originals and the display images',
    sql: `select * from storage.objects o where o.bucket_id = 'ad-originals' and o.name = {original}
            and exists (select 1 from storage.objects i where i.bucket_id = 'ad-images' and i.name = {preview})`,
  },
  'obyect: admins upload to the image buckets': {
    table: 'storage.objects', as: ['admin'], what: 'upload an image',
    sql: `insert into storage.objects (bucket_id, name) values ('ad-images', 'policy/upload.webp')`,
  },
  'obyect: admins update in the image buckets': {
    table: 'storage.objects', as: ['admin'], what: "update an image's metadata",
    sql: `update storage.objects set metadata = metadata where bucket_id = 'ad-images' and name = {preview}`,
  },
  'obyect: admins read ad videos': {
    table: 'storage.objects', as: ['admin'], what: 'list the ad videos',
    sql: `select * from storage.objects where bucket_id = 'ad-videos' and name = {video}`,
  },
  'obyect: admins upload ad videos': {
    table: 'storage.objects', as: ['admin'], what: 'upload a video',
    sql: `insert into storage.objects (bucket_id, name) values ('ad-videos', 'policy/upload.webm')`,
  },
  'obyect: admins update ad videos': {
    table: 'storage.objects', as: ['admin'], what: "update a video's metadata",
    sql: `update storage.objects set metadata = metadata where bucket_id = 'ad-videos' and name = {video}`,
  },
  'obyect: admins delete ad videos': {
    table: 'storage.objects', as: ['admin'], what: 'delete a video',
    sql: `delete from storage.objects where bucket_id = 'ad-videos' and name = {video}`,
  },
  'obyect: admins delete from the image buckets': {
    table: 'storage.objects', as: ['admin'], what: 'delete an image',
    sql: `delete from storage.objects where bucket_id = 'ad-images' and name = {preview}`,
  },
};

interface Fixture {
  people: Personas;
  values: Record<string, string>;
}

async function buildFixture(db: Queryable): Promise<Fixture> {
  const people = await newPersonas(db);
  const brand = await newBrand(db);
  const category = await newCategory(db);
  const tag = await newTag(db);
  const ad = await newAd(db, { brandId: brand.id, categoryId: category.id, tagIds: [tag.id] });
  const spareAd = await newAd(db, { brandId: brand.id, categoryId: category.id });
  const board = await newBoard(db, people.free, 'Policy board of free');
  await db.query('insert into public.user_collection_items (collection_id, ad_id) values ($1, $2)', [board, ad.id]);
  await db.query(`select public.record_subscription_holders($1, 'cus_policy', 'fp_policy', 'sub_policy')`, [people.subscriber.id]);
  await newObject(db, 'ad-originals', 'policy/original.jpg', 'image/jpeg');
  for (const name of ['policy/480.webp', 'policy/960.webp', 'previews/policy.webp']) await newObject(db, 'ad-images', name);
  await newObject(db, 'ad-videos', 'policy/video.webm', 'video/webm');
  await newObject(db, 'banners', 'policy-library.jpg', 'image/jpeg');
  await newObject(db, 'banners', 'policy-top-picks.jpg', 'image/jpeg');
  await db.query(`insert into public.page_banners (page, image_path) values ('library', 'policy-library.jpg')`);
  return {
    people,
    values: {
      free: people.free.id,
      brand: brand.id,
      spareBrand: (await newBrand(db)).id,
      category: category.id,
      spareCategory: (await newCategory(db)).id,
      tag: tag.id,
      spareTag: (await newTag(db)).id,
      spareType: (await newType(db)).id,
      spareHook: (await newHook(db)).id,
      ad: ad.id,
      spareAd: spareAd.id,
      preview: ad.preview_path,
      original: ad.original_path,
      video: 'policy/video.webm',
      board,
    },
  };
}

const literal = (value: string) => `'${value.replace(/'/g, "''")}'`;

function statementFor(sql: string, fixture: Fixture): string {
  return sql.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = fixture.values[name];
    if (value === undefined) throw new Error(`The registry names an unknown fixture value {${name}}`);
    return /^[0-9a-f-]{36}$/.test(value) ? `${literal(value)}::uuid` : literal(value);
  });
}

class RolledBack extends Error {}

/** Runs fn in a transaction that is always rolled back: checks write, and policies are dropped only for one check. */
async function inRolledBackTransaction<T>(db: Database, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  let result: { value: T } | undefined;
  try {
    await db.transaction(async (tx) => {
      result = { value: await fn(tx) };
      throw new RolledBack();
    });
  } catch (error) {
    if (!(error instanceof RolledBack)) throw error;
  }
  return result!.value;
}

/** 'passes' when the statement read or wrote at least one row; 'refused' on 42501 or no rows. Anything else is a broken check. */
async function runCheck(tx: Queryable, sql: string): Promise<'passes' | 'refused'> {
  try {
    const result = await tx.query(sql);
    const rows = /^\s*select\b/i.test(sql) ? result.rows.length : result.rowCount;
    return rows > 0 ? 'passes' : 'refused';
  } catch (error) {
    if ((error as { code?: string }).code === '42501') return 'refused';
    throw error;
  }
}

const quotedTable = (table: string) =>
  table
    .split('.')
    .map((part) => `"${part}"`)
    .join('.');

describeOnEngines('policy coverage', (ctx) => {
  let fixture: Fixture;
  beforeAll(async () => {
    fixture = await buildFixture(ctx.db);
  });

  const actorOf = (name: ActorName): Actor => (name === 'anon' ? anon : userActor(fixture.people[name]));

  it('has a check for every policy in public and every obyect policy on storage.objects, and none for a policy that is gone', async () => {
    const { rows } = await ctx.db.query<{ name: string; table: string }>(
      `select policyname as name, schemaname || '.' || tablename as table
         from pg_policies
        where schemaname = 'public' or (schemaname = 'storage' and tablename = 'objects' and policyname like 'obyect: %')
        order by 2, 1`,
    );
    const policies = rows.map((row) => `${row.table} "${row.name}"`);
    const registered = Object.entries(registry).map(([name, entry]) => `${entry.table} "${name}"`);
    expect(policies.filter((policy) => !registered.includes(policy)), 'policies without a check in the registry').toEqual([]);
    expect(registered.filter((entry) => !policies.includes(entry)), 'registry entries without a policy').toEqual([]);
  });

  for (const [name, entry] of Object.entries(registry)) {
    it(`"${name}" is what lets ${entry.as.join(' and ')} ${entry.what}`, async () => {
      const sql = statementFor(entry.sql, fixture);
      for (const actorName of entry.as) {
        const withPolicy = await inRolledBackTransaction(ctx.db, async (tx) => {
          await becomeIn(tx, actorOf(actorName));
          return runCheck(tx, sql);
        });
        expect(withPolicy, `${actorName} with the policy`).toBe('passes');
        const withoutPolicy = await inRolledBackTransaction(ctx.db, async (tx) => {
          await tx.query(`drop policy "${name.replace(/"/g, '""')}" on ${quotedTable(entry.table)}`);
          await becomeIn(tx, actorOf(actorName));
          return runCheck(tx, sql);
        });
        expect(withoutPolicy, `${actorName} without the policy`).toBe('refused');
      }
    });
  }
});
