import { describe, expect, it } from 'vitest';
import { fingerprintWithSharp } from '../../local/media/fingerprint-with-sharp.ts';
import { NEAR_DUPLICATE_CHANGES, planDemoLibrary } from '../../local/seed/demo-plan.ts';
import { renderCreativeSvg } from '../../local/seed/render-creative.ts';
import { renderAdImages } from '../../local/seed/seed-demo.ts';
import { hashDistance, NEAR_DUPLICATE_BITS } from '../../src/lib/media/visual-fingerprint.ts';

const NOW = new Date('2026-11-22T09:00:00Z');

describe('the demo library’s near-duplicates', () => {
  const plans = planDemoLibrary(640, NOW);
  const copies = plans.filter((plan) => plan.nearDuplicateOf);

  it('are three re-posts of three brands’ earlier creatives: smaller, with another call to action, recompressed', () => {
    expect(copies.map((copy) => copy.nearDuplicateOf!.change)).toEqual([...NEAR_DUPLICATE_CHANGES]);
    expect(copies.map((copy) => copy.brand.name)).toEqual(['Curlhaus', 'Hollow Pine', 'Aurelle']);
    for (const copy of copies) {
      const source = plans[copy.nearDuplicateOf!.index]!;
      expect(source.brand).toBe(copy.brand);
      expect(source.blackFriday || copy.blackFriday).toBe(false);
      expect(copy.type).toBe(source.type);
      expect(copy.facts.headline).toBe(source.facts.headline);
    }
    const [smaller, otherAction] = copies;
    const sourceOf = (copy: (typeof copies)[number]) => plans[copy.nearDuplicateOf!.index]!;
    expect([smaller!.spec.width, smaller!.spec.height]).toEqual([sourceOf(smaller!).spec.width * 0.8, sourceOf(smaller!).spec.height * 0.8]);
    expect(otherAction!.spec.cta).not.toBe(sourceOf(otherAction!).spec.cta);
    expect(planDemoLibrary(50, NOW).some((plan) => plan.nearDuplicateOf)).toBe(false);
  });

  it('each render within the near-duplicate distance of the creative it copies', async () => {
    const hashOf = async (plan: (typeof copies)[number], quality?: number) =>
      (await fingerprintWithSharp((await renderAdImages(renderCreativeSvg(plan.spec, plan.renderRandom.fork('creative')), quality)).original)).hash;
    for (const copy of copies) {
      const distance = hashDistance(await hashOf(copy, copy.nearDuplicateOf!.change === 'recompressed' ? 60 : undefined), await hashOf(plans[copy.nearDuplicateOf!.index]!));
      expect(distance, copy.nearDuplicateOf!.change).toBeLessThanOrEqual(NEAR_DUPLICATE_BITS);
    }
  });
});
