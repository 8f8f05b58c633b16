import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { seriousAxeViolations } from './support/axe.ts';
import { journeyWithLibrary } from './support/journey.ts';
import { provisionAccount, signIn } from './support/signed-in.ts';

const FREE = { email: 'free-shell@obyect.e2e', password: 'e2e-free-password' };
const DESKTOP_WIDTHS = [768, 1024, 1280, 1440] as const;
const ALL_WIDTHS = [390, ...DESKTOP_WIDTHS] as const;
const SEVEN_DAYS_S = 7 * 24 * 60 * 60;

const journey = journeyWithLibrary(async (stack) => {
  await provisionAccount(stack, 'free', FREE.email, FREE.password);
  return {};
});

const sidebar = (page: Page) => page.getByTestId('app-sidebar');
const sidebarWidth = async (page: Page) => Math.round((await sidebar(page).boundingBox())?.width ?? 0);
const focusedLabel = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent ?? '');

journey('the sidebar collapses to 72 px and back, by its button and by Ctrl+B, and the cookie keeps it over a reload for 7 days', async ({ page, stack }) => {
  await signIn(page, stack, FREE);
  for (const width of DESKTOP_WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.context().clearCookies();
    await page.goto('/library');
    await sidebar(page).waitFor({ state: 'visible' });
    await expect.poll(() => sidebarWidth(page)).toBe(272);
    expect(await sidebar(page).getByText('My Obyects:').isVisible()).toBe(true);

    await page.getByRole('button', { name: 'Toggle sidebar' }).click();
    await expect.poll(() => sidebarWidth(page)).toBe(72);
    const cookie = (await page.context().cookies()).find((candidate) => candidate.name === 'sidebar_state');
    expect(cookie?.value).toBe('false');
    const lifetime = cookie!.expires - Date.now() / 1000;
    expect(lifetime).toBeGreaterThan(SEVEN_DAYS_S - 120);
    expect(lifetime).toBeLessThanOrEqual(SEVEN_DAYS_S + 1);

    await page.reload();
    await sidebar(page).waitFor({ state: 'visible' });
    expect(await sidebar(page).getAttribute('data-state')).toBe('collapsed');
    expect(await sidebarWidth(page)).toBe(72);

    await page.keyboard.press('Control+b');
    await expect.poll(() => sidebarWidth(page)).toBe(272);
    await page.keyboard.press('Control+b');
    await expect.poll(() => sidebarWidth(page)).toBe(72);
    await page.keyboard.press('Control+b');
    await expect.poll(() => sidebarWidth(page)).toBe(272);
  }
}, 240_000);

journey('on a phone the menu opens a 280 px drawer that closes after navigating, and Escape gives the focus back', async ({ page, stack }) => {
  await signIn(page, stack, FREE);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/library');
  expect(await sidebar(page).isVisible()).toBe(false);
  const menu = page.getByRole('button', { name: 'Open menu' });
  await menu.click();
  const drawer = page.getByRole('dialog', { name: 'Menu' });
  await drawer.waitFor({ state: 'visible' });
  expect(Math.round((await drawer.boundingBox())!.width)).toBe(280);
  for (const name of ['Library', 'Black Friday Board', 'Top picks', 'Favorites', 'Profile Settings']) {
    expect(await drawer.getByRole('link', { name, exact: true }).isVisible(), name).toBe(true);
  }
  for (const name of ['Upgrade Plan', 'Logout', 'Share']) expect(await drawer.getByRole('button', { name }).isVisible(), name).toBe(true);

  await drawer.getByRole('link', { name: 'Top picks' }).click();
  await page.waitForURL((url) => url.pathname === '/top-picks');
  await drawer.waitFor({ state: 'hidden' });

  // Keyboard: the drawer keeps the focus inside, Escape closes it and the focus returns to the menu button.
  await menu.focus();
  await page.keyboard.press('Enter');
  await drawer.waitFor({ state: 'visible' });
  for (let i = 0; i < 25; i += 1) {
    await page.keyboard.press('Tab');
    expect(await drawer.evaluate((element) => element.contains(document.activeElement))).toBe(true);
  }
  await page.keyboard.press('Escape');
  await drawer.waitFor({ state: 'hidden' });
  // The dialog gives the focus back as it unmounts, a moment after it is hidden.
  await expect.poll(() => focusedLabel(page), { timeout: 2_000, interval: 50 }).toBe('Open menu');
});

journey('the user menu and the sidebar work by keyboard', async ({ page, stack }) => {
  await signIn(page, stack, FREE);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/library');
  await sidebar(page).waitFor({ state: 'visible' });
  // The sidebar's links are reachable with Tab and followed with Enter.
  await sidebar(page).getByRole('link', { name: 'Library', exact: true }).focus();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  expect(await focusedLabel(page)).toBe('Top picks');
  await page.keyboard.press('Enter');
  await page.waitForURL((url) => url.pathname === '/top-picks');

  await page.getByRole('heading', { level: 1, name: 'Top Picks' }).waitFor();
  await page.waitForLoadState('networkidle');
  const trigger = page.getByRole('button', { name: 'Frankie Free' });
  await trigger.focus();
  await page.keyboard.press('Enter');
  const profile = page.getByRole('link', { name: 'Profile Settings' });
  await profile.waitFor({ state: 'visible', timeout: 5000 }).catch(() => {
    throw new Error("The user menu did not open on Enter");
  });
  await page.keyboard.press('Escape');
  await profile.waitFor({ state: 'hidden' });
  expect(await focusedLabel(page)).toContain('Frankie Free');
  await page.waitForFunction(() => document.activeElement?.getAttribute('aria-expanded') === 'false');
  await page.keyboard.press('Enter');
  await profile.waitFor({ state: 'visible', timeout: 5000 }).catch(() => {
    throw new Error('The user menu did not open again on Enter');
  });
  const focusedText = () => page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
  for (let i = 0; i < 3 && (await focusedText()) !== 'Profile Settings'; i += 1) await page.keyboard.press('Tab');
  expect(await focusedText()).toBe('Profile Settings');
  await page.keyboard.press('Enter');
  await page.waitForURL((url) => url.pathname === '/profile');
});

journey('the plain header highlights the current page, and its menu repeats it on a phone', async ({ page }) => {
  for (const width of DESKTOP_WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/library');
    const nav = page.getByRole('banner').getByRole('navigation', { name: 'Main' });
    await nav.waitFor({ state: 'visible' });
    expect(await nav.getByRole('link', { name: 'Library' }).getAttribute('aria-current')).toBe('page');
    expect(await nav.getByRole('link', { name: 'Favorites' }).getAttribute('aria-current')).toBeNull();
    expect(await page.getByRole('banner').getByRole('link', { name: 'Sign Up' }).isVisible()).toBe(true);
    await page.goto('/terms');
    await nav.waitFor({ state: 'visible' });
    expect(await nav.getByRole('link', { name: 'Library' }).getAttribute('aria-current')).toBeNull();
  }
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/library');
  await page.getByRole('button', { name: 'Open menu' }).click();
  const drawer = page.getByRole('dialog', { name: 'Menu' });
  expect(await drawer.getByRole('link', { name: 'Library', exact: true }).getAttribute('aria-current')).toBe('page');
  for (const name of ['Login', 'Sign Up']) expect(await drawer.getByRole('link', { name }).isVisible(), name).toBe(true);
  await drawer.getByRole('link', { name: 'Login' }).click();
  await page.waitForURL((url) => url.pathname === '/auth/signin');
  await drawer.waitFor({ state: 'detached' });
});

journey('Share copies the address of the page, says so, and gives the focus back', async ({ page, stack }) => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.url });
  for (const width of ALL_WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    const path = `/terms?width=${width}`;
    await page.goto(path);
    let opener = page.getByRole('banner').getByRole('button', { name: 'Share' });
    if (width < 768) {
      await page.getByRole('button', { name: 'Open menu' }).click();
      opener = page.getByRole('dialog', { name: 'Menu' }).getByRole('button', { name: 'Share' });
    }
    await opener.click();
    const dialog = page.getByRole('dialog', { name: 'Share' });
    await dialog.waitFor({ state: 'visible' });
    await dialog.getByRole('button', { name: 'Copy URL' }).click();
    await page.getByText('Link copied').first().waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${stack.url}${path}`);
    await dialog.waitFor({ state: 'hidden' });
    expect(await focusedLabel(page)).toContain('Share');
  }
});

journey("any other path shows 'Oops! Page not found' with a link home, at every width", async ({ page }) => {
  for (const width of ALL_WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/this/does/not/exist');
    await page.getByRole('heading', { name: 'Oops! Page not found' }).waitFor();
    expect(await page.title()).toBe('Page not found – Obyect');
  }
  await page.getByRole('link', { name: 'Return to Home' }).click();
  await page.waitForURL((url) => url.pathname === '/library');
});

journey('the legal pages have real content and every page sets its title, description and Open Graph tags', async ({ page, stack }) => {
  await page.goto('/terms');
  const terms = await page.getByRole('main').textContent();
  for (const words of ['Google', 'Stripe', 'within 30 days', '18 years']) expect(terms).toContain(words);
  await page.goto('/privacy');
  const privacy = await page.getByRole('main').textContent();
  for (const words of ['Google', 'Stripe', 'GDPR', 'within 30 days', '18']) expect(privacy).toContain(words);

  await signIn(page, stack, FREE);
  for (const path of ['/library', '/black-friday', '/top-picks', '/terms', '/privacy', '/profile', '/nowhere']) {
    await page.goto(path);
    await page.waitForFunction(() => document.head.querySelector('meta[property="og:url"]')?.getAttribute('content')?.endsWith(window.location.pathname));
    const tags = await page.evaluate(() => ({
      title: document.title,
      description: document.head.querySelector('meta[name="description"]')?.getAttribute('content') ?? '',
      ogTitle: document.head.querySelector('meta[property="og:title"]')?.getAttribute('content') ?? '',
      ogDescription: document.head.querySelector('meta[property="og:description"]')?.getAttribute('content') ?? '',
    }));
    expect(tags.title.length, path).toBeGreaterThan(0);
    expect(tags.title.length, path).toBeLessThanOrEqual(60);
    expect(tags.description.length, path).toBeGreaterThan(0);
    expect(tags.description.length, path).toBeLessThanOrEqual(160);
    expect(tags.ogTitle, path).toBe(tags.title);
    expect(tags.ogDescription, path).toBe(tags.description);
  }
});

journey('axe finds no serious or critical issue on the shell, the menus, Share, the legal pages and not-found', async ({ page, stack }) => {
  const problems: string[] = [];
  const check = async (label: string) => problems.push(...(await seriousAxeViolations(page)).map((line) => `${label}: ${line}`));
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    for (const path of ['/terms', '/privacy', '/nowhere']) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await check(`anonymous ${path} @${width}`);
    }
    if (width < 768) {
      await page.getByRole('button', { name: 'Open menu' }).click();
      await page.getByRole('dialog', { name: 'Menu' }).waitFor();
      await check(`anonymous menu @${width}`);
      await page.keyboard.press('Escape');
    }
  }
  await signIn(page, stack, FREE);
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/terms');
    await page.getByTestId('app-shell').waitFor();
    await check(`signed-in shell /terms @${width}`);
    if (width < 768) {
      await page.getByRole('button', { name: 'Open menu' }).click();
      await page.getByRole('dialog', { name: 'Menu' }).waitFor();
      await check(`signed-in drawer @${width}`);
      await page.keyboard.press('Escape');
    } else {
      await page.getByRole('button', { name: 'Toggle sidebar' }).click();
      await check(`collapsed sidebar @${width}`);
      await page.getByRole('button', { name: 'Toggle sidebar' }).click();
      await page.getByRole('banner').getByRole('button', { name: 'Share' }).click();
      await page.getByRole('dialog', { name: 'Share' }).waitFor();
      await check(`share dialog @${width}`);
      await page.keyboard.press('Escape');
    }
  }
  expect(problems).toEqual([]);
});

/**
 * Opens a dialog from its trigger by keyboard, tabs through it (the focus never
 * leaves it), closes it with Escape and checks the focus is back on the trigger.
 */
async function expectDialogTrapsAndReturnsFocus(page: Page, triggerName: string, dialogName: string) {
  const trigger = page.getByRole('button', { name: triggerName });
  await trigger.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: dialogName });
  await dialog.waitFor({ state: 'visible' });
  for (let i = 0; i < 12; i += 1) {
    await page.keyboard.press(i % 4 === 3 ? 'Shift+Tab' : 'Tab');
    expect(await dialog.evaluate((element) => element.contains(document.activeElement)), `${dialogName}, Tab ${i + 1}`).toBe(true);
  }
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
  // The focus comes back once the dialog has fully unmounted, a moment after it is hidden.
  await expect.poll(() => trigger.evaluate((element) => element === document.activeElement), { timeout: 5_000, message: `focus back on '${triggerName}'` }).toBe(true);
}

journey('the exclusive-access and pricing dialogs keep the focus inside and give it back to what opened them', async ({ page, stack }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/library');
  await expectDialogTrapsAndReturnsFocus(page, 'View Black Friday Board', 'Black Friday Collection');

  await signIn(page, stack, FREE);
  await page.goto('/library');
  await expectDialogTrapsAndReturnsFocus(page, 'Subscribe Now to Unlock Full Access', 'Unlock every winning ad');
});
