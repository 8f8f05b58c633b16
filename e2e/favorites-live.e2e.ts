import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { journeyWithLibrary } from './support/journey.ts';
import { provisionAccount, signIn } from './support/signed-in.ts';

const WIDTHS = [390, 1440] as const;
/** A user per width, so that each journey starts with empty Favorites. */
const userAt = (width: number) => ({ email: `favorites-live-${width}@obyect.e2e`, password: 'e2e-favorites-live' });
/** Live means without a reload, within a few seconds. */
const LIVE = { timeout: 5_000, interval: 100 };

const journey = journeyWithLibrary(async (stack) => {
  for (const width of WIDTHS) await provisionAccount(stack, 'subscriber', userAt(width).email, userAt(width).password);
  const { rows } = await stack.db.query<{ id: string }>('select id from public.ads where not is_black_friday order by created_at desc, id desc');
  return { adIds: rows.map((row) => row.id) };
});

const card = (page: Page, adId: string) => page.locator(`[data-testid="ad-card"][data-ad-id="${adId}"]`);
const heart = (page: Page) => page.getByTestId('ad-detail').getByRole('button', { name: /^(Add to|Remove from) favorites$/ });

for (const [index, width] of WIDTHS.entries()) {
  journey(`at ${width} px, a favorite saved or removed in one tab shows in the user's other open tabs without a reload`, async ({ page, stack, library }) => {
    const adId = library.adIds[index]!;
    const USER = userAt(width);
    await page.setViewportSize({ width, height: 900 });
    await signIn(page, stack, USER);

    // A second tab of the same browser on Favorites, and a third on the same ad.
    const favorites = await page.context().newPage();
    await signIn(favorites, stack, USER);
    await favorites.setViewportSize({ width, height: 900 });
    await favorites.goto('/favorites');
    await favorites.getByRole('heading', { name: 'Favorites', level: 1 }).waitFor();
    await favorites.getByText(/^No favorites yet\./).waitFor();
    const sameAd = await page.context().newPage();
    await signIn(sameAd, stack, USER);
    await sameAd.setViewportSize({ width, height: 900 });
    await sameAd.goto(`/ads/${adId}`);
    await expect.poll(() => heart(sameAd).getAttribute('aria-pressed'), LIVE).toBe('false');

    await page.goto(`/ads/${adId}`);
    await expect.poll(() => heart(page).getAttribute('aria-pressed'), LIVE).toBe('false');
    await heart(page).click();
    await expect.poll(() => heart(page).getAttribute('aria-pressed'), LIVE).toBe('true');
    await card(favorites, adId).waitFor({ state: 'visible', timeout: LIVE.timeout });
    await expect.poll(() => heart(sameAd).getAttribute('aria-pressed'), LIVE).toBe('true');

    await heart(page).click();
    await expect.poll(() => heart(page).getAttribute('aria-pressed'), LIVE).toBe('false');
    await card(favorites, adId).waitFor({ state: 'detached', timeout: LIVE.timeout });
    await favorites.getByText(/^No favorites yet\./).waitFor({ timeout: LIVE.timeout });
    await expect.poll(() => heart(sameAd).getAttribute('aria-pressed'), LIVE).toBe('false');
  });
}
