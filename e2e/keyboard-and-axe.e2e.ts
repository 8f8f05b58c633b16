import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, expect } from 'vitest';
import { seedDemoAccounts } from '../local/seed/demo-accounts.ts';
import { CARDS, itemCount } from './support/ad-grid.ts';
import { axeReport, type AxeImpact } from './support/axe.ts';
import { journeyWithLibrary } from './support/journey.ts';
import { insertManyAds, saveToBoard, tagBrandForBoard } from './support/many-ads.ts';
import { provisionAccount, signIn } from './support/signed-in.ts';

const POLL = { timeout: 15_000, interval: 200 };
const SUBSCRIBER = { email: 'subscriber-keys@obyect.e2e', password: 'e2e-subscriber-password' };
const FREE = { email: 'free-keys@obyect.e2e', password: 'e2e-free-password' };
const ADMIN = { email: 'admin@obyect.local', password: 'obyect-admin' };
const SHOTS = '/tmp/obyect-shots';

/** A library of 36 ads (a tenth of them the free sample), Top Picks and Black Friday boards, Favorites and a collection. */
const journey = journeyWithLibrary(async (stack) => {
  const library = await insertManyAds(stack, 30, { brandPrefix: 'Lumen', minutesAgo: 10 });
  await tagBrandForBoard(stack, library.brandName, 'top_picks');
  const blackFriday = await insertManyAds(stack, 8, { brandPrefix: 'Voltage', minutesAgo: 500 });
  await tagBrandForBoard(stack, blackFriday.brandName, 'black_friday');
  await seedDemoAccounts(stack.db);
  await provisionAccount(stack, 'free', FREE.email, FREE.password);
  const subscriber = await provisionAccount(stack, 'subscriber', SUBSCRIBER.email, SUBSCRIBER.password);
  await saveToBoard(stack, subscriber.id, { favorites: true }, library.adIds.slice(0, 8));
  const collectionId = await saveToBoard(stack, subscriber.id, { name: 'Moodboard' }, library.adIds.slice(8, 16));
  return { collectionId };
});

/** What has keyboard focus: its test id, tag, type, the card it is in and its accessible name. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const active = document.activeElement as HTMLElement | null;
    const box = active?.getBoundingClientRect();
    return {
      testId: active?.dataset.testid ?? null,
      tag: active?.tagName.toLowerCase() ?? null,
      type: active?.getAttribute('type') ?? null,
      cardId: active?.closest<HTMLElement>('[data-testid="ad-card"]')?.dataset.adId ?? null,
      primary: active?.hasAttribute('data-card-primary') ?? false,
      label: active?.getAttribute('aria-label') ?? active?.textContent?.trim() ?? null,
      onScreen: box ? box.bottom > 0 && box.top < window.innerHeight && box.right > 0 && box.left < window.innerWidth : false,
      outline: active ? getComputedStyle(active).outlineStyle : null,
    };
  });

/** The first cards of the grid in the DOM, for a failure's message. */
const cardOrder = (page: Page) =>
  page.evaluate(() => [...document.querySelectorAll<HTMLElement>('[data-testid="ad-card"]')].slice(0, 12).map((card) => card.dataset.adId?.slice(0, 8)).join(' '));

async function openList(page: Page, path: string): Promise<void> {
  await page.goto(path, { waitUntil: 'domcontentloaded', timeout: 45_000 });
  await expect.poll(() => itemCount(page), POLL).toBeGreaterThan(0);
  await page.locator(CARDS).first().waitFor({ state: 'visible' });
}

/** Tabs until focus is on a card's control; how many Tabs that took. */
async function tabsToFirstCard(page: Page, limit = 40): Promise<number> {
  for (let tabs = 1; tabs <= limit; tabs += 1) {
    await page.keyboard.press('Tab');
    if ((await focused(page)).cardId) return tabs;
  }
  throw new Error(`No card after ${limit} Tabs`);
}

for (const width of [1440, 390] as const) {
  journey(`at ${width} px the first Tab shows the skip link, which leads to the search, and the first card is a few Tabs on`, async ({ page, stack }) => {
    await page.setViewportSize({ width, height: 900 });
    await mkdir(SHOTS, { recursive: true });
    for (const who of ['anonymous', 'subscriber'] as const) {
      if (who === 'subscriber') await signIn(page, stack, SUBSCRIBER);
      await openList(page, '/library');
      await page.keyboard.press('Tab');
      const skip = await focused(page);
      expect(skip, `${who}: the first Tab stop`).toMatchObject({ testId: 'skip-link', label: 'Skip to content', onScreen: true });
      await page.screenshot({ path: `${SHOTS}/skip-link-${who}-${width}.png` });
      await page.keyboard.press('Enter');
      // One Tab and Enter reach the search.
      expect(await focused(page), `${who}: after the skip link`).toMatchObject({ tag: 'input', type: 'search' });
      const tabs = await tabsToFirstCard(page);
      // The filters (brand, category, type, tags, date; from 768 px also platform, format, offer, hook,
      // running days, still running and the order), then the first card; under 768 px one Filters button.
      expect(tabs, `${who}: Tabs from the search to the first card`).toBeLessThanOrEqual(width === 1440 ? 16 : 7);
      const card = await focused(page);
      expect(card.onScreen).toBe(true);
      expect(card.outline, 'a focused control shows its focus').not.toBe('none');
      await page.screenshot({ path: `${SHOTS}/focused-card-${who}-${width}.png` });
    }
  }, 120_000);

  journey(`at ${width} px Escape in the ad detail gives focus back to the card that opened it, or to the card of the ad last shown`, async ({ page, stack }) => {
    await page.setViewportSize({ width, height: 900 });
    await signIn(page, stack, SUBSCRIBER);
    await openList(page, '/library');
    // To a card's open link by keyboard: the skip link, the search, then on.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    for (let tabs = 0; tabs < 40 && !(await focused(page)).primary; tabs += 1) await page.keyboard.press('Tab');
    const opener = await focused(page);
    const orderAtOpen = await cardOrder(page);
    expect(opener.primary).toBe(true);
    await page.keyboard.press('Enter');
    const detail = page.getByTestId('ad-detail');
    await detail.waitFor({ state: 'visible' });
    await page.waitForURL((url) => url.pathname === `/ads/${opener.cardId}`);
    await page.keyboard.press('Escape');
    await detail.waitFor({ state: 'detached' });
    await expect.poll(async () => (await focused(page)).cardId, { ...POLL, message: `focus after Escape (the list when the ad opened: ${orderAtOpen}; now: ${await cardOrder(page)})` }).toBe(opener.cardId);
    expect(await focused(page)).toMatchObject({ primary: true, onScreen: true });
    // The next Tab goes on through the grid, not back to the top of the page.
    await page.keyboard.press('Tab');
    const next = await focused(page);
    expect(next.testId).not.toBe('skip-link');
    expect(next.cardId).not.toBeNull();

    // Walking to the next ad in the detail, then closing: focus is on that ad's card.
    await page.keyboard.press('Shift+Tab');
    const reopener = await focused(page);
    expect(reopener.primary, 'Shift+Tab goes back to a card’s open link').toBe(true);
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === `/ads/${reopener.cardId}`);
    await page.locator(`[data-testid="ad-detail"][data-ad-id="${reopener.cardId}"] button[aria-label="Next ad"]:not([disabled])`).waitFor({ state: 'visible' });
    await page.keyboard.press('ArrowRight');
    await page.waitForURL((url) => url.pathname.startsWith('/ads/') && url.pathname !== `/ads/${reopener.cardId}`);
    const lastShown = new URL(page.url()).pathname.split('/')[2]!;
    await page.keyboard.press('Escape');
    await detail.waitFor({ state: 'detached' });
    await expect.poll(async () => (await focused(page)).cardId, POLL).toBe(lastShown);
    expect(await focused(page)).toMatchObject({ primary: true, onScreen: true });
  }, 120_000);
}

type Role = 'anonymous' | 'free' | 'subscriber' | 'admin';
const results: Array<{ page: string; role: Role; width: number; byImpact: Record<AxeImpact, number> }> = [];
const problems: string[] = [];

async function audit(page: Page, role: Role, width: number, name: string): Promise<void> {
  const report = await axeReport(page);
  results.push({ page: name, role, width, byImpact: report.byImpact });
  problems.push(...[...report.serious, ...report.moderate].map((line) => `${role} ${name} @${width}: ${line}`));
}

/** Waits for a list page's cards (or its empty text) and the end of loading. */
async function listReady(page: Page, path: string): Promise<void> {
  await page.goto(path, { waitUntil: 'domcontentloaded', timeout: 45_000 });
  await page.locator('[data-testid="ad-grid"]:not([aria-busy="true"])').first().waitFor({ state: 'attached' });
}

async function openFirstClearCard(page: Page): Promise<void> {
  await page.locator(`${CARDS}[data-locked="false"] a`).first().click();
  await page.getByTestId('ad-detail').waitFor({ state: 'visible' });
  await page.getByTestId('ad-detail').locator('img').first().waitFor({ state: 'visible' });
}

afterAll(() => {
  if (results.length === 0) return;
  const rows = results.map((row) => [row.page, row.role, `${row.width}`, ...(['critical', 'serious', 'moderate', 'minor'] as const).map((impact) => `${row.byImpact[impact]}`)]);
  const header = ['page', 'role', 'width', 'critical', 'serious', 'moderate', 'minor'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) => `| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
  console.log(['axe: rules failed, by impact', line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n'));
});

for (const width of [1440, 390] as const) {
  journey(`axe finds no critical, serious or moderate issue on an anonymous visitor's and a free account's pages at ${width} px`, async ({ page, stack }) => {
    await page.setViewportSize({ width, height: 900 });

    // Anonymous.
    await listReady(page, '/library');
    await audit(page, 'anonymous', width, 'library');
    await openFirstClearCard(page);
    await audit(page, 'anonymous', width, 'ad detail');
    await page.keyboard.press('Escape');
    await page.getByTestId('ad-detail').waitFor({ state: 'detached' });
    await listReady(page, '/top-picks');
    await audit(page, 'anonymous', width, 'top picks');
    await page.goto('/black-friday', { waitUntil: 'domcontentloaded', timeout: 45_000 });
    await page.getByRole('dialog', { name: 'Black Friday Collection' }).waitFor({ state: 'visible' });
    await audit(page, 'anonymous', width, 'black friday (dialog)');
    for (const [path, name] of [['/auth/signin', 'sign-in'], ['/auth/signup', 'sign-up']] as const) {
      await page.goto(path, { waitUntil: 'domcontentloaded', timeout: 45_000 });
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.locator('input[type="email"]').waitFor({ state: 'visible' });
      await audit(page, 'anonymous', width, name);
    }

    // A free account.
    await signIn(page, stack, FREE);
    await listReady(page, '/library');
    await audit(page, 'free', width, 'library');
    await listReady(page, '/black-friday');
    await audit(page, 'free', width, 'black friday');
    await page.goto('/profile', { waitUntil: 'domcontentloaded', timeout: 45_000 });
    await page.getByRole('heading', { level: 1 }).waitFor();
    await audit(page, 'free', width, 'profile');
    await listReady(page, '/library');
    if (width < 768) {
      await page.getByRole('button', { name: 'Open menu' }).click();
      await page.getByTestId('mobile-drawer').getByRole('button', { name: 'Upgrade Plan' }).click();
    } else {
      await page.getByTestId('app-sidebar').getByRole('button', { name: 'Upgrade Plan' }).click();
    }
    await page.getByRole('dialog', { name: 'Unlock every winning ad' }).waitFor({ state: 'visible' });
    await audit(page, 'free', width, 'pricing dialog');
    expect(problems.filter((line) => /^(anonymous|free) /.test(line) && line.includes(`@${width}`))).toEqual([]);
  }, 240_000);

  journey(`axe finds no critical, serious or moderate issue on a subscriber's pages at ${width} px`, async ({ page, stack, library }) => {
    await page.setViewportSize({ width, height: 900 });
    await signIn(page, stack, SUBSCRIBER);
    await listReady(page, '/library');
    await audit(page, 'subscriber', width, 'library');
    await openFirstClearCard(page);
    await audit(page, 'subscriber', width, 'ad detail');
    await page.keyboard.press('Escape');
    await page.getByTestId('ad-detail').waitFor({ state: 'detached' });
    for (const [path, name] of [['/top-picks', 'top picks'], ['/black-friday', 'black friday'], ['/favorites', 'favorites'], [`/collection/${library.collectionId}`, 'a collection']] as const) {
      await listReady(page, path);
      await page.locator(CARDS).first().waitFor({ state: 'visible' });
      await audit(page, 'subscriber', width, name);
    }
    await page.goto('/profile', { waitUntil: 'domcontentloaded', timeout: 45_000 });
    await page.getByRole('heading', { level: 1 }).waitFor();
    await audit(page, 'subscriber', width, 'profile');

    expect(problems.filter((line) => line.startsWith('subscriber ') && line.includes(`@${width}`))).toEqual([]);
  }, 240_000);

  journey(`axe finds no critical, serious or moderate issue on the admin page at ${width} px`, async ({ page, stack }) => {
    await page.setViewportSize({ width, height: 900 });
    await signIn(page, stack, ADMIN);
    await page.goto('/admin', { waitUntil: 'domcontentloaded', timeout: 45_000 });
    await page.getByRole('heading', { level: 1 }).waitFor();
    await audit(page, 'admin', width, 'admin');
    expect(problems.filter((line) => line.startsWith('admin ') && line.includes(`@${width}`))).toEqual([]);
  }, 240_000);
}

