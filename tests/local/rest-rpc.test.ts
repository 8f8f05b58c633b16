import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createRestApi, type RestApi } from '../../local/rest/rest-api.ts';
import { anon, queryAs, userActor } from '../support/acting.ts';
import { describeOnEngines } from '../support/engines.ts';
import { newAd, newBoard, newBrand, newCategory, newPersonas, newTag, type Personas, type TestAd } from '../support/factories.ts';
import { clientFor, newLocalConfig, TEST_ORIGIN, userToken } from '../support/local-config.ts';

describeOnEngines('rest/v1 rpc through supabase-js', (ctx) => {
  let config: Awaited<ReturnType<typeof newLocalConfig>>;
  let api: RestApi;
  let people: Personas;
  let asAnon: SupabaseClient;
  let asFree: SupabaseClient;
  let asAdmin: SupabaseClient;
  let brandId: string;
  const ads: TestAd[] = [];

  beforeAll(async () => {
    config = await newLocalConfig();
    api = createRestApi({ db: ctx.db, config });
    people = await newPersonas(ctx.db);
    asAnon = clientFor(config, api);
    asFree = clientFor(config, api, await userToken(config, people.free));
    asAdmin = clientFor(config, api, await userToken(config, people.admin));
    const brand = await newBrand(ctx.db, 'Wide World');
    const other = await newBrand(ctx.db, 'Tailspin');
    brandId = brand.id;
    const category = await newCategory(ctx.db, 'Toys');
    const tag = await newTag(ctx.db, 'Bestseller');
    for (const [i, width] of [900, 1200, 300].entries()) {
      ads.push(await newAd(ctx.db, { brandId: brand.id, categoryId: category.id, width, createdAt: `2026-02-0${i + 1}T08:00:00Z`, tagIds: [tag.id] }));
    }
    ads.push(await newAd(ctx.db, { brandId: other.id, categoryId: category.id, createdAt: '2026-02-05T08:00:00Z' }));
  });
  afterAll(async () => {
    await config.cleanup();
  });

  it('returns a scalar result as its JSON value', async () => {
    const { data, error, status } = await asFree.rpc('get_or_create_favorites_id');
    expect([error, status]).toEqual([null, 200]);
    const [row] = await queryAs<{ id: string }>(ctx.db, userActor(people.free), 'select id from public.user_collections where is_system');
    expect(data).toBe(row!.id);
    expect((await asFree.rpc('get_or_create_favorites_id')).data).toBe(row!.id);
  });

  it('returns the JSON a jsonb function builds, byte for byte', async () => {
    const response = await api(new Request(`${TEST_ORIGIN}/rest/v1/rpc/list_ads`, {
      method: 'POST',
      headers: { apikey: config.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ p_query: { brand_ids: [brandId] } }),
    }));
    const [sql] = await queryAs<{ page: string }>(ctx.db, anon, 'select public.list_ads($1::jsonb)::text as page', [JSON.stringify({ brand_ids: [brandId] })]);
    expect(await response.text()).toBe(sql!.page);
    const { data } = await asAnon.rpc('list_ads', { p_query: { brand_ids: [brandId] } });
    // ads[0], the first premium ad published, is the free sample's: clear ads lead the page.
    expect(data.ads.map((ad: { id: string }) => ad.id)).toEqual([ads[0]!.id, ads[2]!.id, ads[1]!.id]);
  });

  it('answers a scalar asked as it is with the same bytes as when the read shapes it (a count asked)', async () => {
    const ask = (prefer?: string) => api(new Request(`${TEST_ORIGIN}/rest/v1/rpc/list_ads`, {
      method: 'POST',
      headers: { apikey: config.anonKey, 'content-type': 'application/json', ...(prefer ? { prefer } : {}) },
      body: JSON.stringify({ p_query: { brand_ids: [brandId] } }),
    }));
    const plain = await ask();
    const counted = await ask('count=exact');
    expect([plain.status, counted.status]).toEqual([200, 200]);
    expect(await plain.text()).toBe(await counted.text());
    const favourites = async (query: string) => {
      const response = await api(new Request(`${TEST_ORIGIN}/rest/v1/rpc/get_or_create_favorites_id${query}`, {
        method: 'POST', headers: { apikey: config.anonKey, authorization: `Bearer ${await userToken(config, people.free)}`, 'content-type': 'application/json' }, body: '{}',
      }));
      return [response.status, await response.text()];
    };
    const [status, id] = await favourites('');
    expect(status).toBe(200);
    expect(id).toMatch(/^"[0-9a-f-]{36}"$/);
    expect(await favourites(`?get_or_create_favorites_id=eq.${JSON.parse(id as string)}`)).toEqual([200, id]);
    // A filter is the read's to apply: one that the value does not pass leaves no value.
    expect(await favourites('?get_or_create_favorites_id=eq.00000000-0000-4000-8000-000000000000')).toEqual([200, 'null']);
  });

  it('calls a read-only function with GET and query-string arguments, arrays included', async () => {
    const post = await asAnon.rpc('get_ad', { p_id: ads[0]!.id });
    const get = await asAnon.rpc('get_ad', { p_id: ads[0]!.id }, { get: true });
    expect(get.error).toBeNull();
    expect(get.data).toEqual(post.data);
    expect(get.data).toMatchObject({ id: ads[0]!.id, brand_name: 'Wide World' });
    const tags = (await ctx.db.query<{ id: string }>(`select id from public.tags where name = 'Bestseller'`)).rows.map((row) => row.id);
    const filtered = await asAdmin.rpc('get_ads_admin', { p_tag_ids: tags, p_sort: 'oldest' }, { get: true }).select('id');
    expect(filtered.error).toBeNull();
    expect(filtered.data).toEqual(ads.slice(0, 3).map((ad) => ({ id: ad.id })));
  });

  it('runs GET calls read-only, so a function that writes must be called with POST', async () => {
    const { error, status } = await asFree.rpc('get_or_create_favorites_id', {}, { get: true });
    expect(status).toBe(405);
    expect(error).toMatchObject({ code: '25006' });
  });

  it('passes JSON arrays to array parameters and returns arrays', async () => {
    const first = await newBoard(ctx.db, people.free, 'Toys A');
    const second = await newBoard(ctx.db, people.free, 'Toys B');
    const added = await asFree.rpc('save_ad_boards', { p_ad_id: ads[0]!.id, p_add: [first, second] });
    expect(added.error).toBeNull();
    expect(added.data).toEqual([first, second].sort());
    const removed = await asFree.rpc('save_ad_boards', { p_ad_id: ads[0]!.id, p_remove: [first] });
    expect(removed.data).toEqual([second]);
    const rows = await queryAs(ctx.db, userActor(people.free), 'select collection_id from public.user_collection_items where ad_id = $1', [ads[0]!.id]);
    expect(rows).toEqual([{ collection_id: second }]);
  });

  it('answers raised errors with their statuses: 22023 and P0001 400, PT404 404, 42501 401 for visitors', async () => {
    const board = await newBoard(ctx.db, people.free, 'Toys C');
    const overlap = await asFree.rpc('save_ad_boards', { p_ad_id: ads[1]!.id, p_add: [board], p_remove: [board] });
    expect(overlap.status).toBe(400);
    expect(overlap.error).toEqual({
      code: '22023', details: 'board_add_remove_overlap', hint: null, message: 'A board cannot be added and removed at once',
    });
    const favorites = (await asFree.rpc('get_or_create_favorites_id')).data as string;
    const protectedBoard = await asFree.from('user_collections').delete().eq('id', favorites);
    expect(protectedBoard.status).toBe(400);
    expect(protectedBoard.error).toEqual({ code: 'P0001', details: 'favorites_protected', hint: null, message: 'Favorites cannot be deleted' });
    const missing = await asFree.rpc('save_ad_boards', { p_ad_id: '00000000-0000-4000-8000-000000000000', p_add: [board] });
    expect(missing.status).toBe(404);
    expect(missing.error).toMatchObject({ code: 'PT404', details: 'ad_not_found', message: 'Ad not found' });
    const visitor = await asAnon.rpc('save_ad_boards', { p_ad_id: ads[1]!.id, p_add: [board] });
    expect(visitor.status).toBe(401);
    expect(visitor.error).toMatchObject({ code: '42501' });
  });

  it('filters, orders, limits and counts the rows of a table-returning function', async () => {
    const { data, count, error, status } = await asAdmin
      .rpc('get_ads_admin', { p_limit: 50 }, { count: 'exact' })
      .select('id, brand_name, width')
      .eq('brand_name', 'Wide World')
      .order('width', { ascending: false })
      .limit(2);
    expect(error).toBeNull();
    expect(status).toBe(206);
    expect(count).toBe(3);
    const expected = await queryAs(ctx.db, userActor(people.admin), `
      select id, brand_name, width from public.get_ads_admin(p_limit => 50)
       where brand_name = 'Wide World' order by width desc limit 2`);
    expect(data).toEqual(expected);
    expect((data as { width: number }[]).map((row) => row.width)).toEqual([1200, 900]);
  });

  it('counts the rows of a function with HEAD', async () => {
    const { data, count, error } = await asAdmin.rpc('get_ads_admin', { p_search: 'Tailspin' }, { head: true, count: 'exact' });
    expect([data, count, error]).toEqual([null, 1, null]);
  });

  it('refuses a signed-in user who is not an admin with 403', async () => {
    const { error, status } = await asFree.rpc('get_ads_admin', {});
    expect(status).toBe(403);
    expect(error).toMatchObject({ code: '42501', message: 'This operation requires admin privileges.', details: 'admin_required' });
  });

  it('answers 204 with no body for a void function', async () => {
    const { data, error, status } = await asAdmin.rpc('admin_set_black_friday_access', { p_user_id: people.free.id, p_access: true });
    expect([data, error, status]).toEqual([null, null, 204]);
    const { rows } = await ctx.db.query('select black_friday_access from public.profiles where user_id = $1', [people.free.id]);
    expect(rows).toEqual([{ black_friday_access: true }]);
  });

  it('answers 404 PGRST202 for an unknown function or unknown argument names', async () => {
    const unknown = await asAnon.rpc('no_such_function');
    expect(unknown.status).toBe(404);
    expect(unknown.error).toMatchObject({ code: 'PGRST202', message: 'Could not find the function public.no_such_function without parameters in the schema cache' });
    const wrongArgs = await asAnon.rpc('get_ad', { id: ads[0]!.id });
    expect(wrongArgs.status).toBe(404);
    expect(wrongArgs.error).toMatchObject({ code: 'PGRST202', message: 'Could not find the function public.get_ad(id) in the schema cache' });
    expect(wrongArgs.error!.hint).toBe('Perhaps you meant to call the function public.get_ad(p_id => uuid)');
    const missingArg = await asAnon.rpc('get_ad', {});
    expect(missingArg.error).toMatchObject({ code: 'PGRST202' });
  });

  it('accepts only GET, HEAD and POST on functions', async () => {
    const response = await api(new Request(`${TEST_ORIGIN}/rest/v1/rpc/get_ad`, { method: 'DELETE', headers: { apikey: config.anonKey } }));
    expect(response.status).toBe(405);
    expect(await response.json()).toMatchObject({ code: 'PGRST101' });
  });
});
