import { expect } from 'vitest';
import { CARDS, waitForItemCount } from './support/ad-grid.ts';
import { seriousAxeViolations } from './support/axe.ts';
import { insertDemoAds } from './support/demo-ads.ts';
import { openFilterPanel } from './support/filter-panel.ts';
import { journeyWithLibrary } from './support/journey.ts';
import { provisionAccount, signIn } from './support/signed-in.ts';

const POLL = { timeout: 15_000, interval: 200 };
const SUBSCRIBER = { email: 'more-like-this@obyect.e2e', password: 'e2e-subscriber-password' };
const FREE = { email: 'more-like-this-free@obyect.e2e', password: 'e2e-free-password' };
const TILES = '[data-testid="more-like-this"] [data-testid="similar-ad"]';
const shots = process.env.SIMILAR_SCREENSHOTS;

/**
 * The stack's six demo ads and fifteen more in three colours (orange, blue, green), each with the fingerprint an
 * upload writes; the orange ones newest.
 */
const journey = journeyWithLibrary(async (stack) => {
  await insertDemoAds(stack, 5, { brandPrefix: 'Verdant', colours: ['#3a9d5d'], width: 480, minutesAgo: 20 });
  await insertDemoAds(stack, 5, { brandPrefix: 'Cobalt', colours: ['#2e6fd8'], width: 480, minutesAgo: 10 });
  const orange = await insertDemoAds(stack, 5, { brandPrefix: 'Ember', colours: ['#f08a24'], width: 480, minutesAgo: 1 });
  await provisionAccount(stack, 'subscriber', SUBSCRIBER.email, SUBSCRIBER.password);
  await provisionAccount(stack, 'free', FREE.email, FREE.password);
  const { rows } = await stack.db.query<{ id: string }>(
    `select id from public.ads where not is_black_friday and colour_swatches @> '{orange}' order by created_at desc, id desc`,
  );
  return { orangeAds: orange.adIds, orangeSwatchAds: rows.map((row) => row.id) };
});

journey('a subscriber opens an ad and follows "More like this" twice, each time to an ad like the one before, at 1440 px', async ({ page, stack, library }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, stack, SUBSCRIBER);
  const start = library.orangeAds[0]!;
  await page.goto(`/ads/${start}`);
  const section = page.getByRole('region', { name: 'More like this' });
  await section.waitFor();
  await expect.poll(() => page.locator(TILES).count(), POLL).toBeGreaterThan(3);

  let current = start;
  for (const step of [1, 2]) {
    const ids = await page.locator(TILES).evaluateAll((tiles) => tiles.map((tile) => (tile as HTMLElement).dataset.adId!));
    expect(ids.length).toBeLessThanOrEqual(12);
    expect(ids).not.toContain(current);
    // Every tile is clear for a subscriber; the most alike is another orange creative of the same look.
    expect(await page.locator(`${TILES}[data-locked="true"]`).count()).toBe(0);
    expect(library.orangeAds).toContain(ids[0]);
    if (shots && step === 1) {
      await section.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${shots}/more-like-this-1440.png` });
    }
    const next = ids[0]!;
    await page.locator(`${TILES}[data-ad-id="${next}"]`).click();
    await expect.poll(() => new URL(page.url()).pathname, POLL).toBe(`/ads/${next}`);
    // The new ad's own list, not the one before: loaded, and without the ad itself.
    await expect
      .poll(async () => {
        const shown = await page.locator(TILES).evaluateAll((tiles) => tiles.map((tile) => (tile as HTMLElement).dataset.adId!));
        return shown.length > 0 && !shown.includes(next);
      }, POLL)
      .toBe(true);
    current = next;
  }
  expect(await seriousAxeViolations(page)).toEqual([]);
});

journey('a free account sees the similar ads locked as in the grid at 390 px, and a locked one starts the upgrade', async ({ page, stack, library }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, stack, FREE);
  await page.goto(`/ads/${library.orangeAds[1]}`);
  await page.getByRole('region', { name: 'More like this' }).waitFor();
  await expect.poll(() => page.locator(TILES).count(), POLL).toBeGreaterThan(3);
  const tiles = await page.locator(TILES).evaluateAll((found) =>
    found.map((tile) => ({ id: (tile as HTMLElement).dataset.adId!, locked: (tile as HTMLElement).dataset.locked === 'true' })),
  );
  const { rows } = await stack.db.query<{ id: string; open: boolean }>(
    `select id, not requires_subscription or free_sample as open from public.ads where id = any ($1::uuid[])`,
    [tiles.map((tile) => tile.id)],
  );
  const open = new Map(rows.map((row) => [row.id, row.open]));
  for (const tile of tiles) expect(tile.locked, tile.id).toBe(!open.get(tile.id));
  // A locked tile shows only the blurred preview: no display image of it is in the page.
  const locked = tiles.find((tile) => tile.locked)!;
  expect(locked).toBeTruthy();
  expect(await page.locator(`${TILES}[data-ad-id="${locked.id}"] img[srcset]`).count()).toBe(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  if (shots) {
    await page.getByRole('region', { name: 'More like this' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${shots}/more-like-this-390.png` });
  }
  await page.locator(`${TILES}[data-ad-id="${locked.id}"]`).click();
  await page.getByRole('dialog', { name: 'Unlock every winning ad' }).waitFor();
});

journey('a subscriber filters the library by a colour: only ads of that colour, in the URL, with a chip, at 1440 px', async ({ page, stack, library }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, stack, SUBSCRIBER);
  await page.goto('/library');
  await page.locator(CARDS).first().waitFor();
  await (await openFilterPanel(page)).getByRole('group', { name: 'Colour' }).getByRole('button', { name: 'Orange' }).click();
  await expect.poll(() => new URL(page.url()).search, POLL).toBe('?colour=orange');
  await page.keyboard.press('Escape');
  expect(library.orangeSwatchAds.length).toBeGreaterThanOrEqual(library.orangeAds.length);
  await waitForItemCount(page, library.orangeSwatchAds.length);
  const shown = await page.locator(CARDS).evaluateAll((cards) => cards.map((card) => (card as HTMLElement).dataset.adId!));
  expect(shown.sort()).toEqual([...library.orangeSwatchAds].sort());
  expect(await page.getByRole('list', { name: 'Active filters' }).getByRole('button').allTextContents()).toEqual(['Colour: Orange']);
  if (shots) await page.screenshot({ path: `${shots}/colour-filter-1440.png` });
  expect(await seriousAxeViolations(page)).toEqual([]);

  // A reload keeps it; the chip takes it off.
  await page.reload();
  await waitForItemCount(page, library.orangeSwatchAds.length);
  await page.getByRole('button', { name: 'Remove Colour: Orange' }).click();
  await expect.poll(() => new URL(page.url()).search, POLL).toBe('');
});
