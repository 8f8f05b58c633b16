import { createHash, randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { rgbaToThumbHash } from 'thumbhash';
import { fingerprintWithSharp } from '../../local/media/fingerprint-with-sharp.ts';
import type { LocalStack } from '../../local/stack.ts';
import { keptFolder } from '../../tests/support/kept-folder.ts';

const PALETTE = ['#e76f51', '#2a9d8f', '#264653', '#f4a261', '#8ab17d', '#6d597a', '#e9c46a', '#457b9d'];

/** A flat-colour creative with a caption, at the ads' portrait aspect. */
function creativeSvg(width: number, height: number, colour: string, caption: string): Buffer {
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
       <rect width="100%" height="100%" fill="${colour}"/>
       <circle cx="${width / 2}" cy="${height * 0.42}" r="${width * 0.28}" fill="#ffffff" fill-opacity="0.35"/>
       <text x="50%" y="${height * 0.85}" font-family="sans-serif" font-size="${Math.round(width / 12)}" fill="#ffffff" text-anchor="middle">${caption}</text>
     </svg>`,
  );
}

async function thumbhashOf(image: Buffer): Promise<string> {
  const { data, info } = await sharp(image).resize(75, 100, { fit: 'inside' }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return Buffer.from(rgbaToThumbHash(info.width, info.height, data)).toString('base64');
}

interface EncodedCreative {
  original: Buffer;
  display480: Buffer;
  display960: Buffer;
  preview: Buffer;
  thumbhash: string;
  fingerprint: Awaited<ReturnType<typeof fingerprintWithSharp>>;
}

const FILES = ['original', 'display480', 'display960', 'preview'] as const;

/** Every stored image of one creative, encoded as an upload leaves them. */
async function encodeCreative(width: number, height: number, colour: string, caption: string): Promise<EncodedCreative> {
  const source = await sharp(creativeSvg(width, height, colour, caption)).png().toBuffer();
  const original = await sharp(source).jpeg({ quality: 80 }).toBuffer();
  return {
    original,
    display480: await sharp(source).resize(480).webp().toBuffer(),
    display960: await sharp(source).resize(960).webp().toBuffer(),
    preview: await sharp(source).resize(32).blur(2).webp().toBuffer(),
    thumbhash: await thumbhashOf(source),
    fingerprint: await fingerprintWithSharp(original),
  };
}

/**
 * The creative of these values, encoded once for every journey file of every
 * run (kept in .tmp/e2e-creatives: tests/support/kept-folder.ts): the same
 * values always encode to the same bytes, and encoding is most of what
 * seeding a file's library costs.
 */
async function creative(width: number, height: number, colour: string, caption: string): Promise<EncodedCreative> {
  const key = createHash('sha256')
    .update(JSON.stringify([creativeSvg(width, height, colour, caption).toString(), sharp.versions.vips]))
    .digest('hex')
    .slice(0, 32);
  const folder = await keptFolder(path.join('e2e-creatives', key), async (partial) => {
    const encoded = await encodeCreative(width, height, colour, caption);
    await Promise.all(FILES.map((name) => writeFile(path.join(partial, name), encoded[name])));
    await writeFile(path.join(partial, 'meta.json'), JSON.stringify({ thumbhash: encoded.thumbhash, fingerprint: encoded.fingerprint }));
  });
  const meta = JSON.parse(await readFile(path.join(folder, 'meta.json'), 'utf8')) as Pick<EncodedCreative, 'thumbhash' | 'fingerprint'>;
  const files = await Promise.all(FILES.map((name) => readFile(path.join(folder, name))));
  return { ...meta, ...(Object.fromEntries(FILES.map((name, index) => [name, files[index]!])) as Record<(typeof FILES)[number], Buffer>) };
}

export interface DemoAdsResult {
  /** Newest first. */
  adIds: string[];
  brandName: string;
  categoryName: string;
}

/**
 * A few ads with every stored image an upload leaves (original, 480 and 960
 * WebP, blurred preview) and the fingerprint it writes, through the stack's storage so rows and
 * files agree. Small on purpose: the journeys need a library, not a big one.
 */
export async function insertDemoAds(stack: LocalStack, count: number, options: { brandPrefix?: string; minutesAgo?: number; width?: number; colours?: readonly string[] } = {}): Promise<DemoAdsResult> {
  const suffix = randomBytes(3).toString('hex');
  const one = async (sql: string, params: unknown[]) => (await stack.db.query<{ id: string }>(sql, params)).rows[0]!.id;
  const brandName = `${options.brandPrefix ?? 'Northwind'} ${suffix}`;
  const categoryName = `Skincare ${suffix}`;
  const brandId = await one('insert into public.brands (name) values ($1) returning id', [brandName]);
  const categoryId = await one('insert into public.categories (name) values ($1) returning id', [categoryName]);
  const typeId = await one('insert into public.types (name) values ($1) returning id', [`Static ${suffix}`]);
  const adIds: string[] = [];
  for (let i = 0; i < count; i += 1) {
    // Smaller sources render faster where a journey needs many ads; the aspect stays 4:5.
    const width = options.width ?? 1080;
    const height = Math.round(width * 1.25);
    const colour = options.colours?.[i % options.colours.length] ?? PALETTE[i % PALETTE.length]!;
    const encoded = await creative(width, height, colour, `Demo ad ${i + 1}`);
    const folder = randomBytes(16).toString('hex');
    const paths = {
      original: `${folder}/original.jpg`,
      display480: `${folder}/480.webp`,
      display960: `${folder}/960.webp`,
      preview: `previews/${randomBytes(16).toString('hex')}.webp`,
    };
    const fingerprint = encoded.fingerprint;
    await stack.storage.writeObject('ad-originals', paths.original, encoded.original, 'image/jpeg');
    await stack.storage.writeObject('ad-images', paths.display480, encoded.display480, 'image/webp');
    await stack.storage.writeObject('ad-images', paths.display960, encoded.display960, 'image/webp');
    await stack.storage.writeObject('ad-images', paths.preview, encoded.preview, 'image/webp');
    adIds.push(
      await one(
        `insert into public.ads (brand_id, category_id, type_id, created_at, requires_subscription,
                                 original_path, display_480_path, display_960_path, preview_path, width, height, thumbhash,
                                 visual_hash, colour_histogram, dominant_colours)
         values ($1, $2, $3, now() - make_interval(mins => $4), true, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) returning id`,
        [
          brandId, categoryId, typeId, (options.minutesAgo ?? 0) + i, paths.original, paths.display480, paths.display960, paths.preview, width, height,
          encoded.thumbhash, fingerprint.hash, fingerprint.histogram, JSON.stringify(fingerprint.colours),
        ],
      ),
    );
  }
  return { adIds, brandName, categoryName };
}
