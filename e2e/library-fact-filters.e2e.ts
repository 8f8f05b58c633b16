import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { CARDS, clearFirstPerPage, collectCards, waitForItemCount } from './support/ad-grid.ts';
import { seriousAxeViolations } from './support/axe.ts';
import { insertDemoAds } from './support/demo-ads.ts';
import { openFilterPanel } from './support/filter-panel.ts';
import { newJourneyContext } from './support/chromium.ts';
import { journeyWithLibrary } from './support/journey.ts';
import { provisionAccount, signIn } from './support/signed-in.ts';

const POLL = { timeout: 15_000, interval: 200 };
const SUBSCRIBER = { email: 'fact-filters@obyect.e2e', password: 'e2e-subscriber-password' };
const FREE = { email: 'fact-filters-free@obyect.e2e', password: 'e2e-free-password' };
/** The word put in one ad's image text when the library has no image text of its own to search. */
const IMAGE_ONLY_WORD = 'Zephyrine';

/** Running days as decision 0031 counts them: UTC, both ends included, to today while still running. */
const RUNNING_DAYS_SQL = `(case when a.still_running then greatest(current_date, coalesce(a.last_seen, a.first_seen)) else a.last_seen end) - a.first_seen + 1`;

/**
 * The stack's six demo ads and 30 more, each given platforms and a run (some
 * on TikTok, some still running, from a few days to about two hundred), and a
 * word that only one ad's image text holds.
 */
const journey = journeyWithLibrary(async (stack) => {
  const lumen = await insertDemoAds(stack, 30, { brandPrefix: 'Lumen', minutesAgo: 10, width: 480 });
  const clearcove = await insertDemoAds(stack, 8, { brandPrefix: 'Clearcove', minutesAgo: 20, width: 480 });
  await provisionAccount(stack, 'subscriber', SUBSCRIBER.email, SUBSCRIBER.password);
  await provisionAccount(stack, 'free', FREE.email, FREE.password);
  // Every third ad is in German for Germany, the others in English for the US.
  await stack.db.query(
    `with numbered as (select id, row_number() over (order by created_at desc, id desc)::int as n from public.ads)
     update public.ads a set language = case when n % 3 = 0 then 'de' else 'en' end, country = case when n % 3 = 0 then 'DE' else 'US' end
       from numbered where numbered.id = a.id`,
  );
  await stack.db.query(
    `with numbered as (select id, row_number() over (order by created_at desc, id desc)::int as n from public.ads where not is_black_friday)
     update public.ads a
        set platforms = case n % 3 when 0 then array['tiktok'] when 1 then array['meta', 'instagram'] else array['tiktok', 'youtube'] end,
            first_seen = current_date - ((n * 37) % 220),
            still_running = n % 2 = 0,
            last_seen = case when n % 2 = 0 then null else least(current_date, current_date - ((n * 37) % 220) + ((n * 53) % 180)) end
       from numbered where numbered.id = a.id`,
  );

  // A word of an ad's image text that nothing else of that ad (nor any other ad) says, when the library has one.
  const found = await stack.db.query<{ id: string; word: string }>(
    `select a.id, w.word
       from public.ads a
      cross join lateral regexp_split_to_table(a.image_text, '[^[:alpha:]]+') as w(word)
      where a.image_text is not null and not a.is_black_friday and char_length(w.word) >= 6
        and position(lower(w.word) in lower(concat_ws(' ', a.headline, a.primary_text, a.landing_url, a.card::text))) = 0
        and not exists (select 1 from public.ads o where o.id <> a.id and position(lower(w.word) in lower(coalesce(o.search_text, ''))) > 0)
      limit 1`,
  );
  let imageAd = found.rows[0];
  if (!imageAd) {
    const { rows } = await stack.db.query<{ id: string }>(
      `update public.ads set image_text = $1
        where id = (select id from public.ads where not is_black_friday order by created_at desc, id desc offset 4 limit 1)
        returning id`,
      [`NEW ${IMAGE_ONLY_WORD.toUpperCase()} SERUM\nLimited drop: ${IMAGE_ONLY_WORD} glow, 20% off`],
    );
    imageAd = { id: rows[0]!.id, word: IMAGE_ONLY_WORD };
  }

  const { rows: expected } = await stack.db.query<{ id: string; days: number }>(
    `select a.id, ${RUNNING_DAYS_SQL} as days from public.ads a
      where not a.is_black_friday and 'tiktok' = any (a.platforms) and ${RUNNING_DAYS_SQL} >= 60
      order by days desc, a.id`,
  );
  // The library's ads, newest first, with their brand, language and whether they are in the free sample.
  const { rows: libraryAds } = await stack.db.query<{ id: string; brand: string; language: string; sample: boolean }>(
    `select a.id, b.name as brand, a.language, a.free_sample as sample from public.ads a join public.brands b on b.id = a.brand_id
      where not a.is_black_friday order by a.created_at desc, a.id desc`,
  );
  return { tiktokLongRuns: expected, imageAd, brands: [lumen.brandName, clearcove.brandName] as const, libraryAds };
});

interface CardFacts {
  id: string;
  days: number | null;
  platforms: string[];
}

/**
 * Every card of the grid in the list's order, with its running days and
 * platform icons: the grid keeps only the cards near the viewport, in the
 * list's order, so the page is scrolled and each new card placed after the
 * one before it.
 */
async function cardsInOrder(page: Page, total: number): Promise<CardFacts[]> {
  const order: CardFacts[] = [];
  await page.evaluate(() => window.scrollTo(0, 0));
  for (let step = 0; step < 100 && order.length < total; step += 1) {
    const seen = await page.locator(CARDS).evaluateAll((cards) =>
      cards.map((card) => {
        const facts = card.querySelector('[data-testid="ad-card-facts"]');
        const days = facts?.textContent?.match(/Running ([\d,]+) days?/)?.[1];
        return {
          id: (card as HTMLElement).dataset.adId!,
          days: days ? Number(days.replace(/,/g, '')) : null,
          platforms: [...(facts?.querySelectorAll('ul[aria-label="Platforms"] [aria-label]') ?? [])].map((icon) => icon.getAttribute('aria-label')!),
        };
      }),
    );
    let after = -1;
    for (const card of seen) {
      const at = order.findIndex((known) => known.id === card.id);
      if (at >= 0) after = at;
      else order.splice(++after, 0, card);
    }
    await page.evaluate(() => window.scrollBy(0, Math.round(window.innerHeight * 0.6)));
    await page.waitForTimeout(80);
  }
  return order;
}

async function expectTikTokLongRunsByLength(page: Page, expected: { id: string; days: number }[]): Promise<CardFacts[]> {
  const url = new URL(page.url());
  expect(url.searchParams.getAll('platform')).toEqual(['tiktok']);
  expect(url.searchParams.get('days')).toBe('60');
  expect(url.searchParams.get('sort')).toBe('longest');
  await waitForItemCount(page, expected.length);
  const cards = await cardsInOrder(page, expected.length);
  expect(cards.map((card) => card.id).sort()).toEqual(expected.map((ad) => ad.id).sort());
  for (const card of cards) {
    expect(card.platforms).toContain('TikTok');
    expect(card.days).toBeGreaterThanOrEqual(60);
  }
  const days = cards.map((card) => card.days!);
  expect(days).toEqual([...days].sort((a, b) => b - a));
  expect(days).toEqual(expected.map((ad) => ad.days));
  return cards;
}

const shots = process.env.FILTERS_SCREENSHOTS;

journey('a subscriber keeps the TikTok ads running at least 60 days, longest first, at 1440 px; a reload keeps them, the arrows walk them and Back returns to them', async ({ page, stack, library }) => {
  expect(library.tiktokLongRuns.length).toBeGreaterThan(3);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, stack, SUBSCRIBER);
  await page.goto('/library');
  await page.locator(CARDS).first().waitFor();

  const panel = await openFilterPanel(page);
  await panel.getByRole('combobox', { name: 'Running at least' }).selectOption('60');
  await panel.getByRole('group', { name: 'Platform' }).getByRole('button', { name: 'TikTok' }).click();
  await panel.getByRole('button', { name: 'Show ads' }).click();
  await panel.waitFor({ state: 'detached' });
  await page.getByRole('combobox', { name: 'Sort' }).selectOption('longest_running');
  await expect.poll(() => new URL(page.url()).search, POLL).toBe('?platform=tiktok&days=60&sort=longest');
  expect(await page.getByRole('list', { name: 'Active filters' }).getByRole('button').allTextContents()).toEqual([
    'Platform: TikTok',
    'Running at least 60 days',
    'Clear all',
  ]);
  await expectTikTokLongRunsByLength(page, library.tiktokLongRuns);
  if (shots) {
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${shots}/toolbar-1440.png` });
  }
  expect(await seriousAxeViolations(page)).toEqual([]);

  await page.reload();
  await page.locator(CARDS).first().waitFor();
  expect(await page.getByRole('combobox', { name: 'Sort' }).inputValue()).toBe('longest_running');
  expect(await (await openFilterPanel(page)).getByRole('combobox', { name: 'Running at least' }).inputValue()).toBe('60');
  await page.keyboard.press('Escape');
  const cards = await expectTikTokLongRunsByLength(page, library.tiktokLongRuns);

  // The detail's arrows walk the filtered list in its order; Back returns to it, filters kept.
  const [first, second] = cards;
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.locator(`${CARDS}[data-ad-id="${first!.id}"] a`).first().click();
  await page.locator('[data-testid="ad-detail"] button[aria-label="Next ad"]:not([disabled])').waitFor({ state: 'visible' });
  await expect.poll(() => new URL(page.url()).pathname, POLL).toBe(`/ads/${first!.id}`);
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => new URL(page.url()).pathname, POLL).toBe(`/ads/${second!.id}`);
  await page.goBack();
  await page.locator('[data-testid="ad-detail"]').waitFor({ state: 'detached' });
  expect(new URL(page.url()).search).toBe('?platform=tiktok&days=60&sort=longest');
  await waitForItemCount(page, library.tiktokLongRuns.length);
});

journey('a subscriber sets the same filters in the phone sheet at 390 px', async ({ page, stack, library }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, stack, SUBSCRIBER);
  await page.goto('/library');
  await page.locator(CARDS).first().waitFor();

  await page.getByRole('button', { name: 'Filters', exact: true }).click();
  const sheet = page.getByRole('dialog', { name: 'Filters' });
  await sheet.getByRole('combobox', { name: 'Sort' }).selectOption('longest_running');
  await sheet.getByRole('combobox', { name: 'Running at least' }).selectOption('60');
  await sheet.getByRole('button', { name: 'TikTok' }).click();
  await expect.poll(() => new URL(page.url()).search, POLL).toBe('?platform=tiktok&days=60&sort=longest');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  if (shots) await page.screenshot({ path: `${shots}/sheet-390.png` });
  await sheet.getByRole('button', { name: 'Show ads' }).click();
  await sheet.waitFor({ state: 'detached' });
  expect(await page.getByRole('button', { name: 'Filters, 2 active' }).isVisible()).toBe(true);
  if (shots) await page.screenshot({ path: `${shots}/toolbar-390.png` });
  await expectTikTokLongRunsByLength(page, library.tiktokLongRuns);
});

for (const width of [1440, 390]) {
  journey(`a subscriber finds an ad by a word only its image shows and sees it marked, at ${width} px`, async ({ page, stack, library }) => {
    const { id, word } = library.imageAd;
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await signIn(page, stack, SUBSCRIBER);
    await page.goto('/library');
    await page.locator(CARDS).first().waitFor();

    // A part of the word, in lower case: the search takes the start of a word.
    const typed = word.slice(0, -2).toLowerCase();
    await page.getByRole('searchbox').fill(typed);
    await expect.poll(() => new URL(page.url()).searchParams.get('q'), POLL).toBe(typed);
    await waitForItemCount(page, 1);
    await page.locator(`${CARDS}[data-ad-id="${id}"] a`).first().click();

    const imageText = page.locator('[data-testid="ad-detail"] [data-testid="ad-image-text"]');
    await imageText.waitFor({ state: 'visible' });
    const marks = await imageText.locator('mark').allTextContents();
    expect(marks.length).toBeGreaterThan(0);
    for (const mark of marks) expect(mark.toLowerCase()).toBe(typed);
    // Nothing else of the ad says the word: no mark outside the image text.
    expect(await page.locator('[data-testid="ad-detail"] section[aria-label="Ad facts"] mark').count()).toBe(marks.length);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    if (shots) {
      await imageText.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${shots}/detail-highlight-${width}.png` });
    }
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
}

/** The total above the grid once it says something. */
async function totalText(page: Page): Promise<string> {
  const total = page.getByTestId('library-total');
  await expect.poll(() => total.textContent(), POLL).toMatch(/\d/);
  return (await total.textContent()) ?? '';
}

journey('a subscriber picks two brands and a language: the total follows each choice, the URL holds them and a reload keeps them; a free account sees the same total and the sample clear first', async ({ page, stack, chromium, library }) => {
  const [lumen, clearcove] = library.brands;
  const twoBrands = library.libraryAds.filter((ad) => ad.brand === lumen || ad.brand === clearcove);
  const twoBrandsInGerman = twoBrands.filter((ad) => ad.language === 'de');
  expect(library.libraryAds.length).toBeGreaterThan(twoBrands.length);
  expect(twoBrands.length).toBeGreaterThan(twoBrandsInGerman.length);
  expect(twoBrandsInGerman.length).toBeGreaterThan(1);

  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, stack, SUBSCRIBER);
  await page.goto('/library');
  await page.locator(CARDS).first().waitFor();
  expect(await totalText(page)).toBe(`${library.libraryAds.length} ads`);

  await page.getByRole('button', { name: /^Brand:/ }).click();
  await page.getByRole('menuitemcheckbox', { name: lumen }).click();
  await page.getByRole('menuitemcheckbox', { name: clearcove }).click();
  await page.keyboard.press('Escape');
  await expect.poll(() => new URL(page.url()).searchParams.get('brand')?.split(',').sort(), POLL).toEqual([clearcove, lumen].sort());
  await expect.poll(() => page.getByTestId('library-total').textContent(), POLL).toBe(`${twoBrands.length} ads`);
  await waitForItemCount(page, twoBrands.length);

  await (await openFilterPanel(page)).getByRole('combobox', { name: 'Language' }).selectOption('de');
  await page.keyboard.press('Escape');
  await expect.poll(() => new URL(page.url()).searchParams.get('language'), POLL).toBe('de');
  await expect.poll(() => page.getByTestId('library-total').textContent(), POLL).toBe(`${twoBrandsInGerman.length} ads`);
  await waitForItemCount(page, twoBrandsInGerman.length);
  const url = new URL(page.url());
  expect(url.search).toMatch(/^\?brand=[^&]+&language=de$/);
  if (shots) await page.screenshot({ path: `${shots}/two-brands-language-1440.png` });
  expect(await seriousAxeViolations(page)).toEqual([]);

  await page.reload();
  await page.locator(CARDS).first().waitFor();
  expect(new URL(page.url()).search).toBe(url.search);
  expect(await totalText(page)).toBe(`${twoBrandsInGerman.length} ads`);
  expect(await (await openFilterPanel(page)).getByRole('combobox', { name: 'Language' }).inputValue()).toBe('de');
  await page.keyboard.press('Escape');
  const subscriberCards = await collectCards(page, twoBrandsInGerman.length);
  expect(subscriberCards.map((card) => card.id)).toEqual(twoBrandsInGerman.map((ad) => ad.id));
  expect(subscriberCards.every((card) => !card.locked)).toBe(true);

  // A free account at the same address: the same total, the free sample clear and leading, the rest locked.
  const context = await newJourneyContext(chromium, stack.url, { viewport: { width: 1440, height: 900 } });
  try {
    const free = await context.newPage();
    await signIn(free, stack, FREE);
    await free.goto(`/library${url.search}`);
    await free.locator(CARDS).first().waitFor();
    expect(await totalText(free)).toBe(`${twoBrandsInGerman.length} ads`);
    const sample = new Set(twoBrandsInGerman.filter((ad) => ad.sample).map((ad) => ad.id));
    const freeCards = await collectCards(free, twoBrandsInGerman.length);
    expect(freeCards.map((card) => card.id)).toEqual(clearFirstPerPage(twoBrandsInGerman.map((ad) => ad.id), sample));
    expect(new Set(freeCards.filter((card) => !card.locked).map((card) => card.id))).toEqual(sample);
  } finally {
    await context.close();
  }
});
