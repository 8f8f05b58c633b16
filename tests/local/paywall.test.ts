import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import sharp from 'sharp';
import WebSocket from 'ws';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Queryable } from '../../local/db/database.ts';
import { startLocalStack, type LocalStack } from '../../local/stack.ts';
import { describeOnEngines } from '../support/engines.ts';
import { grantAdmin, newBrand, newCategory, newSubscription, newUser, type TestUser } from '../support/factories.ts';
import { userToken } from '../support/local-config.ts';

interface StoredAd {
  id: string;
  folder: string;
  original_path: string;
  display_480_path: string;
  display_960_path: string;
  preview_path: string;
}

interface ListedAd {
  created_at: string;
  id: string;
  is_clear: boolean;
  preview_url: string | null;
  display_480_url: string | null;
  display_960_url: string | null;
  preview_path: string;
}

const image = (background: string, width: number) =>
  sharp({ create: { width, height: Math.round(width * 1.25), channels: 3, background } }).webp().toBuffer();

/** An ad whose four stored images are real files in the stack's storage, as an upload leaves them. */
async function newAdWithFiles(
  stack: LocalStack,
  db: Queryable,
  options: { brandId: string; categoryId: string; createdAt: string; requiresSubscription?: boolean },
): Promise<StoredAd> {
  const folder = randomBytes(16).toString('hex');
  const paths = {
    original_path: `${folder}/original.jpg`,
    display_480_path: `${folder}/480.webp`,
    display_960_path: `${folder}/960.webp`,
    preview_path: `previews/${randomBytes(16).toString('hex')}.webp`,
  };
  const jpeg = await sharp({ create: { width: 40, height: 50, channels: 3, background: '#2a9d8f' } }).jpeg().toBuffer();
  await stack.storage.writeObject('ad-originals', paths.original_path, jpeg, 'image/jpeg');
  await stack.storage.writeObject('ad-images', paths.display_480_path, await image('#e76f51', 48), 'image/webp');
  await stack.storage.writeObject('ad-images', paths.display_960_path, await image('#e76f51', 96), 'image/webp');
  await stack.storage.writeObject('ad-images', paths.preview_path, await image('#cccccc', 8), 'image/webp');
  const { rows } = await db.query<{ id: string }>(
    `insert into public.ads (brand_id, category_id, created_at, requires_subscription,
                             original_path, display_480_path, display_960_path, preview_path, width, height, thumbhash)
     values ($1, $2, $3, $4, $5, $6, $7, $8, 1080, 1350, 'YJqGPQw7sFlslqhFafSE+Q6oJ1h2iHB2Rw==') returning id`,
    [options.brandId, options.categoryId, options.createdAt, options.requiresSubscription ?? true,
      paths.original_path, paths.display_480_path, paths.display_960_path, paths.preview_path],
  );
  return { id: rows[0]!.id, folder, ...paths };
}

describeOnEngines('the paywall: a locked ad’s images stay out of reach of anonymous and free users', (ctx) => {
  let stack: LocalStack;
  let dataDir: string;
  let free: TestUser;
  let brand: { id: string; name: string };
  let ads: StoredAd[] = [];
  /** Every request an anonymous or free caller made in this file, with the body of its answer. */
  const exchanges: { sent: string; received: string }[] = [];

  const recordingFetch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const url = input instanceof Request ? input.url : String(input);
    exchanges.push({ sent: `${decodeURIComponent(url)} ${typeof init?.body === 'string' ? init.body : ''}`, received: await response.clone().text() });
    return response;
  };
  const clientAs = async (user: TestUser | null): Promise<SupabaseClient> =>
    createClient(stack.url, stack.config.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      // Node 20 has no global WebSocket.
      realtime: { transport: WebSocket as never },
      global: {
        fetch: recordingFetch,
        headers: user ? { Authorization: `Bearer ${await userToken(stack.config, user)}` } : {},
      },
    });
  const callers = async () => ({ anonymous: await clientAs(null), free: await clientAs(free) });
  /** Premium ads outside the free sample: locked for both callers. */
  let lockedAds: StoredAd[] = [];
  const locked = () => lockedAds[lockedAds.length - 1]!;
  /** An ad that needs no subscription: clear for everyone. */
  const open = () => ads[4]!;
  const restGet = async (user: TestUser | null, pathAndQuery: string) =>
    recordingFetch(`${stack.url}/rest/v1/${pathAndQuery}`, {
      headers: {
        apikey: stack.config.anonKey,
        authorization: `Bearer ${user ? await userToken(stack.config, user) : stack.config.anonKey}`,
      },
    });

  beforeAll(async () => {
    dataDir = `.tmp/paywall-${process.pid}-${ctx.engine}`;
    stack = await startLocalStack({ db: ctx.db, port: 0, env: { DATA_DIR: dataDir } });
    free = await newUser(ctx.db);
    brand = await newBrand(ctx.db);
    const category = await newCategory(ctx.db);
    const start = Date.parse('2026-02-01T00:00:00Z');
    ads = [];
    // Twelve ads, newest first; the fifth needs no subscription.
    for (let i = 0; i < 12; i += 1) {
      ads.push(
        await newAdWithFiles(stack, ctx.db, {
          brandId: brand.id,
          categoryId: category.id,
          createdAt: new Date(start - i * 60_000).toISOString(),
          requiresSubscription: i !== 4,
        }),
      );
    }
    const sample = await ctx.db.query<{ id: string }>('select id from public.ads where free_sample');
    const sampled = new Set(sample.rows.map((row) => row.id));
    lockedAds = ads.filter((ad, i) => i !== 4 && !sampled.has(ad.id));
  });
  afterAll(async () => {
    await stack?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('refuses to select the display or original path columns of ads through rest/v1', async () => {
    for (const client of Object.values(await callers())) {
      for (const column of ['display_480_path', 'display_960_path', 'original_path']) {
        const { data, error } = await client.from('ads').select(`id, ${column}`).eq('id', locked().id);
        expect(data).toBeNull();
        expect(error?.code).toBe('42501');
      }
      const everything = await client.from('ads').select('*').eq('id', locked().id);
      expect(everything.data).toBeNull();
      expect(everything.error?.code).toBe('42501');
    }
  });

  it('has no path column but the blurred preview on ads_with_flags', async () => {
    for (const client of Object.values(await callers())) {
      for (const column of ['display_480_path', 'display_960_path', 'original_path', 'image_path']) {
        const { data, error } = await client.from('ads_with_flags').select(`id, ${column}`).eq('id', locked().id);
        expect(data).toBeNull();
        expect(error).not.toBeNull();
      }
      const { data, error } = await client.from('ads_with_flags').select('*').eq('id', locked().id);
      expect(error).toBeNull();
      expect(Object.keys(data![0]!).filter((key) => key.endsWith('_path'))).toEqual(['preview_path', 'brand_logo_path']);
    }
  });

  it('refuses the path columns embedded through a relation', async () => {
    for (const client of Object.values(await callers())) {
      const fromBrand = await client.from('brands').select('name, ads(id, display_960_path)').eq('id', brand.id);
      expect(fromBrand.data).toBeNull();
      expect(fromBrand.error?.code).toBe('42501');
      const fromTags = await client.from('ad_tags').select('ad_id, ads(original_path)');
      expect(fromTags.data).toBeNull();
      expect(fromTags.error?.code).toBe('42501');
    }
  });

  it('lists and shows a locked ad with a link to its blurred preview only, never to a display variant', async () => {
    for (const client of Object.values(await callers())) {
      const { data, error } = await client.rpc('list_ads', { p_query: { board: 'library' } });
      expect(error).toBeNull();
      const listed = (data as { ads: ListedAd[] }).ads;
      // Eleven premium ads: the free sample is ceil(10%) of them, two, and leads the page with the free ad.
      const clear = listed.filter((ad) => ad.is_clear).map((ad) => ad.id);
      expect(clear).toHaveLength(3);
      expect(clear).toContain(open().id);
      expect(listed.slice(0, 3).every((ad) => ad.is_clear)).toBe(true);
      expect(listed.filter((ad) => !ad.is_clear).map((ad) => ad.id)).toEqual(lockedAds.map((ad) => ad.id));
      for (const ad of listed.filter((row) => !row.is_clear)) {
        expect(ad.display_480_url).toBeNull();
        expect(ad.display_960_url).toBeNull();
        expect(ad.preview_url).toMatch(/^object\/sign\/ad-images\/previews\/[0-9a-f]+\.webp\?token=/);
      }
      const detail = await client.rpc('get_ad', { p_id: locked().id });
      expect(detail.error).toBeNull();
      expect(detail.data).toMatchObject({ id: locked().id, is_clear: false, display_480_url: null, display_960_url: null });
      const filtered = await client.rpc('list_ads', { p_query: { board: 'library', brand_ids: [brand.id] } });
      // A filter shows exactly what the unfiltered library does clear.
      expect((filtered.data as { ads: ListedAd[] }).ads.filter((ad) => ad.is_clear).map((ad) => ad.id)).toEqual(clear);
    }
  });

  it('serves no ad image without a signed link: the ad-images bucket is private', async () => {
    for (const ad of [open(), locked()]) {
      for (const path of [ad.display_480_path, ad.display_960_path, ad.preview_path]) {
        const response = await recordingFetch(`${stack.url}/storage/v1/object/public/ad-images/${path}`);
        expect(response.status, path).toBe(404);
      }
    }
  });

  it('shows nothing when listing the ad-images and ad-originals buckets', async () => {
    for (const client of Object.values(await callers())) {
      for (const bucket of ['ad-images', 'ad-originals']) {
        for (const folder of ['', locked().folder, 'previews']) {
          const { data, error } = await client.storage.from(bucket).list(folder);
          expect(error).toBeNull();
          expect(data).toEqual([]);
        }
      }
    }
  });

  it('answers 404 to a request for an original without a signed URL', async () => {
    const name = locked().original_path;
    const token = await userToken(stack.config, free);
    for (const authorization of [`Bearer ${stack.config.anonKey}`, `Bearer ${token}`]) {
      for (const route of [`object/public/ad-originals/${name}`, `object/authenticated/ad-originals/${name}`, `object/ad-originals/${name}`]) {
        const response = await recordingFetch(`${stack.url}/storage/v1/${route}`, { headers: { apikey: stack.config.anonKey, authorization } });
        expect(response.status, route).toBe(404);
      }
    }
  });

  it('refuses to sign a URL for an original to a free user or an anonymous visitor', async () => {
    for (const client of Object.values(await callers())) {
      for (const ad of [locked(), open()]) {
        const { data, error } = await client.storage.from('ad-originals').createSignedUrl(ad.original_path, 60);
        expect(data).toBeNull();
        expect(error).not.toBeNull();
      }
      const many = await client.storage.from('ad-originals').createSignedUrls([locked().original_path], 60);
      expect(many.data?.every((row) => row.signedUrl === null || row.signedUrl === '')).toBe(true);
    }
  });

  it('has no route to more than 60 ads at once: no size parameter, and a forged cursor is refused', async () => {
    for (const client of Object.values(await callers())) {
      const sized = await client.rpc('list_ads', { p_query: { board: 'library' }, p_limit: 500 });
      expect(sized.data).toBeNull();
      expect(sized.error?.code).toBe('PGRST202');
      const sizedQuery = await client.rpc('list_ads', { p_query: { board: 'library', limit: 500 } });
      expect(sizedQuery.data).toBeNull();
      expect(sizedQuery.error).toMatchObject({ code: 'P0001', details: 'invalid_filter' });
      const payload = Buffer.from(JSON.stringify({ q: 'x', k: '2030-01-01T00:00:00.000000Z', i: locked().id })).toString('base64url');
      const forged = await client.rpc('list_ads', { p_query: { board: 'library', cursor: `${payload}.${'A'.repeat(24)}` } });
      expect(forged.data).toBeNull();
      expect(forged.error).toMatchObject({ code: '22023', details: 'invalid_cursor' });
    }
  });

  it('refuses ad navigation (get_ad_neighbours) to a free user and an anonymous visitor', async () => {
    for (const client of Object.values(await callers())) {
      const { data, error } = await client.rpc('get_ad_neighbours', { p_id: open().id });
      expect(data).toBeNull();
      expect(error).toMatchObject({ code: '42501', details: 'subscription_required' });
    }
  });

  it('hands a locked ad’s folder to nobody: no guessed path reaches it and no answer contains it', async () => {
    // Everything the library, the detail page and the filters ask for, as the SPA does.
    for (const client of Object.values(await callers())) {
      await client.rpc('list_ads', { p_query: { board: 'library' } });
      await client.rpc('list_ads', { p_query: { board: 'library', search: brand.name } });
      for (const ad of ads) await client.rpc('get_ad', { p_id: ad.id });
      await client.from('ads_with_flags').select('*');
      await client.from('ads').select('id, brand_id, category_id, created_at, preview_path, width, height, thumbhash');
      await client.from('brands').select('id, name, logo_path');
    }
    for (const user of [null, free]) {
      const response = await restGet(user, `rpc/list_ads?p_query=${encodeURIComponent(JSON.stringify({ board: 'library' }))}`);
      expect(response.status).toBe(200);
    }

    // A clear ad's link shows its shape; the locked ad's id or a neighbour's name in its place leads nowhere.
    const listed = ((await (await callers()).anonymous.rpc('list_ads', { p_query: { board: 'library' } })).data as { ads: ListedAd[] }).ads;
    const clearLink = listed.find((ad) => ad.id === open().id)!.display_960_url!;
    expect(clearLink).toContain(`/${open().folder}/960.webp?token=`);
    for (const guess of [`${locked().id}/960.webp`, `${locked().id.replaceAll('-', '')}/960.webp`, `${brand.id}/960.webp`, locked().display_960_path]) {
      const response = await recordingFetch(`${stack.url}/storage/v1/${clearLink.replace(`${open().folder}/960.webp`, guess)}`);
      expect(response.status).toBe(400);
    }
    const clearResponse = await recordingFetch(`${stack.url}/storage/v1/${clearLink}`);
    expect(clearResponse.status).toBe(200);

    const answers = exchanges.map((exchange) => exchange.received).join('\n');
    expect(answers).toContain(open().folder);
    for (const ad of lockedAds) {
      // Answers to requests that named the folder themselves (and were refused) may echo it; no other may.
      const all = exchanges.filter((exchange) => !exchange.sent.includes(ad.folder)).map((exchange) => exchange.received).join('\n');
      expect(all).not.toContain(ad.folder);
      expect(all).not.toContain(ad.display_480_path);
      expect(all).not.toContain(ad.display_960_path);
      expect(all).not.toContain(ad.original_path);
    }
  });
});

describeOnEngines('the paywall: the library comes 60 ads at a time, in pages only the server starts', (ctx) => {
  let stack: LocalStack;
  let dataDir: string;
  let free: TestUser;
  let brandId: string;

  const clientAs = async (user: TestUser | null): Promise<SupabaseClient> =>
    createClient(stack.url, stack.config.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      realtime: { transport: WebSocket as never },
      global: { headers: user ? { Authorization: `Bearer ${await userToken(stack.config, user)}` } : {} },
    });
  type Page = { ads: ListedAd[]; next_cursor: string | null };

  beforeAll(async () => {
    dataDir = `.tmp/paywall-pages-${process.pid}-${ctx.engine}`;
    stack = await startLocalStack({ db: ctx.db, port: 0, env: { DATA_DIR: dataDir } });
    free = await newUser(ctx.db);
    brandId = (await newBrand(ctx.db)).id;
    const categoryId = (await newCategory(ctx.db)).id;
    const start = Date.parse('2026-03-01T00:00:00Z');
    for (let i = 0; i < 65; i += 1) {
      await newAdWithFiles(stack, ctx.db, { brandId, categoryId, createdAt: new Date(start - i * 60_000).toISOString() });
    }
  });
  afterAll(async () => {
    await stack?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('serves 60 ads with a cursor, then the rest; the cursor fits only its own query and cannot be altered', async () => {
    for (const client of [await clientAs(null), await clientAs(free)]) {
      const first = await client.rpc('list_ads', { p_query: { board: 'library' } });
      expect(first.error).toBeNull();
      const page = first.data as Page;
      expect(page.ads).toHaveLength(60);
      expect(page.ads.filter((ad) => ad.is_clear)).toHaveLength(6);
      expect(page.next_cursor).toEqual(expect.any(String));

      const second = await client.rpc('list_ads', { p_query: { board: 'library', cursor: page.next_cursor } });
      expect((second.data as Page).ads).toHaveLength(5);
      expect((second.data as Page).next_cursor).toBeNull();

      // The same cursor on another query (a brand filter) is refused.
      const elsewhere = await client.rpc('list_ads', { p_query: { board: 'library', brand_ids: [brandId], cursor: page.next_cursor } });
      expect(elsewhere.error).toMatchObject({ code: '22023', details: 'invalid_cursor' });

      // A cursor whose payload is changed to start at another ad, signature kept, is refused.
      const [payload, signature] = page.next_cursor!.split('.');
      const position = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')) as Record<string, unknown>;
      // The page's last ad in the query's order (the oldest: clear ads are listed first), by its id and its key in
      // the order, newest first: its created_at.
      const oldest = page.ads.reduce((last, ad) => (ad.created_at < last.created_at ? ad : last));
      expect(position).toMatchObject({ i: oldest.id, k: oldest.created_at });
      const altered = { ...position, i: page.ads[5]!.id, k: page.ads[5]!.created_at };
      const forged = await client.rpc('list_ads', {
        p_query: { board: 'library', cursor: `${Buffer.from(JSON.stringify(altered)).toString('base64url')}.${signature}` },
      });
      expect(forged.data).toBeNull();
      expect(forged.error).toMatchObject({ code: '22023', details: 'invalid_cursor' });
    }
  });
});

describeOnEngines('the paywall: image links that die, originals only through the download call', (ctx) => {
  let stack: LocalStack;
  let dataDir: string;
  let subscriber: TestUser;
  let former: TestUser;
  let admin: TestUser;
  let ads: StoredAd[] = [];
  /** The clock Storage checks links against, moved by the tests. */
  let now = Date.now();

  const clientAs = async (user: TestUser | null): Promise<SupabaseClient> =>
    createClient(stack.url, stack.config.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      realtime: { transport: WebSocket as never },
      global: { headers: user ? { Authorization: `Bearer ${await userToken(stack.config, user)}` } : {} },
    });
  const firstPage = async (user: TestUser | null) => {
    const { data, error } = await (await clientAs(user)).rpc('list_ads', { p_query: { board: 'library' } });
    expect(error).toBeNull();
    return (data as { ads: ListedAd[] }).ads;
  };
  const premiumLinks = (listed: ListedAd[], sampled: Set<string>) =>
    listed.filter((ad) => !sampled.has(ad.id)).flatMap((ad) => [ad.display_480_url, ad.display_960_url]).filter((link) => link !== null);
  const sampledIds = async () => new Set((await ctx.db.query<{ id: string }>('select id from public.ads where free_sample')).rows.map((row) => row.id));

  beforeAll(async () => {
    dataDir = `.tmp/paywall-links-${process.pid}-${ctx.engine}`;
    stack = await startLocalStack({ db: ctx.db, port: 0, env: { DATA_DIR: dataDir }, clock: () => now });
    subscriber = await newUser(ctx.db);
    await newSubscription(ctx.db, subscriber, 'active');
    former = await newUser(ctx.db);
    admin = await newUser(ctx.db);
    await grantAdmin(ctx.db, admin);
    const brandId = (await newBrand(ctx.db, 'Lumen & Co')).id;
    const categoryId = (await newCategory(ctx.db)).id;
    const start = Date.parse('2026-04-01T00:00:00Z');
    ads = [];
    for (let i = 0; i < 12; i += 1) {
      ads.push(await newAdWithFiles(stack, ctx.db, { brandId, categoryId, createdAt: new Date(start - i * 60_000).toISOString() }));
    }
  });
  afterAll(async () => {
    await stack?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('refuses a premium image link after its window, by the clock Storage reads', async () => {
    now = Date.now();
    const listed = await firstPage(subscriber);
    const link = premiumLinks(listed, await sampledIds())[0]!;
    const token = JSON.parse(Buffer.from(new URL(`http://x/${link}`).searchParams.get('token')!.split('.')[1]!, 'base64url').toString('utf8'));
    // Cut per 12-hour window, valid for 24 hours from the window's start: 12 to 24 hours after it was handed out.
    expect(token.iat % 43_200).toBe(0);
    expect(token.exp - token.iat).toBe(86_400);
    expect(token.exp * 1000 - Date.now()).toBeLessThanOrEqual(86_400_000);
    expect((await fetch(`${stack.url}/storage/v1/${link}`)).status).toBe(200);
    now = token.exp * 1000 - 1000;
    const lastSecond = await fetch(`${stack.url}/storage/v1/${link}`);
    expect(lastSecond.status).toBe(200);
    // No cache may keep the answer past the link's end.
    expect(lastSecond.headers.get('cache-control')).toBe('max-age=1');
    now = token.exp * 1000 + 1000;
    const late = await fetch(`${stack.url}/storage/v1/${link}`);
    expect(late.status).toBe(400);
    expect(await late.json()).toMatchObject({ error: 'InvalidSignature' });
    now = Date.now();
  });

  it('hands every viewer of an ad the same link during a window, so caches keep working', async () => {
    const [a, b] = [await firstPage(subscriber), await firstPage(admin)];
    expect(a.map((ad) => ad.display_960_url)).toEqual(b.map((ad) => ad.display_960_url));
    const anonymous = await firstPage(null);
    const sampled = await sampledIds();
    for (const ad of anonymous.filter((row) => sampled.has(row.id))) {
      expect(ad.display_960_url).toBe(a.find((row) => row.id === ad.id)!.display_960_url);
    }
  });

  it('serves a former subscriber no premium link on the next listing', async () => {
    const subscription = await newSubscription(ctx.db, former, 'active');
    expect(premiumLinks(await firstPage(former), await sampledIds())).toHaveLength(2 * 10);
    // The subscription ends (a payment failed past its grace, a trial ran out): the next page has only the sample's links.
    await ctx.db.query(`update public.subscriptions set status = 'canceled', current_period_end = now() - interval '1 second' where id = $1`, [subscription]);
    const after = await firstPage(former);
    expect(premiumLinks(after, await sampledIds())).toEqual([]);
    expect(after.filter((ad) => ad.is_clear).map((ad) => ad.id).sort()).toEqual([...(await sampledIds())].sort());
  });

  it('refuses to list or sign in the originals bucket to anyone but an admin, and refuses a 10-year signature', async () => {
    for (const user of [subscriber, former, null]) {
      const client = await clientAs(user);
      expect((await client.storage.from('ad-originals').list('')).data).toEqual([]);
      const tenYears = await client.storage.from('ad-originals').createSignedUrl(ads[3]!.original_path, 315_360_000);
      expect(tenYears.data).toBeNull();
      expect(tenYears.error).not.toBeNull();
      const many = await client.storage.from('ad-originals').createSignedUrls([ads[3]!.original_path], 315_360_000);
      expect(many.data?.every((row) => !row.signedUrl)).toBe(true);
    }
    const listed = await (await clientAs(admin)).storage.from('ad-originals').list(ads[3]!.folder);
    expect(listed.data?.map((entry) => entry.name)).toEqual(['original.jpg']);
  });

  it('downloads an original for a subscriber through a 5-minute link under the brand\'s name, and for nobody else', async () => {
    const { data, error } = await (await clientAs(subscriber)).rpc('get_ad_original_download', { p_id: ads[3]!.id });
    expect(error).toBeNull();
    const download = data as { url: string; file_name: string; expires_at: string };
    expect(download.file_name).toBe(`lumen-co-${ads[3]!.id.slice(0, 8)}.jpg`);
    const token = JSON.parse(Buffer.from(new URL(`http://x/${download.url}`).searchParams.get('token')!.split('.')[1]!, 'base64url').toString('utf8'));
    expect(token.exp - token.iat).toBe(300);
    now = Date.now();
    const response = await fetch(`${stack.url}/storage/v1/${download.url}&download=${download.file_name}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/jpeg');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${download.file_name}"`);
    now = token.exp * 1000 + 1000;
    expect((await fetch(`${stack.url}/storage/v1/${download.url}`)).status).toBe(400);
    now = Date.now();
    for (const user of [former, null]) {
      const refused = await (await clientAs(user)).rpc('get_ad_original_download', { p_id: ads[3]!.id });
      expect(refused.data).toBeNull();
      expect(refused.error).toMatchObject({ code: '42501', details: 'subscription_required' });
    }
  });
});
