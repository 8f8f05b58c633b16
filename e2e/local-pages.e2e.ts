import { expect } from 'vitest';
import { journey } from './support/journey.ts';

journey('the local mailbox page lists the emails the stack sent, none on a fresh stack', async ({ page }) => {
  const response = await page.goto('/_mailbox');
  expect(response?.status()).toBe(200);
  expect(await page.title()).toBe('Local mailbox (0)');
});

journey('an unknown address shows the not-found page with a way home', async ({ page }) => {
  await page.goto('/does-not-exist');
  await page.getByText('Oops! Page not found').waitFor({ state: 'visible' });
  expect(await page.title()).toBe('Page not found – Obyect');
  await page.getByRole('link', { name: 'Return to Home' }).click();
  await page.waitForURL((url) => url.pathname !== '/does-not-exist');
});
