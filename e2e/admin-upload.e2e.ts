import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { expect } from 'vitest';
import { DEMO_ACCOUNTS, seedDemoAccounts } from '../local/seed/demo-accounts.ts';
import { journeyWithLibrary } from './support/journey.ts';
import { signIn } from './support/signed-in.ts';
import { publicObjectUrl, signedObjectUrl } from './support/stored-images.ts';

const ADMIN = DEMO_ACCOUNTS.find((account) => account.role === 'admin')!;
const POLL = { timeout: 30_000, interval: 250 };
const ITEMS = '[data-testid="upload-item"]';

/** Five real images of different colours at the ads' 4:5 aspect, one file that only claims to be a JPEG, a text file and an SVG. */
async function files() {
  const colours = ['#e63946', '#2a9d8f', '#264653', '#f4a261', '#6d597a'];
  const images = await Promise.all(
    colours.map(async (colour, i) => ({
      name: `Spring sale #${i + 1}.${i % 2 === 0 ? 'jpg' : 'png'}`,
      mimeType: i % 2 === 0 ? 'image/jpeg' : 'image/png',
      buffer: await (i % 2 === 0 ? sharp({ create: { width: 1080, height: 1350, channels: 3, background: colour } }).jpeg() : sharp({ create: { width: 1080, height: 1350, channels: 3, background: colour } }).png()).toBuffer(),
    })),
  );
  const broken = { name: 'broken.jpg', mimeType: 'image/jpeg', buffer: randomBytes(4096) };
  const notes = { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an image') };
  const logo = { name: 'logo.svg', mimeType: 'image/svg+xml', buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>') };
  return [...images.slice(0, 3), broken, logo, ...images.slice(3), notes];
}

const journey = journeyWithLibrary(async (stack) => {
  await seedDemoAccounts(stack.db);
  const suffix = randomBytes(3).toString('hex');
  return { brand: `Aurora ${suffix}`, category: `Wellness ${suffix}`, tag: `Spring ${suffix}` };
});

// Each image's text is read in the browser as it is uploaded (the first one starts the OCR worker): more than the default minute.
journey('the demo admin uploads six images with brand, category and tags: the broken one fails, the others become ads with their variants', async ({ page, stack, library }) => {
  await signIn(page, stack, ADMIN);
  await page.goto('/admin');
  const upload = page.getByRole('region', { name: 'Bulk upload' });
  await upload.waitFor();
  const uploadAll = upload.getByRole('button', { name: 'Upload all' });
  expect(await uploadAll.isDisabled()).toBe(true);

  // Brand, category and tag added inline become the defaults.
  const brandAdd = upload.getByRole('button', { name: 'Add brand' });
  await upload.getByPlaceholder('New brand').fill(' A ');
  expect(await brandAdd.isDisabled()).toBe(true);
  await upload.getByPlaceholder('New brand').fill(`  ${library.brand}  `);
  await brandAdd.click();
  await page.getByText('Brand added').waitFor();
  await upload.getByPlaceholder('New category').fill(library.category);
  await upload.getByRole('button', { name: 'Add category' }).click();
  await page.getByText('Category added').waitFor();
  await upload.getByPlaceholder('New tag').fill(library.tag);
  await upload.getByRole('button', { name: 'Add tag' }).click();
  await upload.getByRole('button', { name: library.tag, pressed: true }).waitFor();
  await expect.poll(() => upload.getByRole('combobox', { name: 'Brand', exact: true }).inputValue(), POLL).not.toBe('');
  await expect.poll(() => upload.getByRole('combobox', { name: 'Category', exact: true }).inputValue(), POLL).not.toBe('');

  // Eight files chosen: the text file and the SVG stay out of the queue, each named with why; names are sanitised.
  await upload.locator('input[type="file"]').setInputFiles(await files());
  await expect.poll(() => upload.locator(ITEMS).count(), POLL).toBe(6);
  expect(await upload.locator(ITEMS).filter({ hasText: /notes|logo/ }).count()).toBe(0);
  const refused = upload.getByTestId('upload-refused');
  expect(await refused.getByText('2 files were not added').count()).toBe(1);
  expect(await refused.getByRole('listitem').allTextContents()).toEqual(['logo.svg: SVG images cannot become ads', 'notes.txt: not an image or a video']);
  expect(await refused.textContent()).toContain('Ads are made from JPEG, PNG, WebP, GIF or AVIF images of up to 20 MB each, and from MP4 or WebM videos of up to 50 MB.');
  await upload.getByText('Spring_sale__1.jpg', { exact: true }).waitFor();
  expect(await upload.locator(`${ITEMS}[data-status="pending"]`).count()).toBe(6);
  const brandSelects = upload.getByRole('combobox', { name: /^Brand for / });
  for (const select of await brandSelects.all()) expect(await select.locator('option:checked').textContent()).toBe(library.brand);

  await uploadAll.click();
  await page.getByText('Processed all files.').waitFor({ timeout: 120_000 });
  expect(await upload.locator(`${ITEMS}[data-status="done"]`).count()).toBe(5);
  const failed = upload.locator(`${ITEMS}[data-status="error"]`);
  expect(await failed.count()).toBe(1);
  expect(await failed.textContent()).toContain('broken.jpg');
  expect(await failed.getByRole('alert').textContent()).toBe('The file is not a readable image');

  // Five ads with the chosen brand, category and tag; every row's four objects exist, nothing else was left behind.
  const { rows: ads } = await stack.db.query<{
    id: string;
    width: number;
    height: number;
    thumbhash: string;
    original_path: string;
    display_480_path: string;
    display_960_path: string;
    preview_path: string;
    tag_names: string[];
  }>(
    `select a.id, a.width, a.height, a.thumbhash, a.original_path, a.display_480_path, a.display_960_path, a.preview_path,
            array(select g.name from public.ad_tags t join public.tags g on g.id = t.tag_id where t.ad_id = a.id) as tag_names
       from public.ads a join public.brands b on b.id = a.brand_id join public.categories c on c.id = a.category_id
      where b.name = $1 and c.name = $2`,
    [library.brand, library.category],
  );
  expect(ads).toHaveLength(5);
  for (const ad of ads) {
    expect([ad.width, ad.height]).toEqual([1080, 1350]);
    expect(ad.tag_names).toEqual([library.tag]);
    expect(ad.thumbhash).toMatch(/^[A-Za-z0-9+/]{8,64}={0,2}$/);
    expect(ad.original_path).toMatch(/^[0-9a-f]{32}\/original\.(jpg|png)$/);
    expect(ad.display_960_path.split('/')[0]).toBe(ad.original_path.split('/')[0]);
    expect(ad.preview_path).toMatch(/^previews\/[0-9a-f]{32}\.webp$/);
  }
  const paths = ads.flatMap((ad) => [ad.original_path, ad.display_480_path, ad.display_960_path, ad.preview_path]);
  const { rows: stored } = await stack.db.query<{ n: number }>(
    `select count(*)::int as n from storage.objects where bucket_id in ('ad-originals', 'ad-images') and name = any($1::text[])`,
    [paths],
  );
  expect(stored[0]!.n).toBe(20);
  // No object without its row: the failed file left nothing behind.
  const { rows: orphans } = await stack.db.query<{ n: number }>(
    `select count(*)::int as n from storage.objects o where o.bucket_id in ('ad-originals', 'ad-images') and not exists (
       select 1 from public.ads a where o.name in (a.original_path, a.display_480_path, a.display_960_path, a.preview_path))`,
  );
  expect(orphans[0]!.n).toBe(0);

  // The library shows them with their display variants (the admin sees everything clear).
  await page.goto(`/library?brand=${encodeURIComponent(library.brand)}`);
  const cards = page.locator('[data-testid="ad-card"]');
  await expect.poll(() => cards.count(), POLL).toBe(5);
  const srcsets = await cards.locator('img[srcset]').evaluateAll((images) => images.map((image) => image.getAttribute('srcset') ?? ''));
  expect(srcsets).toHaveLength(5);
  for (const ad of ads) expect(srcsets.some((srcset) => srcset.includes(ad.display_480_path) && srcset.includes(ad.display_960_path))).toBe(true);
  await expect
    .poll(() => cards.locator('img[srcset]').evaluateAll((images) => images.every((image) => (image as HTMLImageElement).complete && (image as HTMLImageElement).naturalWidth > 0)), POLL)
    .toBe(true);

  // The cards' images come through signed links to the private bucket, never its public path.
  for (const srcset of srcsets) {
    expect(srcset).toContain(`/storage/v1/object/sign/ad-images/`);
    expect(srcset).toContain('?token=');
  }
  expect((await fetch(publicObjectUrl(stack, 'ad-images', ads[0]!.display_480_path))).status).toBe(404);

  // The variants are WebP at 480 and 960 wide; the preview is the small blurred one.
  const sizeOf = async (path: string) => {
    const response = await fetch(await signedObjectUrl(stack, 'ad-images', path));
    expect(response.headers.get('content-type')).toBe('image/webp');
    const metadata = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
    return [metadata.format, metadata.width, metadata.height];
  };
  expect(await sizeOf(ads[0]!.display_960_path)).toEqual(['webp', 960, 1200]);
  expect(await sizeOf(ads[0]!.display_480_path)).toEqual(['webp', 480, 600]);
  expect(await sizeOf(ads[0]!.preview_path)).toEqual(['webp', 32, 40]);
}, 240_000);

journey('a signed-in user who is not an admin is told access is denied', async ({ page, stack }) => {
  const free = DEMO_ACCOUNTS.find((account) => account.role === 'free')!;
  await signIn(page, stack, free);
  await page.goto('/admin');
  await page.getByText('Access denied. This admin panel is restricted to authorized users only.').waitFor();
  expect(await page.getByRole('heading', { name: 'Bulk upload' }).count()).toBe(0);
});
