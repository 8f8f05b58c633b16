import { beforeEach, describe, expect, it, vi } from 'vitest';
import { uploadAd } from '../../../src/features/admin-upload/api/upload-ad.ts';
import { sanitizeFileName, sizeInKb, sortChosenFiles } from '../../../src/features/admin-upload/lib/file-names.ts';
import { newAdObjectPaths, newVideoAdObjectPaths } from '../../../src/features/admin-upload/lib/object-paths.ts';
import { isGeneratedImageName, isGeneratedVideoName } from '../../../local/storage/upload-checks.ts';
import { checkUploadFacts, EMPTY_UPLOAD_FACTS, factsOfFile } from '../../../src/features/admin-upload/lib/upload-facts.ts';
import { FakeUploadServices, imageFile, videoFile } from './fake-upload-services.ts';

const noFacts = () => {
  const checked = checkUploadFacts(factsOfFile(EMPTY_UPLOAD_FACTS, {}));
  if (!checked.ok) throw new Error('empty facts are valid');
  return checked.facts;
};
const upload = (file: File) => ({ file, brandId: 'b1', categoryId: 'c1', tagIds: ['t1', 't2'], facts: noFacts() });

describe('file names and types', () => {
  it('keeps the images the storage takes and names every other file with its reason', () => {
    const huge = imageFile('huge.png', 'image/png');
    const bigVideo = new File(['x'], 'big.webm', { type: 'video/webm' });
    Object.defineProperty(bigVideo, 'size', { value: 50 * 1024 * 1024 + 1 });
    Object.defineProperty(huge, 'size', { value: 20 * 1024 * 1024 + 1 });
    const { accepted, refused } = sortChosenFiles([
      imageFile('a.jpg'),
      new File(['x'], 'notes.txt', { type: 'text/plain' }),
      imageFile('b.svg', 'image/svg+xml'),
      new File(['x'], 'clip.mp4', { type: 'video/mp4' }),
      new File(['x'], 'clip.mov', { type: 'video/quicktime' }),
      bigVideo,
      imageFile('c.webp', 'image/webp'),
      new File(['x'], 'photo.heic', { type: 'image/heic' }),
      new File([], 'empty.png', { type: 'image/png' }),
      huge,
      new File(['x'], 'no-type', { type: '' }),
    ]);
    expect(accepted.map((file) => file.name)).toEqual(['a.jpg', 'clip.mp4', 'c.webp']);
    expect(refused).toEqual([
      { name: 'notes.txt', reason: { kind: 'not-an-image' } },
      { name: 'b.svg', reason: { kind: 'unsupported-format', format: 'SVG' } },
      { name: 'clip.mov', reason: { kind: 'unsupported-video', format: 'QUICKTIME' } },
      { name: 'big.webm', reason: { kind: 'video-too-large' } },
      { name: 'photo.heic', reason: { kind: 'unsupported-format', format: 'HEIC' } },
      { name: 'empty.png', reason: { kind: 'empty' } },
      { name: 'huge.png', reason: { kind: 'too-large' } },
      { name: 'no-type', reason: { kind: 'not-an-image' } },
    ]);
  });

  it('sanitises names to letters, digits, dot, underscore and hyphen', () => {
    expect(sanitizeFileName('Spring sale #1 (final).JPG')).toBe('Spring_sale__1__final_.JPG');
    expect(sanitizeFileName('café/../ad.png')).toBe('cafe_.._ad.png');
    expect(sanitizeFileName('广告')).toBe('__');
    expect(sizeInKb(1536)).toBe(2);
    expect(sizeInKb(100)).toBe(1);
  });

  it('generates fresh unguessable paths the storage accepts from a browser', () => {
    const a = newAdObjectPaths('image/png');
    const b = newAdObjectPaths('image/png');
    expect(a.original_path).toMatch(/^[0-9a-f]{32}\/original\.png$/);
    expect(a.display_480_path).toBe(a.original_path.replace('original.png', '480.webp'));
    expect(a.preview_path).toMatch(/^previews\/[0-9a-f]{32}\.webp$/);
    expect(a.preview_path.slice(9, 41)).not.toBe(a.original_path.slice(0, 32));
    expect(b.original_path).not.toBe(a.original_path);
    for (const path of Object.values(a)) expect(isGeneratedImageName(path), path).toBe(true);
  });
});

describe('video paths', () => {
  it('puts a video beside its poster in one random folder, under names the storage accepts', () => {
    const paths = newVideoAdObjectPaths('mp4');
    expect(paths.original_path).toMatch(/^[0-9a-f]{32}\/original\.webp$/);
    expect(paths.video_path).toBe(paths.original_path.replace('original.webp', 'video.mp4'));
    expect(isGeneratedVideoName(paths.video_path)).toBe(true);
    const { video_path: _video, ...images } = paths;
    for (const path of Object.values(images)) expect(isGeneratedImageName(path), path).toBe(true);
  });
});

describe('uploadAd', () => {
  let services: FakeUploadServices;
  beforeEach(() => {
    services = new FakeUploadServices();
    vi.spyOn(console, 'warn').mockImplementation(() => {});
  });

  it('stores the original and three WebP variants, then the row with size and thumbhash, then its tags', async () => {
    const result = await uploadAd(services, upload(imageFile('one.jpg')));
    expect(services.log).toEqual([
      'variants one.jpg',
      'fingerprint one.jpg',
      'text one.jpg',
      'put ad-originals one.jpg',
      'put ad-images one.jpg',
      'put ad-images one.jpg',
      'put ad-images one.jpg',
      'insert one.jpg',
      'tags one.jpg 2',
    ]);
    expect(services.objects.map((object) => [object.bucket, object.contentType])).toEqual([
      ['ad-originals', 'image/jpeg'],
      ['ad-images', 'image/webp'],
      ['ad-images', 'image/webp'],
      ['ad-images', 'image/webp'],
    ]);
    const [ad] = services.ads;
    expect(ad).toMatchObject({ brand_id: 'b1', category_id: 'c1', width: 1080, height: 1350, thumbhash: 'YJqGPQw7sFlslqhFafSE+Q6oJ1h2iHB2Rw==' });
    expect(services.tagLinks).toEqual([
      { adId: ad!.id, tagId: 't1' },
      { adId: ad!.id, tagId: 't2' },
    ]);
    expect(ad).toMatchObject({ image_text: 'TEXT OF one.jpg', platforms: null, placement: null, still_running: false, headline: null });
    expect(result).toEqual({ adId: ad!.id, path: ad!.display_960_path, imageText: 'TEXT OF one.jpg' });
  });

  it('inserts the row with image_text null when the text cannot be read, and the upload still succeeds', async () => {
    services.failWhen = (step) => (step === 'text' ? 'worker crashed' : null);
    const result = await uploadAd(services, upload(imageFile('two.jpg')));
    expect(result.imageText).toBeNull();
    expect(services.ads).toHaveLength(1);
    expect(services.ads[0]!.image_text).toBeNull();
    expect(services.orphans()).toEqual([]);
  });

  it('inserts the facts in the same row as the image', async () => {
    const checked = checkUploadFacts(
      factsOfFile(
        { ...EMPTY_UPLOAD_FACTS, platforms: ['meta', 'tiktok'], format: 'single_image', first_seen: '2026-01-02', still_running: true, country: 'de', language: 'EN' },
        { headline: '  Glow up  ', platforms: ['instagram'] },
      ),
    );
    if (!checked.ok) throw new Error(`refused ${checked.fields.join()}`);
    await uploadAd(services, { ...upload(imageFile('three.jpg')), facts: checked.facts });
    expect(services.ads[0]).toMatchObject({
      platforms: ['instagram'],
      format: 'single_image',
      first_seen: '2026-01-02',
      last_seen: null,
      still_running: true,
      headline: 'Glow up',
      country: 'DE',
      language: 'en',
      image_text: 'TEXT OF three.jpg',
    });
    expect(services.log.filter((line) => line.startsWith('insert'))).toEqual(['insert three.jpg']);
  });

  it('removes the objects already uploaded when a later one fails, and inserts no row', async () => {
    services.failWhen = (step, subject) => (step === 'put' && subject.includes('480.webp') ? 'mime type image/png is not supported' : null);
    await expect(uploadAd(services, upload(imageFile('two.jpg')))).rejects.toThrow(/^Image upload failed$/);
    expect(services.log).toContain('remove ad-originals 1');
    expect(services.log).toContain('remove ad-images 2');
    expect(services.log.some((line) => line.startsWith('insert'))).toBe(false);
    expect(services.objects).toEqual([]);
    expect(services.ads).toEqual([]);
  });

  it('says why a step failed in our words when the error tells, and never the server\'s or the library\'s text', async () => {
    const refusals: [unknown, string][] = [
      [Object.assign(new Error('Payload too large'), { status: 413, statusCode: '413' }), 'Image upload failed: the file is too large'],
      [Object.assign(new Error('mime type image/png is not supported'), { statusCode: '415' }), 'Image upload failed: its content is not a JPEG, PNG, WebP, GIF or AVIF image'],
      [Object.assign(new Error('new row violates row-level security policy'), { status: 403 }), 'Image upload failed: your account may not upload ads'],
      [new Error('Failed to fetch'), 'Image upload failed'],
    ];
    for (const [error, message] of refusals) {
      const failing = new FakeUploadServices();
      failing.putObject = async () => {
        throw error;
      };
      await expect(uploadAd(failing, upload(imageFile('five.jpg')))).rejects.toThrow(new RegExp(`^${message}$`));
    }
  });

  it('removes all four objects when the row is refused', async () => {
    services.failWhen = (step) => (step === 'insert' ? 'new row violates row-level security policy' : null);
    await expect(uploadAd(services, upload(imageFile('three.jpg')))).rejects.toThrow(/^Ad record insert failed$/);
    expect(services.objects).toEqual([]);
    expect(services.log.slice(-2)).toEqual(['remove ad-originals 1', 'remove ad-images 3']);
  });

  it('keeps the ad when only its tags fail, with a warning', async () => {
    services.failWhen = (step) => (step === 'tags' ? 'tag missing' : null);
    await uploadAd(services, upload(imageFile('four.jpg')));
    expect(services.ads).toHaveLength(1);
    expect(services.orphans()).toEqual([]);
    expect(console.warn).toHaveBeenCalled();
  });

  it('fails an unreadable file before anything is uploaded', async () => {
    services.failWhen = (step) => (step === 'variants' ? 'unreadable' : null);
    await expect(uploadAd(services, upload(imageFile('broken.jpg')))).rejects.toThrow('The file is not a readable image');
    expect(services.objects).toEqual([]);
  });

  it('refuses an image type the originals bucket does not take, uploading nothing', async () => {
    await expect(uploadAd(services, upload(imageFile('logo.svg', 'image/svg+xml')))).rejects.toThrow('Image upload failed: its content is not a JPEG, PNG, WebP, GIF or AVIF image');
    expect(services.log).toEqual([]);
  });
});

describe('uploadAd with a video', () => {
  let services: FakeUploadServices;
  beforeEach(() => {
    services = new FakeUploadServices();
    vi.spyOn(console, 'warn').mockImplementation(() => {});
  });

  it('stores the poster as the original, its three WebP variants and the video, then the row of format video with its length and the poster\'s fingerprint', async () => {
    const result = await uploadAd(services, upload(videoFile('clip.webm')));
    expect(services.log).toEqual([
      'video clip.webm',
      'fingerprint clip.webm',
      'text clip.webm',
      'put ad-originals clip.webm',
      'put ad-images clip.webm',
      'put ad-images clip.webm',
      'put ad-images clip.webm',
      'put ad-videos clip.webm',
      'insert clip.webm',
      'tags clip.webm 2',
    ]);
    expect(services.objects.map((object) => [object.bucket, object.contentType])).toEqual([
      ['ad-originals', 'image/webp'],
      ['ad-images', 'image/webp'],
      ['ad-images', 'image/webp'],
      ['ad-images', 'image/webp'],
      ['ad-videos', 'video/webm'],
    ]);
    const [ad] = services.ads;
    expect(ad).toMatchObject({ format: 'video', video_duration_ms: 4200, width: 1080, height: 1920, image_text: 'TEXT OF clip.webm' });
    expect(ad!.visual_hash).toMatch(/^-?\d+$/);
    expect(ad!.video_path).toMatch(/^[0-9a-f]{32}\/video\.webm$/);
    expect(result.path).toBe(ad!.display_960_path);
  });

  it('says in our words when the video cannot be played, is too long or too short, or is refused by the storage, and leaves nothing behind', async () => {
    services.failWhen = (step, subject) => (step === 'video' && subject === 'broken.webm' ? 'unreadable' : step === 'video' && subject === 'long.mp4' ? 'too long' : null);
    await expect(uploadAd(services, upload(videoFile('broken.webm')))).rejects.toThrow(/^The file is not a video this browser can play$/);
    await expect(uploadAd(services, upload(videoFile('long.mp4', 'video/mp4')))).rejects.toThrow(/^Videos can be half a second to 10 minutes long$/);
    services.failWhen = (step, subject) => (step === 'put' && subject.includes('ad-videos') ? 'refused' : null);
    const refused = Object.assign(new Error('The file is not a video'), { statusCode: '415' });
    const put = services.putObject.bind(services);
    services.putObject = async (bucket, path, body, type) => {
      if (bucket === 'ad-videos') throw refused;
      return put(bucket, path, body, type);
    };
    await expect(uploadAd(services, upload(videoFile('fake.webm')))).rejects.toThrow(/^Video upload failed: its content is not a whole MP4 or WebM video$/);
    expect(services.ads).toEqual([]);
    expect(services.objects).toEqual([]);
  });

  it('keeps the format video even when the batch says another', async () => {
    const checked = checkUploadFacts(factsOfFile({ ...EMPTY_UPLOAD_FACTS, format: 'single_image' }, {}));
    if (!checked.ok) throw new Error('valid facts');
    await uploadAd(services, { ...upload(videoFile('clip.mp4', 'video/mp4')), facts: checked.facts });
    expect(services.ads[0]).toMatchObject({ format: 'video' });
    expect(services.ads[0]!.video_path).toMatch(/\/video\.mp4$/);
  });
});
