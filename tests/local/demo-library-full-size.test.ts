import { describe, expect, it } from 'vitest';
import { DEMO_BRANDS, DEMO_CATEGORIES } from '../../local/seed/demo-catalog.ts';
import { planDemoLibrary } from '../../local/seed/demo-plan.ts';
import { DEFAULT_DEMO_AD_COUNT } from '../../local/seed/seed-demo.ts';

const DAY_MS = 86_400_000;
const NOW = new Date('2026-11-22T09:00:00Z');

/**
 * The full first-start library as the seeder plans it: seed.test checks on a
 * small library that the seeder stores exactly its plan, and
 * demo-near-duplicates.test renders the re-posted creatives. Rendering all 640
 * ads is what `npm start` does on first start, not what the tests repeat.
 */
describe('the demo library at full size', () => {
  const plans = planDemoLibrary(DEFAULT_DEMO_AD_COUNT, NOW);

  it('holds 640 ads from all 50 brands and 12 categories', () => {
    expect(DEFAULT_DEMO_AD_COUNT).toBe(640);
    expect(plans).toHaveLength(640);
    expect(new Set(plans.map((plan) => plan.brand.name)).size).toBe(DEMO_BRANDS.length);
    expect(DEMO_BRANDS).toHaveLength(50);
    expect(new Set(plans.map((plan) => plan.brand.category))).toEqual(new Set(DEMO_CATEGORIES));
    expect(DEMO_CATEGORIES).toHaveLength(12);
  });

  it('puts at least 60 ads on the Black Friday board and 40 in Top Picks, and about 10% free to view', () => {
    expect(plans.filter((plan) => plan.blackFriday).length).toBeGreaterThanOrEqual(60);
    expect(plans.filter((plan) => plan.topPick).length).toBeGreaterThanOrEqual(40);
    const free = plans.filter((plan) => !plan.requiresSubscription).length;
    expect(free).toBeGreaterThanOrEqual(640 * 0.08);
    expect(free).toBeLessThanOrEqual(640 * 0.12);
  });

  it('mixes the four formats and gives most ads a type', () => {
    const sizes = new Map<string, number>();
    for (const plan of plans) sizes.set(`${plan.spec.width}x${plan.spec.height}`, (sizes.get(`${plan.spec.width}x${plan.spec.height}`) ?? 0) + 1);
    // 864 x 1080: the near-duplicate drawn at 80% of its first post's size.
    expect([...sizes.keys()].sort()).toEqual(['1080x1080', '1080x1350', '1080x1920', '1200x628', '864x1080']);
    for (const [size, n] of sizes) expect(n).toBeGreaterThanOrEqual(size === '864x1080' ? 1 : 640 * 0.05);
    const typed = plans.filter((plan) => plan.type !== null).length;
    expect(typed).toBeGreaterThanOrEqual(640 * 0.8);
    expect(typed).toBeLessThan(640);
  });

  it('spreads the ads over about 14 months, newest today, with the Black Friday ads in the November sale periods', () => {
    const times = plans.map((plan) => plan.createdAt.getTime());
    expect(NOW.getTime() - Math.max(...times)).toBeLessThan(DAY_MS);
    const span = (NOW.getTime() - Math.min(...times)) / DAY_MS;
    expect(span).toBeGreaterThan(365);
    expect(span).toBeLessThanOrEqual(430);
    const library = plans.filter((plan) => !plan.blackFriday).map((plan) => plan.createdAt.getTime());
    expect(NOW.getTime() - Math.max(...library)).toBeLessThan(DAY_MS);
    const offSeason = plans.filter((plan) => {
      const at = plan.createdAt;
      return plan.blackFriday && !(at.getUTCMonth() === 10 || (at.getUTCMonth() === 11 && at.getUTCDate() <= 3));
    });
    expect(offSeason).toEqual([]);
    const months = new Set(plans.map((plan) => plan.createdAt.toISOString().slice(0, 7)));
    expect(months.size).toBeGreaterThanOrEqual(13);
  });

  it('tags every ad with one to three ordinary tags', () => {
    const counts = plans.map((plan) => new Set(plan.tags).size);
    expect(Math.min(...counts)).toBe(1);
    expect(Math.max(...counts)).toBe(3);
  });

  it('makes a video of one ad in 20, of a type a video can have and not on the Black Friday board: 32 videos beside the 640 ads’ images', () => {
    const videos = plans.filter((plan) => plan.video).length;
    expect(videos).toBe(32);
    expect(plans.filter((plan) => plan.video && (plan.blackFriday || plan.spec.look === 'carousel' || plan.type === null || plan.type === 'Static'))).toEqual([]);
    // seed.test checks on its library that the files stored are exactly four an ad, its videos, the logos and banners.
  });

  it('holds the three planned near-duplicate pairs, each a brand’s two ads with one headline', () => {
    const copies = plans.filter((plan) => plan.nearDuplicateOf);
    expect(copies.map((copy) => copy.brand.name).sort()).toEqual(['Aurelle', 'Curlhaus', 'Hollow Pine']);
    for (const copy of copies) {
      const source = plans[copy.nearDuplicateOf!.index]!;
      expect(source.brand.name).toBe(copy.brand.name);
      expect(source.facts.headline).toBe(copy.facts.headline);
    }
  });
});
