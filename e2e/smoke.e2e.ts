import { expect } from 'vitest';
import { journey } from './support/journey.ts';

journey('opening the site lands on the library, which shows ads', async ({ page }) => {
  await page.goto('/');
  await page.waitForURL('**/library');
  await page.locator('[data-testid="ad-card"]').first().waitFor({ state: 'visible' });
  expect(await page.title()).toBe('Ad Library – Filters and Discovery');
  expect(await page.locator('[data-testid="ad-card"]').count()).toBeGreaterThanOrEqual(1);
});
