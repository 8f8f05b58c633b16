import type { Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { expect } from 'vitest';
import { seedDemoAccounts } from '../local/seed/demo-accounts.ts';
import type { E2eStack } from './support/e2e-stack.ts';
import { journeyWithLibrary } from './support/journey.ts';
import { seriousAxeViolations } from './support/axe.ts';
import { signIn } from './support/signed-in.ts';
import { publicObjectUrl, signedObjectUrl } from './support/stored-images.ts';

const ADMIN = { email: 'admin@obyect.local', password: 'obyect-admin' };
const POLL = { timeout: 20_000, interval: 200 };
const ROW = '[data-testid="admin-ad-row"]';

interface AdRow {
  id: string;
  type_id: string | null;
  original_path: string;
  display_480_path: string;
  display_960_path: string;
  preview_path: string;
}

/**
 * The stack's six demo ads (one brand) plus a brand without ads to rename and
 * delete, a tag and a type to set; the demo admin of `npm start`.
 */
const journey = journeyWithLibrary(async (stack) => {
  await seedDemoAccounts(stack.db);
  const one = async (sql: string, params: unknown[]) => (await stack.db.query<{ id: string; name: string }>(sql, params)).rows[0]!;
  const brand = await one(`select b.id, b.name from public.brands b join public.ads a on a.brand_id = b.id limit 1`, []);
  const spare = await one(`insert into public.brands (name) values ('Spare Brand') returning id, name`, []);
  const tag = await one(`insert into public.tags (name) values ('Bestseller') returning id, name`, []);
  const type = await one(`insert into public.types (name) values ('UGC') returning id, name`, []);
  return { brand, spare, tag, type };
});

const adsOf = async (stack: E2eStack, brandId: string) =>
  (await stack.db.query<AdRow>(
    `select id, type_id, original_path, display_480_path, display_960_path, preview_path from public.ads where brand_id = $1 order by created_at desc, id desc`,
    [brandId],
  )).rows;
const tagIdsOf = async (stack: E2eStack, adId: string) =>
  (await stack.db.query<{ tag_id: string }>('select tag_id from public.ad_tags where ad_id = $1', [adId])).rows.map((row) => row.tag_id);

/** The admin page, scrolled to the ad table so it loads. */
async function openAdTable(page: Page, stack: E2eStack): Promise<Locator> {
  await signIn(page, stack, ADMIN);
  await page.goto('/admin');
  const table = page.getByRole('region', { name: 'Ad Management' }).or(page.locator('section[aria-labelledby="admin-ads-heading"]'));
  await table.scrollIntoViewIfNeeded();
  await page.locator(ROW).first().waitFor({ state: 'visible', timeout: 20_000 });
  return table;
}

const row = (page: Page, adId: string) => page.locator(`${ROW}[data-ad-id="${adId}"]`);
const select = (page: Page, adId: string) => row(page, adId).locator('input[type="checkbox"]').check();
const toast = (page: Page, text: string) => page.locator('[data-sonner-toast]', { hasText: text }).first().waitFor({ state: 'visible', timeout: 15_000 });

journey('the admin edits one ad inline, bulk-sets the type of three, and bulk-adds and removes a tag', async ({ page, stack, library }) => {
  const ads = await adsOf(stack, library.brand.id);
  await openAdTable(page, stack);
  expect(await seriousAxeViolations(page)).toEqual([]);

  await row(page, ads[0]!.id).getByRole('button', { name: `Edit ${library.brand.name} ad` }).click();
  await row(page, ads[0]!.id).getByRole('combobox', { name: 'Type of this ad' }).selectOption({ label: 'UGC' });
  await row(page, ads[0]!.id).getByRole('button', { name: 'Save' }).click();
  await toast(page, 'Ad updated');
  expect((await adsOf(stack, library.brand.id))[0]!.type_id).toBe(library.type.id);
  await expect.poll(() => row(page, ads[0]!.id).locator('td').nth(4).textContent(), POLL).toBe('UGC');

  const three = ads.slice(1, 4).map((ad) => ad.id);
  for (const id of three) await select(page, id);
  const bar = page.getByRole('region', { name: '3 selected' });
  // The bulk bar and the edited row, checked once the previous toast has gone (toasts belong to the app's toaster).
  await expect.poll(() => page.locator('[data-sonner-toast]').count(), POLL).toBe(0);
  expect(await seriousAxeViolations(page)).toEqual([]);
  await bar.getByRole('combobox', { name: 'Set type' }).selectOption({ label: 'UGC' });
  await bar.getByRole('button', { name: 'Apply to Selected' }).click();
  await toast(page, '3 ad(s) updated.');
  const afterType = await adsOf(stack, library.brand.id);
  expect(afterType.filter((ad) => ad.type_id === library.type.id).map((ad) => ad.id).sort()).toEqual([ads[0]!.id, ...three].sort());
  await expect.poll(() => page.getByRole('region', { name: /selected$/ }).count(), POLL).toBe(0);

  const two = [ads[4]!.id, ads[5]!.id];
  for (const id of two) await select(page, id);
  await page.getByRole('region', { name: '2 selected' }).getByRole('button', { name: 'Add tags' }).click();
  await page.getByRole('dialog', { name: 'Add tags' }).getByText('Bestseller', { exact: true }).click();
  await page.keyboard.press('Escape');
  await page.getByRole('region', { name: '2 selected' }).getByRole('button', { name: 'Apply to Selected' }).click();
  await toast(page, '2 ad(s) updated.');
  for (const id of two) expect(await tagIdsOf(stack, id)).toContain(library.tag.id);
  await expect.poll(() => row(page, two[0]!).getByText('Bestseller', { exact: true }).count(), POLL).toBe(1);

  for (const id of two) await select(page, id);
  await page.getByRole('region', { name: '2 selected' }).getByRole('button', { name: 'Remove tags' }).click();
  await page.getByRole('dialog', { name: 'Remove tags' }).getByText('Bestseller', { exact: true }).click();
  await page.keyboard.press('Escape');
  await page.getByRole('region', { name: '2 selected' }).getByRole('button', { name: 'Apply to Selected' }).click();
  await expect.poll(async () => (await Promise.all(two.map((id) => tagIdsOf(stack, id)))).flat().includes(library.tag.id), POLL).toBe(false);
  await expect.poll(() => row(page, two[0]!).getByText('Bestseller', { exact: true }).count(), POLL).toBe(0);
});

journey('the admin bulk-deletes two ads after confirming, and their stored images are gone from storage', async ({ page, stack, library }) => {
  const ads = await adsOf(stack, library.brand.id);
  const doomed = ads.slice(-2);
  // The bucket is private: no public URL serves the images, a signed link does until the object is gone.
  const signed = await Promise.all(doomed.map((ad) => signedObjectUrl(stack, 'ad-images', ad.display_480_path)));
  for (const ad of doomed) expect((await fetch(publicObjectUrl(stack, 'ad-images', ad.display_480_path))).status).toBe(404);
  for (const url of signed) expect((await fetch(url)).status).toBe(200);
  await openAdTable(page, stack);

  for (const ad of doomed) await select(page, ad.id);
  await page.getByRole('button', { name: 'Delete Selected' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirm Deletion' });
  await dialog.getByText('Delete 2 ad(s)? This cannot be undone.').waitFor({ state: 'visible' });
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await toast(page, '2 ad(s) removed.');
  await expect.poll(() => row(page, doomed[0]!.id).count(), POLL).toBe(0);
  expect((await adsOf(stack, library.brand.id)).map((ad) => ad.id)).not.toContain(doomed[0]!.id);

  const objects = doomed.flatMap((ad) => [
    ['ad-originals', ad.original_path],
    ['ad-images', ad.display_480_path],
    ['ad-images', ad.display_960_path],
    ['ad-images', ad.preview_path],
  ]);
  const remaining = async () =>
    (await stack.db.query<{ n: number }>(
      'select count(*)::int as n from storage.objects o join unnest($1::text[], $2::text[]) d (bucket_id, name) on o.bucket_id = d.bucket_id and o.name = d.name',
      [objects.map(([bucket]) => bucket), objects.map(([, name]) => name)],
    )).rows[0]!.n;
  // The storage worker removes queued objects every few seconds.
  await expect.poll(remaining, POLL).toBe(0);
  for (const url of signed) expect((await fetch(url)).status).toBe(404);
});

journey('the admin renames and deletes a brand, each after its confirmation', async ({ page, stack, library }) => {
  await signIn(page, stack, ADMIN);
  await page.goto('/admin');
  const brands = page.getByRole('region', { name: 'Brands' });
  await brands.getByRole('button', { name: 'Edit Spare Brand' }).waitFor({ state: 'visible' });
  for (const kind of ['brands', 'categories', 'tags', 'types']) {
    const list = page.getByTestId(`manage-${kind}-scroll`);
    expect(await list.evaluate((element) => [getComputedStyle(element).maxHeight, getComputedStyle(element).overflowY, element.clientHeight])).toEqual(['320px', 'auto', 320]);
  }
  await brands.getByRole('button', { name: 'Edit Spare Brand' }).click();
  await brands.getByRole('textbox', { name: 'New name for Spare Brand' }).fill('Renamed Brand');
  await brands.getByRole('button', { name: 'Save' }).click();
  await toast(page, 'Brand updated');
  const name = async () => (await stack.db.query<{ name: string }>('select name from public.brands where id = $1', [library.spare.id])).rows[0]?.name;
  expect(await name()).toBe('Renamed Brand');

  await brands.getByRole('button', { name: 'Delete Renamed Brand' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirm Deletion' });
  await dialog.getByText('Delete "Renamed Brand"? This cannot be undone.').waitFor({ state: 'visible' });
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await toast(page, 'Brand deleted');
  expect(await name()).toBeUndefined();
  await expect.poll(() => brands.getByRole('button', { name: 'Edit Renamed Brand' }).count(), POLL).toBe(0);
});

journey('the admin uploads a brand logo and it shows on the brand’s cards', async ({ page, stack, library }) => {
  await signIn(page, stack, ADMIN);
  await page.goto('/admin');
  const logos = page.getByRole('region', { name: 'Brand logos' });
  const chooser = page.waitForEvent('filechooser');
  await logos.getByRole('button', { name: `Upload logo for ${library.brand.name}` }).click();
  const png = await sharp({ create: { width: 96, height: 96, channels: 3, background: '#e63946' } }).png().toBuffer();
  await (await chooser).setFiles({ name: 'northwind logo.png', mimeType: 'image/png', buffer: png });
  await toast(page, 'Logo uploaded');
  const logoPath = async () => (await stack.db.query<{ logo_path: string | null }>('select logo_path from public.brands where id = $1', [library.brand.id])).rows[0]!.logo_path;
  expect(await logoPath()).toMatch(new RegExp(`^${library.brand.id}/\\d{13}-northwind-logo\\.png$`));
  await logos.getByRole('button', { name: `Replace logo for ${library.brand.name}` }).waitFor({ state: 'visible' });

  await page.goto('/library');
  const logo = page.locator('[data-testid="ad-card"] header img').first();
  await logo.waitFor({ state: 'visible', timeout: 20_000 });
  expect(await logo.getAttribute('src')).toContain(`/storage/v1/object/public/brand-logos/${await logoPath()}`);
  await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), POLL).toBe(96);
});
