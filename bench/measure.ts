import { becomeIn, type Actor } from '../tests/support/acting.ts';
import type { BenchConnection } from './bench-database.ts';

export interface RunLimits {
  warmupRuns: number;
  runs: number;
  /** Measuring stops after this long even if fewer runs were made (at least one is). */
  seconds: number;
}

export interface Timing {
  runs: number;
  p50: number;
  p95: number;
  /** What the last call returned, counted by the case. */
  returned: number;
}

/**
 * One call as the actor, the way the API makes it: its own transaction with
 * the role and JWT claims set, committed. Only the call itself is timed
 * (client round trip and result transfer included). A case asks for a JSON
 * answer as text, as the API does, so no JSON.parse is timed.
 */
export async function callAs(
  conn: BenchConnection,
  actor: Actor,
  sql: string,
  params: unknown[],
): Promise<{ ms: number; rows: Record<string, unknown>[] }> {
  await conn.exec('begin');
  try {
    await becomeIn(conn, actor);
    const started = performance.now();
    const result = await conn.query<Record<string, unknown>>(sql, params);
    const ms = performance.now() - started;
    await conn.exec('commit');
    return { ms, rows: result.rows };
  } catch (error) {
    await conn.exec('rollback');
    throw error;
  }
}

export function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

export async function measure(
  conn: BenchConnection,
  actor: Actor,
  sql: string,
  params: (run: number) => unknown[],
  count: (rows: Record<string, unknown>[]) => number,
  limits: RunLimits,
): Promise<Timing> {
  const warmupDeadline = performance.now() + limits.seconds * 250;
  for (let run = 0; run < limits.warmupRuns && performance.now() < warmupDeadline; run += 1) {
    await callAs(conn, actor, sql, params(run));
  }
  const times: number[] = [];
  let returned = 0;
  const deadline = performance.now() + limits.seconds * 1000;
  for (let run = 0; run < limits.runs && (run === 0 || performance.now() < deadline); run += 1) {
    const { ms, rows } = await callAs(conn, actor, sql, params(run));
    times.push(ms);
    returned = count(rows);
  }
  times.sort((a, b) => a - b);
  return { runs: times.length, p50: percentile(times, 0.5), p95: percentile(times, 0.95), returned };
}
