import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { provisionUser } from '../local/auth/provision-user.ts';
import { waitForItemCount } from './support/ad-grid.ts';
import { insertDemoAds } from './support/demo-ads.ts';
import { journeyWithLibrary } from './support/journey.ts';
import { signIn } from './support/signed-in.ts';

/** Markup that runs if any of it reaches the page as HTML: each sets a flag the journey reads. */
const BRAND = '<img src=x onerror="window.__injected=\'brand\'">';
const CATEGORY = '<script>window.__injected="category"</script>';
const TAG = '<b onmouseover="window.__injected=\'tag\'">bold</b>';
const BOARD = '<svg onload="window.__injected=\'board\'"></svg>';
const PERSON = '<iframe srcdoc="<script>parent.__injected=\'name\'</script>"></iframe>';
const USER = { email: 'markup@obyect.e2e', password: 'e2e-markup-password' };

/** Three ads of a brand, category and tag named with markup, a subscriber named with markup and a board of theirs. */
const journey = journeyWithLibrary(async (stack) => {
  const { adIds, brandName, categoryName } = await insertDemoAds(stack, 3, { brandPrefix: BRAND, minutesAgo: 1, width: 400 });
  const category = `${CATEGORY} ${categoryName.split(' ').at(-1)}`;
  await stack.db.query('update public.categories set name = $1 where name = $2', [category, categoryName]);
  const { rows } = await stack.db.query<{ id: string }>('insert into public.tags (name) values ($1) returning id', [TAG]);
  await stack.db.query('insert into public.ad_tags (ad_id, tag_id) select unnest($1::uuid[]), $2', [adIds, rows[0]!.id]);
  const { id } = await provisionUser(stack.db, { email: USER.email, password: USER.password, metadata: { full_name: PERSON } });
  await stack.db.query(
    `insert into public.subscriptions (user_id, stripe_customer_id, stripe_subscription_id, status, tier, price_id, current_period_end)
     values ($1, 'cus_e2e_markup', 'sub_e2e_markup', 'active', 'monthly', 'price_e2e_monthly', now() + interval '1 month')`,
    [id],
  );
  await stack.db.query('insert into public.user_collections (user_id, name) values ($1, $2)', [id, BOARD]);
  return { brand: brandName, category, adId: adIds[0]! };
});

/** Whether any of the markup ran, or left an element of its own in the page. */
const injected = (page: Page) =>
  page.evaluate(() => ({
    flag: (window as unknown as { __injected?: string }).__injected ?? null,
    elements: document.querySelectorAll('img[src="x"], iframe[srcdoc], svg[onload], b[onmouseover], script:not([src]):not([type])').length,
  }));

journey('brand, category, tag, board and user names with HTML or script show as text everywhere and run nothing', async ({ page, stack, library }) => {
  await signIn(page, stack, USER);
  await page.setViewportSize({ width: 1280, height: 900 });

  await page.goto(`/library?brand=${encodeURIComponent(library.brand)}`);
  await waitForItemCount(page, 3);
  const card = page.locator(`[data-testid="ad-card"][data-ad-id="${library.adId}"]`);
  expect(await card.locator('header p').allTextContents()).toEqual([library.brand, library.category]);
  // The brand filter's pill shows the brand as text.
  expect(await page.getByRole('button', { name: `Brand: ${library.brand}`, exact: true }).textContent()).toBe(library.brand);

  // The sidebar's board and the profile card.
  const sidebar = page.getByTestId('app-sidebar');
  await sidebar.getByText(BOARD, { exact: true }).waitFor();
  await sidebar.getByText(PERSON, { exact: true }).waitFor();

  // The ad detail: brand, category and the tag chip.
  await card.locator('a').first().click();
  const detail = page.getByTestId('ad-detail');
  await detail.waitFor({ state: 'visible' });
  await detail.getByText(library.brand, { exact: true }).first().waitFor();
  await detail.getByText(library.category, { exact: true }).first().waitFor();
  await detail.getByText(TAG, { exact: true }).hover();
  expect(await page.title()).toContain(library.brand.slice(0, 20));

  // The profile page: the name in the card and in the form.
  await page.goto('/profile');
  await page.getByRole('heading', { name: 'Profile Settings' }).waitFor();
  expect(await page.getByLabel('Full name').inputValue()).toBe(PERSON);
  await page.getByText(PERSON, { exact: true }).first().waitFor();

  expect(await injected(page)).toEqual({ flag: null, elements: 0 });
});
