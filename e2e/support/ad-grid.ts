import type { Page } from 'playwright-core';
import { expect } from 'vitest';

export const CARDS = '[data-testid="ad-card"]';
export const CLEAR_CARDS = '[data-testid="ad-card"][data-locked="false"]';
export const LOCKED_CARDS = '[data-testid="ad-card"][data-locked="true"]';

const POLL = { timeout: 15_000, interval: 200 };

/**
 * How many ads the grid holds. The grid keeps only the cards near the viewport
 * in the page, so counting card elements says how many are on screen, not loaded.
 */
export const itemCount = (page: Page) =>
  page.locator('[data-item-count]').evaluate((grid) => Number((grid as HTMLElement).dataset.itemCount)).catch(() => 0);

/** Waits until the grid holds exactly `total` ads. */
export async function waitForItemCount(page: Page, total: number): Promise<void> {
  await expect.poll(() => itemCount(page), POLL).toBe(total);
}

export interface SeenCard {
  id: string;
  locked: boolean;
  brand: string;
  /** The card shows the lock's 'Unlock to view' over its image. */
  unlockPrompt: boolean;
}

/**
 * Every card of the list, in the order the grid lays them out: scrolls down
 * the page step by step (loading the next pages on the way, as a person
 * scrolling would), collecting each card as it comes into the DOM, until the
 * bottom is reached with `total` cards seen.
 */
export async function collectCards(page: Page, total: number): Promise<SeenCard[]> {
  await expect.poll(() => itemCount(page), POLL).toBeGreaterThan(0);
  const seen = new Map<string, SeenCard & { top: number; left: number }>();
  // A wheel turn first, as a person's hand would: it ends a scroll restore
  // still waiting for the list (after a reload), which would otherwise pull
  // the page back down to where it was left.
  await page.mouse.move(10, 10);
  await page.mouse.wheel(0, -1);
  await page.evaluate(() => window.scrollTo(0, 0));
  for (let step = 0; step < 300; step += 1) {
    const cards = await page.locator(CARDS).evaluateAll((elements) =>
      elements.map((element) => {
        const box = element.getBoundingClientRect();
        return {
          id: (element as HTMLElement).dataset.adId!,
          locked: (element as HTMLElement).dataset.locked === 'true',
          brand: element.querySelector('header div > p')?.textContent ?? '',
          unlockPrompt: (element.textContent ?? '').includes('Unlock to view'),
          top: Math.round(box.top + window.scrollY),
          left: Math.round(box.left),
        };
      }),
    );
    for (const card of cards) seen.set(card.id, card);
    const atEnd = await page.evaluate(() => window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2);
    if (atEnd && seen.size >= total) break;
    await page.evaluate(() => window.scrollBy(0, Math.round(window.innerHeight * 0.6)));
    await page.waitForTimeout(60);
  }
  expect(seen.size).toBe(total);
  return [...seen.values()].sort((a, b) => a.top - b.top || a.left - b.left).map(({ id, locked, brand, unlockPrompt }) => ({ id, locked, brand, unlockPrompt }));
}

/** Scrolls through the whole list (its end text shown) and says how many cards are clear and how many locked. */
export async function clearAndLocked(page: Page, total: number): Promise<{ clear: number; locked: number }> {
  const cards = await collectCards(page, total);
  await page.locator('[data-testid="list-end"]').waitFor({ state: 'attached' });
  return { clear: cards.filter((card) => !card.locked).length, locked: cards.filter((card) => card.locked).length };
}

/**
 * The order in which a viewer without valid access sees a list that is newest
 * first: each page of 60 keeps its ads but puts its clear ones first, then its
 * locked ones, each newest first (docs/decisions/0021).
 */
export function clearFirstPerPage(idsNewestFirst: string[], clear: ReadonlySet<string>, pageSize = 60): string[] {
  const order: string[] = [];
  for (let start = 0; start < idsNewestFirst.length; start += pageSize) {
    const page = idsNewestFirst.slice(start, start + pageSize);
    order.push(...page.filter((id) => clear.has(id)), ...page.filter((id) => !clear.has(id)));
  }
  return order;
}
