import { mkdir } from 'node:fs/promises';
import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { CARDS, CLEAR_CARDS, LOCKED_CARDS, clearAndLocked, collectCards, itemCount } from './support/ad-grid.ts';
import { seriousAxeViolations } from './support/axe.ts';
import { insertDemoAds } from './support/demo-ads.ts';
import type { E2eStack } from './support/e2e-stack.ts';
import { journeyWithLibrary } from './support/journey.ts';
import { provisionAccount, signIn } from './support/signed-in.ts';

const POLL = { timeout: 15_000, interval: 200 };
const WIDTHS = [390, 768, 1024, 1280, 1440] as const;
const FREE = { email: 'free-boards@obyect.e2e', password: 'e2e-free-password' };
const FLAGGED = { email: 'flagged-boards@obyect.e2e', password: 'e2e-flagged-password' };
const SUBSCRIBER = { email: 'subscriber-boards@obyect.e2e', password: 'e2e-subscriber-password' };

/** Puts every ad of a brand on a themed board through its system tag, as the admin's bulk tag edit does. */
async function tagBrand(stack: E2eStack, brandName: string, systemKey: 'black_friday' | 'top_picks') {
  await stack.db.query(
    `insert into public.ad_tags (ad_id, tag_id)
     select a.id, t.id from public.ads a join public.brands b on b.id = a.brand_id, public.tags t
      where b.name = $1 and t.system_key = $2`,
    [brandName, systemKey],
  );
}

/**
 * Twenty Black Friday ads (one brand), and Top Picks from two brands (twelve
 * and eight), each board with its banner; a free user, a free user with the
 * profile's (now unused) Black Friday flag, and a subscriber. All premium: the
 * free sample holds one in ten of them in insert order (two on each board).
 */
const journey = journeyWithLibrary(async (stack) => {
  const blackFriday = await insertDemoAds(stack, 20, { brandPrefix: 'Voltage', minutesAgo: 100, width: 400 });
  await tagBrand(stack, blackFriday.brandName, 'black_friday');
  const topA = await insertDemoAds(stack, 12, { brandPrefix: 'Quill', minutesAgo: 200, width: 400 });
  const topB = await insertDemoAds(stack, 8, { brandPrefix: 'Fira', minutesAgo: 300, width: 400 });
  await tagBrand(stack, topA.brandName, 'top_picks');
  await tagBrand(stack, topB.brandName, 'top_picks');
  for (const page of ['black-friday', 'top-picks']) {
    const path = `e2e/${page}.png`;
    const image = await sharp({ create: { width: 800, height: 200, channels: 3, background: page === 'black-friday' ? '#111111' : '#2a4bd7' } }).png().toBuffer();
    await stack.storage.writeObject('banners', path, image, 'image/png');
    await stack.db.query('insert into public.page_banners (page, image_path) values ($1, $2)', [page, path]);
  }
  await provisionAccount(stack, 'free', FREE.email, FREE.password);
  const flagged = await provisionAccount(stack, 'free', FLAGGED.email, FLAGGED.password);
  await stack.db.query(
    `insert into public.profiles (user_id, black_friday_access) values ($1, true)
     on conflict (user_id) do update set black_friday_access = true`,
    [flagged.id],
  );
  await provisionAccount(stack, 'subscriber', SUBSCRIBER.email, SUBSCRIBER.password);
  return { blackFriday, topA, topB };
});

const count = (page: Page, selector: string) => page.locator(selector).count();

/** The ads of a themed board and which of them are in the free sample, from the database. */
async function boardAds(stack: E2eStack, board: 'is_black_friday' | 'is_top_picks'): Promise<{ ids: Set<string>; sample: Set<string> }> {
  const { rows } = await stack.db.query<{ id: string; free_sample: boolean }>(`select id, free_sample from public.ads where ${board}`);
  return { ids: new Set(rows.map((row) => row.id)), sample: new Set(rows.filter((row) => row.free_sample).map((row) => row.id)) };
}
const clearIds = (cards: { id: string; locked: boolean }[]) => new Set(cards.filter((card) => !card.locked).map((card) => card.id));

const brandsOf = async (page: Page, total: number) => new Set((await collectCards(page, total)).map((card) => card.brand));
const idsOf = async (page: Page, total: number) => (await collectCards(page, total)).map((card) => card.id);

journey('an anonymous visitor meets the exclusive-access dialog on the Black Friday board, at every width', async ({ page }) => {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/black-friday');
    const dialog = page.getByRole('dialog', { name: 'Black Friday Collection' });
    await dialog.waitFor({ state: 'visible' });
    expect(await dialog.getByText('Exclusive Access').isVisible()).toBe(true);
    expect(await count(page, CARDS)).toBe(0);
    expect(await page.title()).toBe('Black Friday Board');
  }
  await page.getByRole('dialog', { name: 'Black Friday Collection' }).getByRole('button', { name: 'Cancel' }).click();
  await page.waitForURL((url) => url.pathname === '/library');
});

journey('an anonymous visitor sees Top Picks with the free sample clear and leading, the banner, and the end', async ({ page, stack }) => {
  const topPicks = await boardAds(stack, 'is_top_picks');
  expect(topPicks.ids.size).toBe(20);
  expect(topPicks.sample.size).toBe(2);
  await page.goto('/top-picks');
  expect(await clearAndLocked(page, 20)).toEqual({ clear: topPicks.sample.size, locked: 20 - topPicks.sample.size });
  expect(await page.title()).toBe('Top Picks');
  expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Top Picks');
  expect(await page.locator('[data-testid="list-end"]').textContent()).toBe('You’ve reached the end.');
  const banner = page.getByTestId('page-banner');
  await banner.waitFor({ state: 'visible' });
  expect(await banner.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBe(800);
  // The clear ones are the sample's and lead the page, whatever the session's order.
  const cards = await collectCards(page, 20);
  expect(clearIds(cards)).toEqual(topPicks.sample);
  expect(cards.slice(0, topPicks.sample.size).every((card) => !card.locked)).toBe(true);
});

journey('a free user opens the whole Black Friday board clear; Top Picks shows only the free sample clear', async ({ page, stack }) => {
  const topPicks = await boardAds(stack, 'is_top_picks');
  await signIn(page, stack, FREE);
  await page.goto('/black-friday');
  expect(await clearAndLocked(page, 20)).toEqual({ clear: 20, locked: 0 });
  expect(await page.getByRole('dialog', { name: 'Black Friday Collection' }).count()).toBe(0);
  await page.goto('/top-picks');
  const cards = await collectCards(page, 20);
  expect(clearIds(cards)).toEqual(topPicks.sample);
  // A locked card opens the plans.
  await page.locator(`${LOCKED_CARDS} > button`).first().click();
  await page.getByRole('dialog', { name: 'Unlock every winning ad' }).waitFor({ state: 'visible' });
});

journey("a free account's Black Friday board has no locked ad, at 1440 and 390 px", async ({ page, stack }) => {
  const blackFriday = await boardAds(stack, 'is_black_friday');
  // Most of the board is outside the free sample: only rule (d), signed in on the Black Friday board, clears it.
  expect(blackFriday.ids.size).toBe(20);
  expect(blackFriday.sample.size).toBeLessThan(blackFriday.ids.size);
  await signIn(page, stack, FREE);
  await mkdir('.tmp', { recursive: true });
  for (const [width, height] of [[1440, 900], [390, 844]] as const) {
    await page.setViewportSize({ width, height });
    await page.goto('/black-friday');
    // The whole board, walked to its end.
    const cards = await collectCards(page, 20);
    await page.locator('[data-testid="list-end"]').waitFor({ state: 'attached' });
    expect(new Set(cards.map((card) => card.id))).toEqual(blackFriday.ids);
    expect(cards.filter((card) => card.locked)).toEqual([]);
    expect(cards.filter((card) => card.unlockPrompt)).toEqual([]);
    expect(await page.getByText('Unlock to view').count()).toBe(0);
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.locator(CARDS).first().waitFor({ state: 'visible' });
    // The first card's clear image has loaded through its signed link.
    await expect
      .poll(() => page.locator(`${CARDS} img[srcset*="/object/sign/ad-images/"]`).first().evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0), POLL)
      .toBe(true);
    await page.screenshot({ path: `.tmp/black-friday-free-${width}.png` });

    // A card opens the ad, not the plans.
    const card = page.locator(CARDS).first();
    const adId = await card.getAttribute('data-ad-id');
    // The card's image: a link to the ad when clear, a button to the plans when locked.
    await card.locator('[data-card-primary]').click();
    await page.waitForURL((url) => url.pathname === `/ads/${adId}`);
    await page.getByTestId('ad-detail').waitFor({ state: 'visible' });
    expect(await page.getByRole('dialog', { name: 'Unlock every winning ad' }).count()).toBe(0);
    expect(await page.getByTestId('ad-detail').getByText('This ad is for members').count()).toBe(0);
    await expect
      .poll(() => page.locator('[data-testid="ad-detail"] img[src*="/object/sign/ad-images/"]').first().evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0), POLL)
      .toBe(true);
    await page.screenshot({ path: `.tmp/black-friday-free-${width}-ad.png` });
  }
});

journey("the profile's Black Friday flag grants nothing more: a flagged free user sees what any free user sees", async ({ page, stack }) => {
  const topPicks = await boardAds(stack, 'is_top_picks');
  await signIn(page, stack, FLAGGED);
  await page.goto('/black-friday');
  expect(await clearAndLocked(page, 20)).toEqual({ clear: 20, locked: 0 });
  await page.goto('/top-picks');
  expect(clearIds(await collectCards(page, 20))).toEqual(topPicks.sample);
});

journey('a subscriber sees both boards clear', async ({ page, stack }) => {
  await signIn(page, stack, SUBSCRIBER);
  await page.goto('/black-friday');
  expect(await clearAndLocked(page, 20)).toEqual({ clear: 20, locked: 0 });
  await page.goto('/top-picks');
  expect(await clearAndLocked(page, 20)).toEqual({ clear: 20, locked: 0 });
});

journey('brand and category in the URL filter a board, the controls show them, and a search narrows further', async ({ page, stack, library }) => {
  await signIn(page, stack, SUBSCRIBER);
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/top-picks?brand=${encodeURIComponent(library.topB.brandName)}`);
    expect(await brandsOf(page, 8)).toEqual(new Set([library.topB.brandName]));
    // Every width shows the filter as a removable chip; from 768 px the brand control shows it too (below, it is in the Filters sheet).
    await page.getByRole('button', { name: `Remove Brand: ${library.topB.brandName}` }).waitFor();
    if (width >= 768) {
      const brand = page.locator('select[aria-label="Brand"]');
      expect(await brand.evaluate((select: HTMLSelectElement) => select.selectedOptions[0]?.textContent)).toBe(library.topB.brandName);
    }
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/top-picks?category=${encodeURIComponent(library.topA.categoryName)}`);
  expect(await brandsOf(page, 12)).toEqual(new Set([library.topA.brandName]));

  await page.goto('/black-friday');
  await expect.poll(() => itemCount(page), POLL).toBe(20);
  await page.getByPlaceholder('Search brands & categories…').fill('no brand is called this');
  await page.getByText('No Black Friday ads found.').waitFor();
  expect(new URL(page.url()).searchParams.get('q')).toBe('no brand is called this');
  await page.locator('select[aria-label="Brand"]').selectOption({ label: 'All brands' });
  await page.locator('select[aria-label="Brand"]').selectOption({ label: library.blackFriday.brandName });
  await page.waitForURL((url) => url.searchParams.get('brand') === library.blackFriday.brandName);
});

journey('the order is shuffled once per session: a reload keeps it', async ({ page, stack }) => {
  await signIn(page, stack, SUBSCRIBER);
  await page.goto('/black-friday');
  const first = await idsOf(page, 20);
  await page.reload();
  expect(await idsOf(page, 20)).toEqual(first);
  // Navigating away and back within the session keeps it too.
  await page.goto('/terms');
  await page.goto('/black-friday');
  expect(await idsOf(page, 20)).toEqual(first);
});

journey('the grid works by keyboard: Enter on a card opens the ad over the board, Escape brings the board back', async ({ page, stack }) => {
  await signIn(page, stack, SUBSCRIBER);
  await page.goto('/top-picks');
  await expect.poll(() => itemCount(page), POLL).toBe(20);
  const first = page.locator(`${CLEAR_CARDS} a`).first();
  await first.focus();
  await page.keyboard.press('Enter');
  await page.waitForURL((url) => url.pathname.startsWith('/ads/'));
  await page.getByTestId('ad-detail').waitFor({ state: 'visible' });
  await page.keyboard.press('Escape');
  await page.waitForURL((url) => url.pathname === '/top-picks');
  expect(await itemCount(page)).toBe(20);
});

journey('axe finds no serious or critical issue on the themed boards, at 390 and 1440 px', async ({ page, stack }) => {
  const problems: string[] = [];
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/top-picks');
    await expect.poll(() => itemCount(page), POLL).toBe(20);
    problems.push(...(await seriousAxeViolations(page)).map((line) => `anonymous /top-picks @${width}: ${line}`));
    await page.goto('/black-friday');
    await page.getByRole('dialog', { name: 'Black Friday Collection' }).waitFor({ state: 'visible' });
    problems.push(...(await seriousAxeViolations(page)).map((line) => `anonymous /black-friday @${width}: ${line}`));
  }
  await signIn(page, stack, FREE);
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/black-friday');
    await expect.poll(() => itemCount(page), POLL).toBe(20);
    problems.push(...(await seriousAxeViolations(page)).map((line) => `free /black-friday @${width}: ${line}`));
  }
  expect(problems).toEqual([]);
});
