import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { CARDS, itemCount } from './support/ad-grid.ts';
import { journeyWithLibrary } from './support/journey.ts';
import { insertManyAds, saveToBoard, tagBrandForBoard } from './support/many-ads.ts';
import { provisionAccount, signIn } from './support/signed-in.ts';

const SUBSCRIBER = { email: 'subscriber-return@obyect.e2e', password: 'e2e-subscriber-password' };

/**
 * Lists three pages long (60 ads a page) in mixed shapes: the library and Top
 * Picks (the same 170 ads), the Black Friday board (130 more), and a
 * subscriber's Favorites and a collection (130 each).
 */
const journey = journeyWithLibrary(async (stack) => {
  const library = await insertManyAds(stack, 170, { brandPrefix: 'Lumen', minutesAgo: 10 });
  await tagBrandForBoard(stack, library.brandName, 'top_picks');
  const blackFriday = await insertManyAds(stack, 130, { brandPrefix: 'Voltage', minutesAgo: 1_000 });
  await tagBrandForBoard(stack, blackFriday.brandName, 'black_friday');
  const subscriber = await provisionAccount(stack, 'subscriber', SUBSCRIBER.email, SUBSCRIBER.password);
  await saveToBoard(stack, subscriber.id, { favorites: true }, library.adIds.slice(0, 130));
  const collectionId = await saveToBoard(stack, subscriber.id, { name: 'Moodboard' }, library.adIds.slice(30, 160));
  return { collectionId };
});

interface Place {
  scrollY: number;
  /** The cards on screen, top to bottom then left to right, with their offset from the viewport's top and bottom. */
  visible: Array<{ id: string; top: number; bottom: number; left: number }>;
  viewportHeight: number;
}

/** Where the window is scrolled and which cards the viewer sees there. */
const placeOf = (page: Page): Promise<Place> =>
  page.evaluate((cards) => {
    const visible = [...document.querySelectorAll<HTMLElement>(cards)]
      .map((card) => ({ id: card.dataset.adId!, box: card.getBoundingClientRect() }))
      .filter(({ box }) => box.bottom > 0 && box.top < window.innerHeight)
      .map(({ id, box }) => ({ id, top: Math.round(box.top), bottom: Math.round(box.bottom), left: Math.round(box.left) }))
      .sort((a, b) => a.top - b.top || a.left - b.left);
    return { scrollY: Math.round(window.scrollY), visible, viewportHeight: window.innerHeight };
  }, CARDS);

/** Waits until the grid has stopped moving: the same place twice, a moment apart, with cards on screen. */
async function settledPlace(page: Page): Promise<Place> {
  let last = '';
  for (let attempt = 0; attempt < 60; attempt += 1) {
    const place = await placeOf(page);
    const now = JSON.stringify(place);
    if (now === last && place.visible.length > 0) return place;
    last = now;
    await page.waitForTimeout(250);
  }
  throw new Error(`The grid did not settle: ${last}`);
}

/**
 * Scrolls as a reader does, a screen at a time from the top, loading pages on
 * the way, until the window is at `target` px (or the list's end comes first).
 */
async function scrollDownTo(page: Page, target: number): Promise<void> {
  for (let step = 0; step < 400; step += 1) {
    const { y, max } = await page.evaluate(() => ({ y: window.scrollY, max: document.documentElement.scrollHeight - window.innerHeight }));
    if (y >= target - 1) break;
    if (y >= max - 1) {
      // At the bottom of what is loaded: the next page is on its way.
      await page.waitForTimeout(200);
      continue;
    }
    await page.evaluate((to) => window.scrollTo(0, Math.min(to, window.scrollY + window.innerHeight)), target);
    await page.waitForTimeout(40);
  }
  expect(await page.evaluate(() => Math.round(window.scrollY))).toBeGreaterThanOrEqual(target - 1);
}

/** Leaves the list through the app's own navigation: the sidebar at desktop width, the menu drawer on a phone. */
async function leaveThroughNavigation(page: Page, width: number, linkName: string): Promise<void> {
  const from = new URL(page.url()).pathname;
  const heading = await page.getByRole('heading', { level: 1 }).first().textContent();
  if (width < 768) {
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByTestId('mobile-drawer').getByRole('link', { name: linkName, exact: true }).click();
  } else {
    await page.getByTestId('app-sidebar').getByRole('link', { name: linkName, exact: true }).click();
  }
  await page.waitForURL((url) => url.pathname !== from);
  // The other page is really there (a page loaded on first visit shows after its chunk) before the viewer comes back.
  await expect.poll(() => page.getByRole('heading', { level: 1 }).first().textContent(), { timeout: 15_000 }).not.toBe(heading);
  await page.locator('[data-item-count]').first().waitFor({ state: 'attached' });
  await page.getByTestId('mobile-drawer').waitFor({ state: 'detached' });
}

/** How far the position may be off; a card showing less than this at an edge of the screen may come or go with it. */
const SLACK_PX = 4;

/** The ids of the cards that show more than the slack on screen: these are on screen in any place within the slack. */
const clearlyOnScreen = (place: Place): string[] =>
  place.visible.filter((card) => card.bottom > SLACK_PX && card.top < place.viewportHeight - SLACK_PX).map((card) => card.id);

/** Whether `after` shows what `before` showed: every card clearly on screen in one is on screen in the other, each where it was. */
function showsTheSame(before: Place, after: Place): boolean {
  const moved = after.visible.some((card) => {
    const was = before.visible.find((other) => other.id === card.id);
    return was !== undefined && Math.abs(was.top - card.top) > SLACK_PX;
  });
  if (moved) return false;
  const onScreenAfter = after.visible.map((card) => card.id);
  const onScreenBefore = before.visible.map((card) => card.id);
  const kept = (ids: string[], within: string[]) => ids.every((id) => within.includes(id));
  return kept(clearlyOnScreen(before), onScreenAfter) && kept(clearlyOnScreen(after), onScreenBefore);
}

/** The viewer is back where they were: the same scroll position (within a few px) and the same cards on screen. */
async function expectSamePlace(page: Page, before: Place, what: string): Promise<void> {
  let after: Place | null = null;
  const deadline = Date.now() + 15_000;
  // The grid may lay out and mount its cards over a few frames after the position is back: wait for the whole place.
  while (Date.now() < deadline) {
    after = await settledPlace(page);
    if (Math.abs(after.scrollY - before.scrollY) <= SLACK_PX && showsTheSame(before, after)) break;
    await page.waitForTimeout(250);
  }
  expect(Math.abs(after!.scrollY - before.scrollY), `${what}: scrolled to ${after!.scrollY} instead of ${before.scrollY}`).toBeLessThanOrEqual(SLACK_PX);
  expect(after!.visible[0]?.id, `${what}: the first card on screen`).toBe(before.visible[0]?.id);
  const cards = (place: Place) => place.visible.map((card) => `${card.id.slice(0, 8)} ${card.top}..${card.bottom}`).join(', ');
  expect(showsTheSame(before, after!), `${what}: the cards on screen: ${cards(after!)} instead of ${cards(before)}`).toBe(true);
}

/** Opens a clear card on screen below the sticky bars by clicking where it shows, so nothing scrolls first. */
async function openCardOnScreen(page: Page): Promise<string> {
  const target = await page.evaluate((cards) => {
    for (const card of document.querySelectorAll<HTMLElement>(`${cards}[data-locked="false"]`)) {
      const box = card.querySelector('a')!.getBoundingClientRect();
      // Below the sticky header and toolbar, above the floating button.
      const top = Math.max(box.top, 280);
      const bottom = Math.min(box.bottom, window.innerHeight - 90);
      if (bottom - top > 120) return { id: card.dataset.adId!, x: box.left + box.width / 2, y: (top + bottom) / 2 };
    }
    return null;
  }, CARDS);
  expect(target).not.toBeNull();
  await page.mouse.click(target!.x, target!.y);
  return target!.id;
}

interface ListCase {
  name: string;
  path: (library: { collectionId: string }) => string;
  /** Where to go and come back from. */
  elsewhere: string;
  /** Deep enough that the place is on the list's second or third page at this width. */
  depth: { 1440: number; 390: number };
}

const LISTS: ListCase[] = [
  { name: 'the library', path: () => '/library', elsewhere: 'Top picks', depth: { 1440: 10_800, 390: 40_000 } },
  { name: 'the Top Picks board', path: () => '/top-picks', elsewhere: 'Library', depth: { 1440: 10_800, 390: 40_000 } },
  { name: 'the Black Friday board', path: () => '/black-friday', elsewhere: 'Library', depth: { 1440: 8_000, 390: 40_000 } },
  { name: 'Favorites', path: () => '/favorites', elsewhere: 'Library', depth: { 1440: 8_000, 390: 40_000 } },
  { name: 'a collection', path: ({ collectionId }) => `/collection/${collectionId}`, elsewhere: 'Library', depth: { 1440: 8_000, 390: 40_000 } },
];

for (const list of LISTS) {
  for (const width of [1440, 390] as const) {
    journey(`a subscriber deep in ${list.name} at ${width} px comes back to the same ads at the same place, after Back and after closing an ad`, async ({ page, stack, library }) => {
      await page.setViewportSize({ width, height: 900 });
      await signIn(page, stack, SUBSCRIBER);
      await page.goto(list.path(library), { waitUntil: 'domcontentloaded', timeout: 45_000 });
      await expect.poll(() => itemCount(page), { timeout: 15_000 }).toBeGreaterThan(0);
      await scrollDownTo(page, list.depth[width]);
      const before = await settledPlace(page);
      expect(await itemCount(page)).toBeGreaterThan(60);

      // Elsewhere through the navigation, then Back.
      await leaveThroughNavigation(page, width, list.elsewhere);
      await page.goBack();
      await page.waitForURL((url) => url.pathname === list.path(library));
      await expectSamePlace(page, before, 'after Back');

      // An ad opened from there and closed with Escape.
      const opened = await openCardOnScreen(page);
      await page.waitForURL((url) => url.pathname === `/ads/${opened}`, { waitUntil: 'commit' });
      await page.getByTestId('ad-detail').waitFor({ state: 'visible' });
      await page.keyboard.press('Escape');
      await page.getByTestId('ad-detail').waitFor({ state: 'detached' });
      await expectSamePlace(page, before, 'after closing the ad');
    }, 240_000);
  }
}

journey('a reload returns to the same place in the library, while a page opened anew in the same tab starts at its top', async ({ page, stack }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, stack, SUBSCRIBER);
  await page.goto('/library', { waitUntil: 'domcontentloaded', timeout: 45_000 });
  await expect.poll(() => itemCount(page), { timeout: 15_000 }).toBeGreaterThan(0);
  await scrollDownTo(page, 3_000);
  const before = await settledPlace(page);

  await page.reload({ waitUntil: 'domcontentloaded' });
  await expectSamePlace(page, before, 'after a reload');

  // The same address typed again, and another page, are new visits: each starts at its top.
  for (const address of ['/library', '/top-picks']) {
    await page.goto(address, { waitUntil: 'domcontentloaded' });
    await expect.poll(() => itemCount(page), { timeout: 15_000 }).toBeGreaterThan(0);
    await page.waitForTimeout(1_000);
    expect(await page.evaluate(() => window.scrollY), `${address} opened anew`).toBe(0);
  }
}, 180_000);
