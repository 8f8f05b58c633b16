import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createRestApi, type RestApi } from '../../local/rest/rest-api.ts';
import { anon, queryAs } from '../support/acting.ts';
import { describeOnEngines } from '../support/engines.ts';
import { newAd, newBrand, newCategory, newTag, newType, type TestAd } from '../support/factories.ts';
import { clientFor, newLocalConfig, TEST_ORIGIN } from '../support/local-config.ts';

describeOnEngines('rest/v1 reads through supabase-js', (ctx) => {
  let config: Awaited<ReturnType<typeof newLocalConfig>>;
  let api: RestApi;
  let client: SupabaseClient;
  const ads: Record<string, TestAd> = {};

  /** The same rows as SQL sees them, as JSON. */
  const sqlRows = async (sql: string, params: unknown[] = []) =>
    (await queryAs<{ rows: unknown[] }>(ctx.db, anon, `select coalesce(json_agg(q), '[]'::json) as rows from (${sql}) q`, params))[0]!.rows;
  const raw = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    api(new Request(`${TEST_ORIGIN}/rest/v1/${path}`, { method, headers: { apikey: config.anonKey, ...headers } }));

  beforeAll(async () => {
    config = await newLocalConfig();
    api = createRestApi({ db: ctx.db, config });
    client = clientFor(config, api);
    const acme = await newBrand(ctx.db, 'Acme');
    const beta = await newBrand(ctx.db, 'Beta');
    await newBrand(ctx.db, 'Gamma, Inc');
    const shoes = await newCategory(ctx.db, 'Shoes');
    const hats = await newCategory(ctx.db, 'Hats');
    const video = await newType(ctx.db, 'Video');
    const summer = await newTag(ctx.db, 'Summer');
    const sale = await newTag(ctx.db, 'Sale');
    const ad = (day: number, brandId: string, categoryId: string, extra: Partial<Parameters<typeof newAd>[1]> = {}) =>
      newAd(ctx.db, { brandId, categoryId, createdAt: `2026-01-0${day}T10:00:00Z`, ...extra });
    ads.a1 = await ad(1, acme.id, shoes.id, { requiresSubscription: false, tagIds: [summer.id], typeId: video.id });
    ads.a2 = await ad(2, acme.id, hats.id, { width: 1200, tagIds: [summer.id, sale.id] });
    ads.a3 = await ad(3, beta.id, shoes.id, { width: 800 });
    ads.a4 = await ad(4, beta.id, hats.id, { requiresSubscription: false, tagIds: [sale.id], typeId: video.id });
    ads.a5 = await ad(5, acme.id, shoes.id, { width: 640 });
  });
  afterAll(async () => {
    await config.cleanup();
  });

  it('returns the selected columns, renamed and cast, in the order asked', async () => {
    const { data, error, status } = await client.from('ads_with_flags').select('id, brand:brand_name, width::text').order('created_at');
    expect(error).toBeNull();
    expect(status).toBe(200);
    expect(data).toEqual(await sqlRows('select id, brand_name as brand, width::text as width from public.ads_with_flags order by created_at'));
    expect(data![0]).toEqual({ id: ads.a1!.id, brand: 'Acme', width: '1080' });
  });

  it('returns every column with select=* exactly as SQL has them', async () => {
    const { data } = await client.from('categories').select('*').order('name');
    expect(data).toEqual(await sqlRows('select * from public.categories order by name'));
  });

  it('embeds a many-to-one resource as an object and a one-to-many resource as an array', async () => {
    const manyToOne = await client.from('ads_with_flags').select('id, brand:brands(name), categories(name)').order('created_at');
    expect(manyToOne.data).toEqual(await sqlRows(`
      select a.id, json_build_object('name', b.name) as brand, json_build_object('name', c.name) as categories
        from public.ads_with_flags a join public.brands b on b.id = a.brand_id join public.categories c on c.id = a.category_id
       order by a.created_at`));
    const oneToMany = await client.from('brands').select('name, ads_with_flags(id)').order('name');
    expect(oneToMany.data).toEqual([
      { name: 'Acme', ads_with_flags: expect.arrayContaining([{ id: ads.a1!.id }, { id: ads.a2!.id }, { id: ads.a5!.id }]) },
      { name: 'Beta', ads_with_flags: expect.arrayContaining([{ id: ads.a3!.id }, { id: ads.a4!.id }]) },
      { name: 'Gamma, Inc', ads_with_flags: [] },
    ]);
    expect(oneToMany.data![0]!.ads_with_flags).toHaveLength(3);
  });

  it('embeds tags of an ad through the ad_tags junction and tags of ad_tags rows directly', async () => {
    const throughJunction = await client.from('ads_with_flags').select('id, tags(name)').order('created_at').order('name', { referencedTable: 'tags' });
    expect(throughJunction.data!.map((row) => [row.id, row.tags.map((tag: { name: string }) => tag.name)])).toEqual([
      [ads.a1!.id, ['Summer']], [ads.a2!.id, ['Sale', 'Summer']], [ads.a3!.id, []], [ads.a4!.id, ['Sale']], [ads.a5!.id, []],
    ]);
    const direct = await client.from('ad_tags').select('ad_id, tags(name)').eq('ad_id', ads.a2!.id).order('tag_id');
    expect(direct.data).toEqual(await sqlRows(`
      select t.ad_id, json_build_object('name', g.name) as tags from public.ad_tags t join public.tags g on g.id = t.tag_id
       where t.ad_id = $1 order by t.tag_id`, [ads.a2!.id]));
  });

  it('nests embeds and orders and limits an embedded array', async () => {
    const { data, error } = await client.from('brands')
      .select('name, ads_with_flags(id, created_at, categories(name))')
      .eq('name', 'Acme')
      .order('created_at', { referencedTable: 'ads_with_flags', ascending: false })
      .limit(2, { referencedTable: 'ads_with_flags' });
    expect(error).toBeNull();
    expect(data).toEqual([{
      name: 'Acme',
      ads_with_flags: [
        { id: ads.a5!.id, created_at: '2026-01-05T10:00:00+00:00', categories: { name: 'Shoes' } },
        { id: ads.a2!.id, created_at: '2026-01-02T10:00:00+00:00', categories: { name: 'Hats' } },
      ],
    }]);
  });

  it('keeps only parents with a matching embedded row with !inner, and keeps all of them without', async () => {
    const inner = await client.from('ads_with_flags').select('id, brand:brands!inner(name)').eq('brand.name', 'Beta').order('created_at');
    expect(inner.data).toEqual([{ id: ads.a3!.id, brand: { name: 'Beta' } }, { id: ads.a4!.id, brand: { name: 'Beta' } }]);
    const left = await client.from('ads_with_flags').select('id, brand:brands(name)').eq('brand.name', 'Beta').order('created_at');
    expect(left.data!.map((row) => row.brand)).toEqual([null, null, { name: 'Beta' }, { name: 'Beta' }, null]);
  });

  it('filters parents by the presence of embedded rows with is.null and not.is.null', async () => {
    const withoutAds = await client.from('brands').select('name, ads_with_flags()').is('ads_with_flags', null);
    expect(withoutAds.data).toEqual([{ name: 'Gamma, Inc' }]);
    const withSale = await client.from('ads_with_flags').select('id, tags()').eq('tags.name', 'Sale').not('tags', 'is', null).order('created_at');
    expect(withSale.data).toEqual([{ id: ads.a2!.id }, { id: ads.a4!.id }]);
  });

  it('accepts a foreign key column as a hint, spreads a to-one resource and orders by its column', async () => {
    const hinted = await client.from('ads_with_flags').select('id, brands!brand_id(name)').eq('id', ads.a3!.id);
    expect(hinted.data).toEqual([{ id: ads.a3!.id, brands: { name: 'Beta' } }]);
    const spread = await client.from('ads_with_flags').select('id, ...brands(brand:name)').order('brands(name)', { ascending: false }).order('created_at');
    expect(spread.data).toEqual([
      { id: ads.a3!.id, brand: 'Beta' }, { id: ads.a4!.id, brand: 'Beta' },
      { id: ads.a1!.id, brand: 'Acme' }, { id: ads.a2!.id, brand: 'Acme' }, { id: ads.a5!.id, brand: 'Acme' },
    ]);
  });

  it('counts embedded rows with (count)', async () => {
    const { data } = await client.from('brands').select('name, ads_with_flags(count)').order('name');
    expect(data).toEqual([
      { name: 'Acme', ads_with_flags: [{ count: 3 }] },
      { name: 'Beta', ads_with_flags: [{ count: 2 }] },
      { name: 'Gamma, Inc', ads_with_flags: [{ count: 0 }] },
    ]);
  });

  const filterBase = () => client.from('ads_with_flags').select('id').order('created_at');
  type Query = ReturnType<typeof filterBase>;
  const filterCases: [string, (q: Query) => Query, string, () => unknown[]][] = [
    ['eq on a uuid', (q) => q.eq('id', ads.a3!.id), 'id = $1', () => [ads.a3!.id]],
    ['neq on text', (q) => q.neq('brand_name', 'Acme'), `brand_name <> 'Acme'`, () => []],
    ['gt on an integer', (q) => q.gt('width', 1000), 'width > 1000', () => []],
    ['gte on a timestamp', (q) => q.gte('created_at', '2026-01-03T10:00:00Z'), `created_at >= '2026-01-03T10:00:00Z'`, () => []],
    ['lt on a timestamp', (q) => q.lt('created_at', '2026-01-03T10:00:00Z'), `created_at < '2026-01-03T10:00:00Z'`, () => []],
    ['lte on an integer', (q) => q.lte('width', 800), 'width <= 800', () => []],
    ['like with * as %', (q) => q.like('category_name', 'Sh*'), `category_name like 'Sh%'`, () => []],
    ['ilike with * as %', (q) => q.ilike('category_name', '*HAT*'), `category_name ilike '%hat%'`, () => []],
    ['like on a uuid column', (q) => q.like('id', `${ads.a4!.id.slice(0, 8)}*`), 'id::text like $1', () => [`${ads.a4!.id.slice(0, 8)}%`]],
    ['in', (q) => q.in('id', [ads.a1!.id, ads.a5!.id]), 'id in ($1, $2)', () => [ads.a1!.id, ads.a5!.id]],
    ['not.in', (q) => q.not('brand_name', 'in', '(Beta)'), `brand_name not in ('Beta')`, () => []],
    ['is.null', (q) => q.is('type_id', null), 'type_id is null', () => []],
    ['not.is.null', (q) => q.not('type_id', 'is', null), 'type_id is not null', () => []],
    ['is.false', (q) => q.is('requires_subscription', false), 'requires_subscription is false', () => []],
    ['eq on a boolean', (q) => q.eq('requires_subscription', true), 'requires_subscription', () => []],
    ['cs on an array', (q) => q.contains('tag_names', ['Summer']), `tag_names @> '{Summer}'`, () => []],
    ['cd on an array', (q) => q.containedBy('tag_names', ['Summer']), `tag_names <@ '{Summer}'`, () => []],
    ['ov on an array', (q) => q.overlaps('tag_names', ['Sale', 'Winter']), `tag_names && '{Sale,Winter}'`, () => []],
    ['or with a nested and', (q) => q.or('width.lt.700,and(requires_subscription.is.false,width.gte.1080)'),
      '(width < 700 or (requires_subscription is false and width >= 1080))', () => []],
    ['not.and inside or', (q) => q.or('not.and(width.gte.1000,brand_name.eq.Acme)'),
      `not (width >= 1000 and brand_name = 'Acme')`, () => []],
    ['not.eq', (q) => q.not('width', 'eq', 1080), 'width <> 1080', () => []],
    ['match', (q) => q.match({ brand_name: 'Beta', category_name: 'Hats' }), `brand_name = 'Beta' and category_name = 'Hats'`, () => []],
    ['a regular expression', (q) => q.filter('brand_name', 'match', '^B'), `brand_name ~ '^B'`, () => []],
    ['isdistinct', (q) => q.filter('type_name', 'isdistinct', 'Video'), `type_name is distinct from 'Video'`, () => []],
    ['like(any)', (q) => q.likeAnyOf('brand_name', ['Be*', 'Zz*']), `brand_name like any ('{Be%,Zz%}')`, () => []],
    ['ilike(all)', (q) => q.ilikeAllOf('category_name', ['*O*', 's*']), `category_name ilike all ('{%o%,s%}')`, () => []],
    ['full-text search', (q) => q.textSearch('category_name', 'hats', { type: 'plain' }),
      `to_tsvector(category_name) @@ plainto_tsquery('hats')`, () => []],
  ];
  for (const [name, apply, where, params] of filterCases) {
    it(`filters with ${name} exactly as SQL does`, async () => {
      const { data, error } = await apply(filterBase());
      expect(error).toBeNull();
      const expected = await sqlRows(`select id from public.ads_with_flags where ${where} order by created_at`, params());
      expect(data).toEqual(expected);
      expect(expected.length).toBeGreaterThan(0);
      expect(expected.length).toBeLessThan(5);
    });
  }

  it('combines top-level and=(...) and not.or=(...) trees with the other filters', async () => {
    const response = await raw('ads_with_flags?select=id&order=created_at&and=(width.gte.600,not.or(brand_name.eq.Beta,tag_names.cs.{Sale}))&requires_subscription=is.true');
    const expected = await sqlRows(`select id from public.ads_with_flags
      where width >= 600 and not (brand_name = 'Beta' or tag_names @> '{Sale}') and requires_subscription order by created_at`);
    expect(await response.json()).toEqual(expected);
    expect(expected).toEqual([{ id: ads.a5!.id }]);
    const negated = await raw('ads_with_flags?select=id&order=created_at&not.or=(brand_name.eq.Acme,width.lt.1000)');
    expect(await negated.json()).toEqual([{ id: ads.a4!.id }]);
  });

  it('matches values holding commas when they are quoted in an in list', async () => {
    const { data } = await client.from('brands').select('name').in('name', ['Gamma, Inc', 'Beta']).order('name');
    expect(data).toEqual([{ name: 'Beta' }, { name: 'Gamma, Inc' }]);
  });

  it('orders by several columns with nulls first or last', async () => {
    const { data } = await client.from('ads_with_flags').select('id')
      .order('type_name', { ascending: true, nullsFirst: true })
      .order('width', { ascending: false })
      .order('created_at');
    expect(data).toEqual(await sqlRows('select id from public.ads_with_flags order by type_name asc nulls first, width desc, created_at'));
    const last = await client.from('ads_with_flags').select('id').order('type_name', { ascending: false, nullsFirst: false }).order('created_at');
    expect(last.data).toEqual(await sqlRows('select id from public.ads_with_flags order by type_name desc nulls last, created_at'));
  });

  it('pages with limit and offset and reports the exact count with 206 and Content-Range', async () => {
    const { data, count, status } = await client.from('ads_with_flags').select('id', { count: 'exact' }).order('created_at').range(1, 2);
    expect(data).toEqual([{ id: ads.a2!.id }, { id: ads.a3!.id }]);
    expect(count).toBe(5);
    expect(status).toBe(206);
    const response = await raw('ads_with_flags?select=id&order=created_at&offset=1&limit=2', { prefer: 'count=exact' });
    expect(response.headers.get('content-range')).toBe('1-2/5');
    const whole = await raw('ads_with_flags?select=id', { prefer: 'count=exact' });
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-range')).toBe('0-4/5');
  });

  it('answers an empty result with Content-Range */0 and a count of 0', async () => {
    const { data, count, status } = await client.from('ads_with_flags').select('id', { count: 'exact' }).eq('brand_name', 'Nobody');
    expect([data, count, status]).toEqual([[], 0, 200]);
    expect((await raw('ads_with_flags?brand_name=eq.Nobody', { prefer: 'count=exact' })).headers.get('content-range')).toBe('*/0');
    expect((await raw('ads_with_flags?brand_name=eq.Nobody')).headers.get('content-range')).toBe('*/*');
  });

  it('counts with HEAD and sends no body', async () => {
    const { data, count, error } = await client.from('ads_with_flags').select('*', { count: 'exact', head: true }).eq('brand_name', 'Acme');
    expect([data, count, error]).toEqual([null, 3, null]);
    const response = await raw('ads_with_flags?brand_name=eq.Acme', { prefer: 'count=exact' }, 'HEAD');
    expect(response.headers.get('content-range')).toBe('0-2/3');
    expect(await response.text()).toBe('');
  });

  it('honours a Range header in items', async () => {
    const response = await raw('ads_with_flags?select=id&order=created_at', { range: '3-', 'range-unit': 'items' });
    expect(await response.json()).toEqual([{ id: ads.a4!.id }, { id: ads.a5!.id }]);
    expect(response.headers.get('content-range')).toBe('3-4/*');
    const closed = await raw('ads_with_flags?select=id&order=created_at', { range: '0-1' });
    expect(await closed.json()).toEqual([{ id: ads.a1!.id }, { id: ads.a2!.id }]);
  });

  it('answers an offset past the end with 416 PGRST103 when counting', async () => {
    const { error, status } = await client.from('ads_with_flags').select('id', { count: 'exact' }).range(7, 9);
    expect(status).toBe(416);
    expect(error).toMatchObject({ code: 'PGRST103', message: 'Requested range not satisfiable' });
  });

  it('returns one object with single() and 406 PGRST116 when there is not exactly one row', async () => {
    const one = await client.from('brands').select('name').eq('name', 'Beta').single();
    expect(one).toMatchObject({ data: { name: 'Beta' }, error: null, status: 200 });
    const none = await client.from('brands').select('name').eq('name', 'Nobody').single();
    expect(none.status).toBe(406);
    expect(none.error).toEqual({
      code: 'PGRST116', details: 'The result contains 0 rows', hint: null, message: 'Cannot coerce the result to a single JSON object',
    });
    const many = await client.from('brands').select('name').single();
    expect(many.error).toMatchObject({ code: 'PGRST116', details: 'The result contains 3 rows' });
    const maybe = await client.from('brands').select('name').eq('name', 'Nobody').maybeSingle();
    expect(maybe).toMatchObject({ data: null, error: null });
  });

  it('leaves out null fields with stripNulls()', async () => {
    const { data } = await client.from('ads_with_flags').select('id, type_name').in('id', [ads.a1!.id, ads.a2!.id]).order('created_at').stripNulls();
    expect(data).toEqual([{ id: ads.a1!.id, type_name: 'Video' }, { id: ads.a2!.id }]);
  });

  it('sends the single object with its own media type', async () => {
    const response = await raw('brands?select=name&name=eq.Acme', { accept: 'application/vnd.pgrst.object+json' });
    expect(response.headers.get('content-type')).toBe('application/vnd.pgrst.object+json; charset=utf-8');
    expect(await response.text()).toBe('{"name":"Acme"}');
  });
});
