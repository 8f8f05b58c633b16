import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { rgbaToThumbHash } from 'thumbhash';
import type { LocalStack } from '../../local/stack.ts';

/** Portrait, square and tall creatives, as the library mixes them: the masonry's columns end unevenly. */
const SHAPES = [
  { width: 320, height: 400 },
  { width: 320, height: 320 },
  { width: 320, height: 568 },
] as const;
const COLOURS = ['#e76f51', '#2a9d8f', '#264653', '#f4a261', '#8ab17d', '#6d597a'];

interface EncodedCreative {
  width: number;
  height: number;
  original: Buffer;
  display: Buffer;
  preview: Buffer;
  thumbhash: string;
}

/** A few flat creatives, encoded once: every ad stores its own copy under its own paths. */
async function encodeCreatives(): Promise<EncodedCreative[]> {
  const creatives: EncodedCreative[] = [];
  for (const [index, colour] of COLOURS.entries()) {
    const { width, height } = SHAPES[index % SHAPES.length]!;
    const svg = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="${colour}"/></svg>`);
    const source = await sharp(svg).png().toBuffer();
    const { data, info } = await sharp(source).resize(75, 100, { fit: 'inside' }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    creatives.push({
      width,
      height,
      original: await sharp(source).jpeg({ quality: 60 }).toBuffer(),
      display: await sharp(source).webp({ quality: 50 }).toBuffer(),
      preview: await sharp(source).resize(32).blur(2).webp().toBuffer(),
      thumbhash: Buffer.from(rgbaToThumbHash(info.width, info.height, data)).toString('base64'),
    });
  }
  return creatives;
}

let creatives: Promise<EncodedCreative[]> | null = null;

/**
 * `count` ads of one brand with mixed shapes and every stored image, newest
 * first from `minutesAgo`: enough for lists several pages long, fast to write
 * because the images are encoded once. Returns their ids, newest first.
 */
export async function insertManyAds(stack: LocalStack, count: number, options: { brandPrefix: string; minutesAgo: number; premium?: boolean }): Promise<{ adIds: string[]; brandName: string }> {
  creatives ??= encodeCreatives();
  const encoded = await creatives;
  const suffix = randomBytes(3).toString('hex');
  const one = async (sql: string, params: unknown[]) => (await stack.db.query<{ id: string }>(sql, params)).rows[0]!.id;
  const brandName = `${options.brandPrefix} ${suffix}`;
  const brandId = await one('insert into public.brands (name) values ($1) returning id', [brandName]);
  const categoryId = await one('insert into public.categories (name) values ($1) returning id', [`Apparel ${suffix}`]);
  const adIds: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const creative = encoded[i % encoded.length]!;
    const folder = randomBytes(16).toString('hex');
    const preview = `previews/${randomBytes(16).toString('hex')}.webp`;
    await stack.storage.writeObject('ad-originals', `${folder}/original.jpg`, creative.original, 'image/jpeg');
    await stack.storage.writeObject('ad-images', `${folder}/480.webp`, creative.display, 'image/webp');
    await stack.storage.writeObject('ad-images', `${folder}/960.webp`, creative.display, 'image/webp');
    await stack.storage.writeObject('ad-images', preview, creative.preview, 'image/webp');
    adIds.push(
      await one(
        `insert into public.ads (brand_id, category_id, created_at, requires_subscription,
                                 original_path, display_480_path, display_960_path, preview_path, width, height, thumbhash)
         values ($1, $2, now() - make_interval(mins => $3), $4, $5, $6, $7, $8, $9, $10, $11) returning id`,
        [
          brandId,
          categoryId,
          options.minutesAgo + i,
          options.premium ?? true,
          `${folder}/original.jpg`,
          `${folder}/480.webp`,
          `${folder}/960.webp`,
          preview,
          creative.width,
          creative.height,
          creative.thumbhash,
        ],
      ),
    );
  }
  return { adIds, brandName };
}

/** Puts every ad of a brand on a themed board through its system tag. */
export async function tagBrandForBoard(stack: LocalStack, brandName: string, systemKey: 'black_friday' | 'top_picks'): Promise<void> {
  await stack.db.query(
    `insert into public.ad_tags (ad_id, tag_id)
     select a.id, t.id from public.ads a join public.brands b on b.id = a.brand_id, public.tags t
      where b.name = $1 and t.system_key = $2`,
    [brandName, systemKey],
  );
}

/** Saves ads to a board of the user (Favorites when `favorites`), the first of `adIds` saved last: newest saved first. */
export async function saveToBoard(stack: LocalStack, userId: string, board: { favorites: true } | { name: string }, adIds: readonly string[]): Promise<string> {
  const boardId =
    'favorites' in board
      ? (
          await stack.db.query<{ id: string }>(
            `insert into public.user_collections (user_id, name, is_system, slug) values ($1, 'Favorites', true, 'favorites')
             on conflict (user_id) where is_system do update set name = excluded.name returning id`,
            [userId],
          )
        ).rows[0]!.id
      : (await stack.db.query<{ id: string }>('insert into public.user_collections (user_id, name) values ($1, $2) returning id', [userId, board.name])).rows[0]!.id;
  await stack.db.query(
    `insert into public.user_collection_items (collection_id, ad_id, saved_at)
     select $1, ad_id, now() - make_interval(secs => ordinality::int) from unnest($2::uuid[]) with ordinality as saved (ad_id, ordinality)`,
    [boardId, adIds],
  );
  return boardId;
}
