import { expect } from 'vitest';
import { journey } from './support/journey.ts';

journey('opening the site lands on the library, which shows ads', async ({ page }) => {
  await page.goto('/');
  await page.waitForURL('**/library');
  await page.locator('[data-testid="ad-card"]').first().waitFor({ state: 'visible' });
  expect(await page.title()).toBe('Ad Library – Filters and Discovery');
  expect(await page.locator('[data-testid="ad-card"]').count()).toBeGreaterThanOrEqual(1);
});

journey('the site serves the production build of the app, even when built under the test runner', async ({ page }) => {
  await page.goto('/library');
  await page.locator('[data-testid="ad-card"]').first().waitFor({ state: 'visible' });
  const scripts = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((entry) => entry.name)
      .filter((name) => new URL(name).origin === location.origin && name.endsWith('.js')),
  );
  const bodies = await Promise.all(scripts.map((address) => page.evaluate(async (url) => (await fetch(url)).text(), address)));
  expect(scripts.length).toBeGreaterThan(0);
  // React's development build carries its full warnings; the production build links to its error decoder instead.
  expect(bodies.filter((body) => body.includes('In HTML, %s cannot be a child'))).toEqual([]);
  expect(bodies.some((body) => body.includes('react.dev/errors/'))).toBe(true);
});
