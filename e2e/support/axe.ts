import path from 'node:path';
import type { Page } from 'playwright-core';
import { projectRoot } from '../../local/stack.ts';

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[] }>;
}

/**
 * Runs axe-core (from node_modules, injected into the page) and returns the
 * serious and critical violations, one line each, for an assertion message.
 */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  // Mid-animation (a dialog fading in) colours are not the page's: measure once everything has settled.
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'));
  const loaded = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe !== 'undefined');
  if (!loaded) await page.addScriptTag({ path: path.join(projectRoot, 'node_modules/axe-core/axe.min.js') });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: violation.nodes.slice(0, 3).map((node) => ({ target: node.target })),
    }));
  });
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.impact} ${violation.id}: ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}
