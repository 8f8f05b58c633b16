import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { LocalConfig } from '../../local/config.ts';
import { createStorageApi, type StorageApi } from '../../local/storage/storage-api.ts';
import { signJwt } from '../../local/auth/jwt.ts';
import { describeOnEngines } from '../support/engines.ts';
import { grantAdmin, newAd, newBrand, newCategory, newSubscription, newUser, type TestUser } from '../support/factories.ts';
import { clientFor, newLocalConfig, TEST_ORIGIN, userToken } from '../support/local-config.ts';

const webp = (width = 40, height = 30) =>
  sharp({ create: { width, height, channels: 3, background: '#c0392b' } }).webp().toBuffer();
const jpeg = () => sharp({ create: { width: 20, height: 20, channels: 3, background: '#2980b9' } }).jpeg().toBuffer();

describeOnEngines('storage/v1 through supabase-js', (ctx) => {
  let config: LocalConfig & { cleanup(): Promise<void> };
  let storage: StorageApi;
  let admin: TestUser;
  let free: TestUser;
  let subscriber: TestUser;
  const as = async (user?: TestUser) => clientFor(config, storage.handler, user ? await userToken(config, user) : undefined);
  const objectCount = async (bucket: string, name: string) =>
    (await ctx.db.query<{ n: number }>('select count(*)::int as n from storage.objects where bucket_id = $1 and name = $2', [bucket, name])).rows[0]!.n;

  beforeAll(async () => {
    config = await newLocalConfig();
    storage = await createStorageApi({ db: ctx.db, config });
    admin = await newUser(ctx.db);
    await grantAdmin(ctx.db, admin);
    free = await newUser(ctx.db);
    subscriber = await newUser(ctx.db);
    await newSubscription(ctx.db, subscriber, 'active');
  });
  afterAll(async () => {
    await config.cleanup();
  });

  it('lets an admin upload a display variant and serves it through a signed URL only, with ETag, Cache-Control and ranges', async () => {
    const bytes = await webp();
    const client = await as(admin);
    const { data, error } = await client.storage.from('ad-images').upload('f1/480.webp', bytes, { contentType: 'image/webp', cacheControl: '31536000' });
    expect(error).toBeNull();
    expect(data?.fullPath).toBe('ad-images/f1/480.webp');

    // The bucket is private: no public read.
    const publicUrl = client.storage.from('ad-images').getPublicUrl('f1/480.webp').data.publicUrl;
    expect((await storage.handler(new Request(publicUrl))).status).toBe(404);
    const signed = await client.storage.from('ad-images').createSignedUrl('f1/480.webp', 600);
    const url = signed.data!.signedUrl;
    expect(url).toMatch(new RegExp(`^${TEST_ORIGIN}/storage/v1/object/sign/ad-images/f1/480\\.webp\\?token=`));
    const response = await storage.handler(new Request(url));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/webp');
    // Cached no longer than the link lives.
    expect(response.headers.get('cache-control')).toMatch(/^max-age=(599|600)$/);
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);

    const etag = response.headers.get('etag')!;
    expect((await storage.handler(new Request(url, { headers: { 'if-none-match': etag } }))).status).toBe(304);
    const partial = await storage.handler(new Request(url, { headers: { range: 'bytes=0-9' } }));
    expect(partial.status).toBe(206);
    expect(partial.headers.get('content-range')).toBe(`bytes 0-9/${bytes.length}`);
    expect((await partial.arrayBuffer()).byteLength).toBe(10);
  });

  it('refuses uploads by free users and anonymous visitors and writes nothing', async () => {
    const bytes = await webp();
    for (const client of [await as(free), await as()]) {
      const { error } = await client.storage.from('ad-images').upload('intruder/480.webp', bytes, { contentType: 'image/webp' });
      expect(error?.message).toBe('new row violates row-level security policy');
    }
    expect(await objectCount('ad-images', 'intruder/480.webp')).toBe(0);
    expect(await storage.sweep()).toBe(0);
  });

  it('refuses an existing name without upsert, and replaces the file with upsert', async () => {
    const client = await as(admin);
    await client.storage.from('ad-images').upload('f2/480.webp', await webp(10, 10), { contentType: 'image/webp' });
    const again = await client.storage.from('ad-images').upload('f2/480.webp', await webp(12, 12), { contentType: 'image/webp' });
    expect(again.error?.message).toBe('The resource already exists');
    const replaced = await client.storage.from('ad-images').upload('f2/480.webp', await webp(14, 14), { contentType: 'image/webp', upsert: true });
    expect(replaced.error).toBeNull();
    const served = await storage.handler(new Request((await client.storage.from('ad-images').createSignedUrl('f2/480.webp', 60)).data!.signedUrl));
    expect((await sharp(Buffer.from(await served.arrayBuffer())).metadata()).width).toBe(14);
    expect(await storage.sweep()).toBe(0);
  });

  it('answers oversized uploads with 413, wrong types with 415 and unsafe names with 400, writing nothing', async () => {
    const client = await as(admin);
    const big = Buffer.alloc(5 * 1024 * 1024 + 1, 1);
    const tooBig = await client.storage.from('ad-images').upload('big/480.webp', big, { contentType: 'image/webp' });
    expect((tooBig.error as { statusCode?: string } | null)?.statusCode).toBe('413');
    const html = await client.storage.from('ad-images').upload('page/480.webp', Buffer.from('<script>alert(1)</script>'), { contentType: 'text/html' });
    expect((html.error as { statusCode?: string } | null)?.statusCode).toBe('415');
    // Encoded slashes reach the server undecoded, as a raw HTTP client can send them.
    for (const name of ['..%2Fescape.webp', 'a%2F..%2F..%2Fb.webp', 'a//b.webp', 'a%2F.%2Fb.webp', 'a%5Cb.webp', 'a%00b.webp']) {
      const response = await storage.handler(
        new Request(`${TEST_ORIGIN}/storage/v1/object/ad-images/${name}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${await userToken(config, admin)}`, 'content-type': 'image/webp' },
          body: await webp(),
        }),
      );
      expect(response.status).toBe(400);
    }
    const { rows } = await ctx.db.query<{ n: number }>(`select count(*)::int as n from storage.objects where name like '%big%' or name like '%page%' or name like '%escape%'`);
    expect(rows[0]!.n).toBe(0);
    expect(await storage.sweep()).toBe(0);
  });

  it('lists the ad-images bucket for admins only', async () => {
    const adminList = await (await as(admin)).storage.from('ad-images').list('f1');
    expect(adminList.data?.map((entry) => entry.name)).toEqual(['480.webp']);
    const root = await (await as(admin)).storage.from('ad-images').list();
    expect(root.data?.map((entry) => entry.name)).toEqual(expect.arrayContaining(['f1', 'f2']));
    expect(root.data?.find((entry) => entry.name === 'f1')?.id).toBeNull();
    for (const client of [await as(free), await as(subscriber), await as()]) {
      const { data } = await client.storage.from('ad-images').list('f1');
      expect(data).toEqual([]);
    }
  });

  it('signs original URLs for admins only (subscribers download through get_ad_original_download), and refuses expired or tampered signatures', async () => {
    await (await as(admin)).storage.from('ad-originals').upload('o1/original.jpg', await jpeg(), { contentType: 'image/jpeg' });
    const signed = await (await as(admin)).storage.from('ad-originals').createSignedUrl('o1/original.jpg', 60);
    expect(signed.error).toBeNull();
    const ok = await storage.handler(new Request(signed.data!.signedUrl));
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('image/jpeg');

    for (const user of [subscriber, free]) {
      const refused = await (await as(user)).storage.from('ad-originals').createSignedUrl('o1/original.jpg', 60);
      expect(refused.error?.message).toBe('Object not found');
    }
    expect((await storage.handler(new Request(`${TEST_ORIGIN}/storage/v1/object/public/ad-originals/o1/original.jpg`))).status).toBe(404);
    const download = await (await as(free)).storage.from('ad-originals').download('o1/original.jpg');
    expect(download.data).toBeNull();

    const expired = await signJwt({ role: 'anon', url: 'ad-originals/o1/original.jpg', iat: 1_600_000_000, exp: 1_600_000_060 }, config.JWT_SECRET);
    expect((await storage.handler(new Request(`${TEST_ORIGIN}/storage/v1/object/sign/ad-originals/o1/original.jpg?token=${expired}`))).status).toBe(400);
    const otherObject = signed.data!.signedUrl.replace('o1/original.jpg', 'o2/original.jpg');
    expect((await storage.handler(new Request(otherObject))).status).toBe(400);
    const tampered = `${signed.data!.signedUrl.slice(0, -3)}abc`;
    expect((await storage.handler(new Request(tampered))).status).toBe(400);
  });

  it('moves, copies, describes and removes objects as an admin', async () => {
    const client = await as(admin);
    await client.storage.from('banners').upload('tmp/banner.webp', await webp(), { contentType: 'image/webp' });
    expect((await client.storage.from('banners').move('tmp/banner.webp', 'library/banner.webp')).error).toBeNull();
    expect((await client.storage.from('banners').copy('library/banner.webp', 'library/copy.webp')).error).toBeNull();
    const info = await client.storage.from('banners').info('library/copy.webp');
    expect(info.data?.contentType ?? (info.data as { content_type?: string } | null)?.content_type).toBe('image/webp');
    const removed = await client.storage.from('banners').remove(['library/banner.webp', 'library/copy.webp']);
    expect(removed.data).toHaveLength(2);
    expect(await objectCount('banners', 'library/copy.webp')).toBe(0);
    expect(await storage.sweep()).toBe(0);
  });

  it('answers every timestamp as ISO 8601 in UTC with milliseconds, as hosted Storage does (list, info, remove, buckets)', async () => {
    const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
    const client = await as(admin);
    await client.storage.from('banners').upload('times/one.webp', await webp(), { contentType: 'image/webp' });
    const listed = (await client.storage.from('banners').list('times')).data!.find((entry) => entry.name === 'one.webp')!;
    for (const value of [listed.created_at, listed.updated_at, listed.last_accessed_at]) expect(value).toMatch(ISO);
    const stored = (await ctx.db.query<{ at: string }>("select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"') as at from storage.objects where bucket_id = 'banners' and name = 'times/one.webp'")).rows[0]!.at;
    expect(listed.created_at).toBe(stored);
    const info = (await client.storage.from('banners').info('times/one.webp')).data as unknown as { createdAt?: string; created_at?: string; lastModified?: string; last_modified?: string };
    expect(info.createdAt ?? info.created_at).toMatch(ISO);
    expect(info.lastModified ?? info.last_modified).toMatch(ISO);
    const removed = (await client.storage.from('banners').remove(['times/one.webp'])).data!;
    expect(removed[0]!.created_at).toMatch(ISO);
    const service = await signJwt({ role: 'service_role', iat: Math.floor(Date.now() / 1000), exp: Math.floor(Date.now() / 1000) + 60 }, config.JWT_SECRET);
    const buckets = (await (await storage.handler(new Request(`${TEST_ORIGIN}/storage/v1/bucket`, { headers: { authorization: `Bearer ${service}`, apikey: service } }))).json()) as Array<{ created_at: string; updated_at: string }>;
    expect(buckets.length).toBeGreaterThan(0);
    for (const bucket of buckets) {
      expect(bucket.created_at).toMatch(ISO);
      expect(bucket.updated_at).toMatch(ISO);
    }
  });

  it("renders through render/image only the product's variants (480 and 960 wide, quality 80, WebP or as stored), once each", async () => {
    await (await as(admin)).storage.from('brand-logos').upload('b1/logo.webp', await webp(1200, 600), { contentType: 'image/webp' });
    const render = (query: string) => storage.handler(new Request(`${TEST_ORIGIN}/storage/v1/render/image/public/brand-logos/b1/logo.webp?${query}`));
    const response = await render('width=480&format=webp');
    expect(response.status).toBe(200);
    const first = Buffer.from(await response.arrayBuffer());
    expect(await sharp(first).metadata()).toMatchObject({ width: 480, height: 240, format: 'webp' });
    const again = Buffer.from(await (await render('width=480&format=webp&quality=80')).arrayBuffer());
    expect(again.equals(first)).toBe(true);
    expect((await sharp(Buffer.from(await (await render('width=960')).arrayBuffer())).metadata()).width).toBe(960);

    for (const [query, problem] of [
      ['width=481', 'Invalid width'],
      ['width=480&quality=79', 'Invalid quality'],
      ['width=480&format=avif', 'Invalid format'],
      ['width=480&height=100', 'Invalid height'],
    ] as const) {
      const refused = await render(query);
      expect(refused.status, query).toBe(400);
      expect(((await refused.json()) as { message: string }).message).toBe(
        `${problem}: this server renders widths 480 and 960, quality 80, format origin or webp${problem === 'Invalid height' ? ', keeping the aspect' : ''}`,
      );
    }
  });

  it('removes the files of a deleted ad from storage and keeps rows and files in agreement', async () => {
    const brand = await newBrand(ctx.db);
    const category = await newCategory(ctx.db);
    const ad = await newAd(ctx.db, { brandId: brand.id, categoryId: category.id });
    await ctx.db.query('delete from public.ads where id = $1', [ad.id]);
    expect(await storage.drainDeletions()).toBe(4);
    expect(await objectCount('ad-images', ad.display_480_path)).toBe(0);
    expect((await ctx.db.query('select 1 from public.storage_deletions')).rows).toHaveLength(0);
  });

  it('sweeps a file whose row never committed', async () => {
    const bytes = await webp();
    await storage.writeObject('ad-images', 'sweep/480.webp', bytes, 'image/webp');
    const { rows } = await ctx.db.query<{ version: string }>(`select version from storage.objects where name = 'sweep/480.webp'`);
    await ctx.db.query(`delete from storage.objects where name = 'sweep/480.webp'`);
    expect(await storage.files.size('ad-images', rows[0]!.version)).toBe(bytes.length);
    expect(await storage.sweep()).toBe(1);
    expect(await storage.files.size('ad-images', rows[0]!.version)).toBeNull();
  });
});
