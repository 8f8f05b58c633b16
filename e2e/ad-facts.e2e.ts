import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { DEMO_HOOKS } from '../local/seed/demo-catalog.ts';
import { planDemoLibrary, type DemoAdFacts } from '../local/seed/demo-plan.ts';
import { CARDS, waitForItemCount } from './support/ad-grid.ts';
import { seriousAxeViolations } from './support/axe.ts';
import { journeyWithLibrary } from './support/journey.ts';
import { provisionAccount, signIn } from './support/signed-in.ts';

const SUBSCRIBER = { email: 'facts-subscriber@obyect.e2e', password: 'e2e-subscriber-password' };
const DAY_MS = 86_400_000;

/** The demo library's facts (as the seeder plans them) on the stack's demo ads: one still running, one that ended. */
const journey = journeyWithLibrary(async (stack) => {
  await provisionAccount(stack, 'subscriber', SUBSCRIBER.email, SUBSCRIBER.password);
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
    expect(await endedFacts.getByText(/^Seen \d+ \w+ \d{4} – \d+ \w+ \d{4}$/).isVisible()).toBe(true);
    expect(await endedFacts.locator('dt', { hasText: 'Offer' }).count()).toBe(1);
    await expectNoSidewaysScroll(page, width);
    expect(await seriousAxeViolations(page)).toEqual([]);
    if (process.env.AD_FACTS_SCREENSHOTS) {
      await endedFacts.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${process.env.AD_FACTS_SCREENSHOTS}/ended-${width}.png` });
    }
  });
}
