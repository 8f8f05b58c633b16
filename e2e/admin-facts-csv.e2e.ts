import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { seedDemoAccounts } from '../local/seed/demo-accounts.ts';
import { parseCsv, serialiseCsv } from '../src/features/admin-ads/lib/csv.ts';
import type { E2eStack } from './support/e2e-stack.ts';
import { journeyWithLibrary } from './support/journey.ts';
import { seriousAxeViolations } from './support/axe.ts';
import { signIn } from './support/signed-in.ts';

const ADMIN = { email: 'admin@obyect.local', password: 'obyect-admin' };
const POLL = { timeout: 20_000, interval: 200 };
const ROW = '[data-testid="admin-ad-row"]';
/** Set to a folder to keep screenshots of the table, the facts editor and the import previews. */
const SHOTS = process.env.ADMIN_FACTS_SCREENSHOTS;

const dayAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

/** The stack's demo ads, each with facts (an ended run), and two hooks; the demo admin of `npm start`. */
const journey = journeyWithLibrary(async (stack) => {
  await seedDemoAccounts(stack.db);
  await stack.db.query(`insert into public.hooks (name) values ('Social proof'), ('Before and after') on conflict do nothing`);
  await stack.db.query(
    `update public.ads set platforms = array['meta', 'instagram'], format = 'single_image', offer = 'discount', first_seen = $1, last_seen = $2,
            headline = 'Glow, "naturally"', primary_text = E'Line one,\\nline two', hook_id = (select id from public.hooks where name = 'Social proof')`,
    [dayAgo(60), dayAgo(10)],
  );
  const ids = (await stack.db.query<{ id: string }>('select id from public.ads order by created_at desc, id desc')).rows.map((row) => row.id);
  return { ids };
});

const factsOf = async (stack: E2eStack) =>
  (await stack.db.query<{ id: string; platforms: string[] | null; offer: string | null; first_seen: string | null; last_seen: string | null; headline: string | null; primary_text: string | null }>(
    'select id, platforms, offer, first_seen::text, last_seen::text, headline, primary_text from public.ads order by id',
  )).rows;

async function openAdTable(page: Page, stack: E2eStack) {
  await signIn(page, stack, ADMIN);
  await page.goto('/admin');
  await page.locator('section[aria-labelledby="admin-ads-heading"]').scrollIntoViewIfNeeded();
  await page.locator(ROW).first().waitFor({ state: 'visible', timeout: 20_000 });
}

/** Hands the import the CSV records as a file. */
async function importCsv(page: Page, records: string[][]) {
  await page.getByTestId('facts-csv-input').setInputFiles({ name: 'facts.csv', mimeType: 'text/csv', buffer: Buffer.from(`\uFEFF${serialiseCsv(records)}`, 'utf8') });
  const dialog = page.getByRole('dialog', { name: 'Import ad facts' });
  await dialog.waitFor({ state: 'visible' });
  // Its opening animation over, so what is checked is what stays on screen.
  await dialog.evaluate((element) => Promise.all(element.getAnimations({ subtree: true }).map((animation) => animation.finished)));
  return dialog;
}

journey('the admin exports the facts, changes three ads in the file, previews and applies them; a bad file changes nothing', async ({ page, stack, library }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openAdTable(page, stack);
  const row = (id: string) => page.locator(`${ROW}[data-ad-id="${id}"]`);
  expect(await row(library.ids[0]!).locator('td').nth(8).textContent()).toBe('Discount');
  expect((await seriousAxeViolations(page)).join('\n')).toBe('');
  if (SHOTS) {
    await page.getByRole('heading', { name: 'Ad Management' }).evaluate((heading) => heading.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: `${SHOTS}/table-1440.png` });
  }

  // The row's facts editor: opened from the row, Escape leaves it unchanged.
  await row(library.ids[0]!).getByRole('button', { name: /^Edit the facts of/ }).click();
  const editor = page.getByTestId('facts-editor');
  await editor.waitFor({ state: 'visible' });
  if (SHOTS) {
    await editor.evaluate((form) => form.scrollIntoView({ block: 'center' }));
    await page.screenshot({ path: `${SHOTS}/facts-editor-1440.png` });
  }
  await page.keyboard.press('Escape');
  await editor.waitFor({ state: 'detached' });

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`obyect-ad-facts-${new Date().toISOString().slice(0, 10)}.csv`);
  const text = await readFile((await download.path())!, 'utf8');
  expect(text.startsWith('\uFEFFid,brand,category,type,tags,platforms,')).toBe(true);
  const [header, ...records] = parseCsv(text);
  expect(records.map((record) => record[0]).sort()).toEqual([...library.ids].sort());
  const column = (name: string) => header!.indexOf(name);
  expect(records[0]![column('headline')]).toBe('Glow, "naturally"');
  expect(records[0]![column('primary_text')]).toBe('Line one,\nline two');

  const [first, second, third] = records;
  // The export's toast shown and gone, the preview is checked on its own.
  await page.locator('[data-sonner-toast]', { hasText: `${records.length} ad(s) exported.` }).first().waitFor({ state: 'visible' });
  await expect.poll(() => page.locator('[data-sonner-toast]').count(), POLL).toBe(0);
  const edited = records.map((record) => [...record]);
  edited[0]![column('offer')] = 'bundle';
  edited[1]![column('platforms')] = 'tiktok|youtube';
  edited[2]![column('last_seen')] = dayAgo(5);
  const dialog = await importCsv(page, [header!, ...edited]);
  const changes = dialog.getByTestId('import-changes').locator(':scope > li');
  expect(await changes.count()).toBe(3);
  expect(await changes.evaluateAll((items) => items.map((item) => item.getAttribute('data-ad-id')))).toEqual([first![0], second![0], third![0]]);
  expect(await changes.nth(0).textContent()).toContain('discount to →bundle');
  expect(await changes.nth(1).textContent()).toContain('meta|instagram to →tiktok|youtube');
  expect(await dialog.getByText(`3 ad(s) will change. ${records.length - 3} row(s) change nothing.`).isVisible()).toBe(true);
  expect((await seriousAxeViolations(page)).join('\n')).toBe('');
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/import-preview-1440.png` });
  await dialog.getByRole('button', { name: 'Apply changes' }).click();
  await page.locator('[data-sonner-toast]', { hasText: 'Facts imported' }).first().waitFor({ state: 'visible' });
  await dialog.waitFor({ state: 'detached' });

  const stored = new Map((await factsOf(stack)).map((ad) => [ad.id, ad]));
  expect(stored.get(first![0]!)!.offer).toBe('bundle');
  expect(stored.get(second![0]!)!.platforms).toEqual(['tiktok', 'youtube']);
  expect(stored.get(third![0]!)!.last_seen).toBe(dayAgo(5));
  expect(stored.get(first![0]!)!.primary_text).toBe('Line one,\nline two');
  await expect.poll(() => row(first![0]!).locator('td').nth(8).textContent(), POLL).toBe('Bundle');
  expect(await row(second![0]!).locator('td').nth(6).textContent()).toBe('TikTok, YouTube');

  await expect.poll(() => page.locator('[data-sonner-toast]').count(), POLL).toBe(0);
  // A file with a bad platform, last seen before first seen and an unknown id: every row named, nothing applied.
  const before = await factsOf(stack);
  const bad = records.map((record) => [...record]);
  bad[0]![column('platforms')] = 'meta|myspace';
  bad[1]![column('last_seen')] = dayAgo(90);
  bad[2]![0] = '00000000-0000-4000-8000-000000000000';
  bad[3]![column('offer')] = 'none';
  const refused = await importCsv(page, [header!, ...bad]);
  expect(await refused.getByTestId('import-errors').locator('li').allTextContents()).toEqual([
    'Row 2, Platforms: Platforms must be some of meta, instagram, tiktok, youtube, pinterest, snapchat and google, separated by | and each named once.',
    'Row 3, Last seen: Last seen must not be before first seen.',
    'Row 4: No ad has this id. It may have been deleted.',
  ]);
  expect(await refused.getByRole('button', { name: 'Apply changes' }).count()).toBe(0);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/import-errors-1440.png` });
  await refused.getByRole('button', { name: 'Cancel' }).click();
  expect(await factsOf(stack)).toEqual(before);

  if (SHOTS) {
    for (const id of library.ids.slice(0, 2)) await row(id).locator('input[type="checkbox"]').check();
    const bar = page.getByRole('region', { name: '2 selected' });
    await bar.getByRole('button', { name: 'Set facts' }).click();
    await bar.getByRole('combobox', { name: 'Offer' }).selectOption({ label: 'Free shipping' });
    await bar.getByRole('combobox', { name: 'Platforms' }).selectOption({ label: 'set…' });
    await bar.evaluate((element) => element.scrollIntoView({ block: 'center' }));
    await page.screenshot({ path: `${SHOTS}/bulk-facts-1440.png` });
  }

  if (SHOTS) {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await page.locator('section[aria-labelledby="admin-ads-heading"]').scrollIntoViewIfNeeded();
    await page.locator(ROW).first().waitFor({ state: 'visible', timeout: 20_000 });
    await page.getByRole('heading', { name: 'Ad Management' }).evaluate((heading) => heading.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: `${SHOTS}/table-390.png` });
  }
});
