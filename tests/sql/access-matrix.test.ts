import { beforeAll, expect, it } from 'vitest';
import type { Database, Queryable } from '../../local/db/database.ts';
import { describeOnEngines } from '../support/engines.ts';
import { anon, becomeIn, userActor } from '../support/acting.ts';
import type { Actor } from '../support/acting.ts';
import {
  newAd,
  newBoard,
  newBrand,
  newCategory,
  newHook,
  newObject,
  newPersonas,
  newSubscription,
  newTag,
  newType,
  systemTagId,
} from '../support/factories.ts';
import type { Personas } from '../support/factories.ts';

type Action = 'select' | 'insert' | 'update' | 'delete';
/**
 * Rows seen (select) or changed (update, delete); 'ok' for one row inserted;
 * refused for lack of privilege or by a policy (42501), as not found (PT404),
 * or because the view cannot be written at all (55000).
 */
type Outcome = number | 'ok' | 'denied' | 'not found' | 'read-only' | `error ${string}`;

const personaNames = ['anon', 'free', 'flagged', 'trialing', 'subscriber', 'cancelled', 'expired', 'admin', 'other'] as const;
type PersonaName = (typeof personaNames)[number];
type Expected = [Outcome, Outcome, Outcome, Outcome, Outcome, Outcome, Outcome, Outcome, Outcome];

interface Probe {
  /** The relation, or the relation with the rows or columns the statement aims at. */
  resource: string;
  relation: string;
  action: Action;
  /** {name} stands for a fixture id as a literal; {me} and {myBoard} for the acting persona's own. */
  sql: string;
  expected: Expected;
}

const D = 'denied';
const OK = 'ok';
const NF = 'not found';
const RO = 'read-only';

const probe = (resource: string, action: Action, sql: string, expected: Expected): Probe => ({
  resource,
  relation: resource.split(/[ .]/)[0]!,
  action,
  sql,
  expected,
});

/**
 * Who may do what on every table and view in public. The fixture: 8 signed-in
 * personas (each with a profile and one board holding one ad; 'other' is the
 * owner whose ids everyone else tries directly, and a monthly subscriber),
 * 2 brands, 2 categories, 2 types, 2 hooks, 4 tags (2 of them the themed boards'),
 * 3 ads with 2 tag links (the first ad is the free sample), 1 page banner, 1 admin grant, 5 subscriptions,
 * 2 billing customers, 6 subscription holders
 * (account, customer and card of subscriber and other), 1 processed webhook
 * event and 1 queued storage deletion.
 */
// prettier-ignore
const matrix: Probe[] = [
  //                                                                                                      anon free flagged trial subscr cancel expired admin other
  probe('admin_users', 'select', 'select * from public.admin_users',                                     [D,   0,   0,    0,    0,     0,     0,     1,    0]),
  probe('admin_users', 'insert', 'insert into public.admin_users (user_id) values (auth.uid())',         [D,   D,   D,    D,    D,     D,     D,     D,    D]),
  probe('admin_users', 'update', 'update public.admin_users set granted_at = now()',                     [D,   D,   D,    D,    D,     D,     D,     D,    D]),
  probe('admin_users', 'delete', 'delete from public.admin_users',                                       [D,   D,   D,    D,    D,     D,     D,     D,    D]),

  probe('billing_customers', 'select', 'select * from public.billing_customers',                         [D,   D,   D,    D,    D,     D,     D,     D,    D]),
  probe('billing_customers', 'insert', `insert into public.billing_customers (user_id, stripe_customer_id) values (auth.uid(), 'cus_mine')`,
                                                                                                          [D,   D,   D,    D,    D,     D,     D,     D,    D]),
  probe('billing_customers', 'update', `update public.billing_customers set stripe_customer_id = stripe_customer_id || 'x'`,
                                                                                                          [D,   D,   D,    D,    D,     D,     D,     D,    D]),
  probe('billing_customers', 'delete', 'delete from public.billing_customers',                           [D,   D,   D,    D,    D,     D,     D,     D,    D]),

  probe('subscriptions', 'select', 'select * from public.subscriptions',                                 [D,   0,   0,    1,    1,     1,     1,     0,    1]),
  probe('subscriptions', 'insert', `insert into public.subscriptions (user_id, stripe_customer_id, stripe_subscription_id, status, tier, price_id)
                                    values (auth.uid(), 'cus_mine', 'sub_mine', 'active', 'annual', 'price_annual')`,
                                                                                                          [D,   D,   D,    D,    D,     D,     D,     D,    D]),
  probe('subscriptions', 'update', `update public.subscriptions set current_period_end = now() + interval '10 years'`,
                                                                                                          [D,   D,   D,    D,    D,     D,     D,     D,    D]),
  probe('subscriptions', 'delete', 'delete from public.subscriptions',                                   [D,   D,   D,    D,    D,     D,     D,     D,    D]),
  probe("subscriptions [other user's id]", 'select', 'select * from public.subscriptions where id = {otherSubscription}',
                                                                                                          [D,   0,   0,    0,    0,     0,     0,     0,    1]),
  probe("subscriptions [other user's id]", 'insert', `insert into public.subscriptions (user_id, stripe_customer_id, stripe_subscription_id, status, tier, price_id)
                                    values ({other}, 'cus_given', 'sub_given', 'active', 'annual', 'price_annual')`,
                                                                                                          [D,   D,   D,    D,    D,     D,     D,     D,    D]),
  probe("subscriptions [other user's id]", 'update', `update public.subscriptions set status = 'canceled' where id = {otherSubscription}`,
                                                                                                          [D,   D,   D,    D,    D,     D,     D,     D,    D]),
  probe("subscriptions [other user's id]", 'delete', 'delete from public.subscriptions where id = {otherSubscription}',
                                                                                                          [D,   D,   D,    D,    D,     D,     D,     D,    D]),

  probe('subscription_holders', 'select', 'select * from public.subscription_holders',                   [D,   0,   0,    0,    3,     0,     0,     0,    3]),
  probe('subscription_holders', 'insert', `insert into public.subscription_holders (kind, holder, user_id, first_subscription_id)
                                    values ('card', 'fp_mine', auth.uid(), 'sub_mine')`,
                                                                                                          [D,   D,   D,    D,    D,     D,     D,     D,    D]),
  probe('subscription_holders', 'update', `update public.subscription_holders set first_subscription_id = 'sub_mine'`,
                                                                                                          [D,   D,   D,    D,    D,     D,     D,     D,    D]),
  probe('subscription_holders', 'delete', 'delete from public.subscription_holders',                     [D,   D,   D,    D,    D,     D,     D,     D,    D]),
  probe("subscription_holders [other user's id]", 'select', 'select * from public.subscription_holders where user_id = {other}',
                                                                                                          [D,   0,   0,    0,    0,     0,     0,     0,    3]),

  probe('processed_webhook_events', 'select', 'select * from public.processed_webhook_events',           [D,   D,   D,    D,    D,     D,     D,     D,    D]),
  probe('processed_webhook_events', 'insert', `insert into public.processed_webhook_events (event_id, type) values ('evt_mine', 'invoice.paid')`,
                                                                                                          [D,   D,   D,    D,    D,     D,     D,     D,    D]),
  probe('processed_webhook_events', 'update', `update public.processed_webhook_events set type = type`,  [D,   D,   D,    D,    D,     D,     D,     D,    D]),
  probe('processed_webhook_events', 'delete', 'delete from public.processed_webhook_events',             [D,   D,   D,    D,    D,     D,     D,     D,    D]),

  probe('profiles', 'select', 'select * from public.profiles',                                           [D,   1,   1,    1,    1,     1,     1,     8,    1]),
  probe('profiles', 'insert', 'insert into public.profiles (user_id, black_friday_access) values (auth.uid(), true)',
                                                                                                          [D,   D,   D,    D,    D,     D,     D,     D,    D]),
  probe('profiles', 'update', 'update public.profiles set black_friday_access = true',                    [D,   D,   D,    D,    D,     D,     D,     D,    D]),
  probe('profiles', 'delete', 'delete from public.profiles',                                             [D,   D,   D,    D,    D,     D,     D,     D,    D]),
  probe("profiles [other user's id]", 'select', 'select * from public.profiles where user_id = {other}', [D,   0,   0,    0,    0,     0,     0,     1,    1]),
  probe("profiles [other user's id]", 'insert', 'insert into public.profiles (user_id) values ({other})', [D,   D,   D,    D,    D,     D,     D,     D,    D]),
  probe("profiles [other user's id]", 'update', `update public.profiles set full_name = 'Taken over' where user_id = {other}`,
                                                                                                          [D,   D,   D,    D,    D,     D,     D,     D,    D]),
  probe("profiles [other user's id]", 'delete', 'delete from public.profiles where user_id = {other}',   [D,   D,   D,    D,    D,     D,     D,     D,    D]),

  probe('brands', 'select', 'select * from public.brands',                                               [2,   2,   2,    2,    2,     2,     2,     2,    2]),
  probe('brands', 'insert', `insert into public.brands (name) values ('Matrix brand')`,                  [D,   D,   D,    D,    D,     D,     D,     OK,   D]),
  probe('brands', 'update', 'update public.brands set name = name',                                      [D,   0,   0,    0,    0,     0,     0,     2,    0]),
  probe('brands', 'delete', 'delete from public.brands where id = {spareBrand}',                         [D,   0,   0,    0,    0,     0,     0,     1,    0]),

  probe('categories', 'select', 'select * from public.categories',                                       [2,   2,   2,    2,    2,     2,     2,     2,    2]),
  probe('categories', 'insert', `insert into public.categories (name) values ('Matrix category')`,       [D,   D,   D,    D,    D,     D,     D,     OK,   D]),
  probe('categories', 'update', 'update public.categories set name = name',                              [D,   0,   0,    0,    0,     0,     0,     2,    0]),
  probe('categories', 'delete', 'delete from public.categories where id = {spareCategory}',              [D,   0,   0,    0,    0,     0,     0,     1,    0]),

  probe('tags', 'select', 'select * from public.tags',                                                   [4,   4,   4,    4,    4,     4,     4,     4,    4]),
  probe('tags', 'insert', `insert into public.tags (name) values ('Matrix tag')`,                        [D,   D,   D,    D,    D,     D,     D,     OK,   D]),
  probe('tags', 'update', 'update public.tags set name = name',                                          [D,   0,   0,    0,    0,     0,     0,     4,    0]),
  probe('tags', 'delete', 'delete from public.tags where id = {spareTag}',                               [D,   0,   0,    0,    0,     0,     0,     1,    0]),

  probe('types', 'select', 'select * from public.types',                                                 [2,   2,   2,    2,    2,     2,     2,     2,    2]),
  probe('types', 'insert', `insert into public.types (name) values ('Matrix type')`,                     [D,   D,   D,    D,    D,     D,     D,     OK,   D]),
  probe('types', 'update', 'update public.types set name = name',                                        [D,   0,   0,    0,    0,     0,     0,     2,    0]),
  probe('types', 'delete', 'delete from public.types where id = {spareType}',                            [D,   0,   0,    0,    0,     0,     0,     1,    0]),

  probe('hooks', 'select', 'select * from public.hooks',                                                 [2,   2,   2,    2,    2,     2,     2,     2,    2]),
  probe('hooks', 'insert', `insert into public.hooks (name) values ('Matrix hook')`,                     [D,   D,   D,    D,    D,     D,     D,     OK,   D]),
  probe('hooks', 'update', 'update public.hooks set name = name',                                        [D,   0,   0,    0,    0,     0,     0,     2,    0]),
  probe('hooks', 'delete', 'delete from public.hooks where id = {spareHook}',                            [D,   0,   0,    0,    0,     0,     0,     1,    0]),

  probe('ads', 'select', 'select id, brand_id, category_id, created_at, requires_subscription, is_black_friday, preview_path, thumbhash from public.ads',
                                                                                                          [3,   3,   3,    3,    3,     3,     3,     3,    3]),
  probe('ads', 'insert', `insert into public.ads (brand_id, category_id, original_path, display_480_path, display_960_path, preview_path, width, height, thumbhash)
                          values ({brand}, {category}, 'matrix/original.jpg', 'matrix/480.webp', 'matrix/960.webp', 'previews/matrix.webp', 1080, 1350, 'YJqGPQw7sFlslqhFafSE+Q6oJ1h2iHB2Rw==')`,
                                                                                                          [D,   D,   D,    D,    D,     D,     D,     OK,   D]),
  probe('ads', 'update', 'update public.ads set requires_subscription = requires_subscription',           [D,   0,   0,    0,    0,     0,     0,     3,    0]),
  probe('ads', 'delete', 'delete from public.ads where id = {spareAd}',                                   [D,   0,   0,    0,    0,     0,     0,     1,    0]),
  probe('ads.free_sample', 'select', 'select id from public.ads where free_sample',                       [1,   1,   1,    1,    1,     1,     1,     1,    1]),
  probe('ads.free_sample', 'update', 'update public.ads set free_sample = true where id = {spareAd}',     [D,   D,   D,    D,    D,     D,     D,     D,    D]),
  probe('ads.*', 'select', 'select * from public.ads',                                                    [D,   D,   D,    D,    D,     D,     D,     D,    D]),
  probe('ads.original_path', 'select', 'select original_path from public.ads',                            [D,   D,   D,    D,    D,     D,     D,     D,    D]),
  probe('ads.original_path', 'update', `update public.ads set original_path = 'matrix/original.jpg' where id = {ad}`,
                                                                                                          [D,   D,   D,    D,    D,     D,     D,     D,    D]),
  probe('ads.display_480_path', 'select', 'select display_480_path from public.ads',                      [D,   D,   D,    D,    D,     D,     D,     D,    D]),
  probe('ads.display_480_path', 'update', `update public.ads set display_480_path = 'matrix/480.webp' where id = {ad}`,
                                                                                                          [D,   D,   D,    D,    D,     D,     D,     D,    D]),
  probe('ads.display_960_path', 'select', 'select display_960_path from public.ads',                      [D,   D,   D,    D,    D,     D,     D,     D,    D]),
  probe('ads.display_960_path', 'update', `update public.ads set display_960_path = 'matrix/960.webp' where id = {ad}`,
                                                                                                          [D,   D,   D,    D,    D,     D,     D,     D,    D]),
  probe('ads.display_480_path [in a filter]', 'select', `select id from public.ads where display_480_path like '%'`,
                                                                                                          [D,   D,   D,    D,    D,     D,     D,     D,    D]),

  probe('ad_tags', 'select', 'select * from public.ad_tags',                                             [2,   2,   2,    2,    2,     2,     2,     2,    2]),
  probe('ad_tags', 'insert', 'insert into public.ad_tags (ad_id, tag_id) values ({ad}, {spareTag})',     [D,   D,   D,    D,    D,     D,     D,     OK,   D]),
  probe('ad_tags', 'update', 'update public.ad_tags set tag_id = tag_id',                                [D,   D,   D,    D,    D,     D,     D,     D,    D]),
  probe('ad_tags', 'delete', 'delete from public.ad_tags where ad_id = {ad}',                            [D,   0,   0,    0,    0,     0,     0,     1,    0]),

  probe('ads_with_flags', 'select', 'select * from public.ads_with_flags',                               [3,   3,   3,    3,    3,     3,     3,     3,    3]),
  probe('ads_with_flags', 'insert', 'insert into public.ads_with_flags (id) values (gen_random_uuid())',  [RO,  RO,  RO,   RO,   RO,    RO,    RO,    RO,   RO]),
  probe('ads_with_flags', 'update', 'update public.ads_with_flags set requires_subscription = false',     [RO,  RO,  RO,   RO,   RO,    RO,    RO,    RO,   RO]),
  probe('ads_with_flags', 'delete', 'delete from public.ads_with_flags',                                 [RO,  RO,  RO,   RO,   RO,    RO,    RO,    RO,   RO]),

  probe('storage_deletions', 'select', 'select * from public.storage_deletions',                         [D,   D,   D,    D,    D,     D,     D,     D,    D]),
  probe('storage_deletions', 'insert', `insert into public.storage_deletions (bucket_id, name) values ('ad-originals', {originalOfAd})`,
                                                                                                          [D,   D,   D,    D,    D,     D,     D,     D,    D]),
  probe('storage_deletions', 'update', `update public.storage_deletions set name = {originalOfAd}`,      [D,   D,   D,    D,    D,     D,     D,     D,    D]),
  probe('storage_deletions', 'delete', 'delete from public.storage_deletions',                           [D,   D,   D,    D,    D,     D,     D,     D,    D]),

  probe('page_banners', 'select', 'select * from public.page_banners',                                   [1,   1,   1,    1,    1,     1,     1,     1,    1]),
  probe('page_banners', 'insert', `insert into public.page_banners (page, image_path) values ('top-picks', 'matrix-top-picks.jpg')`,
                                                                                                          [D,   D,   D,    D,    D,     D,     D,     OK,   D]),
  probe('page_banners', 'update', 'update public.page_banners set image_path = image_path',              [D,   0,   0,    0,    0,     0,     0,     1,    0]),
  probe('page_banners', 'delete', `delete from public.page_banners where page = 'library'`,              [D,   0,   0,    0,    0,     0,     0,     1,    0]),

  probe('user_collections', 'select', 'select * from public.user_collections',                           [D,   1,   1,    1,    1,     1,     1,     1,    1]),
  probe('user_collections', 'insert', `insert into public.user_collections (name) values ('Matrix board')`,
                                                                                                          [D,   OK,  OK,   OK,   OK,    OK,    OK,    OK,   OK]),
  probe('user_collections', 'update', 'update public.user_collections set name = name',                  [D,   1,   1,    1,    1,     1,     1,     1,    1]),
  probe('user_collections', 'delete', 'delete from public.user_collections',                             [D,   1,   1,    1,    1,     1,     1,     1,    1]),
  probe("user_collections [other user's id]", 'select', 'select * from public.user_collections where id = {otherBoard}',
                                                                                                          [D,   0,   0,    0,    0,     0,     0,     0,    1]),
  probe("user_collections [other user's id]", 'insert', `insert into public.user_collections (name, parent_id) values ('Nested', {otherBoard})`,
                                                                                                          [D,   NF,  NF,   NF,   NF,    NF,    NF,    NF,   OK]),
  probe("user_collections [other user's id]", 'update', `update public.user_collections set name = 'Taken over' where id = {otherBoard}`,
                                                                                                          [D,   0,   0,    0,    0,     0,     0,     0,    1]),
  probe("user_collections [other user's id]", 'delete', 'delete from public.user_collections where id = {otherBoard}',
                                                                                                          [D,   0,   0,    0,    0,     0,     0,     0,    1]),

  probe('user_collection_items', 'select', 'select * from public.user_collection_items',                 [D,   1,   1,    1,    1,     1,     1,     1,    1]),
  probe('user_collection_items', 'insert', 'insert into public.user_collection_items (collection_id, ad_id) values ({myBoard}, {spareAd})',
                                                                                                          [D,   OK,  OK,   OK,   OK,    OK,    OK,    OK,   OK]),
  probe('user_collection_items', 'update', 'update public.user_collection_items set saved_at = now()',   [D,   D,   D,    D,    D,     D,     D,     D,    D]),
  probe('user_collection_items', 'delete', 'delete from public.user_collection_items',                   [D,   1,   1,    1,    1,     1,     1,     1,    1]),
  probe("user_collection_items [other user's board]", 'select', 'select * from public.user_collection_items where collection_id = {otherBoard}',
                                                                                                          [D,   0,   0,    0,    0,     0,     0,     0,    1]),
  probe("user_collection_items [other user's board]", 'insert', 'insert into public.user_collection_items (collection_id, ad_id) values ({otherBoard}, {spareAd})',
                                                                                                          [D,   D,   D,    D,    D,     D,     D,     D,    OK]),
  probe("user_collection_items [other user's board]", 'update', 'update public.user_collection_items set saved_at = now() where collection_id = {otherBoard}',
                                                                                                          [D,   D,   D,    D,    D,     D,     D,     D,    D]),
  probe("user_collection_items [other user's board]", 'delete', 'delete from public.user_collection_items where collection_id = {otherBoard}',
                                                                                                          [D,   0,   0,    0,    0,     0,     0,     0,    1]),

  probe('v_user_collection_ads', 'select', 'select * from public.v_user_collection_ads',                 [D,   1,   1,    1,    1,     1,     1,     1,    1]),
  probe('v_user_collection_ads', 'insert', 'insert into public.v_user_collection_ads (collection_id, ad_id) values ({myBoard}, {spareAd})',
                                                                                                          [RO,  RO,  RO,   RO,   RO,    RO,    RO,    RO,   RO]),
  probe('v_user_collection_ads', 'update', 'update public.v_user_collection_ads set saved_at = now()',   [RO,  RO,  RO,   RO,   RO,    RO,    RO,    RO,   RO]),
  probe('v_user_collection_ads', 'delete', 'delete from public.v_user_collection_ads',                   [RO,  RO,  RO,   RO,   RO,    RO,    RO,    RO,   RO]),
];

interface Fixture {
  people: Personas;
  ids: Record<string, string>;
  boards: Record<Exclude<PersonaName, 'anon'>, string>;
}

const personaKey: Record<Exclude<PersonaName, 'anon'>, keyof Personas> = {
  free: 'free',
  flagged: 'flagged',
  trialing: 'trialing',
  subscriber: 'subscriber',
  cancelled: 'cancelledInPeriod',
  expired: 'expired',
  admin: 'admin',
  other: 'other',
};

async function buildFixture(db: Queryable): Promise<Fixture> {
  const people = await newPersonas(db);
  const otherSubscription = await newSubscription(db, people.other, 'active');
  const brand = await newBrand(db);
  const spareBrand = await newBrand(db);
  const category = await newCategory(db);
  const spareCategory = await newCategory(db);
  const tag = await newTag(db);
  const spareTag = await newTag(db);
  await newType(db);
  const spareType = await newType(db);
  await newHook(db);
  const spareHook = await newHook(db);
  const ad = await newAd(db, { brandId: brand.id, categoryId: category.id, tagIds: [tag.id] });
  await newAd(db, { brandId: brand.id, categoryId: category.id, tagIds: [await systemTagId(db, 'black_friday')] });
  const spareAd = await newAd(db, { brandId: brand.id, categoryId: category.id });
  // Uploaded but not yet used: what an admin's new ad and banner point at.
  await newObject(db, 'ad-originals', 'matrix/original.jpg', 'image/jpeg');
  for (const name of ['matrix/480.webp', 'matrix/960.webp', 'previews/matrix.webp']) await newObject(db, 'ad-images', name);
  await newObject(db, 'banners', 'matrix-library.jpg', 'image/jpeg');
  await newObject(db, 'banners', 'matrix-top-picks.jpg', 'image/jpeg');
  await db.query(`insert into public.page_banners (page, image_path) values ('library', 'matrix-library.jpg')`);

  const boards = {} as Fixture['boards'];
  for (const [name, key] of Object.entries(personaKey) as [Exclude<PersonaName, 'anon'>, keyof Personas][]) {
    boards[name] = await newBoard(db, people[key], `Board of ${name}`);
    await db.query('insert into public.user_collection_items (collection_id, ad_id) values ($1, $2)', [boards[name], ad.id]);
  }
  await db.query(`insert into public.billing_customers (user_id, stripe_customer_id) values ($1, 'cus_subscriber'), ($2, 'cus_other')`, [
    people.subscriber.id,
    people.other.id,
  ]);
  for (const [user, suffix] of [[people.subscriber, 'subscriber'], [people.other, 'other']] as const) {
    await db.query(`select public.record_subscription_holders($1, $2, $3, $4)`, [user.id, `cus_${suffix}`, `fp_${suffix}`, `sub_holder_${suffix}`]);
  }
  await db.query(`insert into public.processed_webhook_events (event_id, type) values ('evt_matrix', 'checkout.session.completed')`);
  await db.query(`insert into public.storage_deletions (bucket_id, name) values ('ad-images', 'gone/480.webp')`);

  return {
    people,
    boards,
    ids: {
      other: people.other.id,
      otherBoard: boards.other,
      otherSubscription,
      brand: brand.id,
      spareBrand: spareBrand.id,
      category: category.id,
      spareCategory: spareCategory.id,
      spareTag: spareTag.id,
      spareType: spareType.id,
      spareHook: spareHook.id,
      ad: ad.id,
      spareAd: spareAd.id,
      originalOfAd: ad.original_path,
    },
  };
}

const literal = (value: string | null) => (value === null ? 'null' : `'${value.replace(/'/g, "''")}'`);

function statementFor(sql: string, fixture: Fixture, persona: PersonaName): string {
  return sql.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (name === 'myBoard') return persona === 'anon' ? 'null::uuid' : `${literal(fixture.boards[persona])}::uuid`;
    const value = fixture.ids[name];
    if (value === undefined) throw new Error(`The matrix names an unknown fixture id {${name}}`);
    return /^[0-9a-f-]{36}$/.test(value) ? `${literal(value)}::uuid` : literal(value);
  });
}

class RolledBack extends Error {}

/** Runs fn in a transaction that is always rolled back, so no probe changes what the next one sees. */
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

interface Observed {
  outcome: Outcome;
  /** The database's message, when the statement failed. */
  message?: string;
}

async function observe(db: Database, actor: Actor, action: Action, sql: string): Promise<Observed> {
  return inRolledBackTransaction(db, async (tx) => {
    await becomeIn(tx, actor);
    try {
      const result = await tx.query(sql);
      if (action === 'select') return { outcome: result.rows.length };
      if (action === 'insert') return { outcome: result.rowCount === 1 ? 'ok' : result.rowCount };
      return { outcome: result.rowCount };
    } catch (error) {
      const { code, message } = error as { code?: string; message: string };
      const known: Record<string, Outcome> = { '42501': 'denied', PT404: 'not found', '55000': 'read-only' };
      return { outcome: known[code ?? ''] ?? `error ${code}`, message };
    }
  });
}

function renderMatrix(rows: { probe: Probe; got: Outcome[] }[]): string {
  const cell = (expected: Outcome, got: Outcome) => (got === expected ? String(got) : `${String(got)} ≠ ${String(expected)}`);
  const resourceWidth = Math.max(...rows.map((row) => row.probe.resource.length));
  const cells = rows.map((row) => row.got.map((got, i) => cell(row.probe.expected[i]!, got)));
  const widths = personaNames.map((name, i) => Math.max(name.length, ...cells.map((line) => line[i]!.length)));
  const line = (resource: string, action: string, values: readonly string[]) =>
    `${resource.padEnd(resourceWidth)}  ${action.padEnd(6)}  ${values.map((value, i) => value.padEnd(widths[i]!)).join('  ')}`;
  return [
    'Access matrix: rows seen or changed, ok = inserted, denied = 42501, not found = PT404, read-only = view not writable (55000); a mismatch reads "got ≠ expected".',
    line('resource', 'action', personaNames),
    ...rows.map((row, i) => line(row.probe.resource, row.probe.action, cells[i]!)),
  ].join('\n');
}

describeOnEngines('access matrix', (ctx) => {
  let fixture: Fixture;
  beforeAll(async () => {
    fixture = await buildFixture(ctx.db);
  });

  const actorOf = (persona: PersonaName): Actor => (persona === 'anon' ? anon : userActor(fixture.people[personaKey[persona]]));

  it('covers every table and view in schema public with select, insert, update and delete', async () => {
    const { rows } = await ctx.db.query<{ relname: string }>(
      `select relname from pg_class where relnamespace = 'public'::regnamespace and relkind in ('r', 'p', 'v', 'm') order by 1`,
    );
    const missing = rows.flatMap(({ relname }) =>
      (['select', 'insert', 'update', 'delete'] as const)
        .filter((action) => !matrix.some((entry) => entry.relation === relname && entry.action === action))
        .map((action) => `${relname} ${action}`),
    );
    expect(missing).toEqual([]);
    const unknown = matrix.filter((entry) => !rows.some((row) => row.relname === entry.relation)).map((entry) => entry.relation);
    expect(unknown).toEqual([]);
  });

  it('gives every persona exactly the access in the matrix, on every table and view', { timeout: 300_000 }, async () => {
    const results: { probe: Probe; observed: Observed[]; got: Outcome[] }[] = [];
    for (const entry of matrix) {
      const observed: Observed[] = [];
      for (const persona of personaNames) {
        observed.push(await observe(ctx.db, actorOf(persona), entry.action, statementFor(entry.sql, fixture, persona)));
      }
      results.push({ probe: entry, observed, got: observed.map((o) => o.outcome) });
    }
    console.log(`[${ctx.engine}]\n${renderMatrix(results)}`);
    const mismatches = results.flatMap(({ probe: entry, observed }) =>
      personaNames.flatMap((persona, i) => {
        const { outcome, message } = observed[i]!;
        if (outcome === entry.expected[i]) return [];
        return [`${persona} × ${entry.resource} × ${entry.action}: expected ${entry.expected[i]}, got ${outcome}${message ? ` (${message})` : ''}`];
      }),
    );
    expect(mismatches).toEqual([]);
  });

  it('never grants anon or authenticated the image path columns of ads', async () => {
    const { rows } = await ctx.db.query<{ grant: string }>(
      `select r || ' ' || p || ' ' || c as grant
         from unnest(array['anon', 'authenticated']) r,
              unnest(array['original_path', 'display_480_path', 'display_960_path']) c,
              unnest(array['SELECT', 'UPDATE']) p
        where has_column_privilege(r, 'public.ads', c, p)`,
    );
    expect(rows).toEqual([]);
  });
});
