import { describe, expect, it } from 'vitest';
import { DEMO_HOOKS } from '../../local/seed/demo-catalog.ts';
import { DEMO_RUNNING_DAYS, planDemoLibrary } from '../../local/seed/demo-plan.ts';
import { adFactFields, adFactsChangeSchema } from '../../src/lib/ad-facts.ts';

const NOW = new Date('2026-11-22T09:00:00Z');
const DAY_MS = 86_400_000;
const runningDays = (facts: { first_seen: string; last_seen: string }) =>
  Math.round((Date.parse(facts.last_seen) - Date.parse(facts.first_seen)) / DAY_MS) + 1;

describe('the demo library’s facts', () => {
  const plans = planDemoLibrary(640, NOW);

  it('gives every ad facts the admin’s own schema accepts', () => {
    for (const { facts } of plans) {
      const { hook, ...columns } = facts;
      expect(DEMO_HOOKS).toContain(hook);
      const result = adFactsChangeSchema.safeParse({ ...columns, hook_id: '00000000-0000-4000-8000-000000000000' });
      expect(result.success, JSON.stringify(result.error?.issues)).toBe(true);
      expect(adFactFields.platforms.safeParse(columns.platforms).success).toBe(true);
    }
  });

  it('runs every ad 3 to 400 days up to the day of seeding, some still running, short and long runs both present', () => {
    const today = NOW.toISOString().slice(0, 10);
    const days = plans.map(({ facts }) => runningDays(facts));
    expect(Math.min(...days)).toBeGreaterThanOrEqual(DEMO_RUNNING_DAYS.min);
    expect(Math.max(...days)).toBeLessThanOrEqual(DEMO_RUNNING_DAYS.max);
    expect(days.filter((d) => d < 14).length).toBeGreaterThan(20);
    expect(days.filter((d) => d > 180).length).toBeGreaterThan(20);
    const running = plans.filter(({ facts }) => facts.still_running);
    expect(running.length).toBeGreaterThan(100);
    expect(running.length).toBeLessThan(400);
    for (const { facts } of running) expect(facts.last_seen).toBe(today);
    for (const { facts } of plans) expect(facts.last_seen <= today).toBe(true);
  });

  it('sends every ad to a page on its brand’s own domain and uses every hook, CTA family and offer', () => {
    for (const { brand, facts } of plans) {
      expect(new URL(facts.landing_url).hostname).toBe(`${brand.name.toLowerCase().replace(/[^a-z0-9]/g, '')}.com`);
    }
    expect(new Set(plans.map(({ facts }) => facts.hook))).toEqual(new Set(DEMO_HOOKS));
    expect(new Set(plans.map(({ facts }) => facts.offer))).toEqual(new Set(['discount', 'free_shipping', 'bundle', 'none']));
    expect(new Set(plans.map(({ facts }) => facts.call_to_action)).size).toBeGreaterThanOrEqual(4);
    expect(new Set(plans.flatMap(({ facts }) => facts.platforms)).size).toBe(7);
  });

  it('is the same library on every run', () => {
    expect(planDemoLibrary(640, NOW).map((plan) => plan.facts)).toEqual(plans.map((plan) => plan.facts));
  });
});
