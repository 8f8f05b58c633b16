import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { CARDS, LOCKED_CARDS, waitForItemCount } from './support/ad-grid.ts';
import { insertDemoAds } from './support/demo-ads.ts';
import { journeyWithLibrary } from './support/journey.ts';

const GATE = 'Create your account to continue exploring winning ads';
const POLL = { timeout: 15_000, interval: 200 };

/**
 * Beside the stack's six demo ads, twelve more of another brand: eighteen distinct ads, each with a type. All but the
 * oldest are open to everyone, so a visitor sees seventeen clear and one locked: only ads seen clear count toward the
 * free views.
 */
const journey = journeyWithLibrary(async (stack) => {
  await insertDemoAds(stack, 12, { brandPrefix: 'Kestrel', minutesAgo: 30, width: 300 });
  const all = await stack.db.query<{ id: string }>('select id from public.ads where not is_black_friday order by created_at desc, id desc');
  const premium = all.rows.slice(-1).map((row) => row.id);
  await stack.db.query('update public.ads set requires_subscription = (id = any ($1::uuid[])) where not is_black_friday', [premium]);
  const { rows } = await stack.db.query<{ id: string; clear: boolean }>(
    'select id, not requires_subscription or free_sample as clear from public.ads where not is_black_friday order by created_at desc, id desc',
  );
  const locked = rows.filter((row) => !row.clear).map((row) => row.id);
  if (locked.length !== 1) throw new Error(`expected one locked ad, found ${locked.length}`);
  return { adIds: rows.filter((row) => row.clear).map((row) => row.id), lockedId: locked[0]! };
});

const storedCount = (page: Page) => page.evaluate(() => window.localStorage.getItem('obyect_ad_views'));

async function openAd(page: Page, id: string): Promise<void> {
  await page.goto(`/ads/${id}`);
  await page.getByTestId('ad-detail').waitFor({ state: 'visible' });
}

journey('an anonymous visitor reopening the same six ads three times is not gated: only distinct ads count', async ({ page, library }) => {
  const six = library.adIds.slice(0, 6);
  for (let round = 0; round < 3; round += 1) {
    for (const id of six) await openAd(page, id);
  }
  expect(await storedCount(page)).toBe('6');
  expect(await page.getByRole('dialog', { name: GATE }).count()).toBe(0);
  // A locked ad opened by its address is no free view.
  await openAd(page, library.lockedId);
  await page.getByTestId('ad-detail').getByRole('button', { name: /unlock/i }).first().waitFor({ state: 'visible' });
  expect(await storedCount(page)).toBe('6');

  // The sixteenth distinct ad opens the gate, and its 'Create account' goes to sign-up with the way back.
  for (const id of library.adIds.slice(6, 15)) await openAd(page, id);
  expect(await page.getByRole('dialog', { name: GATE }).count()).toBe(0);
  const sixteenth = library.adIds[15]!;
  await openAd(page, sixteenth);
  const gate = page.getByRole('dialog', { name: GATE });
  await gate.waitFor({ state: 'visible' });
  expect(await storedCount(page)).toBe('16');
  await gate.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL((url) => url.pathname === '/auth/signup');
  expect(new URL(page.url()).searchParams.get('next')).toBe(`/ads/${sixteenth}`);
  await page.getByRole('heading', { level: 1 }).waitFor();
}, 240_000);

journey("the library's 'Create account' goes to sign-up and back, and a locked card's sign-in offers creating an account", async ({ page }) => {
  await page.goto('/library');
  await page.locator(CARDS).first().waitFor({ state: 'visible' });
  const bar = page.getByRole('region', { name: 'Need more inspiration?' });
  expect(await bar.getByRole('link', { name: 'Create account' }).getAttribute('href')).toBe('/auth/signup?next=%2Flibrary');

  await page.locator(`${LOCKED_CARDS} > button`).first().click();
  await page.waitForURL((url) => url.pathname === '/auth/signin');
  const signUp = page.getByRole('link', { name: 'Sign up', exact: true });
  await signUp.waitFor({ state: 'visible' });
  await signUp.click();
  await page.waitForURL((url) => url.pathname === '/auth/signup');
  expect(new URL(page.url()).searchParams.get('next')).toBe('/library');
});

journey("searching a type's name finds its ads, as brand, category and tag names do", async ({ page, stack }) => {
  const { rows } = await stack.db.query<{ n: number }>(
    "select count(*)::int as n from public.ads a join public.types t on t.id = a.type_id where t.name ilike 'static%' and not a.is_black_friday",
  );
  expect(rows[0]!.n).toBe(18);
  await page.goto('/library');
  await page.locator(CARDS).first().waitFor({ state: 'visible' });
  await page.getByPlaceholder('Search brands & categories…').first().fill('static');
  await expect.poll(() => new URL(page.url()).searchParams.get('q'), POLL).toBe('static');
  await waitForItemCount(page, 18);
});
