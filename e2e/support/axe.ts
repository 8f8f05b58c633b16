import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { projectRoot } from '../../local/stack.ts';

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[] }>;
}

let axeSource: Promise<string> | null = null;

/**
 * Puts axe-core (from node_modules) into the page, once. Evaluated through the
 * DevTools protocol: the stack's Content-Security-Policy refuses inline scripts,
 * which a script tag added to the page would be.
 */
async function injectAxe(page: Page): Promise<void> {
  const loaded = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe !== 'undefined');
  if (loaded) return;
  axeSource ??= readFile(path.join(projectRoot, 'node_modules/axe-core/axe.min.js'), 'utf8');
  await page.evaluate(`${await axeSource}\n;void 0`);
}

/**
 * Runs axe-core (from node_modules, injected into the page) and returns the
 * serious and critical violations, one line each, for an assertion message.
 */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  // Mid-animation (a dialog fading in) colours are not the page's: measure once everything has settled.
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'));
  await injectAxe(page);
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

export type AxeImpact = 'critical' | 'serious' | 'moderate' | 'minor';

export interface AxeReport {
  /** How many rules failed, by their impact. */
  byImpact: Record<AxeImpact, number>;
  /** The serious and critical ones, one line each. */
  serious: string[];
  /** The moderate ones, one line each. */
  moderate: string[];
}

/** Runs axe-core on the page as it is and counts the failed rules by impact. */
export async function axeReport(page: Page): Promise<AxeReport> {
  // Entrances settle; a spinner's endless turn never does and changes no colour worth waiting for.
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity),
  );
  await injectAxe(page);
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
  const byImpact: Record<AxeImpact, number> = { critical: 0, serious: 0, moderate: 0, minor: 0 };
  for (const violation of violations) if (violation.impact && violation.impact in byImpact) byImpact[violation.impact as AxeImpact] += 1;
  const lines = (impacts: string[]) =>
    violations
      .filter((violation) => violation.impact !== null && impacts.includes(violation.impact))
      .map((violation) => `${violation.impact} ${violation.id}: ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
  return { byImpact, serious: lines(['serious', 'critical']), moderate: lines(['moderate']) };
}
