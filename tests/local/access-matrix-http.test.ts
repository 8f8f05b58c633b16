import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import sharp from 'sharp';
import WebSocket from 'ws';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Queryable } from '../../local/db/database.ts';
import { projectRoot, startLocalStack, type LocalStack } from '../../local/stack.ts';
import { muxWebm, vp8FrameOfWebp } from '../../local/seed/webm-muxer.ts';
import { LOCAL_STRIPE_PRICES } from '../../supabase/functions/_shared/local-stripe-defaults.ts';
import { describeOnEngines } from '../support/engines.ts';
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
  type Personas,
} from '../support/factories.ts';
import { userToken } from '../support/local-config.ts';

/**
 * Every access rule attacked through the stack's HTTP APIs, as a browser (or
 * anyone holding the public anon key and their own session) could: rest/v1
 * tables, views and RPCs, storage/v1 buckets, functions/v1 and realtime/v1.
 * tests/sql/access-matrix.test.ts holds the same rules at SQL level.
 */

const personaNames = ['anon', 'free', 'flagged', 'trialing', 'subscriber', 'cancelled', 'expired', 'admin', 'other'] as const;
type PersonaName = (typeof personaNames)[number];
type SignedIn = Exclude<PersonaName, 'anon'>;

/**
 * rows      2xx with rows, some not the caller's own (or rows with no owner, such as the catalogue)
 * own-only  2xx with rows, every one the caller's own
 * none      2xx with no rows (an empty list, or a write that touched nothing)
 * created   2xx for an insert or an upload
 * ok        2xx for a call with no rows to judge (an RPC, a function, a file read)
 * denied    401 or 403 from rest/v1 or storage/v1
 * not found 404
 * read-only a write to a view that cannot be written (55000, a 500 as PostgREST answers it)
 * true/false             the boolean an RPC answered
 * clear/teaser/locked    a listing whose ads are all / some / none clear (a locked ad carrying a display path reads 'leak')
 * 400, 401, 403, 404, 409, 502 ...   the status of a function's answer, where the exact refusal matters: 401 signed out,
 *           403 not an admin, 404 nothing of the caller's to act on, 409 already subscribed, 400 no Stripe signature;
 *           502 let through to the local Stripe, which does not know the made-up ids the factories give subscriptions
 *           and customers. Any other status of the other APIs also reads as its number.
 * A refused write (denied, none, not found, a 4xx) that changed the watched rows anyway reads '<outcome>+changed'.
 */
type Outcome = string;
type Expected = [Outcome, Outcome, Outcome, Outcome, Outcome, Outcome, Outcome, Outcome, Outcome];

type Api = 'rest' | 'rpc' | 'storage' | 'functions' | 'realtime';
type Reader = 'ok' | 'boolean' | 'listing' | 'ads' | 'ad' | 'board listing';
type LiveSubset = 'own boards' | "other users' boards" | 'unpublished tables';

interface Probe {
  api: Api;
  resource: string;
  action: string;
  /** METHOD path [body], the path relative to the API's base; {name} stands for a fixture id, {me}, {my...} and {persona} for the caller's. */
  request: string;
  expected: Expected;
  reader?: Reader;
  /** Rows that a refused write must leave exactly as they were. */
  watch?: string[];
  subset?: LiveSubset;
}

const D = 'denied';
const N = 'none';
const R = 'rows';
const O = 'own-only';
const C = 'created';
const OK = 'ok';
const NF = 'not found';
const T = 'true';
const F = 'false';
const CL = 'clear';
const TS = 'teaser';
const LK = 'locked';
const RO = 'read-only';

const rest = (resource: string, action: string, request: string, expected: Expected): Probe => ({ api: 'rest', resource, action, request, expected });
const rpc = (resource: string, body: string, expected: Expected, reader: Reader = 'ok', watch?: string[]): Probe => ({
  api: 'rpc',
  resource,
  action: 'execute',
  request: `POST rpc/${resource.split(' ')[0]} ${body}`,
  expected,
  reader,
  watch,
});
const storage = (bucket: string, action: string, request: string, expected: Expected): Probe => ({ api: 'storage', resource: bucket, action, request, expected });
const fn = (name: string, body: string, expected: Expected): Probe => ({ api: 'functions', resource: name, action: 'invoke', request: `POST ${name} ${body}`, expected });
const live = (resource: string, subset: LiveSubset, expected: Expected): Probe => ({
  api: 'realtime',
  resource,
  action: `changes to ${subset}`,
  request: "WS websocket postgres_changes {event: '*', schema: 'public'}",
  expected,
  subset,
});

const ADS_PUBLIC_COLUMNS = 'id,brand_id,category_id,created_at,requires_subscription,is_black_friday,preview_path,thumbhash';
const NEW_AD = `{"brand_id":"{brand}","category_id":"{category}","original_path":"matrix/original.jpg","display_480_path":"matrix/480.webp","display_960_path":"matrix/960.webp","preview_path":"previews/matrix.webp","width":1080,"height":1350,"thumbhash":"YJqGPQw7sFlslqhFafSE+Q6oJ1h2iHB2Rw=="}`;
const STRIPE_EVENT = `{"p_event_id":"evt_forged","p_event_type":"customer.subscription.updated","p_event_created":1,"p_subscription":{"user_id":"{me}","stripe_customer_id":"cus_forged","stripe_subscription_id":"sub_forged","status":"active","tier":"annual","price_id":"price_annual","current_period_end":"2099-01-01T00:00:00Z","cancel_at_period_end":false,"trial_end":null}}`;
const BOARDS = ['select * from public.user_collections', 'select * from public.user_collection_items'];
const LOCALE_COUNTS = ['select * from private.ad_locale_counts'];

/** Per bucket: the content type its uploads must have, and the matching file extension. */
const buckets = {
  'ad-images': { type: 'image/webp', ext: 'webp' },
  'ad-originals': { type: 'image/jpeg', ext: 'jpg' },
  'ad-videos': { type: 'video/webm', ext: 'webm' },
  'brand-logos': { type: 'image/png', ext: 'png' },
  banners: { type: 'image/jpeg', ext: 'jpg' },
} as const;
type Bucket = keyof typeof buckets;

/** The same seven attacks on each bucket: only admins write and list; originals are read by entitled users only. */
const bucketProbes = (bucket: Bucket, publicFiles: boolean, entitledRead: boolean): Probe[] => {
  const { ext } = buckets[bucket];
  const adminOnly: Expected = [NF, NF, NF, NF, NF, NF, NF, OK, NF];
  const entitled: Expected = [NF, NF, NF, OK, OK, OK, NF, OK, OK];
  const reader = entitledRead ? entitled : adminOnly;
  // prettier-ignore
  return [
    //                                                                                                         anon free flagged trial subscr cancel expired admin other
    storage(bucket, 'read (public URL)', `GET object/public/${bucket}/matrix/readable.${ext}`,
      publicFiles ?                                                                                            [OK,  OK,  OK,    OK,   OK,    OK,    OK,     OK,   OK] :
                                                                                                               [NF,  NF,  NF,    NF,   NF,    NF,    NF,     NF,   NF]),
    storage(bucket, 'read (authenticated)', `GET object/authenticated/${bucket}/matrix/readable.${ext}`, reader),
    storage(bucket, 'sign a URL', `POST object/sign/${bucket}/matrix/readable.${ext} {"expiresIn":60}`, reader),
    storage(bucket, 'list', `POST object/list/${bucket} {"prefix":"matrix"}`,
      entitledRead ?                                                                                           [N,   N,   N,     R,    R,     R,     N,      R,    R] :
                                                                                                               [N,   N,   N,     N,    N,     N,     N,      R,    N]),
    storage(bucket, 'upload', `POST object/${bucket}/matrix/upload-{persona}.${ext} <${ext}>`,                [D,   D,   D,     D,    D,     D,     D,      C,    D]),
    storage(bucket, 'overwrite (upsert)', `PUT object/${bucket}/matrix/victim.${ext} <${ext}>`,              [D,   D,   D,     D,    D,     D,     D,      C,    D]),
    storage(bucket, 'delete', `DELETE object/${bucket} {"prefixes":["matrix/victim.${ext}"]}`,                [N,   N,   N,     N,    N,     N,     N,      R,    N]),
  ];
};

/** Who may do what, through every API. Personas run in the order refusals first, so each attack meets its target intact. */
// prettier-ignore
const matrix: Probe[] = [
  //                                                                                                                           anon free flagged trial subscr cancel expired admin other
  rest('admin_users', 'select', 'GET admin_users?select=*',                                                                   [D,   N,   N,     N,    N,     N,     N,      O,    N]),
  rest('admin_users', 'insert', 'POST admin_users {"user_id":"{me}"}',                                                        [D,   D,   D,     D,    D,     D,     D,      D,    D]),
  rest('admin_users', 'update', 'PATCH admin_users?user_id=eq.{admin} {"granted_at":"2000-01-01T00:00:00Z"}',                [D,   D,   D,     D,    D,     D,     D,      D,    D]),
  rest('admin_users', 'delete', 'DELETE admin_users?user_id=eq.{admin}',                                                      [D,   D,   D,     D,    D,     D,     D,      D,    D]),

  rest('billing_customers', 'select', 'GET billing_customers?select=*',                                                       [D,   D,   D,     D,    D,     D,     D,      D,    D]),
  rest('billing_customers', 'insert', 'POST billing_customers {"user_id":"{me}","stripe_customer_id":"cus_mine"}',            [D,   D,   D,     D,    D,     D,     D,      D,    D]),
  rest('billing_customers', 'update', 'PATCH billing_customers?user_id=eq.{other} {"stripe_customer_id":"cus_taken"}',        [D,   D,   D,     D,    D,     D,     D,      D,    D]),
  rest('billing_customers', 'delete', 'DELETE billing_customers?user_id=eq.{other}',                                          [D,   D,   D,     D,    D,     D,     D,      D,    D]),

  rest('processed_webhook_events', 'select', 'GET processed_webhook_events?select=*',                                         [D,   D,   D,     D,    D,     D,     D,      D,    D]),
  rest('processed_webhook_events', 'insert', 'POST processed_webhook_events {"event_id":"evt_mine","type":"invoice.paid"}',   [D,   D,   D,     D,    D,     D,     D,      D,    D]),
  rest('processed_webhook_events', 'update', 'PATCH processed_webhook_events?event_id=eq.evt_matrix {"type":"invoice.paid"}', [D,   D,   D,     D,    D,     D,     D,      D,    D]),
  rest('processed_webhook_events', 'delete', 'DELETE processed_webhook_events?event_id=eq.evt_matrix',                        [D,   D,   D,     D,    D,     D,     D,      D,    D]),

  rest('subscription_holders', 'select', 'GET subscription_holders?select=*',                                                 [D,   N,   N,     N,    O,     N,     N,      N,    O]),
  rest('subscription_holders', 'insert', 'POST subscription_holders {"kind":"card","holder":"fp_mine","user_id":"{me}","first_subscription_id":"sub_mine"}',
                                                                                                                              [D,   D,   D,     D,    D,     D,     D,      D,    D]),
  rest('subscription_holders', 'update', 'PATCH subscription_holders?user_id=eq.{other} {"first_subscription_id":"sub_mine"}', [D,   D,   D,     D,    D,     D,     D,      D,    D]),
  rest('subscription_holders', 'delete', 'DELETE subscription_holders?user_id=eq.{other}',                                    [D,   D,   D,     D,    D,     D,     D,      D,    D]),
  rest("subscription_holders [other user's id]", 'select', 'GET subscription_holders?select=*&user_id=eq.{other}',            [D,   N,   N,     N,    N,     N,     N,      N,    O]),

  rest('storage_deletions', 'select', 'GET storage_deletions?select=*',                                                       [D,   D,   D,     D,    D,     D,     D,      D,    D]),
  rest('storage_deletions', 'insert', 'POST storage_deletions {"bucket_id":"ad-originals","name":"{originalOfAd}"}',          [D,   D,   D,     D,    D,     D,     D,      D,    D]),
  rest('storage_deletions', 'update', 'PATCH storage_deletions?bucket_id=eq.ad-images {"name":"{originalOfAd}"}',             [D,   D,   D,     D,    D,     D,     D,      D,    D]),
  rest('storage_deletions', 'delete', 'DELETE storage_deletions?bucket_id=eq.ad-images',                                      [D,   D,   D,     D,    D,     D,     D,      D,    D]),

  rest('subscriptions', 'select', 'GET subscriptions?select=*',                                                               [D,   N,   N,     O,    O,     O,     O,      N,    O]),
  rest('subscriptions', 'insert', 'POST subscriptions {"user_id":"{me}","stripe_customer_id":"cus_mine","stripe_subscription_id":"sub_mine","status":"active","tier":"annual","price_id":"price_annual"}',
                                                                                                                              [D,   D,   D,     D,    D,     D,     D,      D,    D]),
  rest('subscriptions', 'update', 'PATCH subscriptions?user_id=eq.{me} {"current_period_end":"2099-01-01T00:00:00Z"}',       [D,   D,   D,     D,    D,     D,     D,      D,    D]),
  rest('subscriptions', 'delete', 'DELETE subscriptions?user_id=eq.{me}',                                                     [D,   D,   D,     D,    D,     D,     D,      D,    D]),
  rest("subscriptions [other user's id]", 'select', 'GET subscriptions?select=*&id=eq.{otherSubscription}',                   [D,   N,   N,     N,    N,     N,     N,      N,    O]),
  rest("subscriptions [other user's id]", 'insert', 'POST subscriptions {"user_id":"{other}","stripe_customer_id":"cus_given","stripe_subscription_id":"sub_given","status":"active","tier":"annual","price_id":"price_annual"}',
                                                                                                                              [D,   D,   D,     D,    D,     D,     D,      D,    D]),
  rest("subscriptions [other user's id]", 'update', 'PATCH subscriptions?id=eq.{otherSubscription} {"status":"canceled"}',   [D,   D,   D,     D,    D,     D,     D,      D,    D]),
  rest("subscriptions [other user's id]", 'delete', 'DELETE subscriptions?id=eq.{otherSubscription}',                         [D,   D,   D,     D,    D,     D,     D,      D,    D]),

  rest('profiles', 'select', 'GET profiles?select=*',                                                                         [D,   O,   O,     O,    O,     O,     O,      R,    O]),
  rest('profiles', 'insert', 'POST profiles {"user_id":"{me}","black_friday_access":true}',                                   [D,   D,   D,     D,    D,     D,     D,      D,    D]),
  rest('profiles', 'update', 'PATCH profiles?user_id=eq.{me} {"black_friday_access":true}',                                   [D,   D,   D,     D,    D,     D,     D,      D,    D]),
  rest('profiles', 'delete', 'DELETE profiles?user_id=eq.{me}',                                                               [D,   D,   D,     D,    D,     D,     D,      D,    D]),
  rest("profiles [other user's id]", 'select', 'GET profiles?select=*&user_id=eq.{other}',                                    [D,   N,   N,     N,    N,     N,     N,      R,    O]),
  rest("profiles [other user's id]", 'insert', 'POST profiles {"user_id":"{other}"}',                                         [D,   D,   D,     D,    D,     D,     D,      D,    D]),
  rest("profiles [other user's id]", 'update', 'PATCH profiles?user_id=eq.{other} {"full_name":"Taken over"}',                [D,   D,   D,     D,    D,     D,     D,      D,    D]),
  rest("profiles [other user's id]", 'delete', 'DELETE profiles?user_id=eq.{other}',                                          [D,   D,   D,     D,    D,     D,     D,      D,    D]),

  rest('brands', 'select', 'GET brands?select=*',                                                                             [R,   R,   R,     R,    R,     R,     R,      R,    R]),
  rest('brands', 'insert', 'POST brands {"name":"Matrix brand {persona}"}',                                                   [D,   D,   D,     D,    D,     D,     D,      C,    D]),
  rest('brands', 'update', 'PATCH brands?id=eq.{brand} {"name":"Renamed by {persona}"}',                                      [D,   N,   N,     N,    N,     N,     N,      R,    N]),
  rest('brands', 'delete', 'DELETE brands?id=eq.{spareBrand}',                                                                [D,   N,   N,     N,    N,     N,     N,      R,    N]),
  rest('categories', 'select', 'GET categories?select=*',                                                                     [R,   R,   R,     R,    R,     R,     R,      R,    R]),
  rest('categories', 'insert', 'POST categories {"name":"Matrix category {persona}"}',                                        [D,   D,   D,     D,    D,     D,     D,      C,    D]),
  rest('categories', 'update', 'PATCH categories?id=eq.{category} {"name":"Renamed by {persona}"}',                           [D,   N,   N,     N,    N,     N,     N,      R,    N]),
  rest('categories', 'delete', 'DELETE categories?id=eq.{spareCategory}',                                                     [D,   N,   N,     N,    N,     N,     N,      R,    N]),
  rest('tags', 'select', 'GET tags?select=*',                                                                                 [R,   R,   R,     R,    R,     R,     R,      R,    R]),
  rest('tags', 'insert', 'POST tags {"name":"Matrix tag {persona}"}',                                                         [D,   D,   D,     D,    D,     D,     D,      C,    D]),
  rest('tags', 'update', 'PATCH tags?id=eq.{tag} {"name":"Renamed by {persona}"}',                                            [D,   N,   N,     N,    N,     N,     N,      R,    N]),
  rest('tags', 'delete', 'DELETE tags?id=eq.{spareTag}',                                                                      [D,   N,   N,     N,    N,     N,     N,      R,    N]),
  rest('types', 'select', 'GET types?select=*',                                                                               [R,   R,   R,     R,    R,     R,     R,      R,    R]),
  rest('types', 'insert', 'POST types {"name":"Matrix type {persona}"}',                                                      [D,   D,   D,     D,    D,     D,     D,      C,    D]),
  rest('types', 'update', 'PATCH types?id=eq.{type} {"name":"Renamed by {persona}"}',                                         [D,   N,   N,     N,    N,     N,     N,      R,    N]),
  rest('types', 'delete', 'DELETE types?id=eq.{spareType}',                                                                   [D,   N,   N,     N,    N,     N,     N,      R,    N]),
  rest('hooks', 'select', 'GET hooks?select=*',                                                                               [R,   R,   R,     R,    R,     R,     R,      R,    R]),
  rest('hooks', 'insert', 'POST hooks {"name":"Matrix hook {persona}"}',                                                      [D,   D,   D,     D,    D,     D,     D,      C,    D]),
  rest('hooks', 'update', 'PATCH hooks?id=eq.{hook} {"name":"Renamed by {persona}"}',                                         [D,   N,   N,     N,    N,     N,     N,      R,    N]),
  rest('hooks', 'delete', 'DELETE hooks?id=eq.{spareHook}',                                                                   [D,   N,   N,     N,    N,     N,     N,      R,    N]),

  rest('ads', 'select', `GET ads?select=${ADS_PUBLIC_COLUMNS}`,                                                               [R,   R,   R,     R,    R,     R,     R,      R,    R]),
  rest('ads', 'insert', `POST ads?select=id ${NEW_AD}`,                                                                       [D,   D,   D,     D,    D,     D,     D,      C,    D]),
  rest('ads', 'update', 'PATCH ads?select=id&id=eq.{patchAd} {"requires_subscription":false}',                               [D,   N,   N,     N,    N,     N,     N,      R,    N]),
  rest('ads', 'delete', 'DELETE ads?select=id&id=eq.{deletableAd}',                                                           [D,   N,   N,     N,    N,     N,     N,      R,    N]),
  rest('ads.*', 'select', 'GET ads?select=*&id=eq.{oldAd}',                                                                   [D,   D,   D,     D,    D,     D,     D,      D,    D]),
  rest('ads.original_path', 'select', 'GET ads?select=id,original_path&id=eq.{oldAd}',                                       [D,   D,   D,     D,    D,     D,     D,      D,    D]),
  rest('ads.original_path', 'update', 'PATCH ads?select=id&id=eq.{oldAd} {"original_path":"matrix/original.jpg"}',           [D,   D,   D,     D,    D,     D,     D,      D,    D]),
  rest('ads.display_480_path', 'select', 'GET ads?select=id,display_480_path&id=eq.{oldAd}',                                 [D,   D,   D,     D,    D,     D,     D,      D,    D]),
  rest('ads.display_480_path', 'update', 'PATCH ads?select=id&id=eq.{oldAd} {"display_480_path":"matrix/480.webp"}',         [D,   D,   D,     D,    D,     D,     D,      D,    D]),
  rest('ads.display_960_path', 'select', 'GET ads?select=id,display_960_path&id=eq.{oldAd}',                                 [D,   D,   D,     D,    D,     D,     D,      D,    D]),
  rest('ads.display_960_path', 'update', 'PATCH ads?select=id&id=eq.{oldAd} {"display_960_path":"matrix/960.webp"}',         [D,   D,   D,     D,    D,     D,     D,      D,    D]),
  rest('ads.display_480_path [in a filter]', 'select', 'GET ads?select=id&display_480_path=like.*',                          [D,   D,   D,     D,    D,     D,     D,      D,    D]),
  rest('ads.display_480_path [embedded]', 'select', 'GET brands?select=id,ads(display_480_path)',                             [D,   D,   D,     D,    D,     D,     D,      D,    D]),

  rest('ad_tags', 'select', 'GET ad_tags?select=*',                                                                           [R,   R,   R,     R,    R,     R,     R,      R,    R]),
  rest('ad_tags', 'insert', 'POST ad_tags {"ad_id":"{ad}","tag_id":"{linkTag}"}',                                             [D,   D,   D,     D,    D,     D,     D,      C,    D]),
  rest('ad_tags', 'update', 'PATCH ad_tags?ad_id=eq.{ad} {"tag_id":"{linkTag}"}',                                             [D,   D,   D,     D,    D,     D,     D,      D,    D]),
  rest('ad_tags', 'delete', 'DELETE ad_tags?ad_id=eq.{ad}&tag_id=eq.{tag}',                                                   [D,   N,   N,     N,    N,     N,     N,      R,    N]),

  rest('ads_with_flags', 'select', 'GET ads_with_flags?select=*',                                                             [R,   R,   R,     R,    R,     R,     R,      R,    R]),
  rest('ads_with_flags', 'insert', 'POST ads_with_flags {"id":"{oldAd}"}',                                                    [RO,  RO,  RO,    RO,   RO,    RO,    RO,     RO,   RO]),
  rest('ads_with_flags', 'update', 'PATCH ads_with_flags?id=eq.{oldAd} {"requires_subscription":false}',                      [RO,  RO,  RO,    RO,   RO,    RO,    RO,     RO,   RO]),
  rest('ads_with_flags', 'delete', 'DELETE ads_with_flags?id=eq.{oldAd}',                                                     [RO,  RO,  RO,    RO,   RO,    RO,    RO,     RO,   RO]),

  // The ads' languages and countries are counted in schema private (list_ad_locales reads them): rest/v1 knows no such table.
  rest('ad_locale_counts [private]', 'select', 'GET ad_locale_counts?select=*',                                              [NF,  NF,  NF,    NF,   NF,    NF,    NF,     NF,   NF]),
  { ...rest('ad_locale_counts [private]', 'insert', 'POST ad_locale_counts {"kind":"language","code":"xx","ads":1}',         [NF,  NF,  NF,    NF,   NF,    NF,    NF,     NF,   NF]), watch: LOCALE_COUNTS },
  { ...rest('ad_locale_counts [private]', 'update', 'PATCH ad_locale_counts?kind=eq.language {"ads":1000}',                  [NF,  NF,  NF,    NF,   NF,    NF,    NF,     NF,   NF]), watch: LOCALE_COUNTS },
  { ...rest('ad_locale_counts [private]', 'delete', 'DELETE ad_locale_counts?kind=eq.language',                              [NF,  NF,  NF,    NF,   NF,    NF,    NF,     NF,   NF]), watch: LOCALE_COUNTS },

  rest('page_banners', 'select', 'GET page_banners?select=*',                                                                 [R,   R,   R,     R,    R,     R,     R,      R,    R]),
  rest('page_banners', 'insert', 'POST page_banners {"page":"top-picks","image_path":"matrix-top-picks.jpg"}',                [D,   D,   D,     D,    D,     D,     D,      C,    D]),
  rest('page_banners', 'update', 'PATCH page_banners?page=eq.library {"image_path":"matrix-library-2.jpg"}',                  [D,   N,   N,     N,    N,     N,     N,      R,    N]),
  rest('page_banners', 'delete', 'DELETE page_banners?page=eq.library',                                                       [D,   N,   N,     N,    N,     N,     N,      R,    N]),

  rest('user_collections', 'select', 'GET user_collections?select=*',                                                         [D,   O,   O,     O,    O,     O,     O,      O,    O]),
  rest('user_collections', 'insert', 'POST user_collections {"name":"Matrix board"}',                                         [D,   C,   C,     C,    C,     C,     C,      C,    C]),
  rest('user_collections', 'update', 'PATCH user_collections?id=eq.{myBoard} {"name":"Renamed board"}',                       [D,   O,   O,     O,    O,     O,     O,      O,    O]),
  rest('user_collections', 'delete', 'DELETE user_collections?id=eq.{myScratch}',                                             [D,   O,   O,     O,    O,     O,     O,      O,    O]),
  rest("user_collections [other user's id]", 'select', 'GET user_collections?select=*&id=eq.{otherBoard}',                    [D,   N,   N,     N,    N,     N,     N,      N,    O]),
  rest("user_collections [under other user's board]", 'insert', 'POST user_collections {"name":"Nested","parent_id":"{otherBoard}"}', [D,   NF,  NF,    NF,   NF,    NF,    NF,     NF,   C]),
  rest("user_collections [owned by other user]", 'insert', 'POST user_collections {"name":"Planted","user_id":"{other}"}',     [D,   D,   D,     D,    D,     D,     D,      D,    C]),
  rest("user_collections [given to other user]", 'update', 'PATCH user_collections?id=eq.{myBoard} {"user_id":"{other}"}',    [D,   D,   D,     D,    D,     D,     D,      D,    D]),
  rest("user_collections [moved under other user's board]", 'update', 'PATCH user_collections?id=eq.{myBoard} {"parent_id":"{otherBoard}"}',
                                                                                                                              [D,   NF,  NF,    NF,   NF,    NF,    NF,     NF,   '400']),
  rest("user_collections [other user's id]", 'update', 'PATCH user_collections?id=eq.{otherBoard} {"name":"Taken over"}',    [D,   N,   N,     N,    N,     N,     N,      N,    O]),
  rest("user_collections [other user's id]", 'delete', 'DELETE user_collections?id=eq.{otherVictimBoard}',                    [D,   N,   N,     N,    N,     N,     N,      N,    O]),

  rest('user_collection_items', 'select', 'GET user_collection_items?select=*',                                               [D,   O,   O,     O,    O,     O,     O,      O,    O]),
  rest('user_collection_items', 'insert', 'POST user_collection_items {"collection_id":"{myBoard}","ad_id":"{spareAd}"}',      [D,   C,   C,     C,    C,     C,     C,      C,    C]),
  rest('user_collection_items', 'update', 'PATCH user_collection_items?collection_id=eq.{myBoard} {"saved_at":"2000-01-01T00:00:00Z"}',
                                                                                                                              [D,   D,   D,     D,    D,     D,     D,      D,    D]),
  rest('user_collection_items', 'delete', 'DELETE user_collection_items?collection_id=eq.{myBoard}&ad_id=eq.{itemAd}',         [D,   O,   O,     O,    O,     O,     O,      O,    O]),
  rest("user_collection_items [other user's board]", 'select', 'GET user_collection_items?select=*&collection_id=eq.{otherBoard}',
                                                                                                                              [D,   N,   N,     N,    N,     N,     N,      N,    O]),
  rest("user_collection_items [other user's board]", 'insert', 'POST user_collection_items {"collection_id":"{otherBoard}","ad_id":"{spareAd2}"}',
                                                                                                                              [D,   D,   D,     D,    D,     D,     D,      D,    C]),
  rest("user_collection_items [other user's board]", 'update', 'PATCH user_collection_items?collection_id=eq.{otherBoard} {"saved_at":"2000-01-01T00:00:00Z"}',
                                                                                                                              [D,   D,   D,     D,    D,     D,     D,      D,    D]),
  rest("user_collection_items [other user's board]", 'delete', 'DELETE user_collection_items?collection_id=eq.{otherBoard}&ad_id=eq.{itemVictimAd}',
                                                                                                                              [D,   N,   N,     N,    N,     N,     N,      N,    O]),

  rest('v_user_collection_ads', 'select', 'GET v_user_collection_ads?select=*',                                               [D,   O,   O,     O,    O,     O,     O,      O,    O]),
  rest('v_user_collection_ads', 'insert', 'POST v_user_collection_ads {"collection_id":"{myBoard}","ad_id":"{spareAd3}"}',    [RO,  RO,  RO,    RO,   RO,    RO,    RO,     RO,   RO]),
  rest('v_user_collection_ads', 'update', 'PATCH v_user_collection_ads?collection_id=eq.{otherBoard} {"saved_at":"2000-01-01T00:00:00Z"}',
                                                                                                                              [RO,  RO,  RO,    RO,   RO,    RO,    RO,     RO,   RO]),
  rest('v_user_collection_ads', 'delete', 'DELETE v_user_collection_ads?collection_id=eq.{otherBoard}',                       [RO,  RO,  RO,    RO,   RO,    RO,    RO,     RO,   RO]),
  rest("v_user_collection_ads [other user's board]", 'select', 'GET v_user_collection_ads?select=*&collection_id=eq.{otherBoard}',
                                                                                                                              [D,   N,   N,     N,    N,     N,     N,      N,    O]),


  rpc('is_admin', '{}',                                                                                                       [F,   F,   F,     F,    F,     F,     F,      T,    F], 'boolean'),
  rpc('has_valid_access', '{}',                                                                                               [F,   F,   F,     T,    T,     T,     F,      T,    T], 'boolean'),
  rpc('list_ads [library]', '{"p_query":{"board":"library"}}',                                                                [TS,  TS,  TS,    CL,   CL,    CL,    TS,     CL,   CL], 'listing'),
  rpc('list_ads [black-friday]', '{"p_query":{"board":"black-friday"}}',                                                      [D,   CL,  CL,    CL,   CL,    CL,    CL,     CL,   CL], 'listing'),
  rpc('list_ads [top-picks]', '{"p_query":{"board":"top-picks"}}',                                                            [LK,  LK,  LK,    CL,   CL,    CL,    LK,     CL,   CL], 'listing'),
  rpc('list_ad_locales', '{}',                                                                                                [OK,  OK,  OK,    OK,   OK,    OK,    OK,     OK,   OK]),
  rpc('get_ad [a locked ad]', '{"p_id":"{oldAd}"}',                                                                           [LK,  LK,  LK,    CL,   CL,    CL,    LK,     CL,   CL], 'ad'),
  rpc('get_ad_original_download', '{"p_id":"{ad}"}',                                                                         [D,   D,   D,     OK,   OK,    OK,    D,      OK,   OK]),
  rpc('admin_ad_images', '{"p_ids":["{ad}"]}',                                                                                [D,   D,   D,     D,    D,     D,     D,      OK,   D]),
  rpc('similar_ads', '{"p_id":"{oldAd}"}',                                                                                    [TS,  TS,  TS,    CL,   CL,    CL,    TS,     CL,   CL], 'ads'),
  rpc('admin_near_duplicates', `{"p_hash":1,"p_histogram":[1${',0'.repeat(15)}]}`,                                          [D,   D,   D,     D,    D,     D,     D,      OK,   D]),
  rpc('admin_near_duplicate_groups', '{}',                                                                                    [D,   D,   D,     D,    D,     D,     D,      OK,   D]),
  rpc('get_ad_neighbours', '{"p_id":"{oldAd}"}',                                                                              [D,   D,   D,     OK,   OK,    OK,    D,      OK,   OK]),
  rpc('list_collection_ads [own board]', '{"p_collection_id":"{myBoard}"}',                                                   [D,   O,   O,     O,    O,     O,     O,      O,    O], 'board listing'),
  rpc("list_collection_ads [other user's board]", '{"p_collection_id":"{otherBoard}"}',                                       [D,   NF,  NF,    NF,   NF,    NF,    NF,     NF,   O], 'board listing'),
  rpc('get_or_create_favorites_id', '{}',                                                                                     [D,   OK,  OK,    OK,   OK,    OK,    OK,     OK,   OK], 'ok', BOARDS),
  rpc('save_ad_boards [own board]', '{"p_ad_id":"{spareAd3}","p_add":["{myBoard}"]}',                                         [D,   OK,  OK,    OK,   OK,    OK,    OK,     OK,   OK], 'ok', BOARDS),
  rpc("save_ad_boards [other user's board, add]", '{"p_ad_id":"{spareAd4}","p_add":["{otherBoard}"]}',                       [D,   NF,  NF,    NF,   NF,    NF,    NF,     NF,   OK], 'ok', BOARDS),
  rpc("save_ad_boards [other user's board, remove]", '{"p_ad_id":"{ad}","p_remove":["{otherBoard}"]}',                       [D,   NF,  NF,    NF,   NF,    NF,    NF,     NF,   OK], 'ok', BOARDS),
  rpc('delete_board [own board]', '{"p_id":"{myRpcScratch}","p_move_children_up":true}',                                      [D,   OK,  OK,    OK,   OK,    OK,    OK,     OK,   OK], 'ok', BOARDS),
  rpc("delete_board [other user's board]", '{"p_id":"{otherRpcVictimBoard}","p_move_children_up":false}',                    [D,   NF,  NF,    NF,   NF,    NF,    NF,     NF,   OK], 'ok', BOARDS),
  rpc("admin_set_black_friday_access [other user's id]", '{"p_user_id":"{other}","p_access":true}',                           [D,   D,   D,     D,    D,     D,     D,      OK,   D], 'ok', ['select * from public.profiles']),
  rpc('get_ads_admin', '{}',                                                                                                  [D,   D,   D,     D,    D,     D,     D,      OK,   D]),
  rpc('admin_update_ads', '{"p_ids":["{oldAd}"],"p_add_tag_ids":["{addTag}"]}',                                               [D,   D,   D,     D,    D,     D,     D,      OK,   D], 'ok', ['select * from public.ads', 'select * from public.ad_tags']),
  rpc('admin_ad_facts', '{"p_ids":["{oldAd}"]}',                                                                             [D,   D,   D,     D,    D,     D,     D,      OK,   D]),
  rpc('admin_import_ad_facts', '{"p_rows":[{"id":"{oldAd}","facts":{"offer":"bundle"}}]}',                                     [D,   D,   D,     D,    D,     D,     D,      OK,   D], 'ok', ['select * from public.ads']),
  rpc('admin_ads_without_image_text', '{"p_limit":10}',                                                                       [D,   D,   D,     D,    D,     D,     D,      OK,   D]),
  rpc('admin_set_image_texts', '{"p_texts":[{"id":"{oldAd}","text":"MATRIX WORDS"}]}',                                        [D,   D,   D,     D,    D,     D,     D,      OK,   D], 'ok', ['select * from public.ads']),
  rpc('admin_ads_without_fingerprint', '{"p_limit":10}',                                                                      [D,   D,   D,     D,    D,     D,     D,      OK,   D]),
  rpc('admin_set_fingerprints', `{"p_fingerprints":[{"id":"{oldAd}","hash":"42","histogram":[1${',0'.repeat(15)}],"colours":[{"hex":"#2e6fd8","share":1}]}]}`,
                                                                                                                              [D,   D,   D,     D,    D,     D,     D,      OK,   D], 'ok', ['select * from public.ads']),
  rpc('admin_delete_ads', '{"p_ids":["{rpcDeletableAd}"]}',                                                                   [D,   D,   D,     D,    D,     D,     D,      OK,   D], 'ok', ['select * from public.ads']),
  rpc('tag_ads_of_day', '{"p_day":"2020-01-01"}',                                                                             [D,   D,   D,     D,    D,     D,     D,      OK,   D], 'ok', ['select * from public.ad_tags']),
  rpc('apply_stripe_event', STRIPE_EVENT,                                                                                     [D,   D,   D,     D,    D,     D,     D,      D,    D], 'ok', ['select * from public.subscriptions', 'select * from public.processed_webhook_events']),
  rpc('link_billing_customer', '{"p_user_id":"{me}","p_stripe_customer_id":"cus_forged"}',                                    [D,   D,   D,     D,    D,     D,     D,      D,    D], 'ok', ['select * from public.billing_customers']),
  rpc('trial_available', '{}',                                                                                                [D,   T,   T,     F,    F,     F,     F,      T,    F], 'boolean'),
  rpc("trial_available_for [other user's id]", '{"p_user_id":"{other}","p_stripe_customer_id":null}',                         [D,   D,   D,     D,    D,     D,     D,      D,    D]),
  rpc('record_subscription_holders', '{"p_user_id":"{me}","p_stripe_customer_id":"cus_forged","p_card_fingerprint":"fp_forged","p_stripe_subscription_id":"sub_forged"}',
                                                                                                                              [D,   D,   D,     D,    D,     D,     D,      D,    D], 'ok', ['select * from public.subscription_holders']),
  rpc('take_coupon_preview', '{"p_user_id":"{me}","p_address":"203.0.113.1"}',                                               [D,   D,   D,     D,    D,     D,     D,      D,    D], 'ok', ['select * from private.coupon_previews']),

  // Display variants and originals are private: viewers get links the database signs (list_ads, get_ad_original_download).
  ...bucketProbes('ad-images', false, false),
  ...bucketProbes('ad-originals', false, false),
  ...bucketProbes('ad-videos', false, false),
  ...bucketProbes('brand-logos', true, false),
  ...bucketProbes('banners', true, false),
  storage('ad-originals → ad-images', 'copy an original into the display bucket', 'POST object/copy {"bucketId":"ad-originals","sourceKey":"matrix/readable.jpg","destinationBucket":"ad-images","destinationKey":"matrix/copied-{persona}.jpg"}',
                                                                                                                              [NF,  NF,  NF,    NF,   NF,    NF,    NF,     C,    NF]),
  storage('ad-images', "move (rename another's file)", 'POST object/move {"bucketId":"ad-images","sourceKey":"matrix/mover.webp","destinationKey":"matrix/moved-{persona}.webp"}',
                                                                                                                              [NF,  NF,  NF,    NF,   NF,    NF,    NF,     OK,   NF]),
  storage('(every bucket)', 'list buckets', 'GET bucket',                                                                     [N,   N,   N,     N,    N,     N,     N,      N,    N]),

  fn('stripe-webhook', '{"type":"customer.subscription.updated"}',                                                            ['400','400','400', '400','400', '400', '400',  '400','400']),
  fn('check-subscription', '{}',                                                                                              ['401',OK,  OK,    OK,   OK,    OK,    OK,     OK,   OK]),
  fn('tag-yesterdays-ads', '{"day":"2020-01-02"}',                                                                            ['403','403','403', '403','403', '403', '403',  OK,   '403']),
  fn('cancel-subscription', '{"immediate":false}',                                                                            ['401','404','404', '502','502', '502', '404',  '404','502']),
  fn('customer-portal', '{}',                                                                                                 ['401','404','404', '404','404', '404', '404',  '404','502']),
  fn('create-checkout', `{"priceId":"${LOCAL_STRIPE_PRICES.monthly}"}`,                                                       ['401',OK,  OK,    '409','409', '409', OK,     OK,   '409']),
  fn('preview-coupon', '{"couponCode":"OBYECT20"}',                                                                          ['401',OK,  OK,    OK,   OK,    OK,    OK,     OK,   OK]),

  live('user_collections', 'own boards',                                                                                      [N,   O,   O,     O,    O,     O,     O,      O,    O]),
  live('user_collections', "other users' boards",                                                                             [N,   N,   N,     N,    N,     N,     N,      N,    N]),
  live('subscriptions, profiles', 'unpublished tables',                                                                       [N,   N,   N,     N,    N,     N,     N,      N,    N]),
];

/** The column that names a row's owner: a user directly, or a board of one. */
const owners: Record<string, { column: string; via: 'user' | 'board' }> = {
  admin_users: { column: 'user_id', via: 'user' },
  billing_customers: { column: 'user_id', via: 'user' },
  subscriptions: { column: 'user_id', via: 'user' },
  subscription_holders: { column: 'user_id', via: 'user' },
  profiles: { column: 'user_id', via: 'user' },
  user_collections: { column: 'user_id', via: 'user' },
  user_collection_items: { column: 'collection_id', via: 'board' },
  v_user_collection_ads: { column: 'collection_id', via: 'board' },
};

/** The table a view's writes would reach. */
const baseTable: Record<string, string> = { ads_with_flags: 'ads', v_user_collection_ads: 'user_collection_items' };

const personaKey: Record<SignedIn, keyof Personas> = {
  free: 'free',
  flagged: 'flagged',
  trialing: 'trialing',
  subscriber: 'subscriber',
  cancelled: 'cancelledInPeriod',
  expired: 'expired',
  admin: 'admin',
  other: 'other',
};

interface Fixture {
  people: Personas;
  ids: Record<string, string>;
  /** Per signed-in persona: its kept board, a board to delete through rest/v1 and one to delete through delete_board. */
  boards: Record<SignedIn, { board: string; scratch: string; rpcScratch: string }>;
  userPersona: Map<string, PersonaName>;
}

const image = async (ext: string) => {
  const picture = sharp({ create: { width: 16, height: 16, channels: 3, background: '#2a9d8f' } });
  // A video of one frame, for the video bucket: the same picture as a VP8 key frame in a WebM.
  if (ext === 'webm') return Buffer.from(muxWebm({ width: 16, height: 16, fps: 12, frames: [vp8FrameOfWebp(new Uint8Array(await picture.webp().toBuffer()))] }));
  if (ext === 'webp') return picture.webp().toBuffer();
  if (ext === 'png') return picture.png().toBuffer();
  return picture.jpeg().toBuffer();
};

async function buildFixture(stack: LocalStack, db: Queryable): Promise<Fixture> {
  const people = await newPersonas(db);
  const otherSubscription = await newSubscription(db, people.other, 'active');
  const brand = await newBrand(db);
  const category = await newCategory(db);
  const type = await newType(db);
  const tag = await newTag(db);
  const hook = await newHook(db);
  const ids: Record<string, string> = {
    other: people.other.id,
    admin: people.admin.id,
    otherSubscription,
    brand: brand.id,
    category: category.id,
    type: type.id,
    tag: tag.id,
    spareBrand: (await newBrand(db)).id,
    spareCategory: (await newCategory(db)).id,
    spareType: (await newType(db)).id,
    hook: hook.id,
    spareHook: (await newHook(db)).id,
    spareTag: (await newTag(db)).id,
    linkTag: (await newTag(db)).id,
    addTag: (await newTag(db)).id,
  };
  const ad = (createdAt?: string, tagIds: string[] = []) => newAd(db, { brandId: brand.id, categoryId: category.id, createdAt, tagIds });
  const main = await ad(undefined, [tag.id]);
  ids.ad = main.id;
  ids.originalOfAd = main.original_path;
  // Two on each themed board; none is in the free sample (the 1st and 11th premium ads published are), so Top Picks is locked to viewers without access.
  const blackFriday = await systemTagId(db, 'black_friday');
  const topPicks = await systemTagId(db, 'top_picks');
  for (const tagId of [blackFriday, blackFriday, topPicks, topPicks]) await ad(undefined, [tagId]);
  for (const name of ['spareAd', 'spareAd2', 'spareAd3', 'spareAd4', 'itemAd', 'itemVictimAd', 'patchAd', 'deletableAd', 'rpcDeletableAd']) {
    ids[name] = (await ad()).id;
  }
  // The oldest ad: past every page's teaser, so locked for whoever lacks access.
  ids.oldAd = (await ad('2020-01-01T00:00:00Z')).id;
  // A language and a country counted, for list_ad_locales to answer and the attacks on its counts to aim at.
  await db.query(`update public.ads set language = 'en', country = 'US' where id = $1`, [main.id]);

  // Uploaded but not yet used: what an admin's new ad and banners point at.
  await newObject(db, 'ad-originals', 'matrix/original.jpg', 'image/jpeg');
  for (const name of ['matrix/480.webp', 'matrix/960.webp', 'previews/matrix.webp']) await newObject(db, 'ad-images', name);
  for (const name of ['matrix-library.jpg', 'matrix-library-2.jpg', 'matrix-top-picks.jpg']) await newObject(db, 'banners', name, 'image/jpeg');
  await db.query(`insert into public.page_banners (page, image_path) values ('library', 'matrix-library.jpg')`);
  // Real files, for reads, overwrites, deletes, a copy and a move.
  for (const [bucket, { type: contentType, ext }] of Object.entries(buckets)) {
    for (const name of ['readable', 'victim', 'mover']) {
      await stack.storage.writeObject(bucket, `matrix/${name}.${ext}`, await image(ext), contentType);
    }
  }

  const boards = {} as Fixture['boards'];
  const userPersona = new Map<string, PersonaName>();
  for (const [name, key] of Object.entries(personaKey) as [SignedIn, keyof Personas][]) {
    const user = people[key];
    userPersona.set(user.id, name);
    const board = await newBoard(db, user, `Board of ${name}`);
    boards[name] = { board, scratch: await newBoard(db, user, `Scratch of ${name}`), rpcScratch: await newBoard(db, user, `Spare of ${name}`) };
    for (const adId of [main.id, ids.itemAd!]) {
      await db.query('insert into public.user_collection_items (collection_id, ad_id) values ($1, $2)', [board, adId]);
    }
  }
  ids.otherBoard = boards.other.board;
  ids.otherVictimBoard = await newBoard(db, people.other, 'Victim of other');
  ids.otherRpcVictimBoard = await newBoard(db, people.other, 'Second victim of other');
  await db.query('insert into public.user_collection_items (collection_id, ad_id) values ($1, $2)', [boards.other.board, ids.itemVictimAd]);
  await db.query(`insert into public.billing_customers (user_id, stripe_customer_id) values ($1, 'cus_other')`, [people.other.id]);
  for (const [user, suffix] of [[people.subscriber, 'subscriber'], [people.other, 'other']] as const) {
    await db.query(`select public.record_subscription_holders($1, $2, $3, $4)`, [user.id, `cus_${suffix}`, `fp_${suffix}`, `sub_holder_${suffix}`]);
  }
  await db.query(`insert into public.processed_webhook_events (event_id, type) values ('evt_matrix', 'checkout.session.completed')`);
  return { people, ids, boards, userPersona };
}

interface Cell {
  got: Outcome;
  /** What came back, for the mismatch report. */
  detail: string;
}

interface Change {
  table: string;
  eventType: string;
  new: Record<string, unknown>;
  old: Record<string, unknown>;
}

const refusals = new Set([D, N, NF, F, LK, RO]);
const isRefusal = (outcome: Outcome) => refusals.has(outcome) || /^\d{3}$/.test(outcome);
const isWrite = (probe: Probe) =>
  probe.api === 'functions' ||
  (probe.api === 'rpc' && probe.watch !== undefined) ||
  (probe.api !== 'rpc' && probe.api !== 'realtime' && !probe.request.startsWith('GET ') && !['list', 'sign a URL'].includes(probe.action));

function renderMatrix(rows: { probe: Probe; cells: Cell[] }[]): string {
  const cellText = (expected: Outcome, got: Outcome) => (got === expected ? got : `${got} ≠ ${expected}`);
  const texts = rows.map((row) => row.cells.map((cell, i) => cellText(row.probe.expected[i]!, cell.got)));
  const apiWidth = Math.max(...rows.map((row) => row.probe.api.length));
  const resourceWidth = Math.max(...rows.map((row) => row.probe.resource.length));
  const actionWidth = Math.max(...rows.map((row) => row.probe.action.length));
  const widths = personaNames.map((name, i) => Math.max(name.length, ...texts.map((line) => line[i]!.length)));
  const line = (api: string, resource: string, action: string, values: readonly string[]) =>
    `${api.padEnd(apiWidth)}  ${resource.padEnd(resourceWidth)}  ${action.padEnd(actionWidth)}  ${values.map((value, i) => value.padEnd(widths[i]!)).join('  ')}`;
  return [
    'Access matrix over HTTP: each cell is what the persona got; a mismatch reads "got ≠ expected".',
    line('api', 'resource', 'action', personaNames),
    ...rows.map((row, i) => line(row.probe.api, row.probe.resource, row.probe.action, texts[i]!)),
  ].join('\n');
}

describeOnEngines('access matrix over HTTP', (ctx) => {
  let stack: LocalStack;
  let fixture: Fixture;
  const dataDir = `.tmp/access-matrix-http-${process.pid}-${ctx.engine}`;
  const tokens = new Map<PersonaName, string>();
  const boardOwners = new Map<string, PersonaName>();

  beforeAll(async () => {
    const started = Date.now();
    stack = await startLocalStack({ db: ctx.db, port: 0, env: { DATA_DIR: dataDir } });
    fixture = await buildFixture(stack, ctx.db);
    console.log(`[${ctx.engine}] stack and fixture ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    tokens.set('anon', stack.config.anonKey);
    for (const persona of personaNames) {
      if (persona !== 'anon') tokens.set(persona, await userToken(stack.config, fixture.people[personaKey[persona]]));
    }
  });
  afterAll(async () => {
    await stack?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const substitute = (text: string, persona: PersonaName) =>
    text.replace(/\{(\w+)\}/g, (_, name: string) => {
      // Anonymous callers have nothing of their own: they aim at another user's.
      const own = fixture.boards[persona === 'anon' ? 'other' : persona];
      const mine: Record<string, string> = {
        persona,
        me: persona === 'anon' ? fixture.ids.other! : fixture.people[personaKey[persona]].id,
        myBoard: own.board,
        myScratch: own.scratch,
        myRpcScratch: own.rpcScratch,
      };
      const value = mine[name] ?? fixture.ids[name];
      if (value === undefined) throw new Error(`The matrix names an unknown fixture id {${name}}`);
      return value;
    });

  const ownerOfBoard = async (id: string): Promise<PersonaName | undefined> => {
    if (!boardOwners.has(id)) {
      const { rows } = await ctx.db.query<{ user_id: string }>('select user_id from public.user_collections where id = $1', [id]);
      const persona = rows[0] && fixture.userPersona.get(rows[0].user_id);
      if (persona) boardOwners.set(id, persona);
    }
    return boardOwners.get(id);
  };

  /** 'own-only' when every row is the caller's, 'rows' when any is not (or rows have no owner), 'none' when there are none. */
  const judgeRows = async (relation: string, rows: Record<string, unknown>[], persona: PersonaName): Promise<Outcome> => {
    if (rows.length === 0) return N;
    const owner = owners[relation];
    if (!owner) return R;
    for (const row of rows) {
      const value = String(row[owner.column]);
      const rowOwner = owner.via === 'user' ? fixture.userPersona.get(value) : await ownerOfBoard(value);
      if (rowOwner !== persona) return R;
    }
    return O;
  };

  const judgeAds = (
    ads: { is_clear: boolean; display_480_url?: string | null; display_960_url?: string | null; display_480_path?: string | null; display_960_path?: string | null }[],
  ): Outcome => {
    // A locked ad with a link to (or the path of) a display variant gives the creative away.
    if (ads.some((ad) => !ad.is_clear && (ad.display_480_url != null || ad.display_960_url != null || ad.display_480_path != null || ad.display_960_path != null))) return 'leak';
    if (ads.length === 0) return N;
    if (ads.every((ad) => ad.is_clear)) return CL;
    return ads.some((ad) => ad.is_clear) ? TS : LK;
  };

  const fingerprint = async (watch: string[]) => {
    const parts: string[] = [];
    for (const sql of watch) {
      const { rows } = await ctx.db.query<{ print: string }>(
        `select count(*) || ':' || md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as print from (${sql}) t`,
      );
      parts.push(rows[0]!.print);
    }
    return parts.join(' ');
  };

  const watchOf = (probe: Probe, relation: string): string[] => {
    if (probe.watch) return probe.watch;
    if (probe.api === 'rest') return [`select * from public.${baseTable[relation] ?? relation}`];
    if (probe.api === 'storage') return ['select bucket_id, name, version from storage.objects'];
    return ['select * from public.billing_customers', 'select * from public.subscriptions', 'select * from public.processed_webhook_events'];
  };

  async function sendAs(probe: Probe, persona: PersonaName): Promise<Cell> {
    const request = substitute(probe.request, persona);
    const [method, target] = request.split(' ', 2) as [string, string];
    const rawBody = request.slice(method.length + target.length + 2);
    const base = { rest: 'rest/v1', rpc: 'rest/v1', storage: 'storage/v1', functions: 'functions/v1', realtime: 'realtime/v1' }[probe.api];
    const headers: Record<string, string> = { apikey: stack.config.anonKey, authorization: `Bearer ${tokens.get(persona)!}` };
    let body: BodyInit | undefined;
    const picture = /^<(\w+)>$/.exec(rawBody);
    if (picture) {
      body = new Uint8Array(await image(picture[1]!));
      headers['content-type'] = Object.values(buckets).find((bucket) => bucket.ext === picture[1])!.type;
    } else if (rawBody !== '') {
      body = rawBody;
      headers['content-type'] = 'application/json';
    }
    if (probe.api === 'rest' && method !== 'GET') headers.prefer = 'return=representation';
    const response = await fetch(`${stack.url}/${base}/${target}`, { method, headers, body });
    const text = await response.text();
    const detail = `${method} ${target} → ${response.status} ${text.slice(0, 200)}`;
    const relation = probe.api === 'rpc' ? probe.resource.split(' ')[0]! : target.split(/[?/]/)[0]!;
    return { got: await judge(probe, persona, relation, method, response.status, text), detail };
  }

  async function judge(probe: Probe, persona: PersonaName, relation: string, method: string, status: number, text: string): Promise<Outcome> {
    if (status < 200 || status >= 300) {
      if (probe.api === 'functions') return String(status);
      if (status === 401 || status === 403) return D;
      if (status === 404) return NF;
      if (probe.api === 'rest' && /"code":"55000"/.test(text)) return RO;
      return String(status);
    }
    if (probe.api === 'functions') return OK;
    if (probe.api === 'storage' && method === 'GET' && probe.action !== 'list buckets') return OK;
    const body = text === '' ? null : (JSON.parse(text) as unknown);
    if (probe.api === 'rest') {
      if (method === 'POST') return C;
      return judgeRows(relation, body as Record<string, unknown>[], persona);
    }
    if (probe.api === 'storage') {
      if (['list', 'delete', 'list buckets'].includes(probe.action)) return (body as unknown[]).length === 0 ? N : R;
      return /upload|overwrite|copy/.test(probe.action) ? C : OK;
    }
    switch (probe.reader) {
      case 'boolean':
        return String(body);
      case 'listing':
        return judgeAds((body as { ads: Parameters<typeof judgeAds>[0] }).ads);
      case 'ads':
        return judgeAds(body as Parameters<typeof judgeAds>[0]);
      case 'ad':
        return body === null ? N : judgeAds([body as Parameters<typeof judgeAds>[0][number]]);
      case 'board listing': {
        const ads = (body as { ads: Parameters<typeof judgeAds>[0] }).ads;
        // The listing names no board: its ads are the board's own when the board is.
        if (judgeAds(ads) === 'leak') return 'leak';
        const board = JSON.parse(substitute(probe.request.slice(probe.request.indexOf('{')), persona)) as { p_collection_id: string };
        return ads.length === 0 ? N : (await ownerOfBoard(board.p_collection_id)) === persona ? O : R;
      }
      default:
        return OK;
    }
  }

  /** Subscribes every persona to every change in public, makes changes as the database owner, and keeps what each received. */
  async function watchChanges(): Promise<Map<PersonaName, Change[]>> {
    const received = new Map<PersonaName, Change[]>(personaNames.map((persona) => [persona, []]));
    const clients = await Promise.all(
      personaNames.map(async (persona) => {
        const client = createClient(stack.url, stack.config.anonKey, {
          auth: { persistSession: false, autoRefreshToken: false },
          // Node 20 has no global WebSocket.
          realtime: { transport: WebSocket as never },
        });
        if (persona !== 'anon') await client.realtime.setAuth(tokens.get(persona)!);
        await new Promise<void>((resolve, reject) => {
          client
            .channel(`matrix-${persona}`)
            .on('postgres_changes', { event: '*', schema: 'public' }, (change) => received.get(persona)!.push(change as unknown as Change))
            .subscribe((status, error) => {
              if (status === 'SUBSCRIBED') resolve();
              if (status === 'CHANNEL_ERROR' || status === 'TIMED_OUT') reject(error ?? new Error(status));
            });
        });
        return client;
      }),
    );
    const { people } = fixture;
    for (const persona of personaNames) {
      if (persona === 'anon') continue;
      boardOwners.set(await newBoard(ctx.db, people[personaKey[persona]], `Live board of ${persona}`), persona);
    }
    await ctx.db.query(`update public.user_collections set name = 'Live rename' where id = $1`, [fixture.ids.otherBoard]);
    const doomed = await newBoard(ctx.db, people.other, 'Live victim');
    boardOwners.set(doomed, 'other');
    await ctx.db.query('delete from public.user_collections where id = $1', [doomed]);
    await ctx.db.query(`update public.subscriptions set cancel_at_period_end = true where user_id = $1`, [people.other.id]);
    await ctx.db.query(`update public.profiles set full_name = 'Live name' where user_id = $1`, [people.other.id]);
    // Until every signed-in persona has its own new board, and the owner of the changed boards the rename and the delete
    // too (a row deleted before the insert's event is read again is no longer there to deliver).
    const started = Date.now();
    const delivered = () => personaNames.every((persona) => persona === 'anon' || received.get(persona)!.length >= (persona === 'other' ? 3 : 1));
    while (!delivered() && Date.now() - started < 10_000) await new Promise((resolve) => setTimeout(resolve, 20));
    // Then as long again (within reason) for anything that should never come.
    await new Promise((resolve) => setTimeout(resolve, Math.min(Math.max(Date.now() - started, 200), 1_000)));
    await Promise.all(clients.map((client) => client.removeAllChannels()));
    for (const client of clients) client.realtime.disconnect();
    return received;
  }

  async function judgeChanges(probe: Probe, persona: PersonaName, changes: Change[]): Promise<Cell> {
    const owned: Change[] = [];
    const foreign: Change[] = [];
    const unpublished: Change[] = [];
    for (const change of changes) {
      if (change.table !== 'user_collections') {
        unpublished.push(change);
        continue;
      }
      const id = String(change.new?.id ?? change.old?.id);
      ((await ownerOfBoard(id)) === persona ? owned : foreign).push(change);
    }
    const detail = changes.map((change) => `${change.eventType} ${change.table} ${String(change.new?.id ?? change.old?.id)}`).join(', ') || 'nothing';
    if (probe.subset === 'own boards') return { got: owned.length > 0 ? O : N, detail };
    return { got: (probe.subset === 'unpublished tables' ? unpublished : foreign).length > 0 ? R : N, detail };
  }

  it('covers every table and view, every function, every bucket and every edge function', async () => {
    const relations = await ctx.db.query<{ relname: string }>(
      `select relname from pg_class where relnamespace = 'public'::regnamespace and relkind in ('r', 'p', 'v', 'm', 'f') order by 1`,
    );
    const restProbes = matrix.filter((entry) => entry.api === 'rest');
    const missingRelations = relations.rows.flatMap(({ relname }) =>
      ['select', 'insert', 'update', 'delete']
        .filter((action) => !restProbes.some((entry) => entry.resource.split(/[ .]/)[0] === relname && entry.action === action))
        .map((action) => `${relname} ${action}`),
    );
    expect(missingRelations).toEqual([]);

    const functions = await ctx.db.query<{ proname: string }>(
      `select distinct p.proname from pg_proc p join pg_type t on t.oid = p.prorettype
        where p.pronamespace = 'public'::regnamespace and p.prokind = 'f' and t.typname not in ('trigger', 'event_trigger') order by 1`,
    );
    const rpcNames = new Set(matrix.filter((entry) => entry.api === 'rpc').map((entry) => entry.resource.split(' ')[0]));
    expect(functions.rows.map((row) => row.proname).filter((name) => !rpcNames.has(name))).toEqual([]);

    const bucketRows = await ctx.db.query<{ id: string }>('select id from storage.buckets order by id');
    const missingBuckets = bucketRows.rows.flatMap(({ id }) =>
      ['read (authenticated)', 'list', 'upload', 'delete']
        .filter((action) => !matrix.some((entry) => entry.api === 'storage' && entry.resource === id && entry.action === action))
        .map((action) => `${id} ${action}`),
    );
    expect(missingBuckets).toEqual([]);

    const folders = await readdir(path.join(projectRoot, 'supabase', 'functions'), { withFileTypes: true });
    const edgeFunctions = folders.filter((entry) => entry.isDirectory() && !entry.name.startsWith('_')).map((entry) => entry.name);
    expect(edgeFunctions.filter((name) => !matrix.some((entry) => entry.api === 'functions' && entry.resource === name))).toEqual([]);

    const published = await ctx.db.query<{ tablename: string }>(`select tablename from pg_publication_tables where pubname = 'supabase_realtime'`);
    expect(published.rows.map((row) => row.tablename).filter((table) => !matrix.some((entry) => entry.api === 'realtime' && entry.resource === table))).toEqual([]);
  });

  it('gives every persona exactly the access in the matrix, through every API', { timeout: 240_000 }, async () => {
    const started = Date.now();
    const results: { probe: Probe; cells: Cell[] }[] = [];
    let liveChanges: Map<PersonaName, Change[]> | undefined;
    for (const probe of matrix) {
      const cells = new Array<Cell>(personaNames.length);
      if (probe.api === 'realtime') {
        liveChanges ??= await watchChanges();
        for (const [i, persona] of personaNames.entries()) cells[i] = await judgeChanges(probe, persona, liveChanges.get(persona)!);
        results.push({ probe, cells });
        continue;
      }
      const relation = probe.api === 'rpc' ? probe.resource.split(' ')[0]! : probe.request.split(' ')[1]!.split(/[?/]/)[0]!;
      const watch = isWrite(probe) ? watchOf(probe, relation) : null;
      if (watch) {
        // Refusals first: every attack meets the target as the fixture left it.
        const order = [...personaNames.keys()].sort((a, b) => Number(isRefusal(probe.expected[b]!)) - Number(isRefusal(probe.expected[a]!)));
        let state = await fingerprint(watch);
        for (const i of order) {
          const cell = await sendAs(probe, personaNames[i]!);
          const after = await fingerprint(watch);
          if (isRefusal(cell.got) && after !== state) cell.got = `${cell.got}+changed`;
          state = after;
          cells[i] = cell;
        }
      } else {
        // A read changes nothing another persona's answer depends on: all nine at once.
        (await Promise.all(personaNames.map((persona) => sendAs(probe, persona)))).forEach((cell, i) => (cells[i] = cell));
      }
      // Deletions queue their files; removed now, so no later probe sees the storage worker at work.
      await stack.storage.drainDeletions();
      results.push({ probe, cells });
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(`[${ctx.engine}] ${results.length} resources × actions, ${results.length * personaNames.length} cells in ${seconds} s\n${renderMatrix(results)}`);
    const mismatches = results.flatMap(({ probe, cells }) =>
      personaNames.flatMap((persona, i) =>
        cells[i]!.got === probe.expected[i]
          ? []
          : [`${persona} × ${probe.api} ${probe.resource} × ${probe.action}: expected ${probe.expected[i]}, got ${cells[i]!.got} (${cells[i]!.detail})`],
      ),
    );
    expect(mismatches).toEqual([]);
  });
});
