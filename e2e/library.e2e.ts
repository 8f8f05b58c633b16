import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { CLEAR_CARDS, LOCKED_CARDS, clearAndLocked, collectCards, itemCount, waitForItemCount } from './support/ad-grid.ts';
import { insertDemoAds } from './support/demo-ads.ts';
import { journeyWithLibrary } from './support/journey.ts';
import { provisionAccount, signIn } from './support/signed-in.ts';

const SEARCH = 'Search brands & categories…';
const FREE_USER = { email: 'free@obyect.e2e', password: 'e2e-free-password' };
const POLL = { timeout: 15_000, interval: 200 };

/**
 * Beside the stack's six demo ads (one brand), one brand with 64 ads: the
 * library's first page is a full 60, and that brand alone takes two pages.
 */
const journey = journeyWithLibrary(async (stack) => {
  const big = await insertDemoAds(stack, 64, { brandPrefix: 'Lumen', minutesAgo: 10, width: 600 });
  const { rows } = await stack.db.query<{ name: string }>(
    "select name from public.brands where name like 'Northwind %' limit 1",
  );
  await provisionAccount(stack, 'free', FREE_USER.email, FREE_USER.password);
  return { bigBrand: big.brandName, smallBrand: rows[0]!.name };
});

const cardCount = (page: Page, selector: string) => page.locator(selector).count();
const brandsOf = async (page: Page, total: number) => new Set((await collectCards(page, total)).map((card) => card.brand));

journey('an anonymous visitor browses the library: a full page of ads, the first 10% clear and the rest locked', async ({ page }) => {
  await page.goto('/library');
  await waitForItemCount(page, 60);
  expect(await page.title()).toBe('Ad Library – Filters and Discovery');
  // The six clear ones are the page's newest, at the top of the grid.
  expect(await cardCount(page, CLEAR_CARDS)).toBe(6);
  // The second page (the last 10 of 70 ads) has its own teaser: ceil(10% of 10) = 1.
  expect(await clearAndLocked(page, 70)).toEqual({ clear: 7, locked: 63 });
});

journey('a brand in the URL filters the library, the brand control shows it, and the list scrolls to its end', async ({ page, library }) => {
  await page.goto(`/library?brand=${encodeURIComponent(library.bigBrand)}`);
  await waitForItemCount(page, 60);
  const brandControl = page.locator('select[aria-label="Brand"]');
  expect(await brandControl.evaluate((select: HTMLSelectElement) => select.selectedOptions[0]?.textContent)).toBe(library.bigBrand);

  const cards = await collectCards(page, 64);
  expect(await page.locator('[data-testid="list-end"]').textContent()).toBe('You’ve reached the end.');
  expect(await itemCount(page)).toBe(64);
  expect(new Set(cards.map((card) => card.brand))).toEqual(new Set([library.bigBrand]));
  // A filter never unlocks: not even the unfiltered view's teaser is clear.
  expect(cards.filter((card) => !card.locked)).toEqual([]);
});

journey('searching narrows the results and keeps the search in the URL', async ({ page, library }) => {
  await page.goto('/library');
  await waitForItemCount(page, 60);
  await page.getByPlaceholder(SEARCH).fill(library.smallBrand);
  await page.waitForURL((url) => url.searchParams.get('q') === library.smallBrand);
  await waitForItemCount(page, 6);
  expect(await brandsOf(page, 6)).toEqual(new Set([library.smallBrand]));
  await page.locator('[data-testid="list-end"]').waitFor({ state: 'visible' });

  // Loading the URL as it stands gives the same search and results.
  await page.reload();
  await waitForItemCount(page, 6);
  expect(await brandsOf(page, 6)).toEqual(new Set([library.smallBrand]));
  expect(await page.getByPlaceholder(SEARCH).inputValue()).toBe(library.smallBrand);
});

journey('an anonymous visitor who has seen 15 ads meets the gate when opening the next one', async ({ page }) => {
  await page.goto('/library');
  await page.locator(CLEAR_CARDS).first().waitFor({ state: 'visible' });
  await page.evaluate(() => window.localStorage.setItem('obyect_ad_views', '15'));
  await page.locator(`${CLEAR_CARDS} a`).first().click();
  await page.waitForURL('**/ads/*');
  await page.getByRole('dialog', { name: 'Create your account to continue exploring winning ads' }).waitFor({ state: 'visible' });
  expect(await page.evaluate(() => window.localStorage.getItem('obyect_ad_views'))).toBe('16');
});

journey('a locked card sends an anonymous visitor to sign in, with the filtered library as the next page', async ({ page, library }) => {
  const path = `/library?brand=${encodeURIComponent(library.bigBrand)}`;
  await page.goto(path);
  await page.locator(LOCKED_CARDS).first().waitFor({ state: 'visible' });
  await page.locator(`${LOCKED_CARDS} > button`).first().click();
  await page.waitForURL((url) => url.pathname === '/auth/signin');
  const next = new URL(page.url()).searchParams.get('next');
  expect(next).toBe(path);
});

journey('a signed-in free user sees the first 10% clear, and a locked card opens the plans instead of the ad', async ({ page, stack }) => {
  await signIn(page, stack, FREE_USER);
  await page.goto('/library');
  await waitForItemCount(page, 60);
  expect(await cardCount(page, CLEAR_CARDS)).toBe(6);
  await page.getByRole('button', { name: 'Subscribe Now to Unlock Full Access' }).waitFor({ state: 'visible' });

  await page.locator(`${LOCKED_CARDS} > button`).first().click();
  await page.getByRole('dialog', { name: 'Unlock every winning ad' }).waitFor({ state: 'visible' });
  expect(new URL(page.url()).pathname).toBe('/library');
});
