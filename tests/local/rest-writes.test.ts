import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createRestApi, type RestApi } from '../../local/rest/rest-api.ts';
import { describeOnEngines } from '../support/engines.ts';
import {
  grantAdmin, newAd, newBoard, newBrand, newCategory, newObject, newTag, newUser, type TestAd, type TestUser,
} from '../support/factories.ts';
import { clientFor, newLocalConfig, TEST_ORIGIN, userToken } from '../support/local-config.ts';

describeOnEngines('rest/v1 writes through supabase-js', (ctx) => {
  let config: Awaited<ReturnType<typeof newLocalConfig>>;
  let api: RestApi;
  let user: TestUser;
  let admin: TestUser;
  let asUser: SupabaseClient;
  let asAdmin: SupabaseClient;
  let ad: TestAd & { brand_id: string; category_id: string };

  const boardsOf = async (owner: TestUser) =>
    (await ctx.db.query<{ name: string }>('select name from public.user_collections where user_id = $1 order by name', [owner.id])).rows
      .map((row) => row.name);
  const raw = async (method: string, path: string, body: unknown, headers: Record<string, string>) =>
    api(new Request(`${TEST_ORIGIN}/rest/v1/${path}`, {
      method,
      headers: { apikey: config.anonKey, authorization: `Bearer ${await userToken(config, admin)}`, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    }));

  beforeAll(async () => {
    config = await newLocalConfig();
    api = createRestApi({ db: ctx.db, config });
    user = await newUser(ctx.db);
    admin = await newUser(ctx.db);
    await grantAdmin(ctx.db, admin);
    asUser = clientFor(config, api, await userToken(config, user));
    asAdmin = clientFor(config, api, await userToken(config, admin));
    const brand = await newBrand(ctx.db, 'Northwind');
    const category = await newCategory(ctx.db, 'Bags');
    ad = { ...(await newAd(ctx.db, { brandId: brand.id, categoryId: category.id })), brand_id: brand.id, category_id: category.id };
  });
  afterAll(async () => {
    await config.cleanup();
  });

  it('inserts one row and answers 201 with no body unless the representation is asked for', async () => {
    const { data, error, status } = await asUser.from('user_collections').insert({ name: 'Mood' });
    expect([data, error, status]).toEqual([null, null, 201]);
    expect(await boardsOf(user)).toContain('Mood');
  });

  it('returns the inserted row with select() and as one object with single()', async () => {
    const { data, error, status } = await asUser.from('user_collections').insert({ name: '  Ideas   for  later ' }).select('id, name, user_id').single();
    expect(error).toBeNull();
    expect(status).toBe(201);
    const { rows } = await ctx.db.query('select id, name, user_id from public.user_collections where id = $1', [data!.id]);
    expect(data).toEqual(rows[0]);
    expect(data).toMatchObject({ name: 'Ideas for later', user_id: user.id });
  });

  it('inserts an array: a missing key is null, or the column default with defaultToNull: false', async () => {
    const id = '6c7f3f0e-2a59-4d7b-9a55-1f3c2d0e9b11';
    const withNulls = await asUser.from('user_collections').insert([{ id, name: 'First' }, { name: 'Second' }]).select();
    expect(withNulls.status).toBe(400);
    expect(withNulls.error).toMatchObject({ code: '23502' });
    expect(await boardsOf(user)).not.toContain('First');

    const withDefaults = await asUser.from('user_collections')
      .insert([{ id, name: 'First' }, { name: 'Second' }], { defaultToNull: false })
      .select('id, name');
    expect(withDefaults.error).toBeNull();
    expect(withDefaults.data).toHaveLength(2);
    expect(withDefaults.data![0]).toEqual({ id, name: 'First' });
    expect(withDefaults.data![1]!.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('upserts with merge-duplicates on the primary key or on_conflict', async () => {
    await newObject(ctx.db, 'banners', 'library-1.webp');
    await newObject(ctx.db, 'banners', 'library-2.webp');
    const first = await asAdmin.from('page_banners').upsert({ page: 'library', image_path: 'library-1.webp' }).select('page, image_path');
    expect(first.data).toEqual([{ page: 'library', image_path: 'library-1.webp' }]);
    const second = await asAdmin.from('page_banners')
      .upsert({ page: 'library', image_path: 'library-2.webp' }, { onConflict: 'page' })
      .select('page, image_path');
    expect(second.error).toBeNull();
    expect(second.data).toEqual([{ page: 'library', image_path: 'library-2.webp' }]);
    const { rows } = await ctx.db.query(`select image_path from public.page_banners where page = 'library'`);
    expect(rows).toEqual([{ image_path: 'library-2.webp' }]);
  });

  it('leaves existing rows alone with ignore-duplicates and returns only the new ones', async () => {
    const summer = await newTag(ctx.db, 'Summer');
    const sale = await newTag(ctx.db, 'Sale');
    await ctx.db.query('insert into public.ad_tags (ad_id, tag_id) values ($1, $2)', [ad.id, summer.id]);
    const { data, error, status } = await asAdmin.from('ad_tags')
      .upsert([{ ad_id: ad.id, tag_id: summer.id }, { ad_id: ad.id, tag_id: sale.id }], { ignoreDuplicates: true })
      .select('ad_id, tag_id');
    expect(error).toBeNull();
    expect(status).toBe(201);
    expect(data).toEqual([{ ad_id: ad.id, tag_id: sale.id }]);
    const { rows } = await ctx.db.query<{ n: number }>('select count(*)::int as n from public.ad_tags where ad_id = $1', [ad.id]);
    expect(rows[0]!.n).toBe(2);
  });

  it('answers return=headers-only with the Location of the new row', async () => {
    const response = await raw('POST', 'brands', { name: 'Contoso' }, { prefer: 'return=headers-only' });
    expect(response.status).toBe(201);
    expect(await response.text()).toBe('');
    const { rows } = await ctx.db.query<{ id: string }>(`select id from public.brands where name = 'Contoso'`);
    expect(response.headers.get('location')).toBe(`/brands?id=eq.${rows[0]!.id}`);
  });

  it('updates only the filtered rows and reports how many', async () => {
    const keep = await newBoard(ctx.db, user, 'Keep');
    const rename = await newBoard(ctx.db, user, 'Rename me');
    const minimal = await asUser.from('user_collections').update({ name: 'Renamed' }, { count: 'exact' }).eq('id', rename);
    expect([minimal.status, minimal.count, minimal.data]).toEqual([204, 1, null]);
    const names = (await ctx.db.query('select id, name from public.user_collections where id in ($1, $2) order by name', [keep, rename])).rows;
    expect(names).toEqual([{ id: keep, name: 'Keep' }, { id: rename, name: 'Renamed' }]);
    const represented = await asUser.from('user_collections').update({ name: 'Renamed again' }).eq('id', rename).select('id, name');
    expect([represented.status, represented.data]).toEqual([200, [{ id: rename, name: 'Renamed again' }]]);
  });

  it('returns the rows as they are after an update, even when the filter matched the old value', async () => {
    await newBoard(ctx.db, user, 'Before');
    const { data } = await asUser.from('user_collections').update({ name: 'After' }).eq('name', 'Before').select('name');
    expect(data).toEqual([{ name: 'After' }]);
  });

  it('deletes the filtered rows and returns them when asked', async () => {
    const board = await newBoard(ctx.db, user, 'Temporary');
    const other = await newBoard(ctx.db, user, 'Stays');
    const { data, status, count } = await asUser.from('user_collections').delete({ count: 'exact' }).eq('id', board).select('id, name');
    expect([status, count, data]).toEqual([200, 1, [{ id: board, name: 'Temporary' }]]);
    const { rows } = await ctx.db.query('select id from public.user_collections where id in ($1, $2)', [board, other]);
    expect(rows).toEqual([{ id: other }]);
    const minimal = await asUser.from('user_collections').delete().eq('id', other);
    expect([minimal.status, minimal.data]).toEqual([204, null]);
  });

  it('rolls the write back when single() does not get exactly one row', async () => {
    const one = await newBoard(ctx.db, user, 'Twin A');
    const two = await newBoard(ctx.db, user, 'Twin B');
    const { error, status } = await asUser.from('user_collections').update({ name: 'Same' }).in('id', [one, two]).select().single();
    expect(status).toBe(406);
    expect(error).toMatchObject({ code: 'PGRST116', details: 'The result contains 2 rows' });
    const { rows } = await ctx.db.query('select name from public.user_collections where id in ($1, $2) order by name', [one, two]);
    expect(rows).toEqual([{ name: 'Twin A' }, { name: 'Twin B' }]);
  });

  it('refuses and rolls back an update touching more rows than max-affected allows', async () => {
    await newBoard(ctx.db, user, 'Many 1');
    await newBoard(ctx.db, user, 'Many 2');
    const response = await api(new Request(`${TEST_ORIGIN}/rest/v1/user_collections?name=like.Many*`, {
      method: 'PATCH',
      headers: {
        apikey: config.anonKey, authorization: `Bearer ${await userToken(config, user)}`, 'content-type': 'application/json',
        prefer: 'handling=strict, max-affected=1',
      },
      body: JSON.stringify({ name: 'Many' }),
    }));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'PGRST124' });
    expect((await boardsOf(user)).filter((name) => name.startsWith('Many'))).toEqual(['Many 1', 'Many 2']);
  });

  it('answers but keeps nothing with Prefer: tx=rollback', async () => {
    const response = await raw('POST', 'brands?select=name', { name: 'Ghost' }, { prefer: 'return=representation, tx=rollback' });
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual([{ name: 'Ghost' }]);
    expect((await ctx.db.query(`select 1 from public.brands where name = 'Ghost'`)).rows).toEqual([]);
  });

  it('saves an ad to a board, embeds the board in the representation and reads it back through the board view', async () => {
    const board = await newBoard(ctx.db, user, 'Saved');
    const saved = await asUser.from('user_collection_items')
      .insert({ collection_id: board, ad_id: ad.id })
      .select('ad_id, board:user_collections(name)')
      .single();
    expect(saved.error).toBeNull();
    expect(saved.data).toEqual({ ad_id: ad.id, board: { name: 'Saved' } });
    const { data } = await asUser.from('v_user_collection_ads').select('ad_id, brand_name, brands(name)').eq('collection_id', board);
    expect(data).toEqual([{ ad_id: ad.id, brand_name: 'Northwind', brands: { name: 'Northwind' } }]);
  });

  it('inserts nothing for an empty array and updates nothing for an empty object', async () => {
    const inserted = await asUser.from('user_collections').insert([]).select();
    expect([inserted.status, inserted.data]).toEqual([201, []]);
    const board = await newBoard(ctx.db, user, 'Untouched');
    const updated = await asUser.from('user_collections').update({}).eq('id', board).select();
    expect([updated.status, updated.data]).toEqual([200, []]);
  });

  it('refuses payload keys that are not columns, and arrays whose objects have different keys', async () => {
    const unknown = await asUser.from('user_collections').insert({ name: 'X', colour: 'red' } as never);
    expect(unknown.status).toBe(400);
    expect(unknown.error).toMatchObject({ code: 'PGRST204', message: `Could not find the 'colour' column of 'user_collections' in the schema cache` });
    const response = await raw('POST', 'brands', [{ name: 'One' }, { name: 'Two', logo_path: null }], {});
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'PGRST102', message: 'All object keys must match' });
    const invalid = await api(new Request(`${TEST_ORIGIN}/rest/v1/brands`, {
      method: 'POST', headers: { apikey: config.anonKey, 'content-type': 'application/json' }, body: '{"name":',
    }));
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({ code: 'PGRST102', message: 'Empty or invalid json' });
  });

  it('writes only the columns named by the columns parameter', async () => {
    const response = await raw('POST', 'brands?columns=name&select=name,logo_path', { name: 'Fabrikam', logo_path: 'ignored.png' }, { prefer: 'return=representation' });
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual([{ name: 'Fabrikam', logo_path: null }]);
  });

  it('returns only the columns a write selects, so columns the caller may not read stay out of it', async () => {
    const adRow = async (folder: string) => {
      await newObject(ctx.db, 'ad-originals', `${folder}/original.jpg`, 'image/jpeg');
      for (const name of ['480.webp', '960.webp', 'preview.webp']) await newObject(ctx.db, 'ad-images', `${folder}/${name}`);
      return {
        brand_id: ad.brand_id, category_id: ad.category_id, created_at: '2026-03-01T12:30:00+02:00', width: 100, height: 120,
        original_path: `${folder}/original.jpg`, display_480_path: `${folder}/480.webp`, display_960_path: `${folder}/960.webp`,
        preview_path: `${folder}/preview.webp`, thumbhash: 'YJqGPQw7sFlslqhFafSE+Q6oJ1h2iHB2Rw==',
      };
    };
    const { data, error } = await asAdmin.from('ads').insert(await adRow('aaaa1111')).select('created_at, width');
    expect(error).toBeNull();
    expect(data).toEqual([{ created_at: '2026-03-01T10:30:00+00:00', width: 100 }]);
    const everything = await asAdmin.from('ads').insert(await adRow('bbbb2222')).select('*');
    expect(everything.status).toBe(403);
    expect(everything.error).toMatchObject({ code: '42501' });
    const { rows } = await ctx.db.query(`select 1 from public.ads where original_path = 'bbbb2222/original.jpg'`);
    expect(rows).toEqual([]);
  });
});
