import { createClient } from '@supabase/supabase-js';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import WebSocket from 'ws';
import type { LocalStack } from '../local/stack.ts';
import { seriousAxeViolations } from './support/axe.ts';
import { launchChromium } from './support/chromium.ts';
import { journeyWithLibrary } from './support/journey.ts';
import { provisionAccount, signIn } from './support/signed-in.ts';

const POLL = { timeout: 15_000, interval: 100 };
const OWNER = { email: 'boards-owner@obyect.e2e', password: 'e2e-boards-owner' };
const OTHER = { email: 'boards-other@obyect.e2e', password: 'e2e-boards-other' };
const FLAKY = { email: 'boards-flaky@obyect.e2e', password: 'e2e-boards-flaky' };
/** Free accounts: the sidebar shows them Upgrade Plan, which the panel must leave uncovered. */
const NESTER = { email: 'boards-nester@obyect.e2e', password: 'e2e-boards-nester' };
const PHONE_NESTER = { email: 'boards-phone-nester@obyect.e2e', password: 'e2e-boards-phone-nester' };
/** BOARDS_SCREENSHOTS=<folder> keeps a picture of the panel at each width. */
const SHOTS = process.env.BOARDS_SCREENSHOTS;

const journey = journeyWithLibrary(async (stack) => {
  const owner = await provisionAccount(stack, 'subscriber', OWNER.email, OWNER.password);
  await provisionAccount(stack, 'free', OTHER.email, OTHER.password);
  const flaky = await provisionAccount(stack, 'subscriber', FLAKY.email, FLAKY.password);
  const nester = await provisionAccount(stack, 'free', NESTER.email, NESTER.password);
  const phoneNester = await provisionAccount(stack, 'free', PHONE_NESTER.email, PHONE_NESTER.password);
  const { rows } = await stack.db.query<{ id: string }>('select id from public.ads where not is_black_friday order by created_at desc, id desc');
  return { ownerId: owner.id, flakyId: flaky.id, nesterId: nester.id, phoneNesterId: phoneNester.id, adIds: rows.map((row) => row.id) };
});

const card = (page: Page, adId: string) => page.locator(`[data-testid="ad-card"][data-ad-id="${adId}"]`);
const panel = (page: Page) => page.locator('[data-testid="add-to-board-popover"]');
const sidebarCollections = (page: Page) => page.locator('section[aria-label="Collections"]');
const checkbox = (page: Page, name: string) => panel(page).getByRole('checkbox', { name, exact: true });

async function openPanel(page: Page, adId: string): Promise<void> {
  await card(page, adId).getByRole('button', { name: 'Add to board' }).click();
  await panel(page).waitFor({ state: 'visible' });
  await panel(page).getByText('Loading boards...').waitFor({ state: 'detached' });
}

/** A supabase-js client signed in as a user, as any script holding their password could make. */
async function apiAs(stack: LocalStack, credentials: { email: string; password: string }) {
  const client = createClient(stack.url, stack.config.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as never },
  });
  const { error } = await client.auth.signInWithPassword(credentials);
  if (error) throw error;
  return client;
}

const boardIdByName = async (stack: LocalStack, userId: string, name: string) =>
  (await stack.db.query<{ id: string }>('select id from public.user_collections where user_id = $1 and name = $2', [userId, name])).rows[0]?.id;

const membershipsOf = async (stack: LocalStack, adId: string, userId: string) =>
  (
    await stack.db.query<{ name: string }>(
      `select c.name from public.user_collection_items i join public.user_collections c on c.id = i.collection_id
        where i.ad_id = $1 and c.user_id = $2 order by c.name`,
      [adId, userId],
    )
  ).rows.map((row) => row.name);

journey(
  'a user builds a three-level board tree, saves one ad to two boards and Favorites in one Confirm, finds it on the pages, removes it, and a second tab sees new boards live',
  async ({ page, stack, library }) => {
    const [adId] = library.adIds as [string];
    const saveCalls: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/rest/v1/rpc/save_ad_boards')) saveCalls.push(request.postData() ?? '');
    });
    await signIn(page, stack, OWNER);
    await page.goto('/library');

    // A first board, made inside the panel and selected; Cancel discards the selection but keeps the board.
    await openPanel(page, adId);
    expect(await panel(page).getByRole('heading', { name: 'Add to board' }).count()).toBe(1);
    await panel(page).getByText('No boards yet').waitFor();
    expect(await panel(page).getByRole('button', { name: 'Confirm' }).count()).toBe(0);
    await panel(page).getByRole('button', { name: 'Create Board' }).click();
    await panel(page).getByPlaceholder('Board name').fill('  Skincare hooks  ');
    await panel(page).getByPlaceholder('Board name').press('Enter');
    await expect.poll(() => checkbox(page, 'Skincare hooks').getAttribute('aria-checked'), POLL).toBe('true');
    await panel(page).getByRole('button', { name: 'Confirm' }).waitFor();
    await panel(page).getByRole('button', { name: 'Cancel' }).click();
    await panel(page).waitFor({ state: 'detached' });
    expect(await membershipsOf(stack, adId, library.ownerId)).toEqual([]);

    // The sidebar lists it; its page makes a sub-board, whose page makes a sub-sub-board.
    const topId = (await boardIdByName(stack, library.ownerId, 'Skincare hooks'))!;
    await sidebarCollections(page).getByRole('link', { name: 'Skincare hooks' }).click();
    await page.waitForURL((url) => url.pathname === `/collection/${topId}`);
    await page.getByRole('heading', { name: 'Skincare hooks', level: 1 }).waitFor();
    await page.getByText('No ads saved in Skincare hooks.').waitFor();
    await page.getByRole('button', { name: 'New sub-board' }).click();
    await page.getByPlaceholder('Sub-board name').fill('Openers');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByRole('navigation', { name: 'Sub-boards' }).getByRole('link', { name: 'Openers' }).click();
    await page.getByRole('heading', { name: 'Openers', level: 1 }).waitFor();
    await page.getByRole('navigation', { name: 'Board path' }).getByRole('link', { name: 'Skincare hooks' }).waitFor();

    // A second browser, signed in as the same user, watches its sidebar while the third level is made here.
    const second = await launchChromium({ baseURL: stack.url });
    try {
      const other = await second.context.newPage();
      await signIn(other, stack, OWNER);
      await other.goto('/favorites');
      await sidebarCollections(other).getByRole('link', { name: 'Openers' }).waitFor();

      await page.getByRole('button', { name: 'New sub-board' }).click();
      await page.getByPlaceholder('Sub-board name').fill('Hooks under 3s');
      await page.getByRole('button', { name: 'Create', exact: true }).click();
      await page.getByRole('navigation', { name: 'Sub-boards' }).getByRole('link', { name: 'Hooks under 3s' }).waitFor();
      // Live, without a reload: within two seconds.
      await sidebarCollections(other).getByRole('link', { name: 'Hooks under 3s' }).waitFor({ timeout: 2_000 });
    } finally {
      await second.close();
    }

    // One Confirm saves the ad to two boards and Favorites.
    await page.goto('/library');
    await openPanel(page, adId);
    const rows = panel(page).locator('[data-testid="board-row"]');
    expect(await rows.evaluateAll((elements) => elements.map((element) => [element.textContent, element.getAttribute('data-depth'), (element as HTMLElement).style.paddingLeft]))).toEqual([
      ['Skincare hooks', '0', '0px'],
      ['Openers', '1', '20px'],
      ['Hooks under 3s', '2', '40px'],
    ]);
    await panel(page).getByPlaceholder('Search boards...').fill('HOOKS UNDER');
    expect(await rows.count()).toBe(3); // the match with the boards it sits in
    await panel(page).getByPlaceholder('Search boards...').fill('nothing like this');
    await panel(page).getByText('No boards found').waitFor();
    await panel(page).getByPlaceholder('Search boards...').fill('');
    await checkbox(page, 'Favorites').click();
    await checkbox(page, 'Skincare hooks').click();
    await checkbox(page, 'Hooks under 3s').click();
    expect(saveCalls).toEqual([]);
    await panel(page).getByRole('button', { name: 'Confirm' }).click();
    await panel(page).waitFor({ state: 'detached' });
    expect(saveCalls).toHaveLength(1);
    expect(await membershipsOf(stack, adId, library.ownerId)).toEqual(['Favorites', 'Hooks under 3s', 'Skincare hooks']);

    await openPanel(page, adId);
    await panel(page).getByRole('heading', { name: 'Ad saved ✓' }).waitFor();
    expect(await checkbox(page, 'Openers').getAttribute('aria-checked')).toBe('false');
    expect(await checkbox(page, 'Favorites').getAttribute('aria-checked')).toBe('true');
    await panel(page).getByRole('button', { name: 'Close' }).click();

    // The ad on its boards' pages; Favorites never offers delete.
    await page.goto('/favorites');
    await card(page, adId).waitFor();
    expect(await page.getByRole('heading', { name: 'Favorites', level: 1 }).count()).toBe(1);
    expect(await card(page, adId).getByRole('button', { name: /remove|delete/i }).count()).toBe(0);
    const deepId = (await boardIdByName(stack, library.ownerId, 'Hooks under 3s'))!;
    await page.goto(`/collection/${deepId}`);
    await card(page, adId).waitFor();

    // Removing asks first, then says so.
    await page.goto(`/collection/${topId}`);
    await card(page, adId).getByRole('button', { name: 'Remove from collection' }).click();
    await page.getByText('Remove this ad from this collection?').waitFor();
    await page.getByRole('button', { name: 'Remove', exact: true }).click();
    await page.getByText('Ad removed from collection.').waitFor();
    await page.getByText('No ads saved in Skincare hooks.').waitFor();
    expect(await membershipsOf(stack, adId, library.ownerId)).toEqual(['Favorites', 'Hooks under 3s']);

    // Another user can neither read, add to nor delete from these boards through the API.
    const intruder = await apiAs(stack, OTHER);
    const read = await intruder.from('user_collections').select('id').eq('id', topId);
    expect(read.error).toBeNull();
    expect(read.data).toEqual([]);
    const items = await intruder.from('user_collection_items').select('ad_id').eq('collection_id', deepId);
    expect(items.data).toEqual([]);
    const listed = await intruder.rpc('list_collection_ads', { p_collection_id: deepId });
    expect(listed.error?.details).toBe('board_not_found');
    const added = await intruder.rpc('save_ad_boards', { p_ad_id: library.adIds[1], p_add: [topId], p_remove: [] });
    expect(added.error?.details).toBe('board_not_found');
    const removed = await intruder.rpc('save_ad_boards', { p_ad_id: adId, p_add: [], p_remove: [deepId] });
    expect(removed.error?.details).toBe('board_not_found');
    const inserted = await intruder.from('user_collection_items').insert({ collection_id: topId, ad_id: adId });
    expect(inserted.error).not.toBeNull();
    const deletedItems = await intruder.from('user_collection_items').delete().eq('collection_id', deepId).select();
    expect(deletedItems.data ?? []).toEqual([]);
    const deletedBoard = await intruder.rpc('delete_board', { p_id: topId, p_move_children_up: false });
    expect(deletedBoard.error?.details).toBe('board_not_found');
    const deletedRow = await intruder.from('user_collections').delete().eq('id', topId).select();
    expect(deletedRow.data ?? []).toEqual([]);
    const renamed = await intruder.from('user_collections').update({ name: 'Mine now' }).eq('id', topId).select();
    expect(renamed.data ?? []).toEqual([]);
    expect(await membershipsOf(stack, adId, library.ownerId)).toEqual(['Favorites', 'Hooks under 3s']);
    expect(await boardIdByName(stack, library.ownerId, 'Skincare hooks')).toBe(topId);
    await intruder.auth.signOut();
  },
);

journey('a save whose connection drops mid-Confirm changes no board and says so', async ({ stack, library }) => {
  const [adId, otherAdId] = library.adIds as [string, string];
  const boardId = (
    await stack.db.query<{ id: string }>(
      `insert into public.user_collections (user_id, name) values ($1, 'Morning routine') returning id`,
      [library.flakyId],
    )
  ).rows[0]!.id;
  await stack.db.query('insert into public.user_collection_items (collection_id, ad_id) values ($1, $2), ($1, $3)', [boardId, adId, otherAdId]);

  // A browser of its own: the dropped request is expected to log errors, which the journey fixture would refuse.
  const browser = await launchChromium({ baseURL: stack.url });
  try {
    const page = await browser.context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await signIn(page, stack, FLAKY);
    await page.route('**/rest/v1/rpc/save_ad_boards', (route) => route.abort('connectionreset'));
    await page.goto('/library');
    await openPanel(page, adId);
    await panel(page).getByRole('heading', { name: 'Ad saved ✓' }).waitFor();
    await checkbox(page, 'Morning routine').click();
    await checkbox(page, 'Favorites').click();
    await panel(page).getByRole('button', { name: 'Confirm' }).click();

    await page.getByText('Save failed').waitFor();
    await page.getByText('Nothing was changed. Please try again.').waitFor();
    // The panel stays open with the choices, so trying again is one click.
    expect(await checkbox(page, 'Morning routine').getAttribute('aria-checked')).toBe('false');
    expect(await panel(page).getByRole('button', { name: 'Confirm' }).isEnabled()).toBe(true);
    expect(await membershipsOf(stack, adId, library.flakyId)).toEqual(['Morning routine']);
    expect(await membershipsOf(stack, otherAdId, library.flakyId)).toEqual(['Morning routine']);

    // Closing discards; the panel shows what is saved.
    await panel(page).getByRole('button', { name: 'Cancel' }).click();
    await openPanel(page, adId);
    expect(await checkbox(page, 'Morning routine').getAttribute('aria-checked')).toBe('true');
    expect(await checkbox(page, 'Favorites').getAttribute('aria-checked')).toBe('false');
    expect(pageErrors).toEqual([]);
  } finally {
    await browser.close();
  }
});

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

const insertBoard = async (stack: LocalStack, userId: string, name: string, parentId: string | null = null) =>
  (await stack.db.query<{ id: string }>('insert into public.user_collections (user_id, name, parent_id) values ($1, $2, $3) returning id', [userId, name, parentId])).rows[0]!.id;

const boardOf = async (stack: LocalStack, userId: string, name: string) =>
  (await stack.db.query<{ id: string; parent_id: string | null }>('select id, parent_id from public.user_collections where user_id = $1 and name = $2', [userId, name])).rows;

/** The card the grid shows first in its first column: its panel opens nearest the sidebar. */
const firstColumnCard = (page: Page) =>
  page.locator('[data-testid="ad-card"]').evaluateAll((cards) => {
    const placed = cards.map((card) => ({ id: card.getAttribute('data-ad-id')!, box: card.getBoundingClientRect() })).filter(({ box }) => box.width > 0);
    placed.sort((a, b) => a.box.left - b.box.left || a.box.top - b.box.top);
    return placed[0]!.id;
  });

journey(
  'at 1440 px with the sidebar open, a user makes a sub-board from the panel of a first-column card by keyboard, the ad is saved in it, and the panel stays right of the sidebar, clear of Upgrade Plan',
  async ({ page, stack, library }) => {
    const parentId = await insertBoard(stack, library.nesterId, 'Skincare hooks');
    await insertBoard(stack, library.nesterId, 'Coffee');
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, stack, NESTER);
    await page.goto('/library');
    const sidebar = page.getByTestId('app-sidebar');
    await page.locator('[data-testid="app-sidebar"][data-state="expanded"]').waitFor();
    const upgrade = sidebar.getByRole('button', { name: 'Upgrade Plan' });
    await upgrade.waitFor();
    await page.locator('[data-testid="ad-card"]').first().waitFor();
    const adId = await firstColumnCard(page);
    await openPanel(page, adId);

    const where = async () => {
      const [panelBox, sidebarBox, upgradeBox, cardBox] = await Promise.all([panel(page).boundingBox(), sidebar.boundingBox(), upgrade.boundingBox(), card(page, adId).boundingBox()]);
      return { panelBox: panelBox!, sidebarBox: sidebarBox!, upgradeBox: upgradeBox!, cardBox: cardBox! };
    };
    const expectBesideTheSidebar = async () => {
      const { panelBox, sidebarBox, upgradeBox, cardBox } = await where();
      expect(panelBox.x).toBeGreaterThanOrEqual(sidebarBox.x + sidebarBox.width);
      expect(overlaps(panelBox, upgradeBox)).toBe(false);
      // Still the card's panel: beside its bookmark, over the card, inside the window.
      expect(overlaps(panelBox, cardBox)).toBe(true);
      expect(panelBox.x + panelBox.width).toBeLessThanOrEqual(1440);
      // Nothing lies over Upgrade Plan: a press there reaches it.
      const reached = await upgrade.evaluate((button) => {
        const box = button.getBoundingClientRect();
        return button.contains(document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2));
      });
      expect(reached).toBe(true);
      return { panelBox, sidebarBox };
    };
    const measured = await expectBesideTheSidebar();
    console.log(`1440 px: sidebar right ${measured.sidebarBox.x + measured.sidebarBox.width}, panel left ${measured.panelBox.x}, panel ${measured.panelBox.width}x${measured.panelBox.height}`);

    // By keyboard: the + of a board opens a name field under it; Enter makes the sub-board there, checked.
    const plus = panel(page).getByRole('button', { name: 'New sub-board in Skincare hooks' });
    await plus.focus();
    await page.keyboard.press('Enter');
    const field = panel(page).getByRole('textbox', { name: 'Name of the new sub-board in Skincare hooks' });
    await field.waitFor();
    expect(await field.evaluate((input) => input === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await panel(page).getByRole('alert').filter({ hasText: 'Collection name required' }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/add-to-board-sub-board-name-1440.png` });
    await page.keyboard.type('  Openers  ');
    await page.keyboard.press('Enter');
    await expect.poll(() => checkbox(page, 'Openers').getAttribute('aria-checked'), POLL).toBe('true');
    expect(await checkbox(page, 'Openers').evaluate((row) => row === document.activeElement)).toBe(true);
    const rows = panel(page).locator('[data-testid="board-row"]');
    expect(await rows.evaluateAll((elements) => elements.map((element) => [element.textContent, element.getAttribute('data-depth')]))).toEqual([
      ['Coffee', '0'],
      ['Skincare hooks', '0'],
      ['Openers', '1'],
    ]);
    expect(await boardOf(stack, library.nesterId, 'Openers')).toEqual([{ id: expect.any(String), parent_id: parentId }]);
    await expectBesideTheSidebar();
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/add-to-board-sub-board-1440.png` });

    await panel(page).getByRole('button', { name: 'Confirm' }).click();
    await panel(page).waitFor({ state: 'detached' });
    expect(await membershipsOf(stack, adId, library.nesterId)).toEqual(['Openers']);

    // The sub-board's page holds the ad, under its board.
    const openersId = (await boardOf(stack, library.nesterId, 'Openers'))[0]!.id;
    await page.goto(`/collection/${openersId}`);
    await page.getByRole('heading', { name: 'Openers', level: 1 }).waitFor();
    await page.getByRole('navigation', { name: 'Board path' }).getByRole('link', { name: 'Skincare hooks' }).waitFor();
    await card(page, adId).waitFor();
  },
);

journey('at 390 px a user makes a sub-board from the bottom sheet, and the ad is saved in it', async ({ page, stack, library }) => {
  const parentId = await insertBoard(stack, library.phoneNesterId, 'Moodboard');
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, stack, PHONE_NESTER);
  await page.goto('/library');
  const adId = library.adIds[1]!;
  await card(page, adId).getByRole('button', { name: 'Add to board' }).click();
  const sheet = page.getByTestId('add-to-board-sheet');
  await sheet.waitFor({ state: 'visible' });
  await sheet.getByText('Loading boards...').waitFor({ state: 'detached' });
  expect(await panel(page).count()).toBe(0);

  await sheet.getByRole('button', { name: 'New sub-board in Moodboard' }).click();
  const field = sheet.getByRole('textbox', { name: 'Name of the new sub-board in Moodboard' });
  await field.fill('Serums');
  await field.press('Enter');
  const serums = sheet.getByRole('checkbox', { name: 'Serums', exact: true });
  await expect.poll(() => serums.getAttribute('aria-checked'), POLL).toBe('true');
  // The sheet spans the screen's width, the rows inside it.
  const [sheetBox, rowBox] = await Promise.all([sheet.boundingBox(), serums.boundingBox()]);
  expect(sheetBox!.x).toBe(0);
  expect(sheetBox!.width).toBe(390);
  expect(rowBox!.x + rowBox!.width).toBeLessThanOrEqual(390);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/add-to-board-sub-board-390.png` });

  await sheet.getByRole('button', { name: 'Confirm' }).click();
  await sheet.waitFor({ state: 'hidden' });
  expect(await membershipsOf(stack, adId, library.phoneNesterId)).toEqual(['Serums']);
  expect(await boardOf(stack, library.phoneNesterId, 'Serums')).toEqual([{ id: expect.any(String), parent_id: parentId }]);
});

journey('a signed-out visitor who presses save goes to sign-in and comes back', async ({ page, library }) => {
  await page.goto('/library?brand=all');
  await card(page, library.adIds[0]!).getByRole('button', { name: 'Add to board' }).click();
  await page.waitForURL((url) => url.pathname === '/auth/signin' && url.searchParams.get('next') === '/library?brand=all');
});
