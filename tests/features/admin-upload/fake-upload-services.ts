import { ApiError } from '../../../src/lib/api-error.ts';
import type {
  NearDuplicate,
  NewAdRowWithFacts,
  UploadBucket,
  UploadCatalogItem,
  UploadCatalogKind,
  UploadListKind,
  UploadServices,
} from '../../../src/features/admin-upload/api/upload-services.ts';
import type { VisualFingerprint } from '../../../src/lib/media/visual-fingerprint.ts';
import type { ImageVariants } from '../../../src/lib/media/image-variants.ts';
import { UnreadableImageError } from '../../../src/lib/media/image-variants.ts';
import { UnreadableVideoError, VideoLengthError, type VideoCreative } from '../../../src/lib/media/video-poster.ts';

export interface StoredObject {
  bucket: UploadBucket;
  path: string;
  contentType: string;
}

/**
 * The upload's outside world in memory: a catalogue, a bucket store and an
 * ads table that, like the database's trigger, refuses a row whose objects
 * are not all stored. Every call is logged in order; a test can make any
 * step fail for a file, or hold an upload open to see what the page shows.
 */
export class FakeUploadServices implements UploadServices {
  catalog: Record<UploadListKind, UploadCatalogItem[]> = {
    hooks: [{ id: '7c3f5d8e-1a2b-4c3d-9e8f-0a1b2c3d4e5f', name: 'Before and after' }],
    brands: [
      { id: 'b1', name: 'Lumora' },
      { id: 'b2', name: 'Northwind' },
    ],
    categories: [{ id: 'c1', name: 'Skincare' }],
    tags: [
      { id: 't1', name: 'Bestseller' },
      { id: 't2', name: 'UGC' },
    ],
  };
  objects: StoredObject[] = [];
  ads: NewAdRowWithFacts[] = [];
  tagLinks: Array<{ adId: string; tagId: string }> = [];
  log: string[] = [];
  /** Each file's hash by name; a file not named here gets a hash of its own, far from every other. */
  hashes: Record<string, string> = {};
  /** The library's ads that nearly match a hash. */
  libraryDuplicates: Record<string, NearDuplicate[]> = {};
  /** Decides per step and file name whether it fails; return an error message to fail it. */
  failWhen: (
    step: 'variants' | 'video' | 'text' | 'put' | 'insert' | 'tags' | 'add' | 'fingerprint' | 'duplicates',
    subject: string,
  ) => string | null = () => null;
  /** When set, each file's first object upload waits for this promise. */
  gate: Promise<void> | null = null;
  private current = '';

  async listCatalog(kind: UploadListKind) {
    return [...this.catalog[kind]];
  }

  async addCatalogEntry(kind: UploadCatalogKind, name: string) {
    this.log.push(`add ${kind} ${name}`);
    const refused = this.failWhen('add', name);
    // A refused name is a taken one, as PostgreSQL reports it (unique_violation).
    if (refused) throw new ApiError(refused, '23505', 409);
    const entry = { id: `${kind}-${this.catalog[kind].length + 1}`, name };
    this.catalog[kind].push(entry);
    return entry;
  }

  async makeVariants(file: File): Promise<ImageVariants> {
    this.current = file.name;
    this.log.push(`variants ${file.name}`);
    const refused = this.failWhen('variants', file.name);
    if (refused === 'unreadable') throw new UnreadableImageError();
    if (refused) throw new Error(refused);
    const webp = (label: string) => new Blob([label], { type: 'image/webp' });
    return { display480: webp('480'), display960: webp('960'), preview: webp('preview'), thumbhash: 'YJqGPQw7sFlslqhFafSE+Q6oJ1h2iHB2Rw==', width: 1080, height: 1350 };
  }

  /** A file's fingerprint by its name; a video's poster's by the video's. */
  async fingerprint(image: Blob): Promise<VisualFingerprint> {
    const name = image instanceof File ? image.name : this.current;
    this.log.push(`fingerprint ${name}`);
    const refused = this.failWhen('fingerprint', name);
    if (refused) throw new Error(refused);
    // FNV-1a of the name: two names' hashes differ in about half their bits.
    let own = 0xcbf29ce484222325n;
    for (const char of name) own = BigInt.asUintN(64, (own ^ BigInt(char.charCodeAt(0))) * 0x100000001b3n);
    return { hash: this.hashes[name] ?? BigInt.asIntN(64, own).toString(), histogram: [1, ...new Array<number>(15).fill(0)], colours: [{ hex: '#d7263d', share: 1 }] };
  }

  async findNearDuplicates({ hash }: VisualFingerprint): Promise<NearDuplicate[]> {
    this.log.push(`duplicates ${hash}`);
    const refused = this.failWhen('duplicates', hash);
    if (refused) throw new Error(refused);
    return this.libraryDuplicates[hash] ?? [];
  }

  async makeVideoCreative(file: File): Promise<VideoCreative> {
    this.current = file.name;
    this.log.push(`video ${file.name}`);
    const refused = this.failWhen('video', file.name);
    if (refused === 'unreadable') throw new UnreadableVideoError();
    if (refused === 'too long') throw new VideoLengthError(700_000);
    if (refused) throw new Error(refused);
    const webp = (label: string) => new Blob([label], { type: 'image/webp' });
    return {
      poster: webp('poster'),
      variants: { display480: webp('480'), display960: webp('960'), preview: webp('preview'), thumbhash: 'YJqGPQw7sFlslqhFafSE+Q6oJ1h2iHB2Rw==', width: 1080, height: 1920 },
      durationMs: 4200,
      width: 1080,
      height: 1920,
    };
  }

  /** The text "read" from each file's image: its name, upper-cased, unless a test makes it fail. */
  async readImageText(_image: Blob) {
    const name = this.current;
    this.log.push(`text ${name}`);
    const refused = this.failWhen('text', name);
    if (refused) throw new Error(refused);
    return `TEXT OF ${name}`;
  }

  async putObject(bucket: UploadBucket, path: string, _body: Blob, contentType: string) {
    if (this.gate && bucket === 'ad-originals') await this.gate;
    this.log.push(`put ${bucket} ${this.current}`);
    const refused = this.failWhen('put', `${this.current} ${bucket} ${path}`);
    if (refused) throw new Error(refused);
    if (this.objects.some((object) => object.bucket === bucket && object.path === path)) throw new Error('The resource already exists');
    this.objects.push({ bucket, path, contentType });
  }

  async removeObjects(bucket: UploadBucket, paths: string[]) {
    this.log.push(`remove ${bucket} ${paths.length}`);
    this.objects = this.objects.filter((object) => object.bucket !== bucket || !paths.includes(object.path));
  }

  async insertAd(row: NewAdRowWithFacts) {
    this.log.push(`insert ${this.current}`);
    const refused = this.failWhen('insert', this.current);
    if (refused) throw new Error(refused);
    const stored = (bucket: UploadBucket, path: string) => this.objects.some((object) => object.bucket === bucket && object.path === path);
    if (!stored('ad-originals', row.original_path) || ![row.display_480_path, row.display_960_path, row.preview_path].every((path) => stored('ad-images', path))) {
      throw new Error('Image has not been uploaded');
    }
    if (row.video_path !== undefined && !stored('ad-videos', row.video_path)) throw new Error('Video has not been uploaded');
    this.ads.push(row);
    return row.id;
  }

  async linkTags(adId: string, tagIds: string[]) {
    this.log.push(`tags ${this.current} ${tagIds.length}`);
    const refused = this.failWhen('tags', this.current);
    if (refused) throw new Error(refused);
    for (const tagId of tagIds) this.tagLinks.push({ adId, tagId });
  }

  /** Objects whose ad row does not exist. */
  orphans(): StoredObject[] {
    return this.objects.filter(
      (object) => !this.ads.some((ad) => [ad.original_path, ad.display_480_path, ad.display_960_path, ad.preview_path, ad.video_path].includes(object.path)),
    );
  }
}

export const imageFile = (name: string, type = 'image/jpeg', bytes = 2048) => new File([new Uint8Array(bytes)], name, { type });

export const videoFile = (name: string, type = 'video/webm', bytes = 4096) => new File([new Uint8Array(bytes)], name, { type });
