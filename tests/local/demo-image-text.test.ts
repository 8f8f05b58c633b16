import { describe, expect, it } from 'vitest';
import { planDemoLibrary } from '../../local/seed/demo-plan.ts';
import { drawnText, renderCreativeSvg } from '../../local/seed/render-creative.ts';

const NOW = new Date('2026-11-22T09:00:00Z');
/** The words of a text as drawnText keeps them: a lone mark such as "&" is not a word. */
const words = (text: string) => text.split(' ').filter((word) => /[\p{L}\p{N}]/u.test(word));

describe('the demo ads’ image text', () => {
  const plans = planDemoLibrary(120, NOW);
  const rendered = plans.map((plan) => ({ plan, svg: renderCreativeSvg(plan.spec, plan.renderRandom.fork('creative')) }));

  it('is the words each creative draws, as drawn: the wordmark and the button among them, no decoration marks', () => {
    for (const { plan, svg } of rendered) {
      const text = drawnText(svg);
      expect(text.length).toBeGreaterThan(0);
      expect(text.length).toBeLessThanOrEqual(5000);
      expect(text).toBe(text.replace(/\s+/g, ' ').trim());
      expect(text).not.toMatch(/[★✦→]/u);
      // The call to action is drawn on a button in every look but some carousel cards (which say "Swipe").
      if (plan.spec.look !== 'carousel') for (const word of words(plan.spec.cta)) expect(text, `${plan.spec.look}: ${plan.spec.cta}`).toContain(word);
      // The wordmark, upper- or lower-cased as the brand's type draws it.
      expect(text.toLowerCase()).toContain(plan.brand.name.toLowerCase().split(' ')[0]!);
    }
  });

  it('follows the drawing: the headline is upper-cased where the brand draws it so, and every look is covered', () => {
    const looks = new Set(rendered.map(({ plan }) => plan.spec.look));
    expect(looks.size).toBeGreaterThanOrEqual(6);
    const condensed = rendered.find(({ plan }) => plan.brand.typography === 'condensed' && plan.spec.look === 'hero');
    if (condensed) expect(drawnText(condensed.svg)).toContain(words(condensed.plan.spec.headline.toUpperCase())[0]!);
    // Escaped characters come back as drawn.
    expect(drawnText('<svg><text x="1">Tom&#39;s R&amp;D &amp; Co</text><text opacity="0.35" transform="translate(2 2)" x="1">shadow</text><text>★★★★★</text></svg>')).toBe("Tom's R&D Co");
  });
});
