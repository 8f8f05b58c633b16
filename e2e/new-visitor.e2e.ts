import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { CARDS, LOCKED_CARDS, waitForItemCount } from './support/ad-grid.ts';
import { insertDemoAds } from './support/demo-ads.ts';
import { journeyWithLibrary } from './support/journey.ts';

const GATE = 'Create your account to continue exploring winning ads';
const POLL = { timeout: 15_000, interval: 200 };

/** Beside the stack's six demo ads, twelve more of another brand: eighteen distinct ads to open, each with a type. */
const journey = journeyWithLibrary(async (stack) => {
  await insertDemoAds(stack, 12, { brandPrefix: 'Kestrel', minutesAgo: 30, width: 300 });
  const { rows } = await stack.db.query<{ id: string }>('select id from public.ads where not is_black_friday order by created_at desc, id desc');
  return { adIds: rows.map((row) => row.id) };
});

const storedCount = (page: Page) => page.evaluate(() => window.localStorage.getItem('obyect_ad_views'));

async function openAd(page: Page, id: string): Promise<void> {
  await page.goto(`/ads/${id}`);
  // The ad itself, not the page's frame: a view is counted once the ad has come and is seen clear.
  await page.getByTestId('ad-detail').locator('img').first().waitFor({ state: 'visible' });
}

journey('an anonymous visitor reopening the same six ads three times is not gated: only distinct ads seen clear count', async ({ page, stack, library }) => {
  // Seventeen ads open to everyone and the oldest locked, for this journey only: only ads seen clear count.
  const lockedId = library.adIds.at(-1)!;
  const before = await stack.db.query<{ id: string; requires_subscription: boolean }>('select id, requires_subscription from public.ads where id = any ($1::uuid[])', [library.adIds]);
  await stack.db.query('update public.ads set requires_subscription = (id = $1) where id = any ($2::uuid[])', [lockedId, library.adIds]);
  try {
    await reopeningAndTheGate(page, library.adIds.slice(0, -1), lockedId);
  } finally {
    for (const row of before.rows) await stack.db.query('update public.ads set requires_subscription = $2 where id = $1', [row.id, row.requires_subscription]);
  }
}, 240_000);

async function reopeningAndTheGate(page: Page, adIds: string[], lockedId: string): Promise<void> {
  const six = adIds.slice(0, 6);
  for (let round = 0; round < 3; round += 1) {
    for (const id of six) await openAd(page, id);
  }
  expect(await storedCount(page)).toBe('6');
  expect(await page.getByRole('dialog', { name: GATE }).count()).toBe(0);
  // A locked ad opened by its address is no free view.
  await openAd(page, lockedId);
  await page.getByTestId('ad-detail').getByRole('button', { name: /unlock/i }).first().waitFor({ state: 'visible' });
  expect(await storedCount(page)).toBe('6');

  // The sixteenth distinct ad opens the gate, and its 'Create account' goes to sign-up with the way back.
  for (const id of adIds.slice(6, 15)) await openAd(page, id);
  expect(await page.getByRole('dialog', { name: GATE }).count()).toBe(0);
  const sixteenth = adIds[15]!;
  await openAd(page, sixteenth);
  const gate = page.getByRole('dialog', { name: GATE });
  await gate.waitFor({ state: 'visible' });
  expect(await storedCount(page)).toBe('16');
  await gate.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL((url) => url.pathname === '/auth/signup');
  expect(new URL(page.url()).searchParams.get('next')).toBe(`/ads/${sixteenth}`);
  await page.getByRole('heading', { level: 1 }).waitFor();
}

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
