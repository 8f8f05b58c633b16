import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { waitForItemCount } from './support/ad-grid.ts';
import { insertDemoAds } from './support/demo-ads.ts';
import { journeyWithLibrary } from './support/journey.ts';
import { provisionAccount, signIn } from './support/signed-in.ts';

const SEARCH = 'Search brands & categories…';
const FREE = { email: 'free-toolbar@obyect.e2e', password: 'e2e-free-toolbar' };
const POLL = { timeout: 15_000, interval: 200 };
const DAY_MINUTES = 24 * 60;

/**
 * Beside the stack's six demo ads: Alpha (three ads, 40 days old) and Beta
 * (four ads, new, two of them tagged Evergreen), each with its own category
 * and type; both brands on Top Picks. A brand, category and type with long
 * names and no ads. A free user for the signed-in shell.
 */
const journey = journeyWithLibrary(async (stack) => {
  const alpha = await insertDemoAds(stack, 3, { brandPrefix: 'Alpha', minutesAgo: 40 * DAY_MINUTES, width: 400 });
  const beta = await insertDemoAds(stack, 4, { brandPrefix: 'Beta', minutesAgo: 5, width: 400 });
  const typeOf = async (adId: string) =>
    (await stack.db.query<{ name: string }>('select t.name from public.ads a join public.types t on t.id = a.type_id where a.id = $1', [adId])).rows[0]!.name;
  const tag = `Evergreen ${beta.brandName.split(' ')[1]}`;
  const { rows } = await stack.db.query<{ id: string }>('insert into public.tags (name) values ($1) returning id', [tag]);
  for (const adId of beta.adIds.slice(0, 2)) await stack.db.query('insert into public.ad_tags (ad_id, tag_id) values ($1, $2)', [adId, rows[0]!.id]);
  await stack.db.query(
    `insert into public.ad_tags (ad_id, tag_id)
     select a.id, t.id from public.ads a join public.brands b on b.id = a.brand_id, public.tags t
      where b.name in ($1, $2) and t.system_key = 'top_picks'`,
    [alpha.brandName, beta.brandName],
  );
  // Catalogue names as long as the demo library's: a native select is as wide as its longest option.
  await stack.db.query("insert into public.brands (name) values ('Northern Botanicals Apothecary')");
  await stack.db.query("insert into public.categories (name) values ('Health, Wellness & Supplements')");
  await stack.db.query("insert into public.types (name) values ('Founder-led testimonial video')");
  await provisionAccount(stack, 'free', FREE.email, FREE.password);
  return { alpha, beta, betaType: await typeOf(beta.adIds[0]!), tag };
});

const toolbarOf = (page: Page) => page.getByTestId('filter-toolbar');

/** Nothing in the toolbar scrolls sideways or reaches past the viewport. */
async function expectNoSidewaysOverflow(page: Page) {
  const overflow = await toolbarOf(page).evaluate((toolbar) => {
    const problems: string[] = [];
    if (toolbar.scrollWidth > toolbar.clientWidth) problems.push(`toolbar ${toolbar.scrollWidth} > ${toolbar.clientWidth}`);
    for (const element of toolbar.querySelectorAll<HTMLElement>('*')) {
      const box = element.getBoundingClientRect();
      // Visually hidden text (one pixel, clipped) is not laid out for the eye.
      if (box.width <= 1) continue;
      if (box.left < -1 || box.right > window.innerWidth + 1) problems.push(`${element.tagName} ${element.getAttribute('aria-label') ?? element.textContent?.slice(0, 30)} at ${box.left}..${box.right}`);
      if (!(element instanceof HTMLInputElement) && !(element instanceof HTMLSelectElement) && element.scrollWidth > element.clientWidth + 1 && getComputedStyle(element).overflowX !== 'visible')
        problems.push(`${element.tagName} scrolls sideways: ${element.scrollWidth} > ${element.clientWidth}`);
    }
    if (document.documentElement.scrollWidth > window.innerWidth) problems.push(`page ${document.documentElement.scrollWidth} > ${window.innerWidth}`);
    return problems;
  });
  expect(overflow).toEqual([]);
}

/** The search box shows its whole placeholder: its text does not scroll inside the box. */
async function expectSearchReadable(page: Page) {
  const search = page.getByPlaceholder(SEARCH);
  await search.waitFor({ state: 'visible' });
  const size = await search.evaluate((input: HTMLInputElement) => {
    // The placeholder's width as the input draws it, measured with the input's own font.
    const style = getComputedStyle(input);
    const canvas = document.createElement('canvas').getContext('2d')!;
    canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const text = canvas.measureText(input.placeholder).width;
    const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return { value: input.value, scrollWidth: input.scrollWidth, clientWidth: input.clientWidth, text: Math.ceil(text), room: Math.floor(room) };
  });
  expect(size.value).toBe('');
  expect(size.scrollWidth).toBeLessThanOrEqual(size.clientWidth);
  expect(size.text).toBeLessThanOrEqual(size.room);
}

const filterButton = (page: Page) => page.getByRole('button', { name: /^Filters/ });
const sheetOf = (page: Page) => page.getByRole('dialog', { name: 'Filters' });
// Not through the button's role: while the sheet is open the page behind it is hidden from assistive technology.
const activeCount = async (page: Page) => {
  const badge = page.getByTestId('active-filter-count');
  return (await badge.count()) === 0 ? null : badge.textContent();
};
const chip = (page: Page, label: string) => page.getByRole('button', { name: `Remove ${label}` });

/** Ticks one value of a filter of several (brand, category, type) in the sheet: its group's toggle. */
async function tick(sheet: Locator, filter: string, name: string) {
  const toggle = sheet.getByRole('group', { name: filter }).getByRole('button', { name, exact: true });
  await toggle.scrollIntoViewIfNeeded();
  await toggle.click();
}

async function choose(select: Locator, label: string) {
  await select.scrollIntoViewIfNeeded();
  await select.selectOption({ label });
}

journey('at 390 px every library filter is in the Filters sheet; choosing filters the grid, counts them and shows chips that remove them', async ({ page, library }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/library', { waitUntil: 'domcontentloaded' });
  await waitForItemCount(page, 13);
  await page.getByPlaceholder(SEARCH).waitFor({ state: 'visible' });
  await expectNoSidewaysOverflow(page);
  // The filters themselves are not in the toolbar's row at this width: the button opens them.
  expect(await page.getByRole('button', { name: /^Type:/ }).count()).toBe(0);
  expect(await activeCount(page)).toBeNull();

  const button = filterButton(page);
  await button.click();
  const sheet = sheetOf(page);
  await sheet.waitFor({ state: 'visible' });
  await expect.poll(() => sheet.evaluate((element) => element.contains(document.activeElement)), POLL).toBe(true);
  for (const name of ['Brand', 'Category', 'Type']) expect(await sheet.getByRole('group', { name }).isVisible()).toBe(true);
  expect(await sheet.getByRole('combobox', { name: 'Date' }).isVisible()).toBe(true);
  const tagToggle = sheet.getByRole('button', { name: library.tag, exact: true });
  await tagToggle.scrollIntoViewIfNeeded();
  expect(await tagToggle.isVisible()).toBe(true);

  // Each choice filters the grid behind the sheet and counts.
  await tick(sheet, 'Brand', library.beta.brandName);
  await page.waitForURL((url) => url.searchParams.get('brand') === library.beta.brandName);
  await waitForItemCount(page, 4);
  expect(await activeCount(page)).toBe('1');
  await tick(sheet, 'Category', library.beta.categoryName);
  await tick(sheet, 'Type', library.betaType);
  await tagToggle.click();
  expect(await tagToggle.getAttribute('aria-pressed')).toBe('true');
  await page.waitForURL((url) => url.searchParams.get('tag') === library.tag);
  await waitForItemCount(page, 2);
  await choose(sheet.getByRole('combobox', { name: 'Date' }), 'Past week');
  await page.waitForURL((url) => url.searchParams.get('date') === 'week');
  await expect.poll(() => activeCount(page), POLL).toBe('5');

  // Escape closes the sheet and gives focus back to the button.
  await page.keyboard.press('Escape');
  await sheet.waitFor({ state: 'hidden' });
  await expect.poll(() => button.evaluate((element) => element === document.activeElement), POLL).toBe(true);
  await waitForItemCount(page, 2);

  // Every active filter is a chip; removing one clears it.
  for (const label of [`Brand: ${library.beta.brandName}`, `Category: ${library.beta.categoryName}`, `Type: ${library.betaType}`, `Tag: ${library.tag}`, 'Date: Past week'])
    expect(await chip(page, label).isVisible()).toBe(true);
  await expectNoSidewaysOverflow(page);
  await chip(page, `Tag: ${library.tag}`).click();
  await page.waitForURL((url) => !url.searchParams.has('tag'));
  await waitForItemCount(page, 4);
  expect(await chip(page, `Tag: ${library.tag}`).count()).toBe(0);
  expect(await activeCount(page)).toBe('4');

  await page.getByRole('button', { name: 'Clear all' }).click();
  await page.waitForURL((url) => url.search === '');
  await waitForItemCount(page, 13);
  expect(await activeCount(page)).toBeNull();
  expect(await page.getByRole('button', { name: /^Remove / }).count()).toBe(0);

  // The sheet's own way out: clear and close.
  await button.click();
  await sheet.waitFor({ state: 'visible' });
  await choose(sheet.getByRole('combobox', { name: 'Date' }), 'Past month');
  await page.waitForURL((url) => url.searchParams.get('date') === 'month');
  await waitForItemCount(page, 10);
  await sheet.getByRole('button', { name: 'Clear all' }).click();
  await page.waitForURL((url) => url.search === '');
  await sheet.getByRole('button', { name: 'Show ads' }).click();
  await sheet.waitFor({ state: 'hidden' });
  await waitForItemCount(page, 13);
}, 240_000);

journey('at 1440 px with the sidebar open the library toolbar is one row (search, brand, category, Filters, order), the grid right under it, and chosen filters are chips', async ({ page, stack, library }) => {
  await signIn(page, stack, FREE);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/library', { waitUntil: 'domcontentloaded' });
  await waitForItemCount(page, 13);
  expect(await page.getByTestId('app-sidebar').getAttribute('data-state')).toBe('expanded');
  await expectSearchReadable(page);
  await expectNoSidewaysOverflow(page);

  // One row: every control of the toolbar's first row at the same height on the page.
  const row = await toolbarOf(page).evaluate((toolbar) => {
    const controls = [...toolbar.firstElementChild!.children].map((child) => child.getBoundingClientRect());
    const card = document.querySelector('[data-ad-id]')!.getBoundingClientRect();
    return { tops: controls.map((box) => Math.round(box.top)), bottom: Math.max(...controls.map((box) => box.bottom)), height: toolbar.getBoundingClientRect().height, cardTop: card.top };
  });
  expect(row.tops).toHaveLength(5);
  expect(new Set(row.tops).size).toBe(1);
  expect(row.height).toBeLessThanOrEqual(48);
  // Between the row and the first card only the total's line.
  expect(row.cardTop - row.bottom).toBeLessThanOrEqual(72);
  console.log(`toolbar at 1440 px: one row ${Math.round(row.height)} px high, first card ${Math.round(row.cardTop)} px from the top`);

  await page.getByRole('button', { name: /^Brand:/ }).click();
  await page.getByRole('menuitemcheckbox', { name: library.alpha.brandName }).click();
  await page.keyboard.press('Escape');
  await filterButton(page).click();
  const panel = page.getByTestId('filter-panel');
  await panel.waitFor({ state: 'visible' });
  await panel.getByRole('combobox', { name: 'Date' }).selectOption({ label: 'Past month' });
  await page.waitForURL((url) => url.searchParams.get('brand') === library.alpha.brandName && url.searchParams.get('date') === 'month');
  await waitForItemCount(page, 0);
  // Filters counts what it holds (the date), not the brand beside it.
  expect(await page.getByRole('button', { name: 'Filters, 1 active' }).count()).toBe(1);
  await panel.getByRole('button', { name: 'Show ads' }).click();
  await panel.waitFor({ state: 'detached' });
  expect(await chip(page, `Brand: ${library.alpha.brandName}`).isVisible()).toBe(true);
  await chip(page, 'Date: Past month').click();
  await page.waitForURL((url) => !url.searchParams.has('date'));
  await waitForItemCount(page, 3);
  // One chip left: no Clear all.
  expect(await page.getByRole('button', { name: 'Clear all' }).count()).toBe(0);
  await expectSearchReadable(page);
}, 240_000);

journey('a themed board shares the toolbar: the Filters sheet and chips at 390 px, a readable search at 1440 px with the sidebar open', async ({ page, stack, library }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/top-picks', { waitUntil: 'domcontentloaded' });
  await waitForItemCount(page, 7);
  await expectNoSidewaysOverflow(page);
  await filterButton(page).click();
  const sheet = sheetOf(page);
  await sheet.waitFor({ state: 'visible' });
  expect(await sheet.getByRole('combobox', { name: 'Category' }).isVisible()).toBe(true);
  await choose(sheet.getByRole('combobox', { name: 'Brand' }), library.alpha.brandName);
  await page.waitForURL((url) => url.searchParams.get('brand') === library.alpha.brandName);
  await waitForItemCount(page, 3);
  expect(await activeCount(page)).toBe('1');
  await sheet.getByRole('button', { name: 'Show ads' }).click();
  await sheet.waitFor({ state: 'hidden' });
  await chip(page, `Brand: ${library.alpha.brandName}`).click();
  await page.waitForURL((url) => !url.searchParams.has('brand'));
  await waitForItemCount(page, 7);
  await expectNoSidewaysOverflow(page);

  await signIn(page, stack, FREE);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/top-picks', { waitUntil: 'domcontentloaded' });
  await waitForItemCount(page, 7);
  expect(await page.getByTestId('app-sidebar').getAttribute('data-state')).toBe('expanded');
  await expectSearchReadable(page);
  await expectNoSidewaysOverflow(page);
}, 240_000);
