import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalConfig } from '../../local/config.ts';
import { muxWebm, vp8FrameOfWebp } from '../../local/seed/webm-muxer.ts';
import { writeImageLinkSecret } from '../../local/storage/image-link-secret.ts';
import { createStorageApi, type StorageApi } from '../../local/storage/storage-api.ts';
import { isGeneratedVideoName, sniffImageFormat, sniffVideoFormat, uploadMaxBytesFor } from '../../local/storage/upload-checks.ts';
import { anon, queryAs, userActor } from '../support/acting.ts';
import { describeOnEngines } from '../support/engines.ts';
import { grantAdmin, newAd, newBrand, newCategory, newSubscription, newUser, type TestUser } from '../support/factories.ts';
import { clientFor, newLocalConfig, TEST_ORIGIN, userToken } from '../support/local-config.ts';

const MiB = 1024 * 1024;

/** A real WebM of a few frames, as the demo seeder makes them. */
async function webm(frameCount = 24): Promise<Buffer> {
  const frames = await Promise.all(
    Array.from({ length: frameCount }, async (_, index) =>
      vp8FrameOfWebp(new Uint8Array(await sharp({ create: { width: 48, height: 64, channels: 3, background: { r: index * 10, g: 80, b: 160 } } }).webp({ quality: 50 }).toBuffer())),
    ),
  );
  return Buffer.from(muxWebm({ width: 48, height: 64, fps: 12, frames }));
}

function box(type: string, body: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.writeUInt32BE(8 + body.length);
  header.write(type, 4, 'ascii');
  return Buffer.concat([header, body]);
}

/** The top-level shape of an MP4 (ftyp, mdat, moov); the checks read its boxes, never its media. */
const mp4 = (withMovie = true, brand = 'isom') =>
  Buffer.concat([
    box('ftyp', Buffer.concat([Buffer.from(brand, 'ascii'), Buffer.alloc(4), Buffer.from('isomiso2mp41', 'ascii')])),
    box('mdat', randomBytes(2048)),
    ...(withMovie ? [box('moov', box('mvhd', Buffer.alloc(100)))] : []),
  ]);

describe('video upload checks', () => {
  it('tells MP4 and WebM by their bytes, and keeps AVIF, images and text out', async () => {
    expect(sniffVideoFormat(await webm(2))).toBe('video/webm');
    expect(sniffVideoFormat(mp4())).toBe('video/mp4');
    expect(sniffVideoFormat(mp4(true, 'avif'))).toBeNull();
    expect(sniffImageFormat(mp4(true, 'avif'))).toBe('image/avif');
    expect(sniffVideoFormat(await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } }).webp().toBuffer())).toBeNull();
    expect(sniffVideoFormat(Buffer.from('<!doctype html><video src=x>'))).toBeNull();
    // Matroska that is not WebM (an .mkv) is not accepted.
    const mkv = Buffer.from(await webm(1));
    mkv.write('matroska'.slice(0, 4), mkv.indexOf('webm'), 'ascii');
    expect(sniffVideoFormat(mkv)).toBeNull();
  });

  it('accepts generated video names, with the larger limit, and nothing else under a video extension', () => {
    for (const name of ['0f3a9c/video.webm', 'ab12/video.MP4']) expect(isGeneratedVideoName(name), name).toBe(true);
    for (const name of ['a/video.mov', 'a/.video.webm', 'a/b c.mp4', 'a/video.webm.html', '-a/video.mp4']) expect(isGeneratedVideoName(name), name).toBe(false);
    expect(uploadMaxBytesFor('a/video.webm')).toBe(50 * MiB);
    expect(uploadMaxBytesFor('a/original.jpg')).toBe(20 * MiB);
  });
});

describeOnEngines('storage/v1 video uploads and signed video links', (ctx) => {
  let config: LocalConfig & { cleanup(): Promise<void> };
  let storage: StorageApi;
  let admin: TestUser;
  let member: TestUser;
  const asAdmin = async () => clientFor(config, storage.handler, await userToken(config, admin));
  const objectsNamed = async (pattern: string) =>
    (await ctx.db.query<{ n: number }>('select count(*)::int as n from storage.objects where name like $1', [pattern])).rows[0]!.n;
  const expectNothingLeft = async (pattern: string) => {
    expect(await objectsNamed(pattern)).toBe(0);
    expect(await readdir(storage.files.tmpDir)).toEqual([]);
  };

  beforeAll(async () => {
    config = await newLocalConfig();
    storage = await createStorageApi({ db: ctx.db, config });
    await writeImageLinkSecret(ctx.db, config.JWT_SECRET);
    admin = await newUser(ctx.db);
    await grantAdmin(ctx.db, admin);
    member = await newUser(ctx.db);
  });
  afterAll(async () => {
    await config.cleanup();
  });

  it('stores a WebM and an MP4 in ad-videos with the type their bytes tell', async () => {
    const client = await asAdmin();
    expect((await client.storage.from('ad-videos').upload('v01/video.webm', await webm(), { contentType: 'video/webm' })).error).toBeNull();
    expect((await client.storage.from('ad-videos').upload('v02/video.mp4', mp4(), { contentType: 'video/mp4' })).error).toBeNull();
    expect((await client.storage.from('ad-videos').info('v01/video.webm')).data?.contentType).toBe('video/webm');
    expect((await client.storage.from('ad-videos').info('v02/video.mp4')).data?.contentType).toBe('video/mp4');
  });

  it('refuses a disguised, mismatched, damaged or misplaced video and leaves nothing behind', async () => {
    const client = await asAdmin();
    const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } }).jpeg().toBuffer();
    const disguised = await client.storage.from('ad-videos').upload('bad01/video.webm', jpeg, { contentType: 'video/webm' });
    expect(disguised.error?.message).toBe('The file is not a video: only MP4 and WebM content is accepted');
    expect((disguised.error as { statusCode?: string }).statusCode).toBe('415');
    const mismatch = await client.storage.from('ad-videos').upload('bad02/video.mp4', await webm(2), { contentType: 'video/mp4' });
    expect(mismatch.error?.message).toBe('The file is declared as video/mp4 but its content is video/webm');
    const lyingName = await client.storage.from('ad-videos').upload('bad03/video.mp4', await webm(2), { contentType: 'video/webm' });
    expect(lyingName.error?.message).toMatch(/^Invalid object name "bad03\/video.mp4"/);
    const whole = await webm();
    const cut = await client.storage.from('ad-videos').upload('bad04/video.webm', whole.subarray(0, whole.length - 500), { contentType: 'video/webm' });
    expect(cut.error?.message).toBe('The video file is damaged or cut short');
    const noMovie = await client.storage.from('ad-videos').upload('bad05/video.mp4', mp4(false), { contentType: 'video/mp4' });
    expect(noMovie.error?.message).toBe('The video file is damaged or cut short');
    // The buckets' types: no video among the images, no image among the videos.
    const videoAsOriginal = await client.storage.from('ad-originals').upload('bad06/video.webm', whole, { contentType: 'video/webm' });
    expect((videoAsOriginal.error as { statusCode?: string }).statusCode).toBe('415');
    const imageAsVideo = await client.storage.from('ad-videos').upload('bad07/original.jpg', jpeg, { contentType: 'image/jpeg' });
    expect((imageAsVideo.error as { statusCode?: string }).statusCode).toBe('415');
    for (let index = 1; index <= 7; index += 1) await expectNothingLeft(`bad0${index}/%`);
  });

  it('takes a video over the images\' 20 MB within the bucket\'s 50 MB, and refuses one past it with 413', async () => {
    const client = await asAdmin();
    const large = Buffer.concat([box('ftyp', Buffer.from('isom\0\0\0\0isom', 'ascii')), box('mdat', Buffer.alloc(30 * MiB)), box('moov', Buffer.alloc(64))]);
    expect((await client.storage.from('ad-videos').upload('big01/video.mp4', large, { contentType: 'video/mp4' })).error).toBeNull();
    const tooLarge = Buffer.concat([box('ftyp', Buffer.from('isom\0\0\0\0isom', 'ascii')), box('mdat', Buffer.alloc(51 * MiB)), box('moov', Buffer.alloc(64))]);
    const { error } = await client.storage.from('ad-videos').upload('big02/video.mp4', tooLarge, { contentType: 'video/mp4' });
    expect((error as { statusCode?: string } | null)?.statusCode).toBe('413');
    await expectNothingLeft('big02/%');
    const { rows } = await ctx.db.query<{ limit: string }>(`select file_size_limit::text as limit from storage.buckets where id = 'ad-videos'`);
    expect(Number(rows[0]!.limit)).toBe(50 * MiB);
  });

  it('lets no one but an admin upload, read or sign in ad-videos', async () => {
    const client = clientFor(config, storage.handler, await userToken(config, member));
    const upload = await client.storage.from('ad-videos').upload('m01/video.webm', await webm(2), { contentType: 'video/webm' });
    expect(upload.error).not.toBeNull();
    expect((await client.storage.from('ad-videos').download('v01/video.webm')).data).toBeNull();
    expect((await client.storage.from('ad-videos').createSignedUrl('v01/video.webm', 60)).data).toBeNull();
    const anonymous = clientFor(config, storage.handler);
    expect((await anonymous.storage.from('ad-videos').createSignedUrl('v01/video.webm', 60)).data).toBeNull();
    expect((await storage.handler(new Request(`${TEST_ORIGIN}/storage/v1/object/public/ad-videos/v01/video.webm`))).status).not.toBe(200);
  });

  it('serves the database\'s signed video link in ranges, so a player can seek, and refuses a forged one', async () => {
    const client = await asAdmin();
    const bytes = await webm(36);
    const name = `${randomBytes(16).toString('hex')}/video.webm`;
    expect((await client.storage.from('ad-videos').upload(name, bytes, { contentType: 'video/webm' })).error).toBeNull();
    const owner = { brandId: (await newBrand(ctx.db)).id, categoryId: (await newCategory(ctx.db)).id };
    // The first premium ad joins the free sample; the second stays locked to non-payers.
    await newAd(ctx.db, owner);
    const ad = await newAd(ctx.db, owner);
    await ctx.db.query(`update public.ads set format = 'video', video_path = $2, video_duration_ms = 3000 where id = $1`, [ad.id, name]);
    const subscriber = await newUser(ctx.db);
    await newSubscription(ctx.db, subscriber, 'active');
    const [row] = await queryAs<{ ad: { video_url: string } }>(ctx.db, userActor(subscriber), 'select public.get_ad($1) as ad', [ad.id]);
    const url = `${TEST_ORIGIN}/storage/v1/${row!.ad.video_url}`;

    const full = await storage.handler(new Request(url));
    expect(full.status).toBe(200);
    expect(full.headers.get('content-type')).toBe('video/webm');
    expect(full.headers.get('accept-ranges')).toBe('bytes');
    expect(Buffer.from(await full.arrayBuffer()).equals(bytes)).toBe(true);

    const middle = await storage.handler(new Request(url, { headers: { range: 'bytes=1000-1999' } }));
    expect(middle.status).toBe(206);
    expect(middle.headers.get('content-range')).toBe(`bytes 1000-1999/${bytes.length}`);
    expect(Buffer.from(await middle.arrayBuffer()).equals(bytes.subarray(1000, 2000))).toBe(true);
    const tail = await storage.handler(new Request(url, { headers: { range: `bytes=${bytes.length - 100}-` } }));
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer()).equals(bytes.subarray(bytes.length - 100))).toBe(true);
    const past = await storage.handler(new Request(url, { headers: { range: `bytes=${bytes.length}-` } }));
    expect(past.status).toBe(416);

    // The locked answer has no link; a link to another object with this token, or a changed token, is refused.
    const [locked] = await queryAs<{ ad: Record<string, unknown> }>(ctx.db, anon, 'select public.get_ad($1) as ad', [ad.id]);
    expect(locked!.ad).not.toHaveProperty('video_url');
    const token = row!.ad.video_url.split('?token=')[1]!;
    expect((await storage.handler(new Request(`${TEST_ORIGIN}/storage/v1/object/sign/ad-videos/v01/video.webm?token=${token}`))).status).toBe(400);
    expect((await storage.handler(new Request(`${url.slice(0, -3)}${url.slice(-3) === 'AAA' ? 'BBB' : 'AAA'}`))).status).toBe(400);
  });
});
