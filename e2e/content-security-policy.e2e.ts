import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { expect } from 'vitest';
import { DEMO_ACCOUNTS, seedDemoAccounts } from '../local/seed/demo-accounts.ts';
import { CARDS, waitForItemCount } from './support/ad-grid.ts';
import { expectConsoleErrors, journeyWithLibrary } from './support/journey.ts';
import { provisionAccount, signIn } from './support/signed-in.ts';

const ADMIN = DEMO_ACCOUNTS.find((account) => account.role === 'admin')!;
const SUBSCRIBER = { email: 'csp-subscriber@obyect.e2e', password: 'e2e-subscriber-password' };
const POLL = { timeout: 30_000, interval: 250 };

const journey = journeyWithLibrary(async (stack) => {
  await seedDemoAccounts(stack.db);
  await provisionAccount(stack, 'subscriber', SUBSCRIBER.email, SUBSCRIBER.password);
  const { rows } = await stack.db.query<{ n: number }>('select count(*)::int as n from public.ads where not is_black_friday');
  return { ads: rows[0]!.n };
});

/**
 * Every Content-Security-Policy violation of the page, from the document's own
 * event and from Chromium's console, which reports blocked loads there.
 */
function watchViolations(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => {
    if (/Content Security Policy/i.test(error.message)) violations.push(`page error: ${error.message}`);
  });
  void page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.warn(`Content Security Policy violation: ${event.effectiveDirective} blocked ${event.blockedURI}`);
    });
  });
  return violations;
}

/** The document's policy as the stack sent it. */
async function documentPolicy(page: Page, path: string): Promise<string> {
  const response = await page.goto(path);
  return (await response!.allHeaders())['content-security-policy'] ?? '';
}

/** Waits until every image on the page has loaded or failed, so that a blocked one is reported before the check. */
const imagesSettled = (page: Page) => page.evaluate(() => [...document.images].every((image) => image.complete));

journey('an anonymous visitor browses the library and opens an ad under the Content-Security-Policy without a violation', async ({ page, library }) => {
  const violations = watchViolations(page);
  const policy = await documentPolicy(page, '/library');
  expect(policy).toContain("script-src 'self'");
  expect(policy).toContain("frame-ancestors 'none'");
  await waitForItemCount(page, library.ads);
  await expect.poll(() => imagesSettled(page), POLL).toBe(true);
  await page.locator(`${CARDS}[data-locked="false"] a`).first().click();
  await page.locator('[data-testid="ad-detail"]').waitFor({ state: 'visible' });
  await expect.poll(() => imagesSettled(page), POLL).toBe(true);
  expect(violations).toEqual([]);

  // The policy is enforced: an inline script is refused (and Chromium says so on the console).
  expectConsoleErrors(page, /Content Security Policy/);
  const ran = await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.__inlineRan = true';
    document.body.append(script);
    return (window as unknown as { __inlineRan?: boolean }).__inlineRan === true;
  });
  expect(ran).toBe(false);
  await expect.poll(() => violations.length, POLL).toBeGreaterThan(0);
  // The file's first page load also compresses the SPA's scripts (the e2e stack does not precompress them).
}, 180_000);

journey('a subscriber opens an ad detail and its images under the Content-Security-Policy without a violation', async ({ page, stack, library }) => {
  const violations = watchViolations(page);
  await signIn(page, stack, SUBSCRIBER);
  await documentPolicy(page, '/library');
  await waitForItemCount(page, library.ads);
  await page.locator(`${CARDS} a`).first().click();
  await page.locator('[data-testid="ad-detail"]').waitFor({ state: 'visible' });
  await expect.poll(() => imagesSettled(page), POLL).toBe(true);
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => imagesSettled(page), POLL).toBe(true);
  expect(violations).toEqual([]);
});

journey('the admin uploads an image on /admin (previews, canvas, thumbhash, the OCR worker and its WebAssembly) under the Content-Security-Policy without a violation', async ({ page, stack }) => {
  const violations = watchViolations(page);
  await signIn(page, stack, ADMIN);
  await documentPolicy(page, '/admin');
  const upload = page.getByRole('region', { name: 'Bulk upload' });
  await upload.waitFor();
  const brand = `Csp ${Date.now()}`;
  await upload.getByPlaceholder('New brand').fill(brand);
  await upload.getByRole('button', { name: 'Add brand' }).click();
  await page.getByText('Brand added').waitFor();
  await upload.getByPlaceholder('New category').fill(`Csp category ${Date.now()}`);
  await upload.getByRole('button', { name: 'Add category' }).click();
  await page.getByText('Category added').waitFor();
  const image = await sharp({ create: { width: 1080, height: 1350, channels: 3, background: '#2a9d8f' } }).jpeg().toBuffer();
  await upload.locator('input[type="file"]').setInputFiles([{ name: 'csp.jpg', mimeType: 'image/jpeg', buffer: image }]);
  await expect.poll(() => upload.locator('[data-testid="upload-item"]').count(), POLL).toBe(1);
  await upload.getByRole('button', { name: 'Upload all' }).click();
  await page.getByText('Processed all files.').waitFor({ timeout: 120_000 });
  expect(await upload.locator('[data-testid="upload-item"][data-status="done"]').count()).toBe(1);
  // The image's text was read (there is none, or a few marks): the worker and its engine ran under the policy.
  await upload.getByText('No text was found in the image.').or(upload.getByTestId('upload-image-text')).waitFor();
  expect(await upload.getByText(/could not be read/).count()).toBe(0);
  await page.goto(`/library?brand=${encodeURIComponent(brand)}`);
  await waitForItemCount(page, 1);
  await expect.poll(() => imagesSettled(page), POLL).toBe(true);
  expect(violations).toEqual([]);
}, 180_000);
