import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createRestApi, type RestApi } from '../../local/rest/rest-api.ts';
import { SharedAnswerCache } from '../../local/rest/shared-answer-cache.ts';
import { anon, queryAs, userActor } from '../support/acting.ts';
import { describeOnEngines } from '../support/engines.ts';
import { newAd, newBrand, newCategory, newPersonas, newSubscription, newTag, newType, newUser, type Personas, type TestAd } from '../support/factories.ts';
import { newLocalConfig, TEST_ORIGIN, userToken } from '../support/local-config.ts';

/**
 * rest/v1 keeps answers of the functions the database lists in
 * private.anonymous_answer_versions (list_ads) per answer class (anonymous,
 * signed in without access, with access) until a write to a table they read
 * commits. Every check compares the API's answer with the same call made in
 * SQL as the same caller at that moment.
 */
describeOnEngines('rest/v1 answers of list_ads shared per answer class', (ctx) => {
  let config: Awaited<ReturnType<typeof newLocalConfig>>;
  let api: RestApi;
  let people: Personas;
  let brandId: string;
  let categoryId: string;
  let typeId: string;
  let tagId: string;
  const ads: TestAd[] = [];

  /** list_ads through rest/v1 with this query (its one argument, p_query). */
  const call = (query: Record<string, unknown> = {}, token?: string, headers: Record<string, string> = {}) =>
    api(new Request(`${TEST_ORIGIN}/rest/v1/rpc/list_ads`, {
      method: 'POST',
      headers: { apikey: config.anonKey, 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
      body: JSON.stringify({ p_query: query }),
    }));
  const anonText = async (query: Record<string, unknown> = {}) => {
    const response = await call(query);
    expect(response.status).toBe(200);
    return response.text();
  };
  /** list_ads() as the anonymous visitor, in SQL, now. */
  const sqlPage = async (brand?: string) =>
    (await queryAs<{ page: string }>(ctx.db, anon, brand
      ? 'select public.list_ads($1::jsonb)::text as page'
      : 'select public.list_ads()::text as page', brand ? [JSON.stringify({ brand_ids: [brand] })] : []))[0]!.page;
  const version = async () =>
    (await ctx.db.query<{ version: string }>(`select version::text as version from private.anonymous_answer_versions where function_name = 'list_ads'`)).rows[0]!.version;
  /**
   * Renames the brand as the table owner with triggers off: what list_ads shows changes (the brand and the cards
   * of its ads, which the triggers would rewrite), the version does not (only to show what is cached).
   */
  const renameBrandQuietly = (name: string) =>
    ctx.db.transaction(async (tx) => {
      await tx.query(`select set_config('session_replication_role', 'replica', true)`);
      await tx.query('update public.brands set name = $2 where id = $1', [brandId, name]);
      await tx.query(`update public.ads set card = card::jsonb || jsonb_build_object('brand_name', $2::text) where brand_id = $1`, [brandId, name]);
    });

  beforeAll(async () => {
    config = await newLocalConfig();
    api = createRestApi({ db: ctx.db, config });
    people = await newPersonas(ctx.db);
    brandId = (await newBrand(ctx.db, 'Cached Brand')).id;
    categoryId = (await newCategory(ctx.db, 'Cached Category')).id;
    typeId = (await newType(ctx.db, 'Cached Type')).id;
    tagId = (await newTag(ctx.db, 'Cached Tag')).id;
    for (let i = 0; i < 4; i += 1) {
      ads.push(await newAd(ctx.db, { brandId, categoryId, typeId, createdAt: `2026-03-0${i + 1}T08:00:00Z`, tagIds: [tagId] }));
    }
  });
  afterAll(async () => {
    await config.cleanup();
  });

  it('answers a repeated anonymous call from the cache while nothing it reads is written', async () => {
    const first = await anonText();
    expect(first).toBe(await sqlPage());
    // Asked again: kept from now on.
    expect(await anonText()).toBe(first);
    // Changed behind the triggers' back: only a cached answer can still show the old name.
    await renameBrandQuietly('Renamed Quietly');
    expect(await anonText()).toBe(first);
    expect(first).toContain('Cached Brand');
    // The next counted write ends it, and the answer is the database's again.
    await ctx.db.query('update public.brands set name = $2 where id = $1', [brandId, 'Cached Brand']);
    const after = await anonText();
    expect(after).toBe(await sqlPage());
  });

  it('keeps no answer of a call asked once, and keeps one from its second ask by a caller of any class', async () => {
    const query = { since: '2026-03-02T00:00:00.000Z' };
    const once = await anonText(query);
    expect(once).toContain('Cached Brand');
    await renameBrandQuietly('Asked Once');
    try {
      // Nothing was kept from the first ask: the second is the database's, and is kept.
      const second = await anonText(query);
      expect(second).toContain('Asked Once');
      await renameBrandQuietly('Asked Twice');
      expect(await anonText(query)).toBe(second);
      // A signed-in caller asking a call anonymous callers asked is another call: answered, not kept, the first time.
      const token = await userToken(config, people.subscriber);
      const signedIn = await (await call({ since: '2026-03-03T00:00:00.000Z' }, token)).text();
      expect(signedIn).toContain('Asked Twice');
      await renameBrandQuietly('Signed In Twice');
      // A free account asks it next: its second ask, answered from the database and kept for members.
      const freeToken = await userToken(config, people.free);
      const member = await (await call({ since: '2026-03-03T00:00:00.000Z' }, freeToken)).text();
      expect(member).toContain('Signed In Twice');
      await renameBrandQuietly('Kept For Members');
      expect(await (await call({ since: '2026-03-03T00:00:00.000Z' }, freeToken)).text()).toBe(member);
    } finally {
      await ctx.db.query('update public.brands set name = $2 where id = $1', [brandId, 'Cached Brand']);
    }
  });

  it('keeps the answers asked most recently when many calls are asked once each', async () => {
    const cache = new SharedAnswerCache(ctx.db);
    const request = new Request(`${TEST_ORIGIN}/rest/v1/rpc/list_ads`, { method: 'POST' });
    const url = new URL(`${TEST_ORIGIN}/rest/v1/rpc/list_ads`);
    const claims = { role: 'anon' } as const;
    expect(cache.askedBefore(claims, request, url, '{"p_query":{"since":"a"}}')).toBe(false);
    expect(cache.askedBefore(claims, request, url, '{"p_query":{"since":"a"}}')).toBe(true);
    // 65,536 calls asked once each push out every call not asked since: the popular one, asked now and then, stays.
    for (let i = 0; i < 65_536; i += 1) {
      if (i % 10_000 === 0) expect(cache.askedBefore(claims, request, url, '{"p_query":{"since":"popular"}}')).toBe(i > 0);
      cache.askedBefore(claims, request, url, `{"p_query":{"since":"${i}"}}`);
    }
    expect(cache.askedBefore(claims, request, url, '{"p_query":{"since":"popular"}}')).toBe(true);
    expect(cache.askedBefore(claims, request, url, '{"p_query":{"since":"a"}}')).toBe(false);
    expect(cache.askedBefore({ role: 'authenticated', sub: people.free.id } as never, request, url, '{"p_query":{"since":"popular"}}')).toBe(false);
  });

  it('bumps the version on a write to every table list_ads reads, and on nothing else', async () => {
    const writes: [string, string, unknown[]][] = [
      ['ads', 'update public.ads set width = width + 1 where id = $1', [ads[0]!.id]],
      ['ad_tags', 'delete from public.ad_tags where ad_id = $1 and tag_id = $2', [ads[0]!.id, tagId]],
      ['ad_tags', 'insert into public.ad_tags (ad_id, tag_id) values ($1, $2)', [ads[0]!.id, tagId]],
      ['tags', 'update public.tags set name = name where id = $1', [tagId]],
      ['brands', 'update public.brands set logo_path = logo_path where id = $1', [brandId]],
      ['categories', 'update public.categories set name = name where id = $1', [categoryId]],
      ['types', 'update public.types set name = name where id = $1', [typeId]],
      ['settings', `update private.settings set value = value where key = 'cursor_secret'`, []],
    ];
    for (const [table, sql, params] of writes) {
      const before = BigInt(await version());
      await ctx.db.query(sql, params);
      // At least once: a write can fire other writes (tag links keep the ads' board flags).
      expect(BigInt(await version()) > before, table).toBe(true);
    }
    // A statement that writes no row of those tables changes nothing.
    const before = await version();
    await ctx.db.query('select count(*) from public.ads');
    await ctx.db.query(`update public.profiles set full_name = full_name where user_id = $1`, [people.free.id]);
    expect(await version()).toBe(before);
  });

  it('serves the new answer after each kind of write that changes the page', async () => {
    const changes: [string, () => Promise<unknown>][] = [
      ['a new ad', () => newAd(ctx.db, { brandId, categoryId, createdAt: '2026-03-09T08:00:00Z', requiresSubscription: false })],
      ['an ad made free', () => ctx.db.query('update public.ads set requires_subscription = false where id = $1', [ads[1]!.id])],
      ['a deleted tag link', () => ctx.db.query('delete from public.ad_tags where ad_id = $1', [ads[2]!.id])],
      ['a renamed tag', () => ctx.db.query('update public.tags set name = $2 where id = $1', [tagId, 'Renamed Tag'])],
      ['a renamed brand', () => ctx.db.query('update public.brands set name = $2 where id = $1', [brandId, 'Renamed Brand'])],
      ['a renamed category', () => ctx.db.query('update public.categories set name = $2 where id = $1', [categoryId, 'Renamed Category'])],
      ['a renamed type', () => ctx.db.query('update public.types set name = $2 where id = $1', [typeId, 'Renamed Type'])],
      ['a deleted ad', () => ctx.db.query('delete from public.ads where id = $1', [ads[3]!.id])],
    ];
    for (const [change, write] of changes) {
      const before = await anonText({ brand_ids: [brandId] });
      await write();
      const after = await anonText({ brand_ids: [brandId] });
      expect(after, change).not.toBe(before);
      expect(after, change).toBe(await sqlPage(brandId));
    }
  });

  it('sends a client that accepts compression the shared answer compressed, the same bytes each time, and the new one after a write', async () => {
    const decoded = async (response: Response) => {
      const bytes = Buffer.from(await response.arrayBuffer());
      const encoding = response.headers.get('content-encoding');
      return encoding === 'br' ? brotliDecompressSync(bytes).toString() : encoding === 'gzip' ? gunzipSync(bytes).toString() : bytes.toString();
    };
    const plain = await anonText();
    const first = await call({}, undefined, { 'accept-encoding': 'gzip, deflate, br' });
    expect(first.headers.get('content-encoding')).toBe('br');
    expect(first.headers.get('vary')).toContain('accept-encoding');
    const firstBytes = Buffer.from(await first.clone().arrayBuffer());
    expect(await decoded(first)).toBe(plain);
    const second = await call({}, undefined, { 'accept-encoding': 'br' });
    expect(Buffer.from(await second.arrayBuffer()).equals(firstBytes)).toBe(true);
    const gzip = await call({}, undefined, { 'accept-encoding': 'gzip' });
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
    expect(await decoded(gzip)).toBe(plain);
    expect((await call()).headers.get('content-encoding')).toBeNull();

    await ctx.db.query('update public.ads set requires_subscription = not requires_subscription where id = $1', [ads[0]!.id]);
    const changed = await call({}, undefined, { 'accept-encoding': 'br' });
    const changedText = await decoded(changed);
    expect(changedText).not.toBe(plain);
    expect(changedText).toBe(await sqlPage());
    await ctx.db.query('update public.ads set requires_subscription = not requires_subscription where id = $1', [ads[0]!.id]);
  });

  it('signs next_cursor with the current secret after the secret changes', async () => {
    for (let i = 0; i < 60; i += 1) await newAd(ctx.db, { brandId, categoryId, createdAt: `2026-04-01T08:${String(i).padStart(2, '0')}:00Z` });
    const before = JSON.parse(await anonText()) as { next_cursor: string };
    expect(before.next_cursor).toMatch(/\./);
    await ctx.db.query(`update private.settings set value = $1 where key = 'cursor_secret'`, ['a-new-secret-for-cursors']);
    const after = JSON.parse(await anonText()) as { next_cursor: string };
    expect(after.next_cursor).not.toBe(before.next_cursor);
    expect(JSON.stringify(after)).toBe(JSON.stringify(JSON.parse(await sqlPage())));
    // The new cursor opens the second page; the old one is refused.
    expect((await call({ cursor: after.next_cursor })).status).toBe(200);
    expect((await call({ cursor: before.next_cursor })).status).toBe(400);
  });

  it('never gives a signed-in caller an anonymous answer, nor one caller’s answer to another', async () => {
    await anonText();
    const subscriberToken = await userToken(config, people.subscriber);
    const freeToken = await userToken(config, people.free);
    const [subscriberSql] = await queryAs<{ page: string }>(ctx.db, userActor(people.subscriber), 'select public.list_ads()::text as page');
    const subscriber = await call({}, subscriberToken);
    expect(await subscriber.text()).toBe(subscriberSql!.page);
    const free = await (await call({}, freeToken)).text();
    const [freeSql] = await queryAs<{ page: string }>(ctx.db, userActor(people.free), 'select public.list_ads()::text as page');
    expect(free).toBe(freeSql!.page);
    expect(free).not.toBe(subscriberSql!.page);
    expect(await anonText()).toBe(await sqlPage());
  });

  it('serves one subscriber the answer computed for another, and never to a free account', async () => {
    const pageAs = async (user: Personas[keyof Personas]) => (await call({}, await userToken(config, user))).text();
    // Asked once, so that both classes' answers are kept from here on.
    await pageAs(people.subscriber);
    const subscriberFirst = await pageAs(people.subscriber);
    const [subscriberSql] = await queryAs<{ page: string }>(ctx.db, userActor(people.subscriber), 'select public.list_ads()::text as page');
    expect(subscriberFirst).toBe(subscriberSql!.page);
    const freeFirst = await pageAs(people.free);
    // Changed behind the triggers' back: only a kept answer can still show the old name.
    await renameBrandQuietly('Renamed For Members');
    try {
      // Every caller with access shares the subscriber's answer: the trial, the cancelled-in-period and the admin.
      for (const user of [people.trialing, people.cancelledInPeriod, people.admin]) expect(await pageAs(user)).toBe(subscriberFirst);
      // Every member without access shares the free account's, never the subscribers'.
      for (const user of [people.other, people.expired, people.flagged]) {
        const page = await pageAs(user);
        expect(page).toBe(freeFirst);
        expect(page).not.toBe(subscriberFirst);
      }
    } finally {
      await ctx.db.query('update public.brands set name = $2 where id = $1', [brandId, 'Cached Brand']);
    }
  });

  it('gives a subscriber whose access ended the members’ answer at the next request, with no write to what list_ads reads', async () => {
    const lapsing = await newUser(ctx.db);
    await newSubscription(ctx.db, lapsing, 'active', { tier: 'monthly' });
    const token = await userToken(config, lapsing);
    const before = await (await call({}, token)).text();
    const versionBefore = await version();
    await ctx.db.query(`update public.subscriptions set status = 'canceled', current_period_end = now() - interval '1 day' where user_id = $1`, [lapsing.id]);
    expect(await version()).toBe(versionBefore);
    const after = await (await call({}, token)).text();
    const [memberSql] = await queryAs<{ page: string }>(ctx.db, userActor(lapsing), 'select public.list_ads()::text as page');
    expect(after).toBe(memberSql!.page);
    expect(after).not.toBe(before);
  });

  it('keeps no answer computed while the caller’s access changed, so the class it was read for never gets it', async () => {
    const switching = await newUser(ctx.db);
    const claims = { role: 'authenticated', sub: switching.id, aud: 'authenticated' } as const;
    const cache = new SharedAnswerCache(ctx.db);
    const shared = await cache.callOf(claims, 'list_ads');
    expect(shared?.answerClass).toBe('member');
    const key = 'switching-member-page';
    let computed = 0;
    // The caller subscribes between the read of their class and the call's answer.
    await cache.answer(key, claims, shared!, async () => {
      computed += 1;
      await newSubscription(ctx.db, switching, 'active', { tier: 'monthly' });
      return new Response('{"computed":"with access"}', { status: 200 });
    });
    const member = await newUser(ctx.db);
    const memberCall = await cache.callOf({ role: 'authenticated', sub: member.id, aud: 'authenticated' }, 'list_ads');
    expect(memberCall).toEqual(shared);
    const answer = await cache.answer(key, { role: 'authenticated', sub: member.id, aud: 'authenticated' }, memberCall!, async () => {
      computed += 1;
      return new Response('{"computed":"as a member"}', { status: 200 });
    });
    expect(await answer.text()).toBe('{"computed":"as a member"}');
    expect(computed).toBe(2);
  });

  it('keys answers by arguments and by the headers that shape them', async () => {
    const all = await anonText();
    const brand = await anonText({ brand_ids: [brandId] });
    expect(brand).not.toBe(all);
    expect(brand).toBe(await sqlPage(brandId));
    const stripped = await (await call({}, undefined, { accept: 'application/vnd.pgrst.object+json;nulls=stripped' })).text();
    expect(all).toMatch(/: ?null/);
    expect(stripped).not.toMatch(/: ?null/);
    expect(JSON.parse(stripped).ads.map((ad: { id: string }) => ad.id)).toEqual(JSON.parse(all).ads.map((ad: { id: string }) => ad.id));
    // Errors are not kept: the Black Friday board refuses an anonymous visitor every time.
    for (let i = 0; i < 2; i += 1) expect((await call({ board: 'black-friday' })).status).toBe(401);
  });

  it("keeps one answer per value of the facts filters, the order and the search, each the database's", async () => {
    await ctx.db.query(
      `update public.ads set platforms = case when created_at < '2026-03-03' then array['tiktok'] else array['meta'] end,
              first_seen = current_date - (extract(day from created_at)::int * 7), still_running = created_at >= '2026-03-03',
              last_seen = case when created_at >= '2026-03-03' then null else current_date - 1 end,
              format = 'video', image_text = 'Cached words' where brand_id = $1`,
      [brandId]);
    const queries: Record<string, unknown>[] = [
      {}, { platforms: ['tiktok'] }, { platforms: ['meta'] }, { format: 'video' }, { format: 'carousel' },
      { still_running: true }, { min_running_days: 8 }, { sort: 'longest_running' }, { sort: 'recently_seen' },
      { search: 'cached words', sort: 'relevance' }, { search: 'cached words' },
    ];
    const texts = new Map<string, string>();
    for (const query of queries) {
      const [row] = await queryAs<{ page: string }>(ctx.db, anon, 'select public.list_ads($1::jsonb)::text as page', [JSON.stringify(query)]);
      // Twice: the second is served from what the first left, and both are what SQL answers.
      expect(await anonText(query), JSON.stringify(query)).toBe(row!.page);
      expect(await anonText(query), JSON.stringify(query)).toBe(row!.page);
      texts.set(JSON.stringify(query), row!.page);
    }
    // The filters really change the answer, so a shared answer for the wrong query would show.
    expect(texts.get('{"platforms":["tiktok"]}')).not.toBe(texts.get('{"platforms":["meta"]}'));
    expect(texts.get('{"sort":"longest_running"}')).not.toBe(texts.get('{}'));
    expect(texts.get('{"format":"carousel"}')).not.toBe(texts.get('{"format":"video"}'));
  });

  it('gives every one of many concurrent anonymous calls the same, current answer', async () => {
    await ctx.db.query('update public.brands set name = $2 where id = $1', [brandId, 'Concurrent Brand']);
    const answers = await Promise.all(Array.from({ length: 12 }, () => anonText()));
    const expected = await sqlPage();
    for (const answer of answers) expect(answer).toBe(expected);
  });

  it('works without a cache on a database that does not list the function', async () => {
    await ctx.db.query(`delete from private.anonymous_answer_versions where function_name = 'list_ads'`);
    await api.reloadSchema();
    const first = await anonText();
    await renameBrandQuietly('Uncached Brand');
    const second = await anonText();
    expect(second).not.toBe(first);
    expect(second).toBe(await sqlPage());
    await ctx.db.query(`drop table private.anonymous_answer_versions cascade`);
    await api.reloadSchema();
    await renameBrandQuietly('Still Uncached');
    expect(await anonText()).toBe(await sqlPage());
    expect(await anonText()).toContain('Still Uncached');
  });
});
