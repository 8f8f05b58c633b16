import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { expect } from 'vitest';
import { CARDS, clearAndLocked, waitForItemCount } from './support/ad-grid.ts';
import { insertDemoAds } from './support/demo-ads.ts';
import { journeyWithLibrary } from './support/journey.ts';
import { provisionAccount, signIn } from './support/signed-in.ts';

const POLL = { timeout: 15_000, interval: 200 };
const SUBSCRIBER = { email: 'subscriber@obyect.e2e', password: 'e2e-subscriber-password' };
const FREE = { email: 'free-library@obyect.e2e', password: 'e2e-free-password' };

/** The stack's six demo ads and 30 more: a library several screens tall, a subscriber and a free account. */
const journey = journeyWithLibrary(async (stack) => {
  await insertDemoAds(stack, 30, { brandPrefix: 'Lumen', minutesAgo: 10, width: 600 });
  await provisionAccount(stack, 'subscriber', SUBSCRIBER.email, SUBSCRIBER.password);
  await provisionAccount(stack, 'free', FREE.email, FREE.password);
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
 * The URL changes before the detail renders the next ad. Wait, as a person
 * would, for the detail to show the ad the URL names (not only a similar ad's
 * image below the one still shown), its image, and its arrows active (its
 * neighbours known).
 */
async function pressWhenNavigable(page: Page, folder: string, key: string): Promise<void> {
  const detail = page.locator(`[data-testid="ad-detail"][data-ad-id="${adIdInUrl(page)}"]`);
  await detail.locator(`img[src*="${folder}"]`).first().waitFor({ state: 'attached' });
  await detail.locator('button[aria-label="Next ad"]:not([disabled])').waitFor({ state: 'visible' });
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

  // Compared as places in the list, so a miss says which ad it went to.
  const placeInUrl = () => ids.indexOf(adIdInUrl(page) ?? '');
  await pressWhenNavigable(page, shown(), 'ArrowRight');
  await expect.poll(placeInUrl, POLL).toBe(1);
  await pressWhenNavigable(page, shown(), 'ArrowDown');
  await expect.poll(placeInUrl, POLL).toBe(2);
  await pressWhenNavigable(page, shown(), 'ArrowLeft');
  await expect.poll(placeInUrl, POLL).toBe(1);
  await pressWhenNavigable(page, shown(), 'ArrowUp');
  await expect.poll(placeInUrl, POLL).toBe(0);
  // Newest first, wrapping: before the newest comes the oldest.
  await pressWhenNavigable(page, shown(), 'ArrowUp');
  await expect.poll(placeInUrl, POLL).toBe(ids.length - 1);
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

/** One ad of the library with its brand, original size and whether it is in the free sample. */
async function adOfLibrary(stack: Parameters<typeof signIn>[1], where: string) {
  const { rows } = await stack.db.query<{ id: string; brand: string; width: number; height: number; original_path: string }>(
    `select a.id, b.name as brand, a.width, a.height, a.original_path from public.ads a join public.brands b on b.id = a.brand_id
      where not a.is_black_friday and ${where} order by a.created_at desc, a.id desc limit 1`,
  );
  return rows[0]!;
}

journey('a subscriber downloads an ad’s original from the ad detail, under the brand’s name', async ({ page, stack }) => {
  // A Lumen ad: its original is a 600 × 750 JPEG.
  const ad = await adOfLibrary(stack, "b.name like 'Lumen %'");
  expect(ad.original_path).toMatch(/\.jpg$/);
  await signIn(page, stack, SUBSCRIBER);
  await page.goto(`/ads/${ad.id}`);
  const detail = page.getByTestId('ad-detail');
  await detail.waitFor({ state: 'visible' });
  const button = detail.getByRole('button', { name: 'Download original' });
  await button.waitFor({ state: 'visible' });

  const downloading = page.waitForEvent('download');
  await button.click();
  const download = await downloading;
  const slug = ad.brand.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
  expect(download.suggestedFilename()).toBe(`${slug}-${ad.id.slice(0, 8)}.jpg`);
  // Through a short signed link to the originals bucket, asked for as a download.
  const url = new URL(download.url());
  expect(url.pathname).toBe(`/storage/v1/object/sign/ad-originals/${ad.original_path}`);
  expect(url.searchParams.get('token')).toBeTruthy();
  expect(url.searchParams.get('download')).toBe(download.suggestedFilename());
  const { exp, iat } = JSON.parse(Buffer.from(url.searchParams.get('token')!.split('.')[1]!, 'base64url').toString());
  expect(exp - iat).toBe(300);
  // The file is the original itself.
  expect(await download.failure()).toBeNull();
  const bytes = await readFile((await download.path())!);
  const metadata = await sharp(bytes).metadata();
  expect([metadata.format, metadata.width, metadata.height]).toEqual(['jpeg', ad.width, ad.height]);
});

journey('a free account opens an ad of the free sample clear, without a download button', async ({ page, stack }) => {
  const ad = await adOfLibrary(stack, 'a.free_sample');
  await signIn(page, stack, FREE);
  await page.goto('/library');
  await page.locator(`${CARDS}[data-ad-id="${ad.id}"][data-locked="false"] a`).click();
  await page.waitForURL((url) => url.pathname === `/ads/${ad.id}`);
  const detail = page.getByTestId('ad-detail');
  await detail.waitFor({ state: 'visible' });
  // The header's other actions are there (so it has rendered), the download is not.
  await detail.getByRole('button', { name: 'Share' }).waitFor({ state: 'visible' });
  await detail.locator('img[src*="/storage/v1/object/sign/ad-images/"]').first().waitFor({ state: 'attached' });
  expect(await detail.getByRole('button', { name: 'Download original' }).count()).toBe(0);
  // Nor on a locked ad's page.
  const locked = await adOfLibrary(stack, 'not a.free_sample');
  await page.goto(`/ads/${locked.id}`);
  await detail.getByText('This ad is for members').waitFor({ state: 'visible' });
  await detail.getByRole('button', { name: 'Share' }).waitFor({ state: 'visible' });
  expect(await detail.getByRole('button', { name: 'Download original' }).count()).toBe(0);
  // The server refuses the download call too.
  const token = await fetch(`${stack.url}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: stack.config.anonKey, 'content-type': 'application/json' },
    body: JSON.stringify(FREE),
  }).then(async (response) => (await response.json()).access_token as string);
  const response = await fetch(`${stack.url}/rest/v1/rpc/get_ad_original_download`, {
    method: 'POST',
    headers: { apikey: stack.config.anonKey, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ p_id: ad.id }),
  });
  const refused = { status: response.status, body: await response.json() };
  expect(refused.status).toBe(403);
  expect(refused.body.details).toBe('subscription_required');
});

journey('the subscriber’s library at 1440 px lays out once: the filters’ options and the first page arrive without moving anything', async ({ page, stack }) => {
  // A brand with a long name, as real catalogues have: a select as wide as its longest option would grow with it.
  await stack.db.query(`insert into public.brands (name) values ('Northbound Apothecary & Provisions') on conflict do nothing`);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, stack, SUBSCRIBER);
  await page.addInitScript(`
    window.__shift = 0;
    new PerformanceObserver((list) => { for (const e of list.getEntries()) if (!e.hadRecentInput) window.__shift += e.value; }).observe({ type: 'layout-shift', buffered: true });
  `);
  await page.goto('/library');
  await page.locator(CARDS).first().waitFor();
  // The hooks' options and the first page's total are the last things to arrive.
  await expect.poll(() => page.getByTestId('library-total').textContent(), POLL).toMatch(/\d/);
  await page.waitForTimeout(1_000);
  expect(await page.evaluate(() => (window as unknown as { __shift: number }).__shift)).toBeLessThan(0.05);
}, 60_000);
