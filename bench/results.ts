import { writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';

/**
 * The machine-readable side of every benchmark: a benchmark given a file in
 * BENCH_RESULTS_FILE writes its figures there as JSON (`npm run bench` reads
 * them and prints one table). Run alone, a benchmark only prints.
 */
export interface Budget {
  /** `min`: the value must be at least `value`; `max`: at most. */
  kind: 'min' | 'max';
  value: number;
}

export interface Figure {
  /** What was measured, e.g. "rest/v1 listing req/s (PostgreSQL, 100,000 ads)". */
  figure: string;
  value: number | null;
  unit: string;
  budget?: Budget;
  /** Set when passing needs more than the budget (e.g. no errors); else derived from the budget. */
  pass?: boolean;
  /** Anything the reader needs next to the value (sample size, median of n runs). */
  note?: string;
}

export interface BenchReport {
  bench: string;
  machine: string;
  figures: Figure[];
}

export const RESULTS_FILE_VARIABLE = 'BENCH_RESULTS_FILE';

/** Cores, memory and the load average when called: figures from a loaded machine read differently. */
export function machineDescription(): string {
  const [one] = loadavg();
  return `${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GB, load ${one!.toFixed(1)}`;
}

export function meetsBudget(value: number | null, budget: Budget | undefined): boolean | null {
  if (!budget) return null;
  if (value === null || !Number.isFinite(value)) return false;
  return budget.kind === 'min' ? value >= budget.value : value <= budget.value;
}

export function passOf(figure: Figure): boolean | null {
  const byBudget = meetsBudget(figure.value, figure.budget);
  if (figure.pass === undefined) return byBudget;
  return figure.pass && byBudget !== false;
}

export function budgetText(budget: Budget | undefined, unit: string): string {
  if (!budget) return '';
  return `${budget.kind === 'min' ? '≥' : '≤'} ${budget.value.toLocaleString('en-US')} ${unit}`.trim();
}

/** Writes the report where BENCH_RESULTS_FILE points, if it does. */
export function writeResults(report: BenchReport, env: NodeJS.ProcessEnv = process.env): void {
  const file = env[RESULTS_FILE_VARIABLE];
  if (!file) return;
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
}
