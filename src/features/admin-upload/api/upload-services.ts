import * as z from 'zod/mini';
import { apiErrorFrom } from '../../../lib/api-error.ts';
import type { TablesInsert } from '../../../lib/database.types.ts';
import { supabase } from '../../../lib/supabase-client.ts';
import type { AdFactsChange } from '../../../lib/ad-facts.ts';
import { adSchema } from '../../../lib/ad-schema.ts';
import { adImageUrl } from '../../../lib/image-urls.ts';
import { fingerprintOfFile } from '../../../lib/media/fingerprint-image.ts';
import { makeImageVariants, type ImageVariants } from '../../../lib/media/image-variants.ts';
import type { VisualFingerprint } from '../../../lib/media/visual-fingerprint.ts';
import { readImageText } from '../../../lib/media/read-image-text.ts';
import { makeVideoCreative, type VideoCreative } from '../../../lib/media/video-poster.ts';
import type { AdObjectPaths } from '../lib/object-paths.ts';

export type UploadCatalogKind = 'brands' | 'categories' | 'tags';
/** What the upload lists: the catalogue it can add to, and the curated hooks. */
export type UploadListKind = UploadCatalogKind | 'hooks';
export type UploadBucket = 'ad-originals' | 'ad-images' | 'ad-videos';

export const uploadCatalogItemSchema = z.object({ id: z.string().check(z.minLength(1)), name: z.string() });
export type UploadCatalogItem = z.infer<typeof uploadCatalogItemSchema>;

export interface NewAdRow extends AdObjectPaths {
  id: string;
  brand_id: string;
  category_id: string;
  width: number;
  height: number;
  thumbhash: string;
  /** The text read from the image; null when it could not be read (the backfill reads it later). */
  image_text: string | null;
  /** The image's visual fingerprint; all three null when it could not be made. */
  visual_hash: string | null;
  colour_histogram: number[] | null;
  dominant_colours: VisualFingerprint['colours'] | null;
  /** A video ad's video in ad-videos and its length; absent for an image ad. */
  video_path?: string;
  video_duration_ms?: number;
}

/** An ad of the library whose image nearly matches an upload's. */
export interface NearDuplicate {
  id: string;
  brandName: string | null;
  /** The ad's 480 display image (admins see every ad clear). */
  imageUrl: string | null;
  /** How many of the hashes' 64 bits differ: 0 to NEAR_DUPLICATE_BITS. */
  distance: number;
}

const nearDuplicateSchema = z.extend(adSchema, { distance: z.number() });

/** The row as inserted: its objects and size, the text in its image, and its facts. */
export type NewAdRowWithFacts = NewAdRow & Required<AdFactsChange>;

/**
 * A row to insert without the columns its table's BEFORE INSERT triggers write (an ad's card, a tag link's copy of the
 * ad's date): NOT NULL without a default, so the generated Insert type asks for them. Every other column is checked.
 */
function leftToTriggers<T extends 'ads' | 'ad_tags', K extends keyof TablesInsert<T>>(row: Omit<TablesInsert<T>, K>): TablesInsert<T> {
  return row as TablesInsert<T>;
}

/**
 * Everything the upload does outside the page: the browser's image work and
 * the backend calls. One object, so the page can be exercised against a
 * stand-in; the real one talks to Supabase.
 */
export interface UploadServices {
  listCatalog(kind: UploadListKind): Promise<UploadCatalogItem[]>;
  addCatalogEntry(kind: UploadCatalogKind, name: string): Promise<UploadCatalogItem>;
  makeVariants(file: File): Promise<ImageVariants>;
  /** An image's visual fingerprint (src/lib/media/visual-fingerprint.ts): the file's, or a video's poster's. */
  fingerprint(image: Blob): Promise<VisualFingerprint>;
  /** The library's ads whose image nearly duplicates a fingerprint's, nearest first (at most 5). */
  findNearDuplicates(fingerprint: VisualFingerprint): Promise<NearDuplicate[]>;
  /** A video's poster frame with its variants, its length and size (src/lib/media/video-poster.ts). */
  makeVideoCreative(file: File): Promise<VideoCreative>;
  /** The normalised text printed in an image (src/lib/media/image-text.ts); throws when it cannot be read. */
  readImageText(image: Blob): Promise<string>;
  putObject(bucket: UploadBucket, path: string, body: Blob, contentType: string): Promise<void>;
  removeObjects(bucket: UploadBucket, paths: string[]): Promise<void>;
  /** Inserts the ad (throws when it is not inserted) and reads its id back: null when that lookup fails. */
  insertAd(row: NewAdRowWithFacts): Promise<string | null>;
  linkTags(adId: string, tagIds: string[]): Promise<void>;
}

/** Uploaded files never change under their name: a year of caching. */
const IMMUTABLE_CACHE_SECONDS = '31536000';

export const supabaseUploadServices: UploadServices = {
  async listCatalog(kind) {
    const { data, error } = await supabase.from(kind).select('id,name').order('name');
    if (error) throw apiErrorFrom(error);
    return z
      .array(uploadCatalogItemSchema)
      .parse(data)
      .sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }));
  },
  async addCatalogEntry(kind, name) {
    const { data, error } = await supabase.from(kind).insert({ name }).select('id,name').single();
    if (error) throw apiErrorFrom(error);
    return uploadCatalogItemSchema.parse(data);
  },
  makeVariants: makeImageVariants,
  fingerprint: fingerprintOfFile,
  async findNearDuplicates(fingerprint) {
    const { data, error } = await supabase.rpc('admin_near_duplicates', { p_hash: fingerprint.hash, p_histogram: fingerprint.histogram });
    if (error) throw apiErrorFrom(error);
    return z
      .array(nearDuplicateSchema)
      .parse(data)
      .map((ad) => ({ id: ad.id, brandName: ad.brand_name, imageUrl: ad.display_480_url ? adImageUrl(ad.display_480_url) : null, distance: ad.distance }));
  },
  makeVideoCreative,
  readImageText: (image) => readImageText(image),
  async putObject(bucket, path, body, contentType) {
    const { error } = await supabase.storage.from(bucket).upload(path, body, { contentType, cacheControl: IMMUTABLE_CACHE_SECONDS, upsert: false });
    if (error) throw error;
  },
  async removeObjects(bucket, paths) {
    const { error } = await supabase.storage.from(bucket).remove(paths);
    if (error) throw error;
  },
  async insertAd(row) {
    const { data, error } = await supabase.from('ads').insert(leftToTriggers<'ads', 'card'>(row)).select('id').single();
    if (error) throw apiErrorFrom(error);
    const read = z.object({ id: z.string().check(z.minLength(1)) }).safeParse(data);
    return read.success ? read.data.id : null;
  },
  async linkTags(adId, tagIds) {
    if (tagIds.length === 0) return;
    const { error } = await supabase.from('ad_tags').insert(tagIds.map((tagId) => leftToTriggers<'ad_tags', 'ad_created_at'>({ ad_id: adId, tag_id: tagId })));
    if (error) throw apiErrorFrom(error);
  },
};
