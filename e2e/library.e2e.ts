import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { CLEAR_CARDS, LOCKED_CARDS, clearFirstPerPage, collectCards, itemCount, waitForItemCount } from './support/ad-grid.ts';
import { insertDemoAds } from './support/demo-ads.ts';
import type { E2eStack } from './support/e2e-stack.ts';
import { journeyWithLibrary } from './support/journey.ts';
import { provisionAccount, signIn } from './support/signed-in.ts';

const SEARCH = 'Search brands & categories…';
const FREE_USER = { email: 'free@obyect.e2e', password: 'e2e-free-password' };
const POLL = { timeout: 15_000, interval: 200 };

/**
 * Beside the stack's six demo ads (one brand), one brand with 64 ads: the
 * library's first page is a full 60, and that brand alone takes two pages.
 * All 70 are premium, so the free sample holds seven of them (the 1st, 11th...
 * in insert order).
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

/** The library's ads (of one brand, when given), newest first, and which of them are in the free sample. */
async function libraryAds(stack: E2eStack, brandName?: string): Promise<{ idsNewestFirst: string[]; sample: Set<string> }> {
  const { rows } = await stack.db.query<{ id: string; free_sample: boolean }>(
    `select a.id, a.free_sample from public.ads a join public.brands b on b.id = a.brand_id
      where not a.is_black_friday and ($1::text is null or b.name = $1)
      order by a.created_at desc, a.id desc`,
    [brandName ?? null],
  );
  return { idsNewestFirst: rows.map((row) => row.id), sample: new Set(rows.filter((row) => row.free_sample).map((row) => row.id)) };
}

const clearIds = (cards: { id: string; locked: boolean }[]) => new Set(cards.filter((card) => !card.locked).map((card) => card.id));
const brandsOf = async (page: Page, total: number) => new Set((await collectCards(page, total)).map((card) => card.brand));

journey('an anonymous visitor browses the library: a full page of ads, the free sample clear and leading each page, the rest locked', async ({ page, stack }) => {
  const { idsNewestFirst, sample } = await libraryAds(stack);
  // One premium ad in ten, fixed by insert order: 7 of the 70.
  expect(idsNewestFirst).toHaveLength(70);
  expect(sample.size).toBe(7);
  const firstPageClear = idsNewestFirst.slice(0, 60).filter((id) => sample.has(id)).length;
  expect(firstPageClear).toBeGreaterThan(0);

  await page.goto('/library');
  await waitForItemCount(page, 60);
  expect(await page.title()).toBe('Ad Library – Filters and Discovery');
  // The first page's clear ads lead it, at the top of the grid.
  expect(await cardCount(page, CLEAR_CARDS)).toBe(firstPageClear);
  // Walking both pages: exactly the sample is clear, each page with its clear ads first, then its locked ones.
  const cards = await collectCards(page, 70);
  expect(clearIds(cards)).toEqual(sample);
  expect(cards.map((card) => card.id)).toEqual(clearFirstPerPage(idsNewestFirst, sample));
  expect(cards.filter((card) => card.unlockPrompt).map((card) => card.id)).toEqual(cards.filter((card) => card.locked).map((card) => card.id));
});

journey('a brand in the URL filters the library, the brand control shows it, and the list scrolls to its end', async ({ page, stack, library }) => {
  const { idsNewestFirst, sample } = await libraryAds(stack, library.bigBrand);
  await page.goto(`/library?brand=${encodeURIComponent(library.bigBrand)}`);
  await waitForItemCount(page, 60);
  expect(await page.getByRole('button', { name: `Brand: ${library.bigBrand}`, exact: true }).textContent()).toBe(library.bigBrand);

  const cards = await collectCards(page, 64);
  expect(await page.locator('[data-testid="list-end"]').textContent()).toBe('You’ve reached the end.');
  expect(await itemCount(page)).toBe(64);
  expect(new Set(cards.map((card) => card.brand))).toEqual(new Set([library.bigBrand]));
  // A filter shows clear exactly the sample's ads that match (six of the brand's 64), each page leading with them.
  expect(sample.size).toBe(6);
  expect(clearIds(cards)).toEqual(sample);
  expect(cards.map((card) => card.id)).toEqual(clearFirstPerPage(idsNewestFirst, sample));
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

journey('a signed-in free user sees the same free sample clear as an anonymous visitor, and a locked card opens the plans instead of the ad', async ({ page, stack }) => {
  const { idsNewestFirst, sample } = await libraryAds(stack);
  await signIn(page, stack, FREE_USER);
  await page.goto('/library');
  await waitForItemCount(page, 60);
  expect(await cardCount(page, CLEAR_CARDS)).toBe(idsNewestFirst.slice(0, 60).filter((id) => sample.has(id)).length);
  await page.getByRole('button', { name: 'Subscribe Now to Unlock Full Access' }).waitFor({ state: 'visible' });
  // Browsing adds nothing to what the account sees clear: a reload after walking both pages shows the same sample.
  expect(clearIds(await collectCards(page, 70))).toEqual(sample);
  // The reload comes back where the walk ended (the list's second page included).
  await page.reload();
  await expect.poll(() => itemCount(page), POLL).toBeGreaterThanOrEqual(60);
  expect(clearIds(await collectCards(page, 70))).toEqual(sample);

  await page.evaluate(() => window.scrollTo(0, 0));
  await page.locator(`${LOCKED_CARDS} > button`).first().click();
  await page.getByRole('dialog', { name: 'Unlock every winning ad' }).waitFor({ state: 'visible' });
  expect(new URL(page.url()).pathname).toBe('/library');
});
