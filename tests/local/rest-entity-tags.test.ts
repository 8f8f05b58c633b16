import { afterAll, beforeAll, expect, it } from 'vitest';
import { createRestApi, type RestApi } from '../../local/rest/rest-api.ts';
import { describeOnEngines } from '../support/engines.ts';
import { newBoard, newBrand, newUser, type TestUser } from '../support/factories.ts';
import { newLocalConfig, TEST_ORIGIN, userToken } from '../support/local-config.ts';

/** rest/v1's GET answers carry a tag of what was answered, and a client holding the same answer gets 304. */
describeOnEngines('rest/v1 entity tags', (ctx) => {
  let config: Awaited<ReturnType<typeof newLocalConfig>>;
  let api: RestApi;
  let owner: TestUser;
  let other: TestUser;
  const prefix = `Tagged ${Date.now()}`;

  const get = (path: string, headers: Record<string, string> = {}, token?: string) =>
    api(new Request(`${TEST_ORIGIN}/rest/v1/${path}`, {
      headers: { apikey: config.anonKey, ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    }));
  const brandsPath = () => `brands?select=id,name&name=like.${encodeURIComponent(prefix)}*&order=name`;

  beforeAll(async () => {
    config = await newLocalConfig();
    api = createRestApi({ db: ctx.db, config });
    await newBrand(ctx.db, `${prefix} A`);
    owner = await newUser(ctx.db);
    other = await newUser(ctx.db);
    await newBoard(ctx.db, owner, 'Tagged board');
  });
  afterAll(() => config?.cleanup());

  it('answers 304 without a body to a client that holds the same answer, and 200 with a new tag once it changed', async () => {
    const first = await get(brandsPath());
    expect(first.status).toBe(200);
    const tag = first.headers.get('etag');
    expect(tag).toMatch(/^W\/"[A-Za-z0-9_-]{32}"$/);
    const firstBody = await first.json();
    expect(firstBody).toEqual([expect.objectContaining({ name: `${prefix} A` })]);

    const again = await get(brandsPath(), { 'if-none-match': tag! });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(tag);
    expect(await again.text()).toBe('');
    // Among other tags, and without the weak mark, it still matches.
    expect((await get(brandsPath(), { 'if-none-match': `"other", ${tag!.slice(2)}` })).status).toBe(304);

    await newBrand(ctx.db, `${prefix} B`);
    const changed = await get(brandsPath(), { 'if-none-match': tag! });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(tag);
    expect((await changed.json()).map((brand: { name: string }) => brand.name)).toEqual([`${prefix} A`, `${prefix} B`]);
  });

  it("never answers 304 to a caller whose answer differs from the one the tag was made for", async () => {
    const mine = await get('user_collections?select=id,name', {}, await userToken(config, owner));
    expect(mine.status).toBe(200);
    expect(await mine.json()).toEqual([expect.objectContaining({ name: 'Tagged board' })]);
    const theirs = await get('user_collections?select=id,name', { 'if-none-match': mine.headers.get('etag')! }, await userToken(config, other));
    expect(theirs.status).toBe(200);
    expect(await theirs.json()).toEqual([]);
  });

  it('tags no answer but a successful GET', async () => {
    const call = await api(new Request(`${TEST_ORIGIN}/rest/v1/rpc/list_ads`, {
      method: 'POST', headers: { apikey: config.anonKey, 'content-type': 'application/json' }, body: JSON.stringify({ p_query: { board: 'library' } }),
    }));
    expect(call.status).toBe(200);
    expect(call.headers.get('etag')).toBeNull();
    const missing = await get('no_such_table?select=id');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('etag')).toBeNull();
  });
});
