import type { SupabaseClient } from '@supabase/supabase-js';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signJwt } from '../../local/auth/jwt.ts';
import type { Database } from '../../local/db/database.ts';
import { createRestApi, type RestApi } from '../../local/rest/rest-api.ts';
import { describeOnEngines } from '../support/engines.ts';
import { grantAdmin, newAd, newBoard, newBrand, newCategory, newUser, type TestAd, type TestUser } from '../support/factories.ts';
import { clientFor, newLocalConfig, TEST_ORIGIN, userToken } from '../support/local-config.ts';

describeOnEngines('rest/v1 auth, row-level security and errors', (ctx) => {
  let config: Awaited<ReturnType<typeof newLocalConfig>>;
  let api: RestApi;
  let owner: TestUser;
  let stranger: TestUser;
  let admin: TestUser;
  let asAnon: SupabaseClient;
  let asOwner: SupabaseClient;
  let asStranger: SupabaseClient;
  let asAdmin: SupabaseClient;
  let ownerBoard: string;
  let ad: TestAd;

  const request = (path: string, init: RequestInit = {}) => api(new Request(`${TEST_ORIGIN}/rest/v1/${path}`, init));
  const get = (path: string, headers: Record<string, string> = { apikey: config.anonKey }) => request(path, { headers });
  const brandCount = async () => (await ctx.db.query<{ n: number }>('select count(*)::int as n from public.brands')).rows[0]!.n;

  beforeAll(async () => {
    config = await newLocalConfig();
    api = createRestApi({ db: ctx.db, config });
    owner = await newUser(ctx.db);
    stranger = await newUser(ctx.db);
    admin = await newUser(ctx.db);
    await grantAdmin(ctx.db, admin);
    asAnon = clientFor(config, api);
    asOwner = clientFor(config, api, await userToken(config, owner));
    asStranger = clientFor(config, api, await userToken(config, stranger));
    asAdmin = clientFor(config, api, await userToken(config, admin));
    ownerBoard = await newBoard(ctx.db, owner, 'Private ideas');
    const brand = await newBrand(ctx.db, 'Acme');
    ad = await newAd(ctx.db, { brandId: brand.id, categoryId: (await newCategory(ctx.db, 'Shoes')).id });
    await ctx.db.query('insert into public.user_collection_items (collection_id, ad_id) values ($1, $2)', [ownerBoard, ad.id]);
  });
  afterAll(async () => {
    await config.cleanup();
  });

  it('answers 401 without an API key', async () => {
    const response = await request('brands');
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      code: 'PGRST302', details: null, hint: 'No `apikey` request header or url param was found.', message: 'No API key found in request',
    });
  });

  it('answers 401 PGRST301 for a malformed, tampered or foreign JWT and PGRST303 for an expired one', async () => {
    const token = await userToken(config, owner);
    const [header, payload, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const tampered = [header, Buffer.from(JSON.stringify({ ...claims, role: 'service_role' })).toString('base64url'), signature].join('.');
    const foreign = await signJwt({ sub: owner.id, role: 'authenticated' }, 'another-secret-that-is-at-least-32-characters', 60);
    const expired = await userToken(config, owner, -60);
    const cases: [string, string, string][] = [
      ['not-a-jwt', 'PGRST301', 'invalid JWT: token must have three base64url parts'],
      [tampered, 'PGRST301', 'invalid JWT: signature is invalid'],
      [foreign, 'PGRST301', 'invalid JWT: signature is invalid'],
      [expired, 'PGRST303', 'JWT expired'],
    ];
    for (const [jwt, code, message] of cases) {
      const response = await get('brands', { apikey: config.anonKey, authorization: `Bearer ${jwt}` });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ code, details: null, hint: null, message });
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
    }
    const viaClient = await clientFor(config, api, expired).from('brands').select();
    expect(viaClient.status).toBe(401);
    expect(viaClient.error).toMatchObject({ code: 'PGRST303', message: 'JWT expired' });
  });

  it('takes the bearer token over the apikey, and the apikey alone as the JWT', async () => {
    const asOwnerByHeader = await get('user_collections?select=name', { apikey: config.anonKey, authorization: `Bearer ${await userToken(config, owner)}` });
    expect(await asOwnerByHeader.json()).toEqual([{ name: 'Private ideas' }]);
    const asService = await get('user_collections?select=name', { apikey: config.serviceRoleKey });
    expect((await asService.json() as unknown[]).length).toBeGreaterThan(0);
    const badApikey = await get('brands', { apikey: 'garbage' });
    expect(badApikey.status).toBe(401);
  });

  it("keeps a user's boards and their ads from other users", async () => {
    const mine = await asOwner.from('user_collections').select('id, user_collection_items(ad_id)');
    expect(mine.data).toEqual([{ id: ownerBoard, user_collection_items: [{ ad_id: ad.id }] }]);
    const theirs = await asStranger.from('user_collections').select('id').eq('id', ownerBoard);
    expect([theirs.error, theirs.data]).toEqual([null, []]);
    const items = await asStranger.from('v_user_collection_ads').select('ad_id').eq('collection_id', ownerBoard);
    expect(items.data).toEqual([]);
    const renamed = await asStranger.from('user_collections').update({ name: 'Hijacked' }, { count: 'exact' }).eq('id', ownerBoard);
    const deleted = await asStranger.from('user_collections').delete({ count: 'exact' }).eq('id', ownerBoard);
    expect([renamed.count, deleted.count]).toEqual([0, 0]);
    const { rows } = await ctx.db.query('select name from public.user_collections where id = $1', [ownerBoard]);
    expect(rows).toEqual([{ name: 'Private ideas' }]);
    const visitor = await asAnon.from('user_collections').select('id');
    expect(visitor.status).toBe(401);
    expect(visitor.error).toMatchObject({ code: '42501' });
  });

  it('lets a user read their own profile only, and an admin read every profile', async () => {
    const own = await asOwner.from('profiles').select('user_id');
    expect(own.data).toEqual([{ user_id: owner.id }]);
    const all = await asAdmin.from('profiles').select('user_id', { count: 'exact', head: true });
    expect(all.count).toBe((await ctx.db.query('select 1 from public.profiles')).rows.length);
  });

  it('refuses brand inserts with 401 for visitors and 403 for signed-in users who are not admins', async () => {
    const before = await brandCount();
    const visitor = await asAnon.from('brands').insert({ name: 'Visitor brand' });
    expect(visitor.status).toBe(401);
    expect(visitor.error).toMatchObject({ code: '42501', message: 'permission denied for table brands' });
    const user = await asOwner.from('brands').insert({ name: 'User brand' });
    expect(user.status).toBe(403);
    expect(user.error).toMatchObject({ code: '42501', message: 'new row violates row-level security policy for table "brands"' });
    expect(await brandCount()).toBe(before);
    const byAdmin = await asAdmin.from('brands').insert({ name: 'Admin brand' });
    expect(byAdmin.status).toBe(201);
    expect(await brandCount()).toBe(before + 1);
  });

  const bad: [string, () => PromiseLike<{ status: number; error: unknown }>, number, string][] = [
    ['an unknown table', () => asAnon.from('nope').select(), 404, 'PGRST205'],
    ['an unknown column in select', () => asAnon.from('brands').select('nope'), 400, '42703'],
    ['an unknown column in a filter', () => asAnon.from('brands').select().eq('nope', 1), 400, '42703'],
    ['an unknown column in order', () => asAnon.from('brands').select().order('nope'), 400, '42703'],
    ['an unknown filter operator', () => asAnon.from('brands').select().filter('name', 'equals', 'x'), 400, 'PGRST100'],
    ['a malformed select', () => asAnon.from('brands').select('name,(' as '*'), 400, 'PGRST100'],
    ['a malformed order', () => asAnon.from('brands').select().order('name.sideways' as 'name'), 400, 'PGRST100'],
    ['a malformed in list', () => asAnon.from('brands').select().filter('name', 'in', 'a,b'), 400, 'PGRST100'],
    ['a malformed or tree', () => asAnon.from('brands').select().or('name.eq.a,(broken'), 400, 'PGRST100'],
    ['an unknown is value', () => asAnon.from('brands').select().filter('name', 'is', 'maybe'), 400, 'PGRST100'],
    ['an unknown cast type', () => asAnon.from('brands').select('name::nosuchtype' as '*'), 400, '42704'],
    ['an unknown relationship', () => asAnon.from('brands').select('name, tags(name)'), 400, 'PGRST200'],
    ['a filter on a resource that is not embedded', () => asAnon.from('brands').select('name').eq('ads_with_flags.width', 1), 400, 'PGRST108'],
    ['an ambiguous relationship', () => asOwner.from('user_collections').select('id, user_collections(id)'), 300, 'PGRST201'],
    ['a value that is not a uuid', () => asAnon.from('brands').select().eq('id', 'not-a-uuid'), 400, '22P02'],
    ['a value that is not a timestamp', () => asAnon.from('brands').select().gt('created_at', 'yesterday-ish'), 400, '22007'],
    ['a duplicate name (unique violation)', () => asAdmin.from('brands').insert({ name: 'ACME' }), 409, '23505'],
    ['a missing ad (foreign key violation)', () => asOwner.from('user_collection_items').insert({ collection_id: ownerBoard, ad_id: '00000000-0000-4000-8000-000000000000' }), 409, '23503'],
    ['an empty board name (check violation)', () => asOwner.from('user_collections').insert({ name: '   ' }), 400, '23514'],
    ['a missing required column (not-null violation)', () => clientFor(config, api, config.serviceRoleKey).from('subscriptions')
      .insert({ user_id: owner.id, stripe_customer_id: 'cus_1', stripe_subscription_id: 'sub_1', tier: 'monthly', price_id: 'p' }), 400, '23502'],
    ['a parent board that does not exist (PT404)', () => asOwner.from('user_collections').insert({ name: 'Child', parent_id: '00000000-0000-4000-8000-000000000000' }), 404, 'PT404'],
    ['an unknown function', () => asAnon.rpc('nope'), 404, 'PGRST202'],
    ['too many embedded resources', () => asAnon.from('brands').select(Array.from({ length: 40 }, (_, i) => `e${i}:ads_with_flags(id)`).join(',') as '*'), 400, 'PGRST100'],
    ['embedding nested too deep', () => asAnon.from('brands').select(`name,${'ads_with_flags(id,brands(name,'.repeat(5)}id${'))'.repeat(5)}` as '*'), 400, 'PGRST100'],
    ['too wide a select list', () => asAnon.from('brands').select(Array(1200).fill('name').join(',') as '*'), 400, 'PGRST100'],
    ['a NUL character in a JSON key', () => asAnon.from('brands').select('name->\0' as '*'), 400, 'PGRST100'],
    ['a NUL character in a value', () => asAnon.from('brands').select().eq('name', 'a\0b'), 400, 'PGRST100'],
  ];
  for (const [name, call, status, code] of bad) {
    it(`answers ${status} ${code} for ${name}`, async () => {
      const result = await call();
      expect(result.status).toBe(status);
      expect(result.error).toMatchObject({ code });
      expect(Object.keys(result.error as object).sort()).toEqual(['code', 'details', 'hint', 'message']);
    });
  }

  it('names the candidates of an ambiguous embedding in the hint and details', async () => {
    const { error } = await asOwner.from('user_collections').select('id, user_collections(id)');
    expect(error).toMatchObject({
      message: `Could not embed because more than one relationship was found for 'user_collections' and 'user_collections'`,
      hint: `Try changing 'user_collections' to one of the following: 'user_collections!user_collections_parent_id_fkey'. Find the desired relationship in the 'details' key.`,
    });
    expect((error as unknown as { details: { cardinality: string }[] }).details.map((d) => d.cardinality).sort()).toEqual(['many-to-one', 'one-to-many']);
  });

  it('refuses other schemas, media types and methods with PostgREST codes', async () => {
    const schema = await get('brands', { apikey: config.anonKey, 'accept-profile': 'private' });
    expect([schema.status, (await schema.json()).code]).toEqual([406, 'PGRST106']);
    const csv = await get('brands', { apikey: config.anonKey, accept: 'text/csv' });
    expect([csv.status, (await csv.json()).code]).toEqual([406, 'PGRST107']);
    const put = await request('brands', { method: 'PUT', headers: { apikey: config.anonKey }, body: '{}' });
    expect([put.status, (await put.json()).code]).toEqual([405, 'PGRST117']);
    const nested = await get('brands/extra');
    expect(nested.status).toBe(404);
    const undecodable = await get('brands%FF');
    expect([undecodable.status, (await undecodable.json()).code]).toEqual([400, 'PGRST100']);
  });

  it('answers 503 PGRST002, then PGRST000, while the database cannot be reached, and serves again once it can', async () => {
    const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    let reachable = false;
    let cacheLoaded = false;
    const flaky: Database = {
      engine: ctx.db.engine,
      query: (sql, params) => (reachable || !cacheLoaded ? ctx.db.query(sql, params) : Promise.reject(refused())),
      exec: (sql) => ctx.db.exec(sql),
      transaction: (fn) => (reachable ? ctx.db.transaction(fn) : Promise.reject(refused())),
      listen: (channel, fn) => ctx.db.listen(channel, fn),
      close: async () => {},
    };
    const down = createRestApi({ db: { ...flaky, query: () => Promise.reject(refused()) }, config });
    const whileLoading = await down(new Request(`${TEST_ORIGIN}/rest/v1/brands`, { headers: { apikey: config.anonKey } }));
    expect(whileLoading.status).toBe(503);
    expect(await whileLoading.json()).toMatchObject({ code: 'PGRST002', details: 'connect ECONNREFUSED 127.0.0.1:5432' });

    const restarting = createRestApi({ db: flaky, config });
    await restarting.reloadSchema();
    cacheLoaded = true;
    const duringRequest = await restarting(new Request(`${TEST_ORIGIN}/rest/v1/brands?select=name`, { headers: { apikey: config.anonKey } }));
    expect(duringRequest.status).toBe(503);
    expect(await duringRequest.json()).toMatchObject({ code: 'PGRST000', message: 'Could not connect with the database' });
    reachable = true;
    const back = await restarting(new Request(`${TEST_ORIGIN}/rest/v1/brands?select=name&name=eq.Acme`, { headers: { apikey: config.anonKey } }));
    expect([back.status, await back.json()]).toEqual([200, [{ name: 'Acme' }]]);
  });

  it('treats hostile names and values as data or as errors, never as SQL', async () => {
    await ctx.db.exec('create table public.canary (id int primary key); insert into public.canary values (1)');
    const before = await brandCount();
    const attempts = [
      `brands?select=name,"x""; drop table public.canary; --"`,
      `brands?select=name::text;drop table public.canary`,
      `brands?select=name,brands!"x; drop table public.canary"(name)`,
      `brands?name=eq.x'; drop table public.canary; --`,
      `brands?name=in.(a,"b'); drop table public.canary; --")`,
      `brands?order=name;drop table public.canary`,
      `brands?order=name.asc,"x"; drop table public.canary".desc`,
      `brands?"name""; drop table public.canary; --"=eq.1`,
      `brands?or=(name.eq.a,name.eq.b);drop table public.canary`,
      `brands?limit=1;drop table public.canary`,
      `brands?name->>'x'; drop table public.canary=eq.1`,
      `brands?select=name->>x'); drop table public.canary; --`,
      `rpc/get_ad?p_id=1'; drop table public.canary; --`,
      `rpc/get_ad;drop table public.canary`,
      `brands?name=fts(english'; drop table public.canary; --).x`,
      `brands?name=like(any).{a,b'); drop table public.canary; --}`,
    ];
    for (const attempt of attempts) {
      const response = await get(attempt.replace(/ /g, '%20').replace(/#/g, '%23'));
      expect(response.status, attempt).toBeLessThan(500);
    }
    const quoted = await asAnon.from('brands').select('name').eq('name', "x' or '1'='1");
    expect(quoted.data).toEqual([]);
    const inserted = await asAdmin.from('brands').insert({ name: `Robert'); drop table public.canary; --` }).select('name').single();
    expect(inserted.data).toEqual({ name: `Robert'); drop table public.canary; --` });
    expect((await ctx.db.query('select id from public.canary')).rows).toEqual([{ id: 1 }]);
    expect(await brandCount()).toBe(before + 1);
  });

  it('never answers 500 to arbitrary select, filter, order and range input', async () => {
    const part = fc.string({ unit: fc.constantFrom(...'abnmeqitd_.,()!*:"\'\\{}->< ;%0123\0'.split('')), maxLength: 24 });
    await fc.assert(
      fc.asyncProperty(part, part, part, part, async (select, key, value, order) => {
        const params = new URLSearchParams({ select, order });
        params.append(key || 'name', value);
        const response = await get(`ads_with_flags?${params}`);
        if (response.status >= 500) throw new Error(`${response.status} for ?${params}: ${await response.text()}`);
        const body = await response.text();
        if (response.status >= 400) expect(Object.keys(JSON.parse(body)).sort()).toEqual(['code', 'details', 'hint', 'message']);
      }),
      { numRuns: 150 },
    );
  });

  it('never answers 500 to arbitrary JSON bodies for inserts, updates and function calls', async () => {
    const paths = ['brands', 'user_collections', 'brands?id=eq.00000000-0000-4000-8000-000000000000', 'rpc/get_ad', 'rpc/save_ad_boards', 'rpc/list_ads'];
    const key = (fc.constantFrom('name', 'logo_path', 'id', 'p_id', 'p_ad_id', 'p_add', 'p_query', 'p_tag_ids', 'parent_id', 'created_at'));
    // A listing query of list_ads' own fields, each any JSON value.
    const listQuery = fc.record({
      p_query: fc.dictionary(fc.constantFrom('board', 'tag_ids', 'since', 'search', 'cursor', 'platforms', 'min_running_days', 'still_running', 'sort', 'colour'),
        fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
    });
    const body = fc.oneof(fc.dictionary(key, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }), fc.jsonValue({ maxDepth: 2 }), listQuery);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paths), fc.constantFrom('POST', 'PATCH'), body, async (path, method, payload) => {
        const response = await request(path, {
          method: path.startsWith('rpc/') ? 'POST' : method,
          headers: { apikey: config.serviceRoleKey, 'content-type': 'application/json', prefer: 'return=representation, tx=rollback' },
          body: JSON.stringify(payload),
        });
        if (response.status >= 500) throw new Error(`${response.status} for ${method} ${path} ${JSON.stringify(payload)}: ${await response.text()}`);
      }),
      { numRuns: 150 },
    );
  });
});
