import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { expect } from 'vitest';
import { DEMO_ACCOUNTS, seedDemoAccounts } from '../local/seed/demo-accounts.ts';
import { journeyWithLibrary } from './support/journey.ts';
import { signIn } from './support/signed-in.ts';
import { signedObjectUrl } from './support/stored-images.ts';

const ADMIN = DEMO_ACCOUNTS.find((account) => account.role === 'admin')!;
const POLL = { timeout: 30_000, interval: 250 };
const ITEMS = '[data-testid="upload-item"]';

/**
 * One of the stack's demo ads and its original, fetched back from storage.
 */
const journey = journeyWithLibrary(async (stack) => {
  await seedDemoAccounts(stack.db);
  const { rows } = await stack.db.query<{ id: string; original_path: string }>(
    `select id, original_path from public.ads where visual_hash is not null and not is_black_friday order by created_at desc, id desc limit 1`,
  );
  const ad = rows[0]!;
  const original = Buffer.from(await (await fetch(await signedObjectUrl(stack, 'ad-originals', ad.original_path))).arrayBuffer());
  return { adId: ad.id, original };
});

journey('the admin uploads a smaller, recompressed copy of an ad: it is flagged with that ad, kept, and listed with it among the near-duplicates', async ({ page, stack, library }) => {
  // A brand and category of this try's own: a second try starts from none of the first one's ads.
  const suffix = randomBytes(3).toString('hex');
  const brand = `Echo ${suffix}`;
  await stack.db.query('insert into public.brands (name) values ($1)', [brand]);
  await stack.db.query('insert into public.categories (name) values ($1)', [`Repeats ${suffix}`]);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, stack, ADMIN);
  await page.goto('/admin');
  const upload = page.getByRole('region', { name: 'Bulk upload' });
  await upload.waitFor();
  await upload.getByRole('combobox', { name: 'Brand', exact: true }).selectOption({ label: brand });
  await upload.getByRole('combobox', { name: 'Category', exact: true }).selectOption({ label: `Repeats ${suffix}` });

  const copy = await sharp(library.original).resize(800).jpeg({ quality: 62 }).toBuffer();
  // A layout of this try's own: a second try's file is no copy of the first one's.
  const bar = 100 + (parseInt(suffix, 16) % 500);
  const fresh = await sharp({ create: { width: 700, height: 1000, channels: 3, background: '#1d3557' } })
    .composite([{ input: Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="700" height="1000"><rect x="80" y="${bar}" width="540" height="300" fill="#f4d03f"/><circle cx="${bar}" cy="180" r="90" fill="#ee7fb4"/></svg>`) }])
    .png()
    .toBuffer();
  await upload.locator('input[type="file"]').setInputFiles([
    { name: 'copy.jpg', mimeType: 'image/jpeg', buffer: copy },
    { name: 'fresh.png', mimeType: 'image/png', buffer: fresh },
  ]);
  await expect.poll(() => upload.locator(ITEMS).count(), POLL).toBe(2);
  const flagged = upload.locator(ITEMS).filter({ hasText: 'copy.jpg' }).getByTestId('duplicate-notice');
  await flagged.waitFor({ timeout: 30_000 });
  expect(await flagged.textContent()).toContain('Looks like an ad already in the library');
  const shown = flagged.locator(`[data-testid="duplicate-of"][data-ad-id="${library.adId}"] img`);
  await shown.waitFor();
  await expect.poll(() => shown.evaluate((image) => (image as HTMLImageElement).complete && (image as HTMLImageElement).naturalWidth > 0), POLL).toBe(true);
  // The other file is checked and not flagged.
  await expect.poll(() => upload.locator(ITEMS).filter({ hasText: 'fresh.png' }).getByTestId('duplicate-checking').count(), POLL).toBe(0);
  expect(await upload.locator(ITEMS).filter({ hasText: 'fresh.png' }).getByTestId('duplicate-notice').count()).toBe(0);

  // Nothing goes up until the flagged file is skipped or kept.
  await upload.getByRole('button', { name: 'Upload all' }).click();
  await page.getByText('Some files look like images already uploaded. Skip or keep each of them, then upload again.').waitFor();
  expect((await stack.db.query('select 1 from public.ads a join public.brands b on b.id = a.brand_id where b.name = $1', [brand])).rows).toEqual([]);

  await flagged.getByRole('button', { name: 'Keep copy.jpg' }).click();
  await upload.locator(ITEMS).filter({ hasText: 'copy.jpg' }).getByTestId('duplicate-kept').waitFor();
  await upload.getByRole('button', { name: 'Upload all' }).click();
  await page.getByText('Processed all files.').waitFor({ timeout: 120_000 });
  await expect.poll(() => upload.locator(`${ITEMS}[data-status="done"]`).count(), POLL).toBe(2);

  const { rows } = await stack.db.query<{ name: string; near: string | null; hash: string | null }>(
    `select case when a.width = 700 then 'fresh' else 'copy' end as name, a.near_duplicate_of as near, a.visual_hash::text as hash
       from public.ads a join public.brands b on b.id = a.brand_id where b.name = $1 order by 1`,
    [brand],
  );
  expect(rows.map((row) => [row.name, row.near]), JSON.stringify({ rows, adId: library.adId })).toEqual([
    ['copy', library.adId],
    ['fresh', null],
  ]);
  expect(rows.every((row) => row.hash !== null)).toBe(true);

  // The ad table (it loads as it comes into view) lists them as a group: the demo ad first, the copy under it.
  await page.getByRole('region', { name: 'Ad Management' }).scrollIntoViewIfNeeded();
  const groups = page.getByTestId('near-duplicates');
  await groups.waitFor();
  await groups.getByRole('button', { name: /^Near-duplicates \(\d+\)$/ }).click();
  const group = groups.getByTestId('near-duplicate-group').filter({ has: page.locator(`[data-ad-id="${library.adId}"]`) });
  await group.waitFor();
  expect(await group.getByTestId('near-duplicate').count()).toBe(2);
  expect(await group.getByTestId('near-duplicate').first().getAttribute('data-ad-id')).toBe(library.adId);
});

journey('the admin skips a file that repeats an earlier file of the list', async ({ page, stack, library }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, stack, ADMIN);
  await page.goto('/admin');
  const upload = page.getByRole('region', { name: 'Bulk upload' });
  await upload.waitFor();
  const image = await sharp({ create: { width: 600, height: 750, channels: 3, background: '#7d4cdb' } })
    .composite([{ input: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="600" height="750"><circle cx="300" cy="300" r="160" fill="#ffffff"/></svg>') }])
    .png()
    .toBuffer();
  await upload.locator('input[type="file"]').setInputFiles([
    { name: 'first.png', mimeType: 'image/png', buffer: image },
    { name: 'again.jpg', mimeType: 'image/jpeg', buffer: await sharp(image).jpeg({ quality: 70 }).toBuffer() },
  ]);
  const flagged = upload.locator(ITEMS).filter({ hasText: 'again.jpg' }).getByTestId('duplicate-notice');
  await flagged.waitFor({ timeout: 30_000 });
  expect(await flagged.textContent()).toContain('Nearly the same image as first.png.');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  if (process.env.SIMILAR_SCREENSHOTS) {
    await flagged.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${process.env.SIMILAR_SCREENSHOTS}/upload-duplicate-390.png` });
  }
  await flagged.getByRole('button', { name: 'Skip again.jpg' }).click();
  await expect.poll(() => upload.locator(ITEMS).count(), POLL).toBe(1);
  expect(library.adId).toBeTruthy();
});
