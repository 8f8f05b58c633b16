import { rm } from 'node:fs/promises';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import sharp from 'sharp';
import WebSocket from 'ws';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startLocalStack, type LocalStack } from '../../local/stack.ts';
import { describeOnEngines } from '../support/engines.ts';
import { grantAdmin, newAd, newBrand, newCategory, newTag, newType, newUser, type TestAd, type TestUser } from '../support/factories.ts';
import { userToken } from '../support/local-config.ts';

/** Everything an admin can change, as one value: equal before and after means nothing changed. */
const STATE_SQL = `select jsonb_build_object(
  'brands', (select jsonb_agg(jsonb_build_array(id, name, logo_path) order by id) from public.brands),
  'categories', (select jsonb_agg(jsonb_build_array(id, name) order by id) from public.categories),
  'tags', (select jsonb_agg(jsonb_build_array(id, name, system_key) order by id) from public.tags),
  'types', (select jsonb_agg(jsonb_build_array(id, name) order by id) from public.types),
  'page_banners', (select jsonb_agg(jsonb_build_array(page, image_path) order by page) from public.page_banners),
  'ads', (select jsonb_agg(jsonb_build_array(id, brand_id, category_id, type_id, created_at, is_black_friday, original_path, display_480_path) order by id) from public.ads),
  'ad_tags', (select jsonb_agg(jsonb_build_array(ad_id, tag_id) order by ad_id, tag_id) from public.ad_tags),
  'admin_users', (select jsonb_agg(user_id order by user_id) from public.admin_users),
  'storage_deletions', (select jsonb_agg(jsonb_build_array(bucket_id, name) order by id) from public.storage_deletions),
  'objects', (select jsonb_agg(jsonb_build_array(bucket_id, name, version) order by bucket_id, name) from storage.objects)
) as state`;

const BUCKETS = [
  { bucket: 'ad-originals', type: 'image/jpeg', ext: 'jpg', bytes: () => sharp({ create: { width: 20, height: 25, channels: 3, background: '#2a9d8f' } }).jpeg().toBuffer() },
  { bucket: 'ad-images', type: 'image/webp', ext: 'webp', bytes: () => sharp({ create: { width: 20, height: 25, channels: 3, background: '#e76f51' } }).webp().toBuffer() },
  { bucket: 'brand-logos', type: 'image/png', ext: 'png', bytes: () => sharp({ create: { width: 16, height: 16, channels: 3, background: '#264653' } }).png().toBuffer() },
  { bucket: 'banners', type: 'image/png', ext: 'png', bytes: () => sharp({ create: { width: 40, height: 10, channels: 3, background: '#f4a261' } }).png().toBuffer() },
] as const;

type Attempt = { data: unknown; error: unknown };

describeOnEngines('admin writes through the API: a free user and an anonymous visitor change nothing', (ctx) => {
  let stack: LocalStack;
  let dataDir: string;
  let admin: TestUser;
  let free: TestUser;
  let brand: { id: string };
  let category: { id: string };
  let tag: { id: string };
  let type: { id: string };
  let ad: TestAd;
  /** One existing object per bucket, stored through the stack. */
  const existing: Record<string, string> = {};

  const client = async (user: TestUser | null): Promise<SupabaseClient> =>
    createClient(stack.url, stack.config.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      realtime: { transport: WebSocket as never },
      global: { headers: user ? { Authorization: `Bearer ${await userToken(stack.config, user)}` } : {} },
    });
  const state = async () => (await ctx.db.query<{ state: unknown }>(STATE_SQL)).rows[0]!.state;

  /** Every admin write the product makes, and a few it never makes, by table, function and bucket. */
  const attempts = (api: SupabaseClient): Record<string, () => PromiseLike<Attempt>> => {
    const table: Record<string, () => PromiseLike<Attempt>> = {};
    for (const [name, id] of [['brands', () => brand.id], ['categories', () => category.id], ['tags', () => tag.id], ['types', () => type.id]] as const) {
      table[`insert into ${name}`] = () => api.from(name).insert({ name: `Sneaky ${name}` }).select('id');
      table[`rename in ${name}`] = () => api.from(name).update({ name: 'Renamed' }).eq('id', id()).select('id');
      table[`delete from ${name}`] = () => api.from(name).delete().eq('id', id()).select('id');
    }
    return {
      ...table,
      'set a brand logo': () => api.from('brands').update({ logo_path: existing['brand-logos'] }).eq('id', brand.id).select('id'),
      'insert a page banner': () => api.from('page_banners').insert({ page: 'top-picks', image_path: existing.banners }).select('page'),
      'replace a page banner': () => api.from('page_banners').update({ image_path: existing.banners }).eq('page', 'library').select('page'),
      'delete a page banner': () => api.from('page_banners').delete().eq('page', 'library').select('page'),
      'insert an ad': () =>
        api.from('ads').insert({ brand_id: brand.id, category_id: category.id, original_path: existing['ad-originals'], display_480_path: existing['ad-images'], display_960_path: existing['ad-images'], preview_path: existing['ad-images'], width: 10, height: 10, thumbhash: 'x' }),
      'update an ad': () => api.from('ads').update({ type_id: type.id }).eq('id', ad.id).select('id'),
      'delete an ad': () => api.from('ads').delete().eq('id', ad.id).select('id'),
      'tag an ad': () => api.from('ad_tags').insert({ ad_id: ad.id, tag_id: tag.id }),
      'untag an ad': () => api.from('ad_tags').delete().eq('ad_id', ad.id).select('ad_id'),
      'queue a storage deletion': () => api.from('storage_deletions').insert({ bucket_id: 'ad-images', name: ad.display_480_path }),
      'make oneself admin': () => api.from('admin_users').insert({ user_id: free.id }),
      'rpc admin_update_ads': () => api.rpc('admin_update_ads', { p_ids: [ad.id], p_type_mode: 'set', p_type_id: type.id, p_add_tag_ids: [tag.id] }),
      'rpc admin_delete_ads': () => api.rpc('admin_delete_ads', { p_ids: [ad.id] }),
      'rpc tag_ads_of_day': () => api.rpc('tag_ads_of_day', { p_day: ad.created_at.slice(0, 10) }),
      'rpc get_ads_admin': () => api.rpc('get_ads_admin', {}),
      'function tag-yesterdays-ads': () => api.functions.invoke('tag-yesterdays-ads', { body: { day: ad.created_at.slice(0, 10) } }),
    };
  };

  const storageAttempts = async (api: SupabaseClient): Promise<Record<string, () => PromiseLike<Attempt>>> => {
    const all: Record<string, () => PromiseLike<Attempt>> = {};
    for (const { bucket, type: contentType, ext, bytes } of BUCKETS) {
      const body = await bytes();
      const files = api.storage.from(bucket);
      all[`upload to ${bucket}`] = () => files.upload(`sneaky/${bucket}.${ext}`, body, { contentType });
      all[`overwrite in ${bucket}`] = () => files.upload(existing[bucket]!, body, { contentType, upsert: true });
      all[`update in ${bucket}`] = () => files.update(existing[bucket]!, body, { contentType });
      all[`remove from ${bucket}`] = () => files.remove([existing[bucket]!]);
      all[`move in ${bucket}`] = () => files.move(existing[bucket]!, `moved/${bucket}.${ext}`);
      all[`copy in ${bucket}`] = () => files.copy(existing[bucket]!, `copied/${bucket}.${ext}`);
    }
    return all;
  };

  /** Refused: an error, or an answer that touched no row. */
  const refused = ({ data, error }: Attempt) => error !== null || data === null || (Array.isArray(data) && data.length === 0);

  beforeAll(async () => {
    dataDir = `.tmp/admin-writes-${process.pid}-${ctx.engine}`;
    stack = await startLocalStack({ db: ctx.db, port: 0, env: { DATA_DIR: dataDir } });
    admin = await newUser(ctx.db);
    await grantAdmin(ctx.db, admin);
    free = await newUser(ctx.db);
    brand = await newBrand(ctx.db);
    category = await newCategory(ctx.db);
    tag = await newTag(ctx.db);
    type = await newType(ctx.db);
    ad = await newAd(ctx.db, { brandId: brand.id, categoryId: category.id, createdAt: '2026-06-15T12:00:00Z' });
    for (const { bucket, type: contentType, ext, bytes } of BUCKETS) {
      existing[bucket] = `kept/${bucket}-${ctx.engine}.${ext}`;
      await stack.storage.writeObject(bucket, existing[bucket], await bytes(), contentType);
    }
    await ctx.db.query(`insert into public.page_banners (page, image_path) values ('library', $1)`, [existing.banners]);
  });
  afterAll(async () => {
    await stack?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  for (const who of ['free', 'anonymous'] as const) {
    it(`refuses every admin write of ${who === 'free' ? 'a signed-in free user' : 'an anonymous visitor'}, to each table, function and bucket`, async () => {
      const api = await client(who === 'free' ? free : null);
      const before = await state();
      const all = { ...attempts(api), ...(await storageAttempts(api)) };
      expect(Object.keys(all).length).toBeGreaterThanOrEqual(45);
      const accepted: string[] = [];
      for (const [name, attempt] of Object.entries(all)) {
        if (!refused(await attempt())) accepted.push(name);
      }
      expect(accepted).toEqual([]);
      expect(await state()).toEqual(before);
    });
  }

  it('lets an admin make the same kinds of write (so the refusals above are the policies at work)', async () => {
    const api = await client(admin);
    const before = await state();
    const all = attempts(api);
    for (const name of ['rename in brands', 'rename in tags', 'set a brand logo', 'replace a page banner', 'rpc admin_update_ads', 'rpc get_ads_admin', 'rpc tag_ads_of_day']) {
      const result = await all[name]!();
      expect({ name, refused: refused(result), error: result.error }).toEqual({ name, refused: false, error: null });
    }
    const storage = await storageAttempts(api);
    for (const { bucket } of BUCKETS) {
      const result = await storage[`upload to ${bucket}`]!();
      expect({ bucket, error: result.error }).toEqual({ bucket, error: null });
    }
    expect(await state()).not.toEqual(before);
  });
});
