import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { expect } from 'vitest';
import { DEMO_ACCOUNTS, seedDemoAccounts } from '../local/seed/demo-accounts.ts';
import { journeyWithLibrary } from './support/journey.ts';
import { signIn } from './support/signed-in.ts';

const ADMIN = DEMO_ACCOUNTS.find((account) => account.role === 'admin')!;
/** OCR in a shared machine's headless browser: generous waits, never a timing assertion. */
const POLL = { timeout: 120_000, interval: 500 };
const ITEMS = '[data-testid="upload-item"]';

/** A 4:5 image with two lines of large printed words and a button (white words on a saturated pill), as a designer's PNG would have them. */
async function printedImage(lines: [string, string], button: { label: string; fill: string }): Promise<Buffer> {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="1080" height="1350">` +
    `<rect width="1080" height="1350" fill="#fbf7f0"/>` +
    lines.map((line, i) => `<text x="540" y="${520 + i * 190}" font-family="DejaVu Sans" font-weight="700" font-size="120" fill="#111111" text-anchor="middle">${line}</text>`).join('') +
    `<rect x="370" y="1010" width="340" height="110" rx="55" fill="${button.fill}"/>` +
    `<text x="540" y="1080" font-family="DejaVu Sans" font-weight="700" font-size="44" fill="#ffffff" text-anchor="middle">${button.label}</text>` +
    `</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** Every request the page and its workers make to an origin other than the stack's. */
function requestsElsewhere(page: Page, origin: string): string[] {
  const elsewhere: string[] = [];
  page.context().on('request', (request) => {
    const url = request.url();
    if (url.startsWith('data:') || url.startsWith('blob:')) return;
    if (new URL(url).origin !== origin) elsewhere.push(url);
  });
  return elsewhere;
}

const journey = journeyWithLibrary(async (stack) => {
  await seedDemoAccounts(stack.db);
  const suffix = randomBytes(3).toString('hex');
  return { brand: `Aurora ${suffix}`, category: `Wellness ${suffix}` };
});

journey('the demo admin uploads two images with their facts: each one’s printed words are read in the browser and stored with the row', async ({ page, stack, library }) => {
  const elsewhere = requestsElsewhere(page, new URL(stack.url).origin);
  await signIn(page, stack, ADMIN);
  await page.goto('/admin');
  const upload = page.getByRole('region', { name: 'Bulk upload' });
  await upload.waitFor();
  await upload.getByPlaceholder('New brand').fill(library.brand);
  await upload.getByRole('button', { name: 'Add brand' }).click();
  await page.getByText('Brand added').waitFor();
  await upload.getByPlaceholder('New category').fill(library.category);
  await upload.getByRole('button', { name: 'Add category' }).click();
  await page.getByText('Category added').waitFor();

  // The facts of the batch.
  const batch = upload.getByRole('group', { name: 'Facts for all files' });
  await batch.getByRole('button', { name: 'Meta' }).click();
  await batch.getByRole('button', { name: 'TikTok' }).click();
  await batch.getByLabel('Format').selectOption('single_image');
  await batch.getByLabel('Offer').selectOption('discount');
  await batch.getByLabel('Call to action').selectOption('shop_now');
  await batch.getByLabel('Landing page').fill('https://aurora.example/spring');
  await batch.getByLabel('First seen').fill('2026-10-01');
  await batch.getByLabel('Still running').check();
  await batch.getByLabel('Language').fill('en');
  await batch.getByLabel('Country').fill('US');

  await upload.locator('input[type="file"]').setInputFiles([
    { name: 'spring.png', mimeType: 'image/png', buffer: await printedImage(['SPRING SALE', 'FREE SHIPPING'], { label: 'SHOP NOW', fill: '#d6336c' }) },
    { name: 'serum.png', mimeType: 'image/png', buffer: await printedImage(['GLOW SERUM', 'ORDER TODAY'], { label: 'TRY IT', fill: '#2f5bd8' }) },
  ]);
  await expect.poll(() => upload.locator(ITEMS).count(), POLL).toBe(2);

  // The second file has its own headline and country; a bad landing page stops the whole batch before anything goes up.
  const serumRow = upload.locator(ITEMS).filter({ hasText: 'serum.png' });
  await serumRow.getByText('Facts of this file').click();
  const serumFacts = serumRow.getByRole('group', { name: 'Facts of serum.png' });
  await serumFacts.getByLabel('Headline').fill('Glow all winter');
  await serumFacts.getByLabel('Country').fill('GB');
  await serumFacts.getByLabel('Landing page').fill('ftp://aurora.example');
  await upload.getByRole('button', { name: 'Upload all' }).click();
  await page.getByText('Nothing was uploaded').waitFor();
  expect(await serumRow.getByRole('alert').textContent()).toContain('Check these facts: Landing page.');
  expect(await upload.locator(`${ITEMS}[data-status="pending"]`).count()).toBe(2);
  await serumFacts.getByLabel('Landing page').fill('');

  await upload.getByRole('button', { name: 'Upload all' }).click();
  await page.getByText('Processed all files.').waitFor({ timeout: 240_000 });
  expect(await upload.locator(`${ITEMS}[data-status="done"]`).count()).toBe(2);
  const springText = await upload.locator(ITEMS).filter({ hasText: 'spring.png' }).getByTestId('upload-image-text').textContent();
  expect(springText).toMatch(/^Text in the image: /);
  expect(springText).toContain('SPRING');
  expect(await serumRow.getByTestId('upload-image-text').textContent()).toContain('SERUM');

  const { rows } = await stack.db.query<{
    headline: string | null;
    platforms: string[];
    format: string;
    offer: string;
    call_to_action: string;
    landing_url: string;
    first_seen: string;
    still_running: boolean;
    language: string;
    country: string;
    image_text: string;
  }>(
    `select a.headline, a.platforms, a.format, a.offer, a.call_to_action, a.landing_url, to_char(a.first_seen, 'YYYY-MM-DD') as first_seen,
            a.still_running, a.language, a.country, a.image_text
       from public.ads a join public.brands b on b.id = a.brand_id where b.name = $1 order by a.headline nulls first`,
    [library.brand],
  );
  expect(rows).toHaveLength(2);
  const [spring, serum] = rows;
  for (const row of rows) {
    expect(row).toMatchObject({ platforms: ['meta', 'tiktok'], format: 'single_image', offer: 'discount', call_to_action: 'shop_now', first_seen: '2026-10-01', still_running: true, language: 'en' });
  }
  expect(spring).toMatchObject({ headline: null, country: 'US', landing_url: 'https://aurora.example/spring' });
  expect(serum).toMatchObject({ headline: 'Glow all winter', country: 'GB', landing_url: 'https://aurora.example/spring' });
  // The buttons' short words too: Tesseract alone skips words enclosed by a filled shape (docs/decisions/0076).
  for (const word of ['SPRING', 'SALE', 'FREE', 'SHIPPING', 'SHOP', 'NOW']) expect(spring!.image_text.split(' ')).toContain(word);
  for (const word of ['GLOW', 'SERUM', 'ORDER', 'TODAY', 'TRY', 'IT']) expect(serum!.image_text.split(' ')).toContain(word);

  // The OCR's worker, engine and model came from the stack itself, like everything else.
  expect(elsewhere).toEqual([]);
}, 240_000);

journey('Read text in images reads the image of an ad that has no text yet, with the progress up to the end', async ({ page, stack }) => {
  const elsewhere = requestsElsewhere(page, new URL(stack.url).origin);
  // The stack's demo ads print "Demo ad N" on their image (and have no text yet): one of them is left without text.
  const { rows } = await stack.db.query<{ id: string }>(`select id from public.ads where image_text is null order by created_at desc, id desc limit 1`);
  const ad = rows[0]!;
  await stack.db.query(`update public.ads set image_text = 'read before' where id <> $1`, [ad.id]);
  await stack.db.query('update public.ads set image_text = null where id = $1', [ad.id]);

  await signIn(page, stack, ADMIN);
  await page.goto('/admin');
  const card = page.getByRole('region', { name: 'Read text in images' });
  await card.getByRole('button', { name: 'Read text in images' }).click();
  const bar = card.getByRole('progressbar', { name: 'Images read' });
  await bar.waitFor();
  expect(await bar.getAttribute('aria-valuemax')).toBe('1');
  await card.getByText('Done: 1 image read.').waitFor({ timeout: 240_000 });
  expect(await bar.getAttribute('aria-valuenow')).toBe('1');
  expect(await card.getByText('1 of 1 images read').count()).toBe(1);

  const { rows: after } = await stack.db.query<{ image_text: string | null }>('select image_text from public.ads where id = $1', [ad.id]);
  expect(after[0]!.image_text).toMatch(/Demo/i);
  const { rows: others } = await stack.db.query<{ n: number }>(`select count(*)::int as n from public.ads where image_text <> 'read before' and id <> $1`, [ad.id]);
  expect(others[0]!.n).toBe(0);
  expect(elsewhere).toEqual([]);
}, 240_000);
