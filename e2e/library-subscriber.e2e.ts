import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { CARDS, clearAndLocked, waitForItemCount } from './support/ad-grid.ts';
import { insertDemoAds } from './support/demo-ads.ts';
import { journeyWithLibrary } from './support/journey.ts';
import { provisionAccount, signIn } from './support/signed-in.ts';

const POLL = { timeout: 15_000, interval: 200 };
const SUBSCRIBER = { email: 'subscriber@obyect.e2e', password: 'e2e-subscriber-password' };

/** The stack's six demo ads and 30 more: a library several screens tall, and a subscriber. */
const journey = journeyWithLibrary(async (stack) => {
  await insertDemoAds(stack, 30, { brandPrefix: 'Lumen', minutesAgo: 10, width: 600 });
  await provisionAccount(stack, 'subscriber', SUBSCRIBER.email, SUBSCRIBER.password);
  const { rows } = await stack.db.query<{ id: string; display_480_path: string }>(
    'select id, display_480_path from public.ads where not is_black_friday order by created_at desc, id desc',
  );
  return {
    adIdsNewestFirst: rows.map((row) => row.id),
    /** Each ad's image folder, which the detail's image URL contains. */
    folders: new Map(rows.map((row) => [row.id, row.display_480_path.split('/')[0]!])),
  };
});

/**
 * The URL changes before the detail renders the next ad; a key pressed in
 * between acts on the ad still shown. So: wait for the ad's image and for the
 * arrows to turn active (its neighbours known), as a person would see them.
 */
async function pressWhenNavigable(page: Page, folder: string, key: string): Promise<void> {
  await page.locator(`[data-testid="ad-detail"] img[src*="${folder}"]`).first().waitFor({ state: 'attached' });
  await page.locator('[data-testid="ad-detail"] button[aria-label="Next ad"]:not([disabled])').waitFor({ state: 'visible' });
  await page.keyboard.press(key);
}

const adIdInUrl = (page: Page) => new URL(page.url()).pathname.match(/^\/ads\/([^/]+)$/)?.[1] ?? null;

async function openLibraryAsSubscriber(page: Page, stack: Parameters<typeof signIn>[1], total: number): Promise<void> {
  await signIn(page, stack, SUBSCRIBER);
  await page.goto('/library');
  await waitForItemCount(page, total);
}

journey('a subscriber sees every card of the library clear', async ({ page, stack, library }) => {
  const total = library.adIdsNewestFirst.length;
  await openLibraryAsSubscriber(page, stack, total);
  expect(await clearAndLocked(page, total)).toEqual({ clear: total, locked: 0 });
  // No upgrade prompt for someone with access.
  expect(await page.getByText('Need more inspiration?').count()).toBe(0);
});

journey('a subscriber walks through the ads with the keyboard arrows on the ad detail', async ({ page, stack, library }) => {
  const ids = library.adIdsNewestFirst;
  const shown = () => library.folders.get(adIdInUrl(page)!)!;
  await openLibraryAsSubscriber(page, stack, ids.length);
  await page.locator(`${CARDS}[data-ad-id="${ids[0]}"] a`).click();
  await page.locator('[data-testid="ad-detail"]').waitFor({ state: 'visible' });
  expect(adIdInUrl(page)).toBe(ids[0]);

  await pressWhenNavigable(page, shown(), 'ArrowRight');
  await expect.poll(() => adIdInUrl(page), POLL).toBe(ids[1]);
  await pressWhenNavigable(page, shown(), 'ArrowDown');
  await expect.poll(() => adIdInUrl(page), POLL).toBe(ids[2]);
  await pressWhenNavigable(page, shown(), 'ArrowLeft');
  await expect.poll(() => adIdInUrl(page), POLL).toBe(ids[1]);
  await pressWhenNavigable(page, shown(), 'ArrowUp');
  await expect.poll(() => adIdInUrl(page), POLL).toBe(ids[0]);
  // Newest first, wrapping: before the newest comes the oldest.
  await pressWhenNavigable(page, shown(), 'ArrowUp');
  await expect.poll(() => adIdInUrl(page), POLL).toBe(ids[ids.length - 1]);
});

journey('closing an ad brings the library back at the same scroll position', async ({ page, stack, library }) => {
  await openLibraryAsSubscriber(page, stack, library.adIdsNewestFirst.length);
  await page.evaluate(() => window.scrollTo(0, 1200));
  await expect.poll(() => page.evaluate(() => window.scrollY), POLL).toBeGreaterThan(1000);
  const scrolledTo = await page.evaluate(() => window.scrollY);

  // A card that is fully on screen, well below the sticky toolbar. The grid mounts the cards of a band it jumped
  // to over a few frames, so the journey waits for one, as a reader's eye does.
  const fullyShownCard = () =>
    page.evaluate(() => {
      const cards = [...document.querySelectorAll<HTMLElement>('[data-testid="ad-card"]')];
      const card = cards.find((element) => {
        const box = element.getBoundingClientRect();
        return box.top > 200 && box.bottom < window.innerHeight;
      });
      return card?.dataset.adId ?? null;
    });
  await expect.poll(fullyShownCard, POLL).not.toBeNull();
  const adId = await fullyShownCard();
  await page.locator(`${CARDS}[data-ad-id="${adId}"] a`).click();
  await page.locator('[data-testid="ad-detail"]').waitFor({ state: 'visible' });
  expect(adIdInUrl(page)).toBe(adId);

  await page.locator('[data-testid="ad-detail"]').getByRole('button', { name: 'Close' }).click();
  await page.waitForURL((url) => url.pathname === '/library');
  await page.locator('[data-testid="ad-detail"]').waitFor({ state: 'detached' });
  await expect.poll(() => page.evaluate(() => window.scrollY), POLL).toBeGreaterThanOrEqual(scrolledTo - 5);
  expect(Math.abs((await page.evaluate(() => window.scrollY)) - scrolledTo)).toBeLessThanOrEqual(5);
});
