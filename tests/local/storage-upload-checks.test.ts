import { readdir } from 'node:fs/promises';
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalConfig } from '../../local/config.ts';
import { createStorageApi, type StorageApi } from '../../local/storage/storage-api.ts';
import { isGeneratedImageName, sniffImageFormat } from '../../local/storage/upload-checks.ts';
import { describeOnEngines } from '../support/engines.ts';
import { grantAdmin, newUser, type TestUser } from '../support/factories.ts';
import { clientFor, newLocalConfig, userToken } from '../support/local-config.ts';

const MiB = 1024 * 1024;
const jpeg = (width = 60, height = 40) => sharp({ create: { width, height, channels: 3, background: '#16a085' } }).jpeg().toBuffer();

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

/** A PNG of a few kilobytes that declares 30000×30000 pixels: 2.7 GB once decoded. */
function decompressionBomb(): Buffer {
  const size = 30_000;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  // Zero rows compress to almost nothing: the first 200 rows, the rest left for a decoder to fill.
  const rows = deflateSync(Buffer.alloc((size * 3 + 1) * 200), { level: 9 });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', rows),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('upload checks', () => {
  it('tells image formats by their magic bytes, never text', async () => {
    expect(sniffImageFormat(await jpeg())).toBe('image/jpeg');
    expect(sniffImageFormat(await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } }).png().toBuffer())).toBe('image/png');
    expect(sniffImageFormat(await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } }).webp().toBuffer())).toBe('image/webp');
    expect(sniffImageFormat(await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } }).gif().toBuffer())).toBe('image/gif');
    expect(sniffImageFormat(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(sniffImageFormat(Buffer.from('<!doctype html><script>alert(1)</script>'))).toBeNull();
    expect(sniffImageFormat(Buffer.from('RIFF\0\0\0\0WAVEfmt '))).toBeNull();
  });

  it('accepts generated names only', () => {
    for (const name of ['0f3a9c/original.jpg', 'previews/ab12.webp', 'brand-id/1700000000-logo_v2.PNG', 'library/banner.webp']) {
      expect(isGeneratedImageName(name), name).toBe(true);
    }
    for (const name of ['index.html', 'a/b.svg', 'a/.hidden.webp', 'a/b c.webp', 'a/b.webp.html', 'a/b', '-a/b.webp', 'a/..webp']) {
      expect(isGeneratedImageName(name), name).toBe(false);
    }
  });
});

describeOnEngines('storage/v1 upload checks for browser callers', (ctx) => {
  let config: LocalConfig & { cleanup(): Promise<void> };
  let storage: StorageApi;
  let admin: TestUser;
  const asAdmin = async () => clientFor(config, storage.handler, await userToken(config, admin));
  const objectsNamed = async (pattern: string) =>
    (await ctx.db.query<{ n: number }>('select count(*)::int as n from storage.objects where name like $1', [pattern])).rows[0]!.n;

  /** Nothing left behind: no row, no file, no temporary file. */
  const expectNothingLeft = async (pattern: string) => {
    expect(await objectsNamed(pattern)).toBe(0);
    expect(await storage.sweep()).toBe(0);
    expect(await readdir(storage.files.tmpDir)).toEqual([]);
  };

  beforeAll(async () => {
    config = await newLocalConfig();
    storage = await createStorageApi({ db: ctx.db, config });
    admin = await newUser(ctx.db);
    await grantAdmin(ctx.db, admin);
  });
  afterAll(async () => {
    await config.cleanup();
  });

  it('stores a real image under a generated name with the type its bytes tell', async () => {
    const client = await asAdmin();
    const { error } = await client.storage.from('ad-originals').upload('c0ffee01/original.jpg', await jpeg(), { contentType: 'image/jpeg' });
    expect(error).toBeNull();
    const info = await client.storage.from('ad-originals').info('c0ffee01/original.jpg');
    expect(info.data?.contentType).toBe('image/jpeg');
  });

  it('refuses an HTML page renamed to .jpg with a clear error and leaves nothing behind', async () => {
    const client = await asAdmin();
    const html = Buffer.from('<!doctype html><html><body><script>document.cookie</script></body></html>');
    const { error } = await client.storage.from('ad-originals').upload('renamed01/original.jpg', html, { contentType: 'image/jpeg' });
    expect(error?.message).toBe('The file is not an image: only JPEG, PNG, WebP, GIF and AVIF content is accepted');
    expect((error as { statusCode?: string }).statusCode).toBe('415');
    await expectNothingLeft('renamed01/%');
  });

  it('refuses an SVG, declared as SVG or disguised as a PNG, and leaves nothing behind', async () => {
    const client = await asAdmin();
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="10" height="10"/></svg>');
    const declared = await client.storage.from('ad-originals').upload('svg01/original.svg', svg, { contentType: 'image/svg+xml' });
    expect(declared.error?.message).toMatch(/Invalid object name "svg01\/original.svg"/);
    const disguised = await client.storage.from('ad-originals').upload('svg02/original.png', svg, { contentType: 'image/png' });
    expect(disguised.error?.message).toBe('The file is not an image: only JPEG, PNG, WebP, GIF and AVIF content is accepted');
    await expectNothingLeft('svg0%');
  });

  it('refuses a 25 MB file with 413 and leaves nothing behind', async () => {
    const client = await asAdmin();
    const big = Buffer.concat([await jpeg(), Buffer.alloc(25 * MiB)]);
    const { error } = await client.storage.from('ad-originals').upload('big01/original.jpg', big, { contentType: 'image/jpeg' });
    expect((error as { statusCode?: string } | null)?.statusCode).toBe('413');
    expect(error?.message).toBe('The object exceeded the maximum allowed size');
    await expectNothingLeft('big01/%');
  });

  it('refuses a decompression bomb by its declared size, before decoding it', async () => {
    const client = await asAdmin();
    const bomb = decompressionBomb();
    expect(bomb.length).toBeLessThan(200 * 1024);
    const { error } = await client.storage.from('ad-originals').upload('bomb01/original.png', bomb, { contentType: 'image/png' });
    expect(error?.message).toBe('The image is 30000×30000 pixels; at most 50 megapixels are accepted');
    expect((error as { statusCode?: string }).statusCode).toBe('413');
    await expectNothingLeft('bomb01/%');
  });

  it('refuses a truncated image, a type that does not match the bytes and a name whose extension lies', async () => {
    const client = await asAdmin();
    const whole = await jpeg(400, 300);
    const truncated = await client.storage.from('ad-originals').upload('cut01/original.jpg', whole.subarray(0, 200), { contentType: 'image/jpeg' });
    expect(truncated.error?.message).toBe('The image could not be decoded');
    const mismatch = await client.storage.from('ad-originals').upload('mix01/original.png', whole, { contentType: 'image/png' });
    expect(mismatch.error?.message).toBe('The file is declared as image/png but its content is image/jpeg');
    const lyingName = await client.storage.from('ad-originals').upload('mix02/original.png', whole, { contentType: 'image/jpeg' });
    expect(lyingName.error?.message).toMatch(/^Invalid object name "mix02\/original.png"/);
    const html = await client.storage.from('ad-originals').upload('page01/index.html', whole, { contentType: 'image/jpeg' });
    expect(html.error?.message).toMatch(/^Invalid object name "page01\/index.html"/);
    await expectNothingLeft('cut01/%');
    await expectNothingLeft('mix0%');
    await expectNothingLeft('page01/%');
  });

  it('serves stored objects with nosniff', async () => {
    const client = await asAdmin();
    await client.storage.from('ad-images').upload('abc123/480.webp', await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } }).webp().toBuffer(), {
      contentType: 'image/webp',
    });
    const response = await storage.handler(new Request((await client.storage.from('ad-images').createSignedUrl('abc123/480.webp', 60)).data!.signedUrl));
    expect(response.status).toBe(200);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
