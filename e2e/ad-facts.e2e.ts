import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { DEMO_BRANDS, DEMO_CATEGORIES, DEMO_HOOKS } from '../local/seed/demo-catalog.ts';
import { planDemoLibrary, type DemoAdFacts } from '../local/seed/demo-plan.ts';
import { CARDS, waitForItemCount } from './support/ad-grid.ts';
import { seriousAxeViolations } from './support/axe.ts';
import { insertDemoAds } from './support/demo-ads.ts';
import { journeyWithLibrary } from './support/journey.ts';
import { provisionAccount, signIn } from './support/signed-in.ts';

const SUBSCRIBER = { email: 'facts-subscriber@obyect.e2e', password: 'e2e-subscriber-password' };
const FREE = { email: 'facts-free@obyect.e2e', password: 'e2e-free-password' };
const DAY_MS = 86_400_000;
const longest = (names: readonly string[]) => names.reduce((a, b) => (b.length > a.length ? b : a));
/** The demo library's longest brand and category names: the ad page's header must show them whole at 390 px. */
const LONG_BRAND = longest(DEMO_BRANDS.map((brand) => brand.name));
const LONG_CATEGORY = longest(DEMO_CATEGORIES);

/** The demo library's facts (as the seeder plans them) on the stack's demo ads: one still running, one that ended. */
const journey = journeyWithLibrary(async (stack) => {
  await provisionAccount(stack, 'subscriber', SUBSCRIBER.email, SUBSCRIBER.password);
  await provisionAccount(stack, 'free', FREE.email, FREE.password);
  // Older than the stack's ads, so that the library scrolls past several rows of cards at 1440 px.
  await insertDemoAds(stack, 30, { brandPrefix: 'Lumen', minutesAgo: 10, width: 480 });
  await stack.db.query('insert into public.hooks (name) select unnest($1::text[]) on conflict do nothing', [[...DEMO_HOOKS]]);
  const plans = planDemoLibrary(640, new Date());
  const running = plans.find((plan) => plan.facts.still_running && plan.facts.platforms.length > 1)!.facts;
  const ended = plans.find((plan) => !plan.facts.still_running && plan.facts.offer !== 'none')!.facts;
  const { rows } = await stack.db.query<{ id: string }>('select id from public.ads order by created_at desc, id desc limit 2');
  for (const [ad, { hook, ...facts }] of [[rows[0]!, running], [rows[1]!, ended]] as const) {
    await stack.db.query(
      `update public.ads a set platforms = f.platforms, placement = f.placement, format = f.format, first_seen = f.first_seen,
              last_seen = f.last_seen, still_running = f.still_running, landing_url = f.landing_url, primary_text = f.primary_text,
              headline = f.headline, call_to_action = f.call_to_action, offer = f.offer, language = f.language, country = f.country,
              hook_id = (select h.id from public.hooks h where h.name = $3)
         from jsonb_populate_record(null::public.ads, $2::jsonb) f where a.id = $1`,
      [ad.id, JSON.stringify(facts), hook],
    );
  }
  await stack.db.query('update public.brands set name = $2 where id = (select brand_id from public.ads where id = $1)', [rows[0]!.id, LONG_BRAND]);
  await stack.db.query('update public.categories set name = $2 where id = (select category_id from public.ads where id = $1)', [rows[0]!.id, LONG_CATEGORY]);
  const { rows: all } = await stack.db.query<{ n: number }>('select count(*)::int as n from public.ads where not is_black_friday');
  return { total: all[0]!.n, running: { id: rows[0]!.id, facts: running }, ended: { id: rows[1]!.id, facts: ended } };
});

const runningDays = (facts: DemoAdFacts) =>
  Math.round(((facts.still_running ? Date.parse(new Date().toISOString().slice(0, 10)) : Date.parse(facts.last_seen)) - Date.parse(facts.first_seen)) / DAY_MS) + 1;

async function openAd(page: Page, id: string) {
  await page.locator(`${CARDS}[data-ad-id="${id}"] a`).first().click();
  const facts = page.locator('[data-testid="ad-detail"] section[aria-label="Ad facts"]');
  await facts.waitFor({ state: 'visible' });
  return facts;
}

async function expectNoSidewaysScroll(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  const box = await page.locator('[data-testid="ad-detail"] section[aria-label="Ad facts"]').boundingBox();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(width);
}

for (const width of [390, 1440]) {
  journey(`a subscriber opens demo ads and reads their facts at ${width} px`, async ({ page, stack, library }) => {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await signIn(page, stack, SUBSCRIBER);
    await page.goto('/library');
    await waitForItemCount(page, library.total);

    const { facts: running } = library.running;
    const facts = await openAd(page, library.running.id);
    expect(await facts.getByTestId('ad-running-days').textContent()).toBe(`Running ${runningDays(running)} days`);
    expect(await facts.getByText('Still running').isVisible()).toBe(true);
    expect(await facts.locator('p', { hasText: running.headline }).first().isVisible()).toBe(true);
    expect(await facts.getByRole('list', { name: 'Platforms' }).getByRole('listitem').count()).toBe(running.platforms.length);
    const host = new URL(running.landing_url).hostname;
    const landing = facts.getByRole('link', { name: `Open the landing page at ${host} (new tab)` });
    expect(await landing.getAttribute('href')).toBe(running.landing_url);
    expect(await landing.getAttribute('rel')).toBe('noopener noreferrer');
    expect(await landing.getAttribute('target')).toBe('_blank');
    expect(await facts.locator('dt', { hasText: 'Hook' }).count()).toBe(1);
    await expectNoSidewaysScroll(page, width);
    if (process.env.AD_FACTS_SCREENSHOTS) {
      await facts.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${process.env.AD_FACTS_SCREENSHOTS}/running-${width}.png` });
    }

    await page.getByRole('button', { name: 'Close' }).click();
    await page.locator('[data-testid="ad-detail"]').waitFor({ state: 'detached' });
    const { facts: ended } = library.ended;
    const endedFacts = await openAd(page, library.ended.id);
    expect(await endedFacts.getByTestId('ad-running-days').textContent()).toBe(`Running ${runningDays(ended)} ${runningDays(ended) === 1 ? 'day' : 'days'}`);
    expect(await endedFacts.getByText('Still running').count()).toBe(0);
    // The journey's browser is en-US: 'Seen Nov 2, 2026 – Nov 9, 2026'.
    expect(await endedFacts.getByText(/^Seen [A-Z][a-z]{2} \d{1,2}, \d{4} – [A-Z][a-z]{2} \d{1,2}, \d{4}$/).isVisible()).toBe(true);
    expect(await endedFacts.locator('dt', { hasText: 'Offer' }).count()).toBe(1);
    await expectNoSidewaysScroll(page, width);
    expect(await seriousAxeViolations(page)).toEqual([]);
    if (process.env.AD_FACTS_SCREENSHOTS) {
      await endedFacts.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${process.env.AD_FACTS_SCREENSHOTS}/ended-${width}.png` });
    }
  });
}

type Box = { left: number; top: number; right: number; bottom: number };

/**
 * The arrows' boxes and the boxes of the facts' text where it shows: each line's box cut to the scrolling page's
 * visible box (a line scrolled under the header or the bar is not on screen).
 */
const arrowsAndFactText = (page: Page) =>
  page.evaluate(() => {
    const detail = document.querySelector('[data-testid="ad-detail"]')!;
    const view = detail.querySelector('main')!.getBoundingClientRect();
    const box = (rect: DOMRect) => ({ left: rect.left, top: rect.top, right: rect.right, bottom: rect.bottom });
    const arrows = [...detail.querySelectorAll('button[aria-label="Previous ad"], button[aria-label="Next ad"]')].map((arrow) => box(arrow.getBoundingClientRect()));
    const lines: Box[] = [];
    const walker = document.createTreeWalker(detail.querySelector('section[aria-label="Ad facts"]')!, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.textContent?.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const rect of range.getClientRects()) {
        const shown = { left: rect.left, right: rect.right, top: Math.max(rect.top, view.top), bottom: Math.min(rect.bottom, view.bottom) };
        if (shown.bottom > shown.top) lines.push(shown);
      }
    }
    return { arrows, lines };
  });

const overlapArea = (a: Box, b: Box) => Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) * Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));

journey('at 390 px a subscriber reads the whole brand and category over the ad, and the arrows cover no fact at any scroll position', async ({ page, stack, library }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, stack, SUBSCRIBER);
  await page.goto('/library');
  await waitForItemCount(page, library.total);
  await openAd(page, library.running.id);
  const header = page.locator('[data-testid="ad-detail"] header');
  for (const [text, link] of [
    [LONG_BRAND, header.locator('a[href^="/library?brand="]')],
    [LONG_CATEGORY, header.locator('a[href^="/library?category="]')],
  ] as const) {
    expect(await link.textContent()).toBe(text);
    const { scrollWidth, clientWidth } = await link.evaluate((element) => ({ scrollWidth: element.scrollWidth, clientWidth: element.clientWidth }));
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
  }

  const main = page.locator('[data-testid="ad-detail"] main');
  const end = await main.evaluate((element) => element.scrollHeight - element.clientHeight);
  let stepsWithFacts = 0;
  for (let top = 0; top <= end + 120; top += 120) {
    await main.evaluate((element, to) => (element.scrollTop = to), Math.min(top, end));
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const { arrows, lines } = await arrowsAndFactText(page);
    expect(arrows).toHaveLength(2);
    for (const arrow of arrows) expect(arrow.bottom).toBeLessThanOrEqual(844);
    if (lines.length > 0) stepsWithFacts += 1;
    const covered = lines.filter((line) => arrows.some((arrow) => overlapArea(arrow, line) > 0));
    expect(covered, `facts text under an arrow at scrollTop ${Math.min(top, end)}`).toEqual([]);
  }
  expect(stepsWithFacts).toBeGreaterThan(2);
  if (process.env.AD_FACTS_SCREENSHOTS) await page.screenshot({ path: `${process.env.AD_FACTS_SCREENSHOTS}/adpage-running-390-end.png` });
});

/**
 * Where the 'Request a feature' button meets a card's header or footer: only where cards show, between the sticky
 * header and toolbar and the bottom bar (a card behind those is covered by them, not by the button).
 */
const feedbackOverCards = (page: Page) =>
  page.evaluate(() => {
    const button = document.querySelector('a[data-placement]');
    if (!button) return null;
    const b = button.getBoundingClientRect();
    const sticky = [...document.querySelectorAll('header, main > div')].filter((element) => getComputedStyle(element).position === 'sticky' && !element.contains(button));
    const top = Math.max(0, ...sticky.map((element) => element.getBoundingClientRect().bottom));
    const bar = document.querySelector('[role="region"][aria-label="Need more inspiration?"]');
    const bottom = bar ? bar.getBoundingClientRect().top : window.innerHeight;
    const parts = [...document.querySelectorAll('[data-testid="ad-card"] > header, [data-testid="ad-card"] > :last-child')];
    const covered = parts.flatMap((part) => {
      const r = part.getBoundingClientRect();
      const width = Math.min(r.right, b.right) - Math.max(r.left, b.left);
      const height = Math.min(r.bottom, b.bottom, bottom) - Math.max(r.top, b.top, top);
      return width > 0 && height > 0 ? [`${part.tagName.toLowerCase()} of ${part.closest('[data-ad-id]')?.getAttribute('data-ad-id')}: ${Math.round(width)} x ${Math.round(height)}`] : [];
    });
    const shown = parts.filter((part) => {
      const r = part.getBoundingClientRect();
      return r.bottom > top && r.top < bottom;
    }).length;
    return { placement: (button as HTMLElement).dataset.placement, covered, shown };
  });

for (const viewer of ['anonymous', 'free', 'subscriber'] as const) {
  journey(`the Request a feature button covers no card's header or footer at rest at 390 and 1440 px (${viewer})`, async ({ page, stack, library }) => {
    if (viewer !== 'anonymous') await signIn(page, stack, viewer === 'free' ? FREE : SUBSCRIBER);
    for (const width of [390, 1440]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await page.goto('/library');
      await waitForItemCount(page, library.total);
      const placement = viewer === 'subscriber' ? (width === 390 ? 'header' : 'floating') : 'bar';
      await page.locator(`a[data-placement="${placement}"]`).waitFor();
      const end = await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
      expect(end).toBeGreaterThan(900);
      for (const top of [0, 350, 700, 1300, 2100, end]) {
        await page.evaluate((to) => window.scrollTo(0, to), Math.min(top, end));
        // At rest: the grid has laid out the cards of this position.
        await page.waitForTimeout(300);
        const seen = await feedbackOverCards(page);
        expect(seen?.placement).toBe(placement);
        expect(seen!.shown).toBeGreaterThan(0);
        expect(seen!.covered, `at scrollY ${Math.min(top, end)}, ${width} px`).toEqual([]);
      }
      if (process.env.AD_FACTS_SCREENSHOTS) await page.screenshot({ path: `${process.env.AD_FACTS_SCREENSHOTS}/feedback-${viewer}-${width}-end.png` });
    }
  });
}
